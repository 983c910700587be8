"""verl's prime_code rows: `reward_model.ground_truth` (or a `ground_truth` column), a JSON string
{"inputs", "outputs", "fn_name"?} graded as APPS rows, or {"assert_case": [...], "fn_name"?}
(verl's sandbox_fusion form: each case is Python appended to the program, usually an assert).

With `fn_name`, an input that is a string holds one JSON argument per line and its output is JSON
text (LiveCodeBench's style), as verl reads them on both its paths: prime_code's testing_util
(`[json.loads(line) for line in inputs.split("\n")]`, `json.loads(outputs[i])`) and the wrapper its
sandbox_fusion utils run around the program (volcengine/verl b178a3cd). An input that is a list is
APPS's argument list."""
from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from .apps import io_task
from .common import FormatError, apps_call_tests, lcb_call_test, with_preamble

NAME = "verl"


def ground_truth(row: Mapping[str, Any]) -> Any:
    """The row's code ground truth as a mapping, or None when it is not one (a math answer)."""
    model = row.get("reward_model")
    value = model.get("ground_truth") if isinstance(model, Mapping) else row.get("ground_truth")
    if isinstance(value, str) and value.lstrip().startswith("{"):
        try:
            value = json.loads(value)
        except ValueError:
            return None
    if isinstance(value, Mapping) and (("inputs" in value and "outputs" in value) or "assert_case" in value):
        return value
    return None


def detect(row: Mapping[str, Any]) -> bool:
    return ground_truth(row) is not None


def to_task(row: Mapping[str, Any], completion: str) -> dict:
    spec = ground_truth(row)
    if spec is None:
        raise FormatError("reward_model.ground_truth / ground_truth: expected JSON {inputs, outputs} or {assert_case}")
    cases = spec.get("assert_case")
    if cases is not None:
        if not isinstance(cases, list) or not cases or not all(isinstance(c, str) for c in cases):
            raise FormatError("ground_truth.assert_case: expected a non-empty list of strings")
        task = {"kind": "code", "language": "python", "completion": completion, "test_code": "\n".join(cases) + "\n"}
        if isinstance(spec.get("fn_name"), str) and spec["fn_name"]:
            task["entry_point"] = spec["fn_name"]
        return task
    inputs, fn_name = spec.get("inputs"), spec.get("fn_name")
    if fn_name and isinstance(fn_name, str) and isinstance(inputs, list) and any(isinstance(i, str) for i in inputs):
        return {"kind": "code", "language": "python", "completion": with_preamble(completion), "entry_point": fn_name,
                "call_tests": call_tests(inputs, spec.get("outputs"), "ground_truth")}
    return io_task(spec, completion, "ground_truth")


def call_tests(inputs: list, outputs: Any, where: str) -> list[dict]:
    """verl's call tests: a string input is JSON lines (its output JSON text), a list one APPS's arguments."""
    if not isinstance(outputs, list) or len(outputs) != len(inputs):
        raise FormatError(f"{where}: inputs and outputs must be lists of the same length")
    tests = []
    for n, (args, expected) in enumerate(zip(inputs, outputs)):
        if isinstance(args, str):
            text = expected if isinstance(expected, str) else json.dumps(expected)
            tests.append(lcb_call_test(args, text, f"{where}.inputs[{n}]"))
        else:
            tests.extend(apps_call_tests([args], [expected], f"{where}.inputs[{n}]"))
    return tests

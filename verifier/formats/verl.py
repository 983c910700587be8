"""verl's prime_code rows: `reward_model.ground_truth` (or a `ground_truth` column), a JSON string
{"inputs", "outputs", "fn_name"?} graded as APPS rows, or {"assert_case": [...], "fn_name"?}
(verl's sandbox_fusion form: each case is Python appended to the program, usually an assert)."""
from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from .apps import io_task
from .common import FormatError

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
    return io_task(spec, completion, "ground_truth")

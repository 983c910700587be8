"""DeepCoder / rllm (agentica-org/DeepCoder-Preview-Dataset): `tests`, a JSON string in one of the
shapes of its sources, read as rllm's code reward reads them:
- LiveCodeBench rows: [{"input", "output", "testtype": "stdin" | "functional", "metadata": {"func_name"}}]
  (the function name may also be in a `metadata` column);
- PrimeIntellect rows: [{"input", "output", "type": "stdin_stdout" | "function_call", "fn_name"?}];
- TACO rows: {"inputs", "outputs", "fn_name"?};
- Codeforces rows: [{"input", "output"}].
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .apps import io_task
from .common import FormatError, load_json
from .livecodebench import lcb_tests_task

NAME = "deepcoder"


def detect(row: Mapping[str, Any]) -> bool:
    """`tests` with input/output keys (as JSON text or decoded); ours ({"stdin", "expected_stdout"}) is not."""
    if row.get("kind") is not None:
        return False
    tests = row.get("tests")
    if isinstance(tests, str):
        if tests.lstrip()[:1] not in ("[", "{"):
            return False
        try:
            tests = load_json(tests, "tests")
        except FormatError:
            return True  # named as DeepCoder's: its error says what is wrong with the JSON
    if isinstance(tests, Mapping):
        return "inputs" in tests
    return isinstance(tests, list) and bool(tests) and isinstance(tests[0], Mapping) and "input" in tests[0]


def to_task(row: Mapping[str, Any], completion: str) -> dict:
    tests = load_json(row["tests"], "tests")
    if isinstance(tests, Mapping):
        return io_task(tests, completion, "tests")
    if not isinstance(tests, list) or not tests or not all(isinstance(t, Mapping) for t in tests):
        raise FormatError("tests: expected a non-empty list of test objects or {inputs, outputs}")
    if any("testtype" in t for t in tests):
        metadata = tests[0].get("metadata") or load_json(row.get("metadata") or "{}", "metadata")
        func_name = metadata.get("func_name") if isinstance(metadata, Mapping) else None
        return lcb_tests_task(tests, func_name, completion, "tests")
    spec = {"inputs": [t.get("input") for t in tests], "outputs": [t.get("output") for t in tests],
            "fn_name": tests[0].get("fn_name")}
    return io_task(spec, completion, "tests")

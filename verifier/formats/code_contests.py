"""deepmind/code_contests: `public_tests`, `private_tests`, `generated_tests`, each {"input": [...],
"output": [...]}; `time_limit` {"seconds", "nanos"}; `memory_limit_bytes`. Solutions may be in any
language: the completion's fence names it (```cpp), else Python."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .common import FormatError, language_of, stdin_tests

NAME = "code_contests"
TEST_COLUMNS = ("public_tests", "private_tests", "generated_tests")


def detect(row: Mapping[str, Any]) -> bool:
    return any(isinstance(row.get(c), Mapping) and "input" in row[c] for c in TEST_COLUMNS)


def to_task(row: Mapping[str, Any], completion: str) -> dict:
    tests: list[dict] = []
    for column in TEST_COLUMNS:
        value = row.get(column)
        if value is None:
            continue
        if not isinstance(value, Mapping) or not isinstance(value.get("input"), list) \
                or not isinstance(value.get("output"), list):
            raise FormatError(f"{column}: expected {{input: [...], output: [...]}}")
        tests += stdin_tests(value["input"], value["output"], column)
    if not tests:
        raise FormatError(f"{', '.join(TEST_COLUMNS)}: no tests")
    task: dict[str, Any] = {"kind": "code", "language": language_of(row, completion), "completion": completion,
                            "compare": "float", "tests": tests}
    limit = row.get("time_limit")
    if isinstance(limit, Mapping):
        seconds = (limit.get("seconds") or 0) + (limit.get("nanos") or 0) / 1e9
        if seconds > 0:
            task["time_limit_s"] = seconds
    memory = row.get("memory_limit_bytes")
    if isinstance(memory, int) and memory > 0:
        task["memory_limit_mb"] = memory // (1 << 20)
    return task

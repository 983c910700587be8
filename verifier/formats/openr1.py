"""open-r1 / PrimeIntellect `verification_info`: {"language", "test_cases": [...]}, each test case
{"type": "stdin_stdout", "input", "output"} or {"type": "function_call", "fn_name", "input": [args],
"output": [value]}."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .common import FormatError, apps_call_tests, language_of, load_json, stdin_tests, with_preamble

NAME = "open-r1"


def detect(row: Mapping[str, Any]) -> bool:
    """verification_info with test_cases (ours, with `tests` / `test_code` inside, is the trainer's own)."""
    try:
        info = load_json(row.get("verification_info"), "verification_info")
    except FormatError:
        return False
    return isinstance(info, Mapping) and "test_cases" in info


def to_task(row: Mapping[str, Any], completion: str) -> dict:
    info = load_json(row["verification_info"], "verification_info")
    if not isinstance(info, Mapping) or not isinstance(info.get("test_cases"), list):
        raise FormatError("verification_info: expected an object with a test_cases list")
    cases = info["test_cases"]
    calls = [c for c in cases if isinstance(c, Mapping) and c.get("type") == "function_call"]
    if not cases:
        raise FormatError("verification_info.test_cases: empty")
    if calls and len(calls) != len(cases):
        raise FormatError("verification_info.test_cases: mixes function_call and stdin_stdout cases")
    for n, c in enumerate(cases):
        if not isinstance(c, Mapping) or "input" not in c or "output" not in c:
            raise FormatError(f"verification_info.test_cases[{n}]: needs input and output")
    language = info.get("language") if isinstance(info.get("language"), str) else None
    task = {"kind": "code", "language": language_of({"language": language} if language else row, completion)}
    if calls:
        names = {c.get("fn_name") for c in calls}
        if len(names) != 1 or not isinstance(next(iter(names)), str):
            raise FormatError("verification_info.test_cases: function_call cases need one fn_name")
        return {**task, "completion": with_preamble(completion), "entry_point": names.pop(),
                "call_tests": apps_call_tests([c["input"] for c in calls], [c["output"] for c in calls],
                                              "verification_info.test_cases")}
    return {**task, "completion": completion,
            "tests": stdin_tests([c["input"] for c in cases], [c["output"] for c in cases], "verification_info.test_cases")}

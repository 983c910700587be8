"""LiveCodeBench (code_generation_lite): `public_test_cases` (JSON text) and `private_test_cases`
(JSON text, or base64 of zlib of a pickled JSON string), each test {"input", "output", "testtype":
"stdin" | "functional"}; `metadata` (JSON text) names `func_name` for functional problems, whose
`starter_code` is a `class Solution` method (LeetCode)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .common import FormatError, lcb_call_test, lcb_private_tests, load_json, stdin_tests, with_preamble

NAME = "livecodebench"


def detect(row: Mapping[str, Any]) -> bool:
    return row.get("public_test_cases") is not None or row.get("private_test_cases") is not None


def lcb_tests_task(tests: list, func_name: Any, completion: str, where: str) -> dict:
    """A task from LiveCodeBench-shaped tests (also DeepCoder's `lcbv5` rows)."""
    if not tests:
        raise FormatError(f"{where}: no tests")
    for n, t in enumerate(tests):
        if not isinstance(t, Mapping) or not isinstance(t.get("input"), str) or not isinstance(t.get("output"), str):
            raise FormatError(f"{where}[{n}]: needs string input and output")
    kinds = {t.get("testtype", "stdin") for t in tests}
    if kinds == {"functional"}:
        if not isinstance(func_name, str) or not func_name:
            raise FormatError(f"{where}: functional tests need metadata.func_name")
        return {"kind": "code", "language": "python", "completion": with_preamble(completion),
                "entry_point": func_name,
                "call_tests": [lcb_call_test(t["input"], t["output"], f"{where}[{n}]") for n, t in enumerate(tests)]}
    if kinds != {"stdin"}:
        raise FormatError(f"{where}: testtype must be all 'stdin' or all 'functional', got {sorted(map(str, kinds))}")
    # LiveCodeBench compares stripped lines, then the lines' numbers as Decimals: float is our nearest
    return {"kind": "code", "language": "python", "completion": with_preamble(completion), "compare": "float",
            "tests": stdin_tests([t["input"] for t in tests], [t["output"] for t in tests], where)}


def to_task(row: Mapping[str, Any], completion: str) -> dict:
    public = load_json(row.get("public_test_cases") or "[]", "public_test_cases")
    private = lcb_private_tests(row.get("private_test_cases"), "private_test_cases")
    if not isinstance(public, list):
        raise FormatError("public_test_cases: expected a list")
    metadata = load_json(row.get("metadata") or "{}", "metadata")
    func_name = metadata.get("func_name") if isinstance(metadata, Mapping) else None
    return lcb_tests_task(public + private, func_name, completion, "public_test_cases+private_test_cases")

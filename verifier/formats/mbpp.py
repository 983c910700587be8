"""MBPP (full and sanitized): `test_list` (assert statements), `test_setup_code`, and in the sanitized
split `test_imports`. Graded as MBPP's harness does: setup, then the asserts (challenge tests not).
Setup code runs in the process judge before the asserts; objects it builds that the asserts hand to
the program (problem 902's tree nodes) cannot cross the judge's typed wire, and such a call fails
naming the type (docs/sandboxes.md "How assert-style tests are judged": no judge shares the program's
interpreter)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .common import FormatError

NAME = "mbpp"


def detect(row: Mapping[str, Any]) -> bool:
    return isinstance(row.get("test_list"), list)


def to_task(row: Mapping[str, Any], completion: str) -> dict:
    asserts = row["test_list"]
    if not asserts or not all(isinstance(a, str) for a in asserts):
        raise FormatError("test_list: expected a non-empty list of assert statements")
    imports = row.get("test_imports") or []
    setup = row.get("test_setup_code") or ""
    if not isinstance(imports, list) or not all(isinstance(i, str) for i in imports) or not isinstance(setup, str):
        raise FormatError("test_imports / test_setup_code: expected a list of strings / a string")
    test_code = "\n".join([*imports, setup, *asserts]).strip() + "\n"
    return {"kind": "code", "language": "python", "completion": completion, "test_code": test_code}

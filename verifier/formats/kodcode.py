"""KodCode: `test`, a pytest file that imports the program as `solution` (`from solution import f`);
`test_info` lists the functions under test. Its `solution` column is reference code, never a math
answer."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .common import FormatError

NAME = "kodcode"


def detect(row: Mapping[str, Any]) -> bool:
    test = row.get("test")
    return isinstance(test, str) and (row.get("test_info") is not None or "from solution import" in test
                                      or "import solution" in test)


def to_task(row: Mapping[str, Any], completion: str) -> dict:
    test = row.get("test")
    if not isinstance(test, str) or not test.strip():
        raise FormatError("test: expected the pytest file as a string")
    return {"kind": "code", "language": "python", "completion": completion, "test_code": test,
            "test_framework": "pytest"}

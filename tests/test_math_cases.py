"""Regression cases for math grading: tests/data/math_cases.jsonl, one (completion, gold, profile,
choices) -> verdict per line, raw strings in a data file (no Python escape surprises).

These cases define behaviour; a math-verify upgrade that changes any verdict fails here.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from verifier.math import grade_math

CASES_FILE = Path(__file__).parent / "data" / "math_cases.jsonl"


def load_cases() -> list[dict]:
    with CASES_FILE.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


CASES = load_cases()


def test_case_ids_are_unique():
    ids = [c["id"] for c in CASES]
    assert len(ids) == len(set(ids))


@pytest.mark.timeout(30)
@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_case(case: dict) -> None:
    task = {k: case[k] for k in ("completion", "gold", "profile", "choices", "problem") if k in case}
    result = grade_math(task)
    assert result["verdict"] == case["verdict"], (result, case.get("why", ""))
    assert result["score"] == (1.0 if case["verdict"] == "correct" else 0.0)
    if "extracted_from" in case:
        assert result["extracted_from"] == case["extracted_from"], result

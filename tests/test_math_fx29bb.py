"""A problem's names come from its math, never its wording (fx29bb; red team 30 class 1, tests/test_math_redteam_30.py):
a one-letter name is a letter inside a math span, beside an operator or a relation, or in the wording of a script
without case (`求 x`); a figure's points are the capitals of `∠`/`△` names and of two segments `∥`/`⊥` joins.
Near misses: the same step lines under problems whose wording alone writes the letters are refused; rewrites: under
problems whose math writes them, they pay (grammar._problem_names)."""
from __future__ import annotations

import pytest

from tests.helpers import MATH_PROFILES
from verifier.math.grade import grade_math

ANSWER = "答案是 6。"


def verdicts(completion: str, problem: str, gold: str = "6") -> list[str]:
    return [grade_math({"completion": completion, "gold": gold, "profile": p, "problem": problem})["verdict"]
            for p in MATH_PROFILES]


@pytest.mark.parametrize(("step", "problem"), [
    ("所以 a + n = 6；", "Find a number n such that a line through it is level."),   # `a`, `n` only as words
    ("所以 x = 6；", "Which value is x? Choose (A) or (B)."),                           # `x` in English wording
    ("所以 C + A = 6；", "Choose one: (A) 5 (B) 6 (C) 7"),                             # a choice list
    ("所以 ∠NOT = 6；", "Is segment NO ∥ to line T? Answer YES or NO."),              # one capital pair beside ∥
    ("所以 O + R = 6；", "Points O and R lie on the circle; find x."),                   # points named in prose
])
def test_a_problems_wording_grounds_no_name(step: str, problem: str) -> None:
    assert verdicts(f"{step}\n{ANSWER}", problem) == ["no_answer"] * len(MATH_PROFILES)


@pytest.mark.parametrize(("step", "problem"), [
    ("所以 x = 6；", "已知 x + 2 = 8，求 x。"),                      # beside an operator
    ("所以 x = 6；", "Solve $2x = 12$."),                             # inside a math span
    ("所以 n = 6；", "求 n 的值，使 n² = 36。"),                      # in Chinese wording
    ("ดังนั้น x = 6;", "หาค่า x"),                                  # in Thai wording
    ("所以 ∠DEC = 6°；", "如图，AB∥CD，BE⊥AF，∠B＝65°，则∠DEF的度数是（）"),  # the figure's points
    ("所以 a + b = 6；", "If $a = 2$ and $b = 4$, what is a + b?"),
])
def test_a_problems_math_grounds_its_names(step: str, problem: str) -> None:
    assert verdicts(f"{step}\n{ANSWER}", problem) == ["correct"] * len(MATH_PROFILES)
    assert verdicts(f"{step}\n{ANSWER}", problem, gold="7") == ["incorrect"] * len(MATH_PROFILES)

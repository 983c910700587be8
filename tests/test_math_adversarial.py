"""Adversarial answers must come back with a verdict, fast, thanks to the cheap guards.

The parent's per-item deadline is the last resort; these inputs must not need it. The timeout
marks are hang guards only (pytest-timeout kills a stuck test), not speed assertions.
"""

from __future__ import annotations

import pytest

from verifier.math import grade_math

MB = 1_000_000
TOWER_65 = r"\dfrac{5^{\left(5^{\left(5^{\left(5^5\right)}\right)} - 4\right)} - 5}{16}"


def grade(answer: str, gold: str, **kw) -> dict:
    return grade_math({"completion": f"The answer is $\\boxed{{{answer}}}$.", "gold": gold, **kw})


# A hang guard, not a speed bound: TOWER_65 alone takes 5.4-6.4 s (the expansion guard's exact denominators) and went
# past 30 s twice at load 6-17 on 2 cores (stop 53, fx29d's run and mine); 120 s still stops a hang.
@pytest.mark.timeout(120)
@pytest.mark.parametrize(
    "answer, gold, verdict",
    [
        (r"9^{9^{9}}", "1", "incorrect"),
        (r"9^{9^{9}}", r"9^{387420489}", "correct"),
        (r"9^{9^{9}}", r"9^{9^{9}}+1", "incorrect"),
        (TOWER_65, "1", "incorrect"),
        (TOWER_65, TOWER_65.replace(r"\dfrac", r"\frac"), "correct"),
        (r"5^{5^{5^{5^{5}}}}", r"5^{5^{5^{5}}}", "incorrect"),
        (r"2^{2^{30}}", "0", "incorrect"),
        (r"10^{10^{10}}", r"10^{10^{10}}", "correct"),
        (r"(10^{6})!", "1", "incorrect"),
        (r"(10^{6})!", r"1000000!", "correct"),
        (r"(100!)!", "5", "incorrect"),
        (r"\binom{10^{9}}{5 \cdot 10^{8}}", "7", "incorrect"),
        (r"10^{-10^{6}}", "0", "incorrect"),
        (r"0.1^{10^{6}}", "0", "incorrect"),
        (r"e^{e^{e^{10}}}", "1", "incorrect"),
        (r"\sqrt{2}^{10^{9}}", "2", "incorrect"),
        (r"x^{10^{100}}", "x", "incorrect"),
        (r"\sin(10^{100})", r"\sin(10^{100})", "correct"),
        (r"\sin(10^{100})", r"\cos(10^{100})", "incorrect"),
        (r"\begin{pmatrix} 9^{9^{9}} & 1 \end{pmatrix}", r"\begin{pmatrix} 1 & 1 \end{pmatrix}", "incorrect"),
        (r"(9^{9^{9}}, 1)", "(1, 1)", "incorrect"),
        (r"\{9^{9^{9}}, 1\}", r"\{1, 2\}", "incorrect"),
        (r"x = 9^{9^{9}}", "1", "incorrect"),
    ],
)
def test_huge_values(answer, gold, verdict):
    assert grade(answer, gold)["verdict"] == verdict


@pytest.mark.timeout(30)
@pytest.mark.parametrize(
    "answer",
    [
        "{" * 50 + "1" + "}" * 50,
        "(1+" * 20 + "1" + ")" * 20,
        r"\frac{1}{" * 150 + "2" + "}" * 150,
        r"\frac{1}{" * 3000 + "2" + "}" * 3000,
        r"\sqrt{2+" * 200 + "2" + "}" * 200,
        "[" * 40 + "]" * 40,
        "1+" * 5000 + "1",
    ],
    ids=["braces-50", "paren-sums-20", "frac-150", "frac-3000", "sqrt-200", "brackets-40", "sum-5000"],
)
def test_deep_or_long_answers_are_incorrect_without_parsing(answer):
    r = grade(answer, "1")
    assert r["verdict"] == "incorrect"
    assert "answer" in r["detail"]


@pytest.mark.timeout(30)
@pytest.mark.parametrize("depth", [20, 50, 500])
def test_redundant_parentheses_are_collapsed_not_refused(depth):
    """`((...(1)...))` means 1: the nesting guard sees the collapsed text, so it is graded."""
    assert grade("(" * depth + "1" + ")" * depth, "1")["verdict"] == "correct"
    assert grade("(" * depth + "2" + ")" * depth, "1")["verdict"] == "incorrect"


@pytest.mark.timeout(30)
def test_megabyte_completion_with_answer_at_the_end():
    completion = "Let me think. " * (MB // 14) + r"So the answer is \boxed{\frac{3}{4}}."
    assert grade_math({"completion": completion, "gold": "0.75"})["verdict"] == "correct"


@pytest.mark.timeout(30)
def test_megabyte_box_is_too_long():
    r = grade_math({"completion": r"\boxed{" + "1+" * (MB // 2) + "1}", "gold": "1"})
    assert r["verdict"] == "incorrect" and "longer than" in r["detail"]
    assert len(r["extracted"]) == 200


@pytest.mark.timeout(30)
@pytest.mark.parametrize("profile", ["strict", "lenient"])
@pytest.mark.parametrize(
    "completion",
    ["9" * MB, "$" * MB, "(" * MB, "\\(" * (MB // 2), "Answer: " * (MB // 8), "<think>" * (MB // 7)],
    ids=["digits", "dollars", "parens", "math-openers", "anchors", "think-tags"],
)
def test_megabyte_garbage_gets_a_verdict(completion, profile):
    r = grade_math({"completion": completion, "gold": "42", "profile": profile})
    assert r["verdict"] in ("incorrect", "no_answer")


@pytest.mark.timeout(30)
def test_large_matrix_is_graded():
    rows = r" \\ ".join(" & ".join(str(i * j) for j in range(15)) for i in range(15))
    matrix = rf"\begin{{pmatrix}} {rows} \end{{pmatrix}}"
    assert grade(matrix, matrix.replace(" ", ""))["verdict"] == "correct"


@pytest.mark.timeout(30)
def test_pool_stays_healthy_after_adversarial_items():
    """After a tower and a deep nest, an ordinary item in the same process still grades right."""
    grade(TOWER_65, "1")
    grade("{" * 50 + "1" + "}" * 50, "1")
    assert grade(r"\frac{\sqrt{8}}{2}", r"\sqrt{2}")["verdict"] == "correct"

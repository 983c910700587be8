"""Grading-time bounds on matrices and series (issue 29; verifier/math/guards.py `matrix_guard`, `_series_digits`;
docs/math.md "Answer grammar", item 5): constructs inside the earlier bounds that held a worker for seconds (a 12x12
symbolic determinant over 40 s, a 4x4 symbolic inverse over 45 s, `\\sum_{k=1}^{1000} k!` over 45 s, nested sums)
are refused or never evaluated: never paid, never an infra error. No timed assertion: each test asserts the bound
(the refusal's reason, or `INFINITE` digits), and the rewrites that must still pay.
"""

from __future__ import annotations

import pytest

from helpers import math_verdicts
from verifier.math.guards import INFINITE, magnitude_digits, matrix_guard
from verifier.math.limits import DEFAULT_LIMITS
from verifier.math.parsing import _math_verify_parse, parse_prediction


def _rows(n: int) -> list[str]:
    """An n x n matrix of powers of letters (tests/helpers.py's slow gold, any size)."""
    return [" & ".join(f"{chr(97 + (i * n + j) % 26)}^{{{(i * j) % 5 + 1}}}" for j in range(n)) for i in range(n)]


def _numbers(n: int) -> list[str]:
    return [" & ".join(str((i * 7 + j * 3) % 11 + 1) for j in range(n)) for i in range(n)]


def _matrix(rows: list[str], env: str = "pmatrix") -> str:
    return f"\\begin{{{env}}}" + " \\\\ ".join(rows) + f"\\end{{{env}}}"


REFUSED = [
    "\\det" + _matrix(_rows(3)), "\\det" + _matrix(_rows(4)), "\\det" + _matrix(_rows(12)), _matrix(_rows(8), "vmatrix"),
    "\\det" + _matrix(_rows(3), "bmatrix"), "\\det" + _matrix(_rows(3), "matrix"),
    "\\det\\left(\\begin{array}{ccc}" + " \\\\ ".join(_rows(3)) + "\\end{array}\\right)",
    "\\mathrm{det}" + _matrix(_rows(3)), _matrix(_rows(3)) + "^{-1}", _matrix(_rows(4)) + "^{-1}",
    _matrix(_rows(2)) + "^{30}", _matrix(_rows(2)) + "^{8}", "\\left(" + _matrix(_rows(2), "matrix") + "\\right)^{12}",
    _matrix(_rows(3)) + _matrix(_rows(3)), _matrix(_rows(12)), _matrix(["\\sqrt{2} & 1 & 0", "0 & 1 & 0", "0 & 0 & 1"]) + "^{-1}",
]


@pytest.mark.parametrize("latex", REFUSED)
def test_a_symbolic_matrix_computed_on_is_refused(latex: str) -> None:
    assert matrix_guard(latex) is not None
    assert isinstance(parse_prediction(latex), str)
    assert "correct" not in math_verdicts(f"\\boxed{{{latex}}}", "1 + x")


ADMITTED = [
    "\\det" + _matrix(_numbers(12)), "\\det" + _matrix(_numbers(20)), _matrix(_numbers(12)) + "^{-1}",
    _matrix(_numbers(6)) + "^{200}", _matrix(_rows(6)), "\\det" + _matrix(_rows(2)), _matrix(_rows(2)) + "^{-1}",
    _matrix(_rows(2)) + "^{T}", _matrix(_rows(2)) + "^{2}", _matrix(["\\frac{1}{2} & -3", "4.5 & 0"]) + "^{100}",
]


@pytest.mark.parametrize("latex", ADMITTED)
def test_a_numeric_or_small_matrix_is_read(latex: str) -> None:
    assert matrix_guard(latex) is None


@pytest.mark.parametrize("completion, gold", [
    ("\\boxed{\\det\\begin{pmatrix} x & 1 \\\\ 1 & x \\end{pmatrix}}", "x^2 - 1"),
    ("\\boxed{\\det\\begin{pmatrix} 1 & 2 & 3 \\\\ 4 & 5 & 6 \\\\ 7 & 8 & 10 \\end{pmatrix}}", "-3"),
    ("\\boxed{\\begin{pmatrix} x & 1 & 0 \\\\ 0 & x & 1 \\\\ 1 & 0 & x \\end{pmatrix}}",
     "\\begin{pmatrix} x & 1 & 0 \\\\ 0 & x & 1 \\\\ 1 & 0 & x \\end{pmatrix}"),
    ("\\boxed{\\sum_{k=1}^{100} k}", "5050"), ("\\boxed{\\sum_{k=1}^{n} k^{2}}", "\\frac{n(n+1)(2n+1)}{6}"),
    ("\\boxed{\\sum_{k=0}^{10} 2^{k}}", "2047"), ("\\boxed{\\prod_{k=1}^{10} k}", "3628800"),
])
def test_a_small_determinant_matrix_or_series_still_pays(completion: str, gold: str) -> None:
    assert math_verdicts(completion, gold) == ["correct", "correct"]


@pytest.mark.parametrize("completion, gold", [
    ("\\boxed{\\det\\begin{pmatrix} x & 1 \\\\ 1 & x \\end{pmatrix}}", "x^2 + 1"),
    ("\\boxed{\\det\\begin{pmatrix} 1 & 2 & 3 \\\\ 4 & 5 & 6 \\\\ 7 & 8 & 10 \\end{pmatrix}}", "3"),
    ("\\boxed{\\sum_{k=1}^{100} k}", "5051"), ("\\boxed{\\sum_{k=1}^{1000} k}", "500500"),
    ("\\boxed{\\sum_{i=1}^{10}\\sum_{j=1}^{10} ij}", "3025"),
])
def test_a_near_miss_or_an_unevaluated_series_is_never_paid(completion: str, gold: str) -> None:
    """A wrong value, or a series past the bounds (compared as written, never evaluated: recall given up)."""
    assert "correct" not in math_verdicts(completion, gold)


@pytest.mark.parametrize("latex", [
    "\\sum_{k=1}^{1000} k!", "\\sum_{i=1}^{1000} i^{1000}", "\\sum_{k=1}^{1000} 2^{k} k^{5}", "\\prod_{k=1}^{1000} k^{k}",
    "\\sum_{k=1}^{1000} \\frac{1}{k(k+1)}", "\\sum_{i=1}^{100} i^{1000}", "\\sum_{k=1}^{n} k^{50}", "\\sum_{k=1}^{30} k^{k}",
    "\\sum_{i=1}^{10}\\sum_{j=1}^{10}\\sum_{k=1}^{10} (i+j+k)^{50}", "\\sum_{i=1}^{5}\\sum_{j=1}^{5}\\sum_{k=1}^{4} (i+j+k)^{10}",
    "\\sum_{i=1}^{10}\\sum_{j=1}^{10} \\frac{1}{i+j}", "\\sum_{k=0}^{100} 2^{k}",
    "\\sum_{k=1}^{100} k!",  # a factorial in a summed term: `Sum.doit` seeks a closed form first (red team 10 class 4)
])
def test_a_costly_series_is_never_evaluated(latex: str) -> None:
    assert magnitude_digits(_math_verify_parse(latex), DEFAULT_LIMITS) == INFINITE


@pytest.mark.parametrize("latex", ["\\sum_{k=1}^{99} 2^{k}", "\\sum_{k=1}^{100} k^{20}", "\\sum_{k=1}^{n} k^{20}", "\\prod_{k=1}^{100} k"])
def test_a_series_within_the_bounds_is_evaluated(latex: str) -> None:
    assert magnitude_digits(_math_verify_parse(latex), DEFAULT_LIMITS) < DEFAULT_LIMITS.max_exact_digits

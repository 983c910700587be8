"""Red-team findings against issue 29's math forms (real math-verify and sympy, no mocks).

1. Two numbers side by side with no operator. math-verify reads `1 2` as 1 + 2 (its mixed-number
   rule taken for any two numbers), `0.5 1` as 0.5 * 1, `2(3)` and `(2)(3)` as 2 + 3, and `12 345` as
   357; a space-dropping text test took `1 2` for `12`. So `\\boxed{0.5 1}` paid gold 1/2, `1 2` paid 3
   and 12, `12 345` paid 357. Only what is known to be one number is admitted (docs/math.md "Math
   grading rules"): three-digit groups (`12 345`, `1\\,000`) are one number, an integer then a
   fraction is a mixed number; any other pair of numbers side by side is no number at all.
2. Solutions of a system whose pairing the text does not keep. math-verify flattens
   `x = 1, y = 2 \\text{ or } x = 3, y = 4` into the set {x = 1, x = 3, y = 2, y = 4}, so the swapped
   pairing `x = 1, y = 4 \\text{ or } x = 3, y = 2` equalled it (the `and` form was fixed, `or` and
   a bare comma list were not). A set of equations that names one variable twice beside another is
   refused whatever joins it; `or` groups like `and`.
"""

from __future__ import annotations

import pytest

from verifier.math import Extraction, grade_extracted


def verdict(gold: str, answer: str) -> str:
    return grade_extracted(gold, Extraction(answer, "boxed"))["verdict"]


@pytest.mark.parametrize(
    "gold,answer",
    [
        ("\\frac{1}{2}", "0.5 1"),  # the report: an implicit product by 1
        ("\\frac{1}{2}", "1 0.5"),
        ("0.5", "0.5\\,1"),
        ("3", "1 2"),  # math-verify: 1 + 2
        ("12", "1 2"),  # the text test dropped the space
        ("8", "3 5"),
        ("357", "12 345"),  # 12 + 345, not the grouped 12345
        ("0", "1 000"),
        ("6", "1 2 3"),
        ("123", "1 2 3"),
        ("2.5", "1 2.5"),
        ("\\frac{1}{2}", "\\frac{1}{2} 1"),
        ("5", "2\\ 3"),
        ("5", "2\\quad 3"),
        ("5", "2(3)"),  # math-verify: 2 + 3
        ("5", "(2)(3)"),
        ("5", "(2) 3"),
        ("235", "1\\,234"),
        ("2", "1 3/2"),  # not a mixed number (improper), read as (1 + 3)/2
        ("10100", "10 100 1000"),  # groups of three after a one- or two-digit head only
    ],
)
def test_numbers_side_by_side_never_pay(gold: str, answer: str) -> None:
    assert verdict(gold, answer) == "incorrect"


@pytest.mark.parametrize(
    "gold,answer",
    [
        ("12345", "12 345"),  # SI digit groups
        ("1000", "1 000"),
        ("1234567", "1 234 567"),
        ("1234", "1\\,234"),
        ("1234.5", "1 234.5"),
        ("\\frac{7}{2}", "3 \\frac{1}{2}"),  # a mixed number
        ("-\\frac{11}{4}", "-2 \\frac{3}{4}"),
        ("\\frac{3}{2}", "1 1/2"),
        ("2\\sqrt{3}", "2 \\sqrt{3}"),  # a number times a root, a constant, a variable
        ("2\\pi", "2 \\pi"),
        ("2x", "2 x"),
        ("6", "2 \\cdot 3"),
        ("\\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix}", "\\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix}"),
        ("1, 2, 3", "1, 2, 3"),
        ("300", "10^2 \\cdot 3"),
    ],
)
def test_numbers_side_by_side_rewrites(gold: str, answer: str) -> None:
    assert verdict(gold, answer) == "correct"


def test_a_gold_of_two_numbers_side_by_side_is_not_graded() -> None:
    """A gold `1 2` is not a number we can read: loud, never a silent 3 or 12."""
    assert verdict("1 2", "3") == "invalid_gold"
    assert verdict("1 2", "12") == "invalid_gold"


@pytest.mark.parametrize(
    "gold,answer",
    [
        ("x = 1, y = 2 \\text{ or } x = 3, y = 4", "x = 1, y = 4 \\text{ or } x = 3, y = 2"),  # pairing swapped
        ("x=1, y=2 or x=3, y=4", "x=1, y=4 or x=3, y=2"),
        ("x = 1, y = 2; x = 3, y = 4", "x = 1, y = 4 \\text{ or } x = 3, y = 2"),
        ("x = 1, y = 2 \\text{ or } x = 3, y = 4", "x = 1, y = 4; x = 3, y = 2"),
        ("x = 1, y = 2, x = 3, y = 4", "x = 1, y = 4, x = 3, y = 2"),  # a flat list keeps no pairing
        ("x = 1, y = 2; x = 3, y = 4", "x = 1, y = 4, x = 3, y = 2"),
        ("a = 1, b = 2 \\text{ or } a = 3, b = 4", "a = 3, b = 2 \\text{ or } a = 1, b = 4"),
        ("x = 1, y = 2 \\text{ or } x = 3, y = 4", "x = 1, y = 2"),  # one solution missing
    ],
)
def test_solutions_without_their_pairing_never_pay(gold: str, answer: str) -> None:
    assert verdict(gold, answer) != "correct"


@pytest.mark.parametrize(
    "gold,answer",
    [
        ("x = 1, y = 2; x = 3, y = 4", "x = 1, y = 2 \\text{ or } x = 3, y = 4"),
        ("x = 1, y = 2 \\text{ or } x = 3, y = 4", "x = 3, y = 4 \\text{ and } x = 1, y = 2"),
        ("x=1, y=2 or x=3, y=4", "x = 1, y = 2; x = 3, y = 4"),
        ("x = 2; x = -3", "x = 2 \\text{ or } x = -3"),  # one variable: a set of values, as before
        ("x = 2 \\text{ or } x = -3", "x = -3, x = 2"),
        ("x = 1, y = 2", "x = 1, y = 2"),
    ],
)
def test_solutions_joined_by_or_rewrites(gold: str, answer: str) -> None:
    assert verdict(gold, answer) == "correct"


# 3. A relation read as an interval (issue 29's `y > 2` = `(2, \infty)`) only when it is written
# alone. normalise dropped a parameter domain (`, n \in \mathbb{Z}`) and a trailing `\text{...}`,
# and math-verify drops text after a relation itself, so `n > 2, n \in \mathbb{Z}` (3, 4, 5, ...) and
# `n > 2 \text{ odd}` paid `(2, \infty)`; before that change a relation never equalled an interval.
@pytest.mark.parametrize(
    "gold,answer",
    [
        ("(2, \\infty)", "n > 2, n \\in \\mathbb{Z}"),
        ("(2, \\infty)", "n > 2 \\text{ integer}"),
        ("(2, \\infty)", "n > 2 \\text{ odd}"),
        ("(2, \\infty)", "n > 2 \\text{ (integer)}"),
        ("(2, \\infty)", "n>2 \\text{ and } n \\in \\mathbb{Z}"),
        ("n > 2, n \\in \\mathbb{Z}", "(2, \\infty)"),
        ("n > 2 \\text{ integer}", "(2, \\infty)"),
        ("(2, \\infty)", "y > 2 \\text{ where } y \\text{ is prime}"),
        ("(2, \\infty)", "y > 2 \\quad (y \\text{ even})"),
        ("[3, \\infty)", "m \\geq 3, m \\in \\mathbb{Z}"),
        ("[3, \\infty)", "m \\geq 3 \\text{ for integer } m"),
    ],
)
def test_a_qualified_relation_is_no_interval(gold: str, answer: str) -> None:
    assert verdict(gold, answer) != "correct"


@pytest.mark.parametrize(
    "gold,answer",
    [
        ("(2, \\infty)", "y > 2"),
        ("(2, \\infty)", "2 < y"),
        ("y < \\frac{1}{2}", "(-\\infty, 0.5)"),
        ("\\frac{\\pi}{6} + k\\pi", "\\frac{\\pi}{6} + n\\pi, n \\in \\mathbb{Z}"),  # a parameter's domain still drops
        ("\\frac{\\pi}{6} + k\\pi", "\\frac{\\pi}{6} + n\\pi \\text{ for integer } n"),
    ],
)
def test_a_relation_alone_is_its_interval(gold: str, answer: str) -> None:
    assert verdict(gold, answer) == "correct"

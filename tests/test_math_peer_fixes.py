"""Fixes found with the peers' suites (tests/data/peers/): each rule with the rewrites it must accept
and the near misses (a perturbed right answer) it must still refuse."""

from __future__ import annotations

import pytest

from verifier.math import Extraction, grade_extracted, grade_math


def verdict(gold: str, answer: str) -> str:
    return grade_extracted(gold, Extraction(answer, "boxed"))["verdict"]


# MARIO_EVAL test_is_equiv_scinot: a number in LaTeX scientific notation is the decimal it states.
@pytest.mark.parametrize(
    "gold,answer",
    [
        ("2.314814814815 \\times 10^{-3}", "\\frac{1}{432}"),  # decimal gold, at its 15 decimals
        ("\\frac{1}{432}", "2.31481 \\times 10^{-3}"),  # the exact gold rounded
        ("1500", "1.5 \\times 10^{3}"),
        ("1500", "1.5\\cdot10^3"),
        ("3 \\times 10^{8}", "300000000"),
        ("-2.5 \\times 10^{-2}", "-\\frac{1}{40}"),
    ],
)
def test_scientific_notation_rewrites(gold: str, answer: str) -> None:
    assert verdict(gold, answer) == "correct"


@pytest.mark.parametrize(
    "gold,answer",
    [
        ("2.314814814815 \\times 10^{-3}", "\\frac{1}{433}"),  # a different fraction
        ("2.314814814815 \\times 10^{-3}", "0.00231481"),  # fewer decimals than the gold states
        ("2.314814814815 \\times 10^{-3}", "2.314814814815 \\times 10^{-2}"),  # exponent off by one
        ("-2.5 \\times 10^{-2}", "\\frac{1}{40}"),  # sign
        ("1500", "1.5 \\times 10^{4}"),
        ("1500", "1.6 \\times 10^{3}"),
        ("\\frac{1}{432}", "2.32 \\times 10^{-3}"),  # not the gold rounded
    ],
)
def test_scientific_notation_near_misses(gold: str, answer: str) -> None:
    assert verdict(gold, answer) == "incorrect"


# MARIO_EVAL test_is_equiv_trigonometric: a degree mark inside a trig function's answer means degrees.
@pytest.mark.parametrize(
    "gold,answer",
    [
        ("\\sin(90^{\\circ}-x)", "\\cos(x)"),
        ("\\cos(x)", "\\sin(90^{\\circ}-x)"),
        ("\\frac{1}{2}", "\\sin 30^\\circ"),
        ("\\frac{\\sqrt{3}}{2}", "\\cos(30^{\\circ})"),
        ("1", "\\tan 45^{\\circ}"),
        ("90^\\circ", "90"),  # no trig function: the mark is only a mark
    ],
)
def test_trig_degrees_rewrites(gold: str, answer: str) -> None:
    assert verdict(gold, answer) == "correct"


@pytest.mark.parametrize(
    "gold,answer",
    [
        ("\\sin(90^{\\circ}-x)", "\\sin(x)"),  # the function swapped back
        ("\\cos(x)", "\\sin(90-x)"),  # no degree mark: 90 radians
        ("\\frac{1}{2}", "\\sin 60^\\circ"),  # a different angle
        ("\\frac{1}{2}", "\\cos 30^\\circ"),  # a different function
        ("\\frac{1}{2}", "\\sin 30"),  # radians
        ("1", "\\tan 46^{\\circ}"),
    ],
)
def test_trig_degrees_near_misses(gold: str, answer: str) -> None:
    assert verdict(gold, answer) == "incorrect"


# Found by perturbing MARIO_EVAL's test_is_equiv_real_or_list[2] (4210_{7} = 4210_7): math-verify
# drops a base subscript, so 4210_8 equalled 4210_{7}. Two numerals that state bases compare by value.
@pytest.mark.parametrize(
    "gold,answer",
    [
        ("4210_{7}", "4210_7"),
        ("4210_{7}", "1477_{10}"),
        ("10001_2", "10001_{2}"),
        ("A3_{16}", "163_{10}"),
        ("4210_{7}", "4210"),  # the base left off: digits compared, as before
    ],
)
def test_base_numeral_rewrites(gold: str, answer: str) -> None:
    assert verdict(gold, answer) == "correct"


@pytest.mark.parametrize(
    "gold,answer",
    [
        ("4210_{7}", "4210_8"),  # another base
        ("4210_{7}", "4210_{10}"),
        ("4210_{7}", "4211_7"),  # another digit
        ("10001_2", "10011_{2}"),
        ("10001_2", "17"),  # the value in decimal, without a base: not what was asked
        ("A3_{16}", "A4_{16}"),
    ],
)
def test_base_numeral_near_misses(gold: str, answer: str) -> None:
    assert verdict(gold, answer) == "incorrect"


# math-verify's multi-box golds (test_open_thoughts[0], test_all additional_cases[27], numina[13]):
# a gold that boxes several values states all of them. Reading it as its last box would pay the
# last value alone, a wrong answer.
MULTI_BOX_GOLDS = [
    ("$$\\boxed{2}, \\boxed{3}, \\boxed{5}, \\boxed{7}, \\boxed{13}$$", "2, 3, 5, 7, 13", "13"),
    ("$\\boxed{1}\\boxed{2}$", "1, 2", "2"),
    ("\\(\\boxed{1}\\) and \\(\\boxed{-2}\\).", "-2, 1", "-2"),
]


@pytest.mark.parametrize("gold,whole,last", MULTI_BOX_GOLDS)
def test_multi_box_gold_is_all_its_boxes(gold: str, whole: str, last: str) -> None:
    assert grade_math({"completion": f"\\boxed{{{whole}}}", "gold": gold})["verdict"] == "correct"


@pytest.mark.parametrize("gold,whole,last", MULTI_BOX_GOLDS)
def test_multi_box_gold_does_not_pay_its_last_box(gold: str, whole: str, last: str) -> None:
    assert grade_math({"completion": f"\\boxed{{{last}}}", "gold": gold})["verdict"] == "incorrect"


# MARIO_EVAL test_is_equiv_units[5]: a unit word glued to the number ("10weeks") is the number, as
# "10 weeks" is; only listed unit words may be glued ("5abc" stays a product).
@pytest.mark.parametrize(
    "gold,answer",
    [("10weeks", "10"), ("10", "10weeks"), ("2days", "2"), ("10 weeks", "10weeks")],
)
def test_glued_unit_rewrites(gold: str, answer: str) -> None:
    assert verdict(gold, answer) == "correct"


@pytest.mark.parametrize(
    "gold,answer",
    [("10weeks", "11"), ("11weeks", "10"), ("100", "10weeks"), ("5abc", "5"), ("3unitsx", "3")],
)
def test_glued_unit_near_misses(gold: str, answer: str) -> None:
    assert verdict(gold, answer) == "incorrect"


# math-verify test_open_thoughts[7]: a gold with one \pm inside a fraction was invalid_gold. One
# \pm stands for its two values (in a list, only the element holding it is doubled).
ROOTS = "\\frac{-1 \\pm \\sqrt{13}}{4}"


@pytest.mark.parametrize(
    "gold,answer",
    [
        (ROOTS, "\\frac{-1 + \\sqrt{13}}{4}, \\frac{-1 - \\sqrt{13}}{4}"),
        (ROOTS, "\\frac{-1 - \\sqrt{13}}{4}, \\frac{-1 + \\sqrt{13}}{4}"),
        (ROOTS, ROOTS),
        ("\\frac{-1 + \\sqrt{13}}{4}, \\frac{-1 - \\sqrt{13}}{4}", ROOTS),
        ("x = \\frac{1}{2}, x = " + ROOTS, "\\frac{1}{2}, \\frac{-1 + \\sqrt{13}}{4}, \\frac{-1 - \\sqrt{13}}{4}"),
        ("\\pm 2021", "-2021, 2021"),
    ],
)
def test_plus_minus_rewrites(gold: str, answer: str) -> None:
    assert verdict(gold, answer) == "correct"


@pytest.mark.parametrize(
    "gold,answer",
    [
        (ROOTS, "\\frac{-1 + \\sqrt{13}}{4}"),  # one of the two values
        ("\\frac{-1 + \\sqrt{13}}{4}", ROOTS),  # both values for a one-value gold
        (ROOTS, "\\frac{1 \\pm \\sqrt{13}}{4}"),  # sign of the constant
        (ROOTS, "\\frac{-1 \\pm \\sqrt{13}}{2}"),  # denominator
        (ROOTS, "\\frac{-1 \\pm \\sqrt{11}}{4}"),
        ("x = \\frac{1}{2}, x = " + ROOTS, ROOTS),  # a root dropped
        ("\\pm 2021", "2021"),
    ],
)
def test_plus_minus_near_misses(gold: str, answer: str) -> None:
    assert verdict(gold, answer) == "incorrect"

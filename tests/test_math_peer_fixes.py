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


# Issue 29, "Four forms still refused or ungraded". A multiple-choice box that holds a statement,
# then an explicit letter: the letter is the answer (the box names no choice).
STATEMENT_CHOICES = ["f is decreasing on (0, 1)", "f is constant", "f is increasing on (0, 1)", "none of these"]
STATEMENT_BOX = "So f' > 0 on the interval, and \\boxed{\\text{f is increasing on } (0,1)}."


@pytest.mark.parametrize("profile", ["strict", "lenient"])
@pytest.mark.parametrize(
    "tail",
    ["\n\nAnswer: C", " Answer: (C)", "\n\n**Final Answer:** C", " The answer is C.", "\n\nAnswer: option C"],
)
def test_statement_box_then_letter_rewrites(tail: str, profile: str) -> None:
    task = {"completion": STATEMENT_BOX + tail, "gold": "C", "choices": STATEMENT_CHOICES, "profile": profile}
    assert grade_math(task)["verdict"] == "correct"


@pytest.mark.parametrize("profile", ["strict", "lenient"])
@pytest.mark.parametrize(
    "completion",
    [
        STATEMENT_BOX + "\n\nAnswer: B",  # the other letter
        STATEMENT_BOX + "\n\nAnswer: C or D",  # a hedge names no choice
        STATEMENT_BOX + "\n\nAnswer: B or C",
        STATEMENT_BOX + "\n\nAnswer: not C",
        STATEMENT_BOX + "\n\nAnswer: E",  # no such choice
        "Answer: C. " + STATEMENT_BOX,  # the letter before the box: the box is the answer
        "So \\boxed{B}.\n\nAnswer: C",  # a box that names a choice keeps it
        "So \\boxed{\\text{the answer is C or D}}.",  # an anchor inside the box is the box
        STATEMENT_BOX,  # no letter at all
    ],
)
def test_statement_box_then_letter_near_misses(completion: str, profile: str) -> None:
    task = {"completion": completion, "gold": "C", "choices": STATEMENT_CHOICES, "profile": profile}
    assert grade_math(task)["verdict"] != "correct"


# A one-sided relation on one variable and the interval it describes are the same set of values.
@pytest.mark.parametrize(
    "gold,answer",
    [
        ("y > 2", "(2, \\infty)"),
        ("y > 2", "(2,+\\infty)"),
        ("y>2", "\\left(2, \\infty\\right)"),
        ("2 < y", "(2, \\infty)"),
        ("y \\ge 2", "[2, \\infty)"),
        ("y \\le -1", "(-\\infty, -1]"),
        ("y < \\frac{1}{2}", "(-\\infty, 0.5)"),
        ("(2, \\infty)", "y > 2"),  # gold and answer alike
        ("[2, \\infty)", "x \\geq 2"),
        ("y > 2", "y > 2"),
    ],
)
def test_relation_as_interval_rewrites(gold: str, answer: str) -> None:
    assert verdict(gold, answer) == "correct"


@pytest.mark.parametrize(
    "gold,answer",
    [
        ("y > 2", "[2, \\infty)"),  # the endpoint closed
        ("y > 2", "(3,\\infty)"),  # the endpoint moved
        ("y > 2", "(2.1, \\infty)"),
        ("y > 2", "y >= 2"),  # the relation loosened
        ("y > 2", "y \\ge 2"),
        ("y > 2", "(-\\infty, 2)"),  # the other side
        ("y > 2", "(2, 100)"),  # a bounded interval
        ("y > 2", "(2, \\infty) \\cup (-3, -1)"),
        ("y > 2", "2"),  # a value never answers a relation
        ("y > 2", "\\infty"),
        ("y \\ge 2", "(2, \\infty)"),
        ("y \\le -1", "(-\\infty, -1)"),
        ("(2, \\infty)", "y \\ge 2"),
        ("(2, 9)", "y > 2"),
        ("x^2 > 4", "(2, \\infty)"),  # not a relation on one variable alone
        ("y > a", "(a, \\infty)"),  # the bound is not a number
    ],
)
def test_relation_as_interval_near_misses(gold: str, answer: str) -> None:
    assert verdict(gold, answer) == "incorrect"


# Solutions of a system: `;` between them, or `and` in prose, are the same set of solutions.
@pytest.mark.parametrize(
    "gold,answer",
    [
        ("x = 1, y = 2; x = 3, y = 4", "x = 1, y = 2 \\text{ and } x = 3, y = 4"),
        ("x = 1, y = 2; x = 3, y = 4", "x = 1, y = 2 \\quad \\text{and} \\quad x = 3, y = 4"),
        ("x = 1, y = 2; x = 3, y = 4", "x=1, y=2 and x=3, y=4"),
        ("x = 1, y = 2; x = 3, y = 4", "x = 3, y = 4 \\text{ and } x = 1, y = 2"),  # a set of solutions
        ("x = 1, y = 2 \\text{ and } x = 3, y = 4", "x = 1, y = 2; x = 3, y = 4"),
        ("a = 1, b = -1, c = 0; a = 2, b = 0, c = 5", "a = 1, b = -1, c = 0 \\text{ and } a = 2, b = 0, c = 5"),
        ("(1, 2); (3, 4)", "(1, 2) \\text{ and } (3, 4)"),
        ("x = 2; x = -3", "x = 2 \\text{ and } x = -3"),
    ],
)
def test_solution_sets_joined_by_and_rewrites(gold: str, answer: str) -> None:
    assert verdict(gold, answer) == "correct"


@pytest.mark.parametrize(
    "gold,answer",
    [
        ("x = 1, y = 2; x = 3, y = 4", "x = 1, y = 2 \\text{ and } x = 3, y = 5"),  # one value off
        ("x = 1, y = 4; x = 3, y = 2", "x = 1, y = 2 \\text{ and } x = 3, y = 4"),  # the pairing swapped
        ("x = 1, y = 2 \\text{ and } x = 3, y = 4", "x = 1, y = 4 \\text{ and } x = 3, y = 2"),
        ("x = 1, y = 2; x = 3, y = 4", "x = 2, y = 1 \\text{ and } x = 3, y = 4"),
        ("x = 1, y = 2; x = 3, y = 4", "x = 1, y = 2"),  # one solution missing
        ("x = 1, y = 2; x = 3, y = 4", "x = 1, y = 2 \\text{ and } x = 3, y = 4 \\text{ and } x = 5, y = 6"),
        ("x = 1, y = 2; x = 3, y = 4", "x = 1, y = 2 \\text{ and } x = 3"),
        ("x = 1, y = 2; x = 3, y = 4", "1, 2 \\text{ and } 3, 4"),
        ("(1, 2); (3, 4)", "(1, 2) \\text{ and } (4, 3)"),
        ("x = 2; x = -3", "x = 2 \\text{ and } x = 3"),
    ],
)
def test_solution_sets_joined_by_and_near_misses(gold: str, answer: str) -> None:
    assert verdict(gold, answer) == "incorrect"


# A ratio of three or more terms, with or without a trailing ellipsis: proportional ratios are
# equal term by term (the ellipsis one term); the gold `2:4:6:\ldots` was invalid_gold.
@pytest.mark.parametrize(
    "gold,answer",
    [
        ("2:4:6:\\ldots", "2:4:6:\\ldots"),
        ("2:4:6:\\ldots", "1:2:3:\\ldots"),
        ("2:4:6:\\ldots", "1 : 2 : 3 : \\cdots"),
        ("2:4:6:\\ldots", "3:6:9:..."),
        ("2:4:6:\\ldots", "\\boxed{0.5:1:1.5:\\dots}"),
        ("1:2:3", "2:4:6"),
        ("1:\\sqrt{2}:2", "\\sqrt{2}:2:2\\sqrt{2}"),
        ("0:1:2", "0:2:4"),
    ],
)
def test_ratio_sequence_rewrites(gold: str, answer: str) -> None:
    assert verdict(gold, answer) == "correct"


@pytest.mark.parametrize(
    "gold,answer",
    [
        ("2:4:6:\\ldots", "2:4:7:\\ldots"),  # one term off
        ("2:4:6:\\ldots", "1:2:4:\\ldots"),
        ("2:4:6:\\ldots", "2:4:6"),  # the ellipsis dropped: a finite ratio
        ("2:4:6:\\ldots", "2:4:6:8"),
        ("2:4:6:\\ldots", "6:4:2:\\ldots"),  # reversed
        ("2:4:6:\\ldots", "2, 4, 6, \\ldots"),  # a sequence is not a ratio
        ("1, 2, 3, \\ldots", "2:4:6:\\ldots"),
        ("2:4:6:\\ldots", "1:2"),
        ("2:4:6:\\ldots", "5"),
        ("2:4:6:\\ldots", "\\frac{1}{12}"),
        ("1:2:3", "1:6:1"),  # math-verify's (1/2)/3 = (1/6)/1 paid this
        ("1:2:3", "\\frac{1}{6}"),
        ("0:1:2", "0:6:1"),
    ],
)
def test_ratio_sequence_near_misses(gold: str, answer: str) -> None:
    assert verdict(gold, answer) == "incorrect"

"""A subject's condition, a counted range, and a gold's expansion (issue 29's holes left open after fx29q; docs/math.md
"Answer grammar", the subject's conditions and expansions). Graded by the real grader (`grade_math` through
`tests.helpers.math_verdicts`) in both profiles, as the red-team files are. Gold 6 unless a case says otherwise.

1. A condition that fixes the subject's unknown through an expression (`verifier/math/conditions.py`): `The value of
   $x$ such that $x - 7 = 0$ is \\boxed{6}.`, `... $2x = 14$ ...` paid 6 (the condition states x = 7, a second value;
   fx29q's `_condition_fixes` read shapes). The rule now (fx29v, red team 14 class 3: `such that $x > 7$ ...
   \\boxed{6}` paid, a condition leaving x infinitely many values none of which is the box's): every relation on the
   subject's own unknown alone holds at the box's value, decided exactly (`x^2 = 36` against box 6 now pays: it
   states the box's value); a relation joining it to other letters is one equation linear in it whose solution varies
   with them (fx29r's); anything else refuses, a system included. The reader's work is bounded before sympy
   (`conditions.MAX_DIGITS`, `MAX_EXPANDED_TERMS`; red team 14 class 9).
2. A counted range whose count is the range's own size (`The number of integers between 7 and 8 is \\boxed{6}.`: 0, or
   2 inclusive): `grammar._WHOLE_RANGE_NOUNS` admit a range only with a condition after it.
3. A gold past `guards.expansion_guard`'s bound (gold `\\cos(x+y+z+w+v+u+t+s)` against answer `1`: 7 s, 28 s on a busy
   machine) is never expanded: `incorrect` unless the answer is written as the gold; the real golds of the peers' data
   stay under the bound.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import MATH_CASE_PARAMS as PARAMS, math_verdicts as verdicts
from tests.helpers import number_case as n

V = "The value of $x$ such that"

# 1. Near misses: a condition that fixes the unknown (a second value beside the box), in every form the rule names.
FIXING_NEAR = [
    n(f"{V} $x - 7 = 0$ is \\boxed{{6}}."), n(f"{V} $2x = 14$ is \\boxed{{6}}."), n(f"{V} $x^2 = 49$ is \\boxed{{6}}."),
    n(f"{V} $x^{{2}} - 14x + 49 = 0$ is \\boxed{{6}}."), n(f"{V} $\\frac{{x}}{{7}} = 1$ is \\boxed{{6}}."),
    n(f"{V} $3x + 1 = 22$ is \\boxed{{6}}."), n(f"{V} $x(x - 7) = 0$ is \\boxed{{6}}."), n(f"{V} $7 - x = 0$ is \\boxed{{6}}."),
    n(f"{V} $\\sqrt{{x}} = \\sqrt{{7}}$ is \\boxed{{6}}."), n(f"{V} $x - 6 = 1$ is \\boxed{{6}}."),
    n("So, the value of $x$ such that $x - 7 = 0$ is 6."), n("The number $n$ such that $n + 1 = 8$ is \\boxed{6}."),
    n("The value of $x_1$ such that $2x_1 = 14$ is \\boxed{6}."), n("The answer such that $2x = 14$ is \\boxed{6}."),
    # a multiplying letter before a bracket, a function letter that is the unknown itself
    n(f"{V} $a(x - 7) = 0$ is \\boxed{{6}}."), n("The value of $f$ such that $f(x - 7) = 0$ and $x = 1$ is \\boxed{6}."),
    # two unknowns: a system, a second relation on the other letter, a degenerate equation, an expression subject
    n(f"{V} $x + y = 7$ and $y = 0$ is \\boxed{{6}}."), n(f"{V} $x + y = 7$ and $x - y = 7$ is \\boxed{{6}}."),
    n(f"{V} $x = y$ and $y^2 \\le 0$ is \\boxed{{6}}."), n(f"{V} $x = 2y + 1$ and $y = 3$ is \\boxed{{6}}."),
    n(f"{V} $x^2 + y^2 = 0$ is \\boxed{{6}}."), n(f"{V} $x = \\sqrt{{y}} + \\sqrt{{-y}} + 7$ is \\boxed{{6}}."),
    n(f"{V} $xy = 7y$ is \\boxed{{6}}."), n("The value of $x + y$ such that $x = 7 - y$ is \\boxed{6}."),
    n("The smallest integer $n$ such that $n = 2k + 1$ and $k = 3$ is \\boxed{6}."),
    # bounds that meet, an integer domain with bounded bounds, a congruence with bounds, an approximation
    n(f"{V} $x^2 \\le 0$ is \\boxed{{6}}."), n(f"{V} $(x - 7)^{{2}} \\le 0$ is \\boxed{{6}}."),
    n(f"{V} $7 \\le x \\le 7$ is \\boxed{{6}}."), n(f"{V} $x \\in \\mathbb{{Z}}$ and $6.5 < x < 7.5$ is \\boxed{{6}}."),
    n(f"{V} $x \\equiv 7 \\pmod{{100}}$ and $0 \\le x < 100$ is \\boxed{{6}}."), n(f"{V} $x \\approx 7$ is \\boxed{{6}}."),
    n(f"{V} $x \\mid 7$ is \\boxed{{6}}."), n(f"{V} $x \\equiv 7 \\pmod{{0}}$ is \\boxed{{6}}."),
    # a relation the reader does not read, a power past the bound
    n(f"{V} $x = 7 cm$ is \\boxed{{6}}."), n(f"{V} $x^{{100}} = 7$ is \\boxed{{6}}."), n(f"{V} $x \\in S$ and $S = 7$ is \\boxed{{6}}."),
    # fx29v: a condition excluding the box's value, in every relation kind, on the head's integer and its sign
    n(f"{V} $x < 6$ is \\boxed{{6}}."), n(f"{V} $x \\le 5$ is \\boxed{{6}}."), n(f"{V} $6 < x$ is \\boxed{{6}}."),
    n(f"{V} $x \\geq 6.5$ is \\boxed{{6}}."), n(f"{V} $x \\neq \\frac{{12}}{{2}}$ is \\boxed{{6}}."),
    n(f"{V} $x^{{2}} \\ne 36$ and $x > 0$ is \\boxed{{6}}."), n(f"{V} $x = x + 1$ is \\boxed{{6}}."),
    n(f"{V} $x \\equiv 2 \\pmod{{5}}$ is \\boxed{{6}}."), n(f"{V} $4 \\mid x$ is \\boxed{{6}}."),
    n(f"{V} $3 \\nmid x$ is \\boxed{{6}}."), n(f"{V} $\\sin x > 0$ is \\boxed{{6}}."),
    n(f"{V} $\\frac{{1}}{{x - 6}} > 0$ is \\boxed{{6}}."), n(f"{V} $\\sqrt{{x}} > 3$ is \\boxed{{6}}."),
    n("The negative integer $n$ such that $n < 100$ is \\boxed{6}."), n("The integer $n$ such that $n > 0$ is \\boxed{6.5}.", "6.5"),
    n("The answer such that $x > 0$ and $y < 0$ is \\boxed{6}."), n("So, the smallest integer $n$ such that $n > 6$ is 6."),
    # fx29v: a relation the reader cannot decide at the box's value, a box value it cannot read
    n(f"{V} $\\sin^{{2}} x + \\cos^{{2}} x = 1$ is \\boxed{{6}}."), n(f"{V} $x > 0$ is \\boxed{{6\\text{{ cm}}}}."),
]

# fx29v: a condition too costly to read (red team 14 class 9's shapes, other spellings): refused before sympy works.
COSTLY_NEAR = [
    n(f"{V} $x < 2^{{x^{{8}}}}$ is \\boxed{{6}}."), n(f"{V} $x = \\exp(\\exp(\\exp(y)))$ is \\boxed{{6}}."),
    n(f"{V} $x < \\sqrt{{(10^{{39}})^{{64}}}}$ is \\boxed{{6}}."), n(f"{V} $x (a+b+c)^{{8}} (d+f+g)^{{8}} = y$ is \\boxed{{6}}."),
    n(f"{V} $x < \\sin(((10^{{39}})^{{8}})^{{8}})$ is \\boxed{{6}}."), n(f"{V} $x = y \\cdot 2^{{2^{{2^{{2^{{y}}}}}}}}$ is \\boxed{{6}}."),
    n(f"{V} $x < \\exp(10^{{39}})$ is \\boxed{{6}}."), n(f"{V} $x \\cdot ((y+1)^{{8}})^{{8}} = z$ is \\boxed{{6}}."),
]


# 1. Rewrites: a condition known to leave the unknown infinitely many values still pays.
FREE_SAME = [
    n(f"{V} $x < 7$ is \\boxed{{6}}."), n(f"{V} $1 \\leq x \\leq 7$ is \\boxed{{6}}."), n(f"{V} $x \\ge 1$ is \\boxed{{6}}."),
    n(f"{V} $x \\ne 7$ is \\boxed{{6}}."), n(f"{V} $x + x = 2x$ is \\boxed{{6}}."), n(f"{V} $f(x) = 7$ is \\boxed{{6}}."),
    n(f"{V} $x \\equiv 106 \\pmod{{100}}$ is \\boxed{{6}}."), n(f"{V} $3 \\mid x$ is \\boxed{{6}}."),
    n(f"{V} $x + y = 7$ is \\boxed{{6}}."), n(f"{V} $x \\in \\mathbb{{Z}}$ and $x > 1$ is \\boxed{{6}}."),
    n("The number of integers $n$ such that $f(n) = n$ is \\boxed{6}."),  # `$n^2 < 40$`: an aggregate's, refused (red team 16)
    n("The value of $f(x)$ such that $x = 7$ is \\boxed{6}."), n("The value of $x$ such that $y = 7$ is \\boxed{6}."),
    n("So, the value of $x$ such that $x < 7$ is 6."),
    # fx29v: a condition the box's value satisfies, in every relation kind; one fixing the unknown at the box's value
    n(f"{V} $x > 0$ is \\boxed{{6}}."), n("The integer $n$ such that $n \\equiv 1 \\pmod{5}$ is \\boxed{6}."),
    n(f"{V} $x^2 = 36$ is \\boxed{{6}}."), n(f"{V} $x - 6 = 0$ is \\boxed{{6}}."), n(f"{V} $2 \\mid x$ is \\boxed{{6}}."),
    n(f"{V} $5 \\nmid x$ is \\boxed{{6}}."), n(f"{V} $\\sin x < 0$ is \\boxed{{6}}."), n(f"{V} $\\frac{{1}}{{x - 7}} < 0$ is \\boxed{{6}}."),
    n(f"{V} $x \\ne 7$ and $x < 1000$ is \\boxed{{6}}."), n(f"{V} $x \\in \\mathbb{{Z}}$ is \\boxed{{6}}."),
    n("The positive integer $n$ such that $n > 5$ is \\boxed{6}."), n("The integer $n$ such that $n^{2} > 30$ is \\boxed{6}."),
    n("The value of $x$ such that $x < (2^{64})^{4}$ is \\boxed{6}."), n(f"{V} $x = \\exp(y)$ is \\boxed{{6}}."),
    n("The number of points that lie on the circle $x^2+y^2=7$ is \\boxed{6}."),
    # `The number of years that can be written as the sum of two ...`: refused since fx29u (red team 14 class 4)
]


@pytest.mark.parametrize(PARAMS, FIXING_NEAR)
def test_a_condition_that_may_fix_the_unknown_never_pays(completion: str, gold: str, choices: list[str] | None) -> None:
    """The condition leaves the unknown one value or finitely many (or is not read): a second value beside the box."""
    assert "correct" not in verdicts(completion, gold, choices)


@pytest.mark.timeout(30)
@pytest.mark.parametrize(PARAMS, COSTLY_NEAR)
def test_a_condition_too_costly_to_read_never_pays(completion: str, gold: str, choices: list[str] | None) -> None:
    """Unread past `conditions.MAX_DIGITS` or `MAX_EXPANDED_TERMS`, decided on the tree before sympy computes."""
    assert "correct" not in verdicts(completion, gold, choices)


@pytest.mark.parametrize(PARAMS, FREE_SAME)
def test_a_condition_that_leaves_the_unknown_free_still_pays(completion: str, gold: str, choices: list[str] | None) -> None:
    assert verdicts(completion, gold, choices) == ["correct", "correct"]


def test_conditions_read_the_relation_not_its_spelling() -> None:
    """The rule's unit: the same relation in other spellings is decided alike (`conditions.condition_fixes`), at the
    box's value 6 (or `\\frac{12}{2}`, `6.0`), and with no value known a relation on the unknown alone refuses."""
    from verifier.math.conditions import condition_fixes, head_facts

    for value in ("6", "\\frac{12}{2}", "6.0"):
        for fixing in ("x - 7 = 0", "7 = x", "2x = 14", "\\frac{14}{x} = 2", "x \\cdot 1 = 7 + 0", "x^{2} = 49",
                       "x = 7y/y", "x > 6", "x \\neq 6", "x \\equiv 2 \\pmod{5}", "7 \\mid x"):
            assert condition_fixes([fixing], ["x"], False, value=value), (fixing, value)
        for holds in ("x < 7", "7 > x", "x \\geq 1", "x^{2} > 30", "f(x) = 7", "x = 2k + 1", "x \\neq 7", "x - 6 = 0",
                      "x^2 = 36", "x \\equiv 1 \\pmod{5}", "3 \\mid x"):
            assert not condition_fixes([holds], ["x"], False, value=value), (holds, value)
        assert condition_fixes(["x > 0"], ["x"], False, facts=head_facts(["negative"]), value=value)  # the head's sign
        assert condition_fixes(["x > 0"], ["x"], False, facts=None, value=value)  # no identity head: on x alone refuses
    assert not condition_fixes(["x = 2k + 1"], ["x"], False, facts=None)  # joined to another letter: fx29r's rule
    assert condition_fixes(["x < 7"], ["x"], False)  # no value known: a relation on the unknown alone refuses
    assert not condition_fixes(["x = 2k + 1"], ["x"], False)  # one linear in it, varying with another letter
    for unread in ("6\\text{ cm}", "y + 1", "6\\%", "5!", "6 thousand", "(6, 7)"):  # no plain value (`box_number`)
        assert condition_fixes(["x < 7"], ["x"], False, value=unread), unread
    assert not condition_fixes(["x = 7"], [], False, value="6")  # a subject with no unknown of its own and no `such that`
    assert condition_fixes(["x = 7"], [], True, value="6")  # `The answer such that $x = 7$`: every letter is the unknown
    assert not condition_fixes(["x = 6"], [], True, value="6")


# fx29w (red team 15 class 5): a condition that makes sympy raise (`PolynomialError`: the unknown inside a function beside
# another letter) is a condition unread, refused like any other, never the grader's `error`; the same shapes without
# the second letter, or with the unknown only polynomially, still read.
SYMPY_RAISES = [
    n(f"{V} $x + \\sin(x) = y$ is \\boxed{{6}}."), n(f"{V} $\\exp(x) - x = y + 1$ is \\boxed{{6}}."),
    n(f"{V} $x^{{2}} + \\ln(x) = 2y$ is \\boxed{{6}}."), n(f"{V} $x + \\sqrt{{x}} = y$ is \\boxed{{7}}."),
    n(f"{V} $x \\cos(x) = y$ is \\boxed{{6}}."), n("So, the value of $x$ such that $x + 3^{x} = y$ is 6."),
]
SYMPY_RAISES_REWRITES = [
    n(f"{V} $x + \\sin(y) = y$ is \\boxed{{6}}."), n(f"{V} $x \\cos(y) = y$ is \\boxed{{6}}."),
]


@pytest.mark.parametrize(PARAMS, SYMPY_RAISES)
def test_a_condition_sympy_raises_on_is_a_refusal_never_an_error(completion: str, gold: str, choices: list[str] | None) -> None:
    """Both profiles give a normal refusal verdict (`no_answer` or `incorrect`), never `error` nor a pay."""
    got = verdicts(completion, gold, choices)
    assert set(got) <= {"no_answer", "incorrect"}, got


@pytest.mark.parametrize(PARAMS, SYMPY_RAISES_REWRITES)
def test_a_linear_condition_beside_a_function_of_another_letter_still_pays(
        completion: str, gold: str, choices: list[str] | None) -> None:
    assert verdicts(completion, gold, choices) == ["correct", "correct"]


def test_condition_fixes_never_raises() -> None:
    """`condition_fixes` answers True (refuses) on whatever sympy raises, never lets it out."""
    from verifier.math.conditions import condition_fixes

    for condition in ("x + \\sin(x) = y", "x \\sin(x) = y", "x + 2^{x} = y", "x + \\ln(x) = y"):
        assert condition_fixes([condition], ["x"], False, value="6"), condition


# fx29w (red team 15 class 1): one reading of the box's value: a condition is checked only at a value in a plain form
# (`conditions.box_number`: an integer, a decimal, a fraction of integers, a sign) that the comparer reads as the same
# rational; any other form refuses, never read by another arithmetic (thin spaces, a mixed number, a factorial attached
# after the box, a percent). The rewrites that still pay are the plain forms; the recall given up is listed in RECALL.
ONE_READING_NEAR = [
    n(f"{V} $x < 7$ is \\boxed{{9\\,000}}.", "9000"), n(f"{V} $x < 2$ is \\boxed{{5\\frac{{1}}{{4}}}}.", "21/4"),
    n(f"{V} $x < 100$ is \\boxed{{5}}!", "120"), n(f"{V} $x \\le 10$ is \\boxed{{4\\ 000}}.", "4000"),
    n(f"{V} $x < 100$ is \\boxed{{50\\%}}.", "50"), n("So, the value of $x$ such that $x < 1$ is $2\\,000$.", "2000"),
    n(f"{V} $x < 7$ is \\boxed{{1{{,}}000}}.", "1000"), n(f"{V} $x < 7$ is \\boxed{{1,000}}.", "1000"),
]
ONE_READING_SAME = [
    n(f"{V} $x > 7$ is \\boxed{{1000}}.", "1000"), n(f"{V} $x > 2$ is \\boxed{{\\frac{{5}}{{2}}}}.", "5/2"),
    n(f"{V} $x > 0$ is \\boxed{{6.5}}.", "6.5"), n(f"{V} $x < 0$ is \\boxed{{-7/2}}.", "-7/2"),
    n(f"{V} $x > 2$ is \\boxed{{\\dfrac{{5}}{{2}}}}.", "5/2"), n("So, the value of $x$ such that $x > 7$ is $1000$.", "1000"),
]
ONE_READING_RECALL = [  # right answers, refused: the value is in no plain form (fx29w's recall cost)
    n(f"{V} $x > 7$ is \\boxed{{1\\,000}}.", "1000"), n(f"{V} $x > 2$ is \\boxed{{2\\frac{{1}}{{2}}}}.", "5/2"),
    n(f"{V} $x > 0$ is \\boxed{{\\sqrt{{36}}}}."), n(f"{V} $x > 7$ is \\boxed{{1{{,}}000}}.", "1000"),
]


def test_box_number_reads_plain_forms_only() -> None:
    from verifier.math.conditions import box_number

    assert [box_number(v) for v in ("6", "-6", "6.5", "\\frac{7}{2}", "-\\dfrac{7}{2}", "7/2", " 12 ")] == [
        6, -6, sympy_rational(13, 2), sympy_rational(7, 2), sympy_rational(-7, 2), sympy_rational(7, 2), 12]
    for other in ("1\\,000", "2\\frac{1}{2}", "1,000", "6\\%", "(5)!", "\\sqrt{36}", "6\\text{ cm}", "1/0", "6.", "x"):
        assert box_number(other) is None, other


def sympy_rational(p: int, q: int) -> object:
    import sympy

    return sympy.Rational(p, q)


@pytest.mark.parametrize(PARAMS, ONE_READING_RECALL)
def test_a_value_in_no_plain_form_refuses_its_condition(completion: str, gold: str, choices: list[str] | None) -> None:
    assert "correct" not in verdicts(completion, gold, choices)


@pytest.mark.parametrize(PARAMS, ONE_READING_NEAR)
def test_a_condition_is_checked_at_the_value_compared(completion: str, gold: str, choices: list[str] | None) -> None:
    assert "correct" not in verdicts(completion, gold, choices)


@pytest.mark.parametrize(PARAMS, ONE_READING_SAME)
def test_a_condition_holding_at_the_value_compared_pays(completion: str, gold: str, choices: list[str] | None) -> None:
    assert verdicts(completion, gold, choices) == ["correct", "correct"]


# fx29w (red team 15 class 2): a subject that is a function value or an indexed term (`f(6)`, `a_5`) with a condition
# mentioning its family's letter refuses (`conditions._defines_family`: a definition of the family fixes the member);
# a condition on other letters still reads.
FAMILY_NEAR = [n(f"{c} is \\boxed{{6}}.") for c in [
    "The value of $g(4)$ such that $g(t) = 2t$", "The value of $f(0)$ such that $f(x) > 7$",
    "The value of $b_{3}$ such that $b_{k} = k + 4$", "The value of $p(1)$ such that $p(x) = x^{2} + 6$",
    "The value of $a_5$ such that $a_{n+1} = a_n + 1$", "The value of $f(2)$ such that $f = 7$",
]] + [n("So, the value of $g(4)$ such that $g(t) = 2t$ is 6.")]
FAMILY_SAME = [n(f"{c} is \\boxed{{6}}.") for c in [
    "The value of $f(x)$ such that $x = 7$", "The value of $a_5$ such that $b > 0$",
    "The number of integers $n$ such that $f(n) = n$",
]]


@pytest.mark.parametrize(PARAMS, FAMILY_NEAR)
def test_a_condition_on_the_subjects_family_never_pays(completion: str, gold: str, choices: list[str] | None) -> None:
    assert "correct" not in verdicts(completion, gold, choices)


@pytest.mark.parametrize(PARAMS, FAMILY_SAME)
def test_a_condition_on_other_letters_than_the_family_pays(completion: str, gold: str, choices: list[str] | None) -> None:
    assert verdicts(completion, gold, choices) == ["correct", "correct"]


# fx29w (red team 15 class 3): under an optimum word a condition on the subject's own unknown is admitted only when the
# box's value is decided to be the optimum (`conditions._is_optimum`), and a prime head is checked (`sympy.isprime`). The
# three optimum cases fx29v paid now refuse, rightly: `The smallest integer $n$ such that $n^{2} > 30$` has no least
# integer (n <= -6 meets it), `... $n = 2k + 1$` neither; the recall given up is an optimum the reader does not decide
# (a second letter, a congruence, a prime head: `The smallest prime $p$ such that $p > 2$ is \\boxed{3}`).
OPTIMUM_NEAR = [n(f"{c} is \\boxed{{6}}.") for c in [
    "The smallest integer $n$ such that $n^{2} > 30$", "The smallest integer $n$ such that $n = 2k + 1$",
    "The highest integer $n$ such that $n < 50$", "The first integer $n$ such that $n > 2$",
    "The maximum of $x$ such that $x \\le 9$", "The minimal value of $n$ such that $n^{2} \\ge 4$",
    "The smallest prime $p$ such that $p > 6$", "The prime $p$ such that $p > 0$", "The primes $p$ such that $p < 9$",
]] + [n("So, the smallest integer $n$ such that $n^{2} > 30$ is 6."), n("So, the first integer $n$ such that $n > 2$ is 6.")]
OPTIMUM_SAME = [
    n("The integer $n$ such that $n > 2$ is \\boxed{6}."), n("The prime $p$ such that $p > 2$ is \\boxed{7}.", "7"),
    n("The smallest integer $n$ such that $y = 7$ is \\boxed{6}."), n("So, the prime $p$ such that $p < 10$ is 7.", "7"),
    n("The smallest positive integer $n$ such that $n^{2} > 30$ is \\boxed{6}."), n("The largest integer $n$ such that $n \\le 6.5$ is \\boxed{6}."),
    n("The greatest integer $n$ such that $n^{2} < 1000$ is \\boxed{31}.", "31"), n("The minimum value of $x$ such that $x \\ge 6$ is \\boxed{6}."),
    n("So, the smallest positive integer $n$ such that $n^{2} > 30$ is 6."), n("The smallest integer $n$ such that $n > 5$ is \\boxed{6}."),
]


@pytest.mark.parametrize(PARAMS, OPTIMUM_NEAR)
def test_an_optimum_or_a_kind_not_decided_never_pays(completion: str, gold: str, choices: list[str] | None) -> None:
    assert "correct" not in verdicts(completion, gold, choices)


@pytest.mark.parametrize(PARAMS, OPTIMUM_SAME)
def test_a_kind_the_value_meets_without_an_optimum_pays(completion: str, gold: str, choices: list[str] | None) -> None:
    assert verdicts(completion, gold, choices) == ["correct", "correct"]


# 2. A counted range: its count is the range's own size unless a condition picks which are counted.
RANGE_NEAR = [
    n("The number of integers between 7 and 8 is \\boxed{6}."), n("The number of integers between 7 and 8 inclusive is \\boxed{6}."),
    n("The number of integers between 1 and 100 is \\boxed{6}."), n("The number of years between 2000 and 3000 inclusive is \\boxed{6}."),
    n("The number of numbers between 7 and 8 is \\boxed{6}."), n("The number of digits between 3 and 7 is \\boxed{6}."),
    n("So, the number of integers between 7 and 8 is 6."), n("The number of integers between $7$ and $8$ is \\boxed{6}."),
    n("The number of integers between 7 and 8 that is 7 is \\boxed{6}."),
    # a whole-number range with a condition: refused since fx29u (red team 14 class 7, a condition may pick all)
    n("The number of years between 2000 and 3000 inclusive that can be written as the sum of two positive integers $p$ "
      "and $q$ such that $2p = 5q$ is \\boxed{6}."),
    n("The number of integers $n$ between 1 and 100 such that $n^2 < 40$ is \\boxed{6}."),
]
RANGE_SAME = [
    n("The number of primes between 1 and 100 is \\boxed{6}."), n("The number of multiples of 7 between 2002 and 2996 is \\boxed{6}."),
]


@pytest.mark.parametrize(PARAMS, RANGE_NEAR)
def test_a_range_whose_size_is_the_count_never_pays(completion: str, gold: str, choices: list[str] | None) -> None:
    assert "correct" not in verdicts(completion, gold, choices)


@pytest.mark.parametrize(PARAMS, RANGE_SAME)
def test_a_range_the_question_counts_in_still_pays(completion: str, gold: str, choices: list[str] | None) -> None:
    assert verdicts(completion, gold, choices) == ["correct", "correct"]


# 3. A gold past the expansion bound: never expanded, never a wrong pay, its own text still pays.
LARGE_GOLD = "\\cos(x+y+z+w+v+u+t+s)"


@pytest.mark.parametrize("answer", ["1", "\\cos(x)", "\\cos(s+y+z+w+v+u+t+x)", "6"])
def test_a_gold_past_the_bound_is_never_expanded(answer: str) -> None:
    """The verdict names the gold's bound (a decision on the tree, never a time): no `simplify` runs."""
    from verifier.math import grade_math

    for profile in ("strict", "lenient"):
        graded = grade_math({"completion": f"\\boxed{{{answer}}}", "gold": LARGE_GOLD, "profile": profile})
        assert graded["verdict"] == "incorrect"
        assert "too costly to compare" in graded["detail"], graded


def test_a_gold_past_the_bound_pays_its_own_text() -> None:
    assert verdicts(f"\\boxed{{{LARGE_GOLD}}}", LARGE_GOLD) == ["correct", "correct"]


def _real_golds() -> list[str]:
    data = Path(__file__).parent / "data"
    golds = {json.loads(line)["gold"] for folder in ("peers", "peer_outputs") for path in (data / folder).glob("*.jsonl")
             if path.name != "disagreements.jsonl" for line in path.read_text(encoding="utf-8").splitlines() if line.strip()}
    return sorted(g for g in golds if isinstance(g, str))


def test_no_real_gold_is_past_the_bound() -> None:
    """The peers' golds (tests/data/peers/, tests/data/peer_outputs/): the gold's bound never fires on a real one, so
    no verdict there changes (tests/test_math_peers.py holds them all). tests/data/math_cases.jsonl's synthetic
    `(x+1)^{5000}` golds are past it, and keep their verdicts: their own text pays, `(x+1)^{5001}` does not."""
    from verifier.math.guards import expansion_guard
    from verifier.math.limits import DEFAULT_LIMITS
    from verifier.math.parsing import parse_gold

    golds = _real_golds()
    assert len(golds) > 300
    fired = []
    for gold in golds:
        parsed = parse_gold(gold)
        if not isinstance(parsed, str) and expansion_guard(parsed.expr, DEFAULT_LIMITS):
            fired.append(gold)
    assert fired == []


def test_an_optimum_is_decided_only_within_its_bounds() -> None:
    """`conditions._is_optimum`: a quadratic of small numbers is decided; a higher degree (`MAX_OPTIMUM_DEGREE`) or a
    larger number (`MAX_OPTIMUM_DIGITS`) is not, and refuses, right value or not (a bound on `solveset`'s work)."""
    from verifier.math.conditions import condition_fixes, head_facts

    positive, integer = head_facts(["positive", "integer"]), head_facts(["integer"])
    assert not condition_fixes(["n^{2} > 20"], ["n"], False, facts=positive, value="5", optimum="min")
    assert condition_fixes(["n^{2} > 20"], ["n"], False, facts=positive, value="6", optimum="min")
    assert condition_fixes(["n^{2} > 20"], ["n"], False, facts=positive, value="5", optimum="both")
    assert condition_fixes(["n^{3} > 100"], ["n"], False, facts=positive, value="5", optimum="min")
    assert condition_fixes(["n > 10^{30}"], ["n"], False, facts=integer, value=str(10**30 + 1), optimum="min")
    assert not condition_fixes(["n \\le 10^{15}"], ["n"], False, facts=integer, value=str(10**15), optimum="max")

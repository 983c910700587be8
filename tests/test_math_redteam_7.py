"""Red team of issue 29's answer grammar, seventh pass (rt29g): wrong answers the grader pays, one family per class,
graded by the real grader (`grade_math` through `tests.helpers.math_verdicts`) in both profiles (docs/math.md "Answer
grammar"). It attacks what fx29g and h29h added: the concluding-sentence reader (`grammar.concludes`,
`extract._concluding`), the class-10 recall entries (`_DIVISION_HEADS`, `_OPERAND_HEADS`, `NAME_MARKS`,
`OPTIMUM_LETTERS`, `N \\bmod k`), `METHOD_PARTICIPLES` (`_method_clause`), `_agent`, `_at_place` and the chain tokens.
Each `*_NEAR` case asserts the safe behaviour (all three classes closed by fx29h: docs/math.md "Answer grammar"); each `*_SAME` list
holds rewrites main pays and each `*_REFUSED` list near misses main refuses, to guard the fix. Gold 6 unless a case
says otherwise (18 for the perimeter rewrites; multiple-choice cases: gold B, choice B is `5`).

1. A chain's first side is never evaluated when it is a computation without unknowns: `box_subject` hands the side
   before a box's `=` to `_side_states`, which admits any computation without unknowns (`$2 \\cdot 3 = \\boxed{6}$`),
   and `_middle_values_agree` compares the middle sides only; `concludes` admits `is <computation> =` after a named
   subject the same way. So `$7 = \\boxed{6}$`, `$6000 = \\boxed{6}$`, `The answer is $2 \\cdot 5 = \\boxed{6}$`,
   `So, the total is 2 + 3 = 6.`, `So, the perimeter is 2(6 + 3) = 6.` pay 6 (two values, 7 and 6), while
   `$x = 3 + 4 = \\boxed{6}$` and `Final Answer: 7 = 6` (`chain_agrees`) are refused.
2. A participle or adverb after an open object: `_object_end`'s open-class slot (after `of`) admits any alphabetic
   word that is no LEXICON verb and no `_NOT_OBJECTS` word (a list: `rounded`, `scaled`, `estimated`, `squared`), so
   `The perimeter of ABCD halved is \\boxed{6}`, `... doubled`, `... negated`, `... inverted`, `... approximated`,
   `... guessed`, `... wrongly`, `The number of apples wrongly counted is` pay 6, in a box's subject and in a
   concluding sentence (`So, the perimeter of ABCD halved is 6.`).
3. A method's clause with a number word or an unlisted hedge: `_method_clause` refuses a digit or math (`Multiplying
   by 2,`) but checks each later word only with `isalpha()` and `_not_object` (a list), so `Dividing by two, we get
   \\boxed{6}`, `Multiplying by three,`, `Adding one,`, `Using a faulty formula,`, `Checking carelessly,`, `Computing
   the square root of the answer,` pay 6, while `Dividing by a thousand,` and `Using an incorrect method,` are refused.

Held (nothing paying that is a wrong answer): `_at_place` (`at the end/start/peak/top/boundary/minimum/cap/first
guess`, `at most`, `at full capacity`, `at the upper end` all refused; `at the price`, `at time zero` pay and name a
place), `_DIVISION_HEADS` (`the remainder when $2N$ ...`-style operands are refused; any divisor is admitted, which
names a quantity), `_OPERAND_HEADS` (`the value of $2x$` refused, `the coefficient of $x^2$` pays by design),
`N \\bmod k` refused, `NAME_MARKS`/`OPTIMUM_LETTERS` (`x'`, `\\hat{x}`, `\\bar{x}`, `\\Delta x`, `dx`, `|x|`, `x^{-1}`
refused in strict; lenient's last-expression fallback pays the prime/hat/bar/Delta forms only without a subject, as
before h29h), the concluding reader's hedges, negations, scales, retractions and second values (`is not 6`, `is at
least 6`, `6, maybe`, `6 or 7`, `6 thousand`, `; no, wait`, a later `Wait, that's wrong.`, `$x^2 = 6$`, `$x \\approx
6$`), and `6 more`/`6%`/`6 percent` (documented: a comparative answers "how much more", a percent sign may be
dropped). Super-linear regexes: none found in the new readers: `concludes` is bounded by `MAX_CHARS` (400) and the
concluding reader by `tail_chars`; one `grade_math` of 2,000 / 4,000 / 8,000 characters of spaces, `$`, `\\(`,
`\\displaystyle`, `=`, braces, digits-and-commas, `'` before `\\bmod`, `+-` chain tokens took at most 0.004 / 0.004 /
0.013 s.
"""

from __future__ import annotations

import pytest

from tests.helpers import choice_case as mc, number_case as n, paid_test, refused_test


# 1. A chain's first side that is a computation without unknowns (docs/math.md "Answer grammar").
FIRST_SIDE_NEAR = [
    n("$7 = \\boxed{6}$"), n("$2 + 3 = \\boxed{6}$"), n("$6000 = \\boxed{6}$"), n("The answer is $7 = \\boxed{6}$."),
    n("The answer is $2 \\cdot 5 = \\boxed{6}$."), n("The answer is 7 = \\boxed{6}."),
    n("The total is $6000 = \\boxed{6}$."), n("The total is $6 \\times 1000 = \\boxed{6}$."),
    n("The perimeter is $2(6+3) = \\boxed{6}$."), n("The perimeter is 2(6 + 3) = \\boxed{6}."),
    # the concluding reader (h29h) reads the same side after its copula
    n("So, the total is 2 + 3 = 6."), n("So, the total is 6000 = 6."), n("So, the total is 6 \\cdot 1000 = 6."),
    n("So, the total is 3 \\cdot 3 = 6."), n("So, the perimeter is 7 = 6."), n("So, the perimeter is $7 = 6$."),
    n("So, the perimeter is 2(6 + 3) = 6."), n("So, the perimeter is $2(6 + 3) = 6$."),
    mc("$7 = \\boxed{B}$"), mc("The answer is $7 = \\boxed{B}$."),
]
FIRST_SIDE_SAME = [n("$2 \\cdot 3 = \\boxed{6}$"), n("$x = 2 \\cdot 3 = \\boxed{6}$"),
                   n("The perimeter is $2(6+3) = \\boxed{18}$.", "18"),
                   n("So, the perimeter of ABCD is 2(6 + 3) = 18.", "18"), mc("$5 = \\boxed{B}$"),
                   mc("The answer is $2 + 3 = \\boxed{B}$.")]
FIRST_SIDE_REFUSED = [n("$x = 3 + 4 = \\boxed{6}$"), n("Final Answer: 7 = 6"), n("Final Answer: 2 + 3 = 6"),
                      n("Final Answer: The total is 7 = 6."), n("So, the perimeter = 7 = 6."), n("Thus, $x = 7 = 6$.")]


test_a_computed_first_side_has_the_box_value = refused_test(
    FIRST_SIDE_NEAR,
    """Paid on main in both profiles, while `$x = 3 + 4 = \\boxed{6}$` is refused: `box_subject` admits a first side
    that `_side_states` reads as a computation without unknowns and `_middle_values_agree` compares middle sides only;
    `concludes` admits `is <computation> =` alike (`grammar.py` `box_subject`, `concludes`, `_middle_values_agree`).""")


# 2. A participle or adverb after an open object (docs/math.md "Answer grammar", "Before a box").
OBJECT_PARTICIPLE_NEAR = [
    n("The perimeter of ABCD halved is \\boxed{6}."), n("The perimeter of ABCD doubled is \\boxed{6}."),
    n("The perimeter of ABCD tripled is \\boxed{6}."), n("The perimeter of ABCD negated is \\boxed{6}."),
    n("The perimeter of ABCD inverted is \\boxed{6}."), n("The perimeter of ABCD approximated is \\boxed{6}."),
    n("The perimeter of ABCD guessed is \\boxed{6}."), n("The perimeter of ABCD wrongly is \\boxed{6}."),
    n("The perimeter of ABCD incorrectly is \\boxed{6}."), n("The perimeter of ABCD mistakenly is \\boxed{6}."),
    n("The number of apples wrongly counted is \\boxed{6}."),
    n("So, the perimeter of ABCD halved is 6."), n("So, the perimeter of ABCD doubled is 6."),
    n("So, the perimeter of ABCD tripled is 6."), n("So, the perimeter of ABCD negated is 6."),
    n("So, the perimeter of ABCD reduced is 6."), n("So, the perimeter of ABCD guessed is 6."),
    n("So, the perimeter of ABCD approximated is 6."), n("So, the perimeter of ABCD wrongly is 6."),
    n("So, the number of apples wrongly counted is 6."), mc("The perimeter of ABCD negated is \\boxed{B}."),
]
OBJECT_PARTICIPLE_SAME = [n("The perimeter of ABCD is \\boxed{6}."), n("So, the perimeter of ABCD is 6."),
                          n("The number of apples remaining is \\boxed{6}."),
                          n("So, the number of apples eaten by Sam is 6.")]
OBJECT_PARTICIPLE_REFUSED = [
    n("The perimeter of ABCD squared is \\boxed{6}."), n("The perimeter of ABCD rounded is \\boxed{6}."),
    n("The perimeter of ABCD scaled is \\boxed{6}."), n("The perimeter of ABCD estimated is \\boxed{6}."),
    n("So, the perimeter of ABCD squared is 6."), n("So, the perimeter of ABCD probably is 6."),
    n("Final Answer: The perimeter of ABCD halved is 6."),
]


test_an_open_object_holds_no_operation_or_hedge = refused_test(
    OBJECT_PARTICIPLE_NEAR,
    """Paid on main in both profiles, while `The perimeter of ABCD squared is \\boxed{6}` is refused: `_object_end`'s
    open-class slot admits any alphabetic word that is no LEXICON verb and not on `_NOT_OBJECTS` (a list), so an
    operation's participle (`halved`, `negated`) or a hedging adverb (`wrongly`) after the object passes.""")


# 3. A method's clause with a number word or an unlisted hedge (docs/math.md "Answer grammar", "Before a box").
METHOD_CLAUSE_NEAR = [
    n("Dividing by two, we get \\boxed{6}."), n("Dividing by two, the answer is \\boxed{6}."),
    n("Dividing by ten, the answer is \\boxed{6}."), n("Multiplying by ten, we get \\boxed{6}."),
    n("Multiplying by three, we get \\boxed{6}."), n("Subtracting one, we get \\boxed{6}."),
    n("Adding one, we get \\boxed{6}."), n("Using a flawed method, we get \\boxed{6}."),
    n("Using a faulty formula, we get \\boxed{6}."), n("Using a bogus formula, we get \\boxed{6}."),
    n("Checking incorrectly, we get \\boxed{6}."), n("Checking carelessly, we get \\boxed{6}."),
    n("Computing the square root of the answer, we get \\boxed{6}."),
    n("Computing the square of the answer, we get \\boxed{6}."),
    n("Computing the cube root of the answer, we get \\boxed{6}."), mc("Dividing by two, we get \\boxed{B}."),
]
METHOD_CLAUSE_SAME = [n("Solving the system of equations, we get \\boxed{6}."),
                      n("Plugging these values into the formula, we get \\boxed{6}.")]
METHOD_CLAUSE_REFUSED = [
    n("Multiplying by 2, we get \\boxed{6}."), n("Dividing by a thousand, we get \\boxed{6}."),
    n("Using an incorrect method, we get \\boxed{6}."), n("Using the wrong formula, we get \\boxed{6}."),
    n("Solving roughly, we get \\boxed{6}."), n("Computing the reciprocal, we get \\boxed{6}."),
    n("Computing twice the answer, we get \\boxed{6}."), n("Rounded to the nearest ten, the answer is \\boxed{6}."),
]


test_a_method_clause_scales_or_hedges_nothing = refused_test(
    METHOD_CLAUSE_NEAR,
    """Paid on main in both profiles, while `Multiplying by 2, we get \\boxed{6}` is refused: `_method_clause` refuses
    digits and math but reads each later word with `isalpha()` and `_not_object` only, so a number word (`by two`), an
    unlisted hedge (`flawed`, `carelessly`) or another quantity (`the square root of the answer`) passes.""")


# Guards for the fixes: rewrites main pays (must still pay) and near misses main refuses (must stay refused).
SAME = FIRST_SIDE_SAME + OBJECT_PARTICIPLE_SAME + METHOD_CLAUSE_SAME
REFUSED = FIRST_SIDE_REFUSED + OBJECT_PARTICIPLE_REFUSED + METHOD_CLAUSE_REFUSED


test_a_right_answer_near_a_class_still_pays = paid_test(SAME)


test_a_near_miss_main_refuses_stays_refused = refused_test(REFUSED)


# Recall given up since fx29g (refused, never paid): a trailing-off `...` is no sentence end, and a capitalised gerund
# is no name, so the placeholder lead `Reasoning... so the answer is` is refused (`Hmm... so` and `Some reasoning. So`
# pay). Open: an ellipsis that ends a thought, read as a sentence end without reading a hedge before it away
# (`I am not sure... the answer is \\boxed{6}` must stay refused).
ELLIPSIS_RECALL = [n("Reasoning... so the answer is $\\boxed{6}$"), n("Work... so the answer is $\\boxed{6}$"),
                   n("x=2... so the answer is $\\boxed{6}$")]


test_an_ellipsis_that_ends_a_thought_is_read = paid_test(
    ELLIPSIS_RECALL, marks=[pytest.mark.xfail(strict=True, reason="open: recall, an ellipsis that ends a thought (issue 29, stop 39)")])


test_a_hedge_before_an_ellipsis_stays_refused = refused_test(
    [n("I am not sure... the answer is $\\boxed{6}$"), n("Maybe... the answer is $\\boxed{6}$")])

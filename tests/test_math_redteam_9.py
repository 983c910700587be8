"""Red team of issue 29's answer grammar, ninth pass (rt29j): wrong answers the grader pays after h29i (closed
object and clause vocabularies, tests/test_math_objects.py) and fx29i (`grammar.read` total, `unicode_math._FOLDS`,
`guards.complexity_guard`, Yes/No golds decided on text), one family per class, graded by the real grader
(`grade_math` through `tests.helpers.math_verdicts`) in both profiles (docs/math.md "Answer grammar"), and class 1
through a real server on loopback (HTTP and gRPC). Each `*_NEAR` case asserts the safe behaviour and is a strict
xfail until its class is closed; plain tests hold what held. Gold 6 unless a case says otherwise.

1. A Yes/No sentence's reason is read by a deny list (`compare.yes_or_no`, `_YES_NO_HEDGE_RE`, called by
   `grade._compare_text` before the answer grammar): against a bare Yes or No gold, any box or anchor that opens
   with the same word pays unless its reason holds one of `yes no or either neither nor maybe perhaps possibly
   unless but`. Every other hedge, retraction, negation or condition pays: `\\boxed{\\text{Yes, probably.}}`,
   `\\boxed{\\text{Yes, I guess.}}`, `\\boxed{\\text{Yes, although it fails for n = 2.}}`, `\\boxed{\\text{Yes.
   Just kidding, it is impossible.}}`, `\\boxed{\\text{Yes, except when n is odd.}}`, `\\boxed{\\text{Yes; wrong.}}`,
   `\\boxed{\\text{Yes, not.}}`, `\\boxed{\\text{No, wait, actually it exists.}}`, `\\boxed{\\text{Yes, however the
   opposite is true.}}`, `\\boxed{\\text{Yes, nein.}}`, `\\boxed{\\text{Yes, nope.}}`, `\\boxed{\\text{Yes, the
   statement is false.}}`, `\\boxed{\\text{Yes, n\\text{o}}}` and `\\boxed{\\text{Yes, Ｎo}}` (the listed word
   itself, split or full-width), `Final Answer: Yes, probably.`, `The answer is Yes, probably.`, the concluding sentence `So, the answer is yes,
   probably.`, `\\boxed{\\text{No, probably.}}` against No (19 cases below;
   through the real server too). Held: `Yes, NO`, `Yes, I think. Or not`, `\\text{Yes}, \\text{ no}`.
2. A relative clause after an object states a second value (`grammar._relative_clause`: any digit-only token and
   any `$...$` segment pass, `is`/`was`/`are` are `CLAUSE_WORDS`): `The number of apples that is 6000 is
   \\boxed{6}`, `... which is 6000 ...`, `... that was 6000 ...`, `... that is $6000$ ...`, `The number of integers
   that are 7 is \\boxed{6}`, `The perimeter of ABCD that is 7 is \\boxed{6}`, `The value of $x$ for which $x$ is 7
   is \\boxed{6}`, `The number of apples that can be written as 7 is \\boxed{6}`, and the concluding sentence `So,
   the number of apples that is 6000 is 6.` pay 6 (9 cases). Held: `The total that is 6000 is \\boxed{6}`, `Final
   Answer: the number of apples that is 6000 is 6.`, `... that is one thousand times the answer ...`. Left alone
   (a question's own wording): `The value of $x$ such that $x = 7$ is \\boxed{6}`, `The probability that Alice wins
   7 is \\boxed{6}`.
3. A figure word of `OBJECT_WORDS` names an operation on the value: `square` and `cube` (the first group, "figures
   ... none says what is done to its quantity") are also `x^2` and `x^3`, so `The value of the cube of $x$ is
   \\boxed{6}`, `The value of the square of $x$ is \\boxed{6}` and `So, the value of the square of $x$ is 6.` pay 6
   (3 cases) while `The square of $x$ is \\boxed{6}` and `The cube of $x$ is \\boxed{6}` are refused (`square`,
   `cube` as heads). Held: `The value of the square of the answer`, `The square of the number of apples`, `The sum
   of the answer and one`, `The answer in thousands`, `The number of apples in dozens`, `The half of the answer`.
4. An `\\approx` relation states a second value that nobody compares (`grammar.chain_agrees` splits on `=` only;
   `read` answers "math" for `6 \\approx 7` and math-verify reads the first side, "equal exactly"): `\\boxed{6
   \\approx 7}`, `\\boxed{6 \\approx -6}`, `\\boxed{6 \\approx 6000}`, `\\boxed{6 \\approx 6\\,000}`, `\\boxed{6
   \\approx 6 \\times 10^3}`, `\\boxed{6 \\approx 7.2}`, `\\boxed{6 \\approx 6000 \\text{ apples}}`, `The answer is
   $6 \\approx 7$.`, `So, the total is $6 \\approx 6000$.`, `Final Answer: 6 \\approx 6000` pay 6 (10 cases). Held:
   `\\boxed{x \\approx 6 \\approx 7}`, `\\boxed{6.2 \\approx 6}`, `\\sim`, `\\simeq`, `\\doteq`, `\\cong`, `\\equiv`
   (incorrect). The fix must keep `\\boxed{\\frac{1}{3} \\approx 0.333}` against `\\frac{1}{3}` (it pays now).
5. Grading time (no test: the suite has no timed assertions). One `grade_math` (strict, warm process) of a short box,
   well under every bound `complexity_guard` and `magnitude_digits` keep: `\\boxed{\\prod_{k=1}^{10^{6}} k}` (30
   characters) 34.7 s warm, 64.7 s in a fresh process (parse 2.4 s; sympy evaluates the product: `magnitude_digits`
   does not bound a `Product`), `\\boxed{\\int_0^1 e^{x^{2}} \\sin(x^{x}) dx}` more than 40 s (killed), a 12 x 12
   symbolic `\\det\\begin{pmatrix}...` 2.7 s, `\\boxed{e^{e^{e^{e^{e}}}}}` 2.5 s, `\\boxed{\\sum_{k=1}^{10^{12}} k}`
   1.9 s, `\\boxed{1.0000001^{10^{15}}}` 1.1 s. The worker's parent bounds each by its deadline; each still holds a
   worker that long (a GRPO group of 16, 16 workers). Under 1 s: `9^{9^{9^9}}`, `10^{10^{10}}`, `(10^7)!`,
   `100000!`, `\\binom{10^9}{5 \\cdot 10^8}`, `2^{2^{30}}`, 600 nested braces or parentheses, 100 nested `\\frac`,
   150 nested `\\sqrt`, 1,900 digits, an `=` chain of 600 sides, 300 sentences, a 900-word Yes reason.

Held (nothing paid that is a wrong answer): a box with an operation around it (`$-\\boxed{6}$`, `$2\\boxed{6}$`,
`$\\frac{1}{\\boxed{6}}$`, `$10^{\\boxed{6}}$`, `\\boxed{6}^3`, `\\boxed{6}!`, `\\boxed{6}\\frac{1}{2}`,
`\\boxed{6}½`, `\\boxed{6}.5`, `\\boxed{6}{,}000`, `\\boxed{6}\\sqrt{2}`, `$\\boxed{6} \\pm 1$`) is refused; nested
boxes (`\\boxed{\\boxed{6}\\text{ thousand}}`, `\\boxed{6\\boxed{000}}`, `\\fbox{\\fbox{6} thousand}`) are no
answer; `\\boxed 6000`, `\\boxed 6 thousand` are incorrect, `\\boxed6` pays; hidden or decorated digits
(`\\phantom{7}6`, `\\color{white}{7}6`, `6\\phantom{000}`, `6\\rlap{000}`, `6\\smash{000}`, `\\tilde{6}`,
`\\overline{6}`, `\\cancel{6}`, `6\\ldots`, `6^{+}`, `6_{\\text{approx}}`, `\\overbrace{6}^{\\text{thousand}}`) are
incorrect; combining marks on the digit (`6̶` strike-through, `6̸`, `6⃠`, `6̅`, a keycap `6⃣`) are incorrect;
`⁶`, `6⁰⁰⁰`, `6³` read as their values; the concluding reader refuses a line after its sentence joined by U+2028,
U+2029, NEL, VT, FF, a tab, a no-break or ideographic space, a zero-width space or an RLO (`So, the answer is 6.\\u2028
Actually 7.`) and a parenthetical second value (`6 (no, 7)`, `6 (or 7)`, `6 (±1)`, `6 (in thousands)`, `6
(×1000)`); scale words split by a soft hyphen or a zero-width space, in Cyrillic look-alikes, with bidi isolates
(`6 \\u2066thousand\\u2069`) are refused; `‰`, `‱`, `′`, `″`, `₥`, `㏏`, `㎅` after a number are refused; squared
unit folds that `_FOLDS` admits are units with SI prefixes (`㎆` MB, `㎓` GHz, `㎉` kcal: a unit, by design); `\\pi`
with words or relations (`\\pi \\cdot \\mathrm{thousand}`, `\\pi_{\\text{thousand}}`, `\\pi \\approx e`, `\\neg \\pi`)
is refused; subjects with an operation (`the square of $x$`, `the answer minus one`, `the reciprocal of the answer`,
`the units digit of the answer`, `the answer to the nearest thousand`) are no answer. Reuse keys: the engine's math
key (`verifier/engine.py` `_math_key`) holds the extraction's text and source, and the worker's compared-verdict key
(`grade._grade_text`) the parsed gold's text and the answer; two tasks in one request differing only in their
profile, where the profiles extract differently, keep their own verdicts on gRPC and HTTP (test below). Not found:
a collision.

Recall gaps (refused, never paid; not holes): `So Janet makes $6 every day.` (a dollar sign read as a math
opener), `The value of $x$ is therefore $6$.` (a connective after the copula), `The answer is \\boxed{6} (six
apples).`, `So, we need 6 buses in total.`, `The number of apples that Sam has left is \\boxed{6}.` (`left` is no
clause word); under strict only, `Therefore, Sam has 6 apples left.`, `In total, there are 6 apples.` (lenient pays); a number
spelled out (`\\boxed{\\text{six}}`, incorrect against 6).
"""

from __future__ import annotations

import pytest

from tests.helpers import math_task, number_case as n, paid_test, refused_test, server_pair_test
from tests.helpers import server_refused_test


# 1. A Yes/No opening with a reason read by a deny list (docs/math.md "Math grading rules").
def yes(completion: str, gold: str = "\\text{Yes}") -> tuple[str, str, None]:
    return (completion, gold, None)


YES_NO_NEAR = [
    yes("\\boxed{\\text{Yes, probably.}}"), yes("\\boxed{\\text{Yes, I guess.}}"),
    yes("\\boxed{\\text{Yes, although it fails for n = 2.}}"), yes("\\boxed{\\text{Yes. Just kidding, it is impossible.}}"),
    yes("\\boxed{\\text{Yes, except when n is odd.}}"), yes("\\boxed{\\text{Yes; wrong.}}"), yes("\\boxed{\\text{Yes, not.}}"),
    yes("\\boxed{\\text{No, wait, actually it exists.}}", "\\text{No}"),
    yes("\\boxed{\\text{Yes, however the opposite is true.}}"), yes("\\boxed{\\text{Yes, nein.}}"),
    yes("\\boxed{\\text{Yes, nope.}}", "Yes"), yes("\\boxed{\\text{Yes, the statement is false.}}", "Yes"),
    yes("\\boxed{\\text{Yes, likely.}}", "Yes"), yes("\\boxed{\\text{Yes, n\\text{o}}}", "Yes"),
    yes("\\boxed{\\text{Yes, Ｎo}}", "Yes"), yes("Final Answer: Yes, probably."), yes("The answer is Yes, probably."),
    yes("So, the answer is yes, probably.", "Yes"), yes("\\boxed{\\text{No, probably.}}", "\\text{No}"),
]
YES_NO_SAME = [yes("\\boxed{\\text{Yes}}", "Yes"), yes("\\boxed{\\text{Yes, because } n = 6 \\text{ works.}}", "Yes"),
               yes("\\boxed{\\text{No, since } 2 \\nmid 7.}", "No")]
YES_NO_REFUSED = [yes("\\boxed{\\text{Yes, NO}}", "Yes"), yes("\\boxed{\\text{Yes, I think. Or not}}"),
                  yes("\\boxed{\\text{Yes}, \\text{ no}}", "Yes")]


test_a_hedged_or_retracted_yes_no_never_pays = refused_test(
    YES_NO_NEAR,
    """Paid in both profiles: `compare.yes_or_no` decides on the opening word and refuses only a reason holding one
    of `_YES_NO_HEDGE_RE`'s words; a hedge, retraction or condition it does not list passes.""")


# 2. A relative clause states a second value (docs/math.md "Answer grammar", "Before a box").
CLAUSE_VALUE_NEAR = [
    n("The number of apples that is 6000 is \\boxed{6}."), n("The number of apples which is 6000 is \\boxed{6}."),
    n("The number of apples that was 6000 is \\boxed{6}."), n("The number of apples that is $6000$ is \\boxed{6}."),
    n("The number of integers that are 7 is \\boxed{6}."), n("The perimeter of ABCD that is 7 is \\boxed{6}."),
    n("The value of $x$ for which $x$ is 7 is \\boxed{6}."), n("The number of apples that can be written as 7 is \\boxed{6}."),
    n("So, the number of apples that is 6000 is 6."),
]
CLAUSE_VALUE_REFUSED = [n("The total that is 6000 is \\boxed{6}."), n("Final Answer: the number of apples that is 6000 is 6."),
                        n("The number of apples that is one thousand times the answer is \\boxed{6}.")]


test_a_clause_stating_another_value_never_pays = refused_test(
    CLAUSE_VALUE_NEAR,
    """Paid in both profiles: `grammar._relative_clause` passes every digit-only token and `$...$` segment, and `is`,
    `was`, `are` are clause words, so the clause `that is 6000` says the object is 6000 beside the box's 6.""")


# 3. `square` and `cube` of OBJECT_WORDS are operations (docs/math.md "Answer grammar").
POWER_OBJECT_NEAR = [n("The value of the cube of $x$ is \\boxed{6}."), n("The value of the square of $x$ is \\boxed{6}."),
                     n("So, the value of the square of $x$ is 6.")]
POWER_OBJECT_REFUSED = [n("The square of $x$ is \\boxed{6}."), n("The cube of $x$ is \\boxed{6}."),
                        n("The value of the square of the answer is \\boxed{6}."),
                        n("The square of the number of apples is \\boxed{6}."), n("The sum of the answer and one is \\boxed{6}."),
                        n("The answer in thousands is \\boxed{6}."), n("The number of apples in dozens is \\boxed{6}."),
                        n("The half of the answer is \\boxed{6}."), n("The reciprocal of the answer is \\boxed{6}.")]


test_the_square_of_the_unknown_never_pays = refused_test(
    POWER_OBJECT_NEAR,
    """Paid in both profiles: `square` and `cube` are figures in `OBJECT_WORDS`' first group, so `the value of the
    square of $x$` is read as an object, though it names x squared, not x.""")


# 4. An `\approx` relation's second side is never compared (docs/math.md "Answer grammar", `=` chains).
APPROX_NEAR = [
    n("\\boxed{6 \\approx 7}"), n("\\boxed{6 \\approx -6}"), n("\\boxed{6 \\approx 6000}"), n("\\boxed{6 \\approx 6\\,000}"),
    n("\\boxed{6 \\approx 6 \\times 10^3}"), n("\\boxed{6 \\approx 7.2}"), n("\\boxed{6 \\approx 6000 \\text{ apples}}"),
    n("The answer is $6 \\approx 7$."), n("So, the total is $6 \\approx 6000$."), n("Final Answer: 6 \\approx 6000"),
]
APPROX_SAME = [n("The answer is \\boxed{\\frac{1}{3} \\approx 0.333}", "\\frac{1}{3}")]
APPROX_REFUSED = [n("\\boxed{x \\approx 6 \\approx 7}"), n("\\boxed{6.2 \\approx 6}"), n("\\boxed{6 \\sim 7}"),
                  n("\\boxed{6 \\simeq 7}"), n("\\boxed{6 \\cong 7}"), n("\\boxed{6 \\equiv 7}")]


test_an_approximation_to_another_value_never_pays = refused_test(
    APPROX_NEAR,
    """Paid in both profiles: `grammar.chain_agrees` splits on `=` only and math-verify reads `6 \\approx 7` as 6
    ("equal exactly"), so the second value beside `\\approx` is never compared.""")


# Guards for the fixes: rewrites main pays (must still pay) and near misses main refuses (must stay refused).
SAME = YES_NO_SAME + APPROX_SAME + [
    n("\\boxed6"), n("So, the answer is 6.\n\n---\n"), n("\\boxed{\\color{red}{6}}"), n("\\boxed{6 \\text{ MB}}"),
    n("The number of apples that Sam lost is \\boxed{6}."), n("The remainder when $N$ is divided by $1000$ is \\boxed{6}."),
    n("**Answer:** 6 apples"), n("Hence the number of apples is $\\boxed{6}$ apples."),
]
REFUSED = YES_NO_REFUSED + CLAUSE_VALUE_REFUSED + POWER_OBJECT_REFUSED + APPROX_REFUSED + [
    n("$-\\boxed{6}$"), n("$2\\boxed{6}$"), n("\\boxed{6}\\frac{1}{2}"), n("\\boxed{6}½"), n("\\boxed{6}{,}000"),
    n("\\boxed{\\boxed{6}\\text{ thousand}}"), n("\\fbox{\\fbox{6} thousand}"), n("\\boxed 6 thousand"),
    n("\\boxed{\\phantom{7}6}"), n("\\boxed{6\\rlap{000}}"), n("\\boxed{6\u0336}"), n("The answer is 6\u20e0."),
    n("So, the answer is 6.\u2028Actually 7."), n("So, the answer is 6.\u00a0Actually, it is 7."),
    n("So, the answer is 6 (no, 7)."), n("So, the answer is 6 thou\u00adsand."), n("So, the answer is 6 \u2066thousand\u2069."),
    n("So, the answer is 6\u2030."), n("\\boxed{\\pi_{\\text{thousand}}}", "\\pi"), n("\\boxed{\\pi \\approx e}", "\\pi"),
]


test_a_right_answer_near_a_class_still_pays = paid_test(SAME)


test_a_near_miss_main_refuses_stays_refused = refused_test(REFUSED)


# Through the real server (class 1), and a reuse-key pair that must not share a verdict (docs/service.md "Reuse keys").
SERVER_NEAR = [math_task("yes-probably", "\\boxed{\\text{Yes, probably.}}", "\\text{Yes}"),
               math_task("yes-nope", "So: \\boxed{\\text{Yes, nope.}}", "Yes")]
PROFILE_PAIR = [math_task("strict", "Therefore, she has 6 apples left.", "6", profile="strict"),
                math_task("lenient", "Therefore, she has 6 apples left.", "6", profile="lenient")]


test_the_server_refuses_a_hedged_yes = server_refused_test(SERVER_NEAR)


test_tasks_differing_only_in_profile_keep_their_verdicts = server_pair_test(
    PROFILE_PAIR, ["no_answer", "correct"],
    """One request, the same completion and gold, another profile: strict reads no answer and lenient reads the concluding
    sentence, so the extraction in the math key differs and neither shares the other's verdict.""")


# Recall given up (refused, never paid): rewrites a model writes that the grammar does not read.
RECALL = [n("So Janet makes $6 every day."), n("The value of $x$ is therefore $6$."), n("So, we need 6 buses in total."),
          n("The number of apples that Sam has left is \\boxed{6}.")]


test_common_rewrites_pay = paid_test(RECALL, marks=[pytest.mark.xfail(strict=False, reason="recall: rewrites the grammar refuses (rt29j)")])


# 5. Grading time: a sum or product of many terms, or an integral sympy cannot evaluate, is never evaluated
# (`guards._series_digits`, `guards._integral_digits`; docs/math.md "Answer grammar"): no timed assertion, the bound.
@pytest.mark.parametrize("latex", ["\\prod_{k=1}^{10^{6}} k", "\\sum_{k=1}^{10^{12}} k", "\\int_0^1 e^{x^{2}} \\sin(x^{x}) dx",
                                   "\\sum_{k=1}^{\\infty} k"])
def test_a_long_series_or_an_unknown_integral_is_never_evaluated(latex: str) -> None:
    from verifier.math.guards import INFINITE, magnitude_digits
    from verifier.math.limits import DEFAULT_LIMITS
    from verifier.math.parsing import _math_verify_parse

    assert magnitude_digits(_math_verify_parse(latex), DEFAULT_LIMITS) == INFINITE


SERIES_SAME = [n("\\boxed{\\sum_{k=1}^{3} k}"), n("\\boxed{\\prod_{k=1}^{3} k}"), n("\\boxed{\\int_0^2 3x^2 dx}", "8")]


test_a_short_series_or_a_polynomial_integral_still_pays = paid_test(SERIES_SAME)

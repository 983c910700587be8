"""Red team of issue 29's answer grammar, fourteenth pass (rt29p): wrong answers the grader pays, and answers that hold a
grading worker for seconds, after fx29r (`verifier/math/conditions.py`, counted ranges, the gold's expansion), fx29t
(`guards.expansion_guard` as an allowlist of cheap shapes) and fx29s (a subject names, it never states a value:
`grammar.SUBJECT_VALUE_PLACES`, the subject read folded). Graded by the real grader (`grade_math` through
`tests.helpers.math_verdicts`) in both profiles; every `*_NEAR` case below paid `correct` in the profiles its class
names, and each is a strict xfail asserting the safe verdict until its class is closed; plain tests hold what held.
Gold 6 throughout. About 310 candidates tried, by class (one grading process at a time, load average 1-2).

Ranked by how bad (a natural wording, a sign or a scale of the answer, how many variants):

1. Lenient only: the last-sentence fallback (`extract._last_expression` -> `_read_last_sentence` ->
   `grammar.read_sentence`) admits a subject whose math is a function of the unknown, which the box and concluding
   readers refuse: `The value of $-x$ is 6.` (x = -6), `So, the value of $-x$ is 6.`, `The value of $−x$ is 6.`,
   `The value of $\\sqrt{x}$ is 6.`, `$|x|$`, `$\\lfloor x \\rfloor$`, `$\\sin x$`, `$\\cos x$`, `$e^{x}$`, `$x!$`,
   `$\\ln x$`, `$\\overline{x}$`, `$x^{*}$`, `The length of $-AB$ is 6.`, `We find that the value of $-x$ is 6.`
   (source `last`, strict `no_answer`; 21 cases). Held: `$2x$`, `$1000x$`, `$x^2$`, `$1/x$`, `$x^{-1}$`,
   `$\\frac{1}{x}$`, `$\\sqrt[3]{x}$`, `$\\tan^{-1} x$`, `$x + 1$` are refused there too. Suggested fix: one subject
   reader for the three paths: `_read_last_sentence` reads its subject with the box path's `box_subject` rules
   (`_noun_phrase` and `SUBJECT_VALUE_PLACES`), never the prose reader's looser one.
2. Both profiles: a value-free token before a name in an object (`_subject_value` calls a token a value only when it
   holds a digit, a number word or an operator; `_values_placed` then never asks where it stands, and a lone operator
   segment passes `_own_math_name`): `The value of - $x$ is \\boxed{6}.` (x = -6), `... − $x$ ...`, `... $-$ $x$ ...`,
   `... $−$ $x$ ...`, `... $\\pm$ $x$ ...`, `... $\\times$ $x$ ...`, `... $/$ $x$ ...`, `... $+$ $x$ ...`, `... $\\neg$
   $x$ ...`, `... $\\sqrt{}$ $x$ ...`, `... $\\ln$ $x$ ...`, `... $\\sin$ $x$ ...`, `... $\\frac{}{}$ $x$ ...`, a
   constant (pi x = 6): `... $\\pi$ $x$ ...`, `$\\Pi$`, `$\\tau$`, `$\\varphi$`, `$\\infty$`, `$\\sqrt{\\pi}$`,
   `$\\pi\\pi$`, `$e$`, `The area of $\\pi$ $ABCD$ ...`, a scale letter: `... $\\mathrm{k}$ $x$ ...`, `$\\text{k}$`,
   `$\\mathrm{M}$`, `M $x$`, `$\\mathrm{k}x$`, `$\\mathrm{M}x$`, `$\\mathrm{kx}$`, and `So, the value of $\\pi$ $x$ is 6.`
   (39 cases). Held: `pi $x$`, `$\\pi$ times $x$`, `$x$ $\\pi$`, `$\\pi x$`, `$x \\pi$`, `$ex$`, `$\\pi$$x$`,
   `$-$$x$`, `$x\\,\\mathrm{k}$`, `$\\text{thousand}\\,x$`, `$^2$ $x$`. Suggested fix (an allowlist): in an object, a
   name stands alone or after a determiner or listed adjective; any math segment or token before it that is not a
   name is a second value (a sign, a constant, an operator, a scale), refused whatever it holds.
3. Both profiles: a condition that excludes the box's own value (`conditions.condition_fixes` asks only whether the
   condition leaves the unknown infinitely many values; the box's value is not threaded in): `The value of $x$ such
   that $x > 7$ is \\boxed{6}.`, `$x \\ne 6$`, `$x \\neq 6$`, `$x ≠ 6$`, `$x - 6 \\ne 0$`, `$x^2 \\ne 36$`, `$x > 6$`,
   `$x < 0$`, `$x \\ge 1000$`, `$1000 < x$`, `$x^{2} > 100$`, `$\\frac{1}{x - 6} > 0$`, `$x ＞ 7$`, `$x ⩾ 7$`, `$𝑥 > 7$`,
   `$x > ７$`, `$x > \\sqrt{49}$`, `$-x < -7$`, `The smallest integer $n$ such that $n > 6$ ...`, `... $n^{2} > 50$
   ...`, `The largest integer $n$ such that $n < 6$ ...`, `The integer $n$ such that $n \\equiv 2 \\pmod{5}$ ...`, `$7
   \\mid n$`, `$6 \\nmid n$`, `The answer such that $x > 7$ ...`, `So, the value of $x$ such that $x \\ne 6$ is 6.`
   (about 50 cases). Held: `for which`/`where $x \\ne 6$`, `that satisfies $x \\ne 6$`, `that is greater than 7`,
   `The value of $x$, such that $x > 7$, is`. Suggested fix: thread the box's value into the condition: every
   relation on the subject's own unknown, read by `conditions._Reader`, must hold at the box's value (exactly, by
   sympy), else the subject states another value; an unread box value or relation refuses.
4. Both profiles: a relative clause's copula states the head's value through a counted `of` object (`_counted_object`,
   `_counted_in_object`, admitted for `the sum of two positive integers`): `The number of apples that is the sum of 7
   apples is \\boxed{6}.`, `... that equals the sum of 7 apples ...`, `... that is the number of 7 apples ...`, `...
   which is the total of 7 apples ...`, `... that is the product of two apples ...`, `... that is the sum of two
   positive integers ...`, `The number of years that is the sum of 7 years ...`, `... that has the sum of 7 apples ...`
   (8 cases). Suggested fix: a count in a clause's `of` object only when the clause's verb is no copula and no
   `_COUNTING_VERBS` word of the head's own quantity (`that can be written as the sum of two ...` stays).
5. Both profiles: the degree's labelled operand states the degree (`_operand_label`: the number or math after
   `polynomial` is admitted, yet it fixes the degree): `The degree of $p(x)$ (which is the constant polynomial 1) is
   \\boxed{6}.` (degree 0), `... (which is the polynomial $x^7$) ...`, `$x^{7} + 1$`, `, which is the polynomial $x^7$,`,
   `(which is the constant polynomial 7)`, `(which is the polynomial 1000)`, `(which is a polynomial $x^7$)`, `$q(x)$`,
   `So, the degree of $p(x)$ (which is the constant polynomial 1) is 6.` (9 cases). Suggested fix: read the label's
   polynomial (`conditions._Reader`) and admit it only when its degree is the box's value; else refuse.
6. Both profiles: an ordinal count of the head's own quantity (`_ordinal_count`): `The number of the first 7 apples is
   \\boxed{6}.`, `The number of the last 7 terms ...`, `The count of the first 7 terms ...`, `The number of the next 1000
   days ...`, `The number of apples of the first 7 apples ...`, `The number of the first 7 boxes ...`, `The number of the
   last 1000 digits ...`, `So, the number of the first 7 apples is 6.` (8 cases). Held: `the first seven apples`, `The
   sum of the first 7 ones`. Suggested fix: an ordinal count never right under a counting head (`number`, `count`),
   as red team 13 class 7's count is never right after the head it would count.
7. Both profiles: a whole-number range with a condition that picks every member, or none (`_numbered_range` asks only
   that some condition follows): `The number of integers $n$ between 1 and 7 inclusive such that $n \\ge 1$ is
   \\boxed{6}.` (7), `... such that $n = n$ ...`, `... such that $y > 0$ ...`, `The number of integers between 1 and 7
   inclusive that are integers ...`, `The number of integers between 7 and 8 that are positive ...` (0), `The number of
   integers $n$ between 1 and 1000 such that $n > 0$ ...`, `The number of years between 2000 and 3000 inclusive that are
   years ...`, `So, ... such that $n > 0$ is 6.` (8 cases). Held: the range alone in every spelling tried (`odd
   integers`, `whole numbers`, `from 7 to 8`, `$7$ and $8$`, `seven and eight`). Suggested fix: when the bounds and a
   condition `conditions.reads` are numeric, count the range's members that satisfy it (bounded: the range's size at
   most a few thousand) and admit only when the count is the box's value; any other condition refuses.
8. Both profiles: the `ways` infinitive admits any value after `to` (`_ways_infinitive`): `The number of ways to choose 2
   of 4 and 7 is \\boxed{6}.`, `... 2 of 4 in 1000 ...`, `... $2$ of $4$ $\\times 1000$ ...` (a scale), `... 2 of 4 (7) ...`
   (4 cases). Held: `times 1000`, `divided by 1000`, `plus 7`, `minus 1`, `or 7`, `, 7,`, `squared`, `twice`, `that is 7`,
   `which is 7`. Suggested fix: in the infinitive a value only as a counting verb's object or an `of` object (`choose 2 of
   4`), the rest by the clause's own allowlist.
9. Grading time in the condition reader (`conditions.py`; one `grade_math` per answer, strict, gold 6, warm process, each
   in its own process killed at 40 s, 2 cores shared with a CI run, load 1-2): `such that $x > ((((2^{64})^{64})^{64})^{64})^{64}$`
   37.4 s (`_bounded_power` bounds each exponent, never the tower: 2^(64^5), one uninterruptible integer power; four
   levels 0.7 s), `such that $x (a+b+c+d+f+g+h+k+m)^{8} (n+p+q+r+s+t+u+v+w)^{8} = y$` more than 40 s, `$x (a+b+...+z)^{8}
   = y$` more than 40 s, `$x (a+b)^{8} (c+d)^{8} ... (p+q)^{8} = y$` more than 40 s (`_frees_linear`'s `sympy.Poly`
   expands the other letters' coefficients), `such that $x = \\exp(\\exp(\\exp(\\exp(y))))$` more than 40 s
   (`_frees_linear`'s `evalf` at its probes), `such that $x^8 - 1234567890123456789012345678901234567 x^7 + ... > 0$`
   13.7 s (`solveset` on a degree-8 polynomial with a 37-digit coefficient), all paid `correct` when they finish. Held
   (under 1.5 s): four inequalities of degree 8, a rational inequality of degree 8 over 8, 18 factors `(x+k)^{8}` on
   each side (`cancel`), twelve nested `\\sin`, `x \\sin(a+...+n) = y`. Suggested fix: bound the reader's work before
   sympy sees it: a number's size (digits times the product of its exponents, as `guards.magnitude_digits`), a
   product's expanded size (terms of each factor to its power, multiplied) and nesting depth of `\\exp`, each refusing
   unread; and solve with bounded coefficient digits.

Gold side (no case): not tried in this pass. Unicode: the fold held for the found classes (each pays folded as it pays
in ASCII); number words and other-language numerals were refused in every place tried (`seven`, `the first seven`).

Noted, not counted (design calls already reported): `The number of squares between 7 and 8`, `The number of multiples of
7 between 7 and 8` (a numbered noun's range is the question's data), `that satisfy 7 apples`, `that cost 7 apples`, `that
has 7 apples in total` (counting verbs), `The value of $x_{1000}$`, `$kx$`, `$x_{1000} - x$` (names), `such that $x = y
+ 1000$` (leaves x free).

Recall gaps (refused, never paid; not holes): `The value of $\\sqrt{x}$ is \\boxed{6}.`, `The value of $\\ln x$ is
\\boxed{6}.` (a quantity a question may ask for), `The number of integers between 1 and 100 that satisfy $n > 0$`.
"""

from __future__ import annotations

import pytest

from tests.helpers import math_verdicts as verdicts
from tests.helpers import number_case as n
from tests.helpers import refused_test

OPEN = "open: {} (rt29p)"
V = "The value of $x$ such that"


def _open(what: str) -> list:
    return [pytest.mark.xfail(strict=True, reason=OPEN.format(what))]


# 1. Lenient's last-sentence fallback admits a function of the unknown as a subject.
LAST_SENTENCE_NEAR = [n(c) for c in [
    "The value of $-x$ is 6.", "So, the value of $-x$ is 6.", "The value of $−x$ is 6.", "The value of $-x$ is $6$.",
    "We find that the value of $-x$ is 6.", "The value of $-a$ is 6.", "The length of $-AB$ is 6.",
    "The value of $\\sqrt{x}$ is 6.", "So, the value of $\\sqrt{x}$ is 6.", "The value of $|x|$ is 6.",
    "The value of $\\lfloor x \\rfloor$ is 6.", "The value of $\\sin x$ is 6.", "The value of $\\cos x$ is 6.",
    "The value of $e^{x}$ is 6.", "The value of $x!$ is 6.", "So, the value of $x!$ is 6.", "The value of $\\ln x$ is 6.",
    "Hence, the value of $\\ln x$ is 6.", "The value of $\\overline{x}$ is 6.",
    "The value of $-$ $x$ is 6.",
]]
LAST_SENTENCE_REFUSED = [n(c) for c in [
    "So, the value of $2x$ is 6.", "So, the value of $x^2$ is 6.", "The value of $1/x$ is 6.",
    "So, the value of $x^{-1}$ is 6.", "So, the value of $\\frac{1}{x}$ is 6.", "The value of $\\sqrt[3]{x}$ is 6.",
    "The value of $\\tan^{-1} x$ is 6.", "So, the value of $x + 1$ is 6.", "The value of $x$ is −6.",
]]
test_a_function_of_the_unknown_in_a_last_sentence_never_pays = refused_test(
    LAST_SENTENCE_NEAR, """Paid under lenient (source `last`): `_read_last_sentence` reads the subject with the prose
    reader, which admits `$-x$`, `$\\sqrt{x}$`, `$x!$` as a name; the box and concluding paths refuse them.""")
test_a_last_sentence_subject_the_fallback_refuses_stays_refused = refused_test(LAST_SENTENCE_REFUSED)
test_an_optimum_name_in_a_last_sentence = refused_test(
    [n("The value of $x^{*}$ is 6.")], """Class 1's one case left open after fx29u: the last sentence now reads its
    subject with the box's grammar, which names an optimum `x^*` (`grammar.OPTIMUM_LETTERS`, `_MATH_NAME_RE`), so
    `The value of $x^{*}$ is \\boxed{6}` pays as this does: whether `x^*` (a conjugate, an optimum) is a name is a
    design call for the lead, in every path at once.""", marks=_open("class 1, `x^*` as a name (a design call)"))


# 2. A value-free token before a name in an object.
TOKEN_BEFORE_NAME_NEAR = [n(c) for c in [
    "The value of - $x$ is \\boxed{6}.", "The value of − $x$ is \\boxed{6}.", "The value of $-$ $x$ is \\boxed{6}.",
    "The value of $−$ $x$ is \\boxed{6}.", "The value of $\\pm$ $x$ is \\boxed{6}.", "The value of $\\times$ $x$ is \\boxed{6}.",
    "The value of $/$ $x$ is \\boxed{6}.", "The value of $+$ $x$ is \\boxed{6}.", "The value of $\\neg$ $x$ is \\boxed{6}.",
    "The value of $\\sqrt{}$ $x$ is \\boxed{6}.", "The value of $\\ln$ $x$ is \\boxed{6}.",
    "The value of $\\sin$ $x$ is \\boxed{6}.", "The value of $\\frac{}{}$ $x$ is \\boxed{6}.",
    "The value of $\\pi$ $x$ is \\boxed{6}.", "The value of $\\pi$ $x$ is $\\boxed{6}$.", "The value of $\\Pi$ $x$ is \\boxed{6}.",
    "The value of $\\tau$ $x$ is \\boxed{6}.", "The value of $\\varphi$ $x$ is \\boxed{6}.",
    "The value of $\\infty$ $x$ is \\boxed{6}.", "The value of $\\infty$ $AB$ is \\boxed{6}.",
    "The value of $\\sqrt{\\pi}$ $x$ is \\boxed{6}.", "The value of $\\pi\\pi$ $x$ is \\boxed{6}.",
    "The value of $e$ $x$ is \\boxed{6}.", "The value of $\\pi$ $AB$ is \\boxed{6}.", "The area of $\\pi$ $ABCD$ is \\boxed{6}.",
    "The value of $\\pi$ x is \\boxed{6}.", "The value of $\\pi$ $f(x)$ is \\boxed{6}.", "The value of $\\pi$ $x_1$ is \\boxed{6}.",
    "The value of $\\pi$ $x$ such that $x > 0$ is \\boxed{6}.", "The value of $\\mathrm{k}$ $x$ is \\boxed{6}.",
    "The value of $\\text{k}$ $x$ is \\boxed{6}.", "The value of $\\mathrm{M}$ $x$ is \\boxed{6}.",
    "The value of M $x$ is \\boxed{6}.", "The value of $\\mathrm{k}x$ is \\boxed{6}.", "The value of $\\mathrm{M}x$ is \\boxed{6}.",
    "The value of $\\mathrm{kx}$ is \\boxed{6}.", "The value of $\\text{k}x$ is \\boxed{6}.",
    "The value of $\\%$ $x$ is \\boxed{6}.", "So, the value of $\\pi$ $x$ is 6.",
]]
TOKEN_BEFORE_NAME_REFUSED = [n(c) for c in [
    "The value of pi $x$ is \\boxed{6}.", "The value of $\\pi$ times $x$ is \\boxed{6}.", "The value of $x$ $\\pi$ is \\boxed{6}.",
    "The value of $\\pi x$ is \\boxed{6}.", "The value of $x \\pi$ is \\boxed{6}.", "The value of $ex$ is \\boxed{6}.",
    "The value of $\\pi$$x$ is \\boxed{6}.", "The value of $-$$x$ is \\boxed{6}.", "The value of $x\\,\\mathrm{k}$ is \\boxed{6}.",
    "The value of $\\text{thousand}\\,x$ is \\boxed{6}.", "The value of $^2$ $x$ is \\boxed{6}.",
    "The value of $-x$ is \\boxed{6}.", "The value of $\\sqrt{x}$ is \\boxed{6}.",
]]
test_a_token_before_a_name_never_pays = refused_test(
    TOKEN_BEFORE_NAME_NEAR, """Paid in both profiles: `_subject_value` needs a digit, a number word or an operator
    inside math, so a sign, a constant, an empty operator or a scale letter before the name is never placed.""")
test_a_token_glued_to_a_name_stays_refused = refused_test(TOKEN_BEFORE_NAME_REFUSED)


# 3. A condition that excludes the box's own value.
EXCLUDES_BOX_NEAR = [n(c) for c in [
    f"{V} $x > 7$ is \\boxed{{6}}.", f"{V} $x \\ne 6$ is \\boxed{{6}}.", f"{V} $x \\neq 6$ is \\boxed{{6}}.",
    f"{V} $x ≠ 6$ is \\boxed{{6}}.", f"{V} $x - 6 \\ne 0$ is \\boxed{{6}}.", f"{V} $x^2 \\ne 36$ is \\boxed{{6}}.",
    f"{V} $x > 6$ is \\boxed{{6}}.", f"{V} $x < 0$ is \\boxed{{6}}.", f"{V} $x \\ge 1000$ is \\boxed{{6}}.",
    f"{V} $1000 < x$ is \\boxed{{6}}.", f"{V} $x^{{2}} > 100$ is \\boxed{{6}}.", f"{V} $\\frac{{1}}{{x - 6}} > 0$ is \\boxed{{6}}.",
    f"{V} $x > 6$ and $x < 1000$ is \\boxed{{6}}.", f"{V} $x \\ne 6$ and $x \\ne 7$ is \\boxed{{6}}.",
    f"{V} $x ＞ 7$ is \\boxed{{6}}.", f"{V} $x ⩾ 7$ is \\boxed{{6}}.", f"{V} $𝑥 > 7$ is \\boxed{{6}}.",
    f"{V} $x > ７$ is \\boxed{{6}}.", f"{V} $x > \\sqrt{{49}}$ is \\boxed{{6}}.", f"{V} $x > 2^{{3}}$ is \\boxed{{6}}.",
    f"{V} $-x < -7$ is \\boxed{{6}}.", f"{V} $x>7$ holds is \\boxed{{6}}.", f"{V} $x > 7$ and $y > 0$ is \\boxed{{6}}.",
    "The number $n$ such that $n \\neq 6$ is \\boxed{6}.", "The smallest integer $n$ such that $n > 6$ is \\boxed{6}.",
    "The smallest integer $n$ such that $n^{2} > 50$ is \\boxed{6}.", "The largest integer $n$ such that $n < 6$ is \\boxed{6}.",
    "The least positive integer $n$ such that $n > 7$ is \\boxed{6}.", "The positive integer $n$ such that $n > 1000$ is \\boxed{6}.",
    "The integer $n$ such that $n \\equiv 2 \\pmod{5}$ is \\boxed{6}.", "The integer $n$ such that $7 \\mid n$ is \\boxed{6}.",
    "The integer $n$ such that $6 \\nmid n$ is \\boxed{6}.", "The answer such that $x > 7$ is \\boxed{6}.",
    "The number of apples such that $n > 7$ is \\boxed{6}.", "So, the value of $x$ such that $x \\ne 6$ is 6.",
    "Therefore, the value of $x$ such that $x > 7$ is 6.", "So, the smallest integer $n$ such that $n > 6$ is 6.",
]]
EXCLUDES_BOX_REFUSED = [n(c) for c in [
    "The value of $x$ for which $x \\ne 6$ is \\boxed{6}.", "The value of $x$ where $x \\ne 6$ is \\boxed{6}.",
    "The value of $x$ that satisfies $x \\ne 6$ is \\boxed{6}.", "The value of $x$ that is greater than 7 is \\boxed{6}.",
    "The value of $x$, such that $x > 7$, is \\boxed{6}.",
]]
test_a_condition_excluding_the_box_never_pays = refused_test(
    EXCLUDES_BOX_NEAR, """Paid in both profiles: `condition_fixes` admits a condition leaving infinitely many values
    without asking whether the box's value is among them (`x > 7` and 6, `x \\ne 6` and 6). Closed by fx29v: every
    relation on the subject's own unknown must hold at the box's value (`conditions._holds`).""")
test_a_condition_excluding_the_box_in_another_clause_stays_refused = refused_test(EXCLUDES_BOX_REFUSED)


# 4. A clause's copula states the head's value through a counted `of` object.
COPULA_COUNTED_NEAR = [n(f"The number of {c} is \\boxed{{6}}.") for c in [
    "apples that is the sum of 7 apples", "apples that equals the sum of 7 apples", "apples that is the number of 7 apples",
    "apples which is the total of 7 apples", "apples that is the product of two apples",
    "apples that is the sum of two positive integers", "years that is the sum of 7 years", "apples that has the sum of 7 apples",
]]
test_a_copula_through_a_counted_object_never_pays = refused_test(
    COPULA_COUNTED_NEAR, """Paid in both profiles: `_counted_object` admits a count in a clause's `of` object whatever
    the clause's verb, so `that is the sum of 7 apples` states the head's value.""")


# 5. The degree's labelled operand states the degree.
DEGREE_LABEL_NEAR = [n(c) for c in [
    "The degree of $p(x)$ (which is the constant polynomial 1) is \\boxed{6}.",
    "The degree of $p(x)$ (which is the polynomial $x^7$) is \\boxed{6}.",
    "The degree of $p(x)$ (which is the polynomial $x^{7} + 1$) is \\boxed{6}.",
    "The degree of $p(x)$, which is the polynomial $x^7$, is \\boxed{6}.",
    "The degree of $p(x)$ (which is the constant polynomial 7) is \\boxed{6}.",
    "The degree of $p(x)$ (which is the polynomial 1000) is \\boxed{6}.",
    "The degree of $p(x)$ (which is a polynomial $x^7$) is \\boxed{6}.",
    "The degree of $q(x)$ (which is the polynomial $x^{7}$) is \\boxed{6}.",
    "So, the degree of $p(x)$ (which is the constant polynomial 1) is 6.",
]]
test_a_degree_label_stating_the_degree_never_pays = refused_test(
    DEGREE_LABEL_NEAR, """Paid in both profiles: `_operand_label` admits the polynomial's number or math, which fixes
    the degree the box states (the constant polynomial 1 has degree 0).""")


# 6. An ordinal count of the head's own quantity.
ORDINAL_COUNT_NEAR = [n(c) for c in [
    "The number of the first 7 apples is \\boxed{6}.", "The number of the last 7 terms is \\boxed{6}.",
    "The count of the first 7 terms is \\boxed{6}.", "The number of the next 1000 days is \\boxed{6}.",
    "The number of apples of the first 7 apples is \\boxed{6}.", "The number of the first 7 boxes is \\boxed{6}.",
    "The number of the last 1000 digits is \\boxed{6}.", "So, the number of the first 7 apples is 6.",
]]
test_an_ordinal_count_of_the_heads_quantity_never_pays = refused_test(
    ORDINAL_COUNT_NEAR, """Paid in both profiles: `_ordinal_count` admits `the first 7 apples` under `number`, whose
    count it states.""")


# 7. A whole-number range with a condition that picks every member, or none.
RANGE_CONDITION_NEAR = [n(c) for c in [
    "The number of integers $n$ between 1 and 7 inclusive such that $n \\ge 1$ is \\boxed{6}.",
    "The number of integers $n$ between 1 and 7 inclusive such that $n = n$ is \\boxed{6}.",
    "The number of integers $n$ between 1 and 7 inclusive such that $y > 0$ is \\boxed{6}.",
    "The number of integers between 1 and 7 inclusive that are integers is \\boxed{6}.",
    "The number of integers between 7 and 8 that are positive is \\boxed{6}.",
    "The number of integers $n$ between 1 and 1000 such that $n > 0$ is \\boxed{6}.",
    "The number of years between 2000 and 3000 inclusive that are years is \\boxed{6}.",
    "So, the number of integers $n$ between 1 and 1000 such that $n > 0$ is 6.",
]]
RANGE_ALONE_REFUSED = [n(f"The number of {c} is \\boxed{{6}}.") for c in [
    "odd integers between 7 and 8", "even numbers between 7 and 8", "positive integers between 7 and 8",
    "whole numbers between 7 and 8", "natural numbers between 7 and 8", "integers from 7 to 8",
    "integers between $7$ and $8$", "integers between seven and eight", "digits between 7 and 8",
]]
test_a_range_with_a_condition_picking_all_never_pays = refused_test(
    RANGE_CONDITION_NEAR, """Paid in both profiles: `_numbered_range` admits a whole-number range when any condition
    follows, even one every member (or none) satisfies, so the count is the range's own size.""")
test_a_range_alone_stays_refused = refused_test(RANGE_ALONE_REFUSED)


# 8. The `ways` infinitive admits any value after `to`.
WAYS_NEAR = [n(f"The number of ways to choose {c} is \\boxed{{6}}.") for c in [
    "2 of 4 and 7", "2 of 4 in 1000", "$2$ of $4$ $\\times 1000$", "2 of 4 (7)"]]
WAYS_REFUSED = [n(f"The number of ways to choose {c} is \\boxed{{6}}.") for c in [
    "2 of 4 times 1000", "2 of 4 divided by 1000", "2 of 4 plus 7", "2 of 4 minus 1", "2 of 4 or 7", "2 of 4, 7,",
    "2 of 4 squared", "2 of 4 twice", "2 of 4 that is 7", "2 of 4 which is 7"]]
test_a_value_in_a_ways_infinitive_never_pays = refused_test(
    WAYS_NEAR, """Paid in both profiles: `_ways_infinitive` places every value after `to` (`and 7`, a scale
    `$\\times 1000$`).""")
test_a_ways_infinitive_the_clause_refuses_stays_refused = refused_test(WAYS_REFUSED)


# 9. Grading time in the condition reader: the safe verdict is a refusal before sympy works (module docstring, 9).
SLOW_CONDITIONS = [
    f"{V} $x > ((((2^{{64}})^{{64}})^{{64}})^{{64}})^{{64}}$ is \\boxed{{6}}.",
    f"{V} $x (a+b+c+d+f+g+h+k+m)^{{8}} (n+p+q+r+s+t+u+v+w)^{{8}} = y$ is \\boxed{{6}}.",
    f"{V} $x = \\exp(\\exp(\\exp(\\exp(y))))$ is \\boxed{{6}}.",
    f"{V} $x^8 - 1234567890123456789012345678901234567 x^7 + 3x^5 - 7x^3 + 11 x - 13 > 0$ is \\boxed{{6}}.",
    # fx29v's variants: a tower that holds at 6, past `MAX_DIGITS`; a root of one; `\exp` by `^`; a letter's tower
    f"{V} $x < (((2^{{64}})^{{64}})^{{64}})^{{64}}$ is \\boxed{{6}}.",
    f"{V} $x < \\sqrt{{((2^{{64}})^{{64}})^{{64}}}}$ is \\boxed{{6}}.",
    f"{V} $x = e^{{e^{{e^{{e^{{y}}}}}}}}$ is \\boxed{{6}}.",
    f"{V} $x + y = ((((y+1)^{{8}})^{{8}})^{{8}})^{{8}}$ is \\boxed{{6}}.",
    f"{V} $x < ((((x+1)^{{8}})^{{8}})^{{8}})^{{8}}$ is \\boxed{{6}}.",
    "The integer $n$ such that $n \\equiv 6 \\pmod{((((2^{64})^{64})^{64})^{64})^{64}}$ is \\boxed{6}.",
]


@pytest.mark.timeout(30)
@pytest.mark.parametrize("completion", SLOW_CONDITIONS)
def test_a_condition_too_costly_to_read_is_refused(completion: str) -> None:
    """13.7 s to more than 40 s each, then paid: `_bounded_power` bounds each exponent but not a tower,
    `_frees_linear`'s `Poly` expands the other letters and its `evalf` a tower of `\\exp`, `solveset` takes a 37-digit
    degree-8 polynomial. Refused unread (never solved), the verdict is not `correct`. Closed by fx29v: the reader bounds
    its work before sympy (`conditions.MAX_DIGITS`, `MAX_EXPANDED_TERMS`), and the box's value is put in, never solved for."""
    assert "correct" not in verdicts(completion, "6")


@pytest.mark.parametrize("completion", [
    f"{V} $x < ((2^{{8}})^{{8}})^{{8}}$ is \\boxed{{6}}.",  # fx29v: a tower that holds at 6, under `MAX_DIGITS`
    f"{V} $x = \\sin(\\sin(\\sin(\\sin(\\sin(\\sin(\\sin(\\sin(\\sin(\\sin(\\sin(\\sin(y))))))))))))$ is \\boxed{{6}}.",
    f"{V} $x \\sin(a+b+c+d+f+g+h+k+m+n) = y$ is \\boxed{{6}}.",
    "The smallest positive integer $n$ such that $n^{2} > 30$ is \\boxed{6}.",  # fx29w: the optimum decided (`_is_optimum`)
])
def test_a_condition_cheap_to_read_still_pays(completion: str) -> None:
    """Held (under 1.5 s each under load): a three-level tower (fx29v: the four-level `x >` one excludes the box's 6), twelve nested sines, a sine of ten terms beside the
    unknown; the right answer of the fx29r rewrites."""
    assert verdicts(completion, "6") == ["correct", "correct"]

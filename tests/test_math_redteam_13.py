"""Red team of issue 29's answer grammar, thirteenth pass (rt29o): wrong answers the grader pays, and answers that hold a
grading worker for seconds, after fx29q (`grammar._value_role`, `_COUNTING_VERBS` and the copula's span,
`grammar._condition_fixes`, `guards.expansion_guard`'s `_terms`). Graded by the real grader (`grade_math` through
`tests.helpers.math_verdicts`) in both profiles (docs/math.md "Answer grammar"); every case below paid `correct` in
both unless it is listed as held. Each `*_NEAR` case asserts the safe behaviour and is a strict xfail until its class
is closed; plain tests hold what held. Gold 6 unless a case says otherwise. About 320 candidates tried, by class.

FIXED by fx29r (classes 2, 4, part of 3) and fx29s (classes 1, 5, 6, 7, 8 and the rest of 3: "a subject names; it never
states a value", `grammar.SUBJECT_VALUE_PLACES`; a subject is read folded, a condition's math only as
`conditions.reads` reads it; an integer head's unknown is an integer, `conditions.INTEGER_KINDS`): every `*_NEAR` case
below is a plain test now; class 9 (grading time) stays open.

Ranked by how bad (a natural wording, a scale of the answer, how many variants):

1. A value beside math in a subject's object (`_value_role` takes a value as "the whole `of` object" when the next
   token is no alphanumeric word, so math after it is admitted as more of the object): `The value of 1000 $x$ is
   \\boxed{6}.` states 1000x = 6, a scale of the answer (`The value of $1000x$` and `The value of $2x$` are refused);
   `... 7 $x$ ...`, `... $1000$ $x$ ...`, `... 0.001 $x$ ...`, `... $2^{10}$ $x$ ...`, `... 1000 x ...`, `... 1,000 $x$
   ...`, `... 1000 (x) ...`, `... 1000 $f(x)$ ...`, `... 1000 $AB$ ...`, `The length of 7 $AB$ ...`, `The area of 4
   $ABCD$ ...`, `The coefficient of 1000 $x^2$ ...`, `The number of apples of 7 $x$ ...`, `... 1000 $x$ in dollars
   ...`, `... 1000 $x$ that is positive ...`, `... 7 $x$ such that $x > 0$ ...`, `The sum of 2 $a$ and $b$ ...`,
   `So, the value of 1000 $x$ is 6.`, `Therefore, ...` pay 6 (24 cases). Held: `The value of $x$ of 1000 $y$`,
   `... 1000 $x^2$`, `... one $x$`, `... seven $x$`, `... 10 $\\times$ $x$`, `... 2 $(x+1)$`, `Final Answer: The value
   of 1000 $x$ is 6.` Suggested fix (an allowlist): the whole `of` object is a value standing alone, the object's only
   token before a preposition, an opener or the subject's end; a value before anything else is a second value.
2. A condition sets the subject's own compound unknown (`_own_names` keeps `$AB$`, `$xy$`, `$x+y$`, `$f(3)$` as one
   compacted name, but `_Probe` reads a side `AB` as the product A B, `x+y` as a sum, `f(3)` as a constant function
   value: a "name" is only ever one letter, so the side "varies" or is a "value" and `x = 7`'s rule never fires):
   `The length of $AB$ such that $AB = 7$ is \\boxed{6}.`, `... $BA = 7$`, `The length of $BC$ such that $BC = 7$`,
   `The length of $\\overline{AB}$ such that $AB = 7$`, `The value of $xy$ such that $xy = 7$` (and `$yx = 7$`, `The
   product $xy$ ...`), `$x+y$`, `$x + y$`, `$a+b+c$`, `$x - y$`, `$x \\cdot y$`, `$\\frac{x}{y}$`, `$a_1 + a_2$`,
   `$f(3)$` (and with `$f(1) = 2$` beside), `$p(2)$`, `$f(x)$`, `$g(x)$`, `So, the length of $AB$ such that $AB = 7$ is
   6.` pay 6 (20 cases). Held: `$x^2$`, `$2x$`, `$mn$` as subjects (refused before the condition), `The area of $ABCD$
   such that $ABCD = 7$`, `$ab$ where`, `$xy$ when`. Suggested fix: probe the subject's own name as an expression with
   the same reader and call a side "name" when its values match the own name's at every probe (AB = BA = A B); an own
   name the probe does not read makes every condition on it unread, refused.
3. A relation the condition reader does not see (`_condition_fixes` reads the subject's text before
   `unicode_math.to_ascii_math` folds it, and its relation list is ASCII/LaTeX only; a set relation is read only as `\\in`
   a one-element `\\{...\\}` of no braces): `The value of $x$ such that $x ≔ 7$ is \\boxed{6}.`, `≜`, `≝`, `≐`, `⩵`,
   `﹦`, `＝`, `≡` (the `\\equiv` of red team 12, with no modulus), `{7} ∋ x`, `↦`, `←`, `≅`, `≍`, `≑`, `≣`, `⩶`, `≖`,
   `≗`, `≞`, `≟`, `꞊`, `᐀`, `≘`, `≙`, `≚`, `≛`, `x ∊ {7}`, `x ∈ \\{\\frac{14}{2}\\}`, `$x ≤ 7$ and $x ≥ 7$` (the folder
   knows `≤`; the condition never sees the fold), `$x ⩽ 7$ and $x ⩾ 7$`, `$x ⩽ 7 ⩽ x$`, `The answer such that $x ≔ 7$`,
   `So, the value of $x$ such that $x ≔ 7$ is 6.`; sets: `$x \\in \\{\\frac{14}{2}\\}$`, `\\{7^{1}\\}`, `\\{{7}\\}`,
   `\\{\\sqrt{49}\\}`, `$\\{x\\} \\subseteq \\{7\\}$`, `$\\{x\\} \\subseteq \\{7\\} \\subseteq \\{x\\}$`, `$7 \\mid x$ and $x
   \\mid 7$` pay 6 (40 cases). Held: `x ∈ \\{7\\}`, `x ⇒ 7`, `x → 7`, `x \\in \\{7\\}`, `x \\in \\{ 7 + 0 \\}`,
   `x \\in \\left\\{7\\right\\}`, `x \\in \\{7\\} \\cup \\{7\\}`. Suggested fix: fold first, then admit a condition's math
   only from an ASCII/LaTeX character allowlist (any other character: unread, refused), and read a set side by its
   elements with the probe (`\\in`/`\\subseteq` a set of one value, however written, sets the name).
4. A relation whose two sides are both unread (`_run_fixes` fires on a value or a name beside an unread side; two
   unread sides fix nothing): `The value of $x$ such that $(x = 7)$ is \\boxed{6}.`, `${x = 7}$`, `$[x = 7]$`, `$\\{x =
   7\\}$`, `$\\left(x = 7\\right)$`, `$x' = 7'$`, `$x {=} 7$`, `$x_{} = 7$`, `$|x| = |7|$`, `The number $n$ such that $(n
   = 7)$`, `The answer such that $(x = 7)$`, `The area of the square such that $(x = 7)$`, `... such that $(x=7)$ holds
   ...`, `So, the value of $x$ such that $(x = 7)$ is 6.` pay 6 (14 cases). Held: `$(x, y) = (7, 1)$`, `$\\left. x = 7
   \\right.$`, `$x = 7.$`, `$x: = 7$`, `$(x) = (7)$`, `$[x] = [7]$`, and `for which`/`where`/`when`/`given`/`if`/`with`/
   `satisfying $(x = 7)$`. Suggested fix: an unread side anywhere in a relation chain makes the condition unread
   (refused), as `_CONDITION_COMMANDS` does for a command.
5. A clause word that is a verb outside LEXICON's verb list (`_clause_copula` calls a word a copula only when LEXICON
   or `CLAUSE_WORDS` tags it a verb; a noun used as a verb, or a bare inflection of a listed one, passes as an object
   word, and the count after it reads as `that hold 7 apples`): `The number of apples that sums to 7 apples is
   \\boxed{6}.`, `... that sum to ...`, `... that averages ...`, `... which averages ...`, `(which averages 7 apples)`,
   `... that average ...`, `... that means ...`, `... that numbers ...`, `... that number ...`, `... that numbers in
   total ...`, `... that squares to ...`, `... that total ...`, `... that count ...`, `... that amount to ...`, `...
   that area ...`, `... that measure 7 apples ...`, `The area of the square that measure 7 square meters ...`, `The
   length of the rope that measure 7 meters ...`, `The price of the apple that amount to 7 dollars ...`, `So, the
   number of apples that sums to 7 apples is 6.`, `... that the sum 7 apples ...` pay 6 (21 cases); `measures`,
   `totals`, `counts`, `weighs` (LEXICON verbs) are refused. Held: `totals to`, `counts to`, `sums up to`, `adds up
   to`, `make`, `weigh`. Suggested fix: invert the rule: a count in a clause is admitted only as the object of a
   `_COUNTING_VERBS` word (right after it, or after its listed particles), never after any other word.
6. The copula's span ends at any `_CLAUSE_ENDS` word, even one that opens no clause of its own: `The number of apples
   that is that 7 apples is \\boxed{6}.`, `... that is such that 7 apples ...`, `... which is that which 7 apples ...`,
   `... that is where ...`, `... that is who ...`, `... that is whose ...`, `... that equals such that ...`, `... that
   becomes that ...`, `... that are those that ...`, `So, the number of apples that is that 7 apples is 6.` pay 6 (10
   cases). Held: `that is, which 7 apples`, `that is as 7 apples`, `that is the one that 7 apples`. Suggested fix: the
   span ends only where a new clause has its own verb; or (class 5's fix) a count needs a counting verb before it.
7. A count before a counted noun that is the subject's own quantity (`_counts_objects` in `_value_role`): `The number of
   7 apples is \\boxed{6}.`, `The number of 1000 apples ...`, `The total of 7 bags of apples ...`, `The sum of 7 terms
   of $x$ ...` (7x), `The product of 7 factors of $x$ ...` (x^7), `The sum of 7 $x$ terms ...` pay 6 (6 cases). Held:
   `7 copies of`, `7 units of`, `7 groups of`, `7 dozen`, `in 7 boxes`. Suggested fix: a count in an object only where
   it picks the objects (`the first 10 terms`, `multiples of 7`), never right after the head it would count (`the number
   of 7 apples`) or before a word that takes `of` (`7 terms of`, `7 factors of`).
8. A bounded integer (`_condition_fixes` records only non-strict bounds at one value): `The integer $n$ such that $6 <
   n < 8$ is \\boxed{6}.`, `... $n > 6$ and $n < 8$ ...`, `The smallest integer $n$ such that $n > 6$ and $n < 8$ ...`,
   `The integer $n$ such that $6 < n \\le 7$ ...`, `The positive integer $n$ such that $n < 2$ ...`, `... $n \\leq 1$
   ...` pay 6 (6 cases; each condition leaves one integer). Held: `The natural number $n$ such that $n < 1$`. Suggested
   fix: for an integer subject (`integer`, `natural`, `positive integer`), count the integers the bounds leave.
9. Grading time past `guards.expansion_guard` (one `grade_math` per answer, strict, gold 6, warm process, each in its
   own process killed at 30 s, 2 cores shared with two other helpers at load average 7-8, so times run high; every case
   is passed by the guard, not refused): (a) a trig function of a sum within the count (`_TRIG` counts t terms 2^t, t
   2^t for a ratio; 200 allows t = 7, 5): `\\cos(a+b+c+d+f+g+h)` 11.8 s, `\\sin(a+b+c+d+f+g+h)` 7.6 s,
   `\\cos(2a+3b+5c+7d+11f+13g+17h)` 19.8 s, `\\cos(a+b+c+d+f+g)` 5.9 s, `\\cos(2a+3b+5c+7d+11f)` (32 terms) 4.4 s,
   `\\tan(a+b+c+d+f)` 2.9 s, `\\sec(a+b+c+d+f)` 3.1 s, `\\cos(a+b+c+d+f+g+h)+\\tan(a+b+c+d)` (192 terms) more than 30
   s, and a tuple of two (a container counts its largest part): `(\\cos(a+b+c+d+f+g+h), \\sin(a+b+c+d+f+g+h))` 13.9 s
   against gold `(1, 2)`; (b) a hyperbolic function of a sum, which `_TRIG` does not list (one term):
   `\\sinh(a+b+c+d+f)` 17.8 s, `\\tanh(a+b+c+d+f)` 9.6 s, `\\sinh(a+b+c+d+f+g)`, `\\sinh(a+b+c+d+f+g+h+k)`,
   `\\cosh(a+...+n)` (10 terms), `\\tanh(a+b+c+d+f+g+h)` more than 30 s each; (c) a closed form within the bound
   (`_closed_form`'s (d+1)^2 2^f <= 200): `\\sum_{k=1}^{n} k^{9} x^{k}` (200) more than 30 s, `k^{8}` 20.3 s, `k^{7}`
   8.4 s, `k^{6}` 3.3 s, `\\int x^{6} e^{x} \\sin(x) dx` (196) 14.6 s, `x^{5}` 11.0 s, `\\int x^{4}
   e^{x}\\sin(x)\\cos(x) dx` (200) 7.6 s, `\\int x^{9} e^{x} dx` 2.5 s; (d) a limit (one term, its series uncounted):
   `\\lim_{x \\to 0} \\frac{\\tan(\\tan(\\tan x)) - \\sin(\\sin(\\sin x))}{x^{9}}` 5.7 s. Held (under 2 s):
   `\\cot(a+b+c+d+f)`, `\\cos(a+b+c+d+f)` 1.9 s, `\\cosh(a+b+c+d+f)` 1.6 s, eight sines of single symbols multiplied
   1.8 s, seven tangents 0.6 s, `\\max` of seven sums 1.7 s, `e^{i(a+...+k)}` 1.0 s, `\\sum_{k=1}^{n} k^{4} \\cos(k x)`
   1.4 s, `\\frac{d^{6}}{dx^{6}} \\tan(\\tan(x))` 1.6 s; four-symbol answers are disproved at a sample point at once
   (`\\tan(a+b+c+d)`, `\\cosh(a+b+c+d)`, `\\binom{x+y+z+w}{5}`); `(a+b)^{199}+\\sin(c)` refused (201); integrals the
   magnitude guard never evaluates (`\\int \\sin^{20}(x)\\cos^{20}(x) dx`, `\\int \\frac{1}{x^{13}+1} dx`, `\\int
   \\tan^{20}(x) dx`) under 1 s. Suggested fix: the count is no cost model for functions: admit a function of a sum
   (any function with an addition theorem: trig, hyperbolic) only up to a small measured size (t <= 4, the sampler's
   own reach), count a container as the sum of its parts, a limit by its series order, and closed forms only up to a
   measured degree (d <= 5 with f >= 1), each bound measured on this machine class under load.

Noted, not counted (design calls, already reported or another quantity): `The price of the apple that costs 7 dollars
is \\boxed{6}.` (`costs` is a counting verb yet states the head's own quantity; rt29m's "not reported"), `... that
selected 7 apples ...`, `... that form 7 apples ...`, `... that satisfy 7 apples ...` (counting verbs admit any
count); `The value of 7 is \\boxed{6}.`, `The number of apples of 1000 is \\boxed{6}.` (a whole `of` object);
`The value of the integer between 7 and 8 is \\boxed{6}.` (the known open `between`); `such that $x_{0} = 7$` (another
name); `such that $x < 7$` (a condition that picks the unknown out).

Reuse keys (held): `engine._math_key` is `reuse_key("math", gold, choices, extraction.text, extraction.source,
timeout_s)`, and `grade_extracted`/`grade_simple` read nothing else (the profile reaches the verdict only through the
extraction, `Extraction` has no other field); `Plan.share_key` keys every field but the per-attempt ones. No pair found
that differs in a verdict-changing field and shares a key (code runs not exercised: no docker in this pass).

Recall gaps (refused, never paid; not holes): `The value of $x^2$ is \\boxed{6}.`, `The value of $mn$ is \\boxed{6}.`
(while `$xy$` pays), `The number of apples that contain 7 seeds is \\boxed{6}.` (`contain` is a counting verb but no
clause word; `contains` pays), `The value of $x$ such that $x \\in \\{7, 8\\}$ is \\boxed{6}.`
"""

from __future__ import annotations

import pytest

from tests.helpers import MATH_CASE_PARAMS as PARAMS, math_verdicts as verdicts
from tests.helpers import number_case as n

OPEN = "open: {} (rt29o)"
A = "The number of apples"
V = "The value of $x$ such that"


# 1. A value beside math in a subject's object (`_value_role`'s whole `of` object).
VALUE_BESIDE_MATH_NEAR = [
    n("The value of 1000 $x$ is \\boxed{6}."), n("The value of 7 $x$ is \\boxed{6}."),
    n("The value of $1000$ $x$ is \\boxed{6}."), n("The value of 0.001 $x$ is \\boxed{6}."),
    n("The value of $2^{10}$ $x$ is \\boxed{6}."), n("The value of 1000 x is \\boxed{6}."),
    n("The value of 1,000 $x$ is \\boxed{6}."), n("The value of 1000 (x) is \\boxed{6}."),
    n("The value of 1000 $f(x)$ is \\boxed{6}."), n("The value of 1000 $AB$ is \\boxed{6}."),
    n("The value of 10 $AB$ is \\boxed{6}."), n("The length of 7 $AB$ is \\boxed{6}."),
    n("The area of 4 $ABCD$ is \\boxed{6}."), n("The coefficient of 1000 $x^2$ is \\boxed{6}."),
    n(f"{A} of 7 $x$ is \\boxed{{6}}."), n(f"{A} of 1000 $n$ is \\boxed{{6}}."),
    n("The value of 1000 $x$ in dollars is \\boxed{6}."), n("The value of 1000 $x$ that is positive is \\boxed{6}."),
    n("The value of 7 $x$ such that $x > 0$ is \\boxed{6}."), n("The value of 7 $x$ $y$ is \\boxed{6}."),
    n("The sum of 2 $a$ and $b$ is \\boxed{6}."), n("The value of 1000 $x$ is $\\boxed{6}$."),
    n("So, the value of 1000 $x$ is 6."), n("Therefore, the value of 1000 $x$ is 6."),
]
VALUE_BESIDE_MATH_REFUSED = [
    n("The value of $x$ of 1000 $y$ is \\boxed{6}."), n("The value of 1000 $x^2$ is \\boxed{6}."),
    n("The value of one $x$ is \\boxed{6}."), n("The value of seven $x$ is \\boxed{6}."),
    n("The value of 10 $\\times$ $x$ is \\boxed{6}."), n("The value of 2 $(x+1)$ is \\boxed{6}."),
    n("Final Answer: The value of 1000 $x$ is 6."), n("The value of $2x$ is \\boxed{6}."),
]


@pytest.mark.parametrize(PARAMS, VALUE_BESIDE_MATH_NEAR)
def test_a_value_beside_math_in_an_object_never_pays(completion: str, gold: str, choices: list[str] | None) -> None:
    """Paid in both profiles: `_value_role` reads a value as the whole `of` object when the token after it is no
    alphanumeric word, so `of 1000 $x$` is 1000 then the math name x, the scale `$1000x$` is refused for."""
    assert "correct" not in verdicts(completion, gold, choices)


# 2. A condition that sets the subject's own compound unknown (`_own_names` against `_Probe`'s names).
COMPOUND_NAME_NEAR = [
    n("The length of $AB$ such that $AB = 7$ is \\boxed{6}."), n("The length of $AB$ such that $BA = 7$ is \\boxed{6}."),
    n("The length of $BC$ such that $BC = 7$ is \\boxed{6}."),
    n("The length of $\\overline{AB}$ such that $AB = 7$ is \\boxed{6}."),
    n("The value of $xy$ such that $xy = 7$ is \\boxed{6}."), n("The value of $xy$ such that $yx = 7$ is \\boxed{6}."),
    n("The product $xy$ such that $xy = 7$ is \\boxed{6}."), n("The value of $x+y$ such that $x+y=7$ is \\boxed{6}."),
    n("The value of $x + y$ such that $x + y = 7$ is \\boxed{6}."),
    n("The value of $a+b+c$ such that $a+b+c = 7$ is \\boxed{6}."),
    n("The value of $x - y$ such that $x - y = 7$ is \\boxed{6}."),
    n("The value of $x \\cdot y$ such that $x \\cdot y = 7$ is \\boxed{6}."),
    n("The value of $\\frac{x}{y}$ such that $\\frac{x}{y} = 7$ is \\boxed{6}."),
    n("The value of $a_1 + a_2$ such that $a_1 + a_2 = 7$ is \\boxed{6}."),
    n("The value of $f(3)$ such that $f(3) = 7$ is \\boxed{6}."),
    n("The value of $f(3)$ such that $f(3) = 7$ and $f(1) = 2$ is \\boxed{6}."),
    n("The value of $p(2)$ such that $p(2) = 7$ is \\boxed{6}."), n("The value of $f(x)$ such that $f(x) = 7$ is \\boxed{6}."),
    n("The value of $g(x)$ such that $g(x) = 7$ is \\boxed{6}."), n("So, the length of $AB$ such that $AB = 7$ is 6."),
]
COMPOUND_NAME_REFUSED = [
    n("The value of $x^2$ such that $x^2 = 7$ is \\boxed{6}."), n("The value of $2x$ such that $2x = 7$ is \\boxed{6}."),
    n("The area of $ABCD$ such that $ABCD = 7$ is \\boxed{6}."), n("The value of $ab$ where $ab = 7$ is \\boxed{6}."),
    n("The value of $xy$ when $xy = 7$ is \\boxed{6}."), n("The value of $mn$ such that $mn = 7$ is \\boxed{6}."),
    n("The value of $a_{1}$ such that $a_1 = 7$ is \\boxed{6}."),
]


@pytest.mark.parametrize(PARAMS, COMPOUND_NAME_NEAR)
def test_a_condition_setting_a_compound_unknown_never_pays(completion: str, gold: str, choices: list[str] | None) -> None:
    """Paid in both profiles: the own name is the compacted math (`AB`, `xy`, `f(3)`), but the probe reads a side as
    a product, a sum or a constant function value whose names are single letters, so no side is ever "name"."""
    assert "correct" not in verdicts(completion, gold, choices)


# 3. A relation the condition reader does not see (raw Unicode; a set side it does not read).
UNSEEN_RELATION_NEAR = [n(f"{V} $x {r} 7$ is \\boxed{{6}}.") for r in
                        "≔ ≜ ≝ ≐ ⩵ ﹦ ＝ ≡ ↦ ← ≅ ≍ ≑ ≣ ⩶ ≖ ≗ ≞ ≟ ꞊ ᐀ ≘ ≙ ≚ ≛".split()] + [
    n(f"{V} $\\{{7\\}} ∋ x$ is \\boxed{{6}}."), n(f"{V} $x ∊ \\{{7\\}}$ is \\boxed{{6}}."),
    n(f"{V} $x ∈ \\{{\\frac{{14}}{{2}}\\}}$ is \\boxed{{6}}."), n(f"{V} $x ≤ 7$ and $x ≥ 7$ is \\boxed{{6}}."),
    n(f"{V} $x ⩽ 7$ and $x ⩾ 7$ is \\boxed{{6}}."), n(f"{V} $x ⩽ 7 ⩽ x$ is \\boxed{{6}}."),
    n("The answer such that $x ≔ 7$ is \\boxed{6}."), n("So, the value of $x$ such that $x ≔ 7$ is 6."),
    n(f"{V} $x \\in \\{{\\frac{{14}}{{2}}\\}}$ is \\boxed{{6}}."), n(f"{V} $x \\in \\{{7^{{1}}\\}}$ is \\boxed{{6}}."),
    n(f"{V} $x \\in \\{{{{7}}\\}}$ is \\boxed{{6}}."), n(f"{V} $x \\in \\{{\\sqrt{{49}}\\}}$ is \\boxed{{6}}."),
    n(f"{V} $\\{{x\\}} \\subseteq \\{{7\\}}$ is \\boxed{{6}}."),
    n(f"{V} $\\{{x\\}} \\subseteq \\{{7\\}} \\subseteq \\{{x\\}}$ is \\boxed{{6}}."),
    n(f"{V} $7 \\mid x$ and $x \\mid 7$ is \\boxed{{6}}."),
]
UNSEEN_RELATION_REFUSED = [
    n(f"{V} $x ∈ \\{{7\\}}$ is \\boxed{{6}}."), n(f"{V} $x ⇒ 7$ is \\boxed{{6}}."),
    n(f"{V} $x → 7$ is \\boxed{{6}}."), n(f"{V} $x \\in \\{{7\\}}$ is \\boxed{{6}}."),
    n(f"{V} $x \\in \\{{ 7 + 0 \\}}$ is \\boxed{{6}}."), n(f"{V} $x \\in \\left\\{{7\\right\\}}$ is \\boxed{{6}}."),
    n(f"{V} $x \\in \\{{7\\}} \\cup \\{{7\\}}$ is \\boxed{{6}}."),
]


@pytest.mark.parametrize(PARAMS, UNSEEN_RELATION_NEAR)
def test_a_condition_setting_the_unknown_by_an_unseen_relation_never_pays(completion: str, gold: str,
                                                                           choices: list[str] | None) -> None:
    """Paid in both profiles: `_condition_fixes` reads the text before Unicode folding and knows ASCII/LaTeX relations
    only (`≔`, `≡`, even `≤`/`≥`, which the folder maps, are no relation to it), and reads a set side only as `\\in` a
    brace-free one-element `\\{...\\}`."""
    assert "correct" not in verdicts(completion, gold, choices)


# 4. A relation whose two sides are both unread (`_run_fixes`).
BOTH_UNREAD_NEAR = [
    n(f"{V} $(x = 7)$ is \\boxed{{6}}."), n(f"{V} ${{x = 7}}$ is \\boxed{{6}}."), n(f"{V} $[x = 7]$ is \\boxed{{6}}."),
    n(f"{V} $\\{{x = 7\\}}$ is \\boxed{{6}}."), n(f"{V} $\\left(x = 7\\right)$ is \\boxed{{6}}."),
    n(f"{V} $x' = 7'$ is \\boxed{{6}}."), n(f"{V} $x {{=}} 7$ is \\boxed{{6}}."), n(f"{V} $x_{{}} = 7$ is \\boxed{{6}}."),
    n(f"{V} $|x| = |7|$ is \\boxed{{6}}."), n("The number $n$ such that $(n = 7)$ is \\boxed{6}."),
    n("The answer such that $(x = 7)$ is \\boxed{6}."), n("The area of the square such that $(x = 7)$ is \\boxed{6}."),
    n(f"{V} $(x=7)$ holds is \\boxed{{6}}."), n("So, the value of $x$ such that $(x = 7)$ is 6."),
]
BOTH_UNREAD_REFUSED = [
    n(f"{V} $(x, y) = (7, 1)$ is \\boxed{{6}}."), n(f"{V} $\\left. x = 7 \\right.$ is \\boxed{{6}}."),
    n(f"{V} $x = 7.$ is \\boxed{{6}}."), n(f"{V} $x: = 7$ is \\boxed{{6}}."), n(f"{V} $(x) = (7)$ is \\boxed{{6}}."),
    n(f"{V} $[x] = [7]$ is \\boxed{{6}}."), n("The value of $x$ for which $(x = 7)$ is \\boxed{6}."),
    n("The value of $x$ where $(x = 7)$ is \\boxed{6}."), n("The value of $x$ when $(x = 7)$ is \\boxed{6}."),
]


@pytest.mark.parametrize(PARAMS, BOTH_UNREAD_NEAR)
def test_a_condition_of_two_unread_sides_never_pays(completion: str, gold: str, choices: list[str] | None) -> None:
    """Paid in both profiles: a bracket around the equation (`(x = 7)`) or a mark on both sides (`x' = 7'`) makes each
    side unread, and a run of unread sides holds no value and no name, so `_run_fixes` admits it."""
    assert "correct" not in verdicts(completion, gold, choices)


# 5. A clause verb LEXICON does not tag a verb (a noun as a verb, a bare inflection).
UNTAGGED_VERB_NEAR = [
    n(f"{A} that sums to 7 apples is \\boxed{{6}}."), n(f"{A} that sum to 7 apples is \\boxed{{6}}."),
    n(f"{A} that averages 7 apples is \\boxed{{6}}."), n(f"{A} which averages 7 apples is \\boxed{{6}}."),
    n(f"{A} (which averages 7 apples) is \\boxed{{6}}."), n(f"{A} that average 7 apples is \\boxed{{6}}."),
    n(f"{A} that means 7 apples is \\boxed{{6}}."), n(f"{A} that numbers 7 apples is \\boxed{{6}}."),
    n(f"{A} that number 7 apples is \\boxed{{6}}."), n(f"{A} that numbers in total 7 apples is \\boxed{{6}}."),
    n(f"{A} that squares to 7 apples is \\boxed{{6}}."), n(f"{A} that total 7 apples is \\boxed{{6}}."),
    n(f"{A} that count 7 apples is \\boxed{{6}}."), n(f"{A} that amount to 7 apples is \\boxed{{6}}."),
    n(f"{A} that area 7 apples is \\boxed{{6}}."), n(f"{A} that measure 7 apples is \\boxed{{6}}."),
    n("The area of the square that measure 7 square meters is \\boxed{6}."),
    n("The length of the rope that measure 7 meters is \\boxed{6}."),
    n("The price of the apple that amount to 7 dollars is \\boxed{6}."),
    n("So, the number of apples that sums to 7 apples is 6."), n(f"{A} that the sum 7 apples is \\boxed{{6}}."),
]
UNTAGGED_VERB_REFUSED = [
    n(f"{A} that measures 7 apples is \\boxed{{6}}."), n(f"{A} that totals 7 apples is \\boxed{{6}}."),
    n(f"{A} which counts 7 apples is \\boxed{{6}}."), n(f"{A} that totals to 7 apples is \\boxed{{6}}."),
    n(f"{A} that counts to 7 apples is \\boxed{{6}}."), n(f"{A} that sums up to 7 apples is \\boxed{{6}}."),
    n(f"{A} that adds up to 7 apples is \\boxed{{6}}."), n("The weight of the box that weigh 7 pounds is \\boxed{6}."),
]


@pytest.mark.parametrize(PARAMS, UNTAGGED_VERB_NEAR)
def test_a_clause_counting_after_an_untagged_verb_never_pays(completion: str, gold: str,
                                                             choices: list[str] | None) -> None:
    """Paid in both profiles: `_clause_copula` is a copula only for a word tagged a verb; `sums`, `averages`,
    `means`, `numbers` (nouns) and `measure`, `count`, `total` (bare forms of listed verbs) pass as object words, and
    the count after them reads as a counting verb's (`that hold 7 apples`)."""
    assert "correct" not in verdicts(completion, gold, choices)


# 6. The copula's span ends at any `_CLAUSE_ENDS` word.
SPAN_ENDED_NEAR = [
    n(f"{A} that is that 7 apples is \\boxed{{6}}."), n(f"{A} that is such that 7 apples is \\boxed{{6}}."),
    n(f"{A} which is that which 7 apples is \\boxed{{6}}."), n(f"{A} that is where 7 apples is \\boxed{{6}}."),
    n(f"{A} that is who 7 apples is \\boxed{{6}}."), n(f"{A} that is whose 7 apples is \\boxed{{6}}."),
    n(f"{A} that equals such that 7 apples is \\boxed{{6}}."), n(f"{A} that becomes that 7 apples is \\boxed{{6}}."),
    n(f"{A} that are those that 7 apples is \\boxed{{6}}."), n("So, the number of apples that is that 7 apples is 6."),
]
SPAN_ENDED_REFUSED = [
    n(f"{A} that is, which 7 apples is \\boxed{{6}}."), n(f"{A} that is as 7 apples is \\boxed{{6}}."),
    n(f"{A} that is the one that 7 apples is \\boxed{{6}}."),
]


@pytest.mark.parametrize(PARAMS, SPAN_ENDED_NEAR)
def test_a_count_after_an_opener_in_a_copula_span_never_pays(completion: str, gold: str,
                                                             choices: list[str] | None) -> None:
    """Paid in both profiles: `_clause_states_value` stops the copula's span at `that`, `which`, `such`, `where`,
    `who`, `whose` whether or not a clause with its own verb follows, and a count after it is a counting verb's."""
    assert "correct" not in verdicts(completion, gold, choices)


# 7. A count of the subject's own quantity in its object (`_counts_objects` in `_value_role`).
OWN_COUNT_NEAR = [
    n("The number of 7 apples is \\boxed{6}."), n("The number of 1000 apples is \\boxed{6}."),
    n("The total of 7 bags of apples is \\boxed{6}."), n("The sum of 7 terms of $x$ is \\boxed{6}."),
    n("The product of 7 factors of $x$ is \\boxed{6}."), n("The sum of 7 $x$ terms is \\boxed{6}."),
]
OWN_COUNT_REFUSED = [
    n("The sum of 7 copies of $x$ is \\boxed{6}."), n("The value of 7 units of $x$ is \\boxed{6}."),
    n("The total of 7 groups of $x$ is \\boxed{6}."), n(f"{A} of 7 dozen is \\boxed{{6}}."),
    n(f"{A} in 7 boxes is \\boxed{{6}}."),
]


@pytest.mark.parametrize(PARAMS, OWN_COUNT_NEAR)
def test_a_count_of_the_subjects_own_quantity_never_pays(completion: str, gold: str, choices: list[str] | None) -> None:
    """Paid in both profiles: `_value_role` admits any count before a counted noun in an object, so `the number of 7
    apples` states 7 beside 6, and `the sum of 7 terms of $x$` is 7x as `the sum of $x$ and $1$` is x + 1."""
    assert "correct" not in verdicts(completion, gold, choices)


# 8. A bounded integer (`_condition_fixes` bounds only non-strict at one value).
BOUNDED_INTEGER_NEAR = [
    n("The integer $n$ such that $6 < n < 8$ is \\boxed{6}."), n("The integer $n$ such that $n > 6$ and $n < 8$ is \\boxed{6}."),
    n("The smallest integer $n$ such that $n > 6$ and $n < 8$ is \\boxed{6}."),
    n("The integer $n$ such that $6 < n \\le 7$ is \\boxed{6}."), n("The positive integer $n$ such that $n < 2$ is \\boxed{6}."),
    n("The positive integer $n$ such that $n \\leq 1$ is \\boxed{6}."),
]


@pytest.mark.parametrize(PARAMS, BOUNDED_INTEGER_NEAR)
def test_bounds_leaving_one_integer_never_pay(completion: str, gold: str, choices: list[str] | None) -> None:
    """Paid in both profiles: an integer strictly between 6 and 8 is 7, as `x \\le 7 \\le x` sets x to 7."""
    assert "correct" not in verdicts(completion, gold, choices)


# 9. Grading time past `guards.expansion_guard`: the guard's decision, never a time (module docstring, item 9).
TRIG_WITHIN_COUNT = ["\\cos(a+b+c+d+f+g+h)", "\\sin(a+b+c+d+f+g+h)", "\\cos(2a+3b+5c+7d+11f+13g+17h)",
                     "\\cos(a+b+c+d+f+g)", "\\cos(2a+3b+5c+7d+11f)", "\\tan(a+b+c+d+f)", "\\sec(a+b+c+d+f)",
                     "\\cos(a+b+c+d+f+g+h)+\\tan(a+b+c+d)", "(\\cos(a+b+c+d+f+g+h), \\sin(a+b+c+d+f+g+h))"]
HYPERBOLIC = ["\\sinh(a+b+c+d+f)", "\\tanh(a+b+c+d+f)", "\\sinh(a+b+c+d+f+g)", "\\sinh(a+b+c+d+f+g+h+k)",
              "\\cosh(a+b+c+d+f+g+h+k+m+n)", "\\tanh(a+b+c+d+f+g+h)"]
CLOSED_FORMS_AT_BOUND = ["\\sum_{k=1}^{n} k^{9} x^{k}", "\\sum_{k=1}^{n} k^{8} x^{k}", "\\sum_{k=1}^{n} k^{7} x^{k}",
                         "\\sum_{k=1}^{n} k^{6} x^{k}", "\\int x^{5} e^{x} \\sin(x) dx", "\\int x^{6} e^{x} \\sin(x) dx",
                         "\\int x^{4} e^{x}\\sin(x)\\cos(x) dx", "\\int x^{9} e^{x} dx"]


LIMITS = ["\\lim_{x \\to 0} \\frac{\\tan(\\tan(\\tan x)) - \\sin(\\sin(\\sin x))}{x^{9}}"]


def _refused(latex: str) -> bool:
    """Whether the answer is refused before comparing (`parsing.parse_prediction`)."""
    from verifier.math.parsing import parse_prediction

    return isinstance(parse_prediction(latex), str)


@pytest.mark.timeout(30)
@pytest.mark.parametrize("latex", TRIG_WITHIN_COUNT)
def test_a_trig_function_of_a_sum_the_count_allows_is_refused(latex: str) -> None:
    """2.9 s to more than 30 s each (item 9a): `_terms` counts the cosine of 7 terms 128 and the tangent of 5 terms 160,
    under 200, but `simplify` spends seconds per term on trig expansions (a polynomial's 200 terms take 1 s)."""
    assert _refused(latex)


@pytest.mark.timeout(30)
@pytest.mark.parametrize("latex", HYPERBOLIC)
def test_a_hyperbolic_function_of_a_sum_is_refused(latex: str) -> None:
    """17.8 s to more than 30 s (item 9b): `_TRIG` lists no hyperbolic function, so `\\sinh` of a sum is one term."""
    assert _refused(latex)


@pytest.mark.timeout(30)
@pytest.mark.parametrize("latex", CLOSED_FORMS_AT_BOUND)
def test_a_closed_form_at_the_bound_is_refused(latex: str) -> None:
    """2.5 s to more than 30 s (item 9c): `_closed_form`'s (d+1)^2 2^f is 200 for `k^{9} x^{k}` and 196 for
    `x^{6} e^{x} \\sin x`, within the bound, yet each closed form costs seconds."""
    assert _refused(latex)


@pytest.mark.timeout(30)
@pytest.mark.parametrize("latex", LIMITS)
def test_a_limit_of_a_deep_series_is_refused(latex: str) -> None:
    """5.7 s (item 9d): a limit is one term to `_terms`; gruntz expands each nested function to the 9th order."""
    assert _refused(latex)


@pytest.mark.parametrize("latex", ["\\sin(a)\\sin(b)\\sin(c)\\sin(d)\\sin(f)\\sin(g)\\sin(h)\\sin(k)",
                                   "\\max(a+b,c+d,f+g,h+k,m+n,p+q,r+s)", "\\cos(a+b+c+d)", "\\sinh(a+b+c)",
                                   "\\int \\sin^{20}(x)\\cos^{20}(x) dx", "\\int \\frac{1}{x^{13}+1} dx",
                                   "\\sum_{k=1}^{n} k^{3} x^{k}", "\\int x e^{x} \\sin(x) dx", "\\int x^{3} e^{x} dx",
                                   "\\lim_{x \\to 0} \\frac{\\tan(\\tan(\\tan(x))) - \\sin(\\sin(\\sin(x)))}{x^{7}}"])
def test_an_answer_that_grades_fast_is_still_read(latex: str) -> None:
    """The bound's other side: under 2 s each under load (item 9, held)."""
    assert not _refused(latex)


@pytest.mark.parametrize("latex", ["(a+b)^{199}+\\sin(c)", "\\cot(a+b+c+d+f)", "\\cos(a+b+c+d+f)", "\\cosh(a+b+c+d+f)",
                                   "\\tan(a+b+c+d)", "\\cosh(a+b+c+d)"])
def test_a_sum_past_the_count_stays_refused(latex: str) -> None:
    """Past `MAX_EXPANDED_TERMS`, a function of more than `guards.MAX_ANGLE_TERMS` terms (1.6-1.9 s under load, item 9's
    held cases, refused since fx29t: five terms is past the point sampler's reach), or past `guards.MAX_ANGLE_WEIGHT`
    (a ratio or hyperbolic function of four terms, weight 8: `\\tan` 0.75-1.15 s, `\\tanh(a+b+c+d)+f` 3.7 s at load 1.5,
    once the sampler does not disprove it)."""
    assert _refused(latex)


# Held: near misses main refuses (must stay refused).
REFUSED = (VALUE_BESIDE_MATH_REFUSED + COMPOUND_NAME_REFUSED + UNSEEN_RELATION_REFUSED + BOTH_UNREAD_REFUSED
           + UNTAGGED_VERB_REFUSED + SPAN_ENDED_REFUSED + OWN_COUNT_REFUSED
           + [n("The natural number $n$ such that $n < 1$ is \\boxed{6}."), n(f"{V} $x = 7$ is \\boxed{{6}}.")])


@pytest.mark.parametrize(PARAMS, REFUSED)
def test_a_near_miss_main_refuses_stays_refused(completion: str, gold: str, choices: list[str] | None) -> None:
    assert "correct" not in verdicts(completion, gold, choices)


# Rewrites near the classes that must keep paying.
SAME = [n("The length of $AB$ is \\boxed{6}."), n("The value of $xy$ is \\boxed{6}."),
        n(f"{V} $x \\geq 1$ is \\boxed{{6}}."),
        n("The number of boxes that hold 7 apples is \\boxed{6}."), n(f"{A} that has 7 apples is \\boxed{{6}}."),
        n("The sum of the first 10 terms is \\boxed{6}."), n("The number of multiples of 7 is \\boxed{6}.")]
# Refused by rule since fx29r (moved from SAME, each with the rule's reason; recall costs, never paid).
SAME_REFUSED_BY_RULE = [
    # several unknowns: only one linear equation varying with another letter is read as leaving the own unknown free
    n("The length of $AB$ such that $AB > CD$ is \\boxed{6}."),
    n(f"{V} $x - 7 = 0$ is \\boxed{{6}}."),  # an equation fixing the unknown, refused even when it agrees
    n("The number of integers between 1 and 100 is \\boxed{6}."),  # a range of integers alone: its size is a count
    # an aggregate head's condition on its unknown alone (fx29y, red team 16 class 3): the box is no value of n
    n("The number of integers $n$ such that $1 < n < 8$ is \\boxed{6}."),
]


@pytest.mark.parametrize(PARAMS, SAME_REFUSED_BY_RULE)
def test_a_rewrite_the_rule_refuses_stays_refused(completion: str, gold: str, choices: list[str] | None) -> None:
    assert "correct" not in verdicts(completion, gold, choices)


@pytest.mark.parametrize(PARAMS, SAME)
def test_a_right_answer_near_a_class_still_pays(completion: str, gold: str, choices: list[str] | None) -> None:
    assert verdicts(completion, gold, choices) == ["correct", "correct"]

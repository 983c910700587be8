"""Red team of issue 29's answer grammar, fifteenth pass (rt29q): wrong answers the grader pays, answers it cannot grade,
and answers that hold a grading worker for seconds, after fx29u (one subject reader, a smaller
`grammar.SUBJECT_VALUE_PLACES`, `grammar._names_stand_alone`) and fx29v (a condition on the own unknown holds at the
box's value, `conditions._holds`; the reader's work bounded, `conditions.MAX_DIGITS`, `MAX_EXPANDED_TERMS`). Graded by
the real grader (`grade_math` through `tests.helpers.math_verdicts`) in both profiles; every `*_NEAR` case below paid
`correct` in both profiles (box and concluding paths alike), and each is a strict xfail asserting the safe verdict until
its class is closed; plain tests hold what held. Gold 6 unless a case says otherwise. About 330 candidates tried, by
class (one grading process at a time, load average 2-4 beside a CI run).

Ranked by how bad (a natural wording, how far the stated value is from the box's, how many variants):

1. The box's value is read twice, differently (`grammar._BOX_VALUE` hands the box's text to `conditions.read_side`,
   whose `_Reader` drops `\\,`/`\\ ` as spacing and multiplies juxtaposed parts, while the comparer reads the value
   math-verify's way): `The value of $x$ such that $x < 7$ is \\boxed{1\\,000}.` (gold 1000; the condition is checked at
   1·000 = 0), `\\boxed{1\\ 000}`, `\\boxed{7\\,000}`, `\\boxed{1\\,000\\,000}`, `such that $x \\ne 1000$ ...
   \\boxed{1\\,000}`, `$x^{2} = 0$`, `$x = 0$ ... \\boxed{6\\,000}`, `The smallest integer $n$ such that $n^{2} < 5$ ...`,
   `The integer $n$ such that $n \\equiv 0 \\pmod{7}$ ...`, a mixed number `\\boxed{2\\frac{1}{2}}` (gold 5/2; read 2·½ =
   1, so `such that $x < 2$` holds), `\\boxed{1\\frac{1}{2}}`, `\\boxed{3\\tfrac{1}{2}}`, `\\boxed{2\\dfrac{1}{2}}`, and
   the concluding sentence `So, the value of $x$ such that $x < 7$ is $1\\,000$.` (22 cases). Held: `1\\;000`,
   `1\\!000`, `1\\:000`, `1\\quad000`, `1{,}000`, `1,000`, `12\\,345`, `2 3` (refused or not read as the gold).
   Suggested fix: one reading of the value: hand the conditions the value the comparer compares (the parsed answer,
   `parsing.parse_prediction`'s sympy value, when it is a number), or refuse any box value whose `_Reader` value is
   not exactly that parsed value; never re-read the box's text with another arithmetic.
2. A function's or sequence's definition in the condition fixes the subject's own function value (`_Reader.name`
   makes `f(6)` and `f(x)` two unrelated symbols, so the relation "shares no letter" with the unknown): `The value of
   $f(6)$ such that $f(x) = x + 1$ is \\boxed{6}.` (7), `$f(x) = 7$`, `$f(y) = y + 1$`, `$f(t) = t + 1$`, `$f(x) - x =
   1$`, `$f(1)$ ... $f(x) = 7x$`, `$g(1)$ ... $g(x) = 7x$`, `$g(2)$ ... $g(x) = x^{2} + 3$`, `$q(3)$`, `$h(6)$`,
   `$F(6)$`, `$f(x)$ ... $f(y) = 7$`, a sequence `$a_5$ ... $a_n = 7$`, `$a_{5}$ ... $a_{n} = 2n$`, `$x_5$ ... $x_n =
   7$`, `So, the value of $f(6)$ such that $f(x) = x + 1$ is 6.` (22 cases). Held: the same with `where`/`for which`
   (refused), `$f(6)$ such that $f(6) = 7$`, `$f(3 + 3) = 7$`, `$f(12/2) = 7$`. Suggested fix: a function letter or
   an indexed letter is one unknown family: a relation on `f(t)` (or `a_n`) with the subject's own `f(6)` (`a_5`)
   is instantiated at the own argument (t := 6, n := 5) and then must hold at the box's value as any relation on
   the own unknown; one it cannot instantiate (two letters in the argument, a non-linear argument) refuses.
3. An optimum head whose condition's optimum is another value, or a head kind the box's value does not meet
   (`conditions._holds` asks only whether the box's value satisfies the condition, never whether it is the least or
   greatest that does; `INTEGER_KINDS` has no `prime`): `The smallest integer $n$ such that $n > 1$ is \\boxed{6}.`
   (2), `The smallest positive integer $n$ such that $n^{2} > 2$` (2), `The largest integer $n$ such that $n < 100$`
   (99), `The least integer $n$ such that $n \\ge 0$`, `The greatest integer $n$ such that $n^{2} < 1000$` (31), `...
   $n \\equiv 1 \\pmod{5}$ and $n > 0$` (1), `The minimum value of $x$ such that $x \\ge 1$`, `The maximum value of $x$
   such that $x \\le 100$`, `The smallest value of $n$ ...`, `The smallest $n$ ...`, `The largest integer $n$ such that
   $n \\le 6.5$`, `So, the smallest integer $n$ such that $n > 1$ is 6.`, `So, the prime $p$ such that $p > 2$ is 6.`; the kind: `The prime $p$ such that $p > 2$ is
   \\boxed{6}.`, `The prime number $p$ such that $p < 10$`, `The smallest prime $p$ such that $p > 2$`, `The largest
   prime $p$ such that $p < 10$` (21 cases). Held: `The odd integer $n$`, `The even integer ...` against 7, `The
   perfect square $n$`, `The composite number $n$` (refused, heads the grammar does not read). Suggested fix: an
   optimum head (`smallest`, `least`, `largest`, `greatest`, `minimum`, `maximum`) on an integer unknown admits its
   condition only when the box's value is the optimum: it holds at the value and fails at every integer past it on the
   optimum's side (decided by `sympy.solveset` on the bounded univariate polynomials fx29r read, or by the neighbour
   and the set's boundary); on a real unknown, or any condition not decided so, refuse. A kind word admitted in a
   head is a fact the value must meet (`prime`: `sympy.isprime`), else the head is refused.
4. Both profiles: an operation noun before a name in the object (`grammar._names_stand_alone` admits any word of two
   letters or more before a name; LEXICON's nouns pass the object's word check): `The value of square $x$ is
   \\boxed{6}.` (x^2 = 6), `cube $x$`, `root $x$`, `floor $x$`, `the square $x$`, `the cube $x$`, `the floor $x$`, `the
   root $x$`, `square root $x$`, `cube root $x$`, `the square root $x$`, `integer part $x$`, `sum $x$`, `product $x$`,
   `The length of square $AB$`, `The value of cube $f(x)$`, `So, the value of square $x$ is 6.` (22 cases). Held:
   `minus`, `negative`, `twice`, `half`, `double`, `reciprocal`, `opposite`, `inverse`, `ceiling`, `factorial`,
   `abs`, `log`, `sin`, `pi`, number words in five languages (`ten`, `zehn`, `dix`, `diez`, `mille`), `kilo`, `dozen`,
   `half of $x$` (refused, words outside the object vocabulary). Suggested fix (an allowlist of roles, not words): a
   name stands right after a determiner, a preposition, a listed adjective or the subject's head noun, never after
   a noun inside the object (a noun right before a name is an operator on it, as `OPERATION_WORDS` once listed).
5. The grader's own failure (RED-TEAM class 8): a condition with the unknown inside a function beside another letter
   makes `_frees_linear`'s `sympy.Poly` raise `PolynomialError`, which `condition_fixes` does not catch, and the
   verdict is `error` ("internal error: PolynomialError: sin(x) contains an element of the set of generators"), for
   a right answer and a wrong one alike: `The value of $x$ such that $x + \\sin(x) = y$ is \\boxed{6}.`, `$x \\sin(x) =
   y$`, `$x + \\exp(x) = y$`, `$x + \\sqrt{x} = y$`, `$x + \\ln(x) = y$`, `$x + 2^{x} = y$`, `... is \\boxed{7}`, `So, ...
   is 6.`, `The number of apples such that $n + \\sin(n) = y$` (9 cases). Not paid, but an answer the policy can make
   ungradable (a trainer that drops or retries `error` rows never scores it). Suggested fix: the numerator must be a
   polynomial in the unknown before `Poly` (`numerator.is_polynomial(target)`, else unread); and `condition_fixes`
   refuses on any exception sympy raises (an unread condition), never lets one reach the grader.
6. Grading time past the guards (strict, each in its own process, warm, load 3-4): an answer of two 11-deep function
   chains (`\\sin(\\sin(...x))+\\tan(\\tan(...y))`, 22 functions, under `max_functions` 24 and `max_nesting` 12) 2.3 s;
   a gold of four such chains against `\\boxed{1}` 2.1 s, of eight more than 40 s (the gold is bounded by nesting only;
   `complexity_guard` reads answers alone). Suggested fix: bound the functions' total nesting (the sum over chains, or
   functions times depth) for answer and gold alike, measured as the other bounds are; a gold past it compared as
   written only (fx29r's gold rule).

Nothing paid in these classes (held, both profiles):
- a second letter pinned in another clause or condition (`such that $x = y + 1$, where $y = 6$,`, `for`, `with`,
  `when`, `given`, `and`, `for which`, `such that`, `, $y = 6$`: all refused, 20 cases);
- the condition reader's work (22 conditions: towers, `\\tan`/`\\exp`/`\\ln` nests of 10^{300} and 10^{-300}, radicals to
  the 64th, a 12-deep `\\tan` of a letter, an eighth power of a sum of roots; each under 1 s, refused or consistent);
- Unicode and spellings in conditions (Arabic-Indic, Devanagari and superscript digits, `\\gneq`, `\\succ`, `\\not=`,
  `\\nless`, `\\lnot`, `\\notin`, `\\mathbb{Z}^{-}`, `or` between relations: refused); conditions that hold at 6 pay and
  state no other value (`x \\equiv 1 \\pmod{5}`, `12 \\nmid x`, `\\sin(\\pi x) = 0`, `x \\in \\mathbb{Q}`, `x \\le 6 \\le x`);
- the gold side of expansions (`(\\sqrt{2}+...+\\sqrt{7})^{64}`, `\\frac{x^{200}-1}{x-1}`, `(a+b)^{8}(c+d)^{8}`, `\\sec(a+b+c)
  +\\csc(d+f+g)`, `\\arctan` of 8 terms, `\\Gamma(x+y+z+w)`, a floor of 8 terms to the 20th: each under 1 s).

Noted, not counted (design calls): `The value of $x^{*}$` (red team 14's open call); `The value of $2^{3}$ is
\\boxed{6}` (a whole `of` object that is a closed number: red team 13's design call).

Recall gaps (refused, never paid): `\\boxed{1{,}000}`, `\\boxed{1,000}` and `\\boxed{12\\,345}` after a condition (the
gold 1000/12345 is refused, `no_answer`); `\\boxed{6.}`.
"""

from __future__ import annotations

import pytest

from tests.helpers import math_verdicts as verdicts
from tests.helpers import number_case as n
from tests.helpers import paid_test, refused_test

OPEN = "open: {} (rt29q)"
V = "The value of $x$ such that"


def _open(what: str) -> list:
    return [pytest.mark.xfail(strict=True, reason=OPEN.format(what))]


# 1. The box's value read twice, differently: the condition reader's arithmetic is not the comparer's.
TWO_READINGS_NEAR = [
    n(f"{V} $x < 7$ is \\boxed{{1\\,000}}.", "1000"), n("So, the value of $x$ such that $x < 7$ is $1\\,000$.", "1000"),
    n(f"{V} $x < 7$ is \\boxed{{1\\ 000}}.", "1000"), n("So, the value of $x$ such that $x < 7$ is $1\\ 000$.", "1000"),
    n(f"{V} $x < 7$ is \\boxed{{7\\,000}}.", "7000"), n(f"{V} $x < 7$ is \\boxed{{1\\,000\\,000}}.", "1000000"),
    n(f"{V} $x \\ne 1000$ is \\boxed{{1\\,000}}.", "1000"),
    n("Therefore, the value of $x$ such that $x \\ne 1000$ is \\boxed{1\\,000}.", "1000"),
    n(f"{V} $x^{{2}} = 0$ is \\boxed{{1\\,000}}.", "1000"), n(f"{V} $x = 0$ is \\boxed{{6\\,000}}.", "6000"),
    n("The smallest integer $n$ such that $n^{2} < 5$ is \\boxed{1\\,000}.", "1000"),
    n("The integer $n$ such that $n \\equiv 0 \\pmod{7}$ is \\boxed{1\\,000}.", "1000"),
    n(f"{V} $x < 2$ is \\boxed{{2\\dfrac{{1}}{{2}}}}.", "5/2"),
]
# fx29w: these four were listed above, but the condition holds at the value compared (5/2 < 7, 3/2 < 2, 7/2 < 7): right
# answers by the rule, refused all the same (a mixed number is no plain value, `conditions.box_number`: a recall cost).
TWO_READINGS_HOLDING = [
    n(f"{V} $x < 7$ is \\boxed{{2\\frac{{1}}{{2}}}}.", "5/2"), n(f"{V} $x < 2$ is \\boxed{{1\\frac{{1}}{{2}}}}.", "3/2"),
    n(f"{V} $x < 7$ is \\boxed{{3\\tfrac{{1}}{{2}}}}.", "7/2"), n("So, the value of $x$ such that $x < 7$ is $2\\frac{1}{2}$.", "5/2"),
]
TWO_READINGS_REFUSED = [
    n(f"{V} $x < 7$ is \\boxed{{1\\;000}}.", "1000"), n(f"{V} $x < 7$ is \\boxed{{1\\!000}}.", "1000"),
    n(f"{V} $x < 7$ is \\boxed{{1\\:000}}.", "1000"), n(f"{V} $x < 7$ is \\boxed{{1\\quad000}}.", "1000"),
    n(f"{V} $x < 7$ is \\boxed{{1{{,}}000}}.", "1000"), n(f"{V} $x < 7$ is \\boxed{{2 3}}.", "23"),
    n(f"{V} $x > 7$ is \\boxed{{1\\frac{{1}}{{2}}}}.", "3/2"),
]
test_a_box_value_read_as_the_comparer_reads_it = refused_test(
    TWO_READINGS_NEAR, """Paid in both profiles: the condition is checked at `conditions._Reader`'s reading of the box's
    text (`1\\,000` is 1·000 = 0, `2\\frac{1}{2}` is 2·½ = 1), while the comparer pays math-verify's (1000, 5/2), which
    the condition excludes. Closed by fx29w: the condition is checked only at a value in a plain form the comparer
    reads alike (`conditions.box_number`), any other refuses.""")
test_a_box_value_the_comparer_refuses_stays_refused = refused_test(TWO_READINGS_REFUSED)
test_a_mixed_number_refuses_its_condition = refused_test(TWO_READINGS_HOLDING)


# 2. A function's or sequence's definition in the condition fixes the subject's own value.
DEFINITION_NEAR = [n(f"{c} is \\boxed{{6}}.") for c in [
    "The value of $f(6)$ such that $f(x) = x + 1$", "The value of $f(6)$ such that $f(x) = 7$",
    "The value of $f(6)$ such that $f(y) = y + 1$", "The value of $f(6)$ such that $f(t) = t + 1$",
    "The value of $f(6)$ such that $f(x) - x = 1$", "The value of $f(1)$ such that $f(x) = 7x$",
    "The value of $g(1)$ such that $g(x) = 7x$", "The value of $g(2)$ such that $g(x) = x^{2} + 3$",
    "The value of $f(2)$ such that $f(y) = 7$", "The value of $q(3)$ such that $q(x) = 7$",
    "The value of $h(6)$ such that $h(x) = 7$", "The value of $F(6)$ such that $F(x) = 7$",
    "The value of $f(x)$ such that $f(y) = 7$", "The value of $a_5$ such that $a_n = 7$",
    "The value of $a_{5}$ such that $a_{n} = 2n$", "The value of $a_5$ such that $a_n = n + 2$",
    "The value of $x_5$ such that $x_n = 7$",
]] + [n("So, the value of $f(6)$ such that $f(x) = x + 1$ is 6."), n("So, the value of $a_5$ such that $a_n = 7$ is 6.")]
DEFINITION_REFUSED = [n(f"{c} is \\boxed{{6}}.") for c in [
    "The value of $f(6)$ where $f(x) = x + 1$", "The value of $f(6)$ for which $f(x) = 7$",
    "The value of $f(6)$ such that $f(6) = 7$", "The value of $f(6)$ such that $f(3 + 3) = 7$",
    "The value of $f(6)$ such that $f(12/2) = 7$", "The value of $f(6)$ such that $f(x) = x + 1$ for all $x$",
]]
test_a_definition_of_the_subjects_function_never_pays = refused_test(
    DEFINITION_NEAR, """Paid in both profiles: `_Reader.name` names `f(6)` and `f(x)` (`a_5`, `a_n`) as unrelated
    symbols, so a definition of the function fixes the own value while `condition_fixes` sees no shared letter. Closed
    by fx29w: a condition mentioning the family of the subject's own function value or indexed term refuses
    (`conditions._defines_family`).""")
test_a_definition_the_grammar_refuses_stays_refused = refused_test(DEFINITION_REFUSED)


# 3. An optimum head whose condition's optimum is another value, or a kind the value does not meet.
OPTIMUM_NEAR = [n(f"{c} is \\boxed{{6}}.") for c in [
    "The smallest integer $n$ such that $n > 1$", "The smallest positive integer $n$ such that $n^{2} > 2$",
    "The largest integer $n$ such that $n < 100$", "The least integer $n$ such that $n \\ge 0$",
    "The greatest integer $n$ such that $n^{2} < 1000$",
    "The smallest integer $n$ such that $n \\equiv 1 \\pmod{5}$ and $n > 0$",
    "The minimum value of $x$ such that $x \\ge 1$", "The maximum value of $x$ such that $x \\le 100$",
    "The smallest value of $n$ such that $n > 1$", "The smallest $n$ such that $n > 1$", "The least $n$ such that $n \\ge 2$",
    "The smallest positive integer $n$ such that $n > 0$", "The least positive integer $n$ such that $n^{2} > 10$",
    "The prime $p$ such that $p > 2$",
    "The prime number $p$ such that $p < 10$", "The smallest prime $p$ such that $p > 2$",
    "The largest prime $p$ such that $p < 10$",
]] + [n("So, the smallest integer $n$ such that $n > 1$ is 6."), n("So, the prime $p$ such that $p > 2$ is 6.")]
OPTIMUM_REFUSED = [n(f"{c} is \\boxed{{6}}.") for c in [
    "The odd integer $n$ such that $n > 0$", "The perfect square $n$ such that $n > 0$",
    "The composite number $n$ such that $n > 0$", "The smallest integer $n$ such that $n > 6$",
]]
test_an_optimum_or_kind_the_box_value_is_not_never_pays = refused_test(
    OPTIMUM_NEAR, """Paid in both profiles: `conditions._holds` asks whether the box's value satisfies the condition,
    never whether it is the least (greatest) value that does (`smallest integer n such that n > 1` is 2), and
    `INTEGER_KINDS` holds no `prime` (6 is none). Closed by fx29w: an optimum word before a condition on the own
    unknown refuses (`conditions.OPTIMUM_WORDS`), a prime head is checked (`INTEGER_KINDS["prime"]`).""")
test_an_optimum_the_condition_excludes_stays_refused = refused_test(OPTIMUM_REFUSED)
# fx29w: listed above, but 6 is the largest integer at most 6.5, a right answer, paid once the optimum is decided.
test_an_optimum_the_box_value_is_pays = paid_test([n("The largest integer $n$ such that $n \\le 6.5$ is \\boxed{6}.")])


# 4. An operation noun before a name in the object.
NOUN_BEFORE_NAME_NEAR = [n(f"The value of {w} $x$ is \\boxed{{6}}.") for w in [
    "square", "cube", "root", "floor", "the square", "the cube", "the floor", "the root", "square root", "cube root",
    "the square root", "integer part", "sum", "product",
]] + [n("The length of square $AB$ is \\boxed{6}."), n("The value of cube $f(x)$ is \\boxed{6}."),
      n("So, the value of square $x$ is 6.")]
NOUN_BEFORE_NAME_REFUSED = [n(f"The value of {w} $x$ is \\boxed{{6}}.") for w in [
    "minus", "negative", "twice", "half", "double", "reciprocal", "the opposite", "inverse", "ceiling", "factorial",
    "abs", "log", "sin", "pi", "ten", "zehn", "dix", "diez", "mille", "kilo", "dozen", "half of",
]] + [n("So, the value of twice $x$ is 6."), n("The value of negative $x$ is 6.")]
test_an_operation_noun_before_a_name_never_pays = refused_test(
    NOUN_BEFORE_NAME_NEAR, """Paid in both profiles: `grammar._names_stand_alone` admits any word of two letters or
    more right before a name, and LEXICON's nouns `square`, `cube`, `root`, `floor`, `sum` pass the object's words, so
    the subject names an operation on the name (x^2, the cube root of x). Closed by fx29w: inside an object a name
    stands after a determiner, a preposition, an adjective, `and`, or a labelled object's noun before its label
    (`grammar._before_object_name`, `_LABELLED_BY`).""")
test_a_word_before_a_name_outside_the_object_stays_refused = refused_test(NOUN_BEFORE_NAME_REFUSED)


# 5. The grader's own failure: `sympy.Poly` raises on the unknown inside a function beside another letter.
POLY_ERRORS = [
    n(f"{V} $x + \\sin(x) = y$ is \\boxed{{6}}."), n(f"{V} $x \\sin(x) = y$ is \\boxed{{6}}."),
    n(f"{V} $x + \\exp(x) = y$ is \\boxed{{6}}."), n(f"{V} $x + \\sqrt{{x}} = y$ is \\boxed{{6}}."),
    n(f"{V} $x + \\ln(x) = y$ is \\boxed{{6}}."), n(f"{V} $x + 2^{{x}} = y$ is \\boxed{{6}}."),
    n(f"{V} $x + \\tan(x) = y$ is \\boxed{{7}}."), n("So, the value of $x$ such that $x + \\sin(x) = y$ is 6."),
    n("The number of apples such that $n + \\sin(n) = y$ is \\boxed{6}."),
]


@pytest.mark.parametrize(("completion", "gold", "choices"), POLY_ERRORS)
def test_a_condition_sympy_cannot_read_is_refused_never_an_error(completion: str, gold: str, choices: None) -> None:
    """`error` ("internal error: PolynomialError") in both profiles: `_frees_linear` hands `sympy.Poly` a numerator
    with the unknown inside a function, and `condition_fixes` catches no `PolynomialError`. The safe verdict: the
    condition unread, the answer refused (`no_answer` or `incorrect`), never the grader's error. Closed by fx29w
    (`_frees_linear` reads only a numerator polynomial in the unknown; `condition_fixes` refuses on any exception)."""
    got = verdicts(completion, gold)
    assert "error" not in got and "correct" not in got, got


# 6. Grading time: function chains under `max_functions` and `max_nesting`, answer and gold.
def _chain(function: str, depth: int, letter: str) -> str:
    text = letter
    for _ in range(depth):
        text = f"\\{function}({text})"
    return text


CHAINS = [
    (f"\\boxed{{{_chain('sin', 11, 'x')}+{_chain('tan', 11, 'y')}}}", f"{_chain('cos', 11, 'x')}+{_chain('tan', 11, 'y')}"),
    ("\\boxed{1}", "+".join(_chain(f, 11, v) for f, v in zip(("sin", "cos", "tan", "sin"), "xyzw", strict=True))),
]


@pytest.mark.timeout(60)
@pytest.mark.parametrize(("completion", "gold"), CHAINS, ids=["answer-2x11", "gold-4x11"])
def test_function_chains_are_refused_before_comparing(completion: str, gold: str) -> None:
    """2.1-2.3 s each (strict, warm, own process; a gold of eight chains over 40 s): 22 functions pass
    `complexity_guard`'s `max_functions` (24), and a gold has no function bound at all. The safe behaviour is a refusal
    by a cost bound before parsing and comparing (the detail names it: `too complex`/`too costly`). Closed by fx29x
    (`guards.function_guard`, answers and golds: `MAX_FUNCTION_DEPTH`, `MAX_FUNCTION_WORK`; a gold past them is compared
    as written only; near misses and rewrites in tests/test_math_cost_bounds.py)."""
    from verifier.math import grade_math

    result = grade_math({"completion": completion, "gold": gold, "profile": "strict"})
    assert result["verdict"] != "correct" and "too co" in result["detail"]


# Held: a second letter pinned in another clause or condition.
PINNED_ELSEWHERE = [n(f"The value of $x$ such that $x = y + 1${t} is \\boxed{{6}}.") for t in [
    ", where $y = 6$,", " where $y = 6$", ", for $y = 6$,", " with $y = 6$", ", when $y = 6$,", " given $y = 6$",
    " and $y = 6$", ", and where $y = 6$,", " for which $y = 6$", " such that $y = 6$", ", $y = 6$",
]]
test_a_letter_pinned_in_another_clause_stays_refused = refused_test(PINNED_ELSEWHERE)


@pytest.mark.parametrize("completion", [
    f"{V} $x \\equiv 1 \\pmod{{5}}$ is \\boxed{{6}}.", f"{V} $12 \\nmid x$ is \\boxed{{6}}.",
    f"{V} $\\sin(\\pi x) = 0$ is \\boxed{{6}}.", f"{V} $x^{{8}} < (\\sqrt{{2}}+\\sqrt{{3}})^{{64}}$ is \\boxed{{6}}.",
    f"{V} $x = \\tan(\\tan(\\tan(\\tan(\\tan(\\tan(\\tan(\\tan(\\tan(\\tan(\\tan(\\tan(y))))))))))))$ is \\boxed{{6}}.",
])
def test_a_condition_holding_at_the_box_still_pays(completion: str) -> None:
    """Held: a condition the box's value meets, read in under 1 s (a twelve-deep tangent of another letter)."""
    assert verdicts(completion, "6") == ["correct", "correct"]

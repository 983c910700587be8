"""Red team of issue 29's answer grammar, tenth pass (rt29l): wrong answers the grader pays, and answers that hold a
grading worker for seconds, after fx29m (Yes/No reasons read by a closed vocabulary, `grammar.restating_word`;
grading-time bounds, `guards.matrix_guard`, `guards._series_digits`) and fx29k (`grammar.approximation_agrees`, "a
relative clause never states a value", `square`/`cube of` as operations). Graded by the real grader (`grade_math`
through `tests.helpers.math_verdicts`) in both profiles (docs/math.md "Answer grammar"), and class 1 through a real
server on loopback (HTTP and gRPC). Each `*_NEAR` case asserts the safe behaviour and is a strict xfail until its class
is closed; plain tests hold what held. Gold 6 unless a case says otherwise.

1. A Yes/No reason's noun phrase admits nouns that hedge or retract (`grammar.restating_word` admits every noun,
   counted noun, adjective and determiner of LEXICON through `OBJECT_ROLES`, so `possibility`, `probability`,
   `problem`, `question`, `lies` are restating words; `compare._restates` then matches `there is {_NP}`): against a
   bare Yes or No gold, `\\boxed{\\text{Yes, there is a possibility.}}`, `... some probability.`, `... a problem.`,
   `... a question.`, `... are lies.`, `... a positive probability.`, `Yes, such a possibility exists.`, `\\boxed{\\text{No,
   there is a possibility.}}` against No, `\\boxed{\\text{Yes}} \\text{, there is a possibility}` (a `\\text` after the
   box is read as the reason), `Final Answer: Yes, there is a possibility.`, `The answer is Yes, there is a problem.`,
   `So, the answer is yes, there is a possibility.` pay (12 cases below; through the real server too). Not this class
   (known and accepted: the opening word decides, the reason's polarity may read the other way): `Yes, there are no
   solutions`, `Yes, there is no way`, `Yes, it is impossible`, `No, such n exists`. Held: `Yes, there is a catch.`,
   `... a small probability.`, `... an error.`, `... a mistake.`, `... doubt.`, `... an exception.`, `... a
   contradiction.`, `... the opposite.`, `Yes, because $n=6$ fails.`, `Yes, there is an answer that is no.`, `Yes,
   there are 2 answers: yes and no.`, `\\boxed{\\text{Yes}} \\text{, probably}`.
2. A relative clause states a value with a word between its copula and the value, or with a verb that is no copula
   (`grammar._clause_states_value` is a deny rule inside the allowlisted clause: a number right after one of
   `_CLAUSE_COPULAS`; `has`, `holds`, `can have` are clause words, and `(`, `'`, `and`, `the value` may stand between):
   `The number of apples that is (7) is \\boxed{6}.`, `... that is '7' ...`, `... that is and 7 ...`, `... that is the
   value 7 ...`, `... that has the value 7 ...`, `... that has a value of 7 ...`, `... that has the answer 7 ...`,
   `... which has 6000 as its value ...`, `... that holds the value 7 ...`, `So, the number of apples that has the
   value 7 is 6.` pay 6 (10 cases). Held: `that is exactly 7`, `that is also 7`, `that is, 7,`, `that is 7,000`, `which
   equals 7`, `whose value is 7`, `that can be 7`, `that were 7`, `which is 7,` (commas), `being 7`. Left alone (a
   question's own wording, ambiguous): `that holds 7`, `which has 7`, `that wins 7`, `that satisfies $x = 7$`.
3. Operation words beside `square`/`cube` name another quantity than the unknown (`OBJECT_WORDS` and LEXICON's nouns
   hold `root`, `cubic`, `quadratic`, `multiple`, `part`; the fx29k rule names `square`/`cube of` only): `The value of
   the square root of $x$ is \\boxed{6}.`, `... the cube root of $x$ ...`, `... the root of $x$ ...`, `... the cubic
   root of $x$ ...`, `... the cubic of $x$ ...`, `... the multiple of $x$ ...`, `... the integer part of $x$ ...`,
   `So, the value of the square root of $x$ is 6.` pay 6 (8 cases). Held: `the square root of the answer`, `the
   fractional part of $x$`, `the double root of $x$`, `the triple`, `the double`, `the negative`, `the reciprocal`,
   `the factorial`, `the log`, `the power`, `the derivative`, `the integral of $x$`, `$x$ squared`, `$x$ cubed`,
   `$\\sqrt{x}$`, `$x^2$`; `The square root of $x$ is \\boxed{6}.` (head), `Final Answer: the value of the square root
   of $x$ is 6.`.
4. Grading time: a polynomial in more than four symbols, or with an applied function, is compared by math-verify's
   unbounded `simplify` (`compare.differs_at_a_point` samples at most `len(_SAMPLES[0])` = 4 symbols and no
   `AppliedUndef`, so its disproof is skipped; `guards.complexity_guard` counts operators and functions, not the
   expansion a power implies; `MAX_SERIES_DEGREE` bounds series only). One `grade_math` (strict, warm process,
   under load from two other jobs) against gold 6: `\\boxed{(a+b+c+d+e+f)^{10}}` 6.1 s, `\\boxed{(a+b+c+d+e+f)^{20}}`
   more than 30 s (killed; also against golds `2` and `a+b+c+d+e+f`), `\\boxed{(\\alpha+\\beta+\\gamma+\\delta+
   \\epsilon+\\zeta)^{8}}` 6.2 s, `\\boxed{(a+b+c+d+e+f+g+h+i+j)^{5}}` 3.2 s, `\\boxed{(f(x)+x+y+1)^{20}}` 3.1 s,
   `\\boxed{(a+b+c+d+f)^{10}}` 2.1 s, `\\boxed{(a+b+c+d+e+f)^{8}}` against `(a+b+c+d+e+f)^{2}` 3.3 s (`e` is Euler's
   number: 5 letters with it are 4 symbols). Each is 20-40 characters, 5-10 operators. The tests below assert the
   guard's decision (`complexity_guard` refuses), never a time: a fix elsewhere (a bounded comparison) moves them.
   Two more ways past the bounds fx29m named: (a) a matrix inverse or power whose brackets are no `\\right` (`{M}^{-1}`,
   `(M)^{-1}` with plain parentheses): `guards._MATRIX_RE` sees a power only right after `\\end{...}` or `\\right)`, so
   the matrix is not "computed on" and keeps `MAX_SYMBOLIC_CELLS` (36): `\\boxed{{\\begin{pmatrix} 5x5 letters
   \\end{pmatrix}}^{-1}}` and `\\boxed{(\\begin{matrix} 6x6 letters \\end{matrix})^{-1}}` more than 30 s each (killed;
   `\\begin{pmatrix}...\\end{pmatrix}^{-1}` is refused in 0.1 s); (b) a rational integrand: `guards._elementary`
   admits any integer power, a negative one too, so sympy integrates `\\frac{1}{x^{8}+1}` by its complex roots:
   `\\boxed{\\int_0^1 \\frac{1}{x^{8}+1} dx}` 4.7-5.0 s, `\\boxed{\\int_0^2 \\frac{1}{x^{8}+x+1} dx}` 4.1 s (degree
   4 and 6: 0.6-0.7 s; degree 12 and 20: 0.2 s, sympy gives up early); (c) a series of binomials within the term and
   degree bounds: `guards._series_digits` bounds the count (<= 100) and the degree of the term's polynomial part, but
   sympy's `Sum.doit` first seeks a closed form (hypergeometric) for a `binomial(n, k)` term: `\\boxed{\\sum_{k=1}^{100}
   \\binom{100}{k}^{2}}` 9.8 s, `\\boxed{\\sum_{k=1}^{100} \\binom{100}{k}}` 5.1 s, `\\boxed{\\sum_{k=1}^{100} k
   \\binom{100}{k}}` 4.1 s, `\\boxed{\\sum_{k=1}^{50} \\binom{50}{k}^{2}}` 4.0 s, `\\boxed{\\sum_{k=1}^{100}
   \\binom{100}{k}^{20}}` more than 30 s (killed). Held: `\\sum_{k=1}^{100} \\frac{k!}{(2k)!}` 0.5 s, `\\prod_{k=1}^{100}
   \\binom{2k}{k}` 0.03 s, `\\sum_{k=1}^{100} \\sin(k)^{20}`, `k^{k}`, `\\frac{1}{k^2+1}` (also to `n`), a `\\lim` of
   nested `\\tan`/`\\sin` over `x^7`, `\\frac{d^{30}}{dx^{30}} \\tan(x)`, a triple integral of `(x+y+z)^{20}e^{x+y+z}`,
   all under 1 s.
   Under 0.5 s (held, each with gold 0, 1 or a near symbolic gold): `\\left| M \\right|` of a 3x3 symbolic matrix,
   `\\operatorname{rank}` of a 6x6 one, a 6x6 `\\begin{array}` determinant, `\\binom` chains (`\\binom{\\binom{\\binom{100}
   {50}}{2}}{3}`, `\\binom{10^9}{10^4}`, `\\binom{2000}{1000}^{1000}`), a continued fraction of 10 levels, `\\lim` of
   nested `\\sin` and of `(1+1/n)^{n^2}`, `\\frac{d^{20}}{dx^{20}} e^{x^2}\\sin x`, `\\frac{d}{dx} x^{x^{x^{x^x}}}`,
   `\\int_0^1 x^{1000} dx`, `\\int_0^1 (x^2+x+1)^{200} dx`, a double integral, `\\int x^{20} e^x \\sin x dx`,
   `\\prod_{k=1}^{n}` with symbolic bounds, `\\sum_{k=1}^{100} k^{20} x^k`, nested radicals of 8 levels, `3^{10^{18}}
   \\pmod{1000}`, `3^{10^{100}} \\bmod 7`, `2^{3^{4^5}}`, `\\Gamma(10^8)`, `\\Gamma(1000.5)^{100}`, `(10^6)!!`,
   `bmatrix` powers (`^{10^9}` numeric, `^{100000}` with a decimal, `^{3}` symbolic), set-builder `\\{x \\in \\mathbb{Z}
   : x^{20} - 1 = 0\\}`, `(x+y+z+w)^{20}`, `(x+1)^{400}`, `(x+y)^{300}`, `\\frac{x^{300}-1}{x-1}`, `\\sin(x)^{200}+
   \\cos(x)^{200}`, `\\tan` nested 8 deep, `\\sin(10^{10^5})`, `\\zeta(10^6+1)`, `\\lfloor e^{1000} \\rfloor \\bmod 7`,
   an 8x8 decimal `\\det`.

Held elsewhere (approximations, fx29k's `approximation_agrees`): `\\boxed{6 = 7 \\approx 7}`, `6 = 6000 \\approx
6000`, relations it does not list (`\\asymp`, `\\eqsim`, `\\backsimeq`, `≒`, `∼`, `≅`, `≊`, `\\fallingdotseq`,
`\\risingdotseq`, `\\coloneqq`, `:=`, `\\stackrel{?}{=}`, `\\overset{\\sim}{=}`, `\\mathrel{\\approx}`, `\\propto`,
`\\lessapprox`, `\\gtrapprox`), spacing around `\\approx` (`\\;`, `\\,`, `\\!`), a decorated second side (`{7}`, `(7)`,
`\\mathbf{7}`, `7.`, `0.7e1`, `6.0\\ldots`, `6\\%`, `\\text{seven}`), `6 \\approx 6.04`, `6 \\approx 6.0 \\approx 7`,
`\\boxed{6} \\approx 7`, `\\boxed{6 \\approx} 7` are all refused; `\\frac{1}{3} \\approx 0.333`, `2\\pi \\approx 6.28`,
`\\sqrt{2} \\approx 1.414`, `6 \\approx 6` pay.

Recall gaps (refused, never paid; not holes): `\\boxed{\\text{Yes, it is possible to do so.}}`, `\\boxed{\\text{Yes, it
can be done.}}`, `\\boxed{\\text{No, it cannot be done.}}`, `\\boxed{\\text{Yes, } n = 6 \\text{ works.}}` (no shape for
a verb phrase or a bare math reason), `\\boxed{6000 \\approx 6 \\times 10^{3}}` against 6000.
"""

from __future__ import annotations

import pytest

from tests.helpers import math_task, number_case as n, paid_test, refused_test, server_refused_test


# 1. A Yes/No reason that hedges with a restating word (docs/math.md "Math grading rules", the yes/no row).
def yes(completion: str, gold: str = "Yes") -> tuple[str, str, None]:
    return (completion, gold, None)


HEDGE_NOUN_NEAR = [
    yes("\\boxed{\\text{Yes, there is a possibility.}}"), yes("\\boxed{\\text{Yes, there is some probability.}}"),
    yes("\\boxed{\\text{Yes, there is a problem.}}", "\\text{Yes}"), yes("\\boxed{\\text{Yes, there is a question.}}"),
    yes("\\boxed{\\text{Yes, there are lies.}}"), yes("\\boxed{\\text{Yes, there is a positive probability.}}"),
    yes("\\boxed{\\text{Yes, such a possibility exists.}}"), yes("\\boxed{\\text{No, there is a possibility.}}", "No"),
    yes("\\boxed{\\text{Yes}} \\text{, there is a possibility}"), yes("Final Answer: Yes, there is a possibility."),
    yes("The answer is Yes, there is a problem."), yes("So, the answer is yes, there is a possibility."),
]
HEDGE_NOUN_SAME = [yes("\\boxed{\\text{Yes, there are infinitely many such primes.}}"),
                   yes("\\boxed{\\text{Yes, such a triangle exists.}}"),
                   yes("\\boxed{\\text{No, there is no such integer } n.}", "No"),
                   yes("\\boxed{\\text{No, such a polynomial does not exist.}}", "No"), yes("\\boxed{\\text{Yes, it is.}}")]
HEDGE_NOUN_REFUSED = [
    yes("\\boxed{\\text{Yes, there is a catch.}}"), yes("\\boxed{\\text{Yes, there is a small probability.}}"),
    yes("\\boxed{\\text{Yes, there is an error.}}"), yes("\\boxed{\\text{Yes, there is doubt.}}"),
    yes("\\boxed{\\text{Yes, there is an exception.}}"), yes("\\boxed{\\text{Yes, because $n=6$ fails.}}"),
    yes("\\boxed{\\text{Yes, there is an answer that is no.}}"), yes("\\boxed{\\text{Yes, there are 2 answers: yes and no.}}"),
    yes("\\boxed{\\text{Yes}} \\text{, probably}"), yes("\\boxed{\\text{Yes, there is a possibility.}}", "No"),
]


test_a_yes_no_hedged_by_a_noun_never_pays = refused_test(
    HEDGE_NOUN_NEAR,
    """Paid in both profiles: `grammar.restating_word` admits every noun of LEXICON's `OBJECT_ROLES`, so `there is a
    possibility` (a hedge) matches the restating shape `there is {_NP}` as `there is a solution` does.""")


# 2. A relative clause states a value past the copula-number deny rule (docs/math.md "Answer grammar", "Before a box").
CLAUSE_VALUE_NEAR = [
    n("The number of apples that is (7) is \\boxed{6}."), n("The number of apples that is '7' is \\boxed{6}."),
    n("The number of apples that is and 7 is \\boxed{6}."), n("The number of apples that is the value 7 is \\boxed{6}."),
    n("The number of apples that has the value 7 is \\boxed{6}."), n("The number of apples that has a value of 7 is \\boxed{6}."),
    n("The number of apples that has the answer 7 is \\boxed{6}."),
    n("The number of apples which has 6000 as its value is \\boxed{6}."), n("The number of apples that is [7] is \\boxed{6}."),
    n("The number of apples which is “7” is \\boxed{6}."), n("The number of apples that Sam has 7 is \\boxed{6}."),
    n("The number of integers that satisfy $x = 7$ is \\boxed{6}."), n("The number of apples that is 7 apples is \\boxed{6}."),
    n("The number of boxes that hold 7 apples as their value is \\boxed{6}."),
    n("The number of apples where $x$ is 7 is \\boxed{6}."), n("The number of apples for which 7 is \\boxed{6}."),
    n("The number of apples that holds the value 7 is \\boxed{6}."), n("So, the number of apples that has the value 7 is 6."),
]
CLAUSE_VALUE_REFUSED = [
    n("The number of apples that is exactly 7 is \\boxed{6}."), n("The number of apples that is, 7, is \\boxed{6}."),
    n("The number of apples that is 7,000 is \\boxed{6}."), n("The number of apples which equals 7 is \\boxed{6}."),
    n("The number of apples whose value is 7 is \\boxed{6}."), n("The number of apples being 7 is \\boxed{6}."),
]


test_a_clause_with_a_value_never_pays = refused_test(
    CLAUSE_VALUE_NEAR,
    """Paid in both profiles: `grammar._clause_states_value` refuses a number only right after a copula, inside a
    clause whose other tokens are allowlisted (`(`, `'`, `and`, `has`, `the value`), so one token between, or a verb
    of having, states 7 beside the box's 6.""")


# 3. An operation word of the object vocabulary (docs/math.md "Answer grammar", the subject's objects).
OPERATION_NEAR = [
    n("The value of the square root of $x$ is \\boxed{6}."), n("The value of the cube root of $x$ is \\boxed{6}."),
    n("The value of the root of $x$ is \\boxed{6}."), n("The value of the cubic root of $x$ is \\boxed{6}."),
    n("The value of the cubic of $x$ is \\boxed{6}."), n("The value of the multiple of $x$ is \\boxed{6}."),
    n("The value of the integer part of $x$ is \\boxed{6}."), n("So, the value of the square root of $x$ is 6."),
    # fx29n: every word of `grammar.OPERATION_WORDS` before `of`, and a power figure before `roots`
    n("The value of the square roots of $x$ is \\boxed{6}."), n("The value of the floor of $x$ is \\boxed{6}."),
    n("The value of the half of $x$ is \\boxed{6}."), n("The value of the power of $x$ is \\boxed{6}."),
    n("The value of the log of $x$ is \\boxed{6}."), n("The value of the factor of $x$ is \\boxed{6}."),
]
OPERATION_REFUSED = [
    n("The value of the square root of the answer is \\boxed{6}."), n("The value of the fractional part of $x$ is \\boxed{6}."),
    n("The value of the double of $x$ is \\boxed{6}."), n("The value of the reciprocal of $x$ is \\boxed{6}."),
    n("The value of $x$ squared is \\boxed{6}."), n("The value of $x^2$ is \\boxed{6}."),
    n("The square root of $x$ is \\boxed{6}."),
]


test_an_operation_on_the_unknown_never_pays = refused_test(
    OPERATION_NEAR,
    """Paid in both profiles: fx29k made `square`/`cube of` operations, but `root`, `cubic`, `multiple` and `part` stay
    objects, so `the value of the square root of $x$` reads as the value of an object though it names sqrt(x).""")


# 4. Grading time: a polynomial math-verify's simplify expands with no bound (docs/math.md "Answer grammar").
SLOW = ["(a+b+c+d+e+f)^{10}", "(a+b+c+d+e+f)^{20}", "(\\alpha+\\beta+\\gamma+\\delta+\\epsilon+\\zeta)^{8}",
        "(a+b+c+d+e+f+g+h+i+j)^{5}", "(f(x)+x+y+1)^{20}", "(a+b+c+d+f)^{10}"]


@pytest.mark.parametrize("latex", SLOW)
def test_a_many_symbol_power_is_refused_before_comparing(latex: str) -> None:
    """2-30+ s each in `grade_math` (module docstring, item 4): more than four symbols, or an applied function, skip
    `compare.differs_at_a_point` and reach math-verify's `simplify`. The decision, not a time: the answer is refused
    (`guards.expansion_guard` since red team 11)."""
    from verifier.math.parsing import parse_prediction

    assert isinstance(parse_prediction(latex), str)


M5 = "a & b & c & d & f \\\\ h & i & j & k & l \\\\ n & o & p & q & r \\\\ t & u & v & w & y \\\\ a & c & f & h & z"
SLOW_INVERSES = [f"{{\\begin{{pmatrix}} {M5} \\end{{pmatrix}}}}^{{-1}}", f"(\\begin{{matrix}} {M5} \\end{{matrix}})^{{-1}}"]


@pytest.mark.parametrize("latex", SLOW_INVERSES, ids=["braces", "parentheses"])
def test_a_bracketed_symbolic_inverse_is_refused(latex: str) -> None:
    """30+ s each (module docstring, item 4a): `guards._MATRIX_RE` reads a power only after `\\end` or `\\right`."""
    from verifier.math.guards import matrix_guard

    assert matrix_guard(latex) is not None


@pytest.mark.parametrize("latex", ["\\int_0^1 \\frac{1}{x^{8}+1} dx", "\\int_0^2 \\frac{1}{x^{8}+x+1} dx"])
def test_a_rational_integral_is_never_evaluated(latex: str) -> None:
    """4-5 s each (module docstring, item 4b): `guards._elementary` admits a negative integer power."""
    from verifier.math.guards import INFINITE, magnitude_digits
    from verifier.math.limits import DEFAULT_LIMITS
    from verifier.math.parsing import _math_verify_parse

    assert magnitude_digits(_math_verify_parse(latex), DEFAULT_LIMITS) == INFINITE


@pytest.mark.parametrize("latex", ["\\sum_{k=1}^{100} \\binom{100}{k}", "\\sum_{k=1}^{100} \\binom{100}{k}^{2}",
                                   "\\sum_{k=1}^{100} k \\binom{100}{k}"])
def test_a_binomial_series_is_never_summed_symbolically(latex: str) -> None:
    """4-10 s each (module docstring, item 4c): within `MAX_SERIES_TERMS` and `MAX_SERIES_DEGREE`, `Sum.doit` seeks a
    closed form first. The decision: `magnitude_digits` calls it too large (a fix summing term by term moves this)."""
    from verifier.math.guards import INFINITE, magnitude_digits
    from verifier.math.limits import DEFAULT_LIMITS
    from verifier.math.parsing import _math_verify_parse

    assert magnitude_digits(_math_verify_parse(latex), DEFAULT_LIMITS) == INFINITE


@pytest.mark.parametrize("latex", ["\\left(a+b+c+d+f\\right)^{7}", "{(a+b+c+d+f)}^{10}", "(x+y+z+w+v)^{10}",
                                   "(g(x)+x+y+1)^{20}", "(x+y+z+w)^{20}"])
def test_a_power_past_the_sampler_is_refused_however_bracketed(latex: str) -> None:
    """fx29n, then `guards.expansion_guard` (red team 11 class 4): `\\left(`/`\\right)`, a group's braces, five plain
    letters, an applied function; each expands past `MAX_EXPANDED_TERMS`."""
    from verifier.math.parsing import parse_prediction

    assert isinstance(parse_prediction(latex), str)


@pytest.mark.parametrize("latex", ["(a+b+c+d+f)^{4}", "(x+y+z)^{10}", "(x+1)^{150}", "\\sin(x)^{200}+\\cos(x)^{200}",
                                   "2(x+y)^{10}", "(2x+3)^{9}", "x^{1000}y^{300}"])
def test_a_power_the_sampler_covers_is_read(latex: str) -> None:
    """The bound's other side: an expansion of at most `MAX_EXPANDED_TERMS` terms, or powers of a single term."""
    from verifier.math.parsing import parse_prediction

    assert not isinstance(parse_prediction(latex), str)


@pytest.mark.parametrize("latex", ["\\int_0^1 x^{2} dx", "\\int_0^2 (x+1)^{3} dx", "\\sum_{k=1}^{100} \\sin(k)^{20}",
                                   "\\sum_{k=1}^{100} k^{2}"])
def test_an_elementary_integral_or_series_is_still_evaluated(latex: str) -> None:
    from verifier.math.guards import INFINITE, magnitude_digits
    from verifier.math.limits import DEFAULT_LIMITS
    from verifier.math.parsing import _math_verify_parse

    assert magnitude_digits(_math_verify_parse(latex), DEFAULT_LIMITS) < INFINITE


def test_a_bracketed_symbolic_matrix_without_a_power_is_read() -> None:
    """The bound's other side: a 5x5 letter matrix written as a value is no operand (`MAX_SYMBOLIC_CELLS`)."""
    from verifier.math.guards import matrix_guard

    assert matrix_guard(f"\\begin{{pmatrix}} {M5} \\end{{pmatrix}}") is None


# Guards for the fixes: rewrites that pay (must still pay) and near misses that are refused (must stay refused).
SAME = HEDGE_NOUN_SAME + [
    n("The number of apples that Sam lost is \\boxed{6}."), n("The number of boxes that hold 7 apples is \\boxed{6}."),
    # refused since fx29u (red team 14 classes 4, 5, 7): tests/test_math_subject_values.py GIVEN_UP
    n("The number of integers $n$ such that $f(n) = n$ is \\boxed{6}."),
    n("The area of the square is \\boxed{6}."), n("The root of the equation is \\boxed{6}."),
    n("\\boxed{\\frac{1}{3} \\approx 0.333}", "\\frac{1}{3}"), n("\\boxed{2\\pi \\approx 6.28}", "2\\pi"),
    n("\\boxed{(x+1)^{2}}", "x^2+2x+1"), n("\\boxed{(a+b+c+d+f)^{2}}", "(a+b+c+d+f)^{2}"),
    n("The sum of the roots of the polynomial is \\boxed{6}."), n("The number of multiples of 7 is \\boxed{6}."),
    n("The number of divisors of $n$ is \\boxed{6}."), n("The area of the square is \\boxed{6}."),
    n("The value of the sum of the roots of the quadratic is \\boxed{6}."),
    n("\\boxed{(x+y+z+w)^{20}}", "(x+y+z+w)^{20}"), n("\\boxed{\\int_0^1 x^{2} dx}", "\\frac{1}{3}"),
]
REFUSED = HEDGE_NOUN_REFUSED + CLAUSE_VALUE_REFUSED + OPERATION_REFUSED + [
    n("\\boxed{6 = 7 \\approx 7}"), n("\\boxed{6 \\asymp 7}"), n("\\boxed{6 ≒ 7}"), n("\\boxed{6 \\coloneqq 7}"),
    n("\\boxed{6 \\mathrel{\\approx} 7}"), n("\\boxed{6 \\approx (7)}"), n("\\boxed{6 \\approx 6.0 \\approx 7}"),
    n("\\boxed{6 \\approx 6.04}"),
]


test_a_right_answer_near_a_class_still_pays = paid_test(SAME)


test_a_near_miss_main_refuses_stays_refused = refused_test(REFUSED)


# Through the real server (class 1; docs/service.md "Reuse keys": one request, the shared pool).
SERVER_NEAR = [math_task("yes-possibility", "\\boxed{\\text{Yes, there is a possibility.}}", "\\text{Yes}"),
               math_task("no-problem", "So: \\boxed{\\text{No, there is a problem.}}", "No")]


test_the_server_refuses_a_yes_hedged_by_a_noun = server_refused_test(SERVER_NEAR)


# Recall given up (refused, never paid): rewrites a model writes that the grammar does not read.
RECALL = [yes("\\boxed{\\text{Yes, it is possible to do so.}}"), yes("\\boxed{\\text{No, it cannot be done.}}", "No"),
          yes("\\boxed{\\text{Yes, } n = 6 \\text{ works.}}")]


test_common_rewrites_pay = paid_test(RECALL, marks=[pytest.mark.xfail(strict=False, reason="recall: rewrites the grammar refuses (rt29l)")])

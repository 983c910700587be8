"""Red team of issue 29's answer grammar, twelfth pass (rt29n): wrong answers the grader pays, and answers that hold a
grading worker for seconds, after fx29p (a relative clause's value only a count before a counted noun, its brackets or
a name after an apposition head; the copula's span; `grammar._sets_own`; `grammar.TAKEN_QUANTITIES`) and
`guards.expansion_guard`. Graded by the real grader (`grade_math` through `tests.helpers.math_verdicts`) in both
profiles (docs/math.md "Answer grammar"), and class 3 through a real server on loopback (HTTP and gRPC). Each `*_NEAR`
case asserts the safe behaviour; all four classes are closed at the class by fx29q (docs/math.md "Answer grammar"),
so none is an xfail any more; plain tests hold what held. Gold 6 unless a case says otherwise.

1. A relative clause states a value as a count after its copula's span (`grammar._relative_clause`,
   `_clause_states_value`, `_CLAUSE_STOPS`: the copula's span ends at a preposition, and what follows is read as "a
   count before a counted noun", `that hold 7 apples`), or after a linking verb the copula rule does not read:
   `The number of apples that is in total 7 apples is \\boxed{6}.`, `... that is at 7 apples ...`, `... that is on
   balance 7 apples ...`, `... that is in number 7 apples ...`, `... that is with 7 apples ...`, `... that is by count
   7 apples ...`, `... which is in total 7 apples ...`, `(which is in total 7 apples)`, `... that becomes 7 apples
   ...`, `... that remains 7 apples ...`, `... that stays 7 apples ...`, `... that gives 7 apples ...`, `The area of
   the square that becomes 7 square meters is \\boxed{6}.`, `The price of the apple that is in total 7 dollars is
   \\boxed{6}.`, `So, the number of apples that is in total 7 apples is 6.` pay 6 (15 cases). Held: `that is 7
   apples`, `that is equal to 7 apples`, `that is about/exactly/really/in fact/in the end/of course 7 apples`, `that
   becomes 7`, `that is in total 7` (no counted noun), `that is in total seven apples`, `that was 7 apples`. Not
   reported (the design's count, rt29m's "which has 6000 apples"): `that has 7 apples`.
2. A condition sets the subject's own unknown past `grammar._sets_own` (which reads the name alone on a side of `=`,
   `:=` or `\\in` a one-element set, and a value as a side without letters): (a) another relation that sets it:
   `The value of $x$ such that $x \\equiv 7$ is \\boxed{6}.`, `$x \\triangleq 7$`, `$x \\stackrel{\\text{def}}{=} 7$`,
   `$\\{7\\} \\ni x$`, `$x \\mapsto 7$`, `$x \\leftarrow 7$`, `$x \\leq 7 \\leq x$`, `$x \\ge 7$ and $x \\le 7$`, `$x$ is in
   $\\{7\\}$`; (b) the name in another spelling: `$(x) = 7$`, `$\\{x\\} = \\{7\\}$`, `$x^{1} = 7$`, `$1x = 7$`, `$x + 0 =
   7$`, `$\\mathit{x} = 7$`; (c) a value with letters that cancel or are words: `$x = 7 + 0y$`, `$x = 7 + y - y$`, `$x =
   7y/y$`, `$x=\\frac{7a}{a}$`, `$x = 7 \\times 1^{y}$`, `$x = \\sin^{2} y + \\cos^{2} y + 6$`, `$x = 7\\text{ cm}$`, `$x =
   \\text{seven}$`, `$x = \\phantom{y}7$`, `$x = 7 \\text{ or } 8$`; (d) a subject with no math name of its own
   (`_own_names` is empty, so `_sets_own` never refuses): `The answer such that $x = 7$ is \\boxed{6}.`, `The solution
   such that $x = 7$ ...`, `The value such that $x = 7$ ...`, `The number such that $n = 7$ ...`, `The integer such
   that $n = 7$ ...`, `The value of the unknown such that $x = 7$ ...` pay 6 (31 cases; `$7+0x$` is the label hole
   fx29p closed in `_names_object`). Left alone (a condition): `$x \\equiv 7 \\pmod{100}$`. Held: `$x \\coloneqq 7$`, `$x =: 7$`, `$x \\in \\{7, 7\\}$`, `$x \\in [7, 7]$`, `${x} =
   7$`, `$\\mathrm{x} = 7$`, `$x = 7\\,\\mathrm{m}$`, `$x = 7^{1}$`, `$x = \\max(7, 1)$`, `$x = \\log_{2} 128$`, `$x \\to
   7$`, `$x$ = 7`, `x = 7`, and `for which`/`where`/`when`/`given`/`if`/`with`/`satisfying $x = 7$`.
3. A subject joins a second value by `and` (`grammar._object_end` admits `and` and numbers in an open object, and a
   `TAKEN_QUANTITIES` head such as `sum` takes them as its operands): `The number of apples and 7 is \\boxed{6}.`,
   `The number of apples and $7$ ...`, `The value of $x$ and $7$ ...`, `The area of the square and 7 ...`, `So, the
   number of apples and 7 is 6.`; an operation on the unknown with a number as its second operand, which `The value of
   $x + 1$` and `The value of $x$ plus $1$` (both refused) name too: `The sum of $x$ and $1$ is \\boxed{6}.`, `The sum
   of $x$ and 1 ...`, `The sum of $1$ and $x$ ...`, `The product of $2$ and $x$ ...`, `The product of $x$ and 2 ...`,
   `The difference between $x$ and $1$ ...`, `The total of $x$ and $1$ ...`, `The average of $x$ and 8 ...`, `The
   mean of $x$ and $8$ ...`, `The maximum of $x$ and $6$ ...`, `The minimum of $x$ and $6$ ...`, `The ratio of $x$
   and $2$ ...`, `The value of the sum of $x$ and $2$ and $3$ ...`, `The sum of the number of apples and 1 ...`, `The
   product of the number of apples and 2 ...`, `So, the sum of $x$ and $1$ is 6.`; a range or more values in the
   object: `The number of apples between 7 and 8 ...` (the issue's "between 3 and 9"), `... among 7 ...`, `... and 7
   apples ...`, `... and 7.5 ...`, `... and 7 and 8 ...`, `The coefficient of $x^2$ and 7 ...` pay 6 (27 cases;
   through the real server too). Held: `The answer and 7`, `The length and 7`, `The number of apples and 7 pears`, `The sum of $x$ and
   one`, `The sum of $x$ with $1$`, `The sum of $x$, $y$ and $1$`, `Final Answer: The sum of $x$ and $1$ is 6.` Not
   reported (a quantity a question asks for): `The sum of $x$ and $y$`, `The value of the measure of $x$`.
4. Grading time past `guards.expansion_guard` (`_terms` counts a function as its largest argument and a sum as its
   terms' count, but sympy's `simplify` in `compare._math_verify` expands trig of sums, binomials, sums of fractions
   over a common denominator, indefinite integrals and symbolic sums far past that count). One `grade_math` per
   answer, strict, warm process, each in its own process killed at the limit, on 2 cores shared with two other jobs;
   reference `(x+y+z)^{10}` 0.62 s against gold `a+b+c+d+f+1` and 0.15 s against 6. (a) A function of a sum:
   `\\cos(x+y+z+w+v+u+t+s)` 9.5 s (10.3 s against gold 6, 10.4 s against `\\frac{\\pi}{4}`), `\\sin(a+b+c+d+f+g+h+k+m+n)`
   more than 30 s (against gold 6 too), `\\tan(a+b+c+d+f+g+h)` more than 30 s, `e^{a}\\sin(a+b+c+d+f+g+h+k)` 6.3 s,
   `\\binom{x+y+z+w+v}{5}` more than 25 s under `PYTHONHASHSEED=0` and 0.7-1.1 s under seeds 1-3 (sympy's paths follow
   set order), `\\binom{a+b+c+d+f}{6}` 2.2 s; (b) a sum of fractions, brought over one denominator (n fractions of
   2-term denominators: n 2^(n-1) numerator terms, the guard counts 2n): five 3.9 s, six 5.7 s against gold 6, seven
   more than 30 s, seven of the form `\\frac{1}{a+1}` 4.3 s against gold 6; a continued fraction of eight levels 2.9 s;
   (c) an indefinite integral `\\int x^{10} e^{x} \\sin(x) dx` 19.7 s to more than 30 s (against gold 6; `x^{3}` 0.9
   s); (d) a symbolic sum's closed form `\\sum_{k=1}^{n} k^{10} x^{k}` 14.8 s (14.2 s against gold 6; `k^{5}` 0.7
   s). Each is 20-110 characters. Held (under 1 s): `\\prod_{k=1}^{n} (x+k)`, `\\sum_{k=1}^{n} (x+k)^{10}`, `\\lim_{x
   \\to 0} \\frac{\\sin(\\tan x) - \\tan(\\sin x)}{x^{7}}`, `\\frac{d^{20}}{dx^{20}} (x e^{x} \\sin x \\cos x)`,
   `(a+b+c+d+f)!`, `\\det` of a 2x2 of 7-term sums, `\\gcd(x^{20}+y^{20}+z^{3}, x^{10}+y^{7}+z)`, `\\int \\frac{1}{x^{7}+1}
   dx`, `\\lim_{x \\to \\infty} (1+\\frac{a}{x})^{x} (1+\\frac{b}{x})^{x}`, `\\sqrt{(a+b+c+d)^{6}}`; `\\begin{cases}` is not
   parsed. Gold side (no tests: a gold is the dataset's): the guard reads answers only; gold
   `\\cos(x+y+z+w+v+u+t+s)` against answer `1` costs 7.0 s.

Recall gaps: none new found.
"""

from __future__ import annotations

import pytest

from tests.helpers import math_task, number_case as n, paid_test, refused_test, server_refused_test

A = "The number of apples"


# 1. A count after the copula's span or a linking verb (docs/math.md "Answer grammar", red team 11's class 1).
COUNT_AFTER_COPULA_NEAR = [
    n("The value of $x$ such that $x$ is in $\\{7\\}$ is \\boxed{6}."),  # class 2's, closed by the copula rule
    n(f"{A} that is in total 7 apples is \\boxed{{6}}."), n(f"{A} that is at 7 apples is \\boxed{{6}}."),
    n(f"{A} that is on balance 7 apples is \\boxed{{6}}."), n(f"{A} that is in number 7 apples is \\boxed{{6}}."),
    n(f"{A} that is with 7 apples is \\boxed{{6}}."), n(f"{A} that is by count 7 apples is \\boxed{{6}}."),
    n(f"{A} which is in total 7 apples is \\boxed{{6}}."), n(f"{A} (which is in total 7 apples) is \\boxed{{6}}."),
    n(f"{A} that becomes 7 apples is \\boxed{{6}}."), n(f"{A} that remains 7 apples is \\boxed{{6}}."),
    n(f"{A} that stays 7 apples is \\boxed{{6}}."), n(f"{A} that gives 7 apples is \\boxed{{6}}."),
    n("The area of the square that becomes 7 square meters is \\boxed{6}."),
    n("The price of the apple that is in total 7 dollars is \\boxed{6}."),
    n("So, the number of apples that is in total 7 apples is 6."),
    # fx29q's near misses: any verb but a counting one is a copula, its span runs to the clause's end
    n(f"{A} that equals in total 7 apples is \\boxed{{6}}."), n(f"{A} which remains in the box 7 apples is \\boxed{{6}}."),
    n(f"{A} that is, in total, 7 apples is \\boxed{{6}}."), n(f"{A} that grows to 7 apples is \\boxed{{6}}."),
]
COUNT_AFTER_COPULA_REFUSED = [
    n(f"{A} that is 7 apples is \\boxed{{6}}."), n(f"{A} that is equal to 7 apples is \\boxed{{6}}."),
    n(f"{A} that is about 7 apples is \\boxed{{6}}."), n(f"{A} that is in fact 7 apples is \\boxed{{6}}."),
    n(f"{A} that is in the end 7 apples is \\boxed{{6}}."), n(f"{A} that becomes 7 is \\boxed{{6}}."),
    n(f"{A} that is in total 7 is \\boxed{{6}}."), n(f"{A} that was 7 apples is \\boxed{{6}}."),
]


test_a_clause_counting_after_its_copula_never_pays = refused_test(
    COUNT_AFTER_COPULA_NEAR,
    """Paid in both profiles: the copula's span ends at a preposition (`in`, `at`, `on`, `with`, `by`), and the count
    after it reads as `that hold 7 apples`; `becomes`, `remains`, `stays`, `gives` state the object's count as `is`
    does, yet the count before a counted noun is admitted after them.""")


# 2. A condition that sets the unknown past `_sets_own` (docs/math.md "Answer grammar", red team 11's class 2).
V = "The value of $x$ such that"
SETS_OWN_NEAR = [
    # (a) another relation
    n(f"{V} $x \\equiv 7$ is \\boxed{{6}}."), n(f"{V} $x \\triangleq 7$ is \\boxed{{6}}."),
    n(f"{V} $x \\stackrel{{\\text{{def}}}}{{=}} 7$ is \\boxed{{6}}."), n(f"{V} $\\{{7\\}} \\ni x$ is \\boxed{{6}}."),
    n(f"{V} $x \\mapsto 7$ is \\boxed{{6}}."), n(f"{V} $x \\leftarrow 7$ is \\boxed{{6}}."),
    n(f"{V} $x \\leq 7 \\leq x$ is \\boxed{{6}}."), n(f"{V} $x \\ge 7$ and $x \\le 7$ is \\boxed{{6}}."),
    # (b) the name in another spelling
    n(f"{V} $(x) = 7$ is \\boxed{{6}}."), n(f"{V} $\\{{x\\}} = \\{{7\\}}$ is \\boxed{{6}}."),
    n(f"{V} $x^{{1}} = 7$ is \\boxed{{6}}."), n(f"{V} $1x = 7$ is \\boxed{{6}}."), n(f"{V} $x + 0 = 7$ is \\boxed{{6}}."),
    n(f"{V} $\\mathit{{x}} = 7$ is \\boxed{{6}}."),
    # (c) a value side with letters that cancel or are words
    n(f"{V} $x = 7 + 0y$ is \\boxed{{6}}."), n(f"{V} $x = 7 + y - y$ is \\boxed{{6}}."), n(f"{V} $x = 7y/y$ is \\boxed{{6}}."),
    n(f"{V} $x=\\frac{{7a}}{{a}}$ is \\boxed{{6}}."), n(f"{V} $x = 7 \\times 1^{{y}}$ is \\boxed{{6}}."),
    n(f"{V} $x = \\sin^{{2}} y + \\cos^{{2}} y + 6$ is \\boxed{{6}}."), n(f"{V} $x = 7\\text{{ cm}}$ is \\boxed{{6}}."),
    n(f"{V} $x = \\text{{seven}}$ is \\boxed{{6}}."), n(f"{V} $x = \\phantom{{y}}7$ is \\boxed{{6}}."),
    n(f"{V} $x = 7 \\text{{ or }} 8$ is \\boxed{{6}}."),
    # (d) a subject with no name of its own, so any name is free to set
    n("The answer such that $x = 7$ is \\boxed{6}."), n("The solution such that $x = 7$ is \\boxed{6}."),
    n("The value such that $x = 7$ is \\boxed{6}."), n("The number such that $n = 7$ is \\boxed{6}."),
    n("The integer such that $n = 7$ is \\boxed{6}."), n("The value of the unknown such that $x = 7$ is \\boxed{6}."),
    # fx29q's near misses: other identities, spellings and commands (`grammar._condition_fixes`, by probing)
    n(f"{V} $x = 7 \\cdot 1$ is \\boxed{{6}}."), n(f"{V} $\\frac{{x}}{{1}} = 7$ is \\boxed{{6}}."),
    n(f"{V} $x \\cdot 1 = 7 + 0$ is \\boxed{{6}}."), n(f"{V} $x = 7 + 0 \\sin y$ is \\boxed{{6}}."),
    n(f"{V} $x = \\overline{{7}}$ is \\boxed{{6}}."), n(f"{V} $x \\geq 7 \\geq x$ is \\boxed{{6}}."),
    n(f"{V} $x = e^{{2}} - e^{{2}} + 7$ is \\boxed{{6}}."), n("The result such that $y = 7$ is \\boxed{6}."),
]
SETS_OWN_REFUSED = [
    n(f"{V} $x \\coloneqq 7$ is \\boxed{{6}}."), n(f"{V} $x =: 7$ is \\boxed{{6}}."), n(f"{V} $x \\in [7, 7]$ is \\boxed{{6}}."),
    n(f"{V} ${{x}} = 7$ is \\boxed{{6}}."), n(f"{V} $x = 7\\,\\mathrm{{m}}$ is \\boxed{{6}}."), n(f"{V} $x = 7^{{1}}$ is \\boxed{{6}}."),
    n(f"{V} $x = \\log_{{2}} 128$ is \\boxed{{6}}."), n("The value of $x$ for which $x = 7$ is \\boxed{6}."),
]


test_a_condition_setting_the_unknown_any_way_never_pays = refused_test(
    SETS_OWN_NEAR,
    """Paid in both profiles: `_sets_own` reads `=`, `:=` and `\\in` a one-element set, the name alone on its side by
    its text, and a value as a side without letters; `\\equiv`, `\\ni`, two inequalities, `(x)`, `x + 0`, `7 + 0y`,
    `7\\text{ cm}` set x to 7 all the same.""")


# 3. A second value joined by `and` in a subject (docs/math.md "Answer grammar", the subject's objects).
JOINED_NEAR = [
    n(f"{A} and 7 is \\boxed{{6}}."), n(f"{A} and $7$ is \\boxed{{6}}."), n("The value of $x$ and $7$ is \\boxed{6}."),
    n("The area of the square and 7 is \\boxed{6}."), n("So, the number of apples and 7 is 6."),
    n("The sum of $x$ and $1$ is \\boxed{6}."), n("The sum of $x$ and 1 is \\boxed{6}."), n("The sum of $1$ and $x$ is \\boxed{6}."),
    n("The product of $2$ and $x$ is \\boxed{6}."), n("The product of $x$ and 2 is \\boxed{6}."),
    n("The difference between $x$ and $1$ is \\boxed{6}."), n("The total of $x$ and $1$ is \\boxed{6}."),
    n("The average of $x$ and 8 is \\boxed{6}."), n("The mean of $x$ and $8$ is \\boxed{6}."),
    n("The maximum of $x$ and $6$ is \\boxed{6}."), n("The minimum of $x$ and $6$ is \\boxed{6}."),
    n("The ratio of $x$ and $2$ is \\boxed{6}."), n("The value of the sum of $x$ and $2$ and $3$ is \\boxed{6}."),
    n("The sum of the number of apples and 1 is \\boxed{6}."), n("The product of the number of apples and 2 is \\boxed{6}."),
    n("So, the sum of $x$ and $1$ is 6."), n(f"{A} between 7 and 8 is \\boxed{{6}}."), n(f"{A} among 7 is \\boxed{{6}}."),
    n(f"{A} and 7 apples is \\boxed{{6}}."), n(f"{A} and 7.5 is \\boxed{{6}}."), n(f"{A} and 7 and 8 is \\boxed{{6}}."),
    n("The coefficient of $x^2$ and 7 is \\boxed{6}."),
    # fx29q's near misses: a value anywhere in the object but its whole `of` object or a count
    n(f"{A} and $\\frac{{1}}{{2}}$ is \\boxed{{6}}."), n("The sum of $x$ and $\\sqrt{2}$ is \\boxed{6}."),
    n(f"{A} between 7 and 8 inclusive is \\boxed{{6}}."), n("The number of integers between 1 and 7 and 8 is \\boxed{6}."),
    n("The number of multiples of 7 and 8 is \\boxed{6}."), n(f"{A} in $7$ is \\boxed{{6}}."),
]
JOINED_REFUSED = [
    n("The value of $x + 1$ is \\boxed{6}."), n("The value of $x$ plus $1$ is \\boxed{6}."), n("The answer and 7 is \\boxed{6}."),
    n("The length and 7 is \\boxed{6}."), n(f"{A} and 7 pears is \\boxed{{6}}."), n("The sum of $x$ and one is \\boxed{6}."),
    n("The sum of $x$ with $1$ is \\boxed{6}."), n("The sum of $x$, $y$ and $1$ is \\boxed{6}."),
]


test_a_subject_joining_a_second_value_never_pays = refused_test(
    JOINED_NEAR,
    """Paid in both profiles: `_object_end` admits `and` and a number in an open object, so `the number of apples and
    7` is a subject, and `the sum of $x$ and $1$` (x + 1, refused when written `the value of $x + 1$`) names another
    quantity with a second value.""")


# 4. Grading time past `guards.expansion_guard`: the guard's decision, never a time (module docstring, item 4).
FUNCTION_OF_A_SUM = ["\\cos(x+y+z+w+v+u+t+s)", "\\sin(a+b+c+d+f+g+h+k+m+n)", "\\tan(a+b+c+d+f+g+h)",
                     "e^{a}\\sin(a+b+c+d+f+g+h+k)", "\\binom{x+y+z+w+v}{5}", "\\binom{a+b+c+d+f}{6}"]
FRACTIONS = ["\\frac{1}{a+b}+\\frac{1}{c+d}+\\frac{1}{f+g}+\\frac{1}{h+k}+\\frac{1}{m+n}",
             "\\frac{1}{a+b}+\\frac{1}{c+d}+\\frac{1}{f+g}+\\frac{1}{h+k}+\\frac{1}{m+n}+\\frac{1}{p+q}+\\frac{1}{r+s}",
             "\\frac{1}{a+1}+\\frac{1}{b+1}+\\frac{1}{c+1}+\\frac{1}{d+1}+\\frac{1}{f+1}+\\frac{1}{g+1}+\\frac{1}{h+1}",
             "\\frac{1}{a+\\frac{1}{b+\\frac{1}{c+\\frac{1}{d+\\frac{1}{f+\\frac{1}{g+\\frac{1}{h+\\frac{1}{k}}}}}}}}"]
CLOSED_FORMS = ["\\int x^{10} e^{x} \\sin(x) dx", "\\sum_{k=1}^{n} k^{10} x^{k}"]
# fx29q's near misses: the same classes written otherwise (refused by the guard's count, never timed)
FUNCTION_OF_A_SUM += ["\\sec(a+b+c+d+f+g+h)", "\\cos(a+b+c+d+f+g+h+k) + 1", "\\binom{a+b+c+d+f+g}{4}"]
FRACTIONS += ["\\frac{1}{a+b}+\\frac{1}{c+d}+\\frac{1}{f+g}+\\frac{1}{h+k}", "\\frac{x}{a+b}-\\frac{y}{c+d}+\\frac{1}{f+g}+\\frac{1}{h+k}+1"]
CLOSED_FORMS += ["\\int_{0}^{t} x^{12} e^{x} dx", "\\sum_{k=0}^{n} k^{12} \\cos(k x)"]


def _refused(latex: str) -> bool:
    """Whether the answer is refused before comparing (`parsing.parse_prediction`)."""
    from verifier.math.parsing import parse_prediction

    return isinstance(parse_prediction(latex), str)


@pytest.mark.timeout(30)
@pytest.mark.parametrize("latex", FUNCTION_OF_A_SUM)
def test_a_function_of_a_large_sum_is_refused(latex: str) -> None:
    """2.2 s to more than 20 s each (item 4a), against any gold: `_terms` counts `\\cos(s)` as `s`'s terms, but
    `simplify` expands the sine or cosine of a sum of n terms into 2^(n-1) products, a binomial into its polynomial."""
    assert _refused(latex)


@pytest.mark.timeout(30)
@pytest.mark.parametrize("latex", FRACTIONS)
def test_a_sum_of_fractions_is_refused(latex: str) -> None:
    """2.9 s to more than 30 s each (item 4b): `_terms` counts a sum of fractions as its denominators' terms, but a
    common denominator multiplies them (n fractions of two-term denominators: n 2^(n-1) numerator terms)."""
    assert _refused(latex)


@pytest.mark.timeout(30)
@pytest.mark.parametrize("latex", CLOSED_FORMS)
def test_an_integral_or_sum_with_a_large_closed_form_is_refused(latex: str) -> None:
    """14.8 s and more than 20 s (items 4c, 4d): the guard counts the integrand and summand, but sympy computes the
    antiderivative by parts and the sum's closed form, each far larger."""
    assert _refused(latex)


@pytest.mark.parametrize("latex", ["(x+y+z)^{10}", "\\prod_{k=1}^{n} (x+k)", "\\sqrt{(a+b+c+d)^{6}}",
                                   "\\frac{d^{20}}{dx^{20}} (x e^{x} \\sin x \\cos x)",
                                   # rewrites near class 4 (fx29q): small functions of sums, fractions, closed forms
                                   "\\sin(x+y)", "\\cos(a+b+c+d)", "\\binom{n}{2}", "\\binom{n+1}{3}",
                                   "\\frac{1}{x+1}+\\frac{2}{x-1}-\\frac{3}{x+2}", "\\int x^{3} e^{x} dx",
                                   "\\sum_{k=1}^{n} k^{2}", "\\sum_{k=1}^{n} (x+k)^{10}", "\\int_{0}^{1} x^{10} e^{x} dx"])
def test_an_answer_that_grades_fast_is_still_read(latex: str) -> None:
    """The bound's other side: under 1 s each (item 4, held)."""
    assert not _refused(latex)


# Held: near misses main refuses (must stay refused).
REFUSED = COUNT_AFTER_COPULA_REFUSED + SETS_OWN_REFUSED + JOINED_REFUSED


test_a_near_miss_main_refuses_stays_refused = refused_test(REFUSED)


SAME = [n("The sum of $x$ and $y$ is \\boxed{6}."), n(f"{A} that has 7 apples is \\boxed{{6}}."),
        # rewrites near class 3: an object's value as the whole `of` object, a count, a range of numbers
        n("The number of multiples of 7 is \\boxed{6}."), n("The sum of the first 10 terms is \\boxed{6}."),
        n("The units digit of $3^{2024}$ is \\boxed{6}."),
        # rewrites near class 1: a counting verb, a count in a quantity's `of` object
        n(f"{A} that hold 7 apples is \\boxed{{6}}."), n("The number of ways to choose 2 of 4 is \\boxed{6}."),
        # rewrites near class 2: conditions that pick the unknown out, no value fixed
        n("The value of $x$ such that $1 \\leq x \\leq 7$ is \\boxed{6}."), n("The value of $x$ such that $x \\ge 1$ is \\boxed{6}."),
        n("The value of $x$ such that $f(x) = 7$ is \\boxed{6}."),
        n("The smallest positive integer $n$ such that $n^{2} > 30$ is \\boxed{6}."),  # fx29w: without `positive` n <= -6 meets it too
        n("The value of $x$ such that $x \\equiv 106 \\pmod{100}$ is \\boxed{6}."),  # fx29v: `7 \\pmod{100}` excludes 6
        n("The value of $x$ such that $x^2 = 36$ is \\boxed{6}.")]  # fx29v: a condition holding at the box's value


# Refused by rule since fx29r (moved from SAME, each with the rule's reason).
SAME_REFUSED_BY_RULE = [
    n("The number of integers between 1 and 100 is \\boxed{6}."),  # a range of integers alone: its size is a count beside the box
    n("The value of $x$ such that $x - 7 = 0$ is \\boxed{6}."),  # an equation fixing the unknown, refused even when it agrees
    n("The value of $x$ such that $x \\equiv 7 \\pmod{100}$ is \\boxed{6}."),  # fx29v: a congruence 6 does not meet
]


test_a_rewrite_the_rule_refuses_stays_refused = refused_test(SAME_REFUSED_BY_RULE)


test_a_right_answer_near_a_class_still_pays = paid_test(SAME)


# Through the real server (class 3; docs/service.md "Reuse keys": one request, the shared pool).
SERVER_NEAR = [math_task("joined", "The number of apples and 7 is \\boxed{6}.", "6"),
               math_task("joined-sum", "So, the sum of $x$ and $1$ is 6.", "6")]


test_the_server_refuses_a_subject_joining_a_second_value = server_refused_test(SERVER_NEAR)

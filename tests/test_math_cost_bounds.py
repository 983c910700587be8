"""Grading-time bounds on matrices, series and functions (issue 29; verifier/math/guards.py `matrix_guard`,
`_series_digits`, `function_guard`; docs/math.md "Answer grammar", item 5 and fx29x): constructs inside the earlier
bounds that held a worker for seconds (a 12x12 symbolic determinant over 40 s, a 4x4 symbolic inverse over 45 s,
`\\sum_{k=1}^{1000} k!` over 45 s, nested sums, an 8-deep `\\ln` chain 17 s, 16 `\\tanh` of letters over 30 s) are
refused or never evaluated: never paid, never an infra error. No timed assertion: each test asserts the bound
(the refusal's reason, or `INFINITE` digits), and the rewrites that must still pay.
"""

from __future__ import annotations

import pytest

from helpers import math_verdicts
from verifier.math.guards import (
    INFINITE,
    MAX_FUNCTION_DEPTH,
    MAX_FUNCTION_PRODUCTS,
    MAX_FUNCTION_WORK,
    MAX_TRIG_PRODUCT,
    function_guard,
    function_products,
    function_work,
    magnitude_digits,
    matrix_guard,
)
from verifier.math.limits import DEFAULT_LIMITS
from verifier.math.parsing import _math_verify_parse, parse_gold, parse_prediction


def _rows(n: int) -> list[str]:
    """An n x n matrix of powers of letters (tests/helpers.py's slow gold, any size)."""
    return [" & ".join(f"{chr(97 + (i * n + j) % 26)}^{{{(i * j) % 5 + 1}}}" for j in range(n)) for i in range(n)]


def _numbers(n: int) -> list[str]:
    return [" & ".join(str((i * 7 + j * 3) % 11 + 1) for j in range(n)) for i in range(n)]


def _matrix(rows: list[str], env: str = "pmatrix") -> str:
    return f"\\begin{{{env}}}" + " \\\\ ".join(rows) + f"\\end{{{env}}}"


REFUSED = [
    "\\det" + _matrix(_rows(3)), "\\det" + _matrix(_rows(4)), "\\det" + _matrix(_rows(12)), _matrix(_rows(8), "vmatrix"),
    "\\det" + _matrix(_rows(3), "bmatrix"), "\\det" + _matrix(_rows(3), "matrix"),
    "\\det\\left(\\begin{array}{ccc}" + " \\\\ ".join(_rows(3)) + "\\end{array}\\right)",
    "\\mathrm{det}" + _matrix(_rows(3)), _matrix(_rows(3)) + "^{-1}", _matrix(_rows(4)) + "^{-1}",
    _matrix(_rows(2)) + "^{30}", _matrix(_rows(2)) + "^{8}", "\\left(" + _matrix(_rows(2), "matrix") + "\\right)^{12}",
    _matrix(_rows(3)) + _matrix(_rows(3)), _matrix(_rows(12)), _matrix(["\\sqrt{2} & 1 & 0", "0 & 1 & 0", "0 & 0 & 1"]) + "^{-1}",
]


@pytest.mark.parametrize("latex", REFUSED)
def test_a_symbolic_matrix_computed_on_is_refused(latex: str) -> None:
    assert matrix_guard(latex) is not None
    assert isinstance(parse_prediction(latex), str)
    assert "correct" not in math_verdicts(f"\\boxed{{{latex}}}", "1 + x")


ADMITTED = [
    "\\det" + _matrix(_numbers(12)), "\\det" + _matrix(_numbers(20)), _matrix(_numbers(12)) + "^{-1}",
    _matrix(_numbers(6)) + "^{200}", _matrix(_rows(6)), "\\det" + _matrix(_rows(2)), _matrix(_rows(2)) + "^{-1}",
    _matrix(_rows(2)) + "^{T}", _matrix(_rows(2)) + "^{2}", _matrix(["\\frac{1}{2} & -3", "4.5 & 0"]) + "^{100}",
]


@pytest.mark.parametrize("latex", ADMITTED)
def test_a_numeric_or_small_matrix_is_read(latex: str) -> None:
    assert matrix_guard(latex) is None


@pytest.mark.parametrize("completion, gold", [
    ("\\boxed{\\det\\begin{pmatrix} x & 1 \\\\ 1 & x \\end{pmatrix}}", "x^2 - 1"),
    ("\\boxed{\\det\\begin{pmatrix} 1 & 2 & 3 \\\\ 4 & 5 & 6 \\\\ 7 & 8 & 10 \\end{pmatrix}}", "-3"),
    ("\\boxed{\\begin{pmatrix} x & 1 & 0 \\\\ 0 & x & 1 \\\\ 1 & 0 & x \\end{pmatrix}}",
     "\\begin{pmatrix} x & 1 & 0 \\\\ 0 & x & 1 \\\\ 1 & 0 & x \\end{pmatrix}"),
    ("\\boxed{\\sum_{k=1}^{100} k}", "5050"), ("\\boxed{\\sum_{k=1}^{n} k^{2}}", "\\frac{n(n+1)(2n+1)}{6}"),
    ("\\boxed{\\sum_{k=0}^{10} 2^{k}}", "2047"), ("\\boxed{\\prod_{k=1}^{10} k}", "3628800"),
])
def test_a_small_determinant_matrix_or_series_still_pays(completion: str, gold: str) -> None:
    assert math_verdicts(completion, gold) == ["correct", "correct"]


@pytest.mark.parametrize("completion, gold", [
    ("\\boxed{\\det\\begin{pmatrix} x & 1 \\\\ 1 & x \\end{pmatrix}}", "x^2 + 1"),
    ("\\boxed{\\det\\begin{pmatrix} 1 & 2 & 3 \\\\ 4 & 5 & 6 \\\\ 7 & 8 & 10 \\end{pmatrix}}", "3"),
    ("\\boxed{\\sum_{k=1}^{100} k}", "5051"), ("\\boxed{\\sum_{k=1}^{1000} k}", "500500"),
    ("\\boxed{\\sum_{i=1}^{10}\\sum_{j=1}^{10} ij}", "3025"),
])
def test_a_near_miss_or_an_unevaluated_series_is_never_paid(completion: str, gold: str) -> None:
    """A wrong value, or a series past the bounds (compared as written, never evaluated: recall given up)."""
    assert "correct" not in math_verdicts(completion, gold)


@pytest.mark.parametrize("latex", [
    "\\sum_{k=1}^{1000} k!", "\\sum_{i=1}^{1000} i^{1000}", "\\sum_{k=1}^{1000} 2^{k} k^{5}", "\\prod_{k=1}^{1000} k^{k}",
    "\\sum_{k=1}^{1000} \\frac{1}{k(k+1)}", "\\sum_{i=1}^{100} i^{1000}", "\\sum_{k=1}^{n} k^{50}", "\\sum_{k=1}^{30} k^{k}",
    "\\sum_{i=1}^{10}\\sum_{j=1}^{10}\\sum_{k=1}^{10} (i+j+k)^{50}", "\\sum_{i=1}^{5}\\sum_{j=1}^{5}\\sum_{k=1}^{4} (i+j+k)^{10}",
    "\\sum_{i=1}^{10}\\sum_{j=1}^{10} \\frac{1}{i+j}", "\\sum_{k=0}^{100} 2^{k}",
    "\\sum_{k=1}^{100} k!",  # a factorial in a summed term: `Sum.doit` seeks a closed form first (red team 10 class 4)
])
def test_a_costly_series_is_never_evaluated(latex: str) -> None:
    assert magnitude_digits(_math_verify_parse(latex), DEFAULT_LIMITS) == INFINITE


@pytest.mark.parametrize("latex", ["\\sum_{k=1}^{99} 2^{k}", "\\sum_{k=1}^{100} k^{20}", "\\sum_{k=1}^{n} k^{20}", "\\prod_{k=1}^{100} k"])
def test_a_series_within_the_bounds_is_evaluated(latex: str) -> None:
    assert magnitude_digits(_math_verify_parse(latex), DEFAULT_LIMITS) < DEFAULT_LIMITS.max_exact_digits


# Functions (fx29x): nesting and work, answers and golds alike.
def _chain(function: str, depth: int, letter: str = "x") -> str:
    text = letter
    for _ in range(depth):
        text = f"\\{function}({text})"
    return text


def _sum_of(function: str, count: int) -> str:
    """`count` applications of `function` to different letters, summed (past four letters: `simplify`, no sampler)."""
    return "+".join(f"\\{function}({letter})" for letter in "abcdfghkmnpqrstuvwyzABCDEFGH"[:count])


@pytest.mark.parametrize("text, depths", [
    (_chain("ln", 4), [1, 2, 3, 4]), ("\\ln \\ln \\ln x", [1, 2, 3]), ("e^{e^{e^{x}}}", [1, 2, 3]),
    ("\\log_{2}(\\log_{2}(x))", [1, 2]), ("\\sin^{-1}\\left(\\cos^{2}(x)\\right)", [1, 2]),
    ("\\ln\\frac{1}{\\ln\\frac{1}{\\ln x}}", [1, 2, 3]), ("\\sin(x)+\\cos(x)", [1, 1]), ("\\sin x + \\cos x", [1, 1]),
    ("\\exp(x) - \\lg(x), \\ln(x)", [1, 1, 1]), ("\\ln x^{\\ln x}", [1, 2]), ("\\sin \\cos x", [1, 2]),
    ("16\\sin x\\cos x\\cos 2x\\cos 4x\\cos 8x", [1] * 5), ("\\sin(a)\\cos(b + \\ln(c))", [1, 1, 2]),
])
def test_function_work_is_the_applications_depths(text: str, depths: list[int]) -> None:
    """Weight-1 functions: the work is the sum of the applications' depths, the nesting the deepest; a function with no
    bracket takes the function right after it, else what follows up to a function, `+`, `-` or `,` of its level
    (`\\ln \\ln x` is a chain, `\\sin x\\cos x` two factors: math-verify reads them so)."""
    assert function_work(text) == (sum(depths), max(depths))


def test_ratios_and_hyperbolic_functions_weigh_more() -> None:
    """`simplify` of a sum of ratios or hyperbolic functions costs more per function (MAX_FUNCTION_WORK's figures)."""
    one = function_work("\\sin(a)")[0]
    assert function_work("\\tan(a)")[0] == function_work("\\sec(a)")[0] == 2 * one
    assert function_work("\\tanh(a)")[0] == function_work("\\operatorname{sech}(a)")[0] == 4 * one
    assert function_work(_chain("tan", 2)) == (2 * (1 + 2), 2)


PAST_THE_FUNCTION_BOUNDS = [
    _chain("ln", MAX_FUNCTION_DEPTH + 1), _chain("log", MAX_FUNCTION_DEPTH + 1), _chain("exp", MAX_FUNCTION_DEPTH + 1),
    "e^{" * (MAX_FUNCTION_DEPTH + 1) + "x" + "}" * (MAX_FUNCTION_DEPTH + 1), "\\ln " * (MAX_FUNCTION_DEPTH + 1) + "x",
    _sum_of("sin", MAX_FUNCTION_WORK + 1), _sum_of("tan", MAX_FUNCTION_WORK // 2 + 1),
    _sum_of("tanh", MAX_FUNCTION_WORK // 4 + 1), _chain("ln", MAX_FUNCTION_DEPTH) + "+" + _chain("ln", MAX_FUNCTION_DEPTH, "y"),
]
AT_THE_FUNCTION_BOUNDS = [
    _chain("ln", MAX_FUNCTION_DEPTH), _chain("log", MAX_FUNCTION_DEPTH), _chain("exp", MAX_FUNCTION_DEPTH),
    _sum_of("sin", MAX_FUNCTION_WORK), _sum_of("tan", MAX_FUNCTION_WORK // 2), _sum_of("tanh", MAX_FUNCTION_WORK // 4),
    _chain("ln", MAX_FUNCTION_DEPTH) + "+" + _sum_of("ln", MAX_FUNCTION_WORK - sum(range(1, MAX_FUNCTION_DEPTH + 1))),
]


@pytest.mark.parametrize("latex", PAST_THE_FUNCTION_BOUNDS)
def test_functions_one_step_past_the_bounds_are_refused(latex: str) -> None:
    """One step past a bound (one level deeper, one function more): an answer is refused before parsing, `too costly`;
    a gold is never parsed and only its own text pays; a different answer is `incorrect` with the reason."""
    assert function_guard(latex) is not None
    refused = parse_prediction(latex)
    assert isinstance(refused, str) and "too costly" in refused
    assert math_verdicts(f"\\boxed{{{latex}}}", "1") == ["incorrect", "incorrect"]
    from verifier.math import grade_math

    against_gold = grade_math({"completion": "\\boxed{1}", "gold": latex})
    assert against_gold["verdict"] == "incorrect" and "gold not compared" in against_gold["detail"], against_gold
    assert "too costly" in against_gold["detail"]
    assert math_verdicts(f"\\boxed{{{latex}}}", latex) == ["correct", "correct"]  # its own text, as written


@pytest.mark.parametrize("latex", AT_THE_FUNCTION_BOUNDS)
def test_functions_at_the_bounds_are_compared(latex: str) -> None:
    """At a bound the answer is read and compared: its own value pays (written differently: `+0`), a wrong one does
    not (`+1`), against a gold at the bound too (each 0.1-0.6 s at load 2, MAX_FUNCTION_WORK's figures)."""
    assert function_guard(latex) is None
    assert not isinstance(parse_prediction(latex), str)
    assert math_verdicts(f"\\boxed{{{latex}+0}}", latex) == ["correct", "correct"]
    assert math_verdicts(f"\\boxed{{{latex}+1}}", latex) == ["incorrect", "incorrect"]


@pytest.mark.parametrize("completion, gold", [
    ("\\sin(x)+\\cos(x)", "\\cos(x)+\\sin(x)"), ("\\ln(\\sqrt{x})", "\\frac{1}{2}\\ln(x)"),
    ("\\tan(\\arcsin(x/2))", "\\frac{x}{\\sqrt{4-x^{2}}}"), ("2\\sin(x)\\cos(x)", "\\sin(2x)"),
    ("\\sin^{2}(x)+\\cos^{2}(x)", "1"), ("\\sec^{2}(x)-\\tan^{2}(x)", "1"), ("\\cosh^{2}(x)-\\sinh^{2}(x)", "1"),
    ("\\log_{2}(8x)", "3+\\log_{2}(x)"), ("\\frac{\\sin(x)}{\\cos(x)}", "\\tan(x)"),
    ("\\tanh(x)", "\\frac{\\sinh(x)}{\\cosh(x)}"), ("\\sin(\\cos(x))+\\cos(\\sin(x))", "\\cos(\\sin(x))+\\sin(\\cos(x))"),
    ("\\ln\\left(\\ln\\left(\\ln\\left(\\ln\\left(x\\right)\\right)\\right)\\right)", _chain("ln", 4)),
    ("\\arctan(1)+\\arctan(2)+\\arctan(3)", "\\pi"), ("e^{\\ln(2)}", "2"), ("8\\sin x\\cos x\\cos 2x\\cos 4x", "\\sin 8x"),
    ("\\sin x \\cos y + \\cos x \\sin y", "\\sin(x+y)"),
])
def test_answers_with_several_functions_still_pay(completion: str, gold: str) -> None:
    """Rewrites: the functions a real answer writes are far inside the bounds (the peers' data: work 2 at most)."""
    assert function_guard(completion) is None and function_guard(gold) is None
    assert math_verdicts(f"\\boxed{{{completion}}}", gold) == ["correct", "correct"]


@pytest.mark.parametrize("completion, gold", [
    ("\\sin(x)+\\cos(x)", "\\sin(x)-\\cos(x)"), (_chain("ln", 4), _chain("ln", 4, "y")), (_chain("ln", 4), _chain("ln", 3)),
    ("\\tan(\\arcsin(x/2))", "\\frac{x}{\\sqrt{4+x^{2}}}"), (_sum_of("sin", MAX_FUNCTION_WORK), _sum_of("cos", MAX_FUNCTION_WORK)),
])
def test_a_wrong_answer_under_the_function_bounds_is_still_incorrect(completion: str, gold: str) -> None:
    assert function_guard(completion) is None and function_guard(gold) is None
    assert math_verdicts(f"\\boxed{{{completion}}}", gold) == ["incorrect", "incorrect"]


# Products of sines and cosines (fx29ab): `simplify`'s product-to-sum expansion, answers and golds alike.
def _product_of(letters: str, power: int = 1, function: str = "sin") -> str:
    """`\\sin^{power}` of each letter, multiplied (past four letters: `simplify`, no sampler)."""
    script = f"^{{{power}}}" if power > 1 else ""
    return "".join(f"\\{function}{script}({letter})" for letter in letters)


_FACTORS_AT_THE_BOUND = MAX_TRIG_PRODUCT.bit_length() - 1  # 2^k <= the bound: k factors of power 1
AT_THE_TRIG_BOUND = [
    _product_of("abcdfghkmnpq"[:_FACTORS_AT_THE_BOUND]),  # red team 13's eight sines (256)
    "".join(f"\\{'sin' if i % 2 else 'cos'}({x})" for i, x in enumerate("abcdfghkmnpq"[:_FACTORS_AT_THE_BOUND])),
    _product_of("abc", 3) + _product_of("df"),  # 4 x 4 x 4 x 2 x 2
]
PAST_THE_TRIG_BOUND = [
    _product_of("abcdfghkmnpq"[:_FACTORS_AT_THE_BOUND + 1]), _product_of("abcdfg", 2), _product_of("abcdf", 3),
    _product_of("abc", 3) + _product_of("df") + "+" + _product_of("gh"),  # a sum of products: their sum
    "\\left(" + _product_of("abcdfg") + "\\right)^{2}",  # a power of a product: each factor's power
    _product_of("abcr") + "\\left(" + _product_of("dfgh") + "+" + _product_of("kmnp") + "\\right)",  # distributed
    "".join(f"\\sin^{{2\\cdot 1}}({x})" for x in "abcdfg"),  # a power written any way
]


@pytest.mark.parametrize("latex", PAST_THE_TRIG_BOUND)
def test_a_trig_product_past_the_bound_is_refused(latex: str) -> None:
    """Past `MAX_TRIG_PRODUCT` (nine sines 2.75 s, `\\sin^{3}` of five letters 2.6 s, at load 4): an answer is refused
    after parsing, `too costly`; a gold is compared as written only, so only its own text pays."""
    refused = parse_prediction(latex)
    assert isinstance(refused, str) and "sines and cosines" in refused and "too costly" in refused
    assert math_verdicts(f"\\boxed{{{latex}}}", "1") == ["incorrect", "incorrect"]
    from verifier.math import grade_math

    against_gold = grade_math({"completion": "\\boxed{1}", "gold": latex})
    assert against_gold["verdict"] == "incorrect" and "gold not compared" in against_gold["detail"], against_gold
    assert "sines and cosines" in against_gold["detail"]
    assert math_verdicts(f"\\boxed{{{latex}}}", latex) == ["correct", "correct"]  # its own text, as written


@pytest.mark.parametrize("latex", AT_THE_TRIG_BOUND)
def test_a_trig_product_at_the_bound_is_compared(latex: str) -> None:
    """At the bound the answer is read and compared (0.6-1.5 s at load 5, `MAX_TRIG_PRODUCT`'s figures): its own value
    written differently pays, a wrong one does not."""
    assert not isinstance(parse_prediction(latex), str)
    assert math_verdicts(f"\\boxed{{{latex}+0}}", latex) == ["correct", "correct"]
    assert math_verdicts(f"\\boxed{{{latex}+1}}", latex) == ["incorrect", "incorrect"]


@pytest.mark.parametrize("gold, verdict", [
    (_product_of("abcdfgh"), "correct"), (_product_of("abcdfgk"), "incorrect"), (_product_of("abcdfg") + "\\cos(h)", "incorrect"),
])
def test_a_double_angle_rewrite_at_the_trig_bound_is_proved(gold: str, verdict: str) -> None:
    """`2\\sin(a/2)\\cos(a/2)` for `\\sin a` beside six sines: 4 x 2^6, at the bound: `simplify` proves it (0.6 s at
    load 5) or not."""
    answer = "2\\sin(\\frac{a}{2})\\cos(\\frac{a}{2})" + _product_of("bcdfgh")
    assert not isinstance(parse_prediction(answer), str)
    assert math_verdicts(f"\\boxed{{{answer}}}", gold) == [verdict, verdict]


@pytest.mark.parametrize("completion, gold", [
    ("2\\sin x\\cos x", "\\sin 2x"), ("\\sin^2 x + \\cos^2 x", "1"), ("8\\sin x\\cos x\\cos 2x\\cos 4x", "\\sin 8x"),
    ("16\\sin x\\cos x\\cos 2x\\cos 4x\\cos 8x", "\\sin 16x"), ("\\sin^{15}(a)\\cos^{15}(b)", "(\\sin(a)\\cos(b))^{15}"),
    ("2\\sin(a)\\cos(b)", "\\sin(a+b)+\\sin(a-b)"),
])
def test_realistic_trig_rewrites_stay_correct(completion: str, gold: str) -> None:
    """Product-to-sum and double-angle rewrites a real answer writes are far inside the bound (16 at most here)."""
    assert not isinstance(parse_prediction(completion), str) and not isinstance(parse_gold(gold), str)
    assert math_verdicts(f"\\boxed{{{completion}}}", gold) == ["correct", "correct"]
    assert math_verdicts(f"\\boxed{{{completion}+1}}", gold) == ["incorrect", "incorrect"]


# Explicit products after function calls (fx29ac): the parser's lookahead, answers and golds alike.
def _chained(function: str, count: int, operator: str = "\\cdot") -> str:
    """`count` calls of `function` on different letters joined by `operator`: `count - 1` products after a call."""
    return f" {operator} ".join(f"\\{function}({letter})" for letter in "abcdfghkmnpqrs"[:count])


@pytest.mark.parametrize("text, products", [
    (_chained("sin", 3), 2), ("2\\sin(x)\\cdot\\cos(x)", 1), ("\\sin a \\cdot \\sin b \\cdot \\sin c", 2),
    ("\\sin^{2}(a)\\cdot\\sin(b)^{2} / \\tan(c)", 2), ("\\sin\\left(a\\right) \\times \\ln\\left(b\\right)", 1),
    ("\\sin(\\sin(a) \\cdot \\sin(b)) \\cdot \\sin(c)", 2 + 2 + 1), ("\\sin(a)\\sin(b)\\sin(c)", 0),
    ("e^{a} \\cdot e^{b} \\cdot e^{c}", 0), ("\\frac{\\sin(a)}{2} \\cdot 3", 1), ("\\frac{\\sin(a)}{2} + 3", 0), ("\\sin(x) + 2 \\cdot 3", 0),
])
def test_function_products_count_the_calls_an_operator_follows(text: str, products: int) -> None:
    """A named call whose argument (past its scripts) an explicit `\\cdot`, `\\times`, `\\div`, `*` or `/` follows counts
    its depth, closing brackets and a fraction's next argument between (`\\sin(b)) \\cdot` as `(\\sin(b)) \\cdot`,
    `\\frac{\\sin(a)}{2} \\cdot`, fx29ai); juxtaposed calls, `e^{...}` and a call before a term's end count nothing."""
    assert function_products(text) == products


PAST_THE_PRODUCT_BOUND = [
    _chained("sin", MAX_FUNCTION_PRODUCTS + 2), _chained("ln", MAX_FUNCTION_PRODUCTS + 2, "\\times"),
    _chained("tan", MAX_FUNCTION_PRODUCTS + 2, "/"),
    "\\sin(\\sin(a) \\cdot \\sin(b) \\cdot \\sin(c)) \\cdot \\sin(d)",  # inner calls count their depth: 2 + 2 + 1
]


@pytest.mark.parametrize("latex", PAST_THE_PRODUCT_BOUND)
def test_products_of_calls_past_the_bound_are_refused(latex: str) -> None:
    """One product past `MAX_FUNCTION_PRODUCTS` (six `\\sin` 0.5-0.8 s, eight 0.9-1.8 s, twelve 2.9 s in a fresh process
    at load 3-4): an answer is refused before parsing; a gold is never parsed and only its own text pays."""
    assert function_products(latex) > MAX_FUNCTION_PRODUCTS
    refused = parse_prediction(latex)
    assert isinstance(refused, str) and "products after function calls" in refused and "too costly" in refused
    assert math_verdicts(f"\\boxed{{{latex}}}", "1") == ["incorrect", "incorrect"]
    from verifier.math import grade_math

    against_gold = grade_math({"completion": "\\boxed{1}", "gold": latex})
    assert against_gold["verdict"] == "incorrect" and "gold not compared" in against_gold["detail"], against_gold
    assert "products after function calls" in against_gold["detail"]
    assert math_verdicts(f"\\boxed{{{latex}}}", latex) == ["correct", "correct"]  # its own text, as written


@pytest.mark.parametrize("latex", [_chained("sin", MAX_FUNCTION_PRODUCTS + 1), _chained("ln", MAX_FUNCTION_PRODUCTS + 1, "\\times")])
def test_products_of_calls_at_the_bound_are_compared(latex: str) -> None:
    """At the bound (five `\\sin` 0.3-0.8 s at load 3-4) the answer is read: its own value written in another order pays,
    a wrong one does not."""
    assert function_products(latex) == MAX_FUNCTION_PRODUCTS and function_guard(latex) is None
    assert not isinstance(parse_prediction(latex), str)
    reordered = " \\cdot ".join(reversed(latex.split(" \\cdot "))) if "\\cdot" in latex else f"1 \\times {latex}"
    assert math_verdicts(f"\\boxed{{{reordered}}}", latex) == ["correct", "correct"]
    assert math_verdicts(f"\\boxed{{{latex}+1}}", latex) == ["incorrect", "incorrect"]


@pytest.mark.parametrize("completion, gold", [
    ("2\\sin(x)\\cdot\\cos(x)", "\\sin(2x)"), ("\\sin(a)\\cdot\\cos(b)+\\cos(a)\\cdot\\sin(b)", "\\sin(a+b)"),
    ("\\ln(2)\\cdot\\ln(3)", "\\ln(3)\\ln(2)"), ("\\sin(x) \\times \\cos(x) \\times \\cos(2x)", "\\frac{\\sin(4x)}{4}"),
    ("\\frac{\\sin(x)}{\\cos(x)} \\cdot \\cos(x)", "\\sin(x)"),
])
def test_realistic_products_of_calls_stay_correct(completion: str, gold: str) -> None:
    """Products of calls a real answer writes (1-2 after a call) are far inside the bound and still pay."""
    assert function_guard(completion) is None and function_guard(gold) is None
    assert math_verdicts(f"\\boxed{{{completion}}}", gold) == ["correct", "correct"]
    assert math_verdicts(f"\\boxed{{{completion}+1}}", gold) == ["incorrect", "incorrect"]


# fx29an (red team 19 class 9): calls inside a bracketed factor, juxtaposed `\Gamma`, `\Gamma` sums, calls of non-real numbers.
def _factors(factor: str, count: int, operator: str = " \\cdot ") -> str:
    """`count` factors `factor` of different letters (`{v}`) joined by `operator`."""
    return operator.join(factor.format(v=v) for v in "abcdfghkmn"[:count])


@pytest.mark.parametrize("text, products", [
    ("(\\sin(a)+1) \\cdot (\\sin(b)+1)", 1), ("(\\sin a + 1)(\\sin b + 1)", 1), ("(1+\\sin x)(1-\\sin x)", 1),
    ("\\left(\\sin a + \\cos b\\right) \\cdot 2", 2), ("\\frac{\\sin a + 1}{2} \\cdot 3", 1), ("((\\sin a + 1) + 1) \\cdot 2", 1),
    ("(\\sin x + \\cos x)^{2}", 0), ("2(\\sin x + 1)", 0), ("\\frac{\\sin a + 1}{2} + 1", 0), ("(\\sin a + 1) + (\\sin b + 1)", 0),
    ("\\sin(\\sin(a)+1) \\cdot 2", 1), ("\\Gamma(a)\\Gamma(b)", 2), ("\\frac{\\Gamma(a)\\Gamma(b)}{\\Gamma(a+b)}", 2),
    ("\\Gamma(a) + \\Gamma(b)", 0), ("\\sin(a)\\sin(b)\\sin(c)", 0),
])
def test_calls_in_a_factor_a_product_follows_count(text: str, products: int) -> None:
    """A bracketed factor (no call's argument) a product follows counts the depths of the calls in it not counted yet,
    read from its closing bracket (`\\frac{...}{2} \\cdot` past the next argument); a call before a juxtaposed `\\Gamma`
    is a product (`\\Gamma` is read as a call and as a letter). A factor before a term's end counts nothing."""
    assert function_products(text) == products


@pytest.mark.parametrize("factor, count, operator", [
    ("(\\sin({v})+1)", MAX_FUNCTION_PRODUCTS + 1, " \\cdot "), ("(\\sin({v}) - {v})", MAX_FUNCTION_PRODUCTS + 1, " \\cdot "),
    ("(\\sin {v} + 1)", MAX_FUNCTION_PRODUCTS + 1, ""), ("\\Gamma({v})", MAX_FUNCTION_PRODUCTS // 2 + 1, ""),
])
def test_factors_holding_calls_at_the_bound_are_compared(factor: str, count: int, operator: str) -> None:
    """At `MAX_FUNCTION_PRODUCTS` (five `(\\sin(a)+1)` factors 1.1-1.5 s at load 1.5-6, three juxtaposed `\\Gamma` 0.2-0.4 s):
    the answer is read, its factors in another order pay, a wrong one does not; one factor more is refused."""
    latex = _factors(factor, count, operator)
    assert function_products(latex) == MAX_FUNCTION_PRODUCTS and function_guard(latex) is None
    reordered = operator.join(factor.format(v=v) for v in reversed("abcdfghkmn"[:count]))
    assert math_verdicts(f"\\boxed{{{reordered}}}", latex) == ["correct", "correct"]
    assert math_verdicts(f"\\boxed{{{latex}+1}}", latex) == ["incorrect", "incorrect"]
    bigger = _factors(factor, count + 1, operator)
    assert function_products(bigger) > MAX_FUNCTION_PRODUCTS
    refused = parse_prediction(bigger)
    assert isinstance(refused, str) and "products after function calls" in refused


@pytest.mark.parametrize("calls, refused", [(MAX_FUNCTION_WORK // 4, False), (MAX_FUNCTION_WORK // 4 + 1, True)])
def test_gamma_calls_weigh_in_function_work(calls: int, refused: bool) -> None:
    """A bracketed `\\Gamma` weighs 4 in `MAX_FUNCTION_WORK`: four in a sum are read (their sum in another order pays),
    five are refused (nine with `e` and `i` among the letters took 25 s; fx29an)."""
    latex = _factors("\\Gamma({v})", calls, " + ")
    assert function_work(latex)[0] == 4 * calls
    assert (function_guard(latex) is not None) == refused
    reordered = " + ".join(reversed(latex.split(" + ")))
    if refused:
        reason = parse_prediction(latex)
        assert isinstance(reason, str) and "function work" in reason
    else:
        assert math_verdicts(f"\\boxed{{{reordered}}}", latex) == ["correct", "correct"]
        assert math_verdicts(f"\\boxed{{{latex}+1}}", latex) == ["incorrect", "incorrect"]


@pytest.mark.parametrize("latex", ["\\Gamma(e+i) + a + b + c + d + f", "\\sin(e+i) + a + b + c + d + f",
                                   "\\Gamma(e+i) + \\Gamma(e-i) + a + b + c + d + f"])
def test_calls_of_non_real_numbers_past_the_sampler_are_refused(latex: str) -> None:
    """A call of a non-real number among more than four letters (`MathLimits.max_complex_calls`, 0): a wrong answer
    reaches `simplify` (one `\\Gamma(e+i)` 1.3-2.2 s, two 5.6 s); refused as an answer and as a gold, its own text paid."""
    assert DEFAULT_LIMITS.max_complex_calls == 0
    refused = parse_prediction(latex)
    assert isinstance(refused, str) and "calls of numbers not plainly real" in refused
    assert math_verdicts(f"\\boxed{{{latex}}}", latex) == ["correct", "correct"]
    assert math_verdicts("\\boxed{1}", latex) == ["incorrect", "incorrect"]


@pytest.mark.parametrize("latex, reordered", [
    ("\\Gamma(e+i) + \\Gamma(e-i) + \\Gamma(2i) + a + b + c + x", "a + b + c + x + \\Gamma(2i) + \\Gamma(e-i) + \\Gamma(e+i)"),
    ("|1+i| + |1-i| + a + b + c + d + f", "a + b + c + d + f + |1-i| + |1+i|"),
    ("\\Gamma(e) + \\Gamma(\\pi) + a + b + c + d + f", "a + b + c + d + f + \\Gamma(\\pi) + \\Gamma(e)"),
])
def test_calls_of_non_real_numbers_within_the_sampler_or_cheap_are_compared(latex: str, reordered: str) -> None:
    """Four letters or fewer (disproved at a sample point, 0.2 s), an absolute value, or real arguments: read, a rewrite
    pays and a wrong answer does not."""
    assert not isinstance(parse_prediction(latex), str)
    assert math_verdicts(f"\\boxed{{{reordered}}}", latex) == ["correct", "correct"]
    assert math_verdicts(f"\\boxed{{{latex}+1}}", latex) == ["incorrect", "incorrect"]


# Red team 20 class 8: calls inside bars, and calls of numbers that hold no `i` but are not real (`\log(-1)`).
@pytest.mark.parametrize("text, products", [
    ("|\\sin(a)+1| \\cdot |\\sin(b)+1|", 1), ("\\left|\\sin(a)+1\\right| \\cdot 2", 1), ("\\lvert\\sin a + 1\\rvert \\cdot 2", 1),
    ("||\\sin(a)+1| - 1| \\cdot 2", 1), ("|\\sin a| + 1", 0), ("|\\sin(a)+1| + |\\sin(b)+1|", 0), ("2|\\sin x + 1|", 0),
])
def test_calls_in_bars_count_as_in_brackets(text: str, products: int) -> None:
    """A bar opens an absolute value after an operator, a bracket, a bar, `\\left` or nothing, and closes one after
    anything else (`guards._bar_closes`): its calls count at its closing bar as a bracketed factor's do."""
    assert function_products(text) == products


@pytest.mark.parametrize("factor", ["|\\sin({v})+1|", "\\left|\\sin({v})+1\\right|", "\\lvert\\sin({v})+1\\rvert"])
def test_factors_in_bars_at_the_bound_are_compared(factor: str) -> None:
    """Five bar factors holding a call are read (their reordering pays, a perturbed one does not); six are refused."""
    latex = _factors(factor, MAX_FUNCTION_PRODUCTS + 1)
    assert function_products(latex) == MAX_FUNCTION_PRODUCTS and function_guard(latex) is None
    reordered = " \\cdot ".join(factor.format(v=v) for v in reversed("abcdfghkmn"[:MAX_FUNCTION_PRODUCTS + 1]))
    assert math_verdicts(f"\\boxed{{{reordered}}}", latex) == ["correct", "correct"]
    assert math_verdicts(f"\\boxed{{{latex}+1}}", latex) == ["incorrect", "incorrect"]
    refused = parse_prediction(_factors(factor, MAX_FUNCTION_PRODUCTS + 2))
    assert isinstance(refused, str) and "products after function calls" in refused


@pytest.mark.parametrize("latex", ["\\Gamma(\\log(-1)) + a + b + c + d + f", "\\sin(\\log(-2)) + a + b + c + d + f",
                                   "\\Gamma(-\\ln 2) + a + b + c + d + f", "\\arcsin(2) + a + b + c + d + f"])
def test_calls_of_numbers_not_plainly_real_past_the_sampler_are_refused(latex: str) -> None:
    """A call of numbers counts unless its shape says it is real (`guards._plainly_real`, an allowlist): `\\log(-1)`
    holds no `i`, and `\\Gamma(\\log(-1))` beside five letters took over 25 s. Refused as an answer, its own text paid
    as a gold."""
    refused = parse_prediction(latex)
    assert isinstance(refused, str) and "calls of numbers not plainly real" in refused
    assert math_verdicts(f"\\boxed{{{latex}}}", latex) == ["correct", "correct"]
    assert math_verdicts("\\boxed{1}", latex) == ["incorrect", "incorrect"]


@pytest.mark.parametrize("latex, reordered", [
    ("\\ln(2) a + b + c + d + f", "f + d + c + b + a\\ln(2)"),
    ("\\sin(-1) + \\cos(\\pi - 4) + a + b + c + d + f", "a + b + c + d + f + \\cos(\\pi - 4) + \\sin(-1)"),
    ("\\Gamma(\\frac{1}{2}) + e^{2} + a + b + c + d + f", "a + b + c + d + f + e^{2} + \\Gamma(\\frac{1}{2})"),
    ("\\log(\\sqrt{2} + 1) + a + b + c + d + f", "a + b + c + d + f + \\log(1 + \\sqrt{2})"),
])
def test_calls_of_plainly_real_numbers_past_the_sampler_are_compared(latex: str, reordered: str) -> None:
    """Real by their shape: a function real on every real of real arguments, any other of positive ones. Read, a
    rewrite pays, a perturbed answer does not."""
    assert not isinstance(parse_prediction(latex), str)
    assert math_verdicts(f"\\boxed{{{reordered}}}", latex) == ["correct", "correct"]
    assert math_verdicts(f"\\boxed{{{latex}+1}}", latex) == ["incorrect", "incorrect"]

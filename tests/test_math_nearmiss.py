"""False-positive discipline: generated near misses must never score, equivalent rewrites must.

For each answer family (integers, fractions, surds, the constants e and pi, expressions, equations,
intervals, sets, tuples, matrices, sequences, percents, degrees, multiple choice) a Hypothesis
strategy draws a gold and returns cases built from it: perturbations of a right answer (sign, +-1,
swapped constants, a dropped factor or term, a changed exponent, interval openness, one set
element, tuple order, sequence terms, relation vs value, a rounded decimal of an exact gold) that
must grade `incorrect`, and equivalent rewrites (scaled fractions, `\\left(`, reordered sets,
expanded forms, `\\mathrm{e}`, `\\sqrt(2)`, slash fractions, percent and degree marks) that must
grade `correct`. Each answer is written boxed, after an answer anchor, or (lenient profile) as the
whole completion; everything goes through the real grader (math-verify and sympy).

Seeded (`derandomize=True`) with a bounded number of examples, so `make test` sees the same cases
every run. `generated_cases()` lists them for reports (see docs/math.md "Math grading rules").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from math import gcd

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from verifier.math import grade_math
from verifier.math.compare import equivalent
from verifier.math.limits import MathLimits
from verifier.math.parsing import parse_answer


@dataclass(frozen=True)
class Case:
    """One (gold, answer) pair and the verdict it must get."""

    family: str
    gold: str
    answer: str
    correct: bool
    why: str
    choices: tuple[str, ...] | None = None
    completion: str | None = None
    """The whole completion (strict profile), for prose; None: the answer is wrapped (`WRAPPERS`)."""


def near(family: str, gold: str, answer: str, why: str, **kw) -> Case:
    return Case(family, gold, answer, False, why, **kw)


def same(family: str, gold: str, answer: str, why: str, **kw) -> Case:
    return Case(family, gold, answer, True, why, **kw)


SMALL = st.integers(min_value=2, max_value=40)
SIGNED = st.integers(min_value=-60, max_value=60).filter(lambda n: n not in (0, 1, -1))
SQUAREFREE = st.sampled_from([2, 3, 5, 6, 7, 10, 11, 13])


def frac(p: int, q: int) -> str:
    return f"-\\frac{{{-p}}}{{{q}}}" if p < 0 else f"\\frac{{{p}}}{{{q}}}"


def rounded(value: float, places: int) -> str:
    return f"{value:.{places}f}"


@st.composite
def integers(draw) -> list[Case]:
    n = draw(SIGNED)
    f = "integer"
    return [
        near(f, str(n), str(-n), "sign"),
        near(f, str(n), str(n + 1), "plus one"),
        near(f, str(n), str(n - 1), "minus one"),
        near(f, str(n), str(10 * n), "extra digit"),
        near(f, str(n), f"x = {n + 1}", "relation with a wrong value"),
        same(f, str(n), f"{n}.0", "exact decimal"),
        same(f, str(n), f"\\left({n}\\right)", "\\left( \\right)"),
        same(f, str(n), f"x = {n}", "lone variable = value"),
    ]


@st.composite
def fractions(draw) -> list[Case]:
    q = draw(st.integers(min_value=3, max_value=30))
    p = draw(st.integers(min_value=1, max_value=4 * q).filter(lambda p: gcd(p, q) == 1 and p % q))
    k = draw(st.integers(min_value=2, max_value=9))
    gold = frac(p, q)
    f = "fraction"
    cases = [
        near(f, gold, frac(-p, q), "sign"),
        near(f, gold, frac(p + 1, q), "numerator plus one"),
        near(f, gold, frac(p, q + 1), "denominator plus one"),
        near(f, gold, frac(q, p) if p != 1 else str(q), "reciprocal"),
        near(f, gold, str(p), "dropped denominator"),
        same(f, gold, frac(k * p, k * q), "scaled fraction"),
        same(f, gold, f"{p}/{q}", "slash fraction"),
        same(f, gold, f"\\dfrac{{{p}}}{{{q}}}", "dfrac"),
    ]
    value = Fraction(p, q)
    if 10**6 % q:  # not a terminating decimal: rounding it is an approximation
        cases.append(near(f, gold, rounded(p / q, 2), "rounded to 2 decimals"))
        cases.append(near(f, gold, rounded(p / q, 3), "rounded to 3 decimals"))
    else:
        cases.append(same(f, gold, str(float(value)), "exact decimal"))
    return cases


@st.composite
def surds(draw) -> list[Case]:
    n = draw(SQUAREFREE)
    a = draw(st.integers(min_value=2, max_value=9))
    gold = f"{a}\\sqrt{{{n}}}"
    f = "surd"
    value = a * n**0.5
    return [
        near(f, gold, f"-{a}\\sqrt{{{n}}}", "sign"),
        near(f, gold, f"{a + 1}\\sqrt{{{n}}}", "coefficient plus one"),
        near(f, gold, f"{a}\\sqrt{{{n + 1}}}", "radicand plus one"),
        near(f, gold, str(a), "dropped factor"),
        near(f, gold, f"\\sqrt{{{n}}}", "dropped coefficient"),
        near(f, gold, f"{a}\\sqrt({n + 1})", "\\sqrt() with a wrong radicand"),
        near(f, gold, f"{a}\\sqrt[3]{{{n}}}", "changed root"),
        near(f, gold, rounded(value, 2), "rounded to 2 decimals"),
        near(f, gold, f"{value:.3g}", "rounded to 3 significant digits"),
        same(f, gold, f"\\sqrt{{{a * a * n}}}", "radicand absorbed"),
        same(f, gold, f"{a}\\sqrt({n})", "\\sqrt() parentheses"),
        same(f, gold, f"\\sqrt{{{n}}} \\cdot {a}", "reordered product"),
    ] + ([same(f, gold, f"{a}\\sqrt {n}", "\\sqrt without braces")] if n < 10 else [])


@st.composite
def constants(draw) -> list[Case]:
    a = draw(st.integers(min_value=1, max_value=9))
    b = draw(st.integers(min_value=2, max_value=9))
    c = draw(st.sampled_from(["e", "\\pi"]))
    other = "\\pi" if c == "e" else "e"
    written = draw(st.sampled_from(["e", "\\mathrm{e}"])) if c == "e" else c
    gold = f"{a} - \\frac{{{b}}}{{{written}}}"
    f = "constant"
    swap = "\\mathrm{e}" if written == "e" else "e"
    import math

    value = a - b / (math.e if c == "e" else math.pi)
    cases = [
        near(f, gold, f"{a} + \\frac{{{b}}}{{{written}}}", "sign"),
        near(f, gold, f"{a} - \\frac{{{b}}}{{{other}}}", "swapped constant"),
        near(f, gold, f"{a} - \\frac{{{b + 1}}}{{{written}}}", "numerator plus one"),
        near(f, gold, f"{a} - \\frac{{{b}}}{{{written}^{{2}}}}", "changed exponent"),
        near(f, gold, str(a), "dropped term"),
        near(f, gold, f"\\frac{{{b}}}{{{written}}}", "dropped term"),
        near(f, gold, rounded(value, 2), "rounded to 2 decimals"),
        same(f, gold, f"{a} - \\frac{{{b}}}{{{swap if c == 'e' else c}}}", "\\mathrm{e} = e"),
        same(f, gold, f"\\frac{{{a}{written} - {b}}}{{{written}}}", "one fraction"),
        same(f, gold, f"-\\frac{{{b}}}{{{written}}} + {a}", "reordered terms"),
    ]
    if c == "\\pi":
        cases.append(near(f, "\\pi", "3.14", "rounded pi"))
        cases.append(same(f, "\\pi", "3.141593", "pi at 6 decimals"))
    return cases


@st.composite
def expressions(draw) -> list[Case]:
    a = draw(st.integers(min_value=1, max_value=9))
    b = draw(st.integers(min_value=1, max_value=9).filter(lambda b: b != a))
    gold = f"(x+{a})(x-{b})"
    f = "expression"
    return [
        near(f, gold, f"(x-{a})(x-{b})", "sign"),
        near(f, gold, f"(x+{a})(x+{b})", "sign"),
        near(f, gold, f"(x+{a + 1})(x-{b})", "plus one"),
        near(f, gold, f"x^2 + {a - b}x", "dropped term"),
        near(f, gold, f"(x+{a})^2(x-{b})", "changed exponent"),
        near(f, gold, f"x+{a}", "dropped factor"),
        near(f, gold, f"(y+{a})(y-{b})", "swapped variable"),
        same(f, gold, f"x^2 + {a - b}x - {a * b}".replace("+ -", "- "), "expanded"),
        same(f, gold, f"(x-{b})(x+{a})", "reordered factors"),
        same(f, gold, f"\\left(x+{a}\\right)\\left(x-{b}\\right)", "\\left( \\right)"),
    ]


@st.composite
def equations(draw) -> list[Case]:
    a = draw(st.integers(min_value=2, max_value=9))
    b = draw(st.integers(min_value=1, max_value=9))
    f = "equation"
    gold = f"y = {a}x + {b}"
    rel = f"x + z = {b}"
    return [
        near(f, gold, f"y = {a}x - {b}", "sign"),
        near(f, gold, f"y = {a + 1}x + {b}", "plus one"),
        near(f, gold, f"y = {a}x", "dropped term"),
        near(f, gold, f"{a}x + {b + 1}", "relation vs value, plus one"),
        near(f, gold, f"y = {a}x^2 + {b}", "changed exponent"),
        near(f, rel, str(b), "relation gold vs its right-hand side"),
        near(f, rel, f"x + z = {b + 1}", "relation plus one"),
        near(f, f"x = {b}", str(b + 1), "lone variable, wrong value"),
        same(f, gold, f"y = {b} + {a}x", "reordered terms"),
        same(f, f"x = {b}", str(b), "lone variable = value"),
        same(f, gold, f"{a}x + {b}", "lone variable = expression"),
        same(f, rel, f"z + x = {b}", "reordered relation"),
    ]


def interval(lo: int, hi: int, left_open: bool, right_open: bool, sized: bool = False) -> str:
    left, right = "(" if left_open else "[", ")" if right_open else "]"
    if sized:
        return f"\\left{left}{lo}, {hi}\\right{right}"
    return f"{left}{lo}, {hi}{right}"


@st.composite
def intervals(draw) -> list[Case]:
    lo = draw(st.integers(min_value=-20, max_value=20))
    hi = lo + draw(st.integers(min_value=1, max_value=20))
    lo_open, hi_open = draw(st.booleans()), draw(st.booleans())
    if lo_open and hi_open:
        hi_open = False  # (a, b) would read as a tuple
    gold = interval(lo, hi, lo_open, hi_open)
    f = "interval"
    return [
        near(f, gold, interval(lo, hi, not lo_open, hi_open), "left openness"),
        near(f, gold, interval(lo, hi, lo_open, not hi_open), "right openness") if lo_open is False or hi_open
        else near(f, gold, interval(lo, hi + 1, lo_open, hi_open), "upper plus one"),
        near(f, gold, interval(lo - 1, hi, lo_open, hi_open), "lower minus one"),
        near(f, gold, interval(-hi, -lo, lo_open, hi_open) if lo != -hi else interval(lo, hi + 2, lo_open, hi_open), "sign"),
        same(f, gold, interval(lo, hi, lo_open, hi_open, sized=True), "\\left[ \\right)"),
    ]


def latex_set(items: list[str]) -> str:
    return "\\{" + ", ".join(items) + "\\}"


@st.composite
def sets(draw) -> list[Case]:
    items = draw(st.lists(st.integers(min_value=-30, max_value=30), min_size=2, max_size=4, unique=True))
    extra = draw(st.integers(min_value=31, max_value=60))
    gold = latex_set([str(i) for i in items])
    f = "set"
    perm = draw(st.permutations(items))
    return [
        near(f, gold, latex_set([str(i) for i in items[:-1]] + [str(extra)]), "one element replaced"),
        near(f, gold, latex_set([str(i) for i in items[:-1]]), "one element dropped"),
        near(f, gold, latex_set([str(i) for i in items] + [str(extra)]), "one element added"),
        near(f, gold, latex_set([str(i) for i in items[1:]] + [str(items[0] + 1) if items[0] + 1 not in items else str(extra)]), "element plus one"),
        same(f, gold, latex_set([str(i) for i in perm]), "reordered"),
        same(f, gold, ", ".join(str(i) for i in perm), "bare list"),
    ]


@st.composite
def tuples(draw) -> list[Case]:
    a, b = draw(st.lists(st.integers(min_value=-30, max_value=30), min_size=2, max_size=2, unique=True))
    q = draw(st.integers(min_value=3, max_value=9))
    gold = f"({a}, {frac(b, q)})"
    f = "tuple"
    return [
        near(f, gold, f"({frac(b, q)}, {a})", "order"),
        near(f, gold, f"({a + 1}, {frac(b, q)})", "plus one"),
        near(f, gold, f"({a}, {frac(b + 1, q)})", "second plus one"),
        near(f, gold, f"({a})", "dropped element"),
        near(f, gold, f"({a}, {frac(b, q)}, 0)", "extra element"),
        near(f, gold, f"({-a if a else 1}, {frac(b, q)})", "sign"),
        same(f, gold, f"\\left({a}, {frac(2 * b, 2 * q)}\\right)", "\\left( and a scaled fraction"),
        same(f, gold, f"({a}, {b}/{q})", "slash fraction"),
    ]


def pmatrix(rows: list[list[int]]) -> str:
    body = " \\\\ ".join(" & ".join(str(x) for x in row) for row in rows)
    return f"\\begin{{pmatrix}} {body} \\end{{pmatrix}}"


@st.composite
def matrices(draw) -> list[Case]:
    cells = draw(st.lists(st.integers(min_value=-9, max_value=9), min_size=4, max_size=4))
    rows = [cells[:2], cells[2:]]
    gold = pmatrix(rows)
    f = "matrix"
    bumped = [[rows[0][0] + 1, rows[0][1]], rows[1]]
    cases = [
        near(f, gold, pmatrix(bumped), "one entry plus one"),
        near(f, gold, pmatrix([[-x for x in r] for r in rows]) if any(cells) else pmatrix(bumped), "sign"),
        near(f, gold, pmatrix([rows[0]]), "dropped row"),
        same(f, gold, gold.replace("pmatrix", "bmatrix"), "bmatrix"),
    ]
    if rows[0][1] != rows[1][0]:
        cases.append(near(f, gold, pmatrix([[rows[0][0], rows[1][0]], [rows[0][1], rows[1][1]]]), "transposed"))
    return cases


@st.composite
def sequences(draw) -> list[Case]:
    a = draw(st.integers(min_value=1, max_value=5))
    d = draw(st.integers(min_value=2, max_value=5))
    terms = [a + i * d for i in range(4)]
    gold = ", ".join(str(t) for t in terms)
    f = "sequence"
    general = f"{a}, {a + d}, \\ldots, {d}n{a - d:+d}" if a != d else f"{a}, {a + d}, \\ldots, {d}n"
    return [
        near(f, gold, ", ".join(str(t) for t in terms[:-1]), "dropped term"),
        near(f, gold, ", ".join(str(t) for t in terms[:-1] + [terms[-1] + 1]), "last term plus one"),
        near(f, general, f"{a + d}, {a}, \\ldots, {d}n{a - d:+d}", "\\ldots sequence, swapped terms"),
        near(f, general, f"{a}, {a + 1}, \\ldots, n", "\\ldots sequence with another step"),
        near(f, general, f"{a}, {a + d + 1}, \\ldots, {d}n{a - d:+d}", "\\ldots sequence, second term plus one"),
        same(f, gold, f"{terms[0]},{terms[1]},{terms[2]},{terms[3]}", "spacing"),
        same(f, general, general.replace(", ", ","), "\\ldots sequence spacing"),
    ]


@st.composite
def percents(draw) -> list[Case]:
    p = draw(st.integers(min_value=1, max_value=99))
    gold = f"{p}\\%"
    f = "percent"
    return [
        near(f, gold, f"{p + 1}\\%", "plus one"),
        near(f, gold, f"{p / 10:g}\\%", "shifted decimal"),
        near(f, gold, str(p + 1), "plus one without the mark"),
        same(f, gold, str(p), "without the mark"),
        same(f, gold, f"{p}%", "unescaped mark"),
        same(f, gold, f"{p / 100:g}", "as a fraction of one"),
    ]


@st.composite
def degrees(draw) -> list[Case]:
    a = draw(st.integers(min_value=1, max_value=359))
    gold = f"{a}^\\circ"
    f = "degree"
    return [
        near(f, gold, f"{a + 1}^\\circ", "plus one"),
        near(f, gold, f"{a + 180}^\\circ", "plus 180"),
        near(f, gold, f"-{a}^\\circ", "sign"),
        same(f, gold, str(a), "without the mark"),
        same(f, gold, f"{a}^{{\\circ}}", "braced mark"),
        same(f, str(a), f"{a}^\\circ", "mark on the answer only"),
    ]


@st.composite
def multiple_choice(draw) -> list[Case]:
    n = draw(st.integers(min_value=3, max_value=6))
    choices = tuple(f"{10 * i + 7}" for i in range(n))
    gold_i = draw(st.integers(min_value=0, max_value=n - 1))
    other = (gold_i + draw(st.integers(min_value=1, max_value=n - 1))) % n
    gold, wrong = chr(65 + gold_i), chr(65 + other)
    f = "choice"
    kw = {"choices": choices}
    return [
        near(f, gold, wrong, "another letter", **kw),
        near(f, gold, f"{gold} or {wrong}", "hedge", **kw),
        near(f, gold, choices[other], "another choice's text", **kw),
        same(f, gold, f"({gold})", "parenthesised letter", **kw),
        same(f, gold, choices[gold_i], "choice text", **kw),
        same(f, gold, f"\\text{{{gold}}}", "\\text letter", **kw),
        near(f, gold, f"{gold} ({choices[other]})", "the right letter with another choice's value", **kw),
        near(f, gold, f"{gold} ({int(choices[gold_i]) + 1})", "the right letter with a perturbed value", **kw),
        same(f, gold, f"{gold} ({choices[gold_i]})", "the right letter with its own value", **kw),
        Case(f, gold, "", False, "anchored letter, wrong value", choices=choices,
             completion=f"Thus, the answer is {gold} ({int(choices[gold_i]) + 1})."),
        Case(f, gold, "", False, "Chinese anchor, letter with a wrong value", choices=choices,
             completion=f"\u6240\u4ee5\uff0c\u7b54\u6848\u662f {gold} ({int(choices[gold_i]) + 1})\u3002"),
        Case(f, gold, "", True, "anchored letter with its value", choices=choices,
             completion=f"Thus, the answer is {gold} ({choices[gold_i]})."),
    ]


MINUS = "\u2212"  # U+2212 MINUS SIGN


def prose(family: str, gold: str, completion: str, correct: bool, why: str) -> Case:
    """A case whose completion is a whole sentence (anchored prose), graded as written."""
    return Case(family, gold, "", correct, why, completion=completion)


@st.composite
def unicode_minus(draw) -> list[Case]:
    n = draw(st.integers(min_value=1, max_value=500))
    f = "unicode_minus"
    return [
        near(f, str(n), f"{MINUS}{n}", "sign dropped through U+2212"),
        near(f, f"-{n}", f"{MINUS}{n + 1}", "U+2212, minus one"),
        near(f, f"\\frac{{{n}}}{{{n + 1}}}", f"{MINUS}\\frac{{{n}}}{{{n + 1}}}", "U+2212 before a fraction"),
        prose(f, str(n), f"The answer is {MINUS}{n} degrees Celsius.", False, "prose, sign dropped"),
        prose(f, str(n), f"The answer is the temperature fell to {MINUS}{n} degrees.", False, "prose sentence, sign dropped"),
        same(f, f"-{n}", f"{MINUS}{n}", "U+2212 is a minus"),
        same(f, f"{MINUS}{n}", f"-{n}", "U+2212 in the gold"),
        prose(f, f"-{n}", f"The answer is {MINUS}{n} degrees Celsius.", True, "prose with U+2212"),
    ]


@st.composite
def stated_numbers(draw) -> list[Case]:
    n = draw(st.integers(min_value=2, max_value=9999))
    a = draw(st.integers(min_value=1, max_value=n - 1))
    k = draw(st.integers(min_value=1, max_value=9))
    f = "stated_number"
    money = f"{n:,}"
    sentences = [
        "The answer is Maria's savings were ${}.",
        "The answer is {} apples!",
        "The answer is y equals {}.",
        "The answer is {} MB.",
        f"The answer is: Total = ${a} + ${n - a} = ${{}}.",
        "The answer is the class has {} students in total.",
    ]
    cases = []
    for sentence in sentences:
        cases.append(prose(f, str(n), sentence.format(money), True, "the stated number"))
        cases.append(prose(f, str(n), sentence.format(f"{n + k:,}"), False, "another number after is"))
        cases.append(prose(f, str(n), sentence.format(f"{n} thousand"), False, "a word that changes the number"))
    cases.append(prose(f, str(a), f"The answer is: Total = ${a} + ${n - a} = ${money}.", False, "an earlier side of the chain"))
    cases.append(prose(f, str(n), f"The answer is negative {n}.", False, "negative in words"))
    cases.append(prose(f, str(n), f"The answer is {n}x apples.", False, "a coefficient"))
    return cases


@st.composite
def hedges(draw) -> list[Case]:
    n, m = draw(st.lists(st.integers(min_value=1, max_value=999), min_size=2, max_size=2, unique=True))
    f = "hedge"
    cases = []
    for sentence in ("The answer is {n} or {m}.", "The answer is either {n} or {m}.", "The answer is {n}, or maybe {m}.",
                     "The answer is x = {n} or x = {m}.", "The answer is {n} apples or {m} apples.",
                     "The answer is neither {n} nor {m}.", "The answer is {n} and {m}."):
        cases.append(prose(f, str(n), sentence.format(n=n, m=m), False, "hedge, first value"))
        cases.append(prose(f, str(m), sentence.format(n=n, m=m), False, "hedge, second value"))
    cases.append(prose(f, str(n), f"The answer is not {n} but {m}.", False, "negated value"))
    cases.append(prose(f, str(n), f"The answer is x = {n}, y = {m}.", False, "the first of several values"))
    cases.append(prose(f, str(m), f"The answer is x = {n}, y = {m}.", False, "the last of several values"))
    cases.append(prose(f, str(m), f"It is not {n}. The answer is {m}.", True, "a correction, then one value"))
    return cases


@st.composite
def separators(draw) -> list[Case]:
    k = draw(st.integers(min_value=1, max_value=999))
    f = "separator"
    thousand = str(k * 1000)
    return [
        near(f, thousand, f"{k}.000", "decimal point for a thousands separator"),
        near(f, str(k), f"{k},000", "thousands comma against the small gold"),
        near(f, str(k), f"{k}000", "three zeros added"),
        near(f, str(k), f"{k}.000.000", "a longer numeral"),
        prose(f, thousand, f"The answer is ${k}.000.", False, "prose, decimal point"),
        prose(f, str(k), f"The answer is ${k},000.", False, "prose, thousands comma"),
        prose(f, str(k), f"The answer is {k}.000.000 dollars.", False, "prose, a longer numeral"),
        same(f, thousand, f"{k},000", "thousands comma"),
        same(f, thousand, f"\\${k},000", "currency and thousands comma"),
        prose(f, thousand, f"The answer is ${k},000.", True, "prose amount"),
        same(f, thousand, f"{k}\u00a0000", "non-breaking space separator"),
        near(f, str(k), f"{k}\u2009000", "thin space separator against the small gold"),
    ]


@st.composite
def ordinals(draw) -> list[Case]:
    n = draw(st.integers(min_value=4, max_value=20))
    f = "ordinal"
    return [
        near(f, str(n), f"{n + 1}th", "plus one"),
        near(f, str(n), f"{n - 1}^{{\\mathrm{{th}}}}", "minus one, superscript suffix"),
        near(f, f"{n}^{{\\mathrm{{th}}}}", str(n + 1), "ordinal gold, plus one"),
        near(f, str(n), f"{n + 1}th Day", "plus one, with a noun"),
        prose(f, str(n), f"The answer is the {n + 1}th day.", False, "prose, plus one"),
        same(f, str(n), f"{n}th", "suffix"),
        same(f, str(n), f"{n}th Day", "suffix and noun"),
        same(f, f"{n}^{{\\mathrm{{th}}}}", str(n), "ordinal gold"),
        same(f, str(n), f"{n}^{{\\text{{th}}}}", "superscript suffix"),
        prose(f, str(n), f"The answer is the {n}th day.", True, "prose ordinal"),
    ]


@st.composite
def interval_unions(draw) -> list[Case]:
    a, b, c, d = sorted(draw(st.lists(st.integers(min_value=-30, max_value=30), min_size=4, max_size=4, unique=True)))
    f = "interval_union"
    gold = f"({a}, {b}] \\cup [{c}, {d})"

    def boxed(answer: str, correct: bool, why: str) -> Case:
        return Case(f, gold, "", correct, why, completion=f"We solve. \\boxed{{{answer}}}")

    return [
        near(f, gold, f"({a}, {b}) \\cup [{c}, {d})", "one endpoint opened"),
        near(f, gold, f"({a}, {b}] \\cup ({c}, {d})", "one endpoint opened"),
        near(f, gold, f"[{a}, {b}] \\cup [{c}, {d})", "one endpoint closed"),
        near(f, gold, f"({a}, {b}]", "one part"),
        boxed(f"{a} < t < {b} \\text{{ or }} {c} \\le t < {d}", False, "inequalities, one endpoint opened"),
        boxed(f"{a} < t \\le {b} \\text{{ or }} {c} < t < {d}", False, "inequalities, one endpoint opened"),
        boxed(f"({a}, {b}) \u222a [{c}, {d})", False, "Unicode union, one endpoint opened"),
        boxed(f"{a} < t \\le {b}", False, "one inequality"),
        same(f, gold, f"[{c}, {d}) \\cup ({a}, {b}]", "reordered union"),
        boxed(f"{a} < t \\le {b} \\text{{ or }} {c} \\le t < {d}", True, "inequalities"),
        boxed(f"({a}, {b}] \u222a [{c}, {d})", True, "Unicode union"),
    ]


@st.composite
def decimal_commas(draw) -> list[Case]:
    """A European decimal comma (`1000,99`) is read only where it cannot be a thousands grouping or
    a list, and only against a single number (docs/math.md "Math grading rules")."""
    w = draw(st.integers(min_value=1, max_value=999))
    d = draw(st.integers(min_value=1, max_value=99).filter(lambda n: n % 10))
    t = draw(st.integers(min_value=101, max_value=999).filter(lambda n: n % 10))
    f = "decimal_comma"
    dec, comma = f"{w}.{d}", f"{w},{d}"
    other = f"{w},{d + 1 if d % 10 != 9 else d - 1}"
    return [
        near(f, dec, other, "decimal comma, another last digit"),
        near(f, dec, f"-{comma}", "decimal comma, sign"),
        near(f, dec, f"{w},{d}0" if d >= 10 else f"{w},{d}00", "three digits after the comma: a thousands grouping"),
        near(f, str(int(f"{w}{d}")), comma, "decimal comma against the digits run together"),
        near(f, comma, str(int(f"{w}{d}")), "decimal comma gold against the digits run together"),
        near(f, dec, f"{w}, {d}", "a comma and a space: a list"),
        near(f, dec, f"({w},{d})", "a pair"),
        near(f, f"({w}, {d})", dec, "a pair gold"),
        near(f, f"{w}, {d}", dec, "a list gold"),
        near(f, f"0,{t}", str(t), "zero integer part, not a grouping"),
        near(f, str(t), f"0,{t}", "zero integer part against the grouped number"),
        same(f, dec, comma, "decimal comma"),
        same(f, comma, dec, "decimal comma gold"),
        same(f, f"0.{t}", f"0,{t}", "zero integer part, three decimals"),
        same(f, f"{w}, {d}", comma, "a list written without a space"),
        same(f, f"({w}, {d})", f"({w},{d})", "a pair written without a space"),
    ]


@st.composite
def set_relations(draw) -> list[Case]:
    """`x \\in [a, b]` and the chain `a \\le x \\le b` are one interval (docs/math.md "Math grading rules")."""
    a, b = sorted(draw(st.lists(st.integers(min_value=-30, max_value=30), min_size=2, max_size=2, unique=True)))
    f = "set_relation"
    gold = f"x \\in [{a}, {b}]"
    return [
        near(f, gold, f"{a} < x \\le {b}", "left endpoint opened"),
        near(f, gold, f"{a} \\le x < {b}", "right endpoint opened"),
        near(f, gold, f"{a} \\\\le x \\\\lt {b}", "doubled backslashes, right endpoint opened"),
        near(f, gold, f"{a} \\le x \\le {b + 1}", "right endpoint plus one"),
        near(f, gold, f"x \\ge {a}", "one-sided"),
        near(f, f"x \\in ({a}, {b}]", f"{a} \\le x \\le {b}", "half-open gold, closed chain"),
        near(f, f"{a} \\le x \\le {b}", f"x \\in ({a}, {b}]", "closed chain gold, half-open set"),
        same(f, gold, f"{a} \\le x \\le {b}", "chain"),
        same(f, gold, f"{a} \\\\le x \\\\le {b}", "chain with doubled backslashes"),
        same(f, f"x \\in ({a}, {b}]", f"{a} < x \\leq {b}", "half-open"),
        same(f, f"{a} \\le x \\le {b}", gold, "chain gold"),
        same(f, gold, f"{b} \\ge x \\ge {a}", "reversed chain"),
        same(f, gold, f"{a} \\le y \\le {b}", "another name (names are not compared: x = 5 answers y = 5)"),
    ]


@st.composite
def yes_no(draw) -> list[Case]:
    """A Yes/No gold against a sentence that opens with a bare Yes or No (docs/math.md "Math grading rules")."""
    word = draw(st.sampled_from(["Yes", "No"]))
    other = "No" if word == "Yes" else "Yes"
    reason = draw(st.sampled_from(["such integers exist", "it is not always possible", "there are 3 of them"]))
    f = "yes_no"
    gold = f"\\text{{{word}}}"

    def boxed(answer: str, why: str) -> Case:  # a sentence is an answer only where the model commits to it
        return Case(f, gold, "", True, why, completion=f"So \\boxed{{{answer}}}")

    return [
        near(f, gold, f"\\text{{{other}, {reason}.}}", "the other word, then a reason"),
        near(f, gold, f"\\text{{{word}, or {other.lower()}}}", "a hedge after the word"),
        near(f, gold, f"\\text{{{word}, but {reason}}}", "a but after the word"),
        near(f, gold, f"\\text{{{word} such {reason}}}", "no bare opening word"),
        near(f, f"\\text{{{word}, {reason}.}}", other, "sentence gold, the other word"),
        boxed(f"\\text{{{word}, {reason}.}}", "the word, then a reason"),
        boxed(f"\\text{{{word.lower()}. {reason}}}", "lower case, a period"),
        same(f, f"\\text{{{word}, {reason}.}}", word, "sentence gold, the bare word"),
    ]


FAMILIES = {
    "integers": integers(),
    "fractions": fractions(),
    "surds": surds(),
    "constants": constants(),
    "expressions": expressions(),
    "equations": equations(),
    "intervals": intervals(),
    "sets": sets(),
    "tuples": tuples(),
    "matrices": matrices(),
    "sequences": sequences(),
    "percents": percents(),
    "degrees": degrees(),
    "multiple_choice": multiple_choice(),
    "unicode_minus": unicode_minus(),
    "stated_numbers": stated_numbers(),
    "hedges": hedges(),
    "separators": separators(),
    "ordinals": ordinals(),
    "interval_unions": interval_unions(),
    "decimal_commas": decimal_commas(),
    "set_relations": set_relations(),
    "yes_no": yes_no(),
}
# The answer grammar (issue 29; docs/math.md "Answer grammar"): after an anchor or inside a box a
# value is read only when every word around it is admitted. Each family below perturbs a right
# number with words the grammar must refuse, and rewrites it with words it must admit.
def anchored(family: str, gold: str, sentence: str, correct: bool, why: str) -> Case:
    return prose(family, gold, f"The answer is {sentence}", correct, why)


def boxed_text(family: str, gold: str, content: str, correct: bool, why: str) -> Case:
    return Case(family, gold, "", correct, why, completion=f"We compute. \\boxed{{{content}}}")


def grammar_rewrites(family: str, n: int) -> list[Case]:
    """Right answers the grammar admits: units, currencies, counted nouns, relative phrases, angles."""
    g = str(n)
    return [
        anchored(family, g, f"{n} cm.", True, "a unit"),
        anchored(family, g, f"{n} m/s.", True, "a compound unit"),
        anchored(family, g, f"{n} cm\u00b3.", True, "a superscript power"),
        anchored(family, g, f"\u00a3{n}.", True, "pound sign"),
        anchored(family, g, f"\u20b9{n}.", True, "rupee sign"),
        anchored(family, g, f"{n} EUR.", True, "currency code"),
        anchored(family, g, f"{n} times.", True, "counted noun `times`"),
        anchored(family, g, f"{n} apples.", True, "counted noun"),
        anchored(family, g, f"Sam swam {n} meters farther than Lee.", True, "relative phrase"),
        anchored(family, g, f"{n} fewer.", True, "relative phrase"),
        anchored(family, g, f"\u2220PQR = {n}\u00b0.", True, "angle notation"),
        anchored(family, g, f"\u22203 is {n} degrees", True, "angle name with a digit"),
        anchored(family, g, f"y \u7684\u503c\u662f {n} cm", True, "Chinese subject"),
        boxed_text(family, g, f"{n} \\text{{ cm}}^3", True, "unit in a box"),
        boxed_text(family, g, f"{n}\\,\\mathrm{{kg}}", True, "mathrm unit in a box"),
        boxed_text(family, g, f"{n} \\text{{ students}}", True, "counted noun in a box"),
    ]


@st.composite
def multipliers(draw) -> list[Case]:
    """Words that scale the number, in several languages and number systems: never the bare number."""
    n = draw(st.integers(min_value=2, max_value=99))
    f = "multiplier"
    words = ["thousand", "million", "billion", "Mio.", "Mrd.", "lac", "lakh", "crore", "thou", "bn", "k", "K",
             "hundred", "dozen", "score", "gross", "ten-thousandths", "Millionen", "mille", "millones", "\u4e07", "\u5343",
             "\u4ebf", "\u767e", "\u0442\u044b\u0441\u044f\u0447", "\u500d", "squared", "percent of a million"]
    word = draw(st.sampled_from(words))
    return [
        anchored(f, str(n), f"{n} {word}.", False, f"`{word}` after the number"),
        anchored(f, str(n), f"{n}{word}.", False, f"`{word}` glued to the number"),
        prose(f, str(n), f"\u7b54\u6848\u662f {n} {word}", False, f"Chinese anchor, `{word}`"),
        prose(f, str(n), f"Final Answer: ${n}$ {word}", False, f"`{word}` after a math segment"),
        boxed_text(f, str(n), f"{n} \\text{{ {word}}}", False, f"`{word}` in a box's text"),
    ] + grammar_rewrites(f, n)


@st.composite
def hedges_and_retractions(draw) -> list[Case]:
    """A hedged, negated or retracted value is no answer."""
    n = draw(st.integers(min_value=2, max_value=999))
    f = "hedge_retraction"
    sentences = ["possibly {n}.", "about {n}.", "approximately {n}.", "roughly {n}.", "nearly {n}.", "maybe {n}.",
                 "I doubt it is {n}.", "{n}? Wrong.", "{n}?", "{n} unless n is odd.", "{n}, I think.", "not {n}.",
                 "negative {n}.", "minus {n}.", "{n} below zero.", "it could be {n}.", "it might be {n}.", "{n} or so.",
                 "{n}, probably.", "{n} (wrong).", "{n} is wrong.", "\u7ea6 {n}.", "etwa {n}.", "environ {n}."]
    sentence = draw(st.sampled_from(sentences)).format(n=n)
    return [
        anchored(f, str(n), sentence, False, "hedge, negation or retraction"),
        boxed_text(f, str(n), f"{n} \\text{{ (probably)}}", False, "hedge in a box"),
        boxed_text(f, str(n), f"\\text{{about }} {n}", False, "hedge before the number in a box"),
    ] + grammar_rewrites(f, n)


@st.composite
def second_values(draw) -> list[Case]:
    """A second value or an inequality: neither value is paid."""
    n, m = draw(st.lists(st.integers(min_value=2, max_value=999), min_size=2, max_size=2, unique=True))
    f = "second_value"
    sentences = ["{n} or {m}.", "between {n} and {m}.", "{n} to {m}.", "at least {n}.", "at most {n}.", "more than {n}.",
                 "less than {n}.", "fewer than {n} apples.", "over {n}.", "under {n}.", "up to {n}.", "{n} apples and {m} pears.",
                 "{n}, not {m}.", "{n} plus or minus {m}.", "{n} times {m}.", "{n} out of {m}."]
    sentence = draw(st.sampled_from(sentences)).format(n=n, m=m)
    return [
        anchored(f, str(n), sentence, False, "second value or inequality, first value"),
        anchored(f, str(m), sentence, False, "second value or inequality, second value"),
        boxed_text(f, str(n), f"{n} \\text{{ or more}}", False, "inequality in a box"),
    ] + grammar_rewrites(f, n)


@st.composite
def other_subjects(draw) -> list[Case]:
    """A subject that names another quantity than the value asked for."""
    n = draw(st.integers(min_value=2, max_value=99))
    f = "other_subject"
    sentences = ["2x = {n}.", "x^2 = {n}.", "twice the number is {n}.", "half of it is {n}.", "the square of x is {n}.",
                 "double the total is {n}.", "x + 1 = {n}.", "the reciprocal of x is {n}.", "x\u00b2 = {n}.",
                 "y \u7684\u4e24\u500d\u662f {n}"]
    sentence = draw(st.sampled_from(sentences)).format(n=n)
    return [
        anchored(f, str(n), sentence, False, "a subject naming another quantity"),
        anchored(f, str(n), f"x = {n}.", True, "a lone name"),
        anchored(f, str(n), f"the total cost is ${n}.", True, "a noun phrase subject"),
        prose(f, str(n), f"\u7b54\u6848\u662f {n}", True, "Chinese anchor"),
    ] + grammar_rewrites(f, n)


@st.composite
def box_text_words(draw) -> list[Case]:
    """Words inside `\\text{}` in a box go through the grammar: none may be dropped as a unit."""
    n = draw(st.integers(min_value=2, max_value=99))
    f = "box_text"
    word = draw(st.sampled_from(["hundred", "million", "Mrd.", "negative", "ten-thousandths", "thousand", "lakh",
                                 "approx.", "or more", "at most", "unless n is odd", "is wrong", "below zero", "dozen"]))
    command = draw(st.sampled_from(["\\text{{ {w}}}", "\\mathrm{{ {w}}}", "\\textbf{{ {w}}}", "\\mbox{{ {w}}}",
                                    "\\ \\text{{{w}}}", "\\,\\textrm{{{w}}}"]))
    return [
        boxed_text(f, str(n), f"{n}" + command.format(w=word), False, f"`{word}` in a box"),
        Case(f, str(n), "", False, f"`{word}` right after a box", completion=f"So \\boxed{{{n}}} {word}."),
        boxed_text(f, str(n), f"{n} \\text{{ cm}}", True, "a unit in a box"),
        boxed_text(f, str(n), f"{n} \\text{{ times}}", True, "a counted noun in a box"),
        boxed_text(f, str(n), f"{n}^\\circ", True, "a degree mark"),
        boxed_text(f, str(n), f"\\${n}", True, "a dollar sign"),
    ] + grammar_rewrites(f, n)


@st.composite
def equals_chains(draw) -> list[Case]:
    """`=` read across words: the last side is never taken past a word ("z = 4 for w = 9")."""
    n, m = draw(st.lists(st.integers(min_value=2, max_value=99), min_size=2, max_size=2, unique=True))
    f = "equals_chain"
    return [
        anchored(f, str(n), f"z = {m} for w = {n}.", False, "a second equation after a word"),
        anchored(f, str(n), f"x = {m} when y = {n}.", False, "a condition"),
        anchored(f, str(n), f"Total = {m} apples = {n}.", False, "a word inside the chain"),
        boxed_text(f, str(n), f"z = {m} \\text{{ for }} w = {n}", False, "in a box"),
        boxed_text(f, str(n), f"z = {m} \\text{{ if }} w = {n}", False, "a condition in a box"),
        anchored(f, str(n), f"Total = ${m} + ${n - m if n > m else 1} = ${n if n > m else m + 1}.", n > m, "an arithmetic chain"),
        anchored(f, str(n), f"y = 2 + {n - 2} = {n}.", True, "a chain after a name"),
    ] + grammar_rewrites(f, n)


# Final-answer anchors in other languages (verifier/math/extract.py `ANCHORS`, docs/math.md "Answer
# grammar"): (language, the answer sentence with `{n}` and `{tail}`, a scale word, a hedged answer, a
# second value). The sentence is MGSM's own wording; each perturbation must fail after the anchor.
ANCHOR_LANGUAGES = (
    ("de", "Die Antwort lautet {n}{tail}.", "Tausend", "Die Antwort ist etwa {n}.", "Die Antwort lautet {n} oder {m}."),
    ("fr", "La réponse est {n}{tail}.", "mille", "La réponse est environ {n}.", "La réponse est {n} ou {m}."),
    ("es", "La respuesta es {n}{tail}.", "mil", "La respuesta es aproximadamente {n}.", "La respuesta es {n} o {m}."),
    ("ru", "Ответ — {n}{tail}.", "тысяч", "Ответ — примерно {n}.", "Ответ — {n} или {m}."),
    ("zh", "答案是 {n}{tail}。", "千", "答案是 大约 {n}。", "答案是 {n} 或 {m}。"),
    ("zh", "答案是 {n}{tail}。", "万", "答案是 {n} 左右。", "答案是 {n} 到 {m}。"),
    ("ja", "答えは{n}{tail}です。", "万", "答えは約{n}です。", "答えは{n}か{m}です。"),
    ("ja", "答えは{n}{tail}個。", "千", "答えは{n}でしょう。", "答えは{n}、{m}です。"),
    ("th", "คำตอบคือ {n}{tail}", "พัน", "คำตอบคือ ประมาณ {n}", "คำตอบคือ {n} หรือ {m}"),
    ("sw", "Jibu ni {n}{tail}.", "elfu", "Jibu ni takriban {n}.", "Jibu ni {n} au {m}."),
    ("bn", "উত্তর হল {n}{tail}।", "হাজার", "উত্তর হল প্রায় {n}।", "উত্তর হল {n} বা {m}।"),
    ("te", "సమాధానం {n}{tail}.", "వేల", "సమాధానం సుమారు {n}.", "సమాధానం {n} లేదా {m}."),
)


@st.composite
def non_english_anchors(draw) -> list[Case]:
    """After another language's answer anchor the same grammar holds: the right number passes, and
    with that language's scale word, a hedge or a second value it fails."""
    n, m = draw(st.lists(st.integers(min_value=2, max_value=999), min_size=2, max_size=2, unique=True))
    lang, sentence, scale, hedge, second = draw(st.sampled_from(ANCHOR_LANGUAGES))
    f = "non_english_anchor"
    intro = "5 + 6 = 11. "
    return [
        prose(f, str(n), intro + sentence.format(n=n, tail=""), True, f"{lang}: the anchored right answer"),
        prose(f, str(n), intro + sentence.format(n=n, tail=f" {scale}"), False, f"{lang}: scale word `{scale}`"),
        prose(f, str(n), intro + sentence.format(n=n, tail=scale), False, f"{lang}: scale word `{scale}` glued on"),
        prose(f, str(n * 1000), intro + sentence.format(n=n, tail=f" {scale}"), False, f"{lang}: `{scale}` is not applied"),
        prose(f, str(n), intro + hedge.format(n=n), False, f"{lang}: a hedge"),
        prose(f, str(n), intro + second.format(n=n, m=m), False, f"{lang}: a second value, the first"),
        prose(f, str(m), intro + second.format(n=n, m=m), False, f"{lang}: a second value, the second"),
        prose(f, str(n + 1), intro + sentence.format(n=n, tail=""), False, f"{lang}: a wrong number"),
    ]


@st.composite
def retractions_after(draw) -> list[Case]:
    """What follows the answer's sentence (`grammar.closes`): a retraction, a doubt or another value
    after a right answer leaves no answer; confirming words, punctuation and markup leave it standing."""
    n, m = draw(st.lists(st.integers(min_value=2, max_value=999), min_size=2, max_size=2, unique=True))
    f = "retraction_after"
    answer = draw(st.sampled_from([f"The answer is {n}.", f"\\boxed{{{n}}}.", f"Answer: ${n}$.", f"So $\\boxed{{{n}}}$."]))
    after = draw(st.sampled_from(["Wait, that's wrong.", f"No, it is {m}.", "No, actually it is not {n}.", "Hmm, not sure.",
                                  "Scratch that.", "Just kidding.", f"Or maybe {m}.", "Let me recheck.", "That is wrong.",
                                  "Actually, I made a mistake.", f"Correction: {m}.", "Is that right?"]))
    confirm = draw(st.sampled_from(["I hope it is correct.", "Checking: the answer is consistent.", "Done.", "",
                                    "This is the final answer.", "\\end{align*}"]))
    return [
        prose(f, str(n), f"We compute. {answer} {after.format(n=n)}", False, "a retraction after the answer"),
        prose(f, str(n), f"We compute. {answer}? Wrong.", False, "a question and a retraction"),
        prose(f, str(n), f"We compute. {answer} {confirm}", True, "confirming words after the answer"),
    ]


@st.composite
def box_clauses(draw) -> list[Case]:
    """The clause that leads to a box (`grammar.box_clause`, docs/math.md "Answer grammar", before a
    box): a hedge, a condition or a doubt that opens it leaves no answer, whatever word stands right
    before the box; the common stated leads keep it."""
    n = draw(st.integers(min_value=2, max_value=999))
    f = "box_clause"
    box = draw(st.sampled_from([f"\\boxed{{{n}}}", f"$\\boxed{{{n}}}$", f"**\\boxed{{{n}}}**"]))
    hedged = draw(st.sampled_from([
        "I doubt it is {b}.", "I think it is {b}.", "We think it is {b}.", "We guess the value is {b}.",
        "If n is odd, {b}.", "Maybe it is {b}.", "Perhaps we get {b}.", "Possibly, {b}.", "So I doubt it is {b}.",
        "Wait, maybe {b}.", "It could be that we get {b}.", "Not sure, but we get {b}.", "I doubt that $x = {b}$.",
        "Suppose the value is {b}.", "Assuming n is odd, {b}.", "Guessing, {b}.", "Or {b}.",
    ]))
    stated = draw(st.sampled_from([
        "Therefore, the final answer is {b}.", "So the answer is {b}.", "$x = {b}$", "{b}",
        "Final Answer: The final answer is {b}. I hope it is correct.", "Thus, {b}.", "Hence we get {b}.",
        "Checking, we find that the value is {b}.", "The area of the trapezoid is {b}.", "We have $y = {b}$.",
        "So, the total number of points is {b}.", "In other words, {b}.", "It is {b}.", "There are {b}.",
        "Since $a = 2$, we get {b}.", "Paula's investment is worth {b}.",
    ]))
    return [
        Case(f, str(n), "", False, "a clause that hedges or conditions the box",
             completion="We compute.\n" + hedged.format(b=box)),
        Case(f, str(n), "", True, "a clause that states the box", completion="We compute.\n" + stated.format(b=box)),
    ]


@st.composite
def boxes_in_one_sentence(draw) -> list[Case]:
    """Several boxes one sentence states are one answer, their list (docs/math.md "Answer grammar",
    several boxes): never the last one alone, so a second value beside the gold's is no answer; a
    corrected answer in a later sentence, and a list that answers a list gold, are read."""
    n, m = draw(st.lists(st.integers(min_value=2, max_value=999), min_size=2, max_size=2, unique=True))
    f = "boxes_in_one_sentence"
    joined = draw(st.sampled_from(["\\boxed{{{m}}} and \\boxed{{{n}}}", "\\boxed{{{m}}}, \\boxed{{{n}}}",
                                   "$\\boxed{{{m}}}$ and $\\boxed{{{n}}}$", "\\boxed{{{m}}} \\quad \\text{{and}} \\quad \\boxed{{{n}}}",
                                   "x is \\boxed{{{m}}} and y is \\boxed{{{n}}}", "$x = \\boxed{{{m}}}$, $y = \\boxed{{{n}}}$",
                                   "\\boxed{{{m}}}; \\boxed{{{n}}}"])).format(m=m, n=n)
    return [
        Case(f, str(n), "", False, "two boxes in one sentence, gold the last", completion=f"So the answer is {joined}."),
        Case(f, str(m), "", False, "two boxes in one sentence, gold the first", completion=f"So the answer is {joined}."),
        Case(f, f"({m}, {n})", "", True, "a pair gold: the sentence's list", completion=f"So the answer is {joined}."),
        Case(f, str(n), "", True, "a corrected answer in a later sentence",
             completion=f"First \\boxed{{{m}}}.\nWait, I made an error: \\boxed{{{n}}}"),
        Case(f, str(n), "", True, "parts on their own lines, gold the last",
             completion=f"(a) \\boxed{{{m}}}\n(b) \\boxed{{{n}}}"),
    ]


@st.composite
def concluding_sentences(draw) -> list[Case]:
    """A last sentence that concludes with a named quantity (`grammar.concludes`, docs/math.md "Answer grammar", "A
    concluding sentence"): with no box and no anchor it is the answer, in both profiles, read as a box in the value's
    place would be; a hedge, a scale, a negation, a second value, another quantity or a retraction there is none."""
    n, m = draw(st.lists(st.integers(min_value=2, max_value=999), min_size=2, max_size=2, unique=True))
    a = draw(st.integers(min_value=1, max_value=n - 1))
    f = "concluding_sentence"
    opener = draw(st.sampled_from(["So,", "Thus,", "Therefore,", "Hence,", "So", "Thus"]))
    subject = draw(st.sampled_from(["the perimeter of ABCD", "the total cost", "the number of students", "$x$",
                                    "the area of the triangle", "the remainder when $N$ is divided by $7$"]))
    near_miss = draw(st.sampled_from([
        "{s} is about {n}.", "{s} would be {n}.", "{s} is {n} thousand.", "{s} is not {n}.", "{s} is {n} or {m}.",
        "twice {s} is {n}.", "{s} in thousands is {n}.", "{s} is at least {n}.", "{s} is {n}. Wait, that's wrong.",
        "{s} is {n}?", "maybe {s} is {n}.", "{s} is {m}, and {s} is {n}.", "$2x = {n}$.",
        "{s} is {n}. No, it is {m}.", "{s} could be {n}.", "{s} is -{n}.", "{s} is {n} more than one."]))
    rewrite = draw(st.sampled_from(["{s} is {n}.", "{s} is {a} + {b} = {n}.", "{s} is ${n}$.", "{s} is {n} cm.",
                                    "{s} equals {n}.", "{s} is {n}. I hope it is correct."]))
    lead = "We add the parts.\n\n"
    return [
        prose(f, str(n), lead + f"{opener} " + near_miss.format(s=subject, n=n, m=m), False, "a concluding near miss"),
        prose(f, str(n), lead + f"{opener} " + rewrite.format(s=subject, n=n, a=a, b=n - a), True, "a concluding sentence"),
    ]


FAMILIES.update({
    "concluding_sentences": concluding_sentences(),
    "retractions_after": retractions_after(),
    "multipliers": multipliers(),
    "hedges_and_retractions": hedges_and_retractions(),
    "second_values": second_values(),
    "other_subjects": other_subjects(),
    "box_text_words": box_text_words(),
    "equals_chains": equals_chains(),
    "non_english_anchors": non_english_anchors(),
    "box_clauses": box_clauses(),
    "boxes_in_one_sentence": boxes_in_one_sentence(),
})


EXAMPLES_PER_FAMILY = 12
WRAPPERS = ("\\boxed{{{}}}", "The final answer is ${}$.", "lenient:{}")
"""How the answer is written: boxed, after an anchor (strict), or as the whole completion (lenient)."""


def grade_case(case: Case, wrapper: str = WRAPPERS[0]) -> dict:
    if case.completion is not None:
        task = {"completion": case.completion, "gold": case.gold}
    elif wrapper.startswith("lenient:"):
        task = {"completion": wrapper[len("lenient:"):].format(case.answer), "gold": case.gold, "profile": "lenient"}
    else:
        task = {"completion": "We compute. " + wrapper.format(case.answer), "gold": case.gold}
    if case.choices:
        task["choices"] = list(case.choices)
    return grade_math(task)


def check(cases: list[Case], wrapper: str) -> list[str]:
    """The cases whose verdict is wrong, described; a rewrite may not be invalid_gold either."""
    wrong = []
    for case in cases:
        verdict = grade_case(case, wrapper)["verdict"]
        if (verdict == "correct") != case.correct:
            wrong.append(f"{case.family}/{case.why}: gold {case.gold!r} answer {case.answer or case.completion!r} -> {verdict}")
    return wrong


def seeded(examples: int = EXAMPLES_PER_FAMILY):
    return settings(
        max_examples=examples, derandomize=True, deadline=None, database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )


@pytest.mark.timeout(120)
@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_near_misses_never_score_and_rewrites_do(family: str) -> None:
    @seeded()
    @given(cases=FAMILIES[family], wrapper=st.sampled_from(WRAPPERS))
    def run(cases: list[Case], wrapper: str) -> None:
        wrong = check(cases, wrapper)
        assert not wrong, "\n".join(wrong)

    run()


def generated_cases(examples: int = EXAMPLES_PER_FAMILY) -> list[Case]:
    """Every case the seeded run draws (for reports: counts of near misses scored correct)."""
    drawn: list[Case] = []
    for strategy in FAMILIES.values():
        @seeded(examples)
        @given(cases=strategy)
        def collect(cases: list[Case]) -> None:
            drawn.extend(cases)

        collect()
    return list(dict.fromkeys(drawn))


def test_every_family_generates_both_kinds() -> None:
    cases = generated_cases(3)
    for family in {c.family for c in cases}:
        kinds = {c.correct for c in cases if c.family == family}
        assert kinds == {True, False}, family
    assert len({c.family for c in cases}) == len(FAMILIES)


@pytest.mark.parametrize(
    "gold, answer, digits, equal",
    [
        ("\\pi", "3.14", 6, False),
        ("\\pi", "3.14", 3, True),
        ("\\pi", "3.15", 3, False),
        ("\\frac{1}{3}", "0.333", 3, True),
        ("\\frac{1}{2}", "0.5", 6, True),
    ],
)
def test_approx_sig_digits_is_the_precision_option(gold: str, answer: str, digits: int, equal: bool) -> None:
    """`MathLimits.approx_sig_digits` decides how many digits an approximating decimal must state."""
    got, _why = equivalent(parse_answer(gold), parse_answer(answer), MathLimits(approx_sig_digits=digits))
    assert got is equal


# The lenient profile (issue 29; docs/math.md "Answer grammar"): every family above, run under it too.
# A completion written out (`Case.completion`) is graded as written under lenient, and, when it opens
# with an answer anchor, after a first sentence without the anchor: then only the last-number
# fallback reads it (not the whole-completion bare expression), and the
# words around that number must pass the same grammar (`6 or 7`, `so it is 6 thousand` paid before).
_ANCHOR_OPENINGS = ("The answer is ", "Final Answer: ")


def lenient_variants(case: Case) -> list[tuple[str, str]]:
    """(completion, how) for `case` under the lenient profile."""
    if case.completion is None:
        return []
    variants = [(case.completion, "as written")]
    for opening in _ANCHOR_OPENINGS:
        # Known gap, a refusal and never a payment: unanchored, `$2 + $1 = $3` is read as math
        # delimiters, so a right amount written so is not read; its near misses are still run.
        amounts = case.correct and re.search(r"\$\d", case.completion)
        if case.completion.startswith(opening) and not amounts:
            variants.append(("We compute. " + case.completion[len(opening):], "anchor removed"))
    return variants


LENIENT_PROBLEM = "Sam swam farther than Lee."
"""The task's problem for the lenient variants: the persons the families' rewrites name (`Sam swam 2 meters farther than
Lee.`), which lenient's last sentence reads only when the problem uses them (fx29be, `grammar.grounded_names`)."""


def check_lenient(cases: list[Case]) -> list[str]:
    """The written-out cases whose lenient verdict is wrong: a near miss paid, or a rewrite unpaid."""
    wrong = []
    for case in cases:
        for completion, how in lenient_variants(case):
            task = {"completion": completion, "gold": case.gold, "profile": "lenient", "problem": LENIENT_PROBLEM}
            if case.choices:
                task["choices"] = list(case.choices)
            verdict = grade_math(task)["verdict"]
            if (verdict == "correct") != case.correct:
                wrong.append(f"{case.family}/{case.why} ({how}): gold {case.gold!r} completion {completion!r} -> {verdict}")
    return wrong


@pytest.mark.timeout(120)
@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_near_misses_never_score_under_lenient(family: str) -> None:
    @seeded()
    @given(cases=FAMILIES[family])
    def run(cases: list[Case]) -> None:
        wrong = check_lenient(cases)
        assert not wrong, "\n".join(wrong)

    run()

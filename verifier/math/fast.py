"""Grade simple answers (numbers, fractions, small tuples, intervals and sets of them) without
math-verify's ANTLR LaTeX parser, which costs 1-50 ms per answer while these need microseconds.

Only the parse is replaced: a simple string becomes the same `Parsed` value math-verify's parse
would give (sympy Rationals in the same container types, the same `read_literal` facts), and
`compare.equivalent` decides with the same rules as the full path. Anything this module does not
recognise exactly, or whose two sides are not the same kind of value, returns None and takes the
full path. The differential test (tests/test_math_fast.py) runs both paths over generated pairs.

Everything here is bounded (short strings, linear regexes, small integers), so the server may run
it in its own process, outside the workers and their deadlines.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import sympy

from .compare import equivalent
from .extract import Extraction
from .fast_poly import read_polynomial
from .guards import magnitude_digits, text_guard
from .limits import DEFAULT_LIMITS
from .parsing import Parsed, normalise, read_literal
from .result import result, same_text

MAX_CHARS = 80
"""Longer golds or answers take the full path (a bound on the work done here, not a rule)."""
_MAX_DIGITS = 18
_MAX_ELEMENTS = 8

_INT = r"(?:0|[1-9]\d*)"
_FRAC = rf"\\[dt]?frac\{{({_INT})\}}\{{({_INT})\}}"
# A lone number: sign, then an integer (thousands commas allowed), a decimal or a percent of
# either (all read by `read_literal`), or a fraction \frac{a}{b} or a/b of unsigned integers.
_NUMBER_RE = re.compile(
    rf"([-+]?)\s*(?:(?P<lit>(?:[1-9]\d{{0,2}}(?:,\d{{3}})+|{_INT})(?:\.\d+)?|{_INT}?\.\d+)(?P<pct>\\?%)?"
    rf"|{_FRAC}|({_INT})/({_INT}))"
)
# An element of a container: a signed integer or \frac of integers (no decimals, no commas).
_ELEMENT_RE = re.compile(rf"([-+]?)\s*(?:({_INT})|{_FRAC})")
_SURD_RE = re.compile(rf"([-+]?)\s*({_INT})?\s*(?:\\sqrt\{{({_INT})\}})?")
_CONTAINER_RE = re.compile(r"(\(|\[|\\\{)(.*)(\)|\]|\\\})")


def grade_simple(gold: object, extraction: Extraction, choices: Sequence[str] | None = None) -> dict[str, Any] | None:
    """The full path's result for a simple gold and answer, or None when either is not simple."""
    if choices or not isinstance(gold, str):
        return None
    if extraction.text is None:  # a simple gold is a valid one: the full path answers no_answer
        if len(gold) > MAX_CHARS or read_simple(gold) is None:
            return None
        return result("no_answer", "no final answer found (\\boxed{} or an answer anchor)", extraction)
    try:
        verdict = decide(gold, extraction.text)
    except Exception:  # noqa: BLE001 - a bug here must not cost the item: the full path decides
        return None
    if verdict is None:
        return None
    equal, why = verdict
    if equal and same_text(normalise(gold), extraction.text):
        why = "identical to the gold"  # the full path's wording for this case
    return result("correct" if equal else "incorrect", why, extraction)


def decide(gold: str, answer: str) -> tuple[bool, str] | None:
    """(equal, reason) as `compare.equivalent` gives it, or None when this module cannot tell."""
    if len(gold) > MAX_CHARS or len(answer) > MAX_CHARS:
        return None
    g, p = read_simple(gold), read_simple(answer)
    if g is None or p is None:
        return _surds(gold, answer) or _polynomials(gold, answer)
    if _interval_and_pair(g.expr, p.expr):
        # latex2sympy reads (a, b) as a tuple only when b <= a: never the same pair as an interval's
        return False, "an interval against a pair in the other order"
    if not _same_kind(g.expr, p.expr):
        return None
    return equivalent(g, p)


def read_simple(text: str) -> Parsed | None:
    """`text` parsed as the full path parses it, when it is a simple number or container."""
    latex = normalise(text)
    if text_guard(latex, DEFAULT_LIMITS) or len(latex) > MAX_CHARS or sum(c.isdigit() for c in latex) > _MAX_DIGITS * 2:
        return None
    expr = _number(latex)
    if expr is None:
        expr = _container(latex)
    if expr is None:
        return None
    return Parsed(expr, latex, read_literal(latex), magnitude_digits(expr, DEFAULT_LIMITS), False)


def _surds(gold: str, answer: str) -> tuple[bool, str] | None:
    """Integers and `a\\sqrt{b}` on both sides, a surd on one at least: a*sqrt(b) = c*sqrt(d)
    exactly when the signs agree and a^2 b = c^2 d (the full path compares them at 60 digits)."""
    g, p = _surd(normalise(gold)), _surd(normalise(answer))
    if g is None or p is None or not (g[1] or p[1]):
        return None
    return (True, "equal exactly") if g[0] == p[0] else (False, "different numbers (exact comparison)")


def _surd(latex: str) -> tuple[int, bool] | None:
    """(sign * a^2 * b, whether a root is written) for `[-]a\\sqrt{b}`, `\\sqrt{b}` or an integer."""
    m = _SURD_RE.fullmatch(latex)
    if not m or any(g is not None and len(g) > 8 for g in m.groups()):
        return None
    sign = -1 if m.group(1) == "-" else 1
    if m.group(3) is None:  # an integer
        return (sign * int(m.group(2)) ** 2, False) if m.group(2) else None
    coeff = int(m.group(2)) if m.group(2) else 1
    return sign * coeff**2 * int(m.group(3)), True


def _polynomials(gold: str, answer: str) -> tuple[bool, str] | None:
    """Both sides polynomials of two terms or more: equal exactly when their expansions are."""
    g_text, p_text = normalise(gold), normalise(answer)
    if text_guard(g_text, DEFAULT_LIMITS) or text_guard(p_text, DEFAULT_LIMITS):
        return None
    g, p = read_polynomial(g_text), read_polynomial(p_text)
    # One term (or none) on either side takes the full path: `x` is compared by name, `10m` may be
    # a quantity with a unit, a constant is the number rules' business.
    if g is None or p is None or len(g) < 2 or len(p) < 2:
        return None
    return (True, "equal polynomials (expanded exactly)") if g == p else (False, "different polynomials")


def _interval_and_pair(g: object, p: object) -> bool:
    def pair(e: object) -> bool:
        return isinstance(e, sympy.Tuple) and len(e) == 2

    return isinstance(g, sympy.Interval) and pair(p) or isinstance(p, sympy.Interval) and pair(g)


def _same_kind(g: object, p: object) -> bool:
    """Both numbers, or both the same container type (mixed kinds take the full path)."""
    if isinstance(g, sympy.Rational) and isinstance(p, sympy.Rational):
        return True
    return type(g) is type(p) and isinstance(g, (sympy.Tuple, sympy.Interval, sympy.FiniteSet))


def _number(latex: str) -> sympy.Rational | None:
    m = _NUMBER_RE.fullmatch(latex)
    if not m or _too_long(m):
        return None
    sign = -1 if m.group(1) == "-" else 1
    if m.group("lit") is not None:
        literal = read_literal(latex)
        if literal is None or literal.percent and "," in latex:  # math-verify reads `1,000\%` otherwise
            return None
        return _rational(literal.value / 100 if literal.percent else literal.value)
    num, den = (m.group(4), m.group(5)) if m.group(4) is not None else (m.group(6), m.group(7))
    return _ratio(sign, num, den)


def _container(latex: str) -> sympy.Basic | None:
    """A tuple, interval or set of exact numbers, with the type latex2sympy gives it."""
    m = _CONTAINER_RE.fullmatch(latex)
    if not m:
        return None
    opening, body, closing = m.groups()
    parts = body.split(",")
    if not 2 <= len(parts) <= _MAX_ELEMENTS:
        return None
    values = [_element(part.strip()) for part in parts]
    if any(v is None for v in values):
        return None
    if (opening == "\\{") != (closing == "\\}"):
        return None
    if opening == "\\{":
        return sympy.FiniteSet(*values)
    if len(values) == 2:
        return _pair(opening, closing, *values)
    return sympy.Tuple(*values) if (opening, closing) == ("(", ")") else None


def _pair(opening: str, closing: str, a: sympy.Rational, b: sympy.Rational) -> sympy.Basic | None:
    """latex2sympy's reading of `(a, b)`, `[a, b]`, `(a, b]`, `[a, b)`: an interval, or a tuple
    when a both-open or both-closed interval would be empty."""
    left_open, right_open = opening == "(", closing == ")"
    if (left_open and right_open and b <= a) or (not left_open and not right_open and b < a):
        return sympy.Tuple(a, b)
    if b <= a:
        return None  # a point or an empty half-open interval: sympy changes its type
    return sympy.Interval(a, b, left_open=left_open, right_open=right_open)


def _element(text: str) -> sympy.Rational | None:
    m = _ELEMENT_RE.fullmatch(text)
    if not m or _too_long(m):
        return None
    sign = -1 if m.group(1) == "-" else 1
    if m.group(2) is not None:
        return sympy.Integer(sign * int(m.group(2)))
    return _ratio(sign, m.group(3), m.group(4))


def _ratio(sign: int, num: str, den: str) -> sympy.Rational | None:
    if int(den) == 0:
        return None
    return _rational(Fraction(sign * int(num), int(den)))


def _rational(value: Fraction) -> sympy.Rational:
    return sympy.Rational(value.numerator, value.denominator)


def _too_long(m: re.Match) -> bool:
    return any(g is not None and len(g) > _MAX_DIGITS for g in m.groups())

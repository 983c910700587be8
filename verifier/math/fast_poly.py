"""Polynomials with small rational coefficients, read and expanded exactly without LaTeX parsing.

`x^2 + 13x + 36` and `(x+4)(x+9)` are equal exactly when their expanded forms are: two polynomials
over the rationals that differ as formal polynomials differ as functions, so this is the verdict
math-verify's symbolic comparison reaches, at a small fraction of its cost. The grammar is small on
purpose (see `read_polynomial`); anything outside it, or past the size bounds, returns None.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import cast

Monomial = tuple[tuple[str, int], ...]
Poly = dict[Monomial, Fraction]

VARIABLES = "abcknpqruvwxyz"
"""Letters read as variables (not e, i, d, f, ... which LaTeX parsers treat specially, nor the unit
letters m, s, t)."""
_MAX_INT_DIGITS = 4
_MAX_DENOMINATOR = 1000
_MAX_EXPONENT = 12
_MAX_TERMS = 64
_MAX_PRODUCTS = 1000
"""Coefficient products one reading may compute (bounds its time to about a millisecond)."""
_TOKEN_RE = re.compile(
    rf"\s*(?:(?P<int>\d+)|(?P<var>[{VARIABLES}])(?![A-Za-z])|\\frac\{{(?P<fn>\d+)\}}\{{(?P<fd>\d+)\}}"
    r"|\^(?:\{(?P<braced>\d+)\}|(?P<digit>\d)(?!\d))|(?P<op>[-+()*])|(?P<times>\\cdot|\\times)(?![A-Za-z]))"
)


class _Reject(Exception):
    """Outside the grammar or the bounds."""


def read_polynomial(text: str) -> Poly | None:
    """The expanded polynomial `text` writes, or None.

    Grammar: sums and differences (a leading sign allowed, also after `(`) of products of factors;
    a factor is an integer, a variable letter, `\\frac{a}{b}` of integers or a parenthesised sum, with
    an optional `^{n}` / `^n` power; products are `*`, `\\cdot`, `\\times` or juxtaposition, except that
    a variable may not be followed by another variable or `(` (`xy`, `f(x)` mean other things in
    LaTeX), and nothing but an operator may follow an integer or `)` except a variable or `(`.
    """
    tokens = _tokens(text)
    if tokens is None:
        return None
    parser = _Parser(tokens)
    try:
        poly = parser.sum()
        if parser.i != len(tokens):
            return None
    except _Reject:
        return None
    return poly


def _tokens(text: str) -> list[tuple[str, object]] | None:
    out: list[tuple[str, object]] = []
    pos, end = 0, len(text.rstrip())
    while pos < end:
        m = _TOKEN_RE.match(text, pos)
        if not m or m.end() == pos:
            return None
        pos = m.end()
        kind = m.lastgroup
        if kind == "int":
            if len(m.group("int")) > _MAX_INT_DIGITS:
                return None
            out.append(("num", Fraction(int(m.group("int")))))
        elif kind == "fd":
            den = int(m.group("fd"))
            if den == 0 or den > _MAX_DENOMINATOR or len(m.group("fn")) > _MAX_INT_DIGITS:
                return None
            out.append(("num", Fraction(int(m.group("fn")), den)))
        elif kind in ("braced", "digit"):
            out.append(("pow", int(m.group(kind))))
        elif kind == "var":
            out.append(("var", m.group("var")))
        elif kind == "times":
            out.append(("op", "*"))
        else:
            out.append(("op", m.group("op")))
    return out


class _Parser:
    def __init__(self, tokens: list[tuple[str, object]]):
        self.tokens = tokens
        self.i = 0
        self.budget = _MAX_PRODUCTS

    def mul(self, a: Poly, b: Poly) -> Poly:
        self.budget -= len(a) * len(b)
        if self.budget < 0:
            raise _Reject()
        return _mul(a, b)

    def peek(self) -> tuple[str, object] | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take(self) -> tuple[str, object]:
        tok = self.peek()
        if tok is None:
            raise _Reject()
        self.i += 1
        return tok

    def sum(self) -> Poly:
        sign = 1
        if self.peek() in (("op", "-"), ("op", "+")):
            sign = -1 if self.take()[1] == "-" else 1
        total = _scale(self.product(), sign)
        while self.peek() in (("op", "-"), ("op", "+")):
            sign = -1 if self.take()[1] == "-" else 1
            total = _add(total, _scale(self.product(), sign))
        return total

    def product(self) -> Poly:
        result = self.power()
        while True:
            tok, prev = self.peek(), self.tokens[self.i - 1]
            if tok == ("op", "*"):
                self.take()
            elif tok is None or not _juxtaposes(prev, tok):
                return result
            result = self.mul(result, self.power())

    def power(self) -> Poly:
        kind, value = self.take()
        if kind == "num":
            base: Poly = {(): cast(Fraction, value)} if value else {}  # the tokenizer's: num -> Fraction
        elif kind == "var":
            base = {((cast(str, value), 1),): Fraction(1)}
        elif (kind, value) == ("op", "("):
            base = self.sum()
            if self.take() != ("op", ")"):
                raise _Reject()
        else:
            raise _Reject()
        tok = self.peek()
        if tok is not None and tok[0] == "pow":
            self.take()
            exponent = cast(int, tok[1])  # the tokenizer's: pow -> int
            if exponent > _MAX_EXPONENT:
                raise _Reject()
            result: Poly = {(): Fraction(1)}
            for _ in range(exponent):
                result = self.mul(result, base)
            return result
        return base


def _juxtaposes(prev: tuple[str, object], tok: tuple[str, object]) -> bool:
    """Whether `prev tok` is an implicit product this grammar accepts (`2x`, `2(x+1)`, `(x+1)(x-1)`)."""
    if tok[0] == "var":
        return prev[0] in ("num", "pow") or prev == ("op", ")")
    if tok == ("op", "("):
        if prev[0] == "var":
            raise _Reject()  # f(x): a function call in LaTeX
        return prev[0] in ("num", "pow") or prev == ("op", ")")
    if tok[0] == "num" and prev[0] != "op":
        raise _Reject()  # `2 3`, `x 2`, `(x)2`: not a product LaTeX parsers agree on
    return False


def _add(a: Poly, b: Poly) -> Poly:
    out = dict(a)
    for mono, c in b.items():
        out[mono] = out.get(mono, Fraction(0)) + c
        if not out[mono]:
            del out[mono]
    return out


def _scale(a: Poly, k: int) -> Poly:
    return {mono: c * k for mono, c in a.items()}


def _mul(a: Poly, b: Poly) -> Poly:
    out: Poly = {}
    for ma, ca in a.items():
        for mb, cb in b.items():
            mono = _mono_mul(ma, mb)
            out[mono] = out.get(mono, Fraction(0)) + ca * cb
            if not out[mono]:
                del out[mono]
    if len(out) > _MAX_TERMS:
        raise _Reject()
    return out


def _mono_mul(a: Monomial, b: Monomial) -> Monomial:
    powers = dict(a)
    for var, k in b:
        powers[var] = powers.get(var, 0) + k
    return tuple(sorted(powers.items()))

"""Exact and high-precision values of numeric sympy trees.

math-verify compares numbers after rounding (6 decimals for floats, 15 significant digits with
`chop` otherwise), so 1/2004! equals 1/2006! and 1/2^99 equals 1/2^98. Here rational values are
computed exactly with Python integers, and irrational ones at `exact_check_digits` precision.
Callers must run the magnitude guard first: nothing here bounds the size of what it computes.
"""

from __future__ import annotations

import math
from fractions import Fraction

import sympy
from sympy import Basic

_NON_VALUES = (sympy.Integral, sympy.Sum, sympy.Product, sympy.Limit, sympy.Derivative)
_INFINITIES = (sympy.oo, -sympy.oo, sympy.zoo, sympy.nan)


def is_numeric(e: object) -> bool:
    """A finite number without free symbols, unevaluated integrals or limits."""
    if not isinstance(e, sympy.Expr) or isinstance(e, sympy.MatrixBase):
        return False
    if e.free_symbols or not e.is_number:
        return False
    return not e.has(*_NON_VALUES, *_INFINITIES)


def has_float(e: Basic) -> bool:
    """Whether a decimal approximation (sympy Float) sits anywhere in `e`."""
    return bool(e.atoms(sympy.Float))


def exact_rational(e: Basic) -> Fraction | None:
    """The exact value of `e` when it is a rational number built from integers, else None."""
    if isinstance(e, sympy.Rational):
        return Fraction(int(e.p), int(e.q))
    if isinstance(e, sympy.UnevaluatedExpr):
        return exact_rational(e.args[0])
    if isinstance(e, sympy.Add):
        parts = [exact_rational(a) for a in e.args]
        return None if None in parts else sum(parts, Fraction(0))
    if isinstance(e, sympy.Mul):
        total = Fraction(1)
        for a in e.args:
            v = exact_rational(a)
            if v is None:
                return None
            total *= v
        return total
    if isinstance(e, sympy.Pow):
        return _exact_pow(e)
    if isinstance(e, sympy.factorial):
        n = exact_rational(e.args[0])
        return Fraction(math.factorial(int(n))) if n is not None and n.denominator == 1 and n >= 0 else None
    if isinstance(e, sympy.binomial):
        n, k = (exact_rational(a) for a in e.args)
        if n is None or k is None or n.denominator != 1 or k.denominator != 1 or n < 0:
            return None
        return Fraction(math.comb(int(n), int(k))) if k >= 0 else Fraction(0)
    return None


def _exact_pow(e: Basic) -> Fraction | None:
    base = exact_rational(e.args[0])
    exp = exact_rational(e.args[1])
    if base is None or exp is None:
        return None
    if exp.denominator == 1:
        if base == 0 and exp < 0:
            return None
        return base ** int(exp)
    # A rational root is rational only for perfect powers (sqrt(4) = 2): let sympy decide.
    root = sympy.Rational(base.numerator, base.denominator) ** sympy.Rational(exp.numerator, exp.denominator)
    return Fraction(int(root.p), int(root.q)) if isinstance(root, sympy.Rational) else None


def high_precision(e: Basic, digits: int) -> tuple[sympy.Float, sympy.Float] | None:
    """(real, imaginary) parts of `e` to `digits` significant digits, or None when sympy cannot
    produce a number."""
    value = e.evalf(digits)
    if not value.is_number:
        return None
    re_part, im_part = value.as_real_imag()
    if not (re_part.is_Number and im_part.is_Number):
        return None
    if re_part in _INFINITIES or im_part in _INFINITIES:
        return None
    return re_part, im_part


def numbers_equal(a: Basic, b: Basic, digits: int, match_digits: int) -> bool | None:
    """Exact equality of two exact numbers: rationally when both are rational, else at `digits`
    precision, equal when they agree to `match_digits` significant digits. None: cannot tell."""
    fa, fb = exact_rational(a), exact_rational(b)
    if fa is not None and fb is not None:
        return fa == fb
    va, vb = high_precision(a, digits), high_precision(b, digits)
    if va is None or vb is None:
        return None
    diff = max(abs(va[0] - vb[0]), abs(va[1] - vb[1]))
    scale = max(abs(va[0]), abs(va[1]), abs(vb[0]), abs(vb[1]))
    if scale == 0:
        return True
    return bool(diff <= scale * sympy.Rational(1, 10**match_digits))


def within(a: Basic, target: Fraction, tol: Fraction, digits: int = 40) -> bool | None:
    """|a - target| <= tol for a real number `a` (exact or not); None when `a` has no value."""
    fa = exact_rational(a)
    if fa is not None:
        return abs(fa - target) <= tol
    va = high_precision(a, digits)
    if va is None:
        return None
    if va[1] != 0 and abs(va[1]) > sympy.Rational(1, 10**30):
        return False
    return bool(abs(va[0] - sympy.Rational(target.numerator, target.denominator)) <= sympy.Rational(tol.numerator, tol.denominator))

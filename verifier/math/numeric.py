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
from sympy.matrices import MatrixBase

NON_VALUES = (sympy.Integral, sympy.Sum, sympy.Product, sympy.Limit, sympy.Derivative)
_INFINITIES = (sympy.oo, -sympy.oo, sympy.zoo, sympy.nan)


def is_numeric(e: object) -> bool:
    """A finite number without free symbols, unevaluated integrals or limits."""
    if not isinstance(e, sympy.Expr) or isinstance(e, sympy.MatrixBase):
        return False
    if e.free_symbols or not e.is_number:
        return False
    return not e.has(*NON_VALUES, *_INFINITIES)


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
        known = [part for part in parts if part is not None]
        return None if len(known) < len(parts) else sum(known, Fraction(0))
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


INFINITIES = (sympy.oo, sympy.S.NegativeInfinity)
_NO_VALUE = (sympy.zoo, sympy.nan)
# Functions that sympy evaluates to zoo at a pole (`(-3)!`, `\Gamma(0)`, `\log 0`, `\tan\frac{\pi}{2}`);
# left unevaluated by the parser, their evalf raises ("gamma function pole").
_POLE_FUNCS = (sympy.factorial, sympy.factorial2, sympy.gamma, sympy.binomial, sympy.RisingFactorial,
               sympy.FallingFactorial, sympy.log, sympy.tan, sympy.cot, sympy.sec, sympy.csc)


def settled(e: object) -> object | None:
    """`e` with every arithmetic on an infinity or at a pole evaluated; None when one has no value.

    The parser keeps `\\infty^2` as an unevaluated `Pow(oo, 2)`, and sympy's simplify of `N - oo**2`
    then gives 0 or not depending on the hash seed and its cache: a finite gold was paid for an
    infinity. The rule (docs/math.md "Math grading rules"): an expression holding an infinity is evaluated, and
    it stands for `oo` or `-oo` only when that is its value (`2\\infty`, `-\\infty`, `\\infty^2`);
    any other value (`\\infty - \\infty`, `0 \\cdot \\infty`, `\\frac{1}{\\infty}`, `x \\cdot \\infty`) is
    no value at all, and neither is a pole (`(-3)!`, `\\frac{1}{0}`). Infinities as bounds of
    integrals, sums and limits are not arithmetic and are left alone, as are containers (an
    interval's endpoint `\\infty` is kept; its elements are settled one by one). Runs after the
    magnitude guard, so evaluating is bounded.
    """
    if isinstance(e, MatrixBase):
        items = [settled(x) for x in e]
        if any(x is None for x in items):
            return None
        return e if all(a is b for a, b in zip(items, e)) else e.__class__(e.rows, e.cols, items)
    if not isinstance(e, Basic):
        return e
    if e in _NO_VALUE:
        return None
    if not e.args:
        return e
    if isinstance(e, sympy.Expr):
        return _settled_expr(e)
    args = [settled(a) for a in e.args]
    if any(a is None for a in args):
        return None
    if all(a is b for a, b in zip(args, e.args)):
        return e
    try:
        return e.func(*args, evaluate=False)
    except TypeError:
        return e.func(*args)


def _settled_expr(e: sympy.Expr) -> object | None:
    infinite, poles = _arithmetic_hazards(e)
    if not (infinite or poles):
        return e
    try:
        value = _evaluated(e)
    except (ValueError, ZeroDivisionError, ArithmeticError):
        return None
    if value in INFINITIES:
        return value if infinite else None  # a pole is no value, even one sympy calls oo
    if infinite or not isinstance(value, Basic) or value.has(*_NO_VALUE, *INFINITIES):
        return None
    return e


def _arithmetic_hazards(e: Basic) -> tuple[bool, bool]:
    """(an infinity or undefined atom is an operand, a function with poles or a division by a
    literal 0 occurs), outside integrals, sums and limits."""
    infinite = poles = False
    stack = [e]
    while stack:
        node = stack.pop()
        if node in INFINITIES or node in _NO_VALUE:
            infinite = True
        elif isinstance(node, _POLE_FUNCS) or (isinstance(node, sympy.Pow) and node.args[0] == 0):
            poles = True
        if not isinstance(node, NON_VALUES):
            stack.extend(node.args)
    return infinite, poles


def _evaluated(e: Basic) -> Basic:
    """`e` rebuilt bottom-up with sympy's evaluation on (the parser built it with evaluation off)."""
    if not e.args or isinstance(e, NON_VALUES):
        return e
    return e.func(*[_evaluated(a) for a in e.args])

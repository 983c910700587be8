"""Turn an answer string (gold or extracted) into a parsed answer: sympy object plus the facts about
its written form that comparison needs (a decimal literal's precision, a percent sign).

Strings are normalised first to work around math-verify 0.9.0 gaps (`\\varnothing`, `3e5`,
undelimited LaTeX such as `1 - \\sqrt{2}`), then parsed by math-verify with its own timeouts off
(`parsing_timeout=None`: our parent process enforces deadlines; `signal.alarm` is not usable in
worker threads). Parsed golds are cached per process, keyed by the gold string.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from functools import lru_cache

import sympy
from sympy import Basic
from sympy.matrices import MatrixBase

from .extract import last_box
from .guards import magnitude_digits, text_guard
from .limits import DEFAULT_LIMITS, MathLimits

_EMPTYSET_RE = re.compile(r"\\varnothing\b|\\empty\b(?!set)|\\O\b")
# 3e5, 1.5E-3: not preceded by a letter/backslash (so not a variable or \exp), exponent <= 3 digits.
_SCI_RE = re.compile(r"(?<![\w.\\])(\d+(?:\.\d+)?)[eE]([-+]?\d{1,3})(?![\w.])")
# A lone number as written: optional "x =", sign, currency, thousands commas, decimals, percent.
_LITERAL_RE = re.compile(
    r"^(?:[a-zA-Z]\s*=\s*)?([-+]?)\s*(?:\\\$|\$)?\s*(\d{1,3}(?:,\d{3})+|\d*)(?:\.(\d+))?\s*(\\?%)?$"
)
# "18 dollars", "5 apples": a lone number followed by plain words (3+ letters, so `2 x` stays 2x).
_NUMBER_WORDS_RE = re.compile(r"^([-+]?(?:\d{1,3}(?:,\d{3})+|\d+)?(?:\.\d+)?)\s+[A-Za-z]{3,}(?:\s+[A-Za-z]+){0,3}\.?$")
_CURRENCY_RE = re.compile(r"\\\$\s*")
_PY_POWER_RE = re.compile(r"(?<=[\w)\]}])\*\*(?=[\w({\[-])")
_DELIMS = (("$$", "$$"), ("\\[", "\\]"), ("\\(", "\\)"), ("$", "$"))


@dataclass(frozen=True)
class Literal:
    """A lone number as written, e.g. "0.333" or "12.5\\%": what a decimal approximation states."""

    value: Fraction
    """Its exact value as written (before any percent scaling)."""
    decimals: int
    """Digits after the decimal point (0 for an integer)."""
    sig_digits: int
    """Significant digits written."""
    percent: bool
    """Whether it ends with a percent sign."""

    @property
    def is_decimal(self) -> bool:
        return self.decimals > 0


@dataclass(frozen=True)
class Parsed:
    """An answer parsed once: never `str()` its `expr` (it may be a power tower)."""

    expr: object
    """The sympy object (Basic or Matrix) math-verify produced."""
    text: str
    """The normalised LaTeX that was parsed, without `$` delimiters."""
    literal: Literal | None
    """Set when the text is a lone number."""
    digits: float
    """Magnitude estimate in decimal digits (see `guards.magnitude_digits`)."""
    symbolic: bool
    """Whether `expr` has free symbols."""


class ParseFailure(Exception):
    """The string could not be turned into a sympy object; the message says why."""


def normalise(text: str) -> str:
    """Clean a raw answer string into the LaTeX we parse: unwrap `\\boxed{}` and math delimiters,
    and apply the math-verify gap rewrites."""
    text = text.strip()
    for _ in range(3):
        before = text
        if text.startswith(("\\boxed", "\\fbox")):
            inner = last_box(text, DEFAULT_LIMITS)
            if inner and text.rstrip().endswith("}") and text.count("\\boxed") + text.count("\\fbox") == 1:
                text = inner.strip()
        for open_, close in _DELIMS:
            if text.startswith(open_) and text.endswith(close) and len(text) >= len(open_) + len(close):
                inner = text[len(open_): len(text) - len(close)]
                if "$" not in inner:
                    text = inner.strip()
                    break
        if text == before:
            break
    text = _EMPTYSET_RE.sub(r"\\emptyset", text)
    text = _CURRENCY_RE.sub("", text)
    text = _PY_POWER_RE.sub("^", text)
    words = _NUMBER_WORDS_RE.match(text)
    if words and any(c.isdigit() for c in words.group(1)):
        text = words.group(1)
    return _SCI_RE.sub(_expand_sci, text)


def _expand_sci(m: re.Match) -> str:
    try:
        value = Decimal(m.group(1)).scaleb(int(m.group(2)))
    except InvalidOperation:
        return m.group(0)
    return format(value, "f")


def read_literal(text: str) -> Literal | None:
    """The lone number `text` states, with its written precision; None if it is not one."""
    m = _LITERAL_RE.match(text)
    if not m:
        return None
    sign, whole, frac, pct = m.groups()
    whole = (whole or "").replace(",", "")
    if not whole and not frac:
        return None
    digits = (whole + (frac or "")).lstrip("0")
    value = Fraction(f"{sign}{whole or '0'}.{frac or '0'}")
    return Literal(value, len(frac or ""), len(digits) if digits else 1, bool(pct))


def parse_answer(text: str, limits: MathLimits = DEFAULT_LIMITS) -> Parsed:
    """Parse a raw answer string; raises ParseFailure (message says why) when it cannot be used."""
    latex = normalise(text)
    if not latex:
        raise ParseFailure("empty answer")
    why = text_guard(latex, limits)
    if why:
        raise ParseFailure(why)
    return _parse_normalised(latex, limits)


@lru_cache(maxsize=4096)
def parse_gold(gold: str) -> Parsed | str:
    """Parse a gold answer once per process; returns the reason string when it is unusable.

    Bare LaTeX and plain text are wrapped in `$...$` (math-verify only reads delimited LaTeX).
    """
    if len(gold) > DEFAULT_LIMITS.max_gold_chars:
        return f"gold longer than {DEFAULT_LIMITS.max_gold_chars} chars"
    try:
        return parse_answer(gold, DEFAULT_LIMITS)
    except ParseFailure as e:
        return str(e)


@lru_cache(maxsize=2048)
def parse_prediction(text: str) -> Parsed | str:
    """Parse an extracted answer (cached: a GRPO group repeats answers); reason string on failure."""
    try:
        return parse_answer(text, DEFAULT_LIMITS)
    except ParseFailure as e:
        return str(e)


def _parse_normalised(latex: str, limits: MathLimits) -> Parsed:
    expr = _math_verify_parse(latex)
    if expr is None:
        raise ParseFailure("not parseable as math")
    digits = magnitude_digits(expr, limits)
    symbolic = bool(getattr(expr, "free_symbols", None))
    if digits <= limits.max_exact_digits:
        expr = _normalise_symbols(expr)
        symbolic = bool(getattr(expr, "free_symbols", None))
    return Parsed(expr, latex, read_literal(latex), digits, symbolic)


def _math_verify_parse(latex: str) -> object | None:
    """First sympy object math-verify finds in `latex` (delimited with `$` unless it has its own)."""
    from math_verify import ExprExtractionConfig, LatexExtractionConfig, parse

    source = latex if "$" in latex else f"${latex}$"
    config = [LatexExtractionConfig(boxed_match_priority=0), ExprExtractionConfig()]
    for item in parse(source, extraction_config=config, parsing_timeout=None):
        if isinstance(item, (Basic, MatrixBase)):
            return item
    return None


def _normalise_symbols(expr: object) -> object:
    """Make `i` the imaginary unit and give every other symbol the same assumptions (real).

    latex2sympy makes symbols complex only when it spots `i` in the text, so `x` in one answer and
    `x` in another can be different sympy symbols; `\\frac{1}{1-i}` keeps `i` as a plain symbol.
    Rebuilding evaluates the tree, so this runs only after the magnitude guard passed.
    """
    symbols = getattr(expr, "free_symbols", None)
    if not symbols:
        return expr
    mapping = {}
    for s in symbols:
        if not isinstance(s, sympy.Symbol):
            continue
        if s.name == "i":
            mapping[s] = sympy.I
        elif s.is_real is not True:
            mapping[s] = sympy.Symbol(s.name, real=True)
    return expr.xreplace(mapping) if mapping else expr

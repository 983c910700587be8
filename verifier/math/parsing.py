"""Turn an answer string (gold or extracted) into a parsed answer: sympy object plus the facts about
its written form that comparison needs (a decimal literal's precision, a percent sign).

Strings are normalised first to work around math-verify 0.9.0 gaps (`\\varnothing`, `3e5`,
undelimited LaTeX such as `1 - \\sqrt{2}`), then parsed by math-verify with its own timeouts off
(`parsing_timeout=None`: our parent process enforces deadlines; `signal.alarm` is not usable in
worker threads). Parsed golds are cached per process, keyed by the gold string.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from functools import lru_cache
from itertools import pairwise
from typing import cast

import sympy
from sympy import Basic
from sympy.matrices import MatrixBase

from .extract import box_spans
from .grammar import approximation_agrees, read as read_stated
from .guards import complexity_guard, expansion_guard, magnitude_digits, text_guard
from .limits import DEFAULT_LIMITS, MathLimits
from .unicode_math import to_ascii_math

_EMPTYSET_RE = re.compile(r"\\varnothing\b|\\empty\b(?!set)|\\O\b")
# 3e5, 1.5E-3: not preceded by a letter/backslash (so not a variable or \exp), exponent <= 3 digits.
_SCI_RE = re.compile(r"(?<![\w.\\])(\d+(?:\.\d+)?)[eE]([-+]?\d{1,3})(?![\w.])")
# A whole answer in LaTeX scientific notation: 2.5 \times 10^{-3}, 3\cdot10^8 (exponent <= 3 digits).
_LATEX_SCI_RE = re.compile(r"^([-+]?)\s*(\d+(?:\.\d+)?)\s*\\(?:times|cdot)\s*10\s*\^\s*(?:\{\s*([-+]?\d{1,3})\s*\}|(\d))$")
# Degrees in an answer that applies a trig function: sin(90^{\circ} - x), \cos 60^\circ.
_TRIG_RE = re.compile(r"\\(?:sin|cos|tan|cot|sec|csc)(?![a-zA-Z])")
_DEGREE_RE = re.compile(r"(\d+(?:\.\d+)?)\s*\^\s*(?:\{\s*\\circ\s*\}|\\circ(?![a-zA-Z]))")
# A lone number as written: optional "x =", sign, currency, thousands commas, decimals, percent.
_LITERAL_RE = re.compile(
    r"^(?:[a-zA-Z]\s*=\s*)?([-+]?)\s*(?:\\\$|\$)?\s*([1-9]\d{0,2}(?:,\d{3})+|\d*)(?:\.(\d+))?\s*(\\?%)?$"
)
# A number written with a decimal comma, `1000,99`, `0,111`, `-2,5`: one comma, no space, never a
# thousands grouping (exactly three digits after the comma) unless the integer part is 0.
_DECIMAL_COMMA_RE = re.compile(r"^([-+]?)(\d{1,18}),(\d{1,18})$")
_CURRENCY_RE = re.compile(r"\\\$\s*")
_PY_POWER_RE = re.compile(r"(?<=[\w)\]}])\*\*(?=[\w({\[-])")
_DELIMS = (("$$", "$$"), ("\\[", "\\]"), ("\\(", "\\)"), ("$", "$"))
# Euler's number and the imaginary unit written upright: math-verify's unit stripping eats
# `\mathrm{e}` (1 - 1/\mathrm{e} read as 1), and as a trailing unit `3 + 2\mathrm{i}` would read 5.
_UPRIGHT_E_RE = re.compile(r"\\(?:mathrm|mathit|textrm|operatorname|text)\s*\{\s*([ei])\s*\}")
# `\sqrt(2)`: math-verify reads `4\sqrt(2)` as 4; a flat parenthesised argument becomes a braced one.
_SQRT_PAREN_RE = re.compile(r"\\sqrt\s*\(([^()]*)\)")
# A mixed number with a slash fraction, `1 1/2` or `-2 3/4` (the whole answer; LaTeX `1\frac{1}{2}`
# already reads as 3/2).
_MIXED_RE = re.compile(r"^([-+]?)(\d+)\s+(\d+)\s*/\s*(\d+)$")
# What may join boxes that together are one list: `\\boxed{1}, \\boxed{2}`, `\\(\\boxed{1}\\) and \\(\\boxed{2}\\)`.
_BOX_JOINER_RE = re.compile(r"^[\s,;$]*(?:\\[()\[\]][\s,;$]*)*(?:(?:and|or)[\s,;$]*(?:\\[()\[\]][\s,;$]*)*)?$")
# A trailing LaTeX line break or stray backslash: `185\\`.
_TRAILING_BREAK_RE = re.compile(r"\s*\\+$")
_BACKSLASH_RUN_RE = re.compile(r"\\+")
# A command behind a doubled backslash: `\\begin`, `\\frac` in a doubly escaped gold.
_ESCAPED_COMMAND_RE = re.compile(r"(?<!\\)\\\\[A-Za-z]")
_CASES_RE = re.compile(r"^\\begin\{cases\}(.*)\\end\{cases\}$", re.DOTALL)
# An ellipsis item of a list: `1, 3, \ldots, 2n-1`.
_ELLIPSIS_RE = re.compile(r"^(?:\\[lc]?dots|\\dotsc|\.\.\.|…)$")
ELLIPSIS = "\\Omega_{ldots}"
"""What an ellipsis item becomes: one symbol no answer writes, so sequences compare term by term."""
RATIO = "\\Omega_{ratio}"
"""The first item of a ratio of three or more terms read as a tuple: one symbol no answer writes, so a
ratio never equals a plain list of the same numbers (`2:4:6` is not the sequence `1, 2, 3`)."""
_MAX_RATIO_TERMS = 16
_ZERO_RE = re.compile(r"[-+]?0*\.?0*")
# What joins the solutions of a system in prose: `x = 1, y = 2 \text{ and } x = 3, y = 4` (or `or`).
_AND_RE = re.compile(r"\\(?:text|mathrm|textrm|mbox)\s*\{\s*(?:and|or)\s*\}|(?<![A-Za-z\\])(?:and|or)(?![A-Za-z])")
# Numbers side by side with no operator (docs/math.md "Math grading rules", numbers side by side).
# A number atom: a decimal, a fraction of two numbers, a parenthesised number. What may stand between
# two of them: spacing (a space, `\,`, `\ `, `\quad`, `~`). math-verify reads `1 2` as 1 + 2, `0.5 1`
# as 0.5 * 1 and `2(3)` as 2 + 3; only SI digit groups (`12 345`) and a mixed number (an integer then
# a fraction, `3 \frac{1}{2}`) are one number, and are admitted; every other such pair is refused.
_SPACER = r"(?:\s|\\[ ,;:!]|\\q?quad(?![A-Za-z])|~)+"
_NUM = r"(?:\d+(?:\.\d+)?|\.\d+)"
_FRAC = rf"\\[dt]?frac\s*\{{\s*[-+]?{_NUM}\s*\}}\s*\{{\s*{_NUM}\s*\}}"
_PAREN = rf"(?:\\left\s*)?\(\s*[-+]?{_NUM}\s*(?:\\right\s*)?\)"
_NUMBER_ATOM = rf"(?:(?<![\w.^_\\]){_NUM}|{_FRAC}|{_PAREN})"
_SIDE_BY_SIDE_RE = re.compile(
    rf"{_NUMBER_ATOM}(?:{_SPACER})?{_PAREN}"  # `2(3)`, `(2)(3)`, `2 (3)`
    rf"|{_NUMBER_ATOM}{_SPACER}{_NUM}(?![\d.])"  # `1 2`, `0.5 1`, `(2) 3`, `\frac{1}{2} 1`, `1 3/2`
    rf"|(?:{_FRAC}|{_PAREN}){_NUM}"  # `(2)3`, `\frac{1}{2}3`
    rf"|(?:(?<![\w.^_\\])\d*\.\d+|{_PAREN})(?:{_SPACER})?{_FRAC}"  # `0.5 \frac{1}{2}`: a mixed number is an integer's
)
# SI digit groups: `12 345`, `1\,000\,000`, one separator throughout, each group after the first of three digits.
_DIGIT_GROUPS_RE = re.compile(r"(?<![\w.^_\\])(\d{1,3})(\s|\\,|\\ |~)(\d{3}(?:\2\d{3})*)(?!\d|\s*/)")
_SPACING_RE = re.compile(r"^(?:\s|\\[,;:! ]|\\q?quad|~)+|(?:\s|\\[,;:! ]|\\q?quad|~)+$")
_NAMED_VALUE_RE = re.compile(r"^\s*([A-Za-z](?:_\{?[A-Za-z0-9]+\}?)?)\s*=\s*([^=]+?)\s*$")


# `\\textcirc`, `\\textdegree`: a degree mark written in text mode.
_TEXT_DEGREE_RE = re.compile(r"\s*\\text(?:circ|degree)(?![A-Za-z])\s*(?:\{\s*\})?")
# `m_{\\max}`: a named extremum; math-verify cannot parse an operator inside a subscript.
_SUBSCRIPT_OPERATOR_RE = re.compile(r"_\s*(?:\{\s*\\(max|min)\s*\}|\\(max|min)(?![A-Za-z]))")
# `\\frac{1+a}b`, `\\frac ab`: a one-token argument without braces (flat braced arguments only).
_FRAC_ARG = r"(\{[^{}]*\}|\\[A-Za-z]+|[A-Za-z0-9])"
_FRAC_SHORTHAND_RE = re.compile(rf"\\([dt]?frac)\s*{_FRAC_ARG}\s*{_FRAC_ARG}")
# An ordinal: `9th`, `7^{\\mathrm{th}}`, `3\\text{rd}`, `9th Day` (the number, as the question asks
# which one).
_ORDINAL_RE = re.compile(
    r"^(\d+)\s*(?:\^\s*\{?\s*)?(?:\\(?:mathrm|text|textrm|rm)\s*\{\s*)?(?:st|nd|rd|th)\s*\}?\s*\}?"
    r"(?:\s+(?:\\text\s*\{[A-Za-z ]*\}|[A-Za-z]+)){0,3}$"
)
_DOMAIN_TAIL_CHARS = 80
# A general solution's parameter domain: `, k \\in \\mathbb{Z}`, `(n \\in \\mathbb{Z})`, `\\text{ for integer } k`.
_PARAMETER_DOMAIN_RE = re.compile(
    r"(?:[,;]|\\quad|\\text\s*\{[^{}]*\})*\s*\(?\s*[kmn]\s*\\in\s*\\mathbb\s*\{?\s*Z\s*\}?\s*\)?\s*$"
    r"|\s*,?\s*\\text\s*\{\s*(?:for|where)\s+(?:any\s+|all\s+|some\s+)?integers?\s*\}\s*[kmn]\s*$"
)


# A clock time: `20:34`, `8:34 PM`, `8:34\\text{ p.m.}`, `08:34:10`.
_CLOCK_RE = re.compile(
    r"^(\d{1,2}):([0-5]\d)(?::([0-5]\d))?\s*(?:\\(?:text|mathrm)\s*\{\s*)?(?:([ap])\.?\s*m\.?)?\s*\}?$",
    re.IGNORECASE,
)


def clock_seconds(text: str) -> int | None:
    """Seconds after midnight of a clock time (12-hour with AM/PM, or 24-hour); None otherwise.

    `20:34` and `8:34 PM` are the same time; as LaTeX `20:34` would be the ratio 10/17.
    """
    m = _CLOCK_RE.match(text.strip())
    if not m:
        return None
    hours, minutes, seconds, half = int(m.group(1)), int(m.group(2)), int(m.group(3) or 0), m.group(4)
    if half:
        if not 1 <= hours <= 12:
            return None
        hours = hours % 12 + (12 if half.lower() == "p" else 0)
    elif hours > 23:
        return None
    return hours * 3600 + minutes * 60 + seconds


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
    named: str | None = None
    """For a list of named values (`p = -3, q = 1`), the values in order (`named_values`)."""


class ParseFailure(Exception):
    """The string could not be turned into a sympy object; the message says why."""


_COLOUR_RE = re.compile(r"\\textcolor\s*\{[A-Za-z]{1,20}\}\s*\{((?:[^{}]|\{[^{}]*\}){0,200})\}|\\color\s*\{[A-Za-z]{1,20}\}")
"""A colour (`\\textcolor{red}{6}`, `\\color{blue}`, a named colour only): presentation, dropped around what it colours."""


def _unwrapped(text: str) -> str:
    """`text` without its `\\boxed{}`, math delimiters and colours, up to three layers deep."""
    if "color" in text:
        text = _COLOUR_RE.sub(lambda m: m.group(1) or "", text)
    for _ in range(3):
        before = text
        if text.startswith(("\\boxed", "\\fbox")) and text.rstrip().endswith("}"):
            text = _boxes_as_answer(text) or text
        for open_, close in _DELIMS:
            if text.startswith(open_) and text.endswith(close) and len(text) >= len(open_) + len(close):
                inner = text[len(open_): len(text) - len(close)]
                if "$" not in inner:
                    text = inner.strip()
                    break
        if text == before:
            break
    return text


# A number written in a base: `1010_2`, `12_{8}`, `12_{(8)}`, `A3_{16}` (a letter first only in capitals, two or more).
_BASE_RE = re.compile(r"(?<![\w.\\^])(\d[0-9A-Za-z]*|[A-Z][0-9A-Z]+)_(?:\{\(?(\d{1,2})\)?\}|(\d)(?![\w{]))")
# A subscript on a number left after that (`6_500`, `19_8`: no digits of that base): not a value.
_NUMBER_SUBSCRIPT_RE = re.compile(r"(?<![\w.\\^])\d[0-9A-Za-z.]*_")


def _base_value(m: re.Match[str]) -> str:
    """The value of a number written in a base (`12_8` is 10), so a subscript never drops away:
    math-verify read `12_8` as 12 (docs/math.md "Math grading rules"). Digits the base does not
    have leave the text as written, and `answer_refusal` refuses it."""
    base = int(m.group(2) or m.group(3))
    if m.group(1)[0].isalpha() and base <= 10:
        return m.group()  # `AB_2`: a name with a subscript
    try:
        return str(int(m.group(1), base)) if 2 <= base <= 36 else m.group()
    except ValueError:
        return m.group()


# A lone name, then the parser's approximation: `x \\approx 11` (math-verify reads 11), `x ~= 11`. After a value
# (`\\frac{1}{3} \\approx 0.33`, `x = 1/3 \\approx 0.33`) the parser reads the exact value before it.
_NAMED_APPROXIMATION_RE = re.compile(r"(?:^|[=,;(\[])\s*(?:\\?[A-Za-z]+)(?:_\{?\w{1,3}\}?)?\s*(?:\\approx(?![A-Za-z])|~=)")
_KNOWN_SYMBOLS = frozenset("∠→")
"""Math symbols `unicode_math.to_ascii_math` leaves that the reader knows (an angle's name, a limit's
arrow). Every other Unicode math symbol in an answer is refused: the parser's relations and operators are
a closed set (`=`, `<`, `\\le`, `\\in`, `\\ne`, ...; `\\approx` it reads as its right side), and it
read `x ≃ 6` as 6 and `x ≒ 6` as `x = 6`."""


def _in_bases(text: str) -> str:
    """`text` with each number written in a base as its value (`_base_value`)."""
    return _BASE_RE.sub(_base_value, text) if "_" in text else text


def normalise(text: str) -> str:
    """Clean a raw answer string into the LaTeX we parse: Unicode math as LaTeX (`unicode_math`),
    unwrap `\\boxed{}` and math delimiters, and apply the math-verify gap rewrites."""
    text = _unwrapped((text if text.isascii() else to_ascii_math(text)).strip())
    text = _TRAILING_BREAK_RE.sub("", text)
    if _CLOCK_RE.match(text):
        return text  # a clock time: `p.m.` is not a unit (see `clock_seconds`)
    if text.endswith(".") and not text.endswith(".."):
        text = text[:-1].rstrip()  # an equation gold ending its sentence: `y = 2x + 1.`
    # Each rewrite below first checks for a marker with `in` (C speed): common answers skip them all.
    if "\\text" in text:
        text = _TEXT_DEGREE_RE.sub("^{\\\\circ}", text)
    if "\\max" in text or "\\min" in text:
        text = _SUBSCRIPT_OPERATOR_RE.sub(lambda m: "_{" + (m.group(1) or m.group(2)) + "}", text)
    text = _in_bases(text)
    if "frac" in text:
        text = _FRAC_SHORTHAND_RE.sub(_braced_frac, text)
    ordinal = _ORDINAL_RE.match(text) if text[:1].isdigit() else None
    if ordinal:
        text = ordinal.group(1)
    if "\\in" in text or "integer" in text:
        domain = _PARAMETER_DOMAIN_RE.search(text, max(len(text) - _DOMAIN_TAIL_CHARS, 0))  # bounded scan
        if domain and not _restricts_subject(text[: domain.start()], domain.group()):
            text = text[: domain.start()].strip() or text
    text = _EMPTYSET_RE.sub(r"\\emptyset", text)
    text = _CURRENCY_RE.sub("", text)
    text = _PY_POWER_RE.sub("^", text)
    text = _UPRIGHT_E_RE.sub(r"\1", text)
    text = _SQRT_PAREN_RE.sub(r"\\sqrt{\1}", text)
    if not _INEQUALITY_RE.search(text):  # words after a relation may restrict it (`n > 2 \text{ odd}`): kept
        text = drop_unit(text)
    if any(c.isdigit() for c in text[:-1]):  # `12 345` is 12345 (before `1 2` is refused, parse_answer)
        text = _DIGIT_GROUPS_RE.sub(lambda m: m.group(1) + m.group(3).replace(m.group(2), ""), text)
    mixed = _MIXED_RE.match(text)
    if mixed and int(mixed.group(3)) < int(mixed.group(4)):
        sign, whole, num, den = mixed.groups()
        text = f"{sign}{whole}\\frac{{{num}}}{{{den}}}"
    text = _cases_as_list(text)
    if "<" in text or ">" in text or "\\l" in text or "\\g" in text:
        text = _ordering_as_tuple(inequalities_as_intervals(text))
    if ":" in text:
        text = ratio_as_tuple(text)
    if "and" in text or "or" in text:
        text = solution_groups(text)
    text = _sequence_with_ellipsis(text)
    text = expand_plus_minus(text)
    text = collapse_parentheses(text)
    return _trig_degrees(_latex_sci_literal(_SCI_RE.sub(_expand_sci, text)))


def _braced_frac(m: re.Match) -> str:
    """`\\frac{1+a}b` -> `\\frac{1+a}{b}`: LaTeX takes one token as an argument; math-verify wants braces."""
    args = [a[1:-1] if a.startswith("{") else a for a in (m.group(2), m.group(3))]
    return f"\\{m.group(1)}{{{args[0]}}}{{{args[1]}}}"


# Inequalities: `<`, `\\le`, ... split a chain; `\\text{ or }`, `\\lor`, `\\cup` join the parts of a union.
# A doubled backslash (`-2 \\le x`, an escaping slip math-verify reads as `\\le`) is the same command.
_INEQUALITY_RE = re.compile(r"(<|>|\\+(?:leqslant|geqslant|leq|geq|le|ge|lt|gt)(?![A-Za-z]))")
_OR_RE = re.compile(r"\\text\s*\{\s*or\s*\}|\\(?:lor|vee|cup)(?![A-Za-z])|\bor\b")
_SET_BUILDER_RE = re.compile(
    r"^(?:\\left)?\\\{\s*([A-Za-z])\s*(?:\\in\s*\\mathbb\s*\{?\s*R\s*\}?\s*)?(?:\\mid|\\vert|\||:)(.*?)(?:\\right)?\\\}$",
    re.DOTALL,
)
_COMMAND_RE = re.compile(r"\\[A-Za-z]+")
_MAX_UNION_PARTS = 8
_NAME_RE = re.compile(r"^[A-Za-z](?:_\{?[A-Za-z0-9]+\}?)?$")


def inequalities_as_intervals(text: str) -> str:
    """Inequalities on one variable as the intervals they describe (docs/math.md "Math grading rules"):
    `1 < t \\le 3 \\text{ or } 5 \\le t < 9` -> `(1, 3] \\cup [5, 9)`; a set-builder gold
    `\\{x \\mid -1<x<4\\}` -> `(-1, 4)`. A lone one-sided `x > 3` stays a relation (docs/math.md "Math grading rules": a
    relation never equals a value), as does anything with a bound that is not a number."""
    if "<" not in text and ">" not in text and "\\l" not in text and "\\g" not in text:
        return text
    builder = _SET_BUILDER_RE.match(text)
    body = builder.group(2) if builder else text
    parts = _OR_RE.split(body)
    if len(parts) > _MAX_UNION_PARTS:
        return text  # a long union costs the parser far more than it is worth reading
    found = [_interval(part.strip()) for part in parts]
    intervals = [i for i in found if i is not None]
    if len(intervals) < len(found) or len({i[0] for i in intervals}) != 1:
        return text
    if not builder and len(parts) == 1 and not intervals[0][2]:
        return text
    return " \\cup ".join(i[1] for i in intervals)


def _interval(part: str) -> tuple[str, str, bool] | None:
    """(variable, interval, two-sided) for `a < x \\le b`, `x > a` or `a \\ge x`; None otherwise."""
    tokens = [t.strip() for t in _INEQUALITY_RE.split(part)]
    if len(tokens) not in (3, 5):
        return None
    terms, ops = tokens[::2], [_BACKSLASH_RUN_RE.sub(r"\\", op) for op in tokens[1::2]]
    ups = {op in ("<", "\\lt", "\\le", "\\leq", "\\leqslant") for op in ops}
    if len(ups) != 1:
        return None
    up = ups.pop()
    strict = [op in ("<", ">", "\\lt", "\\gt") for op in ops]
    if len(terms) == 3:
        var, (lo, lo_open), (hi, hi_open) = terms[1], (terms[0], strict[0]), (terms[2], strict[1])
        if not up:
            (lo, lo_open), (hi, hi_open) = (hi, hi_open), (lo, lo_open)
    elif _NAME_RE.match(terms[0]):
        var, bound = terms[0], terms[1]
        (lo, lo_open), (hi, hi_open) = (("-\\infty", True), (bound, strict[0])) if up else ((bound, strict[0]), ("\\infty", True))
    else:
        var, bound = terms[1], terms[0]
        (lo, lo_open), (hi, hi_open) = ((bound, strict[0]), ("\\infty", True)) if up else (("-\\infty", True), (bound, strict[0]))
    if not _NAME_RE.match(var) or not all(_is_bound(b) for b in (lo, hi)):
        return None
    return var, f"{'(' if lo_open else '['}{lo}, {hi}{')' if hi_open else ']'}", len(terms) == 3


def _is_bound(text: str) -> bool:
    """A number as a bound: digits and LaTeX commands (`\\frac`, `\\sqrt`, `\\infty`), no variable."""
    return bool(text) and not any(c.isalpha() for c in _COMMAND_RE.sub("", text)) and "=" not in text


def lone_relation(text: str) -> bool:
    """Whether `text` is one inequality between a name and a number and nothing else (`y > 2`,
    `2 < y`, `y \\le -\\frac{1}{2}`): the closed grammar a relation must fit to be read as the interval
    it describes (compare.half_line; docs/math.md "Math grading rules"). A qualifier written beside
    it (`n > 2, n \\in \\mathbb{Z}`, `n > 2 \\text{ odd}`) restricts the values, and math-verify drops
    such text: no interval then."""
    tokens = [t.strip() for t in _INEQUALITY_RE.split(text)]
    if len(tokens) != 3:
        return False
    left, right = tokens[0], tokens[2]
    return bool(_NAME_RE.match(left) and _is_bound(right) or _NAME_RE.match(right) and _is_bound(left)) and \
        "\\text" not in text and "," not in text


def _restricts_subject(before: str, domain: str) -> bool:
    """Whether a parameter domain (`, n \\in \\mathbb{Z}`) names a variable that stands alone on a side
    of an inequality before it (`n > 2, n \\in \\mathbb{Z}` is 3, 4, 5, ..., not `n > 2`): then it is
    no parameter, and dropping it would change the answer. `\\frac{\\pi}{6} + k\\pi, k \\in \\mathbb{Z}` drops it."""
    if not _INEQUALITY_RE.search(before):
        return False
    names = set(re.findall(r"(?<![A-Za-z\\])[kmn](?![A-Za-z])", domain))
    return any(t.strip() in names for t in _INEQUALITY_RE.split(before)[::2])


def _ordering_as_tuple(text: str) -> str:
    """A chain of one comparison among three or more names is the ordering it states, as written:
    `q < p < s < r` -> `(q, p, s, r)` (answered by the list `q, p, s, r`; not reversed for `>`)."""
    if "<" not in text and ">" not in text:
        return text
    tokens = [t.strip() for t in _INEQUALITY_RE.split(text)]
    terms, ops = tokens[::2], tokens[1::2]
    if len(terms) < 3 or len(set(ops)) != 1 or not all(_NAME_RE.match(t) for t in terms):
        return text
    return "(" + ", ".join(terms) + ")"


def named_values(text: str) -> str | None:
    """The values of a list of named values, in the order written: `p = -3, q = 1` -> `-3, 1`,
    `S(1)=5, S(2)=7, S(3)=6` -> `5, 7, 6`; None for anything else (distinct names required: the
    solutions `x = 2, x = 3` are a set). An answer that lists bare values answers it in that order.
    Read by `named_items`, the one reader of named values."""
    items = named_items(text)
    if items is None or len({name for name, _ in items}) != len(items):
        return None
    return ", ".join(value for _, value in items)


def named_items(text: str) -> list[tuple[str, str]] | None:
    """The (name, value) pairs of a list of named values in the order written, a name repeated or not; None
    for anything else. The one reader of every spelling the grader admits (docs/math.md "Math grading rules",
    named values): items joined by `,`, `;` or `\\text{ and }` (`y = 1; x = 2`), the whole list in brackets
    (`(y = 1, x = 2)`, `\\{y = 1, x = 2\\}`), a tuple of names (`(y, x) = (1, 2)`), and names that are a
    letter with a subscript or argument or a Greek letter (`\\beta = 1`). Any other pairing is no list."""
    if "=" not in text:
        return None
    text = _NAMED_SPACING_RE.sub(" ", text).strip()
    tupled = _NAME_TUPLE_RE.match(text)
    if tupled:
        names, values = _top_level_items(tupled.group(1)), _top_level_items(tupled.group(2))
        pairs = list(zip((n.strip() for n in names), (v.strip() for v in values)))
        return pairs if len(names) == len(values) > 1 and all(_VALUE_NAME_RE.match(n) for n, _ in pairs) else None
    bracketed = _LIST_BRACKETS_RE.fullmatch(text)
    inner = next((g for g in bracketed.groups() if g is not None), "") if bracketed else ""
    if "=" in inner and _balanced(inner):
        text = inner
    items = [item.split("=") for item in _top_level_items(_NAMED_JOINER_RE.sub(",", text))]
    if len(items) < 2 or any(len(item) != 2 for item in items):
        return None
    pairs = [(name.strip(), value.strip()) for name, value in items]
    return pairs if all(_VALUE_NAME_RE.match(name) and value for name, value in pairs) else None


def _balanced(text: str) -> bool:
    """Whether every bracket in `text` closes inside it (so outer brackets enclose the whole list)."""
    depth = 0
    for c in text:
        depth += 1 if c in "([{" else -1 if c in ")]}" else 0
        if depth < 0:
            return False
    return depth == 0


_NAMED_SPACING_RE = re.compile(r"\\[,;: !]|\\q?quad(?![A-Za-z])|\\left(?![A-Za-z])|\\right(?![A-Za-z])")
_NAMED_JOINER_RE = re.compile(r"\s*(?:;|\\text\s*\{\s*(?:,\s*)?and\s*\}|\band\b)\s*")
_NAME_TUPLE_RE = re.compile(r"^\(([^()=]*)\)\s*=\s*\(([^=]*)\)$")
_LIST_BRACKETS_RE = re.compile(r"\((?P<p>.*)\)|\[(?P<b>.*)\]|\\\{(?P<c>.*)\\\}", re.DOTALL)

CONVENTIONAL_ORDERS: tuple[tuple[str, ...], ...] = (
    ("x", "y", "z", "w"), ("a", "b", "c", "d"), ("p", "q"), ("m", "n"), ("h", "k"), ("u", "v", "w"), ("r", "\\theta"),
    ("\\alpha", "\\beta", "\\gamma"),
)
"""The orders in which named values answer a bare tuple (docs/math.md "Math grading rules", named values): the
coordinates, coefficients and parameters questions list in these orders, and one letter's subscripts (`x_1, x_2`).
Any other set of names (`b = 2, m = 3`: the slope-intercept pair is `(m, b)`; `\\theta, r`) has no known order,
and named values are never read in the order written: against a bare tuple they are refused."""


def name_order(names: list[str]) -> list[str] | None:
    """`names` in their conventional order (`CONVENTIONAL_ORDERS`, or one letter's subscripts by number), or None
    when they follow no known order: a name's place, never where the answer wrote it."""
    for order in CONVENTIONAL_ORDERS:
        if all(n in order for n in names):
            return sorted(names, key=order.index)
    subscripted = [_SUBSCRIPT_RE.match(n) for n in names]
    if all(subscripted) and len({m.group(1) for m in subscripted if m}) == 1:
        return sorted(names, key=lambda n: int(_SUBSCRIPT_RE.match(n).group(2)))  # type: ignore[union-attr]
    return None


_SUBSCRIPT_RE = re.compile(r"^([A-Za-z]|\\[a-z]+)_\{?(\d{1,3})\}?$")
_GREEK = r"\\(?:alpha|beta|gamma|delta|epsilon|varepsilon|zeta|eta|theta|vartheta|iota|kappa|lambda|mu|nu|xi|rho|sigma|tau|phi|varphi|chi|psi|omega)(?![A-Za-z])"
_VALUE_NAME_RE = re.compile(r"^(?:[A-Za-z]|" + _GREEK + r")(?:_\{?[A-Za-z0-9]+\}?)?(?:\([^()=,]*\))?$")


def _boxes_as_answer(text: str) -> str | None:
    """A text written as boxes: one box is its content; several boxes joined only by commas, `and`
    or `or` (`\\boxed{1}, \\boxed{-2}`) are the list of them, as math-verify reads them; boxes with
    other text between (`\\boxed{1} no no \\boxed{2}`) are the last one."""
    spans = box_spans(text)
    if not spans:
        return None
    gaps = [text[end:start] for (_, end, _), (start, _, _) in pairwise(spans)]
    if all(_BOX_JOINER_RE.match(gap) for gap in gaps):
        return ", ".join(content for _, _, content in spans)
    return spans[-1][2]


def drop_unit(text: str) -> str:
    """The one unit rule, applied alike to gold and answer: the value the answer grammar reads
    (`verifier/math/grammar.py`, docs/math.md "Answer grammar") when words stand around it.

    `10 cm`, `10\\text{ cm}`, `10\\,\\mathrm{kg}`, `18 dollars` all read as 10 (or 18). Units are
    not compared: the question fixes them. Words outside the grammar (`4 thousand`) are kept, and
    an answer holding them is refused (`answer_refusal`).
    """
    reading = read_stated(text)
    return reading.text if reading.kind == "number" else text


def answer_refusal(text: str) -> str | None:
    """Why the answer grammar refuses an answer (a word that scales, hedges or negates, a second
    value, a `?`), or None. Answers only: a gold is the dataset's and is read as written."""
    inner = _unwrapped((text if text.isascii() else to_ascii_math(text)).strip())
    if not inner.isascii() and any(not c.isascii() and unicodedata.category(c) in ("Sm", "So") and c not in _KNOWN_SYMBOLS
                                   for c in inner):
        return "a math symbol the reader does not know (`x ≃ 6`, `x ≒ 6`): the parser drops or guesses it"
    if ("\\approx" in inner or "~=" in inner) and _NAMED_APPROXIMATION_RE.search(inner):
        return "an approximation of a name (`x \\approx 6`): the parser reads it as 6, it states no exact value"
    if not approximation_agrees(inner):
        return "an approximation to another value (`6 \\approx 7`): every side after it must round from the first"
    if "_" in inner and _NUMBER_SUBSCRIPT_RE.search(_in_bases(inner)):
        return "a subscript on a number that is no base's digits (`6_500`): the parser would drop it"
    reading = read_stated(_TRAILING_BREAK_RE.sub("", inner))
    return f"outside the answer grammar: {reading.text}" if reading.kind == "refused" else None


def _cases_as_list(text: str) -> str:
    """A `cases` environment of equations (a system's solution) is the list of its lines:
    `x = 1, y = 2`."""
    m = _CASES_RE.match(text)
    if not m:
        return text
    lines = [line.replace("&=", "=").strip() for line in m.group(1).split("\\\\")]
    lines = [line for line in lines if line]
    if not lines or any("&" in line or "=" not in line for line in lines):
        return text  # a piecewise definition (`2x & x > 0`), not a system's solution
    return ", ".join(lines)


def ratio_as_tuple(text: str) -> str:
    """A ratio of three or more numbers, `2:4:6` or `2:4:6:\\ldots`, as the tuple of its terms divided
    by the first, after a `RATIO` marker: `(\\Omega_{ratio}, \\frac{2}{2}, \\frac{4}{2}, \\frac{6}{2},
    \\Omega_{ldots})` (docs/math.md "Math grading rules"). So proportional ratios are equal term by
    term (`1:2:3:\\ldots` answers `2:4:6:\\ldots`), an ellipsis is one term (as in a sequence), and
    nothing else equals a ratio. math-verify reads `1:2:3` as (1/2)/3, which made `1:6:1` equal to it,
    and cannot read `2:4:6:\\ldots` at all (the gold was `invalid_gold`, so every answer went
    ungraded). The divisor is the first term not written as 0 (`0:1:2` is `0:2:4`). A two-term ratio
    stays math-verify's quotient; a term that is not a number (`A:B:C`), all terms 0, or an ellipsis
    anywhere but last leaves the text as it is."""
    if "=" in text or text.count(":") + 1 > _MAX_RATIO_TERMS:
        return text
    terms = [t.strip() for t in text.split(":")]
    marks = [bool(_ELLIPSIS_RE.match(t)) for t in terms]
    numbers = [t for t, mark in zip(terms, marks) if not mark]
    if len(terms) < 3 or any(marks[:-1]) or len(numbers) < 2 or not all(_is_bound(t) and "infty" not in t for t in numbers):
        return text
    first = next((t for t in numbers if not _ZERO_RE.fullmatch(t)), None)
    if first is None:
        return text
    items = [RATIO] + [f"\\frac{{{t}}}{{{first}}}" for t in numbers] + ([ELLIPSIS] if marks[-1] else [])
    return "(" + ", ".join(items) + ")"


def solution_groups(text: str) -> str:
    """Solutions of a system joined by `and` are the groups a `;` separates: `x = 1, y = 2 \\text{ and }
    x = 3, y = 4` -> `x = 1, y = 2; x = 3, y = 4` (docs/math.md "Math grading rules"). Only when every
    group names the same variables in the same order, each once (two or more): math-verify reads `and`
    as a comma, which flattened both solutions into one set of four equations, so the swapped pairing
    `x = 1, y = 4 \\text{ and } x = 3, y = 2` equalled it. `1, 2 and 3` stays a list of three."""
    if ";" in text or "," not in text:
        return text
    groups = [_SPACING_RE.sub("", g) for g in _AND_RE.split(text)]
    if len(groups) < 2:
        return text
    names = [_group_names(g) for g in groups]
    if names[0] is None or len(names[0]) < 2 or any(n != names[0] for n in names):
        return text
    return "; ".join(groups)


def pairing_lost(expr: object) -> bool:
    """A set of equations that names one variable twice beside another: `x = 1, y = 2, x = 3, y = 4`
    read flat, whatever joined it (math-verify flattens `or`, commas, ...), no longer says which `y`
    goes with which `x`, so the swapped pairing would equal it (docs/math.md "Math grading rules").
    Grouped solutions (`;`, `and`, `or`: solution_groups) are tuples, and one variable's values
    (`x = 2, x = -3`) are a set of values: both are kept."""
    if not isinstance(expr, sympy.FiniteSet) or len(expr) < 3:
        return False
    names = [str(e.lhs) for e in expr.args if isinstance(e, sympy.Equality) and isinstance(e.lhs, sympy.Symbol)]
    return len(names) == len(expr.args) and 1 < len(set(names)) < len(names)


def _group_names(group: str) -> tuple[str, ...] | None:
    """The names of `x = 1, y = 2` in order, or None unless every item is `name = value` (distinct names)."""
    found = [_NAMED_VALUE_RE.match(item) for item in _top_level_items(group)]
    if not all(found):
        return None
    names = tuple(m.group(1) for m in found if m)
    return names if len(set(names)) == len(names) else None


def _sequence_with_ellipsis(text: str) -> str:
    """`1, 3, 5, \\ldots, 2n-1` -> an ordered tuple with the ellipsis as one placeholder symbol.

    math-verify drops `\\ldots` and keeps a fragment (`2`), which made any two such sequences equal.
    """
    if "," not in text or ("dots" not in text and "..." not in text and "…" not in text):
        return text
    opened = text[:1] in "([" or text.startswith("\\{")
    items = [item.strip() for item in text.split(",")]
    marks = [bool(_ELLIPSIS_RE.match(item)) for item in items]
    if not any(marks):
        return text
    items = [ELLIPSIS if mark else item for item, mark in zip(items, marks)]
    joined = ", ".join(items)
    return joined if opened else f"({joined})"


def collapse_parentheses(text: str) -> str:
    """Drop redundant parentheses: `((1))` -> `(1)`. Linear (one stack pass).

    A pair is redundant when it wraps exactly another pair; such nests cost ANTLR a lot and mean
    nothing, so the nesting guard then sees the real depth of the answer.
    """
    if "((" not in text:
        return text
    match: dict[int, int] = {}
    stack: list[int] = []
    for i, c in enumerate(text):
        if c == "(":
            stack.append(i)
        elif c == ")" and stack:
            match[stack.pop()] = i
    drop = {i for i, j in match.items() if match.get(i + 1) == j - 1}
    drop |= {match[i] for i in drop}
    return "".join(c for i, c in enumerate(text) if i not in drop)


def expand_plus_minus(text: str) -> str:
    """One `\\pm` is the two values it stands for: `\\frac{-1 \\pm \\sqrt{13}}{4}` is the list
    `\\frac{-1 + \\sqrt{13}}{4}, \\frac{-1 - \\sqrt{13}}{4}` (math-verify cannot parse a `\\pm` inside
    a fraction). In a comma list only the element holding it is doubled. Several signs are left
    alone: whether they vary together is not written."""
    if text.count("\\pm") != 1 or "\\mp" in text:
        return text
    out: list[str] = []
    for part in _top_level_items(text):
        if "\\pm" in part:
            out += [part.replace("\\pm", "+"), part.replace("\\pm", "-")]
        else:
            out.append(part)
    return ", ".join(p.strip() for p in out)


def _top_level_items(text: str) -> list[str]:
    """`text` split at the commas outside any bracket."""
    items, depth, start = [], 0, 0
    for i, c in enumerate(text):
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == "," and depth == 0:
            items.append(text[start:i])
            start = i + 1
    items.append(text[start:])
    return items


def _trig_degrees(text: str) -> str:
    """Degree marks as radians when the answer applies a trig function (package docstring), so
    `\\sin(90^{\\circ}-x)` is `\\cos(x)`; math-verify drops the mark, reading sin(90 - x) in radians.
    Elsewhere a degree mark stays a unit mark: `90^\\circ` is 90."""
    if not _TRIG_RE.search(text):
        return text
    return _DEGREE_RE.sub(r"(\1\\cdot\\frac{\\pi}{180})", text)


def _latex_sci_literal(text: str) -> str:
    """A lone number in scientific notation as the decimal it states, so that it gets the decimal
    rules (package docstring: a decimal gold compares at its own precision): `2.314814814815 \\times 10^{-3}`
    is 0.002314814814815, stated to 15 decimals."""
    m = _LATEX_SCI_RE.match(text)
    if not m:
        return text
    sign, mantissa, exp_braced, exp_digit = m.groups()
    value = Decimal(mantissa).scaleb(int(exp_braced or exp_digit))
    return ("-" if sign == "-" else "") + format(value, "f")


def _expand_sci(m: re.Match) -> str:
    try:
        value = Decimal(m.group(1)).scaleb(int(m.group(2)))
    except InvalidOperation:
        return m.group(0)
    return format(value, "f")


def decimal_comma(text: str) -> str | None:
    """`1000,99` -> `1000.99`, `0,111` -> `0.111`: the European decimal a lone `d,d` may be, or None.

    Only where it cannot be a thousands grouping (`1,220` is 1220) and only as the whole answer:
    `1, 22` (with a space) and `(1,22)` are lists. A bare `1,22` could still be a list, so the
    caller reads it as a decimal only against a single number (`compare.decimal_comma_readings`).
    """
    m = _DECIMAL_COMMA_RE.match(text)
    if not m or (len(m.group(3)) == 3 and m.group(2) != "0"):
        return None
    return f"{m.group(1)}{m.group(2)}.{m.group(3)}"


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
    if _SIDE_BY_SIDE_RE.search(latex):
        raise ParseFailure("two numbers side by side with no operator")
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
        reason, repaired = str(e), unescape_gold(gold)
    if repaired is None:
        return reason
    try:
        return parse_answer(repaired, DEFAULT_LIMITS)
    except ParseFailure:
        return reason


def unescape_gold(gold: str) -> str | None:
    """A doubly escaped gold (`\\\\frac12`, rows split by four backslashes) with every backslash
    run halved, or None when it does not look doubly escaped.

    A data repair, tried only on a gold that does not parse as given (docs/math.md "Math grading rules"): every
    backslash run has even length (a single-backslash command means the text is not escaped twice)
    and a doubled one starts a command (`\\\\begin`). Answers are never repaired.
    """
    runs = _BACKSLASH_RUN_RE.findall(gold)
    if not runs or any(len(r) % 2 for r in runs) or not _ESCAPED_COMMAND_RE.search(gold):
        return None
    return _BACKSLASH_RUN_RE.sub(lambda m: m.group()[: len(m.group()) // 2], gold)


@lru_cache(maxsize=2048)
def parse_prediction(text: str) -> Parsed | str:
    """Parse an extracted answer (cached: a GRPO group repeats answers); reason string on failure."""
    refused = answer_refusal(text) or complexity_guard(text, DEFAULT_LIMITS)
    if refused:
        return refused
    try:
        parsed = parse_answer(text, DEFAULT_LIMITS)
    except ParseFailure as e:
        return str(e)
    return expansion_guard(parsed.expr, DEFAULT_LIMITS) or parsed


def _parse_normalised(latex: str, limits: MathLimits) -> Parsed:
    expr = _math_verify_parse(latex)
    if expr is None:
        raise ParseFailure("not parseable as math")
    if pairing_lost(expr):
        raise ParseFailure("solutions of a system without their pairing (join them with ';', 'and' or 'or')")
    digits = magnitude_digits(expr, limits)
    symbolic = bool(getattr(expr, "free_symbols", None))
    if digits <= limits.max_exact_digits:
        expr = _normalise_symbols(expr)
        symbolic = bool(getattr(expr, "free_symbols", None))
    return Parsed(expr, latex, read_literal(latex), digits, symbolic, named_values(latex))


def _math_verify_parse(latex: str) -> object | None:
    """First sympy object math-verify finds in `latex` (delimited with `$` unless it has its own)."""
    from math_verify import ExprExtractionConfig, LatexExtractionConfig, parse

    source = latex if "$" in latex else f"${latex}$"
    found = parse(source, extraction_config=[LatexExtractionConfig(boxed_match_priority=0)], parsing_timeout=None)
    if found and isinstance(found[0], (Basic, MatrixBase)):
        return found[0]
    # The plain-expression reader finds a number anywhere (`4\\sqrt(2)` -> 4): use it only when what
    # it read is the whole answer.
    found = parse(source, extraction_config=[ExprExtractionConfig()], parsing_timeout=None)
    if len(found) == 2 and isinstance(found[0], Basic) and _squash(found[1]) == _squash(latex):
        return found[0]
    return None


def _squash(text: str) -> str:
    return "".join(text.split()).strip("$")


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
    # what has free_symbols has xreplace (sympy's Basic, and its matrices, which are not Basic)
    return cast("sympy.Basic", expr).xreplace(mapping) if mapping else expr

"""Unicode math characters as their ASCII/LaTeX meaning: the one place this is decided.

Applied alike to gold and answer (`parsing.normalise`) and to the windows extraction reads prose
from (`extract.anchored_text`, the lenient tail), so `−12` (U+2212) is -12 everywhere; before, an
anchored "The answer is −12 degrees Celsius" read 12 and was paid against gold 12 (docs/math.md "Math grading
rules"). Pure string work, no sympy, linear time; ASCII text is returned at once.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

# Characters with a LaTeX meaning, spaced so that a command never runs into the next letter
# (`πr` -> `\pi r`). `_FOLDS` (below) does the rest: full-width digits, non-breaking and thin spaces.
_LATEX = {
    "\u2212": "-", "\u2796": "-", "\u00d7": " \\times ", "\u00f7": " \\div ", "\u00b7": " \\cdot ",
    "\u22c5": " \\cdot ", "\u2219": " \\cdot ", "\u2264": " \\le ", "\u2a7d": " \\le ", "\u2265": " \\ge ",
    "\u2a7e": " \\ge ", "\u2260": " \\ne ", "\u2248": " \\approx ", "\u221e": "\\infty ", "\u222a": " \\cup ",
    "\u2229": " \\cap ", "\u2208": " \\in ", "\u03c0": "\\pi ", "\u00b1": "\\pm ", "\u2213": "\\mp ",
    "\u2205": "\\emptyset ", "\u2044": "/", "\u200b": "", "\u2060": "", "\ufeff": "",
}
_SUPERSCRIPTS = {"\u2070": "0", "\u00b9": "1", "\u00b2": "2", "\u00b3": "3", "\u2074": "4", "\u2075": "5",
                 "\u2076": "6", "\u2077": "7", "\u2078": "8", "\u2079": "9", "\u207b": "-", "\u207a": "+"}
_VULGAR = "½⅓⅔¼¾⅕⅖⅗⅘⅙⅚⅐⅛⅜⅝⅞⅑⅒"
_FRACTIONS = {c: "\\frac{{{}}}{{{}}}".format(*unicodedata.normalize("NFKC", c).split("\u2044")) for c in _VULGAR}
_SUPERSCRIPT_RE = re.compile(f"[{''.join(_SUPERSCRIPTS)}]+")
_FRACTION_RE = re.compile(f"[{_VULGAR}]")
# `√2`, `√x`, `√(x+1)`, `√{2}`: the radicand is the digits, one letter, or the bracket that follows.
_ROOT_RE = re.compile(r"\u221a\s*(\d+(?:\.\d+)?|[A-Za-z](?![A-Za-z])|\\pi\b)?")
# A degree sign, with a Celsius or Fahrenheit letter after it (a unit, dropped like any other).
_DEGREE_RE = re.compile(r"\u00b0\s*(?:[CF](?![A-Za-z]))?|\u2103|\u2109")
_SPECIAL_RE = re.compile(f"[{''.join(_LATEX)}]")


def to_ascii_math(text: str) -> str:
    """`text` with every Unicode math character replaced by its ASCII or LaTeX meaning:
    `−` `×` `÷` `·` `≤` `≥` `≠` `∞` `∪` `∩` `∈` `√` `π` `°` `±`, superscript digits (`x²` -> `x^2`),
    vulgar fractions (`1½` -> `1\\frac{1}{2}`, a mixed number), then the compatibility folds `_FOLDS` admits
    (full-width forms, digits in other forms, spaces; never `ⅿ` to `m`). The en dash is left alone: `3–5` is a range,
    not 3 - 5."""
    if text.isascii():
        return text
    text = _SUPERSCRIPT_RE.sub(_superscript, text)
    text = _FRACTION_RE.sub(lambda m: _FRACTIONS[m.group()], text)
    text = _DEGREE_RE.sub("^{\\\\circ}", text)
    text = _ROOT_RE.sub(_root, text)
    text = _SPECIAL_RE.sub(lambda m: _LATEX[m.group()], text)
    return "".join(_fold(c) for c in unicodedata.normalize("NFC", text))


def _fold(c: str) -> str:
    """`c` with its compatibility fold when that fold is one `_FOLDS` admits, else `c` unchanged: NFKC is a list of
    folds nobody chose, and some give a numeral a unit's letter (`ⅿ`, one thousand, became `m`, a metre; red team 8
    class 4). Canonical equivalents are composed by NFC before (`é` written as `e` and an accent)."""
    if c.isascii():
        return c
    folded = unicodedata.normalize("NFKC", c)
    return folded if folded != c and any(admits(c, folded) for _, admits in _FOLDS) else c


_FOLDS: tuple[tuple[str, Callable[[str, str], bool]], ...] = (
    ("a digit in another form (full-width `６`, mathematical bold `𝟔`): the same decimal digit",
     lambda c, f: unicodedata.category(c) == "Nd" and f.isascii() and f.isdigit()),
    ("a full-width form (`ｋ`, `：`, `（`): the ASCII character it is written as",
     lambda c, f: "\uff01" <= c <= "\uff5e"),
    ("a mathematical alphanumeric symbol (bold `𝐤`, italic `𝑥`): the letter in a math font",
     lambda c, f: "\U0001d400" <= c <= "\U0001d7ff"),
    ("a space of another width (no-break, thin, narrow, ideographic): a space",
     lambda c, f: unicodedata.category(c) == "Zs"),
    ("a squared unit abbreviation (`㎞`, `㎏`, `㎡`): the unit it abbreviates", lambda c, f: "\u3380" <= c <= "\u33df"),
    ("the ellipsis `…`: three periods", lambda c, f: c == "\u2026"),
)
"""The compatibility folds `to_ascii_math` admits, each with its reason (docs/math.md "Answer grammar"): an allowlist.
Every other character NFKC would fold is kept as written, so Roman numerals (`ⅿ`, `ⅾ`, `ⅽ`), modifier and
superscript letters (`ᵐ`, `ⁿ`), letterlike symbols (`ℳ`) never become the letters a unit is read from; the grammar
refuses them as unknown words."""


def _superscript(m: re.Match) -> str:
    exponent = "".join(_SUPERSCRIPTS[c] for c in m.group())
    return f"^{exponent}" if len(exponent) == 1 else f"^{{{exponent}}}"


def _root(m: re.Match) -> str:
    radicand = m.group(1)
    return f"\\sqrt{{{radicand}}}" if radicand else "\\sqrt"

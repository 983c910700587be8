"""Unicode math characters as their ASCII/LaTeX meaning: the one place this is decided.

Applied alike to gold and answer (`parsing.normalise`) and to the windows extraction reads prose
from (`extract.anchored_text`, the lenient tail), so `−12` (U+2212) is -12 everywhere; before, an
anchored "The answer is −12 degrees Celsius" read 12 and was paid against gold 12 (docs/math.md "Math grading
rules"). Pure string work, no sympy, linear time; ASCII text is returned at once.
"""

from __future__ import annotations

import re
import unicodedata

# Characters with a LaTeX meaning, spaced so that a command never runs into the next letter
# (`πr` -> `\pi r`). NFKC (below) does the rest: full-width digits, non-breaking and thin spaces.
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
    vulgar fractions (`1½` -> `1\\frac{1}{2}`, a mixed number), then NFKC (full-width digits,
    non-breaking and thin spaces). The en dash is left alone: `3–5` is a range, not 3 - 5."""
    if text.isascii():
        return text
    text = _SUPERSCRIPT_RE.sub(_superscript, text)
    text = _FRACTION_RE.sub(lambda m: _FRACTIONS[m.group()], text)
    text = _DEGREE_RE.sub("^{\\\\circ}", text)
    text = _ROOT_RE.sub(_root, text)
    text = _SPECIAL_RE.sub(lambda m: _LATEX[m.group()], text)
    return unicodedata.normalize("NFKC", text)


def _superscript(m: re.Match) -> str:
    exponent = "".join(_SUPERSCRIPTS[c] for c in m.group())
    return f"^{exponent}" if len(exponent) == 1 else f"^{{{exponent}}}"


def _root(m: re.Match) -> str:
    radicand = m.group(1)
    return f"\\sqrt{{{radicand}}}" if radicand else "\\sqrt"

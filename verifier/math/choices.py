"""Multiple-choice answers: read a string as one of the lettered choices A, B, C, ...

Our own reader, not math-verify's `StringExtractionConfig`, which picks stray letters
("It is not B, the answer is D" -> B) and misses `\\boxed{B}` and `Answer: (A)`.
"""

from __future__ import annotations

import re
from typing import Sequence

_WRAPPER_RE = re.compile(r"^\\(?:text|textbf|mathrm|mathbf|boxed|fbox)\s*\{(.*)\}$", re.DOTALL)
_PREFIX_RE = re.compile(r"^(?:option|choice)\s*", re.IGNORECASE)
_WHOLE_LETTER_RE = re.compile(r"^[(\[]?([A-Za-z])[)\]]?[.:]?$")
_LEADING_LETTER_RE = re.compile(r"^[(\[]?([A-Z])(?:[)\]]|(?=[\s.,:;]|$))")
_SPACE_RE = re.compile(r"\s+")
_LONE_CAPITAL_RE = re.compile(r"(?<![A-Za-z])([A-Z])(?![A-Za-z])")
NEGATION_RE = re.compile(r"\b(?:not|nor|never|isn't|rather than|instead of)\b", re.IGNORECASE)


def letters(n: int) -> str:
    """The letters of `n` choices, in order: A, B, C, ..."""
    return "".join(chr(ord("A") + i) for i in range(n))


def normalise_text(text: str) -> str:
    """Compare choice texts loosely: case, spacing, `$`, bold, wrappers and a trailing period."""
    text = text.strip().strip("*$").strip()
    while True:
        m = _WRAPPER_RE.match(text)
        if not m:
            break
        text = m.group(1).strip()
    text = text.rstrip(".").strip()
    return _SPACE_RE.sub(" ", text).lower()


def read_choice(answer: str, choices: Sequence[str]) -> str | None:
    """The letter `answer` designates among `choices`, or None when it designates none.

    Accepted: a lone letter in any case (`B`, `(b)`, `B.`), a leading capital letter followed by a
    boundary (`D, not B`, `(A) 42`) unless another letter follows un-negated (`A or B` is a hedge),
    `option C`, or the full text of a choice.
    """
    valid = letters(len(choices))
    text = answer.strip().strip("*$").strip()
    while True:
        m = _WRAPPER_RE.match(text)
        if not m:
            break
        text = m.group(1).strip().strip("*$").strip()
    text = _PREFIX_RE.sub("", text)
    whole = _WHOLE_LETTER_RE.match(text)
    if whole and whole.group(1).upper() in valid:
        return whole.group(1).upper()
    wanted = normalise_text(text)
    for i, choice in enumerate(choices):
        if wanted and wanted == normalise_text(choice):
            return valid[i]
    lead = _LEADING_LETTER_RE.match(text)
    if lead and lead.group(1) in valid and not _hedged(text, lead.end(), lead.group(1), valid):
        if _contradicts(text[lead.end():], choices[valid.index(lead.group(1))]):
            return None
        return lead.group(1)
    return None


_LOOSE_RE = re.compile(r"[\s{}$()\[\]\\*]")
_LOOSE_SYMBOLS = (("\\pi", "π"), ("\\sqrt", "√"), ("^{\\circ}", "°"), ("^\\circ", "°"), ("\\circ", "°"),
                  ("\\times", "×"), ("\\cdot", "·"))


def _contradicts(rest: str, choice: str) -> bool:
    """Whether what follows a leading letter states a value that is not that choice's text:
    `B (6)` when B is `5` names no choice (a right letter with a wrong value is a wrong answer,
    paid before). Only a rest holding a digit is checked (`D, not B`, `(A) because ...` are
    not values); spacing, brackets, `$`, a final period and `\\pi`/`π`-style spellings are ignored."""
    rest = rest.strip().lstrip(",:;").strip()
    if not any(ch.isdigit() for ch in rest) or NEGATION_RE.search(rest):
        return False
    return _loose(rest) != _loose(choice)


def _loose(text: str) -> str:
    for latex, symbol in _LOOSE_SYMBOLS:
        text = text.replace(latex, symbol)
    return _LOOSE_RE.sub("", text).rstrip(".。").lower()


def _hedged(text: str, start: int, letter: str, valid: str) -> bool:
    """Whether another choice letter follows before any negation ("A or B", "A, B, C, D"): a hedge
    that must not be credited. "D, not B or C" is not a hedge."""
    negation = NEGATION_RE.search(text, start)
    end = negation.start() if negation else len(text)
    return any(m.group(1) != letter and m.group(1) in valid for m in _LONE_CAPITAL_RE.finditer(text, start, end))

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
    if lead and lead.group(1) in valid and _letter_rest(text[lead.end():], choices[valid.index(lead.group(1))], lead.group(1), valid):
        return lead.group(1)
    return None


_REST_LEAD_RE = re.compile(r"^[\s.,:;)\]-]*")
_REJECTED_RE = re.compile(r"^,?\s*(?:not|rather than|instead of)\s+(?:[(\[]?[A-Z][)\]]?(?:\s*(?:,|or|nor)\s*|\s+|$))+$")


def _letter_rest(rest: str, choice: str, letter: str, valid: str) -> bool:
    """Whether the words after a leading letter leave it the answer: an allowlist, as for numbers
    (docs/math.md "Answer grammar"). Admitted: nothing, the letter's own choice text (`(A) 12`,
    `B (70°)`), then optionally other letters it rejects (`D, not B or C`, `C rather than A`).
    Anything else (`C is wrong`, `C probably`, `C thousand`, `C unless n is odd`, `C or B`) names
    no choice."""
    rest = _REST_LEAD_RE.sub("", rest, count=1).strip().rstrip(".!。！").strip()
    if not rest:
        return True
    rejected = _REJECTED_RE.match(rest)
    if rejected:
        return all(m.group(1) != letter for m in _LONE_CAPITAL_RE.finditer(rest)) and all(
            m.group(1) in valid for m in _LONE_CAPITAL_RE.finditer(rest))
    own = _squashed(choice)
    return bool(own) and _squashed(rest.strip("()[]")) == own


def _squashed(text: str) -> str:
    """A choice's text compared as written, with braces and spaces dropped (`30√3m` is `30√{3}m`)."""
    return "".join(normalise_text(text).replace("{", "").replace("}", "").split())

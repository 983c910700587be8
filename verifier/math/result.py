"""The result dict every math path returns, and the one test of "written exactly as the gold".

Its own module so that the fast path (fast.py) and the full path (grade.py) share it without
importing each other.
"""

from __future__ import annotations

import re
from typing import Any

from sandbox.contract import MATH_SHOWN_CHARS as SHOWN_CHARS
from sandbox.contract import outcome

from .extract import Extraction
from .parsing import normalise

# Whitespace that LaTeX ignores: any run not between two word characters ("3 5" keeps its space).
_IGNORABLE_SPACE_RE = re.compile(r"(?<!\w)\s+|\s+(?!\w)")


def result(verdict: str, detail: str, extraction: Extraction) -> dict[str, Any]:
    """The result dict every path returns (the contract's math outcome: score 1 for correct)."""
    return outcome(verdict, detail[:SHOWN_CHARS], (extraction.text or "")[:SHOWN_CHARS], extraction.source)


def same_text(gold_latex: str, answer: str) -> bool:
    """The answer is written exactly as the (valid) gold, up to spacing: equal without parsing it.

    A GRPO group's right answers are mostly written like the gold, and parsing is the costly part.
    """
    squash = lambda text: _IGNORABLE_SPACE_RE.sub("", text.strip())  # noqa: E731
    return squash(normalise(answer)) == squash(gold_latex)

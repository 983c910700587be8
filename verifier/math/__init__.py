"""Math answer grading: extraction, normalisation and comparison, as a pure library.

Runs inside the server's worker processes (and the CLI's in-process grader). Nothing here uses
`signal.alarm` or math-verify's own timeouts (`parsing_timeout=None`, `timeout_seconds=None`): the
parent process enforces each item's deadline by killing the worker. Cheap guards keep ordinary
adversarial inputs fast anyway (see `limits.MathLimits`).

Public API::

    Extraction(text, source)                         # NamedTuple
    extract_answer(completion, profile="strict", choices=None) -> Extraction   # no sympy, linear
    grade_extracted(gold, extraction, choices=None) -> dict                    # the sympy part
    grade_math(task) -> dict                          # both; never raises
    grade_simple(gold, extraction, choices=None) -> dict | None   # bounded fast path, or None
    warm_up() -> None

Result dict: verdict ("correct" | "incorrect" | "no_answer" | "invalid_gold" | "error"), score
(1.0 iff correct), detail (<= 200 chars, says why), extracted (raw answer, <= 200 chars, "" when
none), extracted_from (Extraction.source).

Default profile: **strict**. A reward must not credit a truncated or rambling trace for the last
number it happens to mention: with a "last expression" fallback, a policy under RL pressure learns
to list candidate numbers or stop mid-derivation and still collect reward (reported against
math-verify's rightmost-expression fallback, e.g. UniRL PR #360; TRL's reasoning reward scores a
missing `</think>` as wrong for the same reason). Strict credits only an answer the model commits
to. `lenient` (evaluation of models that never box) also accepts the last expression.

Rules
-----
docs/math.md "Math grading rules" gives an example of each.

Extraction (`extract.py`):
- If `</think>` occurs, only the text after the last one is graded. An opened `<think>` that is
  never closed is a truncated trace: no_answer in strict (lenient grades the whole text).
- strict: the answer is the content of the LAST `\\boxed{...}` / `\\fbox{...}` (balanced-brace
  scan). If the last box is never closed the trace was truncated: no_answer. Several boxes come
  back as source "boxed:several": a one-part gold reads the last one; a gold of several parts (a
  tuple or set) may read all of them as one answer (`grade.py`). Boxes that the last box's sentence
  states together (`\\boxed{4} and \\boxed{3}`) come back as "boxed:list": only their list is read.
  The text after the LAST final-answer anchor ("Final Answer", "Answer:", "The answer is", "####", case-insensitive; and
  MGSM's anchors in 10 other languages, `extract.ANCHORS`: "答案是", "Die Antwort lautet", ...) up to
  the end of that line or sentence, or the math segment (`$...$`, `\\(...\\)`, `\\[...\\]`) that
  follows it, is the answer when there is no box, or when it comes after the last box and states
  math. `$`, markdown bold and a trailing period are stripped. Anything else is no_answer.
  An anchored sentence, and words in a box, go through the answer grammar (`grammar.py`, docs/math.md
  "Answer grammar"): a value is read only when every word around it is admitted (a subject, one
  unit, currency or counted noun, a comparative, a tail); anything else ("4 thousand", "about 6",
  "6? Wrong.", "3 or 4", `\\text{ hundred}`) is refused by `parsing.parse_prediction`, never paid.
  What follows the answer's sentence must close it (`grammar.closes`: confirming words such as
  "I hope it is correct.", punctuation, markup); a retraction ("Wait, that's wrong.") leaves no answer.
  With no box and no anchor, a finished last sentence that concludes with a named quantity ("So, the
  perimeter of ABCD is 2(6 + 3) = 18.": `grammar.concludes`) is the answer, source "concluding", read
  as a box in the value's place would be (both profiles; docs/math.md "Answer grammar").
- lenient: the same, then a completion that is one bare expression is read whole; else the later
  of the last math segment (an escaped `\\$` is no delimiter) and the last number in the tail
  (never digits inside a word; `2/3` and a decimal comma `2,74` are one number), read only when
  its sentence passes the same grammar (`grammar.read_sentence`: "6 or 7", "so it is 6 thousand",
  "not 6" are no_answer) and what follows closes it; never a value after an answer anchor (the anchor decides:
  `Maybe the answer is 7. x = 6.` is no_answer).
- Anchors and the lenient fallback look only at the last `tail_chars` (8192) characters.

Multiple choice (`choices.py`, when the task gives `choices`; letters A, B, C, ... in order):
- Read from the last box, else the last anchor (so "It is not B, the answer is D" reads D), else
  (lenient) the last `(X)` / `**X**` / lone-letter line. A letter, `(A)`, `option C` or the full text
  of a choice ("ANSWER: None of the above") all read; the gold may be a letter or a choice text.
  A hedge ("A or B", "A, B, C, D") reads as no choice; letters after a negation ("D, not B or C")
  are ignored. math-verify's StringExtractionConfig is not used (it grabs stray letters).

Golds (`parsing.py`): bare numbers, bare LaTeX, `$...$`, `\\boxed{}` and plain text are unwrapped,
normalised and re-wrapped in `$...$`, parsed once and cached (LRU per process, keyed by the gold
string). A gold that does not parse to a sympy object is invalid_gold, never a silent score.

Unicode math (`unicode_math.py`, one function, gold and answer alike, and the prose windows
extraction reads): `−` is a minus, `½` is `\\frac{1}{2}`, `x²` is `x^2`, `√2`, `π`, `∞`, `∪`, `≤`, ...
as their LaTeX; then the compatibility folds it admits (full-width forms and digits, other spaces; never
`ⅿ` to `m`).

Normalisation (math-verify 0.9.0 gaps): inequalities on one variable are intervals (`1 < t \\le 3
\\text{ or } 5 \\le t < 9`, a set-builder `\\{x \\mid -1<x<4\\}`); a chain of names `q < p < s` is the
ordering `(q, p, s)`; `9th`, `7^{\\mathrm{th}}` are 7 and 9; `\\frac{1+a}b` gets its braces; a trailing
period, a `k \\in \\mathbb{Z}` suffix are dropped; `m_{\\max}` and `\\textcirc` are read; `\\varnothing` -> `\\emptyset`; `3e5` -> `300000`;
`\\mathrm{e}` -> `e`; `\\sqrt(2)` -> `\\sqrt{2}`; `1 1/2` is a mixed number; a `cases` list of equations
is a comma list; `1, 3, \\ldots, 2n-1` is an ordered tuple; a trailing unit is dropped (gold and
answer alike); `20:34` is a clock time; `((1))` -> `(1)`; `i` is the imaginary unit (`\\frac{1}{1-i}` = `\\frac{1+i}{2}`); undelimited LaTeX (`1 - \\sqrt{2}`) and
`sqrt(3)/3` are parsed as a whole because every answer is wrapped in `$...$` before parsing.
Also: `\\$` currency signs are dropped, a lone number followed by words ("18 dollars") is that
number (time, money, degree and `unit` words may be glued on: "10weeks"), Python `**` in golds is `^`, and word answers ("Friday", `\\text{no solution}`) are compared
as case-insensitive text (as LaTeX they would be products of one-letter symbols).
One `\\pm` stands for its two values (`\\frac{-1 \\pm \\sqrt{13}}{4}` is a list of two; in a list only
the element holding it is doubled); several signs are left to math-verify.
A lone number in LaTeX scientific notation (`2.5 \\times 10^{-3}`) is the decimal it states (0.0025,
with that decimal's precision). In an answer that applies a trig function, a degree mark means
degrees (`\\sin(90^{\\circ}-x)` = `\\cos(x)`, `\\sin 30^\\circ` = 1/2); elsewhere it is only a mark
(`90^\\circ` = 90).

Comparison (`compare.py`):
- Exact when both sides are exact: rationals with Python integers (1/2004! != 1/2006!,
  1/2^99 != 1/2^98, unlike math-verify's rounding); irrational exact numbers at 60 digits.
- Relations stay relations unless one side is a lone variable (`x = 5` vs `5`). A gold listing
  named values (`p = -3, q = 1`) is answered by its values in order (`-3, 1`); a trigonometric
  general solution's integer parameter may be named k, n or m.
- A decimal side gets a tolerance of half a unit in its last stated decimal: gold `0.333` equals
  1/3; pred `0.33` does not equal gold `0.333`. A predicted decimal against an exact gold counts
  when exactly equal, else only when it is that gold rounded to >= `approx_sig_digits` (6)
  significant digits (`3.141593` for pi, not `3.14`).
- A European decimal comma (`1000,99`, `0,111`: one comma, no space, not a thousands grouping,
  `parsing.decimal_comma`) is the decimal against a single number; against a list it stays a list.
- A bare Yes/No against a sentence opening with a bare Yes/No and its reason (`\\text{No, it is
  not possible}`): the opening word decides, unless the sentence hedges or says the other word.
- Percent: `50\\%` equals 0.5 and 50.
- Numerals with a base: when both sides state one (`4210_{7}`, `4210_8`), they are compared by
  value (math-verify drops the subscript); a bare `4210` against `4210_{7}` compares the digits.
- Tuples, sets, intervals, matrices of numbers (decimals included) are compared element-wise the same way;
  everything else (symbolic expressions, equations, relations) goes to math-verify's `verify`.

Fast path (`fast.py`, `fast_poly.py`): simple golds and answers (numbers, fractions, percents,
small tuples/intervals/sets of exact numbers, integer surds, small polynomials) are read without
math-verify's parser and decided with the rules above; anything else returns None and takes the
full path. The server runs it in its own process (bounded work), the workers in `grade_extracted`.

Guards (`guards.py`, `limits.py`): answers over 2000 chars, brackets nested deeper than 12 or more
than 3 opening brackets in a row are incorrect without parsing (redundant parentheses collapsed
first); a magnitude estimate of the parsed, unevaluated tree (small irrational exponents evaluated)
sends power towers and huge factorials to a structural comparison only; parsed
sympy objects are never passed to `str()`/`repr()`.
"""

from __future__ import annotations

import importlib
from typing import Any

# Loaded on first use: `verifier.math.extract` (used by the task schema) needs no sympy, so a
# client-only install can import it (README "Install").
_EXPORTS = {"Extraction": ".extract", "extract_answer": ".extract", "grade_simple": ".fast",
            "grade_extracted": ".grade", "grade_math": ".grade", "warm_up": ".grade"}


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'verifier.math' has no attribute {name!r}")
    return getattr(importlib.import_module(_EXPORTS[name], __name__), name)


__all__ = ["Extraction", "extract_answer", "grade_extracted", "grade_math", "grade_simple", "warm_up"]

"""Grade one math task: extraction (cheap) then comparison (sympy), as a result dict.

`grade_math` never raises. An exception while parsing or comparing an answer is that answer's
`incorrect`, one while parsing the gold is `invalid_gold` (docs/math.md "Math grading rules", exceptions and determinism:
`error` is ungraded, so it must not be a way out of a zero); any other internal exception becomes
verdict "error" naming the exception type. Deadlines are not handled here; the worker's parent
kills a stuck process.
"""

from __future__ import annotations

import re

from collections import OrderedDict
from typing import Any, Sequence

import sympy

from sandbox.contract import DEFAULT_PROFILE, MAX_PROBLEM_BYTES, PASSING, PROFILES, names
from sandbox.keys import reuse_key

from .choices import letters, read_choice
from .compare import equivalent, has_no_value, lone_variable, yes_or_no
from .extract import LISTED_BOXES, SEVERAL_BOXES, Extraction, box_parts, extract_answer
from .fast import grade_simple
from .guards import expansion_guard, function_guard
from .limits import DEFAULT_LIMITS
from .parsing import Parsed, clock_seconds, named_items, normalise, parse_gold, parse_prediction
from .result import SHOWN_CHARS, result, same_text

VERDICTS = names(kind="math", over_time=False)  # a worker's deadline (timeout) is the engine's, not ours


def grade_extracted(gold: str, extraction: Extraction, choices: Sequence[str] | None = None) -> dict[str, Any]:
    """Compare an extracted answer with `gold` (the heavy, sympy part). Never raises, like `grade_math`.

    An unusable gold is `invalid_gold` even when there is no answer: a broken dataset row must be
    loud, never a silent 0 or 1.
    """
    try:
        if isinstance(gold, str) and not choices and extraction.text is not None and "_" in gold:
            extraction = extraction._replace(text=_in_gold_base(gold, extraction.text))
        return _grade_simple(gold, extraction, choices) or _grade_extracted(gold, extraction, choices)
    except Exception as e:  # noqa: BLE001 - the contract is "never raises"
        return result("error", f"internal error: {type(e).__name__}{_safe_message(e)}", extraction)


def _grade_simple(gold: str, extraction: Extraction, choices: Sequence[str] | None) -> dict[str, Any] | None:
    """The fast path; an exception there hands the item to the full path, which answers for it."""
    try:
        return grade_simple(gold, extraction, choices)
    except Exception:  # noqa: BLE001 - the full path grades it (and turns its own failures into verdicts)
        return None


def _grade_extracted(gold: str, extraction: Extraction, choices: Sequence[str] | None) -> dict[str, Any]:
    if not isinstance(gold, str):
        return result("invalid_gold", f"gold must be a string, got {type(gold).__name__}", extraction)
    if choices:
        return _grade_choice(gold, extraction, choices)
    if clock_seconds(normalise(gold)) is not None:
        return _grade_clock(gold, extraction)
    costly = function_guard(gold)
    if costly:  # never parsed: its parse and comparison are what the bound keeps away (docs/math.md, fx29x)
        return _grade_as_written(gold, extraction, costly)
    try:
        parsed_gold = parse_gold(gold)
    except Exception as e:  # noqa: BLE001 - a gold that breaks the parser is the dataset's fault
        parsed_gold = f"internal {_exception(e)}"
    if not isinstance(parsed_gold, str) and has_no_value(parsed_gold):
        parsed_gold = "it has no value (arithmetic on an infinity, or a pole)"
    if isinstance(parsed_gold, str):
        return result("invalid_gold", f"gold not usable: {parsed_gold}", extraction)
    if extraction.text is None:
        return result("no_answer", "no final answer found (\\boxed{} or an answer anchor)", extraction)
    if extraction.source in (SEVERAL_BOXES, LISTED_BOXES):
        return _grade_boxes(parsed_gold, extraction)
    return _grade_text(parsed_gold, extraction.text, extraction)


def _grade_as_written(gold: str, extraction: Extraction, why: str) -> dict[str, Any]:
    """A gold past `guards.function_guard`'s bounds, compared as written only (the gold rule of fx29r's expansion bound,
    `_compare_text`): an answer past the same bounds is refused, so none but one written as the gold can equal it, and
    that one pays; any other is `incorrect` with the reason. Not `invalid_gold`: the gold is a value."""
    if extraction.text is None:
        return result("no_answer", "no final answer found (\\boxed{} or an answer anchor)", extraction)
    answer = extraction.text
    if extraction.source in (SEVERAL_BOXES, LISTED_BOXES):  # the last box, or a sentence's boxes all together
        parts = box_parts(answer)
        if not parts:
            return result("no_answer", "no final answer found", extraction)
        answer = ", ".join(parts) if extraction.source == LISTED_BOXES else parts[-1]
    if same_text(normalise(gold), answer):
        return result("correct", "identical to the gold", extraction)
    return result("incorrect", f"gold not compared: {why}; only an answer written as the gold pays", extraction)


_BASED_GOLD_RE = re.compile(r"\s*\$?\s*\d[0-9A-Za-z]*_\{?\(?(\d{1,2})\)?\}?\s*\$?\s*")
_BARE_DIGITS_RE = re.compile(r"\d[0-9A-Za-z]{0,63}")


def _in_gold_base(gold: str, answer: str) -> str:
    """The answer's bare digits read in the base the gold is written in (gold `1010_2`, answer `1010`:
    the question asked for base 2), since a number's base subscript is its value (`12_8` is 10,
    parsing.normalise); an answer with its own subscript, or any other form, is read as written."""
    based = _BASED_GOLD_RE.fullmatch(gold)
    return f"{answer}_{{{based.group(1)}}}" if based and _BARE_DIGITS_RE.fullmatch(answer) else answer


def _grade_text(gold: Parsed, answer: str, extraction: Extraction) -> dict[str, Any]:
    if len(answer) > DEFAULT_LIMITS.max_answer_chars:
        return result("incorrect", f"answer longer than {DEFAULT_LIMITS.max_answer_chars} chars", extraction)
    if same_text(gold.text, answer):
        return result("correct", "identical to the gold", extraction)
    key = reuse_key("math-compared", gold.text, answer)  # exact typed bytes (docs/service.md "Reuse keys")
    if key in _COMPARED:
        _COMPARED.move_to_end(key)
        return result(*_COMPARED[key], extraction)
    graded = _compare_text(gold, answer, extraction)
    _COMPARED[key] = (graded["verdict"], graded["detail"])
    if len(_COMPARED) > _MAX_COMPARED:
        _COMPARED.popitem(last=False)
    return graded


# Verdicts by (parsed gold text, answer text), most recent last. A GRPO group writes the same answer
# in several completions, and sympy's simplify is most of a symbolic item's cost (bench/
# math_throughput.py, second workload); a verdict depends only on the two texts (docs/math.md
# "Math grading rules", exceptions and determinism), so reusing it changes nothing but the time.
_COMPARED: OrderedDict[bytes, tuple[str, str]] = OrderedDict()
_MAX_COMPARED = 2048


def _compare_text(gold: Parsed, answer: str, extraction: Extraction) -> dict[str, Any]:
    said = yes_or_no(gold.text, answer)  # `\\text{Yes, there are 3 of them.}` against Yes: the opening decides, read
    if said is not None:  # before the answer grammar, which refuses the digit in its reason (docs/math.md "Math grading rules")
        return result("correct" if said[0] else "incorrect", said[1], extraction)
    try:
        pred = parse_prediction(answer)
    except Exception as e:  # noqa: BLE001 - the gold parsed: the answer is at fault
        pred = f"internal {_exception(e)}"
    if isinstance(pred, str):
        return result("incorrect", f"answer not usable: {pred}", extraction)
    too_large = expansion_guard(gold.expr, DEFAULT_LIMITS)
    if too_large:  # docs/math.md "Answer grammar", expansions: the gold's side (fx29r)
        return result("incorrect", f"gold not compared: {too_large}; only an answer written as the gold pays",
                      extraction)
    return _verdict(gold, pred, extraction)


def _grade_boxes(gold: Parsed, extraction: Extraction) -> dict[str, Any]:
    """Several boxes: the last one is the answer; when the gold has several parts (a tuple or set)
    and the last box alone is not it, all boxes together are read as one answer (docs/math.md "Math grading
    rules"). A set holding the gold plus extras is wrong, so spraying boxes never pays. Boxes that one
    sentence states (`LISTED_BOXES`, `\\boxed{4} and \\boxed{3}`) are only ever read together: a second
    value beside the gold's is no answer (docs/math.md "Answer grammar", several boxes)."""
    parts = box_parts(extraction.text or "")
    if not parts:
        return result("no_answer", "no final answer found", extraction)
    listed = extraction.source == LISTED_BOXES  # one sentence states them all: never one of them alone
    last = _grade_text(gold, parts[-1], extraction)
    if not listed and (last["verdict"] in PASSING or len(parts) < 2):
        return last
    kind = gold_parts_kind(gold)
    if kind is None:
        return result("incorrect", f"{len(parts)} boxes in one sentence state {len(parts)} values, the gold one",
                      extraction) if listed else last
    joined = ", ".join(parts)
    named = named_items(joined) is not None  # `\\boxed{y = 1}, \\boxed{x = 2}`: read by name (compare._by_name)
    if not named and any(named_items(f"{p}, {p}") for p in parts):  # a part that names its value, beside others
        return result("incorrect", "boxes that name some values and not others: which value is which is not known, "
                      "and written order is never read", extraction) if listed else last
    union = joined if named else f"({joined})" if kind == "tuple" else f"\\{{{joined}\\}}" if kind == "set" else joined
    graded = _grade_text(gold, union, extraction)
    graded["detail"] = f"{len(parts)} boxes read together: {graded['detail']}"[:SHOWN_CHARS]
    return graded


def gold_parts_kind(gold: Parsed) -> str | None:
    """"tuple" or "set" when the gold has several parts (so several boxes may answer it), else None."""
    expr = gold.expr
    unwrapped = lone_variable(expr)
    if unwrapped:
        expr = unwrapped[1]
    if isinstance(expr, sympy.Tuple) and len(expr) > 1:
        return "tuple"
    if isinstance(expr, sympy.Interval) and expr.left_open and expr.right_open:
        return "tuple"  # `(1, 2)` parses as an open interval: a pair all the same
    if isinstance(expr, sympy.FiniteSet) and len(expr) > 1:
        return "set"
    return None


def _grade_clock(gold: str, extraction: Extraction) -> dict[str, Any]:
    """A clock-time gold (`20:34`): the answer must be the same time (`8:34 PM`), 12- or 24-hour."""
    if extraction.text is None:
        return result("no_answer", "no final answer found (\\boxed{} or an answer anchor)", extraction)
    want = clock_seconds(normalise(gold))
    got = clock_seconds(normalise(extraction.text))
    if got is None:
        return result("incorrect", "gold is a clock time, the answer is not", extraction)
    return result("correct" if got == want else "incorrect", "clock times " + ("equal" if got == want else "differ"), extraction)


def _verdict(gold: Parsed, pred: Parsed, extraction: Extraction) -> dict[str, Any]:
    """Every exception a comparison raises is a verdict: the gold parsed and has a value, so what
    breaks sympy is the answer (`(-3)!` raised "gamma function pole", and `error` is ungraded,
    reward None: a way out of a zero)."""
    try:
        equal, why = equivalent(gold, pred)
    except Exception as e:  # noqa: BLE001
        equal, why = False, f"comparison failed on the answer: {_exception(e)}"
    return result("correct" if equal else "incorrect", why, extraction)


def _grade_choice(gold: str, extraction: Extraction, choices: Sequence[str]) -> dict[str, Any]:
    if len(choices) > DEFAULT_LIMITS.max_choices:
        return result("invalid_gold", f"more than {DEFAULT_LIMITS.max_choices} choices", extraction)
    if not all(isinstance(c, str) for c in choices):
        return result("invalid_gold", "choices must be strings", extraction)
    gold_letter = read_choice(gold, choices)
    if gold_letter is None:
        return result("invalid_gold", f"gold is neither a letter in {letters(len(choices))} nor a choice text", extraction)
    if extraction.text is None:
        return result("no_answer", "no final choice found (\\boxed{} or an answer anchor)", extraction)
    letter = read_choice(extraction.text, choices)
    if letter is None:
        return result("incorrect", "answer is not one of the choices", extraction)
    if letter == gold_letter:
        return result("correct", f"choice {letter}", extraction)
    return result("incorrect", f"choice {letter}, expected {gold_letter}", extraction)


def grade_math(task: dict) -> dict[str, Any]:
    """Extract and grade one task: completion, gold, profile ("strict" default), choices and problem (optional).

    Never raises: a bad field is verdict "error" naming the field; an internal exception is verdict
    "error" naming the exception type (never its sympy-laden message).
    """
    extraction = Extraction(None, "none")
    try:
        bad = _bad_field(task)
        if bad:
            return result("error", bad, extraction)
        choices = task.get("choices") or None
        extraction = extract_answer(task["completion"], task.get("profile") or DEFAULT_PROFILE, choices,
                                    task.get("problem") or "")
        return grade_extracted(task["gold"], extraction, choices)
    except Exception as e:  # noqa: BLE001 - the contract is "never raises"
        return result("error", f"internal error: {type(e).__name__}{_safe_message(e)}", extraction)


def _bad_field(task: object) -> str | None:
    if not isinstance(task, dict):
        return "task must be a dict"
    if not isinstance(task.get("completion"), str):
        return "field 'completion' must be a string"
    if not isinstance(task.get("gold"), str):
        return "field 'gold' must be a string"
    profile = task.get("profile") or DEFAULT_PROFILE
    if profile not in PROFILES:
        return f"field 'profile' must be one of {PROFILES}"
    choices = task.get("choices")
    if choices is not None and (not isinstance(choices, (list, tuple)) or not all(isinstance(c, str) for c in choices)):
        return "field 'choices' must be a list of strings"
    problem = task.get("problem")
    if problem is not None and not isinstance(problem, str):
        return "field 'problem' must be a string"
    if problem and len(problem.encode("utf-8", "surrogatepass")) > MAX_PROBLEM_BYTES:
        return f"field 'problem' exceeds {MAX_PROBLEM_BYTES} bytes"
    return None


def _exception(e: Exception) -> str:
    return f"{type(e).__name__}{_safe_message(e)}"


def _safe_message(e: Exception) -> str:
    """The exception's message only when its args are plain strings (a sympy arg could hang str())."""
    if e.args and all(isinstance(a, str) for a in e.args):
        return ": " + " ".join(e.args)[:120]
    return ""


def warm_up() -> None:
    """Import and exercise math-verify and sympy once (regex compilation, ANTLR, sympy caches), so
    a fresh worker's first real item is fast."""
    samples = [
        ("\\frac{1}{2}", "so the answer is \\boxed{0.5}"),
        ("x^2+1", "Final Answer: $1 + x^2$"),
        ("(1, 2)", "\\boxed{(1,2)}"),
        ("\\sqrt{2}", "The answer is \\frac{2}{\\sqrt{2}}."),
        ("x = 3", "#### 3"),
    ]
    for gold, completion in samples:
        grade_math({"completion": completion, "gold": gold})
    grade_math({"completion": "Answer: (B)", "gold": "B", "choices": ["1", "2", "3", "4"]})

"""Public code datasets as they are stored: one module per family turns a row (plus its
`completion`) into a task of our schema (docs/datasets.md "Dataset formats").

    from verifier.formats import to_task
    task = to_task(row, format="auto")      # or format="apps", "livecodebench", ...

`auto` picks the first format whose `detect` accepts the row, in FORMATS order: the specific
column names first, then the shapes that need a look at the content (`tests` of DeepCoder, verl's
`ground_truth`). A row no format reads is a FormatError naming the columns it has, never a task
with no tests. There is no math format here: a code row (KodCode's `solution` is code) can never
be read as a math answer by this module.
"""
from __future__ import annotations

from collections.abc import Mapping
from types import ModuleType
from typing import Any, cast

from . import (apps, bigcodebench, code_contests, codeforces, deepcoder, humaneval, kodcode, livecodebench, mbpp,
               openr1, swebench, task, verl)
from .common import FormatError, columns_seen, completion_text

# Detection order (module docstring). TACO is read by the apps module (same columns).
_MODULES: tuple[ModuleType, ...] = (task, swebench, openr1, codeforces, livecodebench, code_contests, apps, kodcode,
                                    bigcodebench, humaneval, mbpp, deepcoder, verl)
FORMATS: dict[str, ModuleType] = {m.NAME: m for m in _MODULES}
ALIASES = {"taco": "apps", "prime_code": "verl", "primeintellect": "open-r1", "rllm": "deepcoder",
           "lcb": "livecodebench", "open-r1/codeforces": "codeforces", "bcb": "bigcodebench",
           "swe-bench": "swebench", "swe-gym": "swebench", "swe-smith": "swebench"}
NAMES: tuple[str, ...] = ("auto", *FORMATS, *ALIASES)

__all__ = ["FORMATS", "NAMES", "FormatError", "detect", "to_task"]


def detect(row: Mapping[str, Any]) -> str | None:
    """The name of the first format that reads this row, or None."""
    for module in _MODULES:
        if module.detect(row):
            return cast(str, module.NAME)
    return None


def resolve(name: str) -> str:
    """A format name as given (aliases allowed) -> its canonical name; FormatError when unknown."""
    name = ALIASES.get(name, name)
    if name != "auto" and name not in FORMATS:
        raise FormatError(f"unknown format {name!r} (choose from {', '.join(NAMES)})")
    return name


def row_completion(row: Mapping[str, Any], columns: tuple[str, ...]) -> Any:
    """The model's output: the one of `columns` the row fills (a format's own, as SWE-bench's
    `model_patch`, besides `completion`). Two filled with different values is an error, never a choice."""
    filled = [c for c in columns if row.get(c) is not None]
    if not filled:
        raise FormatError(f"{' or '.join(columns)}: missing (the model's output goes in a `completion` column)")
    if any(row[c] != row[filled[0]] for c in filled[1:]):
        raise FormatError(f"{' and '.join(filled)}: both filled, with different values (keep one)")
    return row[filled[0]]


def to_task(row: Mapping[str, Any], format: str = "auto", completion: Any = None) -> dict[str, Any]:
    """The task dict for one dataset row. `completion` (a string or a message list) defaults to the
    row's `completion` column (or the format's own: SWE-bench's `model_patch`, row_completion). Raises FormatError naming what is wrong, or the columns seen when no
    format reads the row. The result is not yet validated: parse it with sandbox.contract.parse_task
    (verifier grade and the trainer do) to get the schema's field errors."""
    if not isinstance(row, Mapping):
        raise FormatError(f"a row must be an object, got {type(row).__name__}")
    name = resolve(format)
    if name == "auto":
        found = detect(row)
        if found is None:
            raise FormatError(f"no dataset format reads this row (columns: {columns_seen(row)})")
        name = found
    if completion is None:
        completion = row_completion(row, getattr(FORMATS[name], "COMPLETION_COLUMNS", ("completion",)))
    text = completion_text(completion)
    try:
        return cast("dict[str, Any]", FORMATS[name].to_task(row, text))
    except FormatError as e:
        raise FormatError(f"{name}: {e}") from None
    except (KeyError, TypeError, AttributeError) as e:  # a column of the wrong shape for this format
        raise FormatError(f"{name}: row does not have this format's shape ({type(e).__name__}: {e}; "
                          f"columns: {columns_seen(row)})") from None

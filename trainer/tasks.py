"""TRL batch -> verifier tasks, and verifier results -> per-component rewards. Pure logic, no I/O.

TRL hands reward functions one list per dataset column, aligned with `completions`. Each row is
turned into a task of the README's task schema (verifier/schema.py checks it): a public code dataset's
row through its format (verifier/formats, README "Dataset formats"), our own `tests` / `test_code` /
`verification_info` columns, else a math row with a gold answer. A row none of these reads is `None`
(reward None, never 0.0), counted in UNREADABLE and logged once per set of columns, naming them.
"""

from __future__ import annotations

import json
import logging
import threading
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from trainer.config import RewardConfig
from verifier import formats
from verifier.formats.common import columns_seen, completion_text
from verifier.schema import TaskError, parse_task

log = logging.getLogger(__name__)

CODE_COLUMNS = ("verification_info", "tests", "test_code", "call_tests")
NOT_EXTRACTED = {"no_answer", "no_code"}
NO_COMPILE = {"compile_error", "no_code"}
UNGRADED = {"infra_error", "error"}  # not graded (infra) or not gradable (malformed row, grader fault): None, never 0.0
# Extraction sites that are a deliberate answer format (vs. lenient fallbacks "last"/"raw").
FORMAT_SITES = ("boxed", "anchor", "choice", "fenced")


class UnreadableRows:
    """Rows the trainer could not turn into a task, counted by their set of columns. The first row of
    each set is logged with its reason and columns; the rest are counted (TRL's `verifier/unreadable`
    metric, and `total` here), so a dataset the trainer does not read is never a silent None."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.by_columns: Counter[str] = Counter()

    @property
    def total(self) -> int:
        return sum(self.by_columns.values())

    def record(self, task_id: str, row: Mapping[str, Any], reason: str) -> None:
        columns = columns_seen(row)
        with self._lock:
            self.by_columns[columns] += 1
            first = self.by_columns[columns] == 1
        if first:
            log.warning("row %s cannot be graded: %s (columns: %s); later rows with these columns are only "
                        "counted (verifier/unreadable)", task_id, reason, columns)


UNREADABLE = UnreadableRows()


def dataset_format(row: Mapping[str, Any]) -> str | None:
    """The public dataset format that reads this row (verifier/formats), or None."""
    name = formats.detect(row)
    return None if name == "task" else name


def row_kind(row: Mapping[str, Any], cfg: RewardConfig) -> str:
    """'math' or 'code' for one row: forced by cfg.kind, else code when a dataset format reads the row
    or a code column is filled (a KodCode row, whose `solution` is code, is never math)."""
    if cfg.kind != "auto":
        return cfg.kind
    if dataset_format(row) or any(row.get(c) not in (None, "", [], {}) for c in CODE_COLUMNS):
        return "code"
    return "math"


def math_gold(row: Mapping[str, Any], cfg: RewardConfig) -> str | None:
    """The first non-empty ground-truth column (numbers become strings), or None."""
    for column in cfg.gold_columns:
        value = row.get(column)
        if isinstance(value, bool):
            continue
        if isinstance(value, (int, float)):
            return str(value)
        if isinstance(value, str) and value.strip():
            return value
    return None


def _load_json(value: Any) -> Any:
    """verification_info is a dict, or a JSON string in datasets that store it as text."""
    if isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError:
            return None
    return value


def code_spec(row: Mapping[str, Any], cfg: RewardConfig) -> dict | None:
    """Language and tests of a code row in our own columns: `tests` ([{"stdin", "expected_stdout"}])
    and/or `test_code`, at top level or inside `verification_info` (open-r1's own shape, with
    `test_cases`, is read by verifier/formats)."""
    info = _load_json(row.get("verification_info"))
    source = info if isinstance(info, Mapping) else row
    tests: list[dict] = []
    raw_tests = _load_json(source.get("tests")) or []
    # As given: the schema (verifier/schema.py) rejects a case that is not {"stdin", "expected_stdout"},
    # naming its keys, so an {"input", "output"} row is an error, never a test run with empty stdin.
    tests.extend(raw_tests if isinstance(raw_tests, list) else [raw_tests])
    test_code = source.get("test_code") if isinstance(source.get("test_code"), str) else None
    call_tests = _load_json(source.get("call_tests")) or []
    if (not tests and not test_code and not call_tests) or len(tests) > cfg.max_tests_per_task:
        return None
    language = source.get("language") or row.get("language") or cfg.code_language
    spec = {"language": str(language), "tests": tests, "test_code": test_code,
            "compare": cfg.code_compare, "scoring": cfg.code_scoring}
    if call_tests:
        spec["call_tests"] = call_tests  # as given: the schema names what is wrong with a case
    for key in ("checker", "checker_language", "compare", "time_limit_s", "memory_limit_mb", "entry_point",
                "test_framework", "judge", "float_abs_tol", "float_rel_tol", "files", "input_file", "output_file"):
        if source.get(key) not in (None, ""):
            spec[key] = source[key]
    return spec


def build_tasks(completions: Sequence[Any], columns: Mapping[str, Sequence[Any]],
                cfg: RewardConfig) -> list[dict | None]:
    """One task dict per completion, or None where the row cannot be graded.

    `columns` are TRL's per-column lists (already aligned with completions). Task ids are the
    row index, unique within the call as the server requires.
    """
    tasks: list[dict | None] = []
    for i, completion in enumerate(completions):
        row = {k: v[i] for k, v in columns.items() if isinstance(v, (list, tuple)) and i < len(v)}
        text = completion_text(completion)[-cfg.max_completion_chars:]
        tasks.append(_checked(str(i), _task(str(i), text, row, cfg), row))
    return tasks


def _checked(task_id: str, task: dict | str, row: Mapping[str, Any]) -> dict | None:
    """The task as the schema (verifier/schema.py) normalises it, or None, counted in UNREADABLE, when
    the row is malformed (`task` is then the reason): the same rules as the server's, so a bad row
    costs one reward, not a batch."""
    if isinstance(task, str):
        UNREADABLE.record(task_id, row, task)
        return None
    try:
        return parse_task(task).to_dict(wire=True)
    except TaskError as exc:
        UNREADABLE.record(task_id, row, str(exc))
        return None


def _format_task(name: str, text: str, row: Mapping[str, Any], cfg: RewardConfig) -> dict | str:
    """A public dataset's row as a task (verifier/formats), with the trainer's scoring; a reason if not."""
    try:
        task = formats.to_task(row, name, completion=text)
    except formats.FormatError as exc:
        return str(exc)
    n = len(task.get("tests") or task.get("call_tests") or [])
    if n > cfg.max_tests_per_task:
        return f"{n} tests, more than max_tests_per_task={cfg.max_tests_per_task}"
    task.setdefault("compare", cfg.code_compare)
    return {**task, "scoring": cfg.code_scoring}


def _task(task_id: str, text: str, row: Mapping[str, Any], cfg: RewardConfig) -> dict | str:
    """The row's task, or the reason it has none."""
    base: dict[str, Any] = {"id": task_id, "completion": text}
    if cfg.task_timeout_s:
        base["timeout_s"] = cfg.task_timeout_s
    name = dataset_format(row)
    kind = row_kind(row, cfg)
    if kind == "code" and name:
        task = _format_task(name, text, row, cfg)  # its completion may continue the row's prompt
        return task if isinstance(task, str) else {**task, **{k: v for k, v in base.items() if k != "completion"}}
    if kind == "code":
        spec = code_spec(row, cfg)
        return (f"no tests (or more than max_tests_per_task={cfg.max_tests_per_task}) in columns "
                f"{', '.join(CODE_COLUMNS)}") if spec is None else {**base, "kind": "code", **spec}
    if name:
        return f"a {name} code row, but kind is forced to {cfg.kind!r}"
    gold = math_gold(row, cfg)
    if gold is None:
        return f"no code format, and no math gold answer in columns {', '.join(cfg.gold_columns)}"
    profile = row.get("profile") if row.get("profile") in ("strict", "lenient") else cfg.math_profile
    task = {**base, "kind": "math", "gold": gold, "profile": profile}
    choices = row.get("choices")
    if isinstance(choices, (list, tuple)) and choices and all(isinstance(c, str) for c in choices):
        task["choices"] = list(choices)
    return task


def component_value(component: str, result: Mapping[str, Any] | None, kind: str | None,
                    task: Mapping[str, Any] | None = None) -> float | None:
    """The reward of one component for one graded item; None = not graded or not applicable.
    `task` (the dict sent) gives pass_rate its denominator: under scoring "all" the sandbox stops
    at the first failing test and lists only the tests it ran (README "Results and verdicts").

    A wrong answer is 0.0; infra_error (could not grade) and invalid_gold (the dataset's fault,
    not the model's) are None, as TRL's own accuracy_reward does for unparsable golds.
    """
    if result is None or result.get("verdict") in UNGRADED:
        return None
    verdict = result.get("verdict")
    if component == "accuracy":
        return None if verdict == "invalid_gold" else _clip(result.get("score"))
    if component == "format":
        site = str(result.get("extracted_from") or "")
        return 1.0 if verdict not in NOT_EXTRACTED and site.startswith(FORMAT_SITES) else 0.0
    if kind != "code":
        return None
    if component == "compiles":
        return 0.0 if verdict in NO_COMPILE else 1.0
    if component == "pass_rate":
        tests = result.get("tests") or []
        total = max(len(tests), _declared_tests(task))  # tests not run (after the first failure) count as failed
        if not total:
            return 1.0 if verdict == "accepted" else 0.0
        return sum(1 for t in tests if t.get("verdict") == "accepted") / total
    raise ValueError(f"unknown component {component!r}")


def _declared_tests(task: Mapping[str, Any] | None) -> int:
    """How many tests a code task declares (stdin tests, call tests, one for test_code); 0 unknown."""
    if not task:
        return 0
    return len(task.get("tests") or ()) + len(task.get("call_tests") or ()) + (1 if task.get("test_code") else 0)


def _clip(score: Any) -> float:
    try:
        value = float(score)
    except (TypeError, ValueError):
        return 0.0
    return min(1.0, max(0.0, value)) if value == value else 0.0

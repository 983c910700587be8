"""TRL batch -> verifier tasks, and verifier results -> per-component rewards. Pure logic, no I/O.

TRL hands reward functions one list per dataset column, aligned with `completions`. Each row is
turned into a task of the task schema (docs/tasks.md "Task schema") (sandbox/contract.py parse_task checks it) by the one row reader,
verifier/formats/rows.py: a public code dataset's row through its format (docs/datasets.md "Dataset formats"),
our own `tests` / `test_code` / `verification_info` columns, else a math row with a gold answer. A row none of these reads is `None`
(reward None, never 0.0), counted in UNREADABLE and logged once per set of columns, naming them.
"""

from __future__ import annotations

import logging
import threading
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

# UNGRADED: not graded (infra) or not gradable (malformed row, grader fault): None, never 0.0
from sandbox.contract import NOT_BUILT, NOT_FOUND, PASSING, UNGRADED, UNJUDGED, TaskError, parse_task
from trainer.config import RewardConfig
from verifier.formats.common import columns_seen, completion_text, prompt_problem
from verifier.formats.rows import CODE_COLUMNS, code_spec, dataset_format, math_gold, row_kind, row_task
from verifier.schema import parsed

# The row readers live in verifier/formats/rows.py (one reader for the trainer and the HTTP dialects).
__all__ = ["CODE_COLUMNS", "UNREADABLE", "build_tasks", "checked", "code_spec", "completion_text", "component_value",
           "dataset_format", "math_gold", "row_kind"]

log = logging.getLogger(__name__)

# Extraction sites that are a deliberate answer format (vs. lenient fallbacks "last"/"raw").
# "diff": a repository task's patch was read (docs/repo-tasks.md "The patch"), fenced or bare.
FORMAT_SITES = ("boxed", "anchor", "choice", "fenced", "diff")


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


def build_tasks(completions: Sequence[Any], columns: Mapping[str, Sequence[Any]],
                cfg: RewardConfig, prompts: Sequence[Any] | None = None) -> list[dict[str, Any] | None]:
    """One task dict per completion, or None where the row cannot be graded.

    `columns` are TRL's per-column lists (already aligned with completions). Task ids are the
    row index, unique within the call as the server requires. `prompts` (TRL's): a math row's problem
    text (MathTask.problem) where the row's `problem` column is no text and `cfg.problem_from_prompt` is on.
    """
    tasks: list[dict[str, Any] | None] = []
    for i, completion in enumerate(completions):
        row = {k: v[i] for k, v in columns.items() if isinstance(v, (list, tuple)) and i < len(v)}
        text = completion_text(completion)  # cut by the row reader, never a repo task's patch (rows.graded_text)
        read = row
        given = row.get("problem")
        if cfg.problem_from_prompt and not (isinstance(given, str) and given) and prompts is not None and i < len(prompts):
            read = {**row, "problem": prompt_problem(prompts[i])}  # read as the column; logged rows stay the dataset's
        tasks.append(checked(str(i), row_task(str(i), text, read, cfg), row))
    return tasks


def checked(task_id: str, task: dict[str, Any] | str, row: Mapping[str, Any]) -> dict[str, Any] | None:
    """The task as the schema (sandbox/contract.py parse_task) normalises it, or None, counted in UNREADABLE, when
    the row is malformed (`task` is then the reason): the same rules as the server's, so a bad row
    costs one reward, not a batch. Decoded once: the dict carries its model (schema.Parsed), which
    the client sends without decoding the dict again."""
    if isinstance(task, str):
        UNREADABLE.record(task_id, row, task)
        return None
    try:
        return parsed(parse_task(task))
    except TaskError as exc:
        UNREADABLE.record(task_id, row, str(exc))
        return None


def component_value(component: str, result: Mapping[str, Any] | None, kind: str | None,
                    task: Mapping[str, Any] | None = None) -> float | None:
    """The reward of one component for one graded item; None = not graded or not applicable.
    `task` (the dict sent) gives pass_rate its denominator: under scoring "all" the sandbox stops
    at the first failing test and lists only the tests it ran (docs/tasks.md "Results and verdicts").

    A wrong answer is 0.0; infra_error (could not grade) and invalid_gold (the dataset's fault,
    not the model's) are None, as TRL's own accuracy_reward does for unparsable golds.
    """
    if result is None or result.get("verdict") in UNGRADED:
        return None
    verdict = result.get("verdict")
    if component == "accuracy":
        return None if verdict in UNJUDGED else _clip(result.get("score"))
    if component == "format":
        site = str(result.get("extracted_from") or "")
        return 1.0 if verdict not in NOT_FOUND and site.startswith(FORMAT_SITES) else 0.0
    if kind != "code":
        return None
    if component == "compiles":
        return 0.0 if verdict in NOT_BUILT else 1.0
    if component == "pass_rate":
        tests = result.get("tests") or []
        total = max(len(tests), _declared_tests(task))  # tests not run (after the first failure) count as failed
        if not total:
            return 1.0 if verdict in PASSING else 0.0
        return sum(1 for t in tests if t.get("verdict") in PASSING) / total
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

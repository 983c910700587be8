"""A trainer's row or label -> a task: the one reader behind every entry point (issue 18).

The TRL reward functions and the framework adapters (trainer/), and the HTTP dialects OpenRLHF and
slime call (verifier/api/trainer_routes.py ``/get_reward``, ``/slime/remote_rm``), all read a row here, so a label
means the same on each. A row becomes a task of the task schema (docs/tasks.md "Task schema"): a public code dataset's row
through its format (this package, docs/datasets.md "Dataset formats", verl's bare ``{"inputs", "outputs"}`` and
``{"assert_case"}`` ground truths included), our own ``tests`` / ``test_code`` / ``verification_info``
columns, else a math row with a gold answer. A row none of these reads gets the reason, never a task
with no tests. Pure: no I/O, no server; the result is not yet validated (the caller parses it with the
schema, as both do).
"""
from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from sandbox.contract import MAX_COMPLETION_CHARS, MAX_TESTS, RepoTask
from sandbox.contract import DEFAULT_COMPARE, DEFAULT_LANGUAGE, DEFAULT_PROFILE, PROFILES

from . import FormatError, detect, to_task

CODE_COLUMNS = ("verification_info", "tests", "test_code", "call_tests")
# A repository task in our own columns (docs/repo-tasks.md "The task schema"): a row filling
# `environment` and `fail_to_pass` is one, its fields these.
REPO_COLUMNS = tuple(sorted(RepoTask.KEYS - {"id", "kind", "completion"}))
# ground_truth first: verl and OpenRLHF hand the label separately from the row's other columns.
LABEL_GOLD_COLUMNS = ("ground_truth", "gold", "solution", "answer")


class Rules(Protocol):
    """How rows are read (trainer.config.RewardConfig has these fields; RowRules is the plain form)."""

    # read-only: a frozen RowRules and a RewardConfig both fit
    @property
    def kind(self) -> str: ...
    @property
    def gold_columns(self) -> tuple[str, ...]: ...
    @property
    def math_profile(self) -> str: ...
    @property
    def code_language(self) -> str: ...
    @property
    def code_scoring(self) -> str: ...
    @property
    def code_compare(self) -> str: ...
    @property
    def task_timeout_s(self) -> float: ...
    @property
    def max_tests_per_task(self) -> int: ...
    @property
    def max_completion_chars(self) -> int: ...


@dataclass(frozen=True)
class RowRules:
    """Rules for a label read with no trainer config (the HTTP dialects): RewardConfig's defaults, with
    the adapters' gold columns (LABEL_GOLD_COLUMNS); tests/test_framework_clients.py checks they agree."""

    kind: str = "auto"
    gold_columns: tuple[str, ...] = LABEL_GOLD_COLUMNS
    math_profile: str = DEFAULT_PROFILE
    code_language: str = DEFAULT_LANGUAGE
    code_scoring: str = "fraction"  # the trainer's default (trainer/config.py), not a task's
    code_compare: str = DEFAULT_COMPARE
    task_timeout_s: float = 0.0
    max_tests_per_task: int = MAX_TESTS
    max_completion_chars: int = MAX_COMPLETION_CHARS


def dataset_format(row: Mapping[str, Any]) -> str | None:
    """The public dataset format that reads this row (verifier/formats), or None."""
    name = detect(row)
    return None if name == "task" else name


def row_kind(row: Mapping[str, Any], rules: Rules) -> str:
    """'math' or 'code' for one row: forced by rules.kind, else code when a dataset format reads the row
    or a code column is filled (a KodCode row, whose `solution` is code, is never math)."""
    if rules.kind != "auto":
        return rules.kind
    if dataset_format(row) or any(row.get(c) not in (None, "", [], {}) for c in CODE_COLUMNS):
        return "code"
    return "math"


def math_gold(row: Mapping[str, Any], rules: Rules) -> str | None:
    """The first non-empty ground-truth column (numbers become strings), or None."""
    for column in rules.gold_columns:
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


def code_spec(row: Mapping[str, Any], rules: Rules) -> dict | None:
    """Language and tests of a code row in our own columns: `tests` ([{"stdin", "expected_stdout"}])
    and/or `test_code`, at top level or inside `verification_info` (open-r1's own shape, with
    `test_cases`, is read by verifier/formats)."""
    info = _load_json(row.get("verification_info"))
    source = info if isinstance(info, Mapping) else row
    tests: list[dict] = []
    raw_tests = _load_json(source.get("tests")) or []
    # As given: the schema (sandbox/contract.py CodeTest) rejects a case that is not {"stdin", "expected_stdout"},
    # naming its keys, so an {"input", "output"} row is an error, never a test run with empty stdin.
    tests.extend(raw_tests if isinstance(raw_tests, list) else [raw_tests])
    test_code = source.get("test_code") if isinstance(source.get("test_code"), str) else None
    call_tests = _load_json(source.get("call_tests")) or []
    if (not tests and not test_code and not call_tests) or len(tests) > rules.max_tests_per_task:
        return None
    language = source.get("language") or row.get("language") or rules.code_language
    spec = {"language": str(language), "tests": tests, "test_code": test_code,
            "compare": rules.code_compare, "scoring": rules.code_scoring}
    if call_tests:
        spec["call_tests"] = call_tests  # as given: the schema names what is wrong with a case
    for key in ("checker", "checker_language", "compare", "time_limit_s", "memory_limit_mb", "entry_point",
                "test_framework", "judge", "float_abs_tol", "float_rel_tol", "files", "input_file", "output_file"):
        if source.get(key) not in (None, ""):
            spec[key] = source[key]
    return spec


def _format_task(name: str, text: str, row: Mapping[str, Any], rules: Rules) -> dict | str:
    """A public dataset's row as a task (verifier/formats), with the rules' scoring; a reason if not."""
    try:
        task = to_task(row, name, completion=text)
    except FormatError as exc:
        return str(exc)
    n = len(task.get("tests") or task.get("call_tests") or [])
    if n > rules.max_tests_per_task:
        return f"{n} tests, more than max_tests_per_task={rules.max_tests_per_task}"
    if task.get("kind") == "repo":  # a SWE-bench row: no compare or scoring (resolved or not)
        return task
    task.setdefault("compare", rules.code_compare)
    return {**task, "scoring": rules.code_scoring}


def is_own_repo(row: Mapping[str, Any]) -> bool:
    """A repository task in our own columns: `kind` is `repo`, or `environment` and `fail_to_pass` are filled."""
    return row.get("kind") == "repo" or (row.get("environment") is not None and row.get("fail_to_pass") is not None)


def is_repo(row: Mapping[str, Any]) -> bool:
    """A repository task's row: ours (is_own_repo), or a SWE-bench row (verifier/formats/swebench.py)."""
    return is_own_repo(row) or dataset_format(row) == "swebench"


def graded_text(text: str, row: Mapping[str, Any], rules: Rules) -> str:
    """The part of a completion that is graded: its last `max_completion_chars` (answers and code sit at
    the end), but all of a repository task's. A patch's head cut off is another patch (its later files
    alone), which could resolve where the whole is refused: too long, it is the schema's error on
    `completion`, never a shorter patch graded (docs/repo-tasks.md "The task schema")."""
    return text if is_repo(row) else text[-rules.max_completion_chars:]


def row_task(task_id: str, text: str, row: Mapping[str, Any], rules: Rules) -> dict | str:
    """The row's task grading `text` (the whole completion: cut here, graded_text), or the reason it has none."""
    text = graded_text(text, row, rules)
    base: dict[str, Any] = {"id": task_id, "completion": text}
    if rules.task_timeout_s:
        base["timeout_s"] = rules.task_timeout_s
    name = dataset_format(row)
    if is_own_repo(row) and not name:  # its fields as given: the schema names a missing or bad one
        return f"a repo row, but kind is forced to {rules.kind!r}" if rules.kind == "math" else \
            {**base, "kind": "repo", **{k: row[k] for k in REPO_COLUMNS if row.get(k) is not None}}
    kind = row_kind(row, rules)
    if kind == "code" and name:
        task = _format_task(name, text, row, rules)  # its completion may continue the row's prompt
        return task if isinstance(task, str) else {**task, **{k: v for k, v in base.items() if k != "completion"}}
    if kind == "code":
        spec = code_spec(row, rules)
        return (f"no tests (or more than max_tests_per_task={rules.max_tests_per_task}) in columns "
                f"{', '.join(CODE_COLUMNS)}") if spec is None else {**base, "kind": "code", **spec}
    if name:
        return f"a {name} code row, but kind is forced to {rules.kind!r}"
    gold = math_gold(row, rules)
    if gold is None:
        return f"no code format, and no math gold answer in columns {', '.join(rules.gold_columns)}"
    profile = row.get("profile") if row.get("profile") in PROFILES else rules.math_profile
    task = {**base, "kind": "math", "gold": gold, "profile": profile}
    choices = row.get("choices")
    if isinstance(choices, (list, tuple)) and choices and all(isinstance(c, str) for c in choices):
        task["choices"] = list(choices)
    problem = row.get("problem")  # the dataset's problem text (MATH, NuminaMath, OpenR1-Math name it so): MathTask.problem
    if isinstance(problem, str) and problem:
        task["problem"] = problem
    return task


def as_mapping(label: Any) -> Mapping[str, Any] | None:
    """A label that is a dict, or a JSON object in a string; None for a plain gold answer."""
    if isinstance(label, Mapping):
        return label
    if isinstance(label, str) and label.lstrip().startswith("{"):
        try:
            value = json.loads(label)
        except ValueError:
            return None
        return value if isinstance(value, Mapping) else None
    return None


def label_row(label: Any, extra: Mapping[str, Any] | None = None) -> dict:
    """The row a framework's label (with the row's other columns, `extra`) stands for.

    The label is a gold answer (string or number), verl's code ground truth (`{"inputs", "outputs",
    "fn_name"?}` or `{"assert_case"}`: read by verifier/formats/verl.py), or a dataset row as a JSON
    object whose columns the rules read (`solution`, `verification_info`, a public dataset's columns).
    The label outranks `extra`'s columns."""
    row = dict(extra or {})
    mapping = as_mapping(label)
    if mapping is not None and (("inputs" in mapping and "outputs" in mapping) or "assert_case" in mapping):
        row["ground_truth"] = dict(mapping)
    elif mapping is not None:
        row.update(mapping)
    elif label is not None:
        row["ground_truth"] = label
    return row


def label_task(task_id: str, text: str, label: Any, rules: Rules,
               extra: Mapping[str, Any] | None = None) -> tuple[dict | str, dict]:
    """(task grading `text` against a framework's label, or the reason it has none; the row read).
    A label that is a whole task of the JSON schema (it has `kind`) is taken as it is, with its
    `completion` and `id` replaced."""
    mapping = as_mapping(label)
    if mapping is not None and "kind" in mapping:
        return {**mapping, "id": task_id, "completion": graded_text(text, mapping, rules)}, dict(mapping)
    row = label_row(label, extra)
    return row_task(task_id, text, row, rules), row

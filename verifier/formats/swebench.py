"""SWE-bench rows, and SWE-Gym's and SWE-smith's (the same columns), as `repo` tasks
(docs/repo-tasks.md "SWE-bench rows").

A row: `instance_id`, `repo`, `base_commit`, `test_patch` (SWE-smith has none: its tests are in the
repository), `FAIL_TO_PASS`, `PASS_TO_PASS` (JSON text, as SWE-bench stores them, or lists),
`version`, the gold `patch`, and the model's output in `model_patch` (SWE-bench's prediction files)
or `completion`. The gold `patch` is never graded: it is the dataset's answer, not the model's; its files are
the task's `editable`, the only existing files the model's patch may change (a row without a gold names them
in its own `editable` column).

The environment's name and the test ids are read by the builder's rules (sandbox/env_rows.py, one
home for `env build --format swebench` and this reader): the row's `environment`, else its
`instance_id`. The test command and report are the row's `test_cmd` and `report` columns, else what
the build recorded in the environment (`environment_defaults`, laid under the row by `verifier
grade` in-process), else the report by language.
"""
from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from sandbox import env_rows
from sandbox.environments import ENV_FILE

from .common import FormatError

NAME = "swebench"
# The model's patch: SWE-bench's prediction files call it model_patch; ours and the trainers' completion.
COMPLETION_COLUMNS = ("completion", "model_patch")
# Columns of ours a row may carry, copied to the task when present (the row's own choices outrank the build's).
OPTIONAL = ("report", "time_limit_s", "memory_limit_mb", "timeout_s")


def detect(row: Mapping[str, Any]) -> bool:
    """A SWE-bench row names its tests. A column of None is not one: a trainer's batch mixing these rows
    with math rows (one dataset, the union of their columns) hands every row every column, None where
    it has none (docs/training.md "Training with TRL")."""
    return "instance_id" in row and row.get("FAIL_TO_PASS") is not None


def environment_name(row: Mapping[str, Any]) -> str:
    """The environment a row runs in (sandbox/env_rows.py, the builder's rule too)."""
    try:
        return env_rows.environment_name(row)
    except env_rows.RowError as e:
        raise FormatError(str(e)) from None


def gold_files(row: Mapping[str, Any]) -> list[str]:
    """The existing files the model's patch may change: the row's `editable`, else its gold `patch`'s files
    (sandbox/env_rows.py, the builder's rule too)."""
    try:
        return env_rows.gold_files(row)
    except env_rows.RowError as e:
        raise FormatError(str(e)) from None


def test_ids(row: Mapping[str, Any], column: str, required: bool) -> list[str]:
    try:
        return env_rows.test_ids(row, column, required)
    except env_rows.RowError as e:
        raise FormatError(str(e)) from None


def environment_defaults(root: str, name: str) -> dict[str, str]:
    """`test_cmd` and `report` as `verifier env build` recorded them in `root/name/environment.json`;
    {} when the environment or the file is not there (the row must then say them)."""
    if not root:
        return {}
    try:
        meta = json.loads((Path(root) / name / ENV_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(meta, dict):
        return {}
    return {k: meta[k] for k in ("test_cmd", "report") if isinstance(meta.get(k), str) and meta[k]}


def with_environment_defaults(row: Mapping[str, Any], root: str) -> Mapping[str, Any]:
    """The row with the `test_cmd` and `report` its environment recorded under `root` laid under its own
    columns: where the grader sees the built environments (`verifier grade` in-process, the server's HTTP
    trainer routes; docs/repo-tasks.md "Trainers"). The name is read by its grammar first, so a row
    never names a path outside `root`; a bad name is left for to_task to name."""
    if not root:
        return row
    try:
        name = environment_name(row)
    except FormatError:
        return row
    defaults = environment_defaults(root, name)
    return {**row, **{k: v for k, v in defaults.items() if row.get(k) in (None, "")}}


def to_task(row: Mapping[str, Any], completion: str) -> dict:
    """The repo task grading `completion` (docs/repo-tasks.md "The task schema"). `verifier grade`
    lays the environment's recorded `test_cmd` and `report` (environment_defaults) under the row's
    columns first."""
    name = environment_name(row)
    test_patch = row.get("test_patch") or ""
    if not isinstance(test_patch, str):
        raise FormatError(f"test_patch: expected a diff (a string), got {type(test_patch).__name__}")
    test_cmd = row.get("test_cmd")
    if not isinstance(test_cmd, str) or not test_cmd.strip():
        raise FormatError(f"test_cmd: missing, and the environment {name!r} records none here (a row carries "
                          "`test_cmd`, or grade in-process with --sandbox-repo-environments where "
                          "`verifier env build` recorded it)")
    task: dict[str, Any] = {"kind": "repo", "environment": name, "completion": completion, "test_patch": test_patch,
                            "test_cmd": test_cmd, "fail_to_pass": test_ids(row, "FAIL_TO_PASS", True),
                            "pass_to_pass": test_ids(row, "PASS_TO_PASS", False),
                            "report": env_rows.default_report(row.get("language")), "editable": gold_files(row)}
    task.update({k: row[k] for k in OPTIONAL if row.get(k) not in (None, "")})
    return task

"""The corpus of repository tasks (docs/repo-tasks.md "The corpus"): a patch to a task's own tests is
refused before anything runs, in both languages. The corpus's tasks run end to end through the
service in tests/test_repo_service.py (gold resolved, an empty or wrong patch not, on Docker and
gVisor); tests/test_repo_results.py resolves every task on its stored reports."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from sandbox.repo.patch import PatchError, check_protected, command_paths, read_patch

DATA = Path(__file__).parent / "data" / "repo_tasks"
ROWS = [json.loads(line) for line in (DATA / "tasks.jsonl").read_text().splitlines()]


def pick(language: str) -> dict:
    """The language's row with the fewest tests."""
    rows = [r for r in ROWS if r["language"] == language]
    return min(rows, key=lambda r: len(r["FAIL_TO_PASS"]) + len(r["PASS_TO_PASS"]))


@pytest.mark.parametrize("language", ["python", "go"])
def test_a_patch_to_the_task_s_tests_is_refused_before_anything_runs(language: str) -> None:
    row = pick(language)
    check_protected(read_patch(row["patch"]), command_paths(row["test_cmd"]))  # the gold alone is admitted
    with pytest.raises(PatchError, match="protected path"):
        check_protected(read_patch(row["patch"] + row["test_patch"]), command_paths(row["test_cmd"]))

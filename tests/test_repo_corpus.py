"""The corpus of repository tasks (docs/repo-tasks.md "The corpus"): a patch to a task's own tests is
refused before anything runs, in both languages. The corpus's tasks run end to end through the
service in tests/test_repo_service.py (gold resolved, an empty or wrong patch not, on Docker and
gVisor); tests/test_repo_results.py resolves every task on its stored reports."""
from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from sandbox.repo.patch import PatchError, check_admitted, check_protected, command_files, listed_test_files, read_patch

DATA = Path(__file__).parent / "data" / "repo_tasks"
ROWS = [json.loads(line) for line in (DATA / "tasks.jsonl").read_text().splitlines()]


def pick(language: str) -> dict:
    """The language's row with the fewest tests."""
    rows = [r for r in ROWS if r["language"] == language]
    return min(rows, key=lambda r: len(r["FAIL_TO_PASS"]) + len(r["PASS_TO_PASS"]))


@pytest.mark.parametrize("language", ["python", "go"])
def test_a_patch_to_the_task_s_tests_is_refused_before_anything_runs(language: str) -> None:
    row = pick(language)
    written = command_files(row["test_cmd"]).written
    check_protected(read_patch(row["patch"]), written)  # the gold alone is admitted
    with pytest.raises(PatchError, match="protected path"):
        check_protected(read_patch(row["patch"] + row["test_patch"]), written)


@pytest.fixture(scope="module")
def base_trees(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[set[str], set[str], Path]]:
    """Each row's tree at its base commit as (files, directories), listed from its bundle without a checkout."""
    import subprocess

    trees: dict[str, tuple[set[str], set[str], Path]] = {}
    clones: dict[str, Path] = {}
    for row in ROWS:
        if row["repo"] not in clones:
            clones[row["repo"]] = tmp_path_factory.mktemp("bundles") / "repo.git"
            bundle = DATA / "repos" / f"{row['repo'].replace('/', '+')}.bundle"
            subprocess.run(["git", "clone", "-q", "--bare", str(bundle), str(clones[row["repo"]])], check=True)
        listing = subprocess.run(["git", "-C", str(clones[row["repo"]]), "ls-tree", "-r", "-t", "--format=%(objecttype) %(path)",
                                  row["base_commit"]], check=True, capture_output=True, text=True).stdout.splitlines()
        files = {line[5:] for line in listing if line.startswith("blob ")}
        configs = tmp_path_factory.mktemp("configs")  # the files the dataset's test discovery is read from
        for path in sorted(f for f in files if f.rsplit("/", 1)[-1] in _CONFIGS):
            (configs / path).parent.mkdir(parents=True, exist_ok=True)
            (configs / path).write_bytes(subprocess.run(["git", "-C", str(clones[row["repo"]]), "show",
                                                         f"{row['base_commit']}:{path}"], check=True, capture_output=True).stdout)
        trees[row["instance_id"]] = (files, {line[5:] for line in listing if line.startswith("tree ")}, configs)
    return trees


_CONFIGS = ("pytest.ini", ".pytest.ini", "tox.ini", "setup.cfg", "pyproject.toml")


def test_every_gold_patch_is_on_the_allowlist_and_its_near_misses_are_not(base_trees: dict) -> None:
    """docs/repo-tasks.md "Trust model": each gold patch (the rewrite: right by the dataset) is admitted over its
    own tree, with its listed test ids' files and its configuration's test discovery; the same patch with a new test-runner hook (a near miss) is refused."""
    def kind_of(instance_id: str) -> Callable[[str], str | None]:
        files, dirs, _ = base_trees[instance_id]
        return lambda path: "file" if path in files else "dir" if path in dirs else None

    assert len(ROWS) == 30
    for row in ROWS:
        listed = listed_test_files([*row["FAIL_TO_PASS"], *row["PASS_TO_PASS"]])  # as make_repo_plan adds them
        configs = str(base_trees[row["instance_id"]][2])  # the dataset's discovery read from its configuration files
        extra, command = (*read_patch(row["test_patch"]).paths, *listed), command_files(row["test_cmd"], configs)
        check_admitted(read_patch(row["patch"]), row["language"], kind_of(row["instance_id"]), extra, command)
        hook = "conftest.py" if row["language"] == "python" else "go.sum"
        near = row["patch"] + f"--- /dev/null\n+++ b/{hook}\n@@ -0,0 +1 @@\n+x\n"
        with pytest.raises(PatchError):
            check_admitted(read_patch(near), row["language"], kind_of(row["instance_id"]), extra, command)


def test_every_gold_patch_is_admitted_under_its_own_files_and_a_non_gold_file_is_not(base_trees: dict) -> None:
    """docs/repo-tasks.md "Trust model" (the gold's files, h33k): each row's gold patch is admitted with the task's
    `editable` as the SWE-bench reader fills it (`gold_files`), with a new document beside it (a rewrite); the gold
    plus a one-line edit of an existing source file of its tree that the gold does not change (a near miss: a helper, a
    fixture's module) is refused, naming that file."""
    from sandbox.env_rows import gold_files
    from sandbox.repo.patch import allowed_kind

    for row in ROWS:
        files = base_trees[row["instance_id"]][0]
        kind = lambda path, fs=files, ds=base_trees[row["instance_id"]][1]: "file" if path in fs else "dir" if path in ds else None  # noqa: E731
        listed = listed_test_files([*row["FAIL_TO_PASS"], *row["PASS_TO_PASS"]])
        extra, command = (*read_patch(row["test_patch"]).paths, *listed), command_files(row["test_cmd"],
                                                                                         str(base_trees[row["instance_id"]][2]))
        editable = gold_files(row)
        doc = "--- /dev/null\n+++ b/NOTES-h33k.md\n@@ -0,0 +1 @@\n+The fix.\n" if "go.mod" not in editable else ""  # go.mod
        # is admitted new only alone (`_check_new_go_mod`)
        check_admitted(read_patch(row["patch"] + doc), row["language"], kind, extra, command, editable=editable)
        other = sorted(f for f in files if f not in editable and f not in extra
                       and allowed_kind(f, row["language"], command.test_patterns) == "source"
                       and not any(part in ("tests", "testdata", "test") for part in f.split("/")[:-1]))
        assert other, row["instance_id"]
        near = row["patch"] + f"--- a/{other[0]}\n+++ b/{other[0]}\n@@ -1 +1 @@\n-x\n+y\n"
        with pytest.raises(PatchError, match=f"{other[0]} is an existing file the task's reference fix does not change"):
            check_admitted(read_patch(near), row["language"], kind, extra, command, editable=editable)

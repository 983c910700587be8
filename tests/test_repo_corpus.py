"""The corpus of repository tasks end to end in the sandbox images (docs/repo-tasks.md "The corpus"):
a task's repository from its bundle, the model's patch through the reader, the dataset's test patch
after it, the test command with the network off, the report parsed and resolved. One task per
language: the gold patch resolves, an empty patch (the tests alone) does not, and a patch to a
test file is refused before anything runs. The task kind through the service replaces this driver."""
from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from sandbox.repo.grading import Resolution, lookup, resolve
from sandbox.repo.patch import PatchError, check_protected, command_paths, read_patch
from sandbox.repo.results import junit_key, parse_go_json, parse_pytest

DATA = Path(__file__).parent / "data" / "repo_tasks"
ROWS = [json.loads(line) for line in (DATA / "tasks.jsonl").read_text().splitlines()]


def pick(language: str) -> dict:
    """The language's row with the fewest tests (the cheapest run)."""
    rows = [r for r in ROWS if r["language"] == language]
    return min(rows, key=lambda r: len(r["FAIL_TO_PASS"]) + len(r["PASS_TO_PASS"]))


def checkout(row: dict, into: Path) -> None:
    bundle = DATA / "repos" / f"{row['repo'].replace('/', '+')}.bundle"
    subprocess.run(["git", "clone", "-q", "--no-checkout", str(bundle), str(into)], check=True)
    subprocess.run(["git", "-C", str(into), "checkout", "-q", row["base_commit"]], check=True)


def apply(tree: Path, diff: str) -> bool:
    return subprocess.run(["git", "apply", "-p1", "-"], cwd=tree, input=diff, text=True).returncode == 0


def run_task(row: dict, completion: str, tmp: Path) -> Resolution:
    """What the repo task kind will do, on the host here: read and check the patch, apply it, write the
    test patch after it, run the test command in the language's sandbox image, resolve."""
    import docker

    from sandbox.build import find_image

    patch = read_patch(completion)
    check_protected(patch, command_paths(row["test_cmd"]))
    tree, out = tmp / "repo", tmp / "out"
    checkout(row, tree)
    out.mkdir()
    assert apply(tree, patch.text) and apply(tree, row["test_patch"])
    client = docker.from_env()
    image = find_image(client, "python" if row["language"] == "python" else "go")
    assert image, "make images builds the sandbox images"
    junit = " --junitxml=/out/junit.xml" if row["language"] == "python" else ""
    cmd = row["test_cmd"].replace("pytest ", f"pytest{junit} ", 1)
    container = client.containers.run(
        image, ["-c", cmd], entrypoint="sh", network_disabled=True, detach=True, working_dir="/repo",
        user=f"{os.getuid()}:{os.getgid()}", tmpfs={"/tmp": "exec"},
        environment={"HOME": "/tmp", "GOCACHE": "/tmp/gocache", "GOFLAGS": "-mod=mod", "PYTHONDONTWRITEBYTECODE": "1"},
        volumes={str(tree): {"bind": "/repo", "mode": "rw"}, str(out): {"bind": "/out", "mode": "rw"}},
    )
    try:
        container.wait(timeout=300)
        logs = container.logs(stdout=True, stderr=True)
    finally:
        container.remove(force=True)
    if row["language"] == "go":
        return resolve(lookup(parse_go_json(logs)), row["FAIL_TO_PASS"], row["PASS_TO_PASS"])
    statuses = parse_pytest((out / "junit.xml").read_bytes(), logs)
    return resolve(lookup(statuses, junit_key), row["FAIL_TO_PASS"], row["PASS_TO_PASS"])


@pytest.mark.docker
@pytest.mark.parametrize("language", ["python", "go"])
def test_the_gold_patch_resolves_and_the_tests_alone_do_not(language: str, tmp_path: Path) -> None:
    row = pick(language)
    gold = run_task(row, f"The fix:\n\n```diff\n{row['patch']}```\n", tmp_path / "gold")
    assert gold.resolved, gold.detail
    # An "empty" patch: a no-op edit of a comment-free new file leaves the code as it was.
    noop = "--- /dev/null\n+++ b/NOTES.txt\n@@ -0,0 +1 @@\n+no change\n"
    unfixed = run_task(row, noop, tmp_path / "noop")
    assert not unfixed.resolved and set(unfixed.f2p_failed) == set(row["FAIL_TO_PASS"]), unfixed.detail


@pytest.mark.parametrize("language", ["python", "go"])
def test_a_patch_to_the_task_s_tests_is_refused_before_anything_runs(language: str, tmp_path: Path) -> None:
    row = pick(language)
    with pytest.raises(PatchError, match="protected path"):
        run_task(row, row["patch"] + row["test_patch"], tmp_path)

"""Warm environments (docs/repo-tasks.md "Warm environments"), on the Docker and the gVisor backend, one
grader for the module each, its environments made by hand (environment.json and repo/):

- a task's tree in its environment's warm box is links to the environment's tree (read-only in the box) and
  the task's own files: a tree of 8 MiB costs the task a few KiB of /work (a copy would cost the 8 MiB);
- nothing a task writes reaches the next task on that warm box: the same task twice on one box (a marker
  file it leaves, an environment file it tries to overwrite through its link and at the mount, a file it
  tries to add there, read back by the next run);
- at most `repo_warm_environments` (here 1) are warm: a task on another environment retires the least
  recently used one, whose box is removed, and the task on the other resolves.
"""
from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from helpers import sandbox_config

pytestmark = [pytest.mark.docker, pytest.mark.in_process]

BLOB = 8 << 20
TEST = '''import os


def test_the_tree_is_not_a_copy():
    import pkg
    assert pkg.VALUE == 2, "the patch's own file"
    assert not os.path.islink("pkg/__init__.py") and os.path.islink("pkg/blob.bin")
    own = tree = 0
    for d, _, files in os.walk("."):
        for n in files:
            p = os.path.join(d, n)
            own += os.lstat(p).st_blocks * 512
            tree += os.stat(p).st_size
    assert tree > 8 << 20 and own < 256 << 10, (tree, own)


def test_nothing_of_the_last_task():
    assert not os.path.exists("marker") and not os.path.exists("/srv/pkg/marker"), "a file an earlier task wrote"
    with open("pkg/data.txt") as f:
        assert f.read() == "original\\n", "an environment file an earlier task wrote"
    for path, text in (("marker", "x"), ("pkg/data.txt", "changed\\n"), ("/srv/pkg/data.txt", "changed\\n"),
                       ("/srv/pkg/marker", "x")):
        try:
            with open(path, "w") as f:
                f.write(text)
        except OSError:
            pass
'''
FILES = {"pkg/__init__.py": "VALUE = 1\n", "pkg/data.txt": "original\n", "tests/__init__.py": "", "tests/test_view.py": TEST}
FIX = "--- a/pkg/__init__.py\n+++ b/pkg/__init__.py\n@@ -1 +1 @@\n-VALUE = 1\n+VALUE = 2\n"
# --maxfail: no decoy (docs/repo-tasks.md "Trust model"), whose run would leave the marker before the test's
TASK = {"kind": "repo", "completion": FIX, "test_cmd": "python3 -m pytest -p no:cacheprovider -rA --maxfail=100 tests",
        "fail_to_pass": ["tests/test_view.py::test_the_tree_is_not_a_copy", "tests/test_view.py::test_nothing_of_the_last_task"]}


def environment(root: Path, name: str) -> Path:
    """A hand-made environment (docs/repo-tasks.md "Environments"): its tree holds an 8 MiB file."""
    tree = root / name / "repo"
    for path, text in FILES.items():
        (tree / path).parent.mkdir(parents=True, exist_ok=True)
        (tree / path).write_text(text)
    (tree / "pkg" / "blob.bin").write_bytes(bytes(range(256)) * (BLOB // 256 + 1))
    (root / name / "environment.json").write_text(json.dumps({"language": "python"}))
    return tree.resolve()


@pytest.fixture(scope="module", params=["docker", "gvisor"])
def warm(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, dict[str, Path]]]:
    from sandbox.sync import SyncGrader

    root = tmp_path_factory.mktemp(f"warm-envs-{request.param}")
    trees = {name: environment(root, name) for name in ("iso-a", "iso-b")}
    config = sandbox_config(request.param, languages=("python",), pool_size=1, pool_name=f"test-warm-{request.param}",
                            repo_environments=str(root), repo_warm_environments=1, repo_pool_size=1)
    g = SyncGrader(config)
    assert g.grader.available, g.grader.unavailable_reason()
    try:
        yield g, trees
    finally:
        g.close()


def grade(g: Any, name: str) -> dict:
    from sandbox.contract import parse_task

    result = g.call(g.grader.grade_repo(parse_task({**TASK, "id": name, "environment": name})))
    g.call(g.grader.settled())
    return result


def test_a_task_s_writes_never_reach_the_next_task_and_its_tree_is_not_a_copy(warm: tuple[Any, dict[str, Path]]) -> None:
    """Two tasks on ONE warm box of the environment, held by the test (the grader would replace a box its
    reset finds unclean, and retry a task on a fresh one: then the second task would prove nothing), with
    the pool's reset between them (job.reset_box, as CodeGrader runs it)."""
    from sandbox.contract import parse_task
    from sandbox.job import reset_box
    from sandbox.repo_job import RepoPlan, environment_language, make_repo_plan, run_repo_job

    g, trees = warm
    config = g.grader.config
    env = environment_language(config.repo_environments, "iso-a")
    pool = g.call(g.grader._envs.pool(env.identity, env.tree, env.inode, "python"))
    box = g.call(pool.acquire("python"))
    try:
        for run in ("first", "again"):  # again: the marker and any write of the first run must be gone
            plan = make_repo_plan(parse_task({**TASK, "id": run, "environment": "iso-a"}), config)
            assert isinstance(plan, RepoPlan), plan
            result, _ = run_repo_job(pool, box, plan, config)
            assert result["verdict"] == "accepted", (run, result)
            reset_box(box)
    finally:
        g.call(pool.release(box, False))
        g.call(g.grader.settled())
    assert box.jobs == 2
    assert (trees["iso-a"] / "pkg" / "data.txt").read_text() == "original\n"
    assert not (trees["iso-a"] / "marker").exists() and not (trees["iso-a"] / "pkg" / "marker").exists()


def test_the_least_recently_used_environment_is_retired_at_the_bound(warm: tuple[Any, dict[str, Path]]) -> None:
    g, trees = warm
    assert grade(g, "iso-a")["verdict"] == "accepted"
    pool = next(p for p in g.grader._envs._pools.values() if p.env == str(trees["iso-a"]))
    boxes = [*pool._idle["python"]._boxes, *pool._standby["python"]]
    evicted = g.grader.environments()["evicted"]
    other = grade(g, "iso-b")
    assert other["verdict"] == "accepted", other
    envs = g.grader.environments()
    assert envs["warm"] == [str(trees["iso-b"])] and envs["evicted"] == evicted + 1, envs
    assert pool._closed and pool._idle["python"].empty() and not pool.busy(), "the retired environment takes no job"
    assert all(b.dead for b in boxes), "the retired environment's boxes are removed"

"""Red team of the judge's tree (rt33s; h33u: sandbox/harness/repo_tree.py, sandbox/backend.py TREE_MOUNT;
docs/repo-tasks.md "Warm environments", "Trust model"): a repository task's tree is made by a child of PID 1 with the
judge's uid on its own tmpfs at /mnt (the judge's, 0755, /work's size and inodes), then the test command runs in it as
the program's uid.

Held (plain tests, Docker, gVisor, and userns in both modes: h33w):
- the patch's code (imported by the test) changes nothing of the tree: writing, appending to, truncating, removing,
  renaming, chmod-ing or re-timing a test file, making a file, folder, symlink or hard link in the tree or in /mnt
  itself, are all refused (a wrong patch whose `add` turns right if any of them works stays wrong_answer), but in
  userns's Landlock mode chmod and utime (below);
- a detached daemon the wrong patch leaves (setsid, double fork) to plant links and reports in the next task's job
  directory and tree is dead before the next task's tree is built: the next task, a right patch that turns wrong while
  any such process is alive, is accepted. In its own task its link at the job's report.xml (to /dev/null) leaves no
  report: the program's runtime_error, 0 (a report the program writes is the Trust model's known class).

Found and fixed (h33v): the tree tmpfs's bytes were bounded on the host by the copies only (`_tree_view`: copy_bytes +
WORK_SPARE <= /work), but Linux's tmpfs stores each symlink whose target is over 127 bytes in a page of its own (4 KiB
of the tmpfs's size): an environment of many files at long paths (each a link `/srv/PATH`) filled /mnt while it was
made, and the runner's `tree_full` was charged to the model (`wrong_answer`, sandbox/repo_job.py), so the
environment's size refused a right patch (RED-TEAM.md class 8 turned round: a fault that is not the model's is its 0).
gVisor's tmpfs filled likewise (ENOSPC copying pkg/big.py after the links). Each long link is now a page of the host's
bound (sandbox/repo/apply.py View.tree_bytes): such an environment is its own infra_error, not retryable, never the
model's 0; one that fits is graded (tests/test_repo_apply.py, the bound itself). Likewise the dataset's own files
(rt30ae, fixed by h33x: a test patch of 4,400 data files, a page each): they count with the environment's part
(sandbox/repo/apply.py own_bytes), the task's infra_error past the bound (tests/test_redteam_backends_12.py).

Found and fixed (h33w, this file on userns): every repository task of the userns backend was infra_error where the
environments' folder sat below one the sandbox's uids cannot cross (bubblewrap's own bind of it: "Can't find source
path ... Permission denied"; pytest's 0700 temporary folder): the launch now binds it into its stage as it binds the
root filesystem (sandbox/userns_launch.py stage_binds). In the Landlock mode (one uid: the tree is the program's own)
chmod and utime of the tree went through, as Landlock has no right for them (a test file's times set back to a stale
bytecode's make Python load it): the wrong patch was accepted. PID 1 now stamps the tree before the run and compares
after it (sandbox/harness/repo_tree.py stamp): a change is tampering, 0.
"""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

WORK_MB = 20  # /work and /mnt here: the copies and the test patch's files may take WORK_MB - 16 (WORK_SPARE) MiB
_LONG = 4600  # links at long paths: 4600 pages (18 MiB) of /mnt on Linux's tmpfs, with the 3 MiB copy over 20 MiB
_PROJECT = {"pkg/__init__.py": '"""The package."""\n', "pkg/mod.py": "def add(a, b):\n    return a - b\n",
            "tests/test_mod.py": "from pkg.mod import add\n\n\ndef test_zero():\n    assert add(0, 0) == 0\n"}
_TESTS = ("--- a/tests/test_mod.py\n+++ b/tests/test_mod.py\n@@ -3,3 +3,7 @@ from pkg.mod import add\n \n"
          " def test_zero():\n     assert add(0, 0) == 0\n+\n+\n+def test_sum():\n+    assert add(1, 2) > 2\n")
_GOLD = "--- a/pkg/mod.py\n+++ b/pkg/mod.py\n@@ -1,2 +1,2 @@\n def add(a, b):\n-    return a - b\n+    return a + b\n"
_CMD = "python3 -m pytest -p no:cacheprovider -rA tests"


def _mod(body: list[str]) -> str:
    """A patch replacing pkg/mod.py by `body`."""
    return ("--- a/pkg/mod.py\n+++ b/pkg/mod.py\n"
            f"@@ -1,2 +1,{len(body)} @@\n-def add(a, b):\n-    return a - b\n" + "".join(f"+{line}\n" for line in body))


# What the wrong patch tries on the tree (or /mnt): the files and folders in it (kept by Landlock in the one-uid mode)
_CONTENT = ["open(t, 'a').write('\\n')", "os.truncate(t, 0)", "os.unlink(t)", "os.rename(t, 'tests/x.py')",
            "open('tests/new.py', 'w')", "os.mkdir('newdir')", "os.symlink('/work', 'lnk')", "os.link(t, 'tests/hard.py')",
            "os.link(t, '/tmp/hard.py')", "open('/mnt/x', 'w')", "os.rename('/mnt/repo', '/mnt/old')",
            "os.symlink('/proc/self', '/mnt/p')"]
# and their modes and times (a test file's times keep a stale bytecode of it valid: "Warm environments")
_META = ["os.chmod(t, 0o666)", "os.utime(t, (0, 0))", "os.utime(t)", "os.chmod('.', 0o777)", "os.chmod('/mnt', 0o777)"]


def _writes(steps: list[str]) -> list[str]:
    """The wrong patch whose add is right only if one of `steps` (code on `t`, the test file) was let through."""
    calls = [f"lambda: {step}," for step in steps]
    return ["import os", "", "", "def _tries():", "    t, done = 'tests/test_mod.py', []", "    steps = [", *calls, "    ]",
            "    for i, step in enumerate(steps):", "        try:", "            step()", "            done.append(i)",
            "        except OSError:", "            pass", "    return done", "", "", "CHANGED = _tries()", "", "",
            "def add(a, b):", "    return a + b if CHANGED else a - b"]


# A wrong patch leaving a daemon (setsid, double fork) that, for a minute, plants in every job directory and tree it sees
_DAEMON = ["import os, subprocess, sys", "",
           "_CODE = '''import os, time  # rt33s-daemon",
           "end = time.time() + 60", "while time.time() < end:",
           "    for d in [os.path.join('/work', e) for e in os.listdir('/work')] + ['/work']:",
           "        for name, target in (('view.json', '/proc/1/fd/0'), ('repo.tar', '/mnt/repo'), ('report.xml', '/dev/null')):",
           "            try:", "                os.symlink(target, os.path.join(d, name))", "            except OSError:",
           "                pass", "    try:", "        open('/mnt/repo/tests/test_mod.py', 'a').write('def test_x():\\\\n    pass\\\\n')",
           "    except OSError:", "        pass", "    time.sleep(0.005)", "'''", "",
           "if os.fork() == 0:", "    os.setsid()", "    if os.fork() == 0:",
           "        subprocess.Popen([sys.executable, '-c', _CODE], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,",
           "                         stderr=subprocess.DEVNULL, start_new_session=True)", "    os._exit(0)", "", "",
           "def add(a, b):", "    return a - b"]
# The right patch, wrong while a process of the last task is alive (its command line marked rt33s-daemon)
_PROBE = ["import os", "", "", "def _alive():", "    for p in os.listdir('/proc'):", "        try:",
          "            if p.isdigit() and b'rt33s-daemon' in open(f'/proc/{p}/cmdline', 'rb').read():",
          "                return True", "        except OSError:", "            pass", "    return False", "", "",
          "ALIVE = _alive()", "", "", "def add(a, b):", "    return a - b if ALIVE else a + b"]


def _env(root: Path, src: Path, recipes: Path, name: str, long_links: int = 0) -> None:
    from helpers import build_environment, write_files

    write_files(src, _PROJECT)
    (src / "pkg" / "big.py").write_text("x = 1  \n" * ((3 << 20) // 8))  # a copy of 3 MiB (WORK_MB - 16 allows 4)
    if long_links:  # data files (links in the tree) whose target `/srv/PATH` is over 127 bytes
        deep = src / "data" / ("d" * 120)
        deep.mkdir(parents=True)
        for i in range(long_links):
            (deep / f"f{i:05d}.txt").write_text("1\n")
    build_environment(src, recipes, root, name, _CMD)


@pytest.fixture(scope="module")
def environments(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two python environments, `plain` and `longlinks` (the same project with _LONG data files at long paths), built
    once for every backend's grader."""
    root, recipes = tmp_path_factory.mktemp("tree-envs"), tmp_path_factory.mktemp("tree-recipes")
    _env(root, tmp_path_factory.mktemp("tree-plain"), recipes, "plain")
    _env(root, tmp_path_factory.mktemp("tree-long"), recipes, "longlinks", _LONG)
    return root


# (backend, userns mode): userns in the mode this host picks (uids, as root) and in Landlock's one-uid mode, where
# Landlock, not the tree's owner, keeps the program from the tree (sandbox/harness/confine.py scope_self)
BACKEND_MODES = {"docker": ("docker", {}), "gvisor": ("gvisor", {}), "userns": ("userns", {}),
                 "userns-landlock": ("userns", {"userns_mode": "landlock"})}


@pytest.fixture(scope="module", params=list(BACKEND_MODES))
def tree(request: pytest.FixtureRequest, environments: Path) -> Iterator[Any]:
    """A grader of `environments` with a 20 MiB /work (and /mnt) of 8192 inodes on each backend (and userns mode)."""
    from helpers import repo_grader

    backend, mode = BACKEND_MODES[request.param]
    with repo_grader(backend, f"test-rt-tree-{request.param}", environments, work_tmpfs_mb=WORK_MB, tmpfs_inodes=8192,
                     **mode) as g:
        g.backend = request.param
        yield g


def _grade(g: Any, completion: str, environment: str = "plain") -> dict:
    from helpers import grade_pytest_task

    return grade_pytest_task(g, environment, completion, _TESTS, _CMD, "tree")


def _wrong(result: dict) -> None:
    assert (result["verdict"], result["score"]) == ("wrong_answer", 0.0), result
    assert {t["name"]: t["detail"] for t in result["tests"]}["tests/test_mod.py::test_sum"] == "FAIL_TO_PASS: FAILED", result


@pytest.mark.docker
def test_the_right_patch_is_accepted(tree: Any) -> None:
    result = _grade(tree, _GOLD)
    assert (result["verdict"], result["score"]) == ("accepted", 1.0), result


@pytest.mark.docker
def test_the_program_changes_no_file_or_folder_of_the_tree(tree: Any) -> None:
    _wrong(_grade(tree, _mod(_writes(_CONTENT))))


@pytest.mark.docker
def test_the_program_changes_no_mode_or_time_of_the_tree(tree: Any) -> None:
    """Refused where the tree is the judge's uid's; in userns's Landlock mode (one uid: the tree is the program's own,
    and Landlock has no right for chmod or utime) they are done, and PID 1 finds them after the run
    (sandbox/harness/repo_tree.py stamp): tampering, 0, whatever the report says."""
    from helpers import on_backend

    result = _grade(tree, _mod(_writes(_META)))
    if on_backend(tree.backend, False, {"userns-landlock": (True, "Landlock has no right for chmod or utime")}):
        assert (result["verdict"], result["score"]) == ("wrong_answer", 0.0), result
        assert "tampered: the test command changed the task's tree" in result["detail"], result
        assert "/mnt/repo/tests/test_mod.py" in result["detail"], result
    else:
        _wrong(result)


@pytest.mark.docker
def test_a_daemon_of_the_last_task_is_dead_before_the_next_tree_is_made(tree: Any) -> None:
    first = _grade(tree, _mod(_DAEMON))  # its own task: its link at report.xml (to /dev/null) is its runtime_error
    assert first["verdict"] in ("wrong_answer", "runtime_error") and first["score"] == 0.0, first
    result = _grade(tree, _mod(_PROBE))
    assert (result["verdict"], result["score"]) == ("accepted", 1.0), result


@pytest.mark.docker
def test_an_environment_of_long_paths_is_its_own_infra_error_never_the_models_0(tree: Any) -> None:
    """18 MiB of long links' pages and a 3 MiB copy over a 20 MiB tree (16 MiB spare): the environment's fault."""
    result = _grade(tree, _GOLD, "longlinks")
    assert result["verdict"] == "infra_error" and "long links" in result["detail"], result

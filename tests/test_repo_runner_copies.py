"""The runner a test command names, and what lies beside it, are the dataset's (h33z; red team 15's wrong reward,
tests/test_redteam_backends_15.py; docs/repo-tasks.md "Trust model", "The runner's folder").

One reading of the command (sandbox/repo/patch.py `command_files`) decides both which files are copies in the task's
tree (sandbox/repo_job.py `copied`) and which files the patch may not touch (`check_admitted`, `runner_reason`): the
file the command names however it names it, every file in a runner's folder and below (not the root), and at the root
a runner's siblings that are not source files of the task's language. A patch touching one is refused before anything
runs, as a protected path is: the graded tree is always the patch's as written, and the model reads why.

Near misses (a wrong patch plus a rewrite of the runner, or of a helper it sources, under every spelling rt15 found):
refused naming a protected path, score 0. Rewrites (a right patch that touches source files beside the runner's
folder, `pkg/`): accepted under every spelling, on Docker and gVisor. Decided on the host, the refusals run on Docker only.
"""
from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

# The project: pkg (the source), tools/ (a runner that sources a helper beside it, a runner module and a pytest plugin),
# `runtests` (a root runner without a suffix), `ci` (the environment's link to tools/).
_PYTEST = "python3 -m pytest -p no:cacheprovider -rA tests"
_PROJECT = {"pkg/__init__.py": '"""The package."""\n', "pkg/mod.py": "def add(a, b):\n    return a - b\n",
            "tests/test_mod.py": "from pkg.mod import add\n\n\ndef test_zero():\n    assert add(0, 0) == 0\n",
            "tools/run.sh": '#!/bin/sh\ncd "$(dirname "$0")/.." && . tools/lib.sh\n',
            "tools/lib.sh": f"exec {_PYTEST}\n", "tools/__init__.py": "\n",
            "tools/runner.py": "import sys\n\nimport pytest\n\nsys.exit(pytest.main(['-p', 'no:cacheprovider', '-rA', 'tests']))\n",
            "tools/plugin.py": '"""A plugin the command loads."""\n', "tools/sub/extra.sh": "true\n",
            "runtests": f"#!/bin/sh\nexec {_PYTEST}\n", "NOTES": "notes\n"}
_EXECUTABLE = ("tools/run.sh", "runtests")
_TESTS = ("--- a/tests/test_mod.py\n+++ b/tests/test_mod.py\n@@ -3,3 +3,7 @@ from pkg.mod import add\n \n"
          " def test_zero():\n     assert add(0, 0) == 0\n+\n+\n+def test_sum():\n+    assert add(1, 2) == 3\n")
_GOLD = "--- a/pkg/mod.py\n+++ b/pkg/mod.py\n@@ -1,2 +1,2 @@\n def add(a, b):\n-    return a - b\n+    return a + b\n"
_WRONG = _GOLD.replace("a + b", "a * b")
_NEW_SOURCE = "--- /dev/null\n+++ b/pkg/extra.py\n@@ -0,0 +1 @@\n+X = 1\n"  # a new module beside the fix: source, admitted

# name: (test command, the file the command runs or reads that a forging patch rewrites) -- rt15's spellings and more
SPELLINGS = {
    "plain": ("bash tools/run.sh", "tools/run.sh"),
    "after-cd": ("cd tools && ./run.sh", "tools/run.sh"),
    "after-cd-sh": ("cd tools && sh run.sh", "tools/run.sh"),
    "through-link": ("bash ci/run.sh", "tools/run.sh"),
    "semicolon": ("bash tools/run.sh; true", "tools/run.sh"),
    "semicolon-first": ("true; bash tools/run.sh", "tools/run.sh"),
    "subshell": ("(tools/run.sh)", "tools/run.sh"),
    "subshell-sh": ("(sh tools/run.sh)", "tools/run.sh"),
    "bare-name": ("sh runtests", "runtests"),
    "python-m": ("python3 -m tools.runner", "tools/runner.py"),
    "python-m-bundled": ("python3 -mtools.runner", "tools/runner.py"),
    "pytest-plugin": (f"{_PYTEST.replace('-rA', '-p tools.plugin -rA')}", "tools/plugin.py"),
    "plugin-package": (f"{_PYTEST.replace('-rA', '-p tools.plugin -rA')}", "tools/__init__.py"),
    "sourced-helper": ("sh tools/run.sh", "tools/lib.sh"),
    "helper-through-link": ("bash ci/run.sh", "tools/lib.sh"),
    "helper-after-cd": ("cd tools && ./run.sh", "tools/lib.sh"),
    "below-the-folder": ("sh tools/run.sh", "tools/sub/extra.sh"),
    "root-sibling": ("sh runtests", "NOTES"),
}


def _rewrite(path: str) -> str:
    """A patch that replaces the first line of `path` (a runner's forgery: `exit 0` where pytest ran)."""
    first = _PROJECT[path].splitlines()[0]
    return f"--- a/{path}\n+++ b/{path}\n@@ -1 +1 @@\n-{first}\n+exit 0\n"


def _write(root: Path) -> None:
    from tests.helpers import write_files

    write_files(root, _PROJECT)
    for path in _EXECUTABLE:
        os.chmod(root / path, 0o755)
    (root / "ci").symlink_to("tools")


def _admit(tree: Path, completion: str, cmd: str) -> None:
    """check_admitted as make_repo_plan calls it: the tree's kinds, the test patch's files, the command's one reading."""
    from sandbox.repo.apply import tree_kind
    from sandbox.repo.patch import check_admitted, command_files, read_patch

    check_admitted(read_patch(completion), "python", lambda p: tree_kind(str(tree), p), read_patch(_TESTS).paths,
                   command_files(cmd, str(tree)))


@pytest.mark.parametrize("name", list(SPELLINGS))
def test_a_runner_or_a_file_beside_it_is_refused_and_the_source_beside_its_folder_admitted(name: str, tmp_path: Path) -> None:
    """Near miss: the wrong patch with the runner (or its folder's file) rewritten is refused as a protected path.
    Rewrite: the right patch, and one with a new module beside it (pkg/, outside every runner's folder), admitted."""
    from sandbox.repo.patch import PatchError

    _write(tmp_path)
    cmd, target = SPELLINGS[name]
    _admit(tmp_path, _GOLD, cmd)
    _admit(tmp_path, _GOLD + _NEW_SOURCE, cmd)
    with pytest.raises(PatchError, match="protected path"):
        _admit(tmp_path, _WRONG + _rewrite(target), cmd)


@pytest.mark.parametrize("cmd", [_PYTEST, "python3 -m pytest -p no:cacheprovider -rA pkg/test_core.py", "go test -json ./...",
                                 "PYTHONPATH=pkg python3 -m pytest --cov=pkg tests", "sh runtests"])
def test_a_command_that_runs_no_runner_in_pkg_leaves_pkg_the_patch_s(cmd: str, tmp_path: Path) -> None:
    """Rewrites: a command whose runner is pytest (or go), that names a test file beside the source (test code, not a
    runner: its folder stays the project's), that names the package as a word (not a module it runs), or whose runner
    is at the root: a patch to pkg/'s source, and a new module in it where pkg/ is not on sys.path, is admitted.
    Near misses: the root's NOTES (not source: the dataset's under every command, the allowlist), and a new module in
    pkg/ where PYTHONPATH puts pkg/ first on sys.path (a top-level module there shadows what pytest imports; rt16)."""
    from sandbox.repo.patch import PatchError

    _write(tmp_path)
    (tmp_path / "pkg" / "test_core.py").write_text("def test_x():\n    pass\n")
    _admit(tmp_path, _GOLD, cmd)
    if cmd.startswith("PYTHONPATH=pkg"):
        with pytest.raises(PatchError, match="pkg is on sys.path"):
            _admit(tmp_path, _GOLD + _NEW_SOURCE, cmd)
    else:
        _admit(tmp_path, _GOLD + _NEW_SOURCE, cmd)
    with pytest.raises(PatchError, match="not a python source file"):
        _admit(tmp_path, _GOLD + _rewrite("NOTES"), cmd)


def test_what_the_reading_names_is_also_a_copy(tmp_path: Path) -> None:
    """One reading: every runner a spelling names (all but the helpers it sources, which are protected by their folder)
    is a copy in the task's tree (sandbox/repo_job.py `copied`), in a Go environment too."""
    from sandbox.repo_job import copied

    _write(tmp_path)
    for cmd, target in SPELLINGS.values():
        if target.endswith((".sh", ".py")) and target not in ("tools/lib.sh", "tools/sub/extra.sh") or target == "runtests":
            assert copied("go", cmd, str(tmp_path))(target), (cmd, target)
    assert not copied("go", "sh tools/run.sh", str(tmp_path))("pkg/mod.py")


# ----------------------------------------------------------------- through a real grade
@pytest.fixture(scope="module", params=["docker", "gvisor"])
def runners(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """The project above built as the python environment `runners`, and a grader of it on each backend."""
    from tests.helpers import build_environment, repo_grader

    src, recipes, root = (tmp_path_factory.mktemp(n) for n in ("runners-src", "runners-recipe", "runners-envs"))
    _write(src)
    build_environment(src, recipes, root, "runners", "sh tools/run.sh")
    with repo_grader(request.param, f"test-h33z-runners-{request.param}", root) as g:
        g.backend = request.param
        yield g


def _grade(g: Any, completion: str, cmd: str) -> dict:
    from tests.helpers import grade_pytest_task

    return grade_pytest_task(g, "runners", completion, _TESTS, cmd, "runners")


# The spellings whose runner is a different file or route (one each), graded end to end: through `sh` where the rt15
# spelling executes the file itself (the task's tree is not executable in the box) and with the runner last where it
# was first (`; true` exits 0 when a decoy failed: the run is tampered, decoys.py)
_GRADED = ["plain", "after-cd-sh", "through-link", "semicolon-first", "subshell-sh", "bare-name", "python-m",
           "pytest-plugin"]


@pytest.mark.docker
@pytest.mark.parametrize("name", _GRADED)
def test_the_right_patch_beside_the_runner_is_accepted_and_the_runner_rewrite_refused(runners: Any, name: str) -> None:
    """Rewrite: the right patch (pkg/mod.py and a new pkg/extra.py) is accepted under every spelling, on both backends.
    Near misses: the wrong patch is wrong_answer with its test run; with the runner rewritten (docker: decided on the
    host) it is refused before anything runs, naming the test command's runner."""
    cmd, target = SPELLINGS[name]
    right = _grade(runners, _GOLD + _NEW_SOURCE, cmd)
    assert (right["verdict"], right["score"]) == ("accepted", 1.0), right
    if runners.backend != "docker":
        return
    wrong = _grade(runners, _WRONG, cmd)
    assert (wrong["verdict"], wrong["score"]) == ("wrong_answer", 0.0), wrong
    forged = _grade(runners, _WRONG + _rewrite(target), cmd)
    assert (forged["verdict"], forged["score"]) == ("wrong_answer", 0.0), forged
    assert "protected path" in forged["detail"] and "test command" in forged["detail"], forged


@pytest.mark.docker
@pytest.mark.parametrize("name", ["sourced-helper", "helper-through-link", "below-the-folder", "root-sibling"])
def test_a_file_beside_the_runner_is_refused_through_a_real_grade(runners: Any, name: str) -> None:
    """Near miss (docker: decided on the host): rewriting what the runner sources or what lies in its folder is
    refused before anything runs, never paid."""
    if runners.backend != "docker":
        pytest.skip("decided on the host (admission): the same on every backend")
    cmd, target = SPELLINGS[name]
    forged = _grade(runners, _WRONG + _rewrite(target), cmd)
    assert (forged["verdict"], forged["score"]) == ("wrong_answer", 0.0), forged
    assert "protected path" in forged["detail"], forged

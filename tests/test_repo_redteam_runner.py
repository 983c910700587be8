"""Red team rt16 of h33z's one reading of the test command (sandbox/repo/patch.py `command_files`) and the runner's
folder it protects (`check_admitted(..., command=)`, `runner_reason`; docs/repo-tasks.md "Trust model", "The runner's
folder"; issue 33). Host-side only: the real check_admitted and command_files on small trees, as make_repo_plan calls
them (tests/test_repo_runner_copies.py `_admit`). Class 3 of /work/shared/RED-TEAM.md.

The guarantee attacked: "the tests, their configuration and the runner are the dataset's and the environment's". A patch
admitted that changes what runs as the runner (or what it reads) takes the place of the runner, and a runner of the
patch's was paid 1.0 for a wrong patch (rt15: it hides pytest's output and cuts every <failure> from the JUnit report,
on a task whose FAIL_TO_PASS test gets no decoy; tests/test_redteam_backends_15.py). Each hole below is that path.

FINDINGS (strict xfails, each a wrong patch plus one admitted file):
1. A runner named by its last part that is an environment link (h33z's own "not closed"): `cd tools && ./run.sh`,
   tools/run.sh -> ../scripts/real.sh: scripts/real.sh admitted.
2. What a runner reads outside its folder by a literal path: the root Makefile's `include mk/test.mk` (`make test`),
   a root runner's `. ci/env.sh`, tools/run.sh's `. ../scripts/lib.sh`, a root `python3 runtests.py`'s `import runlib`
   (a root .py is the project's): the file read is admitted (the root's runner protects its non-source siblings only;
   the text of a runner is never read).
3. A test file used as a runner (`python3 scripts/test_runner.py`): its folder, first on sys.path, is the patch's.
4. A package folder put on sys.path by the command (`PYTHONPATH=pkg`, `cd pkg && python3 -m pytest`): a NEW module
   pkg/pluggy.py is admitted (pkg is a package) and is top-level there, before site-packages: `python -m pytest`
   imports it in place of pluggy before pytest starts (checked by hand: it printed and exited 0, no test ran).
5. A task runner's configuration in a file the command does not name (`poe test`: pyproject.toml [tool.poe.tasks];
   `tox -e py311`: setup.cfg [tox:tox]/[testenv]; `npm test`: package.json scripts): admitted (pyproject.toml and
   setup.cfg are compared by pytest's section only).
6. Over-inclusion, a RIGHT patch refused (wrong_answer, 0.0): a dotted word naming a module of the project's own
   package makes the package's `__init__.py` a "runner" and the whole package its folder (`python3 -m unittest
   pkg.tests.test_mod`, `--pyargs pkg.tests`, `-c 'import pkg; pkg.test()'`, `DJANGO_SETTINGS_MODULE=pkg.settings`,
   `--ds=pkg.settings`), and `--cov=pkg.mod` names the very file the fix is in. 6b: a last part names a file of
   that name in ANY folder and makes the folder a runner's (`make test` with pkg/Makefile, `go test` with a file
   pkg/test, `cd tools && python3 run.py` with pkg/run.py): the right patch to pkg/ refused.
Path to a wrong reward for 1-5: the admitted file is the runner or what it runs first; rt15's forgery in it (run pytest,
hide its output, cut every <failure> from the JUnit report, exit as the decoys want) pays a wrong patch where no decoy is
planted. 4 runs before pytest imports anything (a `pytest.py` by another name); 5 needs the tool in the environment.
HELD: conftest.py/pytest.ini/tox.ini/.pth/sitecustomize/pytest.toml at any depth; pyproject's [tool.pytest.ini_options]
changed (check_config_sections); `-c ci/pytest-ci.ini`, `. scripts/env.sh &&`, `make -C build`, `make -f mk/ci.mk`,
go's `-exec=`/`-toolexec` programs with their folders; a new module in a non-package folder on PYTHONPATH.
"""
from __future__ import annotations

from pathlib import Path

import pytest

_BASE = {"pkg/__init__.py": "\n", "pkg/mod.py": "X = 1\n", "tests/test_mod.py": "def test_x():\n    assert False\n"}
_FIX = "--- a/pkg/mod.py\n+++ b/pkg/mod.py\n@@ -1 +1 @@\n-X = 1\n+X = 2\n"  # the right patch's one line


def _tree(root: Path, files: dict[str, str], links: tuple[tuple[str, str], ...] = ()) -> Path:
    from tests.helpers import write_files

    write_files(root, {**_BASE, **files})
    for link, target in links:
        (root / link).parent.mkdir(parents=True, exist_ok=True)
        (root / link).symlink_to(target)
    return root


def _edit(path: str, old: str, new: str) -> str:
    """A patch rewriting the first line of `path` (a runner's forgery: `exit 0` where the tests ran)."""
    lines = new.split("\n")
    return f"--- a/{path}\n+++ b/{path}\n@@ -1 +1,{len(lines)} @@\n-{old}\n" + "".join(f"+{x}\n" for x in lines)


def _new(path: str, text: str) -> str:
    return f"--- /dev/null\n+++ b/{path}\n@@ -0,0 +1 @@\n+{text}\n"


def _admit(tree: Path, diff: str, cmd: str, language: str = "python") -> None:
    """check_admitted as make_repo_plan calls it (no test patch here: the tests are the environment's)."""
    from sandbox.repo.apply import tree_kind
    from sandbox.repo.patch import check_admitted, command_files, read_patch

    check_admitted(read_patch(diff), language, lambda p: tree_kind(str(tree), p), (), command_files(cmd, str(tree)))


def _refused(tree: Path, diff: str, cmd: str, language: str = "python") -> bool:
    from sandbox.repo.patch import PatchError

    try:
        _admit(tree, diff, cmd, language)
    except PatchError:
        return True
    return False


def _forgery_refused(tree: Path, cmd: str, forged: str) -> None:
    """The right patch is admitted (the layout is gradable), the wrong patch with the runner's file rewritten is not."""
    _admit(tree, _FIX, cmd)
    assert _refused(tree, _FIX.replace("X = 2", "X = 3") + forged, cmd), (cmd, forged)


# ----------------------------------------------------------------- holes: a runner the patch may replace
# name: (files, links, test command, the forging edit of what the runner runs or reads)
_OUTSIDE = {
    "link-by-last-part": ({"scripts/real.sh": "python3 -m pytest tests\n"}, (("tools/run.sh", "../scripts/real.sh"),),
                          "cd tools && ./run.sh", _edit("scripts/real.sh", "python3 -m pytest tests", "exit 0")),
    "root-makefile-include": ({"Makefile": "include mk/test.mk\n", "mk/test.mk": "test: ; python3 -m pytest tests\n"}, (),
                              "make test", _edit("mk/test.mk", "test: ; python3 -m pytest tests", "test: ; true")),
    "root-runner-sources-subfolder": ({"runtests": ". ci/env.sh\n", "ci/env.sh": "python3 -m pytest tests\n"}, (),
                                      "sh runtests", _edit("ci/env.sh", "python3 -m pytest tests", "exit 0")),
    "runner-sources-parent": ({"tools/run.sh": ". ../scripts/lib.sh\n", "scripts/lib.sh": "python3 -m pytest tests\n"},
                              (), "sh tools/run.sh", _edit("scripts/lib.sh", "python3 -m pytest tests", "exit 0")),
    "test-file-as-runner": ({"scripts/test_runner.py": "import common\n", "scripts/common.py": "ARGS = ['tests']\n"}, (),
                            "python3 scripts/test_runner.py",
                            _edit("scripts/common.py", "ARGS = ['tests']", "import os; os._exit(0)")),
    "root-python-runner-sibling-module": ({"runtests.py": "import runlib\n", "runlib.py": "ARGS = ['tests']\n"}, (),
                                          "python3 runtests.py",
                                          _edit("runlib.py", "ARGS = ['tests']", "import os; os._exit(0)")),
}
_FIXES_1_3 = {
    "link-by-last-part": "resolve each word's last part from every folder a `cd` enters, through the environment's links",
    "root-makefile-include": "read a runner's own text with the same reading (makefile include, `.`/source words)",
    "root-runner-sources-subfolder": "read a runner's own text with the same reading (`.`/source words)",
    "runner-sources-parent": "read a runner's own text, words resolved from the runner's folder (`../x`)",
    "root-python-runner-sibling-module": "a root Python runner's imports by name (`import runlib`) are its files",
    "test-file-as-runner": "a test file the command runs as a program (`python3 x/test_y.py`) is a runner: protect its folder",
}


@pytest.mark.parametrize("name", list(_OUTSIDE))
@pytest.mark.xfail(strict=True, reason="rt16 holes 1-3, class 3 (runner outside command_files' reading): see _FIXES_1_3")
def test_what_a_runner_runs_or_reads_outside_its_folder_is_refused(name: str, tmp_path: Path) -> None:
    """Near miss: the wrong patch plus the file the runner actually runs (through a link named by its last part, an
    include or `.` by a literal path, a module beside a test file run as a script) must be refused. Rewrite: the right
    patch to pkg/ is admitted. Path to a wrong reward: rt15's forging runner, in the admitted file."""
    files, links, cmd, forged = _OUTSIDE[name]
    _forgery_refused(_tree(tmp_path, files, links), cmd, forged)


_SHADOW = ["PYTHONPATH=pkg python3 -m pytest -p no:cacheprovider tests", "cd pkg && python3 -m pytest ../tests"]


@pytest.mark.parametrize("cmd", _SHADOW)
@pytest.mark.xfail(strict=True, reason="rt16 hole 4, class 3 (a package folder the command puts on sys.path: its new "
                   "module is top-level and shadows pluggy before pytest starts); fix: a folder the command names as a "
                   "PYTHONPATH entry or `cd` target is a top-level import root: refuse new modules there as at the root")
def test_a_new_module_in_a_package_the_command_puts_on_sys_path_is_refused(cmd: str, tmp_path: Path) -> None:
    """Near miss: pkg/pluggy.py (`import os; os._exit(0)`) is `pluggy` itself where pkg/ is on sys.path before
    site-packages: pytest never runs, the module writes any report. Rewrite: the right patch is admitted."""
    tree = _tree(tmp_path, {})
    _forgery_refused(tree, cmd, _new("pkg/pluggy.py", "import os; os._exit(0)"))


_TASK_RUNNERS = {
    "poe-pyproject": ({"pyproject.toml": '[tool.poe.tasks]\ntest = "pytest tests"\n'}, "poe test",
                      _edit("pyproject.toml", "[tool.poe.tasks]", "[tool.poe.tasks.test]\ncmd = 'true'\n[tool.x]")),
    "tox-setup-cfg": ({"setup.cfg": "[testenv]\ncommands = pytest tests\n"}, "tox -e py311",
                      _edit("setup.cfg", "[testenv]", "[testenv]\ncommands = true\n[x]")),
    "npm-package-json": ({"package.json": '{"scripts": {"test": "pytest tests"}}\n'}, "npm test",
                         _edit("package.json", '{"scripts": {"test": "pytest tests"}}', '{"scripts": {"test": "true"}}')),
}


@pytest.mark.parametrize("name", list(_TASK_RUNNERS))
@pytest.mark.xfail(strict=True, reason="rt16 hole 5, class 3 (a task runner's configuration the command reads without "
                   "naming it: pyproject [tool.poe]/[tool.pdm]/[tool.hatch]/[tool.tox], setup.cfg [tox:tox]/[testenv], "
                   "package.json); fix: allowlist test commands whose runner is known, or compare every section a known "
                   "runner reads (check_config_sections by tool), else refuse the file")
def test_a_task_runner_s_configuration_is_refused(name: str, tmp_path: Path) -> None:
    """Near miss: the section that says what `poe test` / `tox` / `npm test` runs, rewritten to `true`. Rewrite: the
    right patch is admitted. Path to a wrong reward: the runner is the patch's (rt15's forgery in the command line)."""
    files, cmd, forged = _TASK_RUNNERS[name]
    tree = _tree(tmp_path, files)
    _forgery_refused(tree, cmd, forged)


# ----------------------------------------------------------------- hole 6: right patches refused (over-inclusion)
_PACKAGE_NAMED = ["python3 -m unittest pkg.tests.test_mod", "python3 -m pytest --pyargs pkg.tests",
                  "python3 -c 'import pkg; pkg.test()'", "DJANGO_SETTINGS_MODULE=pkg.settings python3 -m pytest tests",
                  "python3 -m pytest --ds=pkg.settings tests", "python3 -m pytest --cov=pkg.mod tests"]


@pytest.mark.parametrize("cmd", _PACKAGE_NAMED)
@pytest.mark.xfail(strict=True, reason="rt16 hole 6, over-inclusion (a right patch refused): a dotted word naming the "
                   "project's own module makes its parents' __init__.py runners and their package folders protected; fix: "
                   "only the module `-m`/`-p` runs is a runner, a parent __init__.py is a named file, not a runner; a "
                   "module whose last part is a test file's name, a settings/coverage value, is not run as a runner")
def test_a_right_patch_to_a_package_the_command_names_by_module_is_admitted(cmd: str, tmp_path: Path) -> None:
    """Rewrite: the right patch to pkg/mod.py, under a command that names a module of pkg (unittest's dotted test id,
    `--pyargs`, numpy's `import pkg; pkg.test()`, a Django settings module, a coverage target), is admitted."""
    tree = _tree(tmp_path, {"pkg/tests/__init__.py": "\n", "pkg/tests/test_mod.py": "def test_x():\n    pass\n",
                            "pkg/settings.py": "S = 1\n"})
    _admit(tree, _FIX, cmd)


# name: (files, test command): a file elsewhere shares a last part the command names (a word, `make`'s makefiles)
_SAME_LAST_PART = {
    "make-and-a-package-makefile": ({"Makefile": "test:\n", "pkg/Makefile": "all:\n"}, "make test"),
    "go-test-and-a-file-named-test": ({"go.mod": "module m\n", "pkg/test": "data\n"}, "go test ./..."),
    "cd-runner-and-a-same-named-module": ({"tools/run.py": "x\n", "pkg/run.py": "y\n"}, "cd tools && python3 run.py"),
}


@pytest.mark.parametrize("name", list(_SAME_LAST_PART))
@pytest.mark.xfail(strict=True, reason="rt16 hole 6b, over-inclusion (a right patch refused): a last part names a file of "
                   "that name in ANY folder, and makes that folder a runner's (pkg/Makefile under `make test`, pkg/test "
                   "under `go test`, pkg/run.py under `cd tools && python3 run.py`); fix: a last part is a runner only in "
                   "the root or a folder the command enters (`cd`, `-C`), a copy elsewhere (over-inclusion is free there)")
def test_a_right_patch_beside_a_file_sharing_a_runner_s_last_part_is_admitted(name: str, tmp_path: Path) -> None:
    """Rewrite: the right patch to pkg/mod.py where pkg/ holds a file whose name is one of the command's words (a
    package's own Makefile, a data file `test`, a module `run.py`) is admitted."""
    files, cmd = _SAME_LAST_PART[name]
    _admit(_tree(tmp_path, files), _FIX, cmd)


# ----------------------------------------------------------------- held
_CONFIG = [("pkg/sub/conftest.py", "added"), ("pkg/conftest.py", "added"), ("pkg/pytest.ini", "added"),
           ("pkg/tox.ini", "added"), ("pkg/x.pth", "added"), ("pkg/sitecustomize.py", "added"),
           ("pkg/pytest.toml", "added"), ("conftest.py", "modified"), ("tox.ini", "modified"), ("pkg/setup.cfg", "modified")]


@pytest.mark.parametrize(("path", "change"), _CONFIG)
def test_pytest_s_configuration_at_any_depth_is_refused(path: str, change: str, tmp_path: Path) -> None:
    """Held: pytest's configuration and the interpreter's start-up hooks are never the patch's, added or changed."""
    tree = _tree(tmp_path, {path: "x = 1\n"} if change == "modified" else {})
    diff = _edit(path, "x = 1", "x = 2") if change == "modified" else _new(path, "x = 2")
    assert _refused(tree, _FIX + diff, "python3 -m pytest -p no:cacheprovider -rA tests")


def test_pyproject_s_pytest_section_is_compared_and_its_others_are_the_patch_s() -> None:
    """Held: [tool.pytest.ini_options] changed (addopts) is refused after the patch; [tool.black] changed is not."""
    from sandbox.repo.patch import PatchError, check_config_sections

    before = {"pyproject.toml": '[tool.pytest.ini_options]\naddopts = "-rA"\n[tool.black]\nline-length = 88\n'}
    check_config_sections(before, {"pyproject.toml": before["pyproject.toml"].replace("88", "100")})
    with pytest.raises(PatchError, match="pytest's configuration"):
        check_config_sections(before, {"pyproject.toml": before["pyproject.toml"].replace("-rA", "-rA -p pkg.mod")})


# command, files, the file it reads that the forgery rewrites
_NAMED = {
    "pytest-c": ("python3 -m pytest -c ci/pytest-ci.ini tests", {"ci/pytest-ci.ini": "[pytest]\n", "ci/extra.cfg": "x\n"},
                 "ci/extra.cfg"),
    "dot-source": (". scripts/env.sh && python3 -m pytest tests", {"scripts/env.sh": "x\n", "scripts/more.sh": "x\n"},
                   "scripts/more.sh"),
    "make-C": ("make -C build test", {"build/Makefile": "x\n", "build/rules.mk": "x\n"}, "build/rules.mk"),
    "make-f": ("make -f mk/ci.mk test", {"mk/ci.mk": "x\n", "mk/common.mk": "x\n"}, "mk/common.mk"),
    "go-exec": ("go test -exec=tools/wrap.sh ./...", {"tools/wrap.sh": "x\n", "tools/lib.sh": "x\n"}, "tools/lib.sh"),
    "go-toolexec": ('go test -toolexec "$PWD/tools/wrap" ./...', {"tools/wrap": "x\n", "tools/cfg": "x\n"}, "tools/cfg"),
}


@pytest.mark.parametrize("name", list(_NAMED))
def test_a_named_runner_s_folder_is_refused(name: str, tmp_path: Path) -> None:
    """Held: the file a runner option or `.` names, and what lies beside it, are refused; the right patch admitted."""
    cmd, files, target = _NAMED[name]
    _forgery_refused(_tree(tmp_path, files), cmd, _edit(target, "x", "exit 0"))


def test_a_new_module_in_a_folder_on_pythonpath_that_is_no_package_is_refused(tmp_path: Path) -> None:
    """Held: `PYTHONPATH=src` (no __init__.py, the usual layout): a new top-level src/pluggy.py is refused by
    _check_new_file (a new module only inside a package), so it shadows nothing."""
    tree = _tree(tmp_path, {"src/pkg2/__init__.py": "\n"})
    assert _refused(tree, _new("src/pluggy.py", "import os; os._exit(0)"), "PYTHONPATH=src python3 -m pytest tests")

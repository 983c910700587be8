"""Red team rt16 of h33z's one reading of the test command (sandbox/repo/patch.py `command_files`) and the runner's
folder it protects (`check_admitted(..., command=)`, `runner_reason`; docs/repo-tasks.md "Trust model", "The runner's
folder"; issue 33). Host-side only: the real check_admitted and command_files on small trees, as make_repo_plan calls
them (tests/test_repo_runner_copies.py `_admit`). Class 3 of /work/shared/RED-TEAM.md.

The guarantee attacked: "the tests, their configuration and the runner are the dataset's and the environment's". A patch
admitted that changes what runs as the runner (or what it reads) takes the place of the runner, and a runner of the
patch's was paid 1.0 for a wrong patch (rt15: it hides pytest's output and cuts every <failure> from the JUnit report,
on a task whose FAIL_TO_PASS test gets no decoy; tests/test_redteam_backends_15.py). Each hole below is that path.

STATUS (h33r, the allowlist by kind: sandbox/repo/patch.py `allowed_kind`): a patch may change only the language's
source files and documentation, so every configuration, script, makefile and data file is the dataset's however a
runner reaches it. 1, 2 (but its Python case), 3, 4 and 5 are refused now, 6 and 6b admitted (runners by path only:
`_runners`); the marks are gone. Left a strict xfail: 2's root Python runner importing a root module (`import runlib`),
Python source run in the runner's own process, the in-process class a module the tests import is in too.

FINDINGS (were strict xfails, each a wrong patch plus one admitted file):
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
_IN_PROCESS = ("root-python-runner-sibling-module",)


@pytest.mark.parametrize("name", [n if n not in _IN_PROCESS else pytest.param(n, marks=pytest.mark.xfail(
    strict=True, reason="rt16 hole 2's Python case, not closed: a root Python runner's `import runlib` is a root .py "
    "module, source the allowlist leaves the project's; it runs in the runner's own process, as any module the tests "
    "import does (docs/repo-tasks.md \"Trust model\", its \"Not guaranteed\" class: a runner outside the program's process would close both)"))
    for n in _OUTSIDE])
def test_what_a_runner_runs_or_reads_outside_its_folder_is_refused(name: str, tmp_path: Path) -> None:
    """Near miss: the wrong patch plus the file the runner actually runs (through a link named by its last part, an
    include or `.` by a literal path, a module beside a test file run as a script) must be refused. Rewrite: the right
    patch to pkg/ is admitted. Path to a wrong reward: rt15's forging runner, in the admitted file."""
    files, links, cmd, forged = _OUTSIDE[name]
    _forgery_refused(_tree(tmp_path, files, links), cmd, forged)


_SHADOW = ["PYTHONPATH=pkg python3 -m pytest -p no:cacheprovider tests", "cd pkg && python3 -m pytest ../tests"]


@pytest.mark.parametrize("cmd", _SHADOW)
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
    """Held, a second check: [tool.pytest.ini_options] changed (addopts) is refused after the patch; [tool.black]
    changed is not (the allowlist refuses any change to pyproject.toml before: `allowed_kind`)."""
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


# ----------------------------------------------------------------- the allowlist by kind (h33r)
# (path, its text in the tree or None where the patch adds it): not a source file of the language nor documentation
_NOT_ALLOWED = [("Makefile", "test:\n"), ("scripts/run.sh", "x\n"), ("setup.cfg", "[metadata]\n"),
                ("pyproject.toml", "[tool.black]\n"), ("package.json", "{}\n"), ("pkg/data.json", "{}\n"),
                ("pkg/table.txt", "x\n"), ("requirements.txt", "x\n"), (".github/workflows/ci.yml", "x\n"),
                ("pkg/.travis.yml", "x\n"), ("Dockerfile", "x\n"), ("pkg/ext.c", "x\n"), ("pkg/mod.go", "x\n"),
                ("pkg/__main__.py", "x\n"), ("pkg/setup.py", "x\n"), ("mk/new.mk", None), ("pkg/new.cfg", None),
                ("pkg/new.sh", None), ("pkg/new.txt", None), ("pkg/x.pth", None)]


@pytest.mark.parametrize(("path", "text"), _NOT_ALLOWED)
def test_a_wrong_patch_touching_a_file_that_is_not_source_or_docs_is_refused(path: str, text: str | None,
                                                                             tmp_path: Path) -> None:
    """Near miss: the wrong patch plus a change to (or a new) configuration, script, makefile or data file, under a
    command that names none of them, is refused before anything runs as a protected path (every such file is the
    dataset's, whatever reads it: rt16's classes cannot be spelled). The right patch alone is admitted."""
    tree = _tree(tmp_path, {path: text} if text is not None else {})
    cmd = "python3 -m pytest -p no:cacheprovider -rA tests"
    _admit(tree, _FIX, cmd)
    touch = _edit(path, text.rstrip("\n"), "exit 0") if text is not None else _new(path, "exit 0")
    assert _refused(tree, _FIX.replace("X = 2", "X = 3") + touch, cmd)
    from sandbox.repo.patch import PatchError

    with pytest.raises(PatchError, match="protected path"):
        _admit(tree, _FIX + touch, cmd)


# (path, its text in the tree or None where the patch adds it): documentation, type stubs, the root's hosted-CI files
_ALLOWED = [("README.md", "# x\n"), ("docs/api.rst", "x\n"), (".travis.yml", "language: python\n"),
            ("pkg/mod.pyi", "X: int\n"), ("pkg/new.pyi", None), ("docs/new.md", None), ("CHANGES.rst", None)]


@pytest.mark.parametrize(("path", "text"), _ALLOWED)
def test_a_right_patch_with_documentation_or_stubs_is_admitted(path: str, text: str | None, tmp_path: Path) -> None:
    """Rewrite: the right patch with the edits a real fix carries beside its source (the corpus' gold patches: README,
    docs/*.rst, `.pyi` stubs, the root's .travis.yml) is admitted."""
    tree = _tree(tmp_path, {path: text} if text is not None else {})
    touch = _edit(path, text.rstrip("\n"), "y") if text is not None else _new(path, "y")
    _admit(tree, _FIX + touch, "python3 -m pytest -p no:cacheprovider -rA tests")


def test_go_s_allowlist_is_go_source_and_documentation(tmp_path: Path) -> None:
    """Go: a `.go` file and README.md are the patch's; an assembly or cgo file, go.sum, a Python file are not."""
    tree = _tree(tmp_path, {"go.mod": "module m\n", "go.sum": "x\n", "v.go": "package m\n", "v_amd64.s": "x\n",
                            "README.md": "x\n", "tool.py": "x\n"})
    fix = _edit("v.go", "package m", "package m\n\nconst X = 2")
    _admit(tree, fix + _edit("README.md", "x", "y"), "go test -json -count=1 .", "go")
    for path in ("v_amd64.s", "go.sum", "tool.py"):
        assert _refused(tree, fix + _edit(path, "x", "y"), "go test -json -count=1 .", "go"), path


@pytest.mark.parametrize("cmd", ["python3 -m pytest tests && python3 -m unittest pkg.tests.test_mod",
                                 "cd pkg && python3 -m pytest ../tests", "python3 -m tools.runner pkg"])
def test_a_right_patch_adding_a_module_in_a_subpackage_is_admitted(cmd: str, tmp_path: Path) -> None:
    """Rewrite: a new module one package below a folder the command puts on sys.path (pkg/sub/new.py under `cd pkg`)
    is not top-level there, and is admitted; a dotted word (`pkg.tests.test_mod`) or an argument naming the package
    makes it no import root."""
    tree = _tree(tmp_path, {"pkg/sub/__init__.py": "\n", "tools/__init__.py": "\n", "tools/runner.py": "x\n"})
    _admit(tree, _FIX + _new("pkg/sub/new.py", "Y = 1"), cmd)


@pytest.mark.parametrize(("cmd", "files", "language"), [
    ("go run ./tools/runner && go test -json ./...", {"go.mod": "module m\n", "tools/runner/main.go": "x\n",
                                                      "tools/runner/report.go": "x\n", "pkg/mod.go": "X = 1\n"}, "go"),
    ("cd tools && go run ./runner", {"go.mod": "module m\n", "tools/runner/main.go": "x\n",
                                     "tools/runner/report.go": "x\n", "pkg/mod.go": "X = 1\n"}, "go"),
    ("python3 tools/runner", {"tools/runner/__main__.py": "x\n", "tools/runner/report.py": "x\n"}, "python"),
])
def test_a_program_that_is_a_folder_is_the_dataset_s(cmd: str, files: dict, language: str, tmp_path: Path) -> None:
    """Near miss: a runner built or run from a folder (`go run ./tools/runner`, `python3 tools/runner` running its
    `__main__.py`) is source, so the allowlist alone would leave it the patch's; its folder is a runner's and a
    wrong patch rewriting report.go / report.py there is refused. Rewrite: the right patch to pkg/ is admitted."""
    tree = _tree(tmp_path, files)
    fix = _FIX if language == "python" else _edit("pkg/mod.go", "X = 1", "X = 2")
    _admit(tree, fix, cmd, language)
    report = "tools/runner/report.go" if language == "go" else "tools/runner/report.py"
    assert _refused(tree, fix + _edit(report, "x", "y"), cmd, language)

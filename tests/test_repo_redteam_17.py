"""Red team rt17 of h33r's allowlist by kind (sandbox/repo/patch.py `check_admitted`, `allowed_kind`) and the one reading
of the test command (`command_files`: `runners`, `roots`, `program_dirs`); docs/repo-tasks.md "Trust model"; issue 33.
Host-side: the real read_patch, check_admitted and command_files on small trees, as make_repo_plan calls them; the two
strongest findings graded for real on Docker (the decoys and the rules are the host's, the same on every backend).

The guarantee attacked: "the tests, their configuration and the runner are the dataset's and the environment's" and
"every blanket forgery is caught" (by the decoys). Each hole in 1-5 is a WRONG patch admitted that changes a test, a
test's assertion or the runner; 6 is a RIGHT patch refused; each is a strict xfail naming its class and a fix idea.

FINDINGS (36 host-side strict xfails in 6 classes, 2 more through a real grade on Docker):
1. Test code by another name (RED-TEAM class 1, a name list inside the allowlist: `_TEST_FILES`, `TEST_DIRS`): a test
   module pytest collects under the dataset's own `python_files` (`pkg/tests.py`, `checks/check_api.py`,
   `pkg/mod_tests.py`), one unittest's discovery collects (`test*.py`: `pkg/testutils.py`), one in a test folder of
   another name (`unittests/`), is source to the allowlist: the patch rewrites a PASS_TO_PASS test its wrong code
   breaks (5); a listed doctest whose text is a `.rst` (the dataset's `--doctest-glob`) or another module's
   docstring (`--doctest-modules`), or a golden `.md` a test reads: the patch rewrites its expected output (3).
   DOCKER: `return 3` for `add` plus `pkg/tests.py`'s `== 0` made `== 3` is `accepted`, 1.0, decoys and a twin planted (the gold accepted, the wrong patch alone wrong_answer). Fix idea: protect the file of every listed
   test id (FAIL_TO_PASS and PASS_TO_PASS) and every file the environment's gold run collected as a test module
   (stored at `env build`), not names; a listed doctest's examples compared before and after the patch.
2. The tests' assertion helpers are source (class 3, but blanket, so NOT the documented targeted class): a test-support
   module the tests import (`pkg/testing.py`, `pkg/_testing/asserters.py`, sklearn's `utils/_testing.py`, Go's
   `internal/testutil`) made a no-op passes every test asserting through it, and no decoy tells: the copy's last
   statement is kept and followed by `raise AssertionError` (FAILED, as wanted), a twin needs a literal `==` (4).
   DOCKER: `a * b` for `add` plus a no-op `assert_equal` is `accepted`, 1.0. Contradicts "Every blanket forgery is
   caught". Fix idea: a probe decoy for a helper-call last statement too (`assert_equal(v, object())` must fail), or
   protect the modules only the tests import (the test files' import closure minus the package's own).
3. A task runner's fixed-name file that is source (class 3; rt16 5 again, in `.py`/`.go`): `invoke test` runs
   `tasks.py`, `tox` loads `toxfile.py`, `doit` `dodo.py`, `mage test` `magefile.go` and `magefiles/*.go`; none is
   named by the command, all are source at the root, so the patch rewrites the runner (5). Fix idea: an allowlist of
   test-command programs (pytest, `python -m pytest`, `go test`, make, sh of a named file), a task whose command runs
   another program refused at load, not read.
4. A module runner found through a root the reader does not join (class 3): `-m X`/`-p X` are resolved from the tree's
   root and entered folders only, not from PYTHONPATH's entries: `PYTHONPATH=tools python3 -m runner` runs
   tools/runner.py, `PYTHONPATH=ci python3 -m pytest -p plug` loads ci/plug.py, both admitted (3). Fix idea: resolve
   `-m`/`-p` modules under every root (`roots`), as runners with their folders.
5. Command spellings `_read_segments`/`_runners` misread (class 1): `env --chdir=tools`, a folder named inside a
   quoted program (`-toolexec "go run ./tools/wrap"`), `find -exec`, a glob, a shell variable (5). Each names the
   runner in a way the reading does not follow. Fix idea: as 3, refuse a command the reader cannot read whole
   (variables, globs, find/xargs, quoted programs) at load.
6. A RIGHT patch refused (0.0 for a right answer; a gold touching them is the row's error at the gold run, so whole
   repositories go unserved): library code in folders named as test folders or tools' packages (`django/test/`,
   `sphinx/testing/`, pytest's own `src/_pytest/`), prose without `.md`/`.rst` (`AUTHORS`, `CHANGES`, Django's
   `docs/releases/*.txt`), names special only at sys.path's top level refused at any depth (`pkg/__main__.py`,
   `pkg/contrib/pytest.py`, a Python `pkg/vendor/`) (9), and any patch to a file whose lines end in CRLF ("CRLF
   line ends are read as LF", so no hunk matches; written with LF or CRLF) (2). Fix idea: protect what the environment's gold run read or collected
   (traced at `env build`) instead of names and suffixes; match hunks with the file's own line end.
ISSUE 33 (h33s): 1 closed by construction for test modules (`is_test_file`: the dataset's discovery, python_files,
--doctest-glob, unittest's pattern, and the file of every listed test id) and --doctest-modules examples
(`check_doctests`); its golden-.md case still xfail;
4 closed (modules looked up under PYTHONPATH's entries); 2 detected where the environment's helper is one `assert a ==
b` (a probe decoy, `_helper_probe`; the DOCKER helper grade now pays 0), still admitted host-side (strict xfail).
STATUS (h33k): 1's golden .md and 2's helpers (Python and Go) CLOSED by the gold's files (docs/repo-tasks.md "Trust
model"; `_refusal(editable=...)`): where the task names its gold's files, the file is refused by name.
HELD (passing near misses, each with its attack's condition asserted): patch forms (symlink, mode changes, executable
new file, rename or copy from a protected file, binary, deletion of a test or pytest.ini, a `diff --git` header naming
other files, `..`, `./`, trailing space or dot, upper case CONFTEST.PY/Setup.Py, quoted and escaped names, a tab's
timestamp), new modules that shadow (namespace dir, root `.pyi`, a sub-folder without `__init__.py`, `.egg-info`,
`.dist-info`, `.pth`), Go names (`_test.go`, `_x.go`, `.s`, a sub-folder go.mod, go.mod `replace`/`toolchain`,
`vendor/`, `testdata/`), a path through an environment's link (apply), command spellings the reading follows (`bash
-c '...'`, `env -C`, `cd ~-`, line continuation, here-doc, xargs with the path, `-X`/`-W` options, `cd d; python3 -m
run`). DOCUMENTED CLASS, still so: a new README.md under the dataset's `--doctest-glob='*.md'` is admitted ("A
doctest of a .md ... the Not guaranteed class"). LATENT: a go.mod the patch adds may say `go 1.16`; under a Go >= 1.22
toolchain that keeps the pre-1.22 loop variable (every `t.Parallel()` subtest of a loop checks the last case): held
today only because the image's Go is Debian bookworm's 1.19 (a test asserts it).
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.test_repo_redteam_runner import _tree  # red team 16's tree builder, on its project (_BASE)

_FIX = "--- a/pkg/mod.py\n+++ b/pkg/mod.py\n@@ -1 +1 @@\n-X = 1\n+X = 2\n"  # a right patch's one line
_WRONG = _FIX.replace("X = 2", "X = 3")
_PYTEST = "python3 -m pytest -p no:cacheprovider -rA"
_GO = {"go.mod": "module m\n", "pkg/mod.go": "X\n"}
_C = f"{_PYTEST} tests"
_GO_FIX = "--- a/pkg/mod.go\n+++ b/pkg/mod.go\n@@ -1 +1 @@\n-X\n+Y\n"


def _edit(path: str, old: str, new: str) -> str:
    """A patch replacing the one line `old` of `path` by `new`."""
    return f"--- a/{path}\n+++ b/{path}\n@@ -1 +1 @@\n-{old}\n+{new}\n"


def _new(path: str, text: str) -> str:
    return f"--- /dev/null\n+++ b/{path}\n@@ -0,0 +1 @@\n+{text}\n"


def _refusal(tree: Path, diff: str, cmd: str, language: str = "python", ids: tuple[str, ...] = (),
             sources: tuple[str, ...] = (), discovery: Any = None, editable: tuple[str, ...] = ()) -> str:
    """check_admitted as make_repo_plan calls it (no test patch: the tests are the environment's; `ids` the task's
    listed test ids; `sources` the environment's recorded test code files, `discovery` its record of pytest's
    discovery, None for none; `editable` the task's gold's files, () for no list); "" when admitted, else the
    PatchError's text (read_patch's or check_admitted's)."""
    from sandbox.repo.apply import tree_kind
    from sandbox.repo.patch import PatchError, check_admitted, command_files, listed_test_files, read_patch

    try:
        check_admitted(read_patch(diff), language, lambda p: tree_kind(str(tree), p), listed_test_files(ids),
                       command_files(cmd, str(tree), discovery), sources, editable)
    except PatchError as e:
        return str(e) or "refused"
    return ""


def _hole(tree: Path, wrong: str, cmd: str, language: str = "python", ids: tuple[str, ...] = (),
          editable: tuple[str, ...] = ()) -> str:
    """The layout is gradable (the right patch admitted), and the wrong patch with the forging edit is refused: the
    refusal's text. `editable`: the task's gold's files (() for no list)."""
    fix = _FIX if language == "python" else _GO_FIX
    assert _refusal(tree, fix, cmd, language, ids, editable=editable) == "", cmd
    refusal = _refusal(tree, (_WRONG if language == "python" else fix) + wrong, cmd, language, ids, editable=editable)
    assert refusal, (cmd, wrong)
    return refusal


# ----------------------------------------------------------------- 1. test code by another name
_TEST_BY_NAME = {  # name: (files, test command, the rewrite of a test its wrong code breaks)
    "pytest-python_files-tests.py": ({"pytest.ini": "[pytest]\npython_files = test_*.py tests.py\n",
                                      "pkg/tests.py": "assert X == 1\n"}, f"{_PYTEST} pkg tests", "pkg/tests.py"),
    "pytest-python_files-check_": ({"setup.cfg": "[tool:pytest]\npython_files = check_*.py\n", "checks/__init__.py": "\n",
                                    "checks/check_api.py": "assert X == 1\n"}, f"{_PYTEST} checks", "checks/check_api.py"),
    "pytest-python_files-_tests": ({"pytest.ini": "[pytest]\npython_files = *_tests.py\n",
                                    "pkg/mod_tests.py": "assert X == 1\n"}, f"{_PYTEST} pkg", "pkg/mod_tests.py"),
    "unittest-discover-test*": ({"pkg/testutils.py": "assert X == 1\n"}, "python3 -m unittest discover -s pkg -t .",
                                "pkg/testutils.py"),
    "test-folder-of-another-name": ({"unittests/__init__.py": "\n", "unittests/core.py": "assert X == 1\n"},
                                    f"{_PYTEST} unittests", "unittests/core.py"),
}
# A listed doctest whose text is documentation or another module's docstring: the expected output is the patch's
_GLOB_DOCTEST = ({"pytest.ini": "[pytest]\naddopts = --doctest-glob='*.rst'\n",
                  "README.rst": ">>> from pkg.mod import X; X\n1\n"}, _PYTEST, "README.rst")
_DOCTESTS = {  # name: (files, test command, the file, its expected line, the forged one)
    # not a doctest: documentation a test reads as its expected output (a golden file outside a test folder)
    "golden-markdown": ({"fixtures/expected.md": "# x\n1\n", "tests/test_render.py":
                         "from pathlib import Path\nfrom pkg.mod import X\n\n\ndef test_render():\n"
                         "    assert f'# x\\n{X}\\n' == Path('fixtures/expected.md').read_text()\n"}, _C, "fixtures/expected.md"),
}


# Closed (issue 33): a test module is one the dataset's own discovery collects (`discovery_patterns`: python_files,
# --doctest-glob, unittest's pattern where it runs) or the file of a listed test id (`listed_test_files`), never a name
# list of ours. A file in a folder of another name that no discovery collects is a test only when a listed id says so
# (`unittests/core.py` with no id is a module the tests import: class 2).
_BY_DISCOVERY = [n for n in _TEST_BY_NAME if n != "test-folder-of-another-name"]


@pytest.mark.parametrize("name", _BY_DISCOVERY)
def test_a_test_module_by_the_dataset_s_discovery_is_refused(name: str, tmp_path: Path) -> None:
    """Near miss (was rt17 1's strict xfail): the wrong patch plus the rewrite of the test its code breaks (`== 1` made
    `== 3`), no test id listed: the dataset's configuration or unittest's pattern says the file is a test."""
    files, cmd, path = _TEST_BY_NAME[name]
    refusal = _hole(_tree(tmp_path, files), _edit(path, "assert X == 1", "assert X == 3"), cmd)
    assert "test runner's discovery" in refusal, refusal


@pytest.mark.parametrize("name", list(_TEST_BY_NAME))
def test_the_file_of_a_listed_test_id_is_refused(name: str, tmp_path: Path) -> None:
    """Near miss (was rt17 1's strict xfail): the attack rewrites a PASS_TO_PASS test, so the task lists its id; its
    file is the dataset's whatever its name and whatever the configuration says (here: none)."""
    files, cmd, path = _TEST_BY_NAME[name]
    files = {k: v for k, v in files.items() if k not in ("pytest.ini", "setup.cfg")}
    refusal = _hole(_tree(tmp_path, files), _edit(path, "assert X == 1", "assert X == 3"), cmd, ids=(f"{path}::test_x",))
    assert "one of the task's test files" in refusal, refusal


_SOURCE_BESIDE = {  # name: (files, test command, ids, a source file the dataset's discovery does not collect)
    "python_files-other-name": ({"pytest.ini": "[pytest]\npython_files = test_*.py tests.py\n", "pkg/tests.py": "x\n",
                                 "pkg/testsuite.py": "x\n"}, f"{_PYTEST} pkg tests", (), "pkg/testsuite.py"),
    "pyproject-python_files": ({"pyproject.toml": '[tool.pytest.ini_options]\npython_files = ["check_*.py"]\n',
                                "pkg/checker.py": "x\n"}, _C, (), "pkg/checker.py"),
    "testing-without-unittest": ({"pkg/testing.py": "x\n"}, _C, (), "pkg/testing.py"),
    # a module whose doctests are not listed (rt18 B: a listed module doctest's file is the dataset's whole)
    "another-module-s-doctest-id": ({"pkg/util.py": "x\n", "pkg/other.py": "x\n"}, f"{_PYTEST} --doctest-modules pkg",
                                    ("pkg/other.py::pkg.other.f",), "pkg/util.py"),
    "go-test-name": ({**_GO, "pkg/other.go": "x\n"}, "go test ./...", ("TestX", "TestX/sub"), "pkg/other.go"),
}


@pytest.mark.parametrize("name", list(_SOURCE_BESIDE))
def test_a_source_file_the_dataset_s_discovery_does_not_collect_is_admitted(name: str, tmp_path: Path) -> None:
    """Rewrite: the right patch plus a change to a source file beside the tests that no discovery rule nor listed id
    names (a module whose doctests are not listed is source; go names no file by id)."""
    files, cmd, ids, path = _SOURCE_BESIDE[name]
    language = "go" if "go.mod" in files else "python"
    fix = _FIX if language == "python" else _GO_FIX
    tree = _tree(tmp_path, files)
    assert _refusal(tree, fix + _edit(path, "x", "y"), cmd, language, ids) == ""
    pattern = {"pkg/testsuite.py": "tests.py", "pkg/checker.py": "check_*.py"}.get(path)
    if pattern:  # the near miss beside it: a file of the configured name is refused
        test = path.rsplit("/", 1)[0] + "/" + pattern.replace("*", "api")
        (tmp_path / test).write_text("x\n")
        assert "test runner's discovery" in _refusal(tree, fix + _edit(test, "x", "y"), cmd, language, ids)


def test_listed_test_ids_name_their_files() -> None:
    """The ids' formats the corpus and results.py know: pytest node ids (a module's file; a text doctest's file; a
    module doctest's file, rt18 B), go test names, jest/mocha titles (no file)."""
    from sandbox.repo.patch import listed_test_files

    ids = ("pkg/tests.py::test_x", "unittests/core.py::C::test_y[a::b]", "README.rst::README.rst",
           "pkg/util.py::pkg.util.f", "pkg/t.py::test_z[1.5]", "./a/test_b.py::t", "../x.py::t", "/abs.py::t",
           "TestX/sub", "outer > inner > it works")
    assert listed_test_files(ids) == ("pkg/tests.py", "unittests/core.py", "README.rst", "pkg/util.py", "pkg/t.py",
                                      "a/test_b.py")


def _forged_doctest(files: dict[str, str], path: str) -> str:
    """The patch making the doctest's expected `1` a `3`."""
    lines = files[path].split("\n")
    k = lines.index("1")
    return f"--- a/{path}\n+++ b/{path}\n@@ -{k},2 +{k},2 @@\n {lines[k - 1]}\n-1\n+3\n"


@pytest.mark.parametrize("where", ["config", "command"])
def test_a_doctest_glob_s_text_file_is_a_test(where: str, tmp_path: Path) -> None:
    """Near miss (was rt17 1's strict xfail, doctest-glob-rst): a text file pytest collects by the dataset's
    `--doctest-glob` (in its configuration or on the command) is a test file: the patch may not rewrite its expected
    output, nor add one; a .md (no glob names it) stays documentation (rewrite)."""
    files, cmd, path = _GLOB_DOCTEST
    if where == "command":
        files, cmd = {path: files[path]}, f"{_PYTEST} --doctest-glob='*.rst'"
    tree = _tree(tmp_path, files)
    assert _refusal(tree, _FIX, cmd) == ""
    assert "*.rst" in _refusal(tree, _WRONG + _forged_doctest(files, path), cmd)
    assert "*.rst" in _refusal(tree, _WRONG + _new("docs/new.rst", ">>> 1"), cmd)
    assert _refusal(tree, _FIX + _new("NOTES.md", "x"), cmd) == ""


_MODULE_DOCTEST = {"pkg/util.py": '"""\n>>> from pkg.mod import X; X\n1\n"""\n\n\ndef f():\n    return 1\n'}


def _refusal_applied(tree: Path, diff: str, cmd: str, sources: tuple[str, ...] = (), ids: tuple[str, ...] = (),
                     discovery: Any = None, editable: tuple[str, ...] = ()) -> str:
    """`_refusal`, then the checks make_repo_plan makes on the patched tree (the patch applied to overrides): pytest's
    sections and, under --doctest-modules, the environment's doctest examples (`check_doctests`)."""
    from sandbox.repo.apply import config_texts, read_current
    from sandbox.repo.patch import PatchError, check_config_sections, check_doctests, command_files, read_patch

    refused = _refusal(tree, diff, cmd, ids=ids, sources=sources, discovery=discovery, editable=editable)
    if refused:
        return refused
    overrides: dict[str, bytes | None] = {}
    patch, command = read_patch(diff), command_files(cmd, str(tree), discovery)
    try:
        from sandbox.repo.apply import apply_patch

        apply_patch(str(tree), patch, overrides)
        check_config_sections(*config_texts(str(tree), overrides))
        if command.doctest_modules:
            check_doctests(patch, lambda p: read_current(str(tree), p, {}), lambda p: read_current(str(tree), p, overrides))
    except PatchError as e:
        return str(e) or "refused"
    return ""


@pytest.mark.parametrize("where", ["command", "addopts"])
def test_a_module_doctest_s_expected_output_is_the_dataset_s(where: str, tmp_path: Path) -> None:
    """Near miss (was rt17 1's doctest-modules-docstring xfail): under --doctest-modules (on the command or in the
    configuration's addopts) the patch may not change or remove a module's doctest example, though the module is
    source; rewrites: a change to its code, and a new example, are admitted."""
    files = dict(_MODULE_DOCTEST)
    cmd = f"{_PYTEST} --doctest-modules pkg tests"
    if where == "addopts":
        files["pytest.ini"], cmd = "[pytest]\naddopts = --doctest-modules\n", f"{_PYTEST} pkg tests"
    tree = _tree(tmp_path, files)
    assert _refusal_applied(tree, _FIX, cmd) == ""
    assert "doctest example of pkg/util.py" in _refusal_applied(tree, _WRONG + _forged_doctest(files, "pkg/util.py"), cmd)
    removed = "--- a/pkg/util.py\n+++ b/pkg/util.py\n@@ -1,4 +1,3 @@\n \"\"\"\n->>> from pkg.mod import X; X\n-1\n+x\n \"\"\"\n"
    assert "doctest example" in _refusal_applied(tree, _WRONG + removed, cmd)
    code = "--- a/pkg/util.py\n+++ b/pkg/util.py\n@@ -7,2 +7,2 @@\n def f():\n-    return 1\n+    return 2\n"
    assert _refusal_applied(tree, _FIX + code, cmd) == ""
    added = "--- a/pkg/util.py\n+++ b/pkg/util.py\n@@ -3,2 +3,4 @@\n 1\n+>>> 1 + 1\n+2\n \"\"\"\n"
    assert _refusal_applied(tree, _FIX + added, cmd) == ""
    plain = _tree(tmp_path / "plain", {k: v for k, v in files.items() if k != "pytest.ini"})
    assert _refusal_applied(plain, _WRONG + _forged_doctest(files, "pkg/util.py"), _C) == ""  # no doctests run: source


@pytest.mark.parametrize("name", list(_DOCTESTS))
def test_a_listed_doctest_s_expected_output_is_the_dataset_s(name: str, tmp_path: Path) -> None:
    """Near miss: the wrong patch (X = 3) plus the golden file's expected `1` made `3`. Was class 1's strict xfail (a
    golden .md is documentation to the rules by kind, admitted); closed by the gold's files (h33k): the task names
    pkg/mod.py, the gold's, and the golden file is refused as a file its reference fix does not change. Without the
    list it is still admitted (the rules by kind alone)."""
    files, cmd, path = _DOCTESTS[name]
    tree = _tree(tmp_path, files)
    assert _refusal(tree, _FIX, cmd, editable=("pkg/mod.py",)) == ""
    refused = _refusal(tree, _WRONG + _forged_doctest(files, path), cmd, editable=("pkg/mod.py",))
    assert refused.startswith(f"the patch touches a protected path: {path} is an existing file the task's reference "
                              "fix does not change"), refused


# ----------------------------------------------------------------- 2. the tests' assertion helpers
_HELPERS = {  # name: (files, the helper's path, language)
    "pkg-testing-module": ({"pkg/testing.py": "def assert_equal(a, b): assert a == b\n"}, "pkg/testing.py", "python"),
    "pandas-_testing-package": ({"pkg/_testing/__init__.py": "\n",
                                 "pkg/_testing/asserters.py": "def assert_equal(a, b): assert a == b\n"},
                                "pkg/_testing/asserters.py", "python"),
    "sklearn-utils-_testing": ({"pkg/utils/__init__.py": "\n", "pkg/utils/_testing.py": "def assert_equal(a, b): assert a == b\n"},
                               "pkg/utils/_testing.py", "python"),
    "go-internal-testutil": ({**_GO, "internal/testutil/assert.go": "def assert_equal(a, b): assert a == b\n"},
                             "internal/testutil/assert.go", "go"),
}


@pytest.mark.parametrize("name", list(_HELPERS))
def test_a_no_op_assertion_helper_is_refused(name: str, tmp_path: Path) -> None:
    """Near miss: the wrong patch plus the helper made a no-op. Was class 2's strict xfail (a helper is source to the
    rules by kind; detected at grade only by the probe decoy, for the known shape, not Go's); closed by the gold's
    files (h33k): the task names the gold's file (pkg/mod.py, pkg/mod.go), and the helper is refused by name."""
    files, path, language = _HELPERS[name]
    cmd = f"{_PYTEST} tests" if language == "python" else "go test -json ./..."
    gold = "pkg/mod.py" if language == "python" else "pkg/mod.go"
    refused = _hole(_tree(tmp_path, files), _edit(path, "def assert_equal(a, b): assert a == b",
                                                  "def assert_equal(a, b): pass"), cmd, language, editable=(gold,))
    assert refused.startswith(f"the patch touches a protected path: {path} is an existing file the task's reference "
                              "fix does not change"), refused


_HELPER_TEST = ("from pkg.mod import X\nfrom pkg.testing import assert_equal as eq\n\n\ndef test_x():\n"
                "    v = X + 1\n    eq(v, 3)\n")
_HELPER_SHAPES = {  # name: (the environment's helper module, whether the decoy probes through it)
    "assert-eq": ("def assert_equal(a, b):\n    assert a == b\n", True),
    "assert-eq-docstring-message-swapped": ('def assert_equal(got, want):\n    """Why."""\n    assert want == got, got\n', True),
    "two-statements": ("def assert_equal(a, b):\n    print(a)\n    assert a == b\n", False),
    "not-equal": ("def assert_equal(a, b):\n    assert a != b\n", False),
    "default": ("def assert_equal(a, b=3):\n    assert a == b\n", False),
    "decorated": ("@staticmethod\ndef assert_equal(a, b):\n    assert a == b\n", False),
    "bound-twice": ("def assert_equal(a, b):\n    assert a == b\nassert_equal = print\n", False),
    "absent": ("", False),
}


@pytest.mark.parametrize("name", list(_HELPER_SHAPES))
def test_a_helper_call_s_decoy_probes_the_helper(name: str) -> None:
    """rt17 class 2, detection: a test whose last statement is `helper(v, LIT)` gets a decoy `helper(v, object())` where
    the ENVIRONMENT's helper is known to fail it (one `assert a == b`): a no-op helper passes it (tampered, 0). Near
    miss: the probe runs the no-op and passes; rewrite: the environment's helper fails it (a right answer's decoy is
    FAILED). Any other shape keeps the old copy (the call kept, then a raise)."""
    from sandbox.repo.decoys import pytest_decoy

    helper, probed = _HELPER_SHAPES[name]
    env = {"tests/test_h.py": _HELPER_TEST.encode(), "pkg/testing.py": helper.encode()} if helper else {
        "tests/test_h.py": _HELPER_TEST.encode()}
    decoy = pytest_decoy(["tests/test_h.py::test_x"], env.get, environment=env.get)
    assert decoy is not None
    text = decoy.text.decode()
    assert text.startswith(_HELPER_TEST)
    decoy_fn = text[len(_HELPER_TEST):]
    assert ("eq(v, object())" in decoy_fn) == probed, decoy_fn
    assert ("raise AssertionError" in decoy_fn) != probed, decoy_fn
    if probed:  # run it: the environment's helper fails the probe, a no-op one passes it
        name_ = decoy.test_id.split("::")[-1]
        for body, fails in ((helper, True), ("def assert_equal(a, b):\n    pass\n", False)):
            ns: dict = {}
            exec(body, ns)
            scope = {"X": 2, "eq": ns["assert_equal"]}
            exec(decoy_fn.replace("\n\n\n", "", 1).lstrip("\n"), scope)
            try:
                scope[name_]()
            except AssertionError:
                assert fails, name
            else:
                assert not fails, name


def test_a_helper_probe_reads_the_environment_s_helper_not_the_patch_s() -> None:
    """Near miss: the patch made the helper a no-op (the patched tree's), the environment's is the known shape: the
    probe is made from the environment's; a patched tree whose helper is the shape while the environment's is not
    gets no probe (the patch cannot choose it)."""
    from sandbox.repo.decoys import pytest_decoy

    test = {"tests/test_h.py": _HELPER_TEST.encode()}
    known, noop = b"def assert_equal(a, b):\n    assert a == b\n", b"def assert_equal(a, b):\n    pass\n"
    decoy = pytest_decoy(["tests/test_h.py::test_x"], {**test, "pkg/testing.py": noop}.get,
                         environment={**test, "pkg/testing.py": known}.get)
    assert decoy is not None and b"eq(v, object())" in decoy.text
    decoy = pytest_decoy(["tests/test_h.py::test_x"], {**test, "pkg/testing.py": known}.get,
                         environment={**test, "pkg/testing.py": noop}.get)
    assert decoy is not None and b"eq(v, object())" not in decoy.text


# ----------------------------------------------------------------- 3. a task runner's fixed-name file that is source
_TASK_RUNNERS = {  # name: (files, test command, the runner's file the command never names, language)
    "invoke-tasks.py": ({"tasks.py": "x\n"}, "invoke test", "tasks.py", "python"),
    "tox-toxfile.py": ({"toxfile.py": "x\n", "tox.ini": "[tox]\n"}, "tox -e py311", "toxfile.py", "python"),
    "doit-dodo.py": ({"dodo.py": "x\n"}, "doit test", "dodo.py", "python"),
    "mage-magefile.go": ({**_GO, "magefile.go": "x\n"}, "mage test", "magefile.go", "go"),
    "mage-magefiles-dir": ({**_GO, "magefiles/test.go": "x\n"}, "mage test", "magefiles/test.go", "go"),
}


@pytest.mark.xfail(strict=True, reason="rt17 class 3, a task runner reads its source by a fixed name the command does "
                   "not say (invoke's tasks.py, tox's toxfile.py, doit's dodo.py, mage's magefile.go): the runner is the "
                   "patch's; fix: an allowlist of test-command programs, a task running another refused at load")
@pytest.mark.parametrize("name", list(_TASK_RUNNERS))
def test_a_task_runner_s_source_by_its_fixed_name_is_refused(name: str, tmp_path: Path) -> None:
    """Near miss: the wrong patch plus the runner's own file rewritten (`x` -> `import os; os._exit(0)`)."""
    files, cmd, path, language = _TASK_RUNNERS[name]
    _hole(_tree(tmp_path, files), _edit(path, "x", "import os; os._exit(0)"), cmd, language)


# ----------------------------------------------------------------- 4. a module runner on a PYTHONPATH root
_ON_PYTHONPATH = {  # name: (files, test command, the module's file)
    "python-m-on-pythonpath": ({"tools/runner.py": "x\n"}, "PYTHONPATH=tools python3 -m runner", "tools/runner.py"),
    "pytest-plugin-on-pythonpath": ({"ci/plug.py": "x\n"}, f"PYTHONPATH=ci {_PYTEST} -p plug tests", "ci/plug.py"),
    "exported-pythonpath": ({"ci/plug.py": "x\n"}, f"export PYTHONPATH=ci; {_PYTEST} -p plug tests", "ci/plug.py"),
}


@pytest.mark.parametrize("name", list(_ON_PYTHONPATH))
def test_a_module_runner_on_pythonpath_is_refused(name: str, tmp_path: Path) -> None:
    """Near miss (was rt17 4's strict xfail, closed in issue 33: a module by name is looked up under every import root
    the command sets): the wrong patch plus the module the command runs (or loads as a plugin) rewritten, or a file
    beside it (the runner's folder)."""
    files, cmd, path = _ON_PYTHONPATH[name]
    tree = _tree(tmp_path, files)
    assert "test command" in _hole(tree, _edit(path, "x", "import os; os._exit(0)"), cmd)
    folder = path.rsplit("/", 1)[0]
    (tmp_path / folder / "lib.py").write_text("x\n")
    assert "folder of" in _refusal(tree, _WRONG + _edit(f"{folder}/lib.py", "x", "y"), cmd)


@pytest.mark.parametrize("cmd", ["PYTHONPATH=src python3 -m pytest -p no:cacheprovider tests",
                                 "export PYTHONPATH=src:lib; python3 -m pytest -p xdist tests"])
def test_a_source_root_on_pythonpath_stays_the_patch_s(cmd: str, tmp_path: Path) -> None:
    """Rewrite: a src layout on PYTHONPATH whose modules the command does not run by name (`-p no:cacheprovider`, an
    installed plugin): the right patch to src/pkg admitted."""
    tree = _tree(tmp_path, {"src/pkg/__init__.py": "\n", "src/pkg/mod.py": "X = 1\n"})
    assert _refusal(tree, _FIX.replace("pkg/mod.py", "src/pkg/mod.py"), cmd) == ""


# ----------------------------------------------------------------- 5. command spellings the reading misses
_MISREAD = {  # name: (files, test command, the runner's file, language)
    "env-chdir": ({"tools/run.py": "x\n"}, "env --chdir=tools python3 run.py", "tools/run.py", "python"),
    "quoted-toolexec-go-run": ({**_GO, "tools/wrap/main.go": "x\n"}, 'go test -toolexec "go run ./tools/wrap" ./...',
                               "tools/wrap/main.go", "go"),
    "find-exec": ({"tools/run.py": "x\n"}, "find tools -name run.py -exec python3 {} \\;", "tools/run.py", "python"),
    "glob": ({"tools/run.py": "x\n"}, "python3 tools/r*.py", "tools/run.py", "python"),
    "shell-variable": ({"tools/run.py": "x\n"}, "D=tools; python3 $D/run.py", "tools/run.py", "python"),
}


@pytest.mark.xfail(strict=True, reason="rt17 class 5, command spellings the one reading does not follow (--chdir=, a "
                   "folder inside a quoted program, find -exec, globs, variables): the runner is the patch's; fix: "
                   "refuse at load a test command the reader cannot read whole")
@pytest.mark.parametrize("name", list(_MISREAD))
def test_a_runner_named_by_an_unread_spelling_is_refused(name: str, tmp_path: Path) -> None:
    """Near miss: the wrong patch plus the runner the command runs rewritten."""
    files, cmd, path, language = _MISREAD[name]
    _hole(_tree(tmp_path, files), _edit(path, "x", "import os; os._exit(0)"), cmd, language)


# ----------------------------------------------------------------- 6. right patches refused
_RIGHT_REFUSED = {  # name: (files, the right patch's extra edit beside _FIX, or the whole diff where it is the fix)
    "django-test-is-library-code": ({"django/__init__.py": "\n", "django/test/__init__.py": "\n",
                                     "django/test/utils.py": "x\n"}, _edit("django/test/utils.py", "x", "y")),
    "sphinx-testing-is-library-code": ({"sphinx/__init__.py": "\n", "sphinx/testing/__init__.py": "\n",
                                        "sphinx/testing/fixtures.py": "x\n"}, _edit("sphinx/testing/fixtures.py", "x", "y")),
    "pytest-s-own-source": ({"src/_pytest/__init__.py": "\n", "src/_pytest/python.py": "x\n"},
                            _edit("src/_pytest/python.py", "x", "y")),
    "authors-line": ({"AUTHORS": "x\n"}, _edit("AUTHORS", "x", "y")),
    "django-release-notes-txt": ({"docs/releases/4.2.txt": "x\n"}, _edit("docs/releases/4.2.txt", "x", "y")),
    "changes-no-suffix": ({"CHANGES": "x\n"}, _edit("CHANGES", "x", "y")),
    # names special only at the top level of sys.path (or under `python -m X`, which the reading protects), refused at
    # any depth: a package's CLI `pkg/__main__.py`, `pkg/contrib/pytest.py` (absolute imports), a Python `pkg/vendor/`
    "package-main": ({"pkg/__main__.py": "x\n"}, _edit("pkg/__main__.py", "x", "y")),
    "nested-pytest-module": ({"pkg/contrib/__init__.py": "\n", "pkg/contrib/pytest.py": "x\n"},
                             _edit("pkg/contrib/pytest.py", "x", "y")),
    "python-vendor-folder": ({"pkg/vendor/__init__.py": "\n", "pkg/vendor/six.py": "x\n"}, _edit("pkg/vendor/six.py", "x", "y")),
}


@pytest.mark.xfail(strict=True, reason="rt17 class 6, a RIGHT patch refused: library code in folders named as tests or "
                   "tools (django/test, sphinx/testing, src/_pytest: whole SWE-bench repositories' gold refused at the "
                   "gold run) and documentation without .md/.rst (AUTHORS, CHANGES, Django's docs/*.txt); fix idea: "
                   "protect what the environment's gold run read (traced at env build) instead of names and suffixes")
@pytest.mark.parametrize("name", list(_RIGHT_REFUSED))
def test_a_right_patch_touching_library_code_or_prose_by_another_name_is_admitted(name: str, tmp_path: Path) -> None:
    """Rewrite: the right patch plus a change no test runs or reads (library code of a test-named folder, prose)."""
    files, extra = _RIGHT_REFUSED[name]
    tree = _tree(tmp_path, files)
    assert _refusal(tree, _FIX, _C) == ""
    assert _refusal(tree, _FIX + extra, _C) == "", _refusal(tree, _FIX + extra, _C)


@pytest.mark.xfail(strict=True, reason="rt17 class 6, a RIGHT patch refused: CRLF is read as LF (docs/repo-tasks.md, "
                   "The patch), so no diff can match a CRLF file's lines and every patch to one does not apply; fix: "
                   "match a hunk's lines against the file's with the file's own line end (LF or CRLF throughout)")
@pytest.mark.parametrize("crlf_diff", [False, True])
def test_a_right_patch_to_a_crlf_file_applies(crlf_diff: bool, tmp_path: Path) -> None:
    """Rewrite: the one-line fix to a file whose lines end in CRLF, written with LF or with CRLF."""
    from sandbox.repo.apply import apply_patch
    from sandbox.repo.patch import read_patch

    tree = _tree(tmp_path, {"pkg/mod.py": "X = 1\r\n"})
    diff = _FIX.replace("\n", "\r\n") if crlf_diff else _FIX
    assert _refusal(tree, diff, _C) == ""
    overrides: dict[str, bytes | None] = {}
    apply_patch(str(tree), read_patch(diff), overrides)
    assert overrides["pkg/mod.py"] == b"X = 2\r\n"


# ----------------------------------------------------------------- HELD
_SPELLINGS_READ = ["bash -c 'cd tools && python3 run.py'", "env -C tools python3 run.py", "cd ~- ; python3 tools/run.py",
                   "cd tools \\\n && python3 run.py", "python3 - <<EOF\nimport runpy; runpy.run_path('tools/run.py')\nEOF",
                   "echo tools/run.py | xargs python3", "python3 -X dev tools/run.py", "python3 -W ignore tools/run.py",
                   "cd tools; python3 -m run"]


@pytest.mark.parametrize("cmd", _SPELLINGS_READ)
def test_a_runner_named_by_a_spelling_the_reading_follows_is_refused(cmd: str, tmp_path: Path) -> None:
    """Held: each spelling's runner tools/run.py is the dataset's; the right patch to pkg/ beside it is admitted."""
    tree = _tree(tmp_path, {"tools/run.py": "x\n"})
    _hole(tree, _edit("tools/run.py", "x", "import os; os._exit(0)"), cmd)
    assert "test command" in _refusal(tree, _WRONG + _edit("tools/run.py", "x", "y"), cmd)


_FORMS = {  # name: (files, diff, words the refusal must say): the attack's own condition is its path or header
    "symlink": ({}, "diff --git a/pkg/x.py b/pkg/x.py\nnew file mode 120000\n--- /dev/null\n+++ b/pkg/x.py\n@@ -0,0 +1 @@\n"
                "+../tests/test_mod.py\n\\ No newline at end of file\n", "120000"),
    "mode-to-executable": ({}, "diff --git a/pkg/mod.py b/pkg/mod.py\nold mode 100644\nnew mode 100755\n" + _FIX, "mode"),
    "new-executable": ({}, "diff --git a/pkg/x.py b/pkg/x.py\nnew file mode 100755\n" + _new("pkg/x.py", "x"), "100755"),
    "rename-from-conftest": ({"conftest.py": "x\n"}, "diff --git a/conftest.py b/pkg/x.py\nsimilarity index 100%\n"
                             "rename from conftest.py\nrename to pkg/x.py\n", "renames"),
    "rename-in-minus-plus": ({"conftest.py": "x\n"}, "--- a/conftest.py\n+++ b/pkg/x.py\n@@ -1 +1 @@\n-x\n+y\n", "renames"),
    "copy-to-conftest": ({}, "diff --git a/pkg/mod.py b/pkg/conftest.py\ncopy from pkg/mod.py\ncopy to pkg/conftest.py\n",
                         "copies"),
    "binary": ({}, "diff --git a/pkg/x.py b/pkg/x.py\nnew file mode 100644\nindex 0000000..1111111\nGIT binary patch\n"
               "literal 1\nIcmZpc000310RR91\n\nliteral 0\nHcmV?d00001\n\n", "binary"),
    "delete-test": ({}, "--- a/tests/test_mod.py\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-def test_x():\n-    assert False\n",
                    "test directory"),
    "delete-pytest.ini": ({"pytest.ini": "[pytest]\n"}, "--- a/pytest.ini\n+++ /dev/null\n@@ -1 +0,0 @@\n-[pytest]\n",
                          "pytest.ini"),
    "git-header-names-other-file": ({"conftest.py": "x\n"}, "diff --git a/conftest.py b/conftest.py\n" + _FIX, "parse"),
    "dotdot": ({}, _new("pkg/../conftest.py", "x"), ".. parts"),
    "dot-slash": ({}, _new("./conftest.py", "x"), ". or .."),
    "trailing-space": ({}, "--- /dev/null\n+++ b/pkg/conftest.py \n@@ -0,0 +1 @@\n+x\n", "not a python source"),
    "trailing-dot": ({}, _new("pkg/conftest.py.", "x"), "not a python source"),
    "upper-case-conftest": ({}, _new("pkg/CONFTEST.PY", "x"), "conftest.py"),
    "mixed-case-setup.py": ({"Setup.Py": "x\n"}, _edit("Setup.Py", "x", "y"), "protected"),
    "quoted-escaped": ({}, '--- /dev/null\n+++ "b/pkg/con\\164est.py"\n@@ -0,0 +1 @@\n+x\n', "printable"),
    "quoted-plain": ({}, '--- /dev/null\n+++ "b/pkg/conftest.py"\n@@ -0,0 +1 @@\n+x\n', "protected"),
    "tab-timestamp": ({}, "--- /dev/null\n+++ b/pkg/conftest.py\t2020-01-01\n@@ -0,0 +1 @@\n+x\n", "conftest.py"),
    "namespace-package": ({}, _new("pluggy/hooks.py", "x"), "__init__.py"),
    "root-stub": ({}, _new("pluggy.pyi", "x"), "top-level"),
    "subfolder-without-init": ({}, _new("pkg/sub/x.py", "x"), "__init__.py"),
    "egg-info": ({}, _new("pkg/x.egg-info/entry_points.txt", "x"), "metadata"),
    "dist-info-source": ({}, _new("x.dist-info/x.py", "x"), "metadata"),
    "pth": ({}, _new("pkg/x.pth", "x"), "*.pth"),
}


@pytest.mark.parametrize("name", list(_FORMS))
def test_a_protected_change_in_another_form_is_refused(name: str, tmp_path: Path) -> None:
    """Held: each form's refusal names what it is (a rename, a mode, a path part), not a failure elsewhere."""
    files, diff, words = _FORMS[name]
    tree = _tree(tmp_path, files)
    assert _refusal(tree, _FIX, _C) == ""
    assert words in _refusal(tree, diff, _C), (name, _refusal(tree, diff, _C))


_GO_FORMS: dict[str, tuple[set[str], str, str]] = {
    "test-file": (set(), _new("pkg/x_test.go", "x"), "_test.go"),
    "underscore": (set(), _new("pkg/_x.go", "x"), "treats specially"),
    "assembly": (set(), _new("pkg/x.s", "x"), "not a go source"),
    "sub-go.mod": (set(), _new("pkg/go.mod", "module x"), "not a go source"),
    "vendor": (set(), _new("vendor/x/y.go", "x"), "resolves specially"),
    "testdata": (set(), _new("pkg/testdata/y.go", "x"), "test directory"),
    "go.mod-replace": ({"go.mod"}, "--- /dev/null\n+++ b/go.mod\n@@ -0,0 +1,2 @@\n+module m\n+replace a => ./b\n",
                       "replace"),
    "go.mod-toolchain": ({"go.mod"}, "--- /dev/null\n+++ b/go.mod\n@@ -0,0 +1,2 @@\n+module m\n+toolchain go1.22\n",
                         "toolchain"),
}


@pytest.mark.parametrize("name", list(_GO_FORMS))
def test_go_s_protected_forms_are_refused(name: str, tmp_path: Path) -> None:
    """Held: Go names go resolves specially, and a go.mod of the patch's with more than `module` and `go`."""
    drop, diff, words = _GO_FORMS[name]
    files = {k: v for k, v in _GO.items() if k not in drop}
    tree = _tree(tmp_path, files)
    assert _refusal(tree, _GO_FIX, "go test ./...", "go") == ""
    assert words in _refusal(tree, diff, "go test ./...", "go"), (name, _refusal(tree, diff, "go test ./...", "go"))


def test_a_patch_through_an_environment_link_into_the_tests_is_refused(tmp_path: Path) -> None:
    """Held: `pkg/helpers -> ../tests` makes `pkg/helpers/test_mod.py`'s bytes the test's; the allowlist sees a source
    path under pkg/ (the attack's condition) but the patch is walked without following links (apply.py _open_in)."""
    from sandbox.repo.apply import apply_patch
    from sandbox.repo.patch import PatchError, read_patch

    tree = _tree(tmp_path, {"pkg/helpers.py": "\n"}, (("pkg/tests_link", "../tests"),))
    diff = _edit("pkg/tests_link/lib.py", "x", "y")
    (tmp_path / "tests" / "lib.py").write_text("x\n")
    assert _refusal(tree, diff, _C) == ""  # admitted by kind: only the walk holds it
    with pytest.raises(PatchError, match="not a regular file or directory"):
        apply_patch(str(tree), read_patch(diff), {})


def test_a_doctest_of_a_new_markdown_file_under_the_dataset_s_glob_is_refused(tmp_path: Path) -> None:
    """Was the documented class (issue 33 closed it): under the dataset's `--doctest-glob='*.md'` a new README.md is a
    test pytest collects, Python run in the tests' process, so it is the dataset's (`discovery_patterns`); with no glob
    naming .md it is documentation (rewrite). docs/repo-tasks.md says so."""
    from sandbox.repo.patch import allowed_kind

    tree = _tree(tmp_path, {"pytest.ini": "[pytest]\naddopts = --doctest-glob='*.md'\n"})
    assert allowed_kind("README.md", "python") == "doc"
    assert "*.md" in _refusal(tree, _new("README.md", ">>> import os; os._exit(0)"), _C)
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    assert _refusal(tree, _FIX + _new("README.md", ">>> 1"), _C) == ""
    doc = (Path(__file__).parents[1] / "docs" / "repo-tasks.md").read_text()
    assert "`--doctest-glob`" in doc and "is a test file" in doc


def test_a_go_mod_s_old_go_line_is_harmless_only_under_go_1_19(tmp_path: Path) -> None:
    """Latent: a go.mod the patch adds may say `go 1.16` (admitted: the attack's condition); under Go >= 1.22 that keeps
    the loop variable per loop, so `t.Parallel()` subtests of a table check its last case only. Held while the go
    image installs Debian bookworm's golang-go (1.19, one semantics for every go line); this fails when it changes."""
    tree = _tree(tmp_path, {"pkg/mod.go": "X\n"})
    assert _refusal(tree, "--- /dev/null\n+++ b/go.mod\n@@ -0,0 +1,2 @@\n+module m\n+go 1.16\n", "go test ./...", "go") == ""
    dockerfile = (Path(__file__).parents[1] / "sandbox" / "images" / "go.Dockerfile").read_text()
    assert re.search(r"^ARG BASE=debian:bookworm-slim$", dockerfile, re.M) and " golang-go " in dockerfile


# ----------------------------------------------------------------- through a real grade (Docker)
_ENV = {"pkg/__init__.py": '"""The package."""\n', "pkg/mod.py": "def add(a, b):\n    return a - b\n",
        "pkg/testing.py": "def assert_equal(got, want):\n    assert got == want, (got, want)\n",
        "pkg/tests.py": "from pkg.mod import add\n\n\ndef test_zero():\n    assert add(0, 0) == 0\n",
        "pytest.ini": "[pytest]\npython_files = test_*.py tests.py\n",
        "tests/test_mod.py": "from pkg.mod import add\nfrom pkg.testing import assert_equal\n\n\ndef test_zero():\n"
                             "    assert_equal(add(0, 0), 0)\n"}
_TESTS = {  # the test patch adding the FAIL_TO_PASS test: a literal == (a twin is made of it) or through the helper
    "by-name": "    assert add(1, 2) == 3\n", "helper": "    assert_equal(add(1, 2), 3)\n"}
_P2P = {"by-name": "pkg/tests.py::test_zero", "helper": "tests/test_mod.py::test_zero"}
_GOLD = "--- a/pkg/mod.py\n+++ b/pkg/mod.py\n@@ -1,2 +1,2 @@\n def add(a, b):\n-    return a - b\n+    return a + b\n"
_WRONGS = {"by-name": _GOLD.replace("a + b", "3"), "helper": _GOLD.replace("a + b", "a * b")}
_FORGED = {"by-name": "--- a/pkg/tests.py\n+++ b/pkg/tests.py\n@@ -4,2 +4,2 @@ from pkg.mod import add\n def test_zero():\n"
                      "-    assert add(0, 0) == 0\n+    assert add(0, 0) == 3\n",
           "helper": "--- a/pkg/testing.py\n+++ b/pkg/testing.py\n@@ -1,2 +1,2 @@\n def assert_equal(got, want):\n"
                     "-    assert got == want, (got, want)\n+    pass\n"}


@pytest.fixture(scope="module")
def rt17(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """The project above built as the python environment `rt17`, and a Docker grader of it."""
    from tests.helpers import build_environment, repo_grader, write_files

    src, recipes, root = (tmp_path_factory.mktemp(n) for n in ("rt17-src", "rt17-recipe", "rt17-envs"))
    write_files(src, _ENV)
    build_environment(src, recipes, root, "rt17", _PYTEST)
    with repo_grader("docker", "test-rt17-docker", root) as g:
        yield g


def _task(shape: str, completion: str) -> Any:
    """The task of one shape: the test patch adds test_sum (FAIL_TO_PASS); test_zero is the PASS_TO_PASS test."""
    from sandbox.contract import parse_task

    test_patch = (f"--- a/tests/test_mod.py\n+++ b/tests/test_mod.py\n@@ -4,3 +4,7 @@ from pkg.testing import assert_equal\n"
                  f" \n def test_zero():\n     assert_equal(add(0, 0), 0)\n+\n+\n+def test_sum():\n+{_TESTS[shape]}")
    task = {"id": f"rt17-{shape}", "kind": "repo", "environment": "rt17", "completion": completion,
            "test_patch": test_patch, "test_cmd": _PYTEST, "fail_to_pass": ["tests/test_mod.py::test_sum"],
            "pass_to_pass": [_P2P[shape]], "report": "pytest"}
    return parse_task(task)


def _grade(g: Any, shape: str, completion: str) -> dict:
    result = g.call(g.grader.grade_repo(_task(shape, completion)))
    g.call(g.grader.settled())
    return result


@pytest.mark.docker
@pytest.mark.parametrize("shape", ["by-name", "helper"])
def test_the_layout_grades_the_gold_and_the_wrong_patch(rt17: Any, shape: str) -> None:
    """Rewrite and near miss of the real grade below: the gold is accepted, the wrong patch alone wrong_answer (the
    PASS_TO_PASS test it breaks, or the FAIL_TO_PASS test through the helper, fails)."""
    right = _grade(rt17, shape, _GOLD)
    assert (right["verdict"], right["score"]) == ("accepted", 1.0), right
    wrong = _grade(rt17, shape, _WRONGS[shape])
    assert (wrong["verdict"], wrong["score"]) == ("wrong_answer", 0.0), wrong


@pytest.mark.docker
@pytest.mark.parametrize("shape", [
    "by-name",  # closed in issue 33: pkg/tests.py is a test by the dataset's python_files and by its listed id
    "helper"])  # detected in issue 33: the probe decoy `assert_equal(add(1, 2), object())` passes under the no-op
def test_the_wrong_patch_with_the_test_or_its_helper_rewritten_is_not_paid(rt17: Any, shape: str) -> None:
    forged = _grade(rt17, shape, _WRONGS[shape] + _FORGED[shape])
    assert forged["score"] == 0.0, forged
    if shape == "by-name":  # refused before anything runs, naming the test file
        assert forged["verdict"] == "wrong_answer" and "pkg/tests.py" in str(forged), forged
    else:  # run, and the probe decoy reported passing: tampered
        assert "decoy" in str(forged).lower(), forged


@pytest.mark.docker
def test_the_forged_helper_run_has_a_probe_decoy_planted(rt17: Any) -> None:
    """The helper case's condition: its wrong patch is admitted where the task names no gold files and the run gets the probe
    decoy through the helper, made from the environment's pkg/testing.py."""
    from sandbox.repo_job import RepoPlan, make_repo_plan

    plan = make_repo_plan(_task("helper", _WRONGS["helper"] + _FORGED["helper"]), rt17.grader.config)
    assert isinstance(plan, RepoPlan), plan
    assert plan.decoys and b"assert_equal(add(1, 2), object())" in plan.tree, plan.decoys


@pytest.mark.docker
@pytest.mark.parametrize("listed", [True, False])
def test_the_forged_test_by_another_name_is_refused_before_anything_runs(rt17: Any, listed: bool) -> None:
    """Near miss, host-side plan of the real environment: the by-name forgery is refused by the dataset's python_files
    alone (its id not listed: a PASS_TO_PASS of another file) and by its listed id."""
    import dataclasses

    from sandbox.repo_job import RepoPlan, make_repo_plan

    task = _task("by-name", _WRONGS["by-name"] + _FORGED["by-name"])
    if not listed:
        task = dataclasses.replace(task, pass_to_pass=("tests/test_mod.py::test_zero",))
    plan = make_repo_plan(task, rt17.grader.config)
    assert not isinstance(plan, RepoPlan) and "pkg/tests.py" in str(plan), plan

"""Red team rt19 of h33g (issue 33): env build's record of where tests' code lives (sandbox/repo/sources_plugin.py run
by `sources_line`, read by `read_sources`, environment.json `test_sources`, refused by `check_admitted`) and the listed
module doctest's file (`listed_test_files`); docs/repo-tasks.md "Trust model", "Where a test's code lives".
Host-side first: the product's plugin file run by this interpreter's pytest as env build runs it (rt18's `_record`), the
admission, decoys and run of rt18's `_host_grade` (the patched tree run by the host's pytest, its JUnit XML resolved as
`_verdict` does). The image's pytest is Debian bookworm's 7.2, the host's 9.2: the rules used below (a root conftest's
fixtures get baseid "", `name2fixturedefs` is the argument closure, xunit setup is a fixture of pytest's own code) are
the same in both; the Docker tests at the end build one environment holding classes 1-4 and 6 by a real `verifier env
build` (the collection in the image: pytest 7.2.1, Python 3.11.2) and grade class 1's forgery on Docker: the record is
as on the host and the forgery was `accepted`, score 1.0 (refused since class 1 closed).
STATUS (h33h): classes 1-7 CLOSED, C1 DECIDED (each entry below); open: 8 (a session without the plugin) and 9 (the
record made before the test patch), 2 strict xfails.
STATUS (h33k): 8 and 9 CLOSED by the gold's files (docs/repo-tasks.md "Trust model"): the task names pkg/mod.py
(`editable`, the gold's), and the forged module is refused as a file the reference fix does not change.

FINDINGS (14 strict xfails host-side, 1 on Docker, in 9 paying classes and 1 cost; each paid a WRONG patch 1.0
host-side: `add` made `a * b`, and the code the record does not see made to expect the wrong value or not to assert; the
gold accepted and the wrong add alone not, in the same layout, asserted; no decoy detects any: each either gets none or
makes the forged test consistent, which a decoy copy fails as its original would):
1. CLOSED (sources_plugin.fixture_files: a fixture recorded by who registered it, watched at parsefactories; the
   root conftest's import and the pytest_plugins module both refused, an entry-point plugin's fixture admitted:
   test_an_entry_point_plugin_s_fixture_fix_is_admitted). Fixtures pytest scopes to the session (baseid "") are skipped as "a plugin's" (RED-TEAM 1: a rule by spelling): a
   fixture the ROOT conftest.py imports from a source module (`from pkg.conformance import small_sum`; the root
   conftest's baseid is "" in pytest 7-9, so the docs' "a conftest's is the conftest's" does not hold at the root, where
   most projects' conftest is), and a `pytest_plugins` module's (documented as not recorded, but the conftest naming it
   is the dataset's, so its fixtures are the tests' code as much as an imported one) (2). Held: the same import in
   tests/conftest.py is recorded. Fix: record a fixture's file by who registered it, not by baseid: every fixture
   registered from a conftest module or a module a conftest's or test module's `pytest_plugins` names (the dataset's
   choice), the project's own entry-point plugin left the patch's (rt18's rewrite, kept).
2. CLOSED (sources_plugin.code_files: every function on the chain). A source module's decorator around a test (`@checked` with functools.wraps, sklearn's `ignore_warnings`): the wrapper
   is the code pytest calls, but the plugin records the innermost `__wrapped__` only (the test module); the wrapper made
   `return None` passes the test without its body (no decoy: a decorated test gets none) (1). Held: a decorator without
   `wraps` (the wrapper is `item.obj`) is recorded. Fix: record the file of every function on the `__wrapped__` chain,
   the outermost included.
3. CLOSED (sources_plugin.class_files: the test class's MRO files; its class-attribute row too). xunit setup inherited from a source base class: `setup_method` of a plain class and unittest's `setUp` (`self.want =
   3`; pytest runs the first as a fixture whose function is pytest's own, outside the tree, the second inside unittest),
   and a class attribute of the base (`want = 3`: rt18's open data class, closed by the same fix) (3). Held: an autouse
   fixture method of the same base class is recorded. Fix: record the files of the test class's MRO (every class between
   the item's class and `object`/`unittest.TestCase` defined in the tree): inherited setup, teardown, `run`, and class
   attributes (data, as rt18's CASES) at once.
4. CLOSED (sources_plugin.holding_files: every loaded tree module whose namespace holds a test function or class not
   defined in its id's file). A re-export the test module imports through (`from pkg.suite import AddChecks`, pkg/suite/__init__.py re-exporting
   pkg/suite/_conformance.py's class, pandas' `_testing/__init__.py` shape): the record names the defining file, the
   patch rebinds the name in the `__init__.py` to a class of its own whose `test_add` passes (1). Held: the defining
   file is refused; a path through a directory link is refused by the applier (the record keeps realpaths). Fix: for a
   test or class not defined in its id's file, record also every tree module on the dotted path it is imported from
   whose namespace holds it at collection (`pkg/suite/__init__.py`, `pkg/__init__.py`).
5. CLOSED (sources_plugin.fixture_files: every fixture a dataset module registered, used or not). A fixture the
   test asks for by name at run time (`request.getfixturevalue('small_sum')`, pandas' indirect fixture
   names): not in `name2fixturedefs` (the argument closure), so the imported fixture's file is not recorded (1). Held:
   the same fixture as an argument (rt18). Fix: record every fixture the test module and its classes make visible (their
   own parsed fixturedefs), not only the closure.
6. CLOSED (sources_plugin.class_files of type(item)). A custom collection item (a conftest's `pytest_collect_file` making `CaseItem`s of a data file, the item class in a
   source module, mypy's data-driven tests' shape): the item has no `obj`, so the record is empty; `runtest` made `pass`
   passes every case (1). Fix: record the files of `type(item)`'s MRO and its collector's (the code pytest calls for an
   item that is not a Function).
7. CLOSED (patch.check_listed_doctests, an allowlist: a listed module doctest is graded only where its docstring is
   the literal docstring of its own undecorated def/class in its file, read with ast, and the module stores no
   `__doc__`; else the task is refused, verdict error: test_a_literal_method_doctest_is_graded for the rewrite). A
   listed module doctest whose docstring text lives in another module (pandas' `shared_docs`: util.py sets
   `total.__doc__ = TOTAL` imported from pkg/_docs.py): util.py is protected whole (rt18 B), _docs.py is source, and a
   line of CODE appended there (`TOTAL = TOTAL.replace(...)`) keeps every example of its string constants, which is all
   `check_doctests` reads; and doctest's `__test__` route (util.py's `__test__ = {"total": total}` of pkg/_impl.py's
   function, which doctest finds with no same-module check: id `pkg/util.py::pkg.util.__test__.total`, the docstring
   _impl.py's, rewritten there by a line of code) (2). Held: the constant's example edited in place is refused by
   `check_doctests`. Fix (an allowlist): a module doctest is the dataset's only where its docstring is the literal
   docstring of its `def` or `class` in its own file (read with `ast` in the environment); else no such listed test is
   graded (or the record stores the docstring's source file, found at build by text among the tree's modules).
8. A record the build takes as whole though one of the command's pytest sessions never loaded the plugin: `pytest
   tests/unit; PYTHONPATH=. pytest tests/func` with a virtual environment's interpreter (the user site off, the
   PYTHONPATH assignment dropping the plugin's folder, the docs' own failing case) records the first session only and
   the build passes; tests/func's imported test is unprotected (1). Held: that second session alone fails the build.
   Fix: "the plugin was loaded" must hold per pytest process, not per build: load it where no command's environment
   drops it (a `.pth` in each site-packages the build container has, virtual environments included, for the collection
   run only) and refuse the build where a process imported pytest without it (a start line per process).
9. The record is made at the base commit, before the test patch (documented: "a test only the task's test patch
   adds"), and SWE-style FAIL_TO_PASS tests are mostly the test patch's: a new test class inheriting a source module's
   checks that no base test used (`class TestAdd(AddChecks)` in the test patch's tests/test_new.py) leaves that module
   the patch's; its checks rewritten are admitted and the listed test passes the wrong add (1; the run is the host's
   pytest on the patched tree plus the test patch's file, its -rA line read, not `_host_grade`, which has no test
   patch). Fix: record at the gold run (swebench rows have one), with the test patch, per task.
C1 (cost) DECIDED with class 1's rule: who names the module decides, not the spelling. A fixture a test module
   imports or a conftest's/test module's `pytest_plugins` names is the dataset's choice: both are refused alike
   (test_a_shipped_fixture_named_by_the_tests_is_recorded); the project's own `pytest11` entry point is the project's
   registration: its fix is admitted and graded (test_an_entry_point_plugin_s_fixture_fix_is_admitted). As found: A right patch refused: a fix to a fixture the project ships (pkg/plugin.py's `adder`) that its tests import
   by name, while the same fixture reached through `pytest_plugins` is admitted (rt18's rewrite): the line between the
   two is a spelling, so class 1's fix and this cost meet; decide by who names the module (1).
Not attacked (time): parametrize data from source modules and `pytest_generate_tests` imported into a test module (the
known open rt18 CASES class), conftest hooks imported from source modules (the general in-process forgery of "Not
guaranteed", detected by decoys where planted; where a conftest has any `pytest_` hook no decoy is planted at
all), entry-point plugins of the project (class 1's last rule).
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from tests.test_repo_redteam_18 import (_ADD, _GOLD, _PYTEST, _SUITE, _SUITE_FORGED, _WRONG_ADD, _diff, _files,
                                        _host_grade, _record, _real_plan)

_CMD = f"{_PYTEST} tests"
_ID = "tests/test_mod.py::test_add"
_BASE = {"pkg/__init__.py": "\n", "pkg/mod.py": _ADD, "tests/__init__.py": "\n"}


def _env(root: Path, files: dict[str, str]) -> Path:
    """An environment's tree: pkg/mod.py's broken add (`a - b`, the gold makes it `a + b`) and a tests package."""
    return _files(root, {**_BASE, **files})


# ----------------------------------------------------------------- the paying layouts, one table
_USES_SMALL_SUM = "from pkg.mod import add\n\n\ndef test_add(small_sum):\n    assert add(1, 2) == small_sum\n"
_DECO = ("import functools\n\n\ndef checked(f):\n    @functools.wraps(f)\n    def run(*a, **k):\n"
         "        return f(*a, **k)\n    return run\n")
_SETUP = "class AddCase:\n    def setup_method(self):\n        self.want = 3\n"
_UNIT = "import unittest\n\n\nclass AddCase(unittest.TestCase):\n    def setUp(self):\n        self.want = 3\n"
_REEXPORT = "from pkg.suite._conformance import AddChecks\n"
_CONFORMANCE = "from pkg.mod import add\n\n\nclass AddChecks:\n    def test_add(self):\n        assert add(1, 2) == 3\n"
_CASEFILE = ("import pytest\n\nfrom pkg.mod import add\n\n\nclass CaseFile(pytest.File):\n    def collect(self):\n"
             "        for line in self.path.read_text().splitlines():\n            name, a, b, want = line.split()\n"
             "            yield CaseItem.from_parent(self, name=name, case=(int(a), int(b), int(want)))\n\n\n"
             "class CaseItem(pytest.Item):\n    def __init__(self, *, case, **kw):\n        super().__init__(**kw)\n"
             "        self.case = case\n\n    def runtest(self):\n        a, b, want = self.case\n"
             "        assert add(a, b) == want\n\n    def reportinfo(self):\n        return self.path, 0, self.name\n")
_COLLECT = ("from pkg.casefile import CaseFile\n\n\ndef pytest_collect_file(parent, file_path):\n"
            "    if file_path.suffix == '.cases':\n        return CaseFile.from_parent(parent, path=file_path)\n")
_DOCS = ('"""Docstrings shared by the package\'s modules (pandas\' shared_docs)."""\n\n'
         'TOTAL = """The sum of xs.\n\n    >>> total([1, 2])\n    3\n    """\n')
_UTIL = ('"""Totals."""\nfrom pkg._docs import TOTAL\nfrom pkg.mod import add\n\n\ndef total(xs):\n    s = 0\n'
         "    for x in xs:\n        s = add(s, x)\n    return s\n\n\ntotal.__doc__ = TOTAL\n")
_IMPL = ('"""The implementation util.py lists for its doctests."""\nfrom pkg.mod import add\n\n\ndef total(xs):\n'
         '    """The sum of xs.\n\n    >>> total([1, 2])\n    3\n    """\n    s = 0\n    for x in xs:\n'
         "        s = add(s, x)\n    return s\n")
_CLASS_ID = "tests/test_mod.py::TestAdd::test_add"
_FIX_REEXPORT = "from pkg.suite._fix import small_sum  # noqa: F401\n"
_FN = "from pkg.mod import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n"
_DOCTEST_CMD = f"{_PYTEST} --doctest-modules pkg"

_PAYING = {  # name: (files beside _BASE, test command, listed id, the forging edit beside _WRONG_ADD, what env build records)
    "1-root-conftest-imports-a-fixture": (
        {"pkg/conformance.py": _SUITE, "tests/test_mod.py": _USES_SMALL_SUM,
         "conftest.py": "from pkg.conformance import small_sum  # noqa: F401\n"},
        _CMD, _ID, _SUITE_FORGED, ("tests/test_mod.py",)),
    "1-pytest_plugins-module-fixture": (
        {"pkg/conformance.py": _SUITE, "tests/test_mod.py": _USES_SMALL_SUM,
         "conftest.py": "pytest_plugins = ['pkg.conformance']\n"},
        _CMD, _ID, _SUITE_FORGED, ("tests/test_mod.py",)),
    "2-decorator-wrapper": (
        {"pkg/deco.py": _DECO, "tests/test_mod.py": "from pkg.deco import checked\nfrom pkg.mod import add\n\n\n"
         "@checked\ndef test_add():\n    assert add(1, 2) == 3\n"},
        _CMD, _ID, _diff("pkg/deco.py", _DECO, _DECO.replace("return f(*a, **k)", "return None")), ("tests/test_mod.py",)),
    "3-inherited-setup_method": (
        {"pkg/testcase.py": _SETUP, "tests/test_mod.py": "from pkg.mod import add\nfrom pkg.testcase import AddCase\n\n\n"
         "class TestAdd(AddCase):\n    def test_add(self):\n        assert add(1, 2) == self.want\n"},
        _CMD, _CLASS_ID, _diff("pkg/testcase.py", _SETUP, _SETUP.replace("= 3", "= 2")), ("tests/test_mod.py",)),
    "3-inherited-unittest-setUp": (
        {"pkg/testcase.py": _UNIT, "tests/test_mod.py": "from pkg.mod import add\nfrom pkg.testcase import AddCase\n\n\n"
         "class TestAdd(AddCase):\n    def test_add(self):\n        self.assertEqual(add(1, 2), self.want)\n"},
        _CMD, _CLASS_ID, _diff("pkg/testcase.py", _UNIT, _UNIT.replace("= 3", "= 2")), ("tests/test_mod.py",)),
    "4-re-export-rebound": (
        {"pkg/suite/__init__.py": _REEXPORT, "pkg/suite/_conformance.py": _CONFORMANCE,
         "tests/test_mod.py": "from pkg.suite import AddChecks\n\n\nclass TestAdd(AddChecks):\n    pass\n"},
        _CMD, _CLASS_ID, _diff("pkg/suite/__init__.py", _REEXPORT, _REEXPORT.replace("AddChecks", "AddChecks as _Checks")
                               + "\n\nclass AddChecks(_Checks):\n    def test_add(self):\n        pass\n"),
        ("pkg/suite/_conformance.py",)),
    "5-getfixturevalue": (
        {"pkg/conformance.py": _SUITE, "tests/test_mod.py": "from pkg.conformance import small_sum  # noqa: F401\n"
         "from pkg.mod import add\n\n\ndef test_add(request):\n    assert add(1, 2) == request.getfixturevalue('small_sum')\n"},
        _CMD, _ID, _SUITE_FORGED, ("tests/test_mod.py",)),
    "6-custom-item-in-a-source-module": (
        {"pkg/casefile.py": _CASEFILE, "tests/add.cases": "small 1 2 3\n", "tests/conftest.py": _COLLECT},
        _CMD, "tests/add.cases::small",
        _diff("pkg/casefile.py", _CASEFILE, _CASEFILE.replace("        assert add(a, b) == want\n", "        pass\n")), ()),
    "7-doctest-text-in-another-module": (
        {"pkg/_docs.py": _DOCS, "pkg/util.py": _UTIL}, _DOCTEST_CMD, "pkg/util.py::pkg.util.total",
        _diff("pkg/_docs.py", _DOCS, _DOCS + 'TOTAL = TOTAL.replace("    3\\n", "    0\\n")\n'), ()),
    # doctest's `__test__` route (no _from_module check): util.py's listed doctest is _impl.py's function's docstring
    "7-doctest-by-__test__": (
        {"pkg/_impl.py": _IMPL, "pkg/util.py": '"""Totals."""\nfrom pkg._impl import total\n\n__test__ = {"total": total}\n'},
        _DOCTEST_CMD, "pkg/util.py::pkg.util.__test__.total",
        _diff("pkg/_impl.py", _IMPL, _IMPL + 'total.__doc__ = total.__doc__.replace("    3\\n", "    0\\n")\n'), ()),
    # the expected value a class attribute of the source base class (rt18's CASES, data, under class 3's fix)
    "3-inherited-class-attribute": (
        {"pkg/testcase.py": "class AddCase:\n    want = 3\n", "tests/test_mod.py": "from pkg.mod import add\n"
         "from pkg.testcase import AddCase\n\n\nclass TestAdd(AddCase):\n    def test_add(self):\n"
         "        assert add(1, 2) == self.want\n"},
        _CMD, _CLASS_ID, _diff("pkg/testcase.py", "class AddCase:\n    want = 3\n", "class AddCase:\n    want = 2\n"),
        ("tests/test_mod.py",)),
}


@pytest.mark.parametrize("name", list(_PAYING))
def test_the_paying_layout_grades_its_gold_and_wrong_patch(name: str, tmp_path: Path) -> None:
    """Condition of each class: env build's record (the product's plugin, `read_sources`) is what the row says, the gold
    is accepted and the wrong add alone is not, so the layout is gradable and its test sees the bug."""
    files, cmd, test_id, _, recorded = _PAYING[name]
    tree = _env(tmp_path / "env", files)
    if cmd != _DOCTEST_CMD:  # env build records for module doctests nothing (check_doctests' and listed_test_files')
        assert set(recorded) <= set(_record(tree, cmd))  # at least; classes 1-6 closed: their forged file too
    if name.startswith("7-"):  # closed by refusing the task (check_listed_doctests): the run it was graded by, direct
        gold, wrong = _patched_run(tree, _GOLD, cmd), _patched_run(tree, _WRONG_ADD, cmd)
        assert f"PASSED {test_id}" in gold and f"FAILED {test_id}" in wrong, (gold, wrong)
        assert _host_grade(tree, _GOLD, cmd, (test_id,)).startswith("task fault: the listed module doctest")
        return
    assert _host_grade(tree, _GOLD, cmd, (test_id,)) == "accepted"
    assert "FAIL_TO_PASS failing" in _host_grade(tree, _WRONG_ADD, cmd, (test_id,))


def _patched_run(tree: Path, completion: str, cmd: str) -> str:
    """The host's pytest's -rA lines on a copy of `tree` with `completion` applied (no admission, no decoy)."""
    import shutil

    from sandbox.repo.apply import apply_patch
    from sandbox.repo.patch import read_patch
    from tests.test_repo_redteam_18 import _pytest_run

    overrides: dict[str, bytes | None] = {}
    apply_patch(str(tree), read_patch(completion), overrides)
    work = tree.parent / f"{tree.name}-direct"
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(tree, work)
    for path, data in overrides.items():
        (work / path).write_bytes(data or b"")
    return _pytest_run(work, cmd).stdout


_REASONS = {
    "1": "rt19 class 1: a fixture pytest scopes to the session (baseid ''): the root conftest's (imported from a source "
         "module) or a pytest_plugins module's is skipped as a plugin's; fix: record by who registered it",
    "2": "rt19 class 2: a source decorator's wrapper runs as the test, the record names the innermost __wrapped__ only; "
         "fix: every function on the __wrapped__ chain",
    "3": "rt19 class 3: xunit setup (setup_method, unittest setUp) inherited from a source base class is not recorded; "
         "fix: the files of the test class's MRO",
    "4": "rt19 class 4: the re-exporting __init__.py the test module imports its test class through is not recorded, "
         "the patch rebinds the name; fix: the tree modules on the import path holding the object",
    "5": "rt19 class 5: a fixture asked for by request.getfixturevalue is not in name2fixturedefs, so not recorded; fix: "
         "every fixture the test module and its classes make visible",
    "6": "rt19 class 6: a custom Item (no obj) records nothing: its runtest in a source module; fix: type(item)'s MRO",
    "7": "rt19 class 7: a listed module doctest's docstring text lives in another module (shared docs), which a line "
         "of code there rewrites past check_doctests; fix: admit a doctest only where its docstring is its def's literal",
}


_CLOSED = ("1", "2", "3", "4", "5", "6", "7")  # sources_plugin (code_files, class_files, fixture_files, holding_files);
# 7: check_listed_doctests


@pytest.mark.parametrize("name", [pytest.param(n, marks=() if n[0] in _CLOSED else
                                               pytest.mark.xfail(strict=True, reason=_REASONS[n[0]])) for n in _PAYING])
def test_the_forging_edit_is_not_paid(name: str, tmp_path: Path) -> None:
    """Near miss: the wrong add plus the edit to the code the record does not see (the expected value, the assertion,
    the wrapper, the rebinding): it must be refused or graded not accepted (today: `accepted`)."""
    files, cmd, test_id, forging, _ = _PAYING[name]
    grade = _host_grade(_env(tmp_path / "env", files), _WRONG_ADD + forging, cmd, (test_id,))
    assert grade != "accepted", grade


# ----------------------------------------------------------------- held forms (near misses refused)
_HELD = {  # name: (files beside _BASE, listed id, the forging edit beside _WRONG_ADD, the file the refusal names)
    "tests-conftest-imports-a-fixture": (
        {"pkg/conformance.py": _SUITE, "tests/test_mod.py": _USES_SMALL_SUM,
         "tests/conftest.py": "from pkg.conformance import small_sum  # noqa: F401\n"}, _ID, _SUITE_FORGED,
        "pkg/conformance.py"),
    "decorator-without-wraps": (
        {"pkg/deco.py": _DECO.replace("    @functools.wraps(f)\n", "").replace("*a, **k", ""),
         "tests/test_mod.py": "from pkg.deco import checked\nfrom pkg.mod import add\n\n\n@checked\ndef test_add():\n"
         "    assert add(1, 2) == 3\n"}, _ID,
        _diff("pkg/deco.py", _DECO.replace("    @functools.wraps(f)\n", "").replace("*a, **k", ""),
              _DECO.replace("    @functools.wraps(f)\n", "").replace("*a, **k", "").replace("return f()", "return None")),
        "pkg/deco.py"),
    "autouse-fixture-method-of-a-source-base-class": (
        {"pkg/testcase.py": "import pytest\n\n\nclass AddCase:\n    @pytest.fixture(autouse=True)\n"
         "    def _want(self):\n        self.want = 3\n",
         "tests/test_mod.py": "from pkg.mod import add\nfrom pkg.testcase import AddCase\n\n\nclass TestAdd(AddCase):\n"
         "    def test_add(self):\n        assert add(1, 2) == self.want\n"}, _CLASS_ID,
        _diff("pkg/testcase.py", "        self.want = 3\n", "        self.want = 2\n").replace("@@ -1 +1 @@", "@@ -8 +8 @@"),
        "pkg/testcase.py"),
    "re-export-s-defining-file": (
        {"pkg/suite/__init__.py": _REEXPORT, "pkg/suite/_conformance.py": _CONFORMANCE,
         "tests/test_mod.py": "from pkg.suite import AddChecks\n\n\nclass TestAdd(AddChecks):\n    pass\n"}, _CLASS_ID,
        _diff("pkg/suite/_conformance.py", _CONFORMANCE, _CONFORMANCE.replace("== 3", "== 2")), "pkg/suite/_conformance.py"),
    # classes 1, 4, 5 closed: their near neighbours (a function re-exported, a package's own __init__ re-exporting,
    # a root conftest's fixture asked for at run time)
    "re-exported-test-function-rebound": (
        {"pkg/suite/__init__.py": "from pkg.suite._fn import test_add  # noqa: F401\n", "pkg/suite/_fn.py": _FN,
         "tests/test_mod.py": "from pkg.suite import test_add  # noqa: F401\n"}, _ID,
        _diff("pkg/suite/__init__.py", "from pkg.suite._fn import test_add  # noqa: F401\n",
              "from pkg.suite._fn import test_add  # noqa: F401\n\n\ndef test_add():  # noqa: F811\n    pass\n"),
        "pkg/suite/__init__.py"),
    "package-init-re-export-rebound": (
        {"pkg/__init__.py": _REEXPORT, "pkg/suite/__init__.py": "\n", "pkg/suite/_conformance.py": _CONFORMANCE,
         "tests/test_mod.py": "from pkg import AddChecks\n\n\nclass TestAdd(AddChecks):\n    pass\n"}, _CLASS_ID,
        _diff("pkg/__init__.py", _REEXPORT, _REEXPORT.replace("AddChecks", "AddChecks as _Checks")
              + "\n\nclass AddChecks(_Checks):\n    def test_add(self):\n        pass\n"), "pkg/__init__.py"),
    "re-exported-fixture-rebound": (
        {"pkg/suite/__init__.py": _FIX_REEXPORT, "pkg/suite/_fix.py": "import pytest\n\n\n@pytest.fixture\n"
         "def small_sum():\n    return 3\n", "conftest.py": "from pkg.suite import small_sum  # noqa: F401\n",
         "tests/test_mod.py": _USES_SMALL_SUM}, _ID,
        _diff("pkg/suite/__init__.py", _FIX_REEXPORT, "import pytest\n\n" + _FIX_REEXPORT
              + "\n\n@pytest.fixture\ndef small_sum():  # noqa: F811\n    return 2\n"), "pkg/suite/__init__.py"),
    "getfixturevalue-of-a-root-conftest-s-fixture": (
        {"pkg/conformance.py": _SUITE, "conftest.py": "from pkg.conformance import small_sum  # noqa: F401\n",
         "tests/test_mod.py": "from pkg.mod import add\n\n\ndef test_add(request):\n"
         "    assert add(1, 2) == request.getfixturevalue('small_sum')\n"}, _ID, _SUITE_FORGED, "pkg/conformance.py"),
}


@pytest.mark.parametrize("name", list(_HELD))
def test_a_recorded_shape_s_forgery_is_refused(name: str, tmp_path: Path) -> None:
    """Held (each class's near neighbour): the record names the file and admission refuses the forging edit; the gold
    beside it is accepted."""
    files, test_id, forging, path = _HELD[name]
    tree = _env(tmp_path / "env", files)
    assert path in _record(tree, _CMD)
    assert _host_grade(tree, _GOLD, _CMD, (test_id,)) == "accepted"
    grade = _host_grade(tree, _WRONG_ADD + forging, _CMD, (test_id,))
    assert grade.startswith(f"refused: the patch touches a protected path: {path} holds a test's code"), grade


def test_a_shared_docstring_s_example_edited_in_place_is_refused(tmp_path: Path) -> None:
    """Held (class 7's neighbour): the example in pkg/_docs.py's string constant changed in place is refused by
    check_doctests (every string constant of an edited module is read under --doctest-modules)."""
    from tests.test_repo_redteam_17 import _refusal_applied

    tree = _env(tmp_path / "env", {"pkg/_docs.py": _DOCS, "pkg/util.py": _UTIL})
    forged = _WRONG_ADD + _diff("pkg/_docs.py", _DOCS, _DOCS.replace("    3\n", "    0\n"))
    assert "doctest example of pkg/_docs.py" in _refusal_applied(tree, forged, _DOCTEST_CMD)  # unlisted: admission alone
    # listed, the task is refused before any patch is read (class 7 closed)
    assert _host_grade(tree, forged, _DOCTEST_CMD, ("pkg/util.py::pkg.util.total",)).startswith("task fault: ")


_METHOD = ('"""Totals."""\nfrom pkg.mod import add\n\n\nclass Totals:\n    """Sums."""\n\n    def total(self, xs):\n'
           '        """The sum of xs.\n\n        >>> Totals().total([1, 2])\n        3\n        """\n        s = 0\n'
           "        for x in xs:\n            s = add(s, x)\n        return s\n")
_LITERAL = {  # name: (pkg/util.py, the listed id): docstrings that are their def's literal: graded
    "method": (_METHOD, "pkg/util.py::pkg.util.Totals.total"),
    "class": (_METHOD.replace('"""Sums."""', '"""Sums.\n\n    >>> Totals().total([2, 2])\n    4\n    """'),
              "pkg/util.py::pkg.util.Totals"),
    "module": ('"""Totals.\n\n>>> from pkg.mod import add\n>>> add(1, 2)\n3\n"""\n', "pkg/util.py::pkg.util"),
}


@pytest.mark.parametrize("name", list(_LITERAL))
def test_a_literal_docstring_s_doctest_is_graded(name: str, tmp_path: Path) -> None:
    """Rewrite (class 7's allowlist): a listed doctest of a method's, a class's or the module's own literal docstring
    is graded: the gold accepted, the wrong add alone not; make_repo_plan plans the gold (no task fault)."""
    util, test_id = _LITERAL[name]
    tree = _env(tmp_path / "env", {"pkg/util.py": util})
    assert _host_grade(tree, _GOLD, _DOCTEST_CMD, (test_id,)) == "accepted"
    assert "FAIL_TO_PASS failing" in _host_grade(tree, _WRONG_ADD, _DOCTEST_CMD, (test_id,))
    assert _real_plan(tree, _GOLD, _DOCTEST_CMD, test_id, ()) == ()


_NOT_LITERAL = {  # name: (pkg/util.py, the listed id): near misses of the allowlist, each refused as the task's fault
    "decorated": (_METHOD.replace("    def total", "    @staticmethod\n    def total").replace("(self, xs)", "(xs)"),
                  "pkg/util.py::pkg.util.Totals.total"),
    "rebound": (_METHOD + "\n\nTotals = type('Totals', (Totals,), {})\n", "pkg/util.py::pkg.util.Totals.total"),
    "docstring-set-by-setattr": (_METHOD + "\n\nsetattr(Totals.total, '__doc__', Totals.total.__doc__)\n",
                                 "pkg/util.py::pkg.util.Totals.total"),
    "__test__": ('"""Totals."""\nfrom pkg._impl import total\n\n__test__ = {"total": total}\n',
                 "pkg/util.py::pkg.util.__test__.total"),
}


@pytest.mark.parametrize("name", list(_NOT_LITERAL))
def test_a_doctest_not_its_def_s_literal_is_the_task_s_fault(name: str, tmp_path: Path) -> None:
    """Near miss (class 7's allowlist): a decorated def, a name bound twice, a docstring stored by code, doctest's
    `__test__` table: make_repo_plan refuses the task (verdict error, not retryable) whatever the patch, the gold too."""
    util, test_id = _NOT_LITERAL[name]
    tree = _env(tmp_path / "env", {"pkg/util.py": util, "pkg/_impl.py": _IMPL})
    plan = _real_plan(tree, _GOLD, _DOCTEST_CMD, test_id, ())
    assert isinstance(plan, dict) and plan["verdict"] == "error" and not plan["retryable"], plan
    assert f"the listed module doctest {test_id} is not graded" in plan["detail"], plan


def test_a_path_through_a_directory_link_is_refused(tmp_path: Path) -> None:
    """Held (records written by realpath): a package folder that is a link (pkg/suite -> ../suite_impl) is recorded as
    its target, and a patch to the test's code through the link's path is refused by the applier."""
    tree = _env(tmp_path / "env", {"suite_impl/__init__.py": "\n", "suite_impl/conf.py": _SUITE,
                                   "tests/test_mod.py": "from pkg.suite.conf import test_add_small  # noqa: F401\n"})
    os.symlink("../suite_impl", tree / "pkg/suite")
    assert _record(tree, _CMD) == ("suite_impl/conf.py", "tests/test_mod.py")  # the module holding it too
    forged = _WRONG_ADD + _SUITE_FORGED.replace("pkg/conformance.py", "pkg/suite/conf.py")
    assert "is not a regular file or directory" in _host_grade(tree, forged, _CMD, ("tests/test_mod.py::test_add_small",))


def test_a_relative_import_root_and_a_changed_directory_are_recorded(tmp_path: Path) -> None:
    """Held (records written by path): a root conftest putting a relative folder on sys.path (`lib`) and changing the
    working directory at import: Python 3.11's finder makes the module's path absolute when it imports it, so the
    plugin's realpath at the collection's end names the right file."""
    tree = _env(tmp_path / "env", {"lib/conformance.py": _SUITE, "conftest.py": "import os\nimport sys\n\n"
                                   "sys.path.insert(0, 'lib')\nimport conformance  # noqa: E402,F401\n\n"
                                   "os.chdir('tests')\n",
                                   "tests/test_mod.py": "from conformance import test_add_small  # noqa: F401\n"})
    assert _record(tree, _CMD) == ("lib/conformance.py", "tests/test_mod.py")


# ----------------------------------------------------------------- 8. a record missing a session
_IMPORTS = "from pkg.{} import test_add_small  # noqa: F401\n"
_TWO_SESSIONS = f"{_PYTEST} tests/unit; PYTHONPATH=. {_PYTEST} tests/func"


@pytest.fixture
def venv_python3(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`python3` on PATH is this interpreter, a virtual environment's (its user site off): the command's second
    session runs it as the first does (rt18's helpers replace only the command's first `python3`)."""
    shim = tmp_path / "bin"
    shim.mkdir()
    (shim / "python3").symlink_to(sys.executable)
    monkeypatch.setenv("PATH", f"{shim}:{os.environ['PATH']}")
    assert sys.prefix != sys.base_prefix  # a virtual environment: the plugin is not on a user site it reads


def _two_session_tree(root: Path) -> Path:
    return _env(root, {"tests/unit/__init__.py": "\n", "tests/func/__init__.py": "\n", "pkg/conformance.py": _SUITE,
                       "pkg/suite2.py": _SUITE, "tests/unit/test_one.py": _IMPORTS.format("conformance"),
                       "tests/func/test_two.py": _IMPORTS.format("suite2")})


@pytest.mark.usefixtures("venv_python3")
def test_a_session_that_does_not_load_the_plugin_alone_fails_the_build(tmp_path: Path) -> None:
    """Held, and class 8's condition: the second session alone (PYTHONPATH set, a virtual environment) records nothing,
    and the build fails (`read_sources`); the two sessions together record the first's file only; the gold is
    accepted and the wrong add alone is not."""
    tree = _two_session_tree(tmp_path / "env")
    with pytest.raises(RuntimeError, match="recorded nothing"):
        _record(tree, f"python3 -c pass; PYTHONPATH=. {_PYTEST} tests/func")
    assert _record(tree, _TWO_SESSIONS) == ("pkg/conformance.py", "tests/unit/test_one.py")
    ids = ("tests/func/test_two.py::test_add_small",)
    assert _host_grade(tree, _GOLD, _TWO_SESSIONS, ids) == "accepted"
    assert "FAIL_TO_PASS failing" in _host_grade(tree, _WRONG_ADD, _TWO_SESSIONS, ids)
    forged_first = _WRONG_ADD + _SUITE_FORGED
    assert "pkg/conformance.py holds a test's code" in _host_grade(tree, forged_first, _TWO_SESSIONS,
                                                                   ("tests/unit/test_one.py::test_add_small",))


@pytest.mark.usefixtures("venv_python3")
def test_a_record_missing_a_session_is_not_paid(tmp_path: Path) -> None:
    """Near miss: the wrong add plus pkg/suite2.py's test (imported by tests/func, the session the record misses)
    rewritten. Was class 8's strict xfail (the plugin's 'loaded' line is per build, not per pytest process); closed by
    the gold's files (h33k): the task names pkg/mod.py, and pkg/suite2.py is refused whatever the record says."""
    tree = _two_session_tree(tmp_path / "env")
    forged = _WRONG_ADD + _SUITE_FORGED.replace("conformance", "suite2")
    grade = _host_grade(tree, forged, _TWO_SESSIONS, ("tests/func/test_two.py::test_add_small",), gold=_GOLD)
    assert grade.startswith("refused: the patch touches a protected path: pkg/suite2.py is an existing file the task's "
                            "reference fix does not change"), grade


# ----------------------------------------------------------------- 9. the record is made before the test patch
_NEW_TEST = "from pkg.conformance import AddChecks\n\n\nclass TestAdd(AddChecks):\n    pass\n"
_NEW_ID = "tests/test_new.py::TestAdd::test_add_zero"


def _with_test_patch(tmp_path: Path, completion: str, editable: tuple[str, ...] = ()) -> tuple[str, str]:
    """The admission make_repo_plan makes on the environment's tree with env build's record of it (rt17's
    `_refusal_applied` with `sources`; the listed id's file the task's), then the patched tree with the task's test
    patch written over it (tests/test_new.py, SWE-style: the new test the task lists) run by the host's pytest:
    (the refusal or "", the run's -rA lines)."""
    from tests.test_repo_redteam_17 import _refusal_applied
    from tests.test_repo_redteam_18 import _pytest_run

    tree = _env(tmp_path / "env", {"pkg/conformance.py": _SUITE, "tests/test_mod.py": "def test_nothing():\n    pass\n"})
    sources = _record(tree, _CMD)
    assert sources == ("tests/test_mod.py",)  # the environment's own tests use no code of pkg/conformance.py
    refused = _refusal_applied(tree, completion, _CMD, sources, (_NEW_ID,), editable=editable)
    if refused:
        return refused, ""
    from sandbox.repo.apply import apply_patch
    from sandbox.repo.patch import read_patch

    overrides: dict[str, bytes | None] = {}
    apply_patch(str(tree), read_patch(completion), overrides)
    run = _files(tmp_path / "run", {p: (tree / p).read_text() for p in ("pkg/__init__.py", "tests/__init__.py",
                                                                         "tests/test_mod.py")})
    for path in ("pkg/mod.py", "pkg/conformance.py"):
        (run / path).write_bytes(overrides.get(path) or (tree / path).read_bytes())
    (run / "tests/test_new.py").write_text(_NEW_TEST)
    return "", _pytest_run(run, f"{_CMD}/test_new.py").stdout


def test_a_test_patch_s_new_test_grades_its_gold_and_wrong_patch(tmp_path: Path) -> None:
    """Condition of class 9: the test patch's new test (inheriting pkg/conformance.py's checks) passes with the gold
    and fails with the wrong add alone."""
    assert "PASSED tests/test_new.py::TestAdd::test_add_zero" in _with_test_patch(tmp_path / "gold", _GOLD)[1]
    assert "FAILED tests/test_new.py::TestAdd::test_add_zero" in _with_test_patch(tmp_path / "wrong", _WRONG_ADD)[1]
    assert "PASSED tests/test_new.py::TestAdd::test_add_zero" in _with_test_patch(tmp_path / "listed", _GOLD,
                                                                                 ("pkg/mod.py",))[1]


def test_a_test_patch_s_new_test_s_code_is_not_the_patch_s(tmp_path: Path) -> None:
    """Near miss: the wrong add plus pkg/conformance.py's checks rewritten. Was class 9's strict xfail (env build
    records the base commit's tests, so a test only the test patch adds left its module the patch's: admitted, the
    listed test passing); closed by the gold's files (h33k): the task names pkg/mod.py, pkg/conformance.py is refused."""
    refused, ran = _with_test_patch(tmp_path, _WRONG_ADD + _SUITE_FORGED, ("pkg/mod.py",))
    assert refused.startswith("the patch touches a protected path: pkg/conformance.py is an existing file the task's "
                              "reference fix does not change"), (refused, ran)


# ----------------------------------------------------------------- C1. a right patch refused
_PLUGIN = "import pytest\n\n\n@pytest.fixture\ndef adder():\n    return lambda a, b: a - b\n"
_PLUGIN_FIX = _diff("pkg/plugin.py", _PLUGIN, _PLUGIN.replace("a - b", "a + b"))


_NAMED_BY_THE_TESTS = {  # name: the files naming pkg/plugin.py's fixture (the dataset's choice)
    "imported-by-the-test-module": {"tests/test_plugin.py": "from pkg.plugin import adder  # noqa: F401\n\n\n"
                                    "def test_adder(adder):\n    assert adder(1, 2) == 3\n"},
    "pytest_plugins-of-the-root-conftest": {"conftest.py": "pytest_plugins = ['pkg.plugin']\n",
                                            "tests/test_plugin.py": "def test_adder(adder):\n    assert adder(1, 2) == 3\n"},
    "pytest_plugins-of-the-test-module": {"tests/test_plugin.py": "pytest_plugins = ['pkg.plugin']\n\n\n"
                                          "def test_adder(adder):\n    assert adder(1, 2) == 3\n"},
}


@pytest.mark.parametrize("name", list(_NAMED_BY_THE_TESTS))
def test_a_shipped_fixture_named_by_the_tests_is_recorded(name: str, tmp_path: Path) -> None:
    """C1 decided (class 1's rule): a fixture the project ships (pkg/plugin.py) that the tests name, by import or by
    `pytest_plugins`, is the tests' code alike: recorded, and make_repo_plan refuses its fix (the cost kept: the
    dataset chose to take the fixture from that module); the wrong fixture is refused the same way."""
    tree = _env(tmp_path / "env", {"pkg/plugin.py": _PLUGIN, **_NAMED_BY_THE_TESTS[name]})
    sources = _record(tree, _CMD)
    assert sources == ("pkg/plugin.py", "tests/test_plugin.py")
    plan = _real_plan(tree, _PLUGIN_FIX, _CMD, "tests/test_plugin.py::test_adder", sources)
    assert isinstance(plan, dict) and "pkg/plugin.py holds a test's code" in plan["detail"], plan


_ENTRY_POINT = {"pkg/plugin.py": _PLUGIN, "pkg-0.1.dist-info/METADATA": "Metadata-Version: 2.1\nName: pkg\nVersion: 0.1\n",
                "pkg-0.1.dist-info/entry_points.txt": "[pytest11]\nadder = pkg.plugin\n",
                "tests/test_plugin.py": "def test_adder(adder):\n    assert adder(1, 2) == 3\n"}


def test_an_entry_point_plugin_s_fixture_fix_is_admitted(tmp_path: Path) -> None:
    """Rewrite (C1 decided; rt18's plugin rewrite moved here): the project's own `pytest11` entry point (an installed
    project's metadata on sys.path, as `pip install -e .` leaves it) registers its fixture: not recorded, so its fix
    is admitted and graded accepted; the fix made wrong, or another module's fix alone, is graded not resolved."""
    tree = _env(tmp_path / "env", _ENTRY_POINT)
    assert _record(tree, _CMD) == ("tests/test_plugin.py",)
    ids = ("tests/test_plugin.py::test_adder",)
    assert _host_grade(tree, _PLUGIN_FIX, _CMD, ids) == "accepted"
    assert "FAIL_TO_PASS failing" in _host_grade(tree, _PLUGIN_FIX.replace("a + b", "a * b"), _CMD, ids)
    assert "FAIL_TO_PASS failing" in _host_grade(tree, _GOLD, _CMD, ids)  # pkg/mod.py's fix leaves the fixture broken


def test_an_entry_point_s_fixture_the_root_conftest_also_imports_is_recorded(tmp_path: Path) -> None:
    """Near miss (who registered it, not which module defines it): the entry point's fixture that the root conftest
    imports too is registered by the conftest as well, the dataset's choice: recorded, its forgery refused."""
    tree = _env(tmp_path / "env", {**_ENTRY_POINT, "conftest.py": "from pkg.plugin import adder  # noqa: F401\n"})
    assert _record(tree, _CMD) == ("conftest.py", "pkg/plugin.py", "tests/test_plugin.py")  # the conftest holds it
    forged = _WRONG_ADD + _PLUGIN_FIX
    assert "pkg/plugin.py holds a test's code" in _host_grade(tree, forged, _CMD, ("tests/test_plugin.py::test_adder",))


# ----------------------------------------------------------------- on Docker: the image's pytest (Debian's 7.2)
_FIXTURES = ("import pytest\n\n\n@pytest.fixture\ndef small_sum():\n    return 3\n\n\n@pytest.fixture\ndef zero_sum():\n"
             "    return 5\n")
_DOCKER_FILES = {  # one environment holding classes 1-4 and 6 (grade_pytest_task's ids: tests/test_mod.py's two tests)
    **_BASE, "pkg/conformance.py": _FIXTURES, "conftest.py": "from pkg.conformance import small_sum, zero_sum  # noqa: F401\n",
    "tests/test_mod.py": "from pkg.mod import add\n\n\ndef test_sum(small_sum):\n    assert add(1, 2) == small_sum\n\n\n"
                         "def test_zero(zero_sum):\n    assert add(0, 5) == zero_sum\n",
    **{path: text for name in ("2-decorator-wrapper", "3-inherited-setup_method", "4-re-export-rebound",
                               "6-custom-item-in-a-source-module")
       for path, text in _PAYING[name][0].items() if path != "tests/test_mod.py"},
    "tests/test_deco.py": _PAYING["2-decorator-wrapper"][0]["tests/test_mod.py"],
    "tests/test_setup.py": _PAYING["3-inherited-setup_method"][0]["tests/test_mod.py"],
    "tests/test_reexport.py": _PAYING["4-re-export-rebound"][0]["tests/test_mod.py"],
}
_DOCKER_CMD = f"{_PYTEST} tests"
_DOCKER_FORGED = _WRONG_ADD + _diff("pkg/conformance.py", _FIXTURES, _FIXTURES.replace("return 3", "return 2")
                                    .replace("return 5", "return 0"))


@pytest.fixture(scope="module")
def built_docker_env(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real `verifier env build` (an install step: the collection runs in the language's image) of _DOCKER_FILES."""
    import json
    import subprocess

    from verifier.tools.cli import main as verifier_cli

    tmp = tmp_path_factory.mktemp("rt19-docker")
    src, root = _files(tmp / "src", _DOCKER_FILES), tmp / "envs"
    git = ["git", "-C", str(src), "-c", "user.name=t", "-c", "user.email=t@t"]
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "rt19"]):
        subprocess.run([*git, *args], check=True, capture_output=True)
    recipe = tmp / "rt19.json"
    recipe.write_text(json.dumps({"name": "rt19", "language": "python", "repo": str(src), "commit": "HEAD",
                                  "test_cmd": _DOCKER_CMD, "report": "pytest", "install": ["true"]}))
    assert verifier_cli(["env", "build", str(recipe), "--environments", str(root)]) == 0
    return root


@pytest.mark.docker
def test_env_build_in_the_image_records_the_closed_classes_files(built_docker_env: Path) -> None:
    """In the image (its pytest): environment.json's test_sources names the files classes 2, 3 and 6 forge (the
    wrapper's, the base class's, the custom item's: closed by sources_plugin's code_files and class_files), the
    re-export's defining file and the test modules; and those of classes 1 and 4 (the root conftest's imported
    fixtures' module, the re-exporting `__init__.py`, the conftest holding the fixtures: fixture_files and holding_files
    under Debian's pytest 7.2)."""
    import json

    from sandbox.environments import ENV_FILE, SOURCES_KEY

    sources = json.loads((built_docker_env / "rt19" / ENV_FILE).read_text())[SOURCES_KEY]
    assert sources == ["conftest.py", "pkg/casefile.py", "pkg/conformance.py", "pkg/deco.py", "pkg/suite/__init__.py",
                       "pkg/suite/_conformance.py", "pkg/testcase.py", "tests/test_deco.py", "tests/test_mod.py",
                       "tests/test_reexport.py", "tests/test_setup.py"], sources


def _grade_on_docker(root: Path, completion: str) -> dict:
    from helpers import grade_pytest_task, sandbox_config
    from sandbox.sync import SyncGrader

    g = SyncGrader(sandbox_config("docker", languages=("python",), pool_size=1, pool_name="rt19-docker",
                                  repo_environments=str(root), repo_pool_size=1))
    try:
        return grade_pytest_task(g, "rt19", completion, "", _DOCKER_CMD, "rt19")
    finally:
        g.close()


@pytest.mark.docker
def test_the_root_conftest_layout_grades_on_docker(built_docker_env: Path) -> None:
    """Condition of class 1 on Docker: the gold resolves and the wrong add alone does not."""
    assert _grade_on_docker(built_docker_env, _GOLD)["verdict"] == "accepted"
    assert _grade_on_docker(built_docker_env, _WRONG_ADD)["verdict"] == "wrong_answer"


@pytest.mark.docker
def test_a_root_conftest_s_imported_fixture_forged_is_not_paid_on_docker(built_docker_env: Path) -> None:
    """Near miss on Docker (class 1 closed): the wrong add plus the root conftest's imported fixtures made the wrong
    add's values is refused: env build's record (the image's pytest) names pkg/conformance.py."""
    result = _grade_on_docker(built_docker_env, _DOCKER_FORGED)
    assert result["verdict"] == "wrong_answer" and "pkg/conformance.py holds a test's code" in result["detail"], result

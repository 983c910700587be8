"""Red team rt20 of h33h (issue 33): what env build records as the tests' code (sandbox/repo/sources_plugin.py, run in
the test command's `--collect-only` pass, `test_sources` in environment.json, refused by `check_admitted`) since it
records fixtures by WHO REGISTERED them, every fixture a dataset module registered, and the tree modules holding an
imported test, class or fixture (re-exports); and `check_listed_doctests` (sandbox/repo/patch.py: a listed module
doctest is graded only where its docstring is its own undecorated def's literal). docs/repo-tasks.md "Trust model",
"Where a test's code lives". Host-side: rt18's `_record` (the product's plugin file run by the host's pytest 9.2 as env
build runs it) and `_host_grade` (the admission, the product's decoys, the patched tree run by the host's pytest, its
JUnit XML resolved as `_verdict` does). The image's pytest is Debian bookworm's 7.2: the records of classes 1-4 are
checked under it too (`test_the_image_s_pytest_records_the_same`, that pytest run from the python sandbox's rootfs in
~/.cache/grpo-verifier/rootfs by this Python 3.11: the plugin is stdlib-only, Debian's pytest and its dependencies
pure Python).

STATUS (h33k): classes 1-4, 6-9 and class 5's package `__init__.py` CLOSED by the gold's files (docs/repo-tasks.md
"Trust model"; h33j's measured decision): the task names the gold's files (`editable`: pkg/mod.py) and every forged file
is refused by name before anything runs, host-side (`_host_grade(gold=...)`) and classes 1-4 on Docker. Open: class 5's
rebinding from the module under test (a gold file; strict xfail), C1, C2.
FINDINGS (17 strict xfails host-side, 1 on Docker, in 9 paying classes and 2 costs; each paid a WRONG patch 1.0: `add`
made `a * b` and the code the record does not see made to expect the wrong value or not to run the test; the gold
accepted and the wrong add alone not, in the same layout, asserted; no decoy detects any: each either gets none or makes
the forged test consistent, which a decoy copy fails as its original would). On Docker (a real `verifier env build`, the
collection in the image: pytest 7.2.1, Python 3.11.2) classes 1-4 forged together with the wrong add: `accepted`, score
1.0 (test_classes_1_to_4_forged_are_not_paid_on_docker):
1. NEW (h33h's registrar rule is for fixtures only). Hooks the DATASET registers, defined in a source module: a
   `pytest_plugins` module holding `pytest_generate_tests` (the expected value a parameter) or `pytest_pyfunc_call`,
   a test module's or the root conftest's `from pkg.cases import pytest_generate_tests`. The hook is the tests' code
   by the same rule as a fixture (the dataset chose the module), but only fixtures are tagged: the module holds no
   fixture, test or class, so nothing records it; the patch rewrites the generated value or makes the call hook
   `return True` (the test body never runs) (4). Real shapes: SQLAlchemy's conftest star-importing its
   `testing/plugin/pytestplugin.py`, data-driven suites generating cases in a shared plugin module. Fix (an
   allowlist, by registrar as for fixtures): record the file of every hook implementation (`get_hookimpls()`, its
   `__wrapped__` chain) whose plugin is a dataset plugin (a conftest, a module of the `pytest_plugins` closure, a `-p`
   plugin), and a test module's or test class's `pytest_generate_tests` wherever defined.
2. NEW. xunit setup imported into a test module from a source module (`from pkg.testing import setup_module`, likewise
   `setup_function`, unittest's `setUpModule`): pytest runs it from a fixture of its own (`xunit_setup_module_fixture`
   in _pytest/python.py, outside the tree), so fixture_files records pytest's file and not the function's; the
   patch makes `setup_module` set the wrong expected value (1). (A class's inherited `setup_method` is recorded by its
   MRO: rt19 class 3.) Fix: record the file (code_files) of every xunit function pytest looks up on a collected test
   module or class (`setup_module`, `setUpModule`, `teardown_module`, `setup_function`, `teardown_function`, ...),
   found by the names pytest reads, not by where the function is defined.
3. NEW (rt19 class 6's fix is half done: its fix said "type(item)'s MRO and its collector's"; the code records the
   item's class only). A custom item made by a collector class in ANOTHER source module (`CaseFile.collect` in
   pkg/casefile.py reads the data file and passes each case's expected value to `CaseItem` of pkg/caseitem.py): the
   collector's module is not recorded; the patch makes `collect` pass `want - 1` (1). Fix: class_files of the type of
   every node on `item.listchain()` (each collector's MRO), not only of the item's.
4. NEW (rt19 class 4's fix reads namespaces at the collection's end). A re-export by a module `__getattr__` (PEP 562,
   as lazy_loader packages do): `from pkg.suite import AddChecks` asks pkg/suite/__init__.py's `__getattr__`, which
   never stores the class in the package's namespace, so holding_files does not see the package; the patch makes
   `__getattr__` return a class whose `test_add` passes (1). Fix: record every parent package `__init__.py` of a
   recorded defining module (pkg/suite/__init__.py and pkg/__init__.py run before it and decide what the test module's
   import gets), with class 5's cost.
5. OLD (the general in-process forgery, "Not guaranteed"; sized here: the record is moot for an imported test). A
   module that does not hold the test at collection rebinds it at import: pkg/__init__.py (`_c.test_add_small =
   _passes`, one line in a package the record does not name) and the module under test itself (pkg/mod.py, which every
   fix edits: `import pkg.conformance as _c` at its end, then the rebinding; the test module imports `add` first) (2).
   An imported test gets no decoy (its id's file has no `def`), so nothing detects either. Fix: none by recording (the
   module under test is always the patch's); grade an imported test by a copy of its environment text planted in its
   id's file (its `def` as the dataset has it, renamed and read back as the listed id, with its twin), so the test
   that runs is the dataset's code whatever the import returns.
6. DECIDED trade-off pays (rt19 C1: the project's own `pytest11` entry-point plugin is the patch's), and a NEW spelling
   of it (h33h's `_named`). A fixture of the
   project's own plugin that the tests take their expected value from (`small_sum`, the bug in pkg/mod.py): the patch
   fixes nothing and makes the fixture return the wrong add's value; and a spelling of C1's rule: the root conftest's
   `pytest_plugins = ['sums']` naming the plugin by its entry point's name (pytest resolves it to the registered
   plugin; `_named` looks the name up in `sys.modules`, finds nothing, and leaves it the project's, while
   `['pkg.plugin']` is the dataset's) (2). The entry point itself is not a spelling the
   patch controls (held below: a dist-info, egg-info, setup.cfg or pyproject entry point of the patch's is refused),
   but every fixture, hook and module the environment's entry point registers is the patch's to rewrite. Fix (decide):
   record the entry point's fixtures a collected test uses (its `name2fixturedefs`) too, refusing C1's right patch
   (a false negative, the lesser bug), or grade such a fixture's change only where the gold patch changes it too; and
   resolve `pytest_plugins` names as pytest does (`pluginmanager.get_plugin(name)`, then `sys.modules`).
7. OLD (documented "Not closed": a source module's code setting the listed function's `__doc__`). A listed module
   doctest whose def passes `check_listed_doctests` (its own literal docstring), its `__doc__` rewritten from
   pkg/__init__.py (`_u.total.__doc__ = _u.total.__doc__.replace(...)`: one line, imported first) (1). Fix: run a
   listed module doctest from the docstring TEXT read with `ast` from the environment's file (the same reading
   check_listed_doctests makes: `DocTestParser` on the literal, globs the imported module's), not the runtime
   `__doc__`, so no import-time code can change the examples.
8. NEW (h33h's "every fixture the dataset registered, used or not" is every fixture registered BY THE COLLECTION'S
   END). A fixture module a conftest hook registers at run time (`pytest_runtest_setup` calling
   `config.pluginmanager.register(importlib.import_module('pkg.sums'))`), asked for by `request.getfixturevalue`: the
   `--collect-only` pass never runs the hook, so the module is not even imported there (1). Rare shape (lazy plugins).
   Fix: record at the end of a gold RUN with the plugin (rt19 class 9's fix), not of a collection, so what the tests
   register while they run is seen too.
9. NEW (rt19 class 2's fix records wrappers; a decorator with none leaves nothing). A source module's decorator that
   returns the test itself: a mark (`slow = pytest.mark.slow` in pkg/testing.py; pandas' `td.skip_if_no`, sklearn's
   `skip_if_32bit` in sklearn/utils/_testing.py are `pytest.mark.skipif(...)`), a tag setter. Nothing of its module is
   on the test's `__wrapped__` chain, so it is not recorded; the patch makes it `f.__code__ = (lambda: None).__code__;
   return f` (1). A decorated test gets no decoy. Fix: record every tree module whose namespace holds a decorator of a
   collected test (its `def`'s decorator expressions read with `ast` in its id's file, their root names resolved in
   the test module's namespace at collection, then holding_files' search). The general form (any imported source
   module's import-time code rewriting a test's `__code__` after its def, by a profile hook) stays class 5's.
C1 (cost) NEW (h33h's check_listed_doctests). A listed doctest of a `@property` (a `@staticmethod`, `@classmethod`,
   `functools.cached_property` likewise) is "decorated": the task is refused (verdict error) for every patch, the
   gold too (1). The docstring is still its def's literal (`property.__doc__` is its getter's; the builtins copy it,
   they cannot rewrite it). Fix (allowlist): admit those decorators by name where the name is the builtin's or
   `functools`' (not bound in the module: `_bound_names`).
C2 (cost) NEW (5c4fd28, this morning: code_files' whole `__wrapped__` chain and class_files' MRO, rt19 classes 2
   and 3's fixes). A project whose product IS test infrastructure tests itself with it: its tests decorated by its own
   decorator (freezegun's `@freeze_time`, moto's `@mock_aws`, `@responses.activate`: `functools.wraps` wrappers) or
   inheriting its own test case (tornado.testing's `AsyncHTTPTestCase`, twisted.trial's `TestCase`): the product
   module is recorded, so every fix to it is refused (2: the decorator, the base class). Fix (decide, as rt19 C1): a
   wrapper or base class in a module the task's gold patch edits is the patch's (the dataset's own fix says it is code
   under test), accepting rt19 classes 2 and 3's forgeries there; or keep the cost.
HELD (passing, each attack's condition asserted): a source decorator INSIDE `@pytest.fixture` is recorded under 9.2
and 7.2 (docs/repo-tasks.md's "Not recorded: the wrappers a source decorator puts around a fixture" is stale; one
outside `@pytest.fixture` never runs: 7.2 follows the `__pytest_wrapped__` that `functools.wraps` copies, 9.2 sees no
fixture); a fixture module a conftest registers from `pytest_configure` (`config.pluginmanager.register`) is recorded;
a blanket `pytest_pyfunc_call` forgery in an unrecorded `pytest_plugins` module is caught by the decoy where one is
planted; a patch adding or changing an entry point (a `*.dist-info`/`*.egg-info` entry_points.txt, setup.cfg's or
pyproject.toml's) is refused. Not attackable: the wrap's fallback (the collection runs at env build on the
environment's tree before any patch exists: a patch can never make the wrap fail to install). Not re-found: rt19 8, 9,
rt18's CASES (parametrize data from a source module), still open.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_repo_redteam_18 import (_ADD, _GOLD, _PYTEST, _SUITE, _WRONG_ADD, _diff, _files, _host_grade,
                                        _record)
from tests.test_repo_redteam_19 import _patched_run

_CMD = f"{_PYTEST} tests"
_DOCTEST_CMD = f"{_PYTEST} --doctest-modules pkg"
_BASE = {"pkg/__init__.py": "\n", "pkg/mod.py": _ADD, "tests/__init__.py": "\n"}


def _env(root: Path, files: dict[str, str]) -> Path:
    """An environment's tree: pkg/mod.py's broken add (`a - b`, the gold makes it `a + b`) and a tests package."""
    return _files(root, {**_BASE, **files})


# ----------------------------------------------------------------- the paying layouts, one table
_GEN = ("def pytest_generate_tests(metafunc):\n    if 'want' in metafunc.fixturenames:\n"
        "        metafunc.parametrize('want', [3], ids=['small'])\n")
_GEN_FORGED = _diff("pkg/cases.py", _GEN, _GEN.replace("[3]", "[2]"))
_USES_WANT = "from pkg.mod import add\n\n\ndef test_add(want):\n    assert add(1, 2) == want\n"
_GEN_ID = "tests/test_mod.py::test_add[small]"
_PYFUNC = "def pytest_pyfunc_call(pyfuncitem):\n    return None\n"
_PARAM = ("import pytest\n\nfrom pkg.mod import add\n\n\n@pytest.mark.parametrize('a, b, want', [(1, 2, 3)], "
          "ids=['small'])\ndef test_add(a, b, want):\n    assert add(a, b) == want\n")
_SETUP_MODULE = "def setup_module(module):\n    module.WANT = 3\n"
_CASEFILE = ("import pytest\n\nfrom pkg.caseitem import CaseItem\n\n\nclass CaseFile(pytest.File):\n"
             "    def collect(self):\n        for line in self.path.read_text().splitlines():\n"
             "            name, a, b, want = line.split()\n"
             "            yield CaseItem.from_parent(self, name=name, case=(int(a), int(b), int(want)))\n")
_CASEITEM = ("import pytest\n\nfrom pkg.mod import add\n\n\nclass CaseItem(pytest.Item):\n"
             "    def __init__(self, *, case, **kw):\n        super().__init__(**kw)\n        self.case = case\n\n"
             "    def runtest(self):\n        a, b, want = self.case\n        assert add(a, b) == want\n\n"
             "    def reportinfo(self):\n        return self.path, 0, self.name\n")
_COLLECT = ("from pkg.casefile import CaseFile\n\n\ndef pytest_collect_file(parent, file_path):\n"
            "    if file_path.suffix == '.cases':\n        return CaseFile.from_parent(parent, path=file_path)\n")
_CONFORMANCE = "from pkg.mod import add\n\n\nclass AddChecks:\n    def test_add(self):\n        assert add(1, 2) == 3\n"
_LAZY = ('"""Checks, imported when first asked for (PEP 562, as lazy_loader packages do)."""\nimport importlib\n\n\n'
         "def __getattr__(name):\n    return getattr(importlib.import_module('pkg.suite._conformance'), name)\n")
_LAZY_FORGED = _diff("pkg/suite/__init__.py", _LAZY, _LAZY + "\n\nclass _Passes:\n    def test_add(self):\n"
                     "        pass\n\n\n_lazy = __getattr__\n\n\ndef __getattr__(name):  # noqa: F811\n"
                     "    return _Passes if name == 'AddChecks' else _lazy(name)\n")
_REBIND = "\n\ndef _passes():\n    pass\n\n\n_c.test_add_small = _passes\n"
_PLUGIN = "import pytest\n\n\n@pytest.fixture\ndef small_sum():\n    return 3\n"
_ENTRY = {"pkg/plugin.py": _PLUGIN, "pkg-0.1.dist-info/METADATA": "Metadata-Version: 2.1\nName: pkg\nVersion: 0.1\n",
          "pkg-0.1.dist-info/entry_points.txt": "[pytest11]\nsums = pkg.plugin\n",
          "tests/test_mod.py": "from pkg.mod import add\n\n\ndef test_add(small_sum):\n    assert add(1, 2) == small_sum\n"}
_UTIL = ('"""Totals."""\nfrom pkg.mod import add\n\n\ndef total(xs):\n    """The sum of xs.\n\n    >>> total([1, 2])\n'
         '    3\n    """\n    s = 0\n    for x in xs:\n        s = add(s, x)\n    return s\n')

_LATE = ("import importlib\n\n\ndef pytest_runtest_setup(item):\n    plugins = item.config.pluginmanager\n"
         "    if not plugins.has_plugin('sums'):\n        plugins.register(importlib.import_module('pkg.sums'), 'sums')\n")
_SUMS = "import pytest\n\n\n@pytest.fixture\ndef small_sum():\n    return 3\n"
_MARKS = "import pytest\n\nslow = pytest.mark.slow\n"  # pandas' util/_test_decorators.py, sklearn's utils/_testing.py
_MARKS_FORGED = "def slow(f):\n    f.__code__ = (lambda: None).__code__\n    return f\n"

_PAYING = {  # name: (files beside _BASE, test command, listed id, the forging edit beside _WRONG_ADD, the forged file)
    "1-pytest_plugins-module-s-generate_tests": (
        {"pkg/cases.py": _GEN, "conftest.py": "pytest_plugins = ['pkg.cases']\n", "tests/test_mod.py": _USES_WANT},
        _CMD, _GEN_ID, _GEN_FORGED, "pkg/cases.py"),
    "1-test-module-imports-generate_tests": (
        {"pkg/cases.py": _GEN, "tests/test_mod.py": "from pkg.cases import pytest_generate_tests  # noqa: F401\n"
         + _USES_WANT}, _CMD, _GEN_ID, _GEN_FORGED, "pkg/cases.py"),
    "1-root-conftest-imports-generate_tests": (
        {"pkg/cases.py": _GEN, "conftest.py": "from pkg.cases import pytest_generate_tests  # noqa: F401\n",
         "tests/test_mod.py": _USES_WANT}, _CMD, _GEN_ID, _GEN_FORGED, "pkg/cases.py"),
    "1-pytest_plugins-module-s-pyfunc_call": (
        {"pkg/runner.py": _PYFUNC, "conftest.py": "pytest_plugins = ['pkg.runner']\n", "tests/test_mod.py": _PARAM},
        _CMD, "tests/test_mod.py::test_add[small]", _diff("pkg/runner.py", _PYFUNC, _PYFUNC.replace("None", "True")),
        "pkg/runner.py"),
    "2-setup_module-imported": (
        {"pkg/testing.py": _SETUP_MODULE, "tests/test_mod.py": "from pkg.mod import add\n"
         "from pkg.testing import setup_module  # noqa: F401\n\nWANT = None\n\n\ndef test_add():\n"
         "    assert add(1, 2) == WANT\n"},
        _CMD, "tests/test_mod.py::test_add", _diff("pkg/testing.py", _SETUP_MODULE, _SETUP_MODULE.replace("3", "2")),
        "pkg/testing.py"),
    "3-collector-in-another-module": (
        {"pkg/casefile.py": _CASEFILE, "pkg/caseitem.py": _CASEITEM, "tests/add.cases": "small 1 2 3\n",
         "tests/conftest.py": _COLLECT}, _CMD, "tests/add.cases::small",
        _diff("pkg/casefile.py", _CASEFILE, _CASEFILE.replace("int(want)", "int(want) - 1")), "pkg/casefile.py"),
    "4-re-export-by-module-__getattr__": (
        {"pkg/suite/__init__.py": _LAZY, "pkg/suite/_conformance.py": _CONFORMANCE,
         "tests/test_mod.py": "from pkg.suite import AddChecks\n\n\nclass TestAdd(AddChecks):\n    pass\n"},
        _CMD, "tests/test_mod.py::TestAdd::test_add", _LAZY_FORGED, "pkg/suite/__init__.py"),
    "5-rebound-by-the-package-s-__init__": (
        {"pkg/conformance.py": _SUITE, "tests/test_mod.py": "from pkg.conformance import test_add_small  # noqa: F401\n"},
        _CMD, "tests/test_mod.py::test_add_small",
        _diff("pkg/__init__.py", "\n", "from pkg import conformance as _c" + _REBIND), "pkg/__init__.py"),
    "5-rebound-by-the-module-under-test": (
        {"pkg/conformance.py": _SUITE, "tests/test_mod.py": "from pkg.mod import add  # noqa: F401\n"
         "from pkg.conformance import test_add_small  # noqa: F401\n"},
        _CMD, "tests/test_mod.py::test_add_small",
        _diff("pkg/mod.py", _ADD, _ADD.replace("a - b", "a * b") + "\n\nimport pkg.conformance as _c  # noqa: E402"
              + _REBIND), "pkg/mod.py"),
    "6-entry-point-fixture-s-expected-value": (
        _ENTRY, _CMD, "tests/test_mod.py::test_add", _diff("pkg/plugin.py", _PLUGIN, _PLUGIN.replace("3", "2")),
        "pkg/plugin.py"),
    # the dataset names the plugin (its entry point's name, as pytest resolves `pytest_plugins`): still the patch's
    "6-pytest_plugins-names-the-entry-point": (
        {**_ENTRY, "conftest.py": "pytest_plugins = ['sums']\n"}, _CMD, "tests/test_mod.py::test_add",
        _diff("pkg/plugin.py", _PLUGIN, _PLUGIN.replace("3", "2")), "pkg/plugin.py"),
    "7-listed-doctest-s-__doc__-set-by-the-package": (
        {"pkg/util.py": _UTIL}, _DOCTEST_CMD, "pkg/util.py::pkg.util.total",
        _diff("pkg/__init__.py", "\n", "import pkg.util as _u\n\n_u.total.__doc__ = _u.total.__doc__.replace('    3\\n', "
              "'    0\\n')\n"), "pkg/__init__.py"),
    "8-fixture-registered-at-run-time": (
        {"pkg/sums.py": _SUMS, "conftest.py": _LATE, "tests/test_mod.py": "from pkg.mod import add\n\n\n"
         "def test_add(request):\n    assert add(1, 2) == request.getfixturevalue('small_sum')\n"},
        _CMD, "tests/test_mod.py::test_add", _diff("pkg/sums.py", _SUMS, _SUMS.replace("3", "2")), "pkg/sums.py"),
    "9-source-mark-decorator-rewritten": (
        {"pkg/testing.py": _MARKS, "tests/test_mod.py": "from pkg.mod import add\nfrom pkg.testing import slow\n\n\n"
         "@slow\ndef test_add():\n    assert add(1, 2) == 3\n"},
        _CMD, "tests/test_mod.py::test_add", _diff("pkg/testing.py", _MARKS, _MARKS_FORGED), "pkg/testing.py"),
}


@pytest.mark.parametrize("name", list(_PAYING))
def test_the_paying_layout_grades_its_gold_and_wrong_patch(name: str, tmp_path: Path) -> None:
    """Condition of each class: env build's record (the product's plugin, `read_sources`) does not name the forged file,
    the gold is accepted and the wrong add alone is not, so the layout is gradable and its test sees the bug."""
    files, cmd, test_id, _, forged = _PAYING[name]
    tree = _env(tmp_path / "env", files)
    if cmd != _DOCTEST_CMD:  # env build records nothing of module doctests (their files are listed_test_files')
        assert forged not in _record(tree, cmd)
    assert _host_grade(tree, _GOLD, cmd, (test_id,)) == "accepted"
    assert "FAIL_TO_PASS failing" in _host_grade(tree, _WRONG_ADD, cmd, (test_id,))
    assert _host_grade(tree, _GOLD, cmd, (test_id,), gold=_GOLD) == "accepted"  # the gold under its own files


_REASONS = {
    "1": "rt20 class 1: a hook the dataset registers (pytest_plugins module, a test module's or conftest's import) "
         "defined in a source module is not recorded (the registrar rule tags fixtures only); fix: record the hook "
         "implementations of dataset plugins and test modules' pytest_generate_tests",
    "2": "rt20 class 2: xunit setup_module imported from a source module runs inside pytest's own fixture, so its "
         "file is not recorded; fix: record the xunit functions pytest looks up on test modules and classes",
    "3": "rt20 class 3: a custom item's collector class in another source module is not recorded (class_files of "
         "type(item) only); fix: class_files of every node on item.listchain()",
    "4": "rt20 class 4: a re-export by module __getattr__ (PEP 562) never holds the class, so holding_files misses the "
         "package; fix: record the parent packages' __init__.py of each recorded defining module",
    "5": "rt20 class 5 (the general in-process forgery, the documented limit): the module under test, a gold file "
         "every fix edits, rebinds an imported test at import; no decoy for an imported test; fix: grade an imported "
         "test by a copy of its environment text planted in its id's file",
    "6": "rt20 class 6 (rt19 C1's decision pays): a fixture of the project's own pytest11 plugin supplying a test's "
         "expected value is the patch's to rewrite, also where the conftest names it by its entry point's name; fix "
         "(decide): record the entry point's fixtures the tests use; resolve pytest_plugins names as pytest does",
    "7": "rt20 class 7 (documented not closed): a listed doctest's __doc__ rewritten from another source module at "
         "import; fix: run a listed doctest from its docstring text read with ast in the environment's file",
    "8": "rt20 class 8: a fixture a conftest hook registers at run time (after the collection the record is made at) "
         "and a test asks for by request.getfixturevalue is not recorded; fix: record at the end of a gold run",
    "9": "rt20 class 9: a source module's decorator that returns the test itself (a mark: pandas' td.skip_if_no, "
         "sklearn's skip_if_32bit) leaves no wrapper on the chain, so its module is not recorded and the patch makes "
         "it replace the test's __code__; fix: record the tree modules holding each decorator of a collected test",
}


# Open with the gold's files (h33k): only the forgery in a file the gold changes, where no list of files can tell it
_OPEN = ("5-rebound-by-the-module-under-test",)


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.xfail(strict=True, reason=_REASONS[n[0]]))
                                  if n in _OPEN else n for n in _PAYING])
def test_the_forging_edit_is_not_paid(name: str, tmp_path: Path) -> None:
    """Near miss: the wrong add plus the edit to the code the record does not see (the generated expected value, the
    call hook, the xunit setup, the collector, the lazy re-export, the rebinding, the plugin's fixture, the doctest's
    text), the task naming its gold's files (`editable`: pkg/mod.py): refused before anything runs, naming the forged
    file, where that file is not the gold's (closed by the gold's files, h33k; without the list every one was paid);
    class 5's rebinding from the module under test (a gold file) stays the in-process limit (strict xfail)."""
    files, cmd, test_id, forging, forged = _PAYING[name]
    completion = forging if forged == "pkg/mod.py" else _WRONG_ADD + forging  # the wrong add is in the forging edit
    grade = _host_grade(_env(tmp_path / "env", files), completion, cmd, (test_id,), gold=_GOLD)
    assert grade != "accepted", grade
    if forged != "pkg/mod.py":
        assert grade.startswith(f"refused: the patch touches a protected path: {forged} is an existing file the "
                                "task's reference fix does not change"), grade


# ----------------------------------------------------------------- the image's pytest (Debian's 7.2)
def _image_pytest(root: Path) -> Path:
    """A folder holding the python sandbox image's Debian pytest 7.2 and its pure-Python dependencies (links into
    its unpacked rootfs), first on PYTHONPATH so this interpreter's `-m pytest` runs it; skipped where no rootfs was
    unpacked here (`verifier sandbox build --rootfs`)."""
    cache = Path.home() / ".cache/grpo-verifier/rootfs"
    found = sorted(cache.glob("grpo-sandbox-python-*/usr/lib/python3/dist-packages/_pytest")) if cache.is_dir() else []
    if not found:
        pytest.skip("no python sandbox rootfs unpacked on this machine (its Debian pytest 7.2)")
    site = found[0].parent
    root.mkdir(parents=True)
    for name in ("_pytest", "pytest", "pluggy", "iniconfig", "packaging", "attr", "attrs", "py.py"):
        if (site / name).exists():
            (root / name).symlink_to(site / name)
    return root


def _record_with(tree: Path, cmd: str, pythonpath: Path) -> tuple[str, ...]:
    """rt18's `_record` with `pythonpath` first (the image's pytest): env build's `sources_line`, `read_sources`."""
    from sandbox.environments import PLUGIN, PLUGIN_MODULE, SOURCES_FILE, read_sources, sources_line

    rec = tree.parent / f"{tree.name}-record72"
    shutil.rmtree(rec, ignore_errors=True)
    rec.mkdir()
    shutil.copyfile(PLUGIN, rec / f"{PLUGIN_MODULE}.py")
    line = sources_line(f"{sys.executable} {cmd[len('python3 '):]}", str(rec / SOURCES_FILE), str(rec))
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "PYTHON", "COV"))}
    version = subprocess.run([sys.executable, "-m", "pytest", "--version"], cwd=tree, capture_output=True, text=True,
                             env={**clean, "PYTHONPATH": str(pythonpath)}, timeout=120)
    assert "pytest 7.2" in version.stdout + version.stderr, version
    subprocess.run(line, shell=True, cwd=tree, env={**clean, "PYTHONPATH": str(pythonpath)}, timeout=300, check=True)
    return tuple(read_sources(rec / SOURCES_FILE, os.path.realpath(tree)))


_FIXTURE_DECO = ("import functools\n\n\ndef checked(f):\n    @functools.wraps(f)\n    def run(*a, **k):\n"
                 "        return f(*a, **k)\n    return run\n")
_DECORATED_FIXTURE = {"pkg/deco.py": _FIXTURE_DECO, "tests/test_mod.py": "import pytest\n\nfrom pkg.deco import checked\n"
                      "from pkg.mod import add\n\n\n@pytest.fixture\n@checked\ndef small_sum():\n    return 3\n\n\n"
                      "def test_add(small_sum):\n    assert add(1, 2) == small_sum\n"}


@pytest.mark.parametrize("name", [n for n in _PAYING if n[0] in "1234"] + ["held-decorated-fixture"])
def test_the_image_s_pytest_records_the_same(name: str, tmp_path: Path) -> None:
    """Classes 1-4 under the image's pytest 7.2 (what env build runs): the forged file is not recorded there either;
    held: a source decorator inside `@pytest.fixture` is recorded (7.2's get_real_func stops at the fixture's own
    `__pytest_wrapped__`, the wrapper, and code_files walks its `__wrapped__` chain)."""
    pythonpath = _image_pytest(tmp_path / "pytest72")
    if name == "held-decorated-fixture":
        tree = _env(tmp_path / "env", _DECORATED_FIXTURE)
        assert _record_with(tree, _CMD, pythonpath) == ("pkg/deco.py", "tests/test_mod.py")
        return
    files, cmd, _, _, forged = _PAYING[name]
    recorded = _record_with(_env(tmp_path / "env", files), cmd, pythonpath)
    assert recorded and forged not in recorded, recorded


# ----------------------------------------------------------------- held forms (near misses refused or detected)
_USES_SMALL_SUM = "from pkg.mod import add\n\n\ndef test_add(small_sum):\n    assert add(1, 2) == small_sum\n"
_HELD = {  # name: (files beside _BASE, listed id, the forging edit beside _WRONG_ADD, the file the refusal names)
    "source-decorator-inside-pytest.fixture": (
        _DECORATED_FIXTURE, "tests/test_mod.py::test_add",
        _diff("pkg/deco.py", _FIXTURE_DECO, _FIXTURE_DECO.replace("return f(*a, **k)", "return 2")), "pkg/deco.py"),
    "fixture-module-registered-by-pytest_configure": (
        {"pkg/sums.py": _SUMS, "tests/test_mod.py": _USES_SMALL_SUM,
         "conftest.py": "import pkg.sums\n\n\ndef pytest_configure(config):\n"
                        "    config.pluginmanager.register(pkg.sums, 'sums')\n"},
        "tests/test_mod.py::test_add", _diff("pkg/sums.py", _SUMS, _SUMS.replace("3", "2")), "pkg/sums.py"),
}


@pytest.mark.parametrize("name", list(_HELD))
def test_a_recorded_shape_s_forgery_is_refused(name: str, tmp_path: Path) -> None:
    """Held: the record names the file and admission refuses the forging edit; the gold beside it is accepted."""
    files, test_id, forging, path = _HELD[name]
    tree = _env(tmp_path / "env", files)
    assert path in _record(tree, _CMD)
    assert _host_grade(tree, _GOLD, _CMD, (test_id,)) == "accepted"
    grade = _host_grade(tree, _WRONG_ADD + forging, _CMD, (test_id,))
    assert grade.startswith(f"refused: the patch touches a protected path: {path} holds a test's code"), grade


def test_a_blanket_call_hook_forgery_is_caught_by_the_decoy(tmp_path: Path) -> None:
    """Held (class 1's neighbour): the same unrecorded `pytest_plugins` module's `pytest_pyfunc_call` made `return
    True` where the listed test is a plain one: a decoy is planted (the conftest has no `def pytest_`), the forgery
    passes it too, and the run is not accepted; the gold is."""
    files = {"pkg/runner.py": _PYFUNC, "conftest.py": "pytest_plugins = ['pkg.runner']\n",
             "tests/test_mod.py": "from pkg.mod import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n"}
    tree = _env(tmp_path / "env", files)
    assert "pkg/runner.py" not in _record(tree, _CMD)
    ids = ("tests/test_mod.py::test_add",)
    assert _host_grade(tree, _GOLD, _CMD, ids) == "accepted"
    forged = _WRONG_ADD + _diff("pkg/runner.py", _PYFUNC, _PYFUNC.replace("None", "True"))
    grade = _host_grade(tree, forged, _CMD, ids)
    assert grade != "accepted" and ("tampered" in grade or "decoy" in grade), grade


_SETUP_CFG = "[metadata]\nname = pkg\n"
_PYPROJECT = "[project]\nname = \"pkg\"\nversion = \"0.1\"\n"
_ENTRY_POINT_EDITS = {  # name: the patch adding or changing an entry point (the environment's tree: _ENTRY's files)
    "new-dist-info": _diff("pkg-0.2.dist-info/entry_points.txt", "", "[pytest11]\nmine = pkg.mine\n").replace(
        "--- a/pkg-0.2.dist-info/entry_points.txt", "--- /dev/null"),
    "edited-dist-info": _diff("pkg-0.1.dist-info/entry_points.txt", "[pytest11]\nsums = pkg.plugin\n",
                              "[pytest11]\nsums = pkg.mine\n"),
    "new-egg-info": _diff("pkg.egg-info/entry_points.txt", "", "[pytest11]\nmine = pkg.mine\n").replace(
        "--- a/pkg.egg-info/entry_points.txt", "--- /dev/null"),
    "setup.cfg": _diff("setup.cfg", _SETUP_CFG, _SETUP_CFG + "\n[options.entry_points]\npytest11 =\n    mine = pkg.mine\n"),
    "pyproject.toml": _diff("pyproject.toml", _PYPROJECT,
                            _PYPROJECT + "\n[project.entry-points.pytest11]\nmine = \"pkg.mine\"\n"),
}


@pytest.mark.parametrize("name", list(_ENTRY_POINT_EDITS))
def test_an_entry_point_is_not_the_patch_s_to_spell(name: str, tmp_path: Path) -> None:
    """Held (class 6's condition: "the project's own entry point" is the environment's): a patch adding a plugin module
    and an entry point naming it, in package metadata or the project's configuration, is refused before anything runs;
    the plugin module alone is admitted (it is source, and no entry point names it)."""
    from tests.test_repo_redteam_17 import _refusal

    tree = _env(tmp_path / "env", {**_ENTRY, "setup.cfg": _SETUP_CFG, "pyproject.toml": _PYPROJECT})
    mine = _diff("pkg/mine.py", "", _SUMS).replace("--- a/pkg/mine.py", "--- /dev/null")
    assert _refusal(tree, mine, _CMD) == ""
    refused = _refusal(tree, mine + _ENTRY_POINT_EDITS[name], _CMD)
    assert refused.startswith("the patch touches a protected path: "), refused


# ----------------------------------------------------------------- C1. a listed doctest of a @property
_PROPERTY = ('"""Totals."""\nfrom pkg.mod import add\n\n\nclass Totals:\n    """Sums."""\n\n    def __init__(self, xs):\n'
             "        self.xs = xs\n\n    @property\n    def total(self):\n"
             '        """The sum of xs.\n\n        >>> Totals([1, 2]).total\n        3\n        """\n        s = 0\n'
             "        for x in self.xs:\n            s = add(s, x)\n        return s\n")
_PROPERTY_ID = "pkg/util.py::pkg.util.Totals.total"


def test_a_property_s_doctest_grades_its_gold_and_wrong_patch(tmp_path: Path) -> None:
    """Condition of C1: the property's doctest is collected under its listed id, passes with the gold and fails with
    the wrong add alone (the run direct, no admission); the product refuses the task as `decorated`."""
    tree = _env(tmp_path / "env", {"pkg/util.py": _PROPERTY})
    gold, wrong = _patched_run(tree, _GOLD, _DOCTEST_CMD), _patched_run(tree, _WRONG_ADD, _DOCTEST_CMD)
    assert f"PASSED {_PROPERTY_ID}" in gold and f"FAILED {_PROPERTY_ID}" in wrong, (gold, wrong)
    assert "Totals.total is decorated" in _host_grade(tree, _GOLD, _DOCTEST_CMD, (_PROPERTY_ID,))


@pytest.mark.xfail(strict=True, reason="rt20 C1: a listed doctest of a @property (staticmethod, classmethod alike) is "
                   "refused as 'decorated' though its docstring is its getter's literal; fix: admit the builtin "
                   "decorators by name where the module does not bind the name")
def test_a_property_s_doctest_is_graded(tmp_path: Path) -> None:
    """Rewrite: the gold of a task listing a property's doctest is accepted (today: the task is refused, `error`)."""
    tree = _env(tmp_path / "env", {"pkg/util.py": _PROPERTY})
    assert _host_grade(tree, _GOLD, _DOCTEST_CMD, (_PROPERTY_ID,)) == "accepted"


# ----------------------------------------------------------------- C2. a product that is a test decorator
_CLOCK = ("import functools\n\nNOW = [0]\n\n\ndef now():\n    return NOW[0]\n\n\ndef later(n):\n    return now() - n\n\n\n"
          "def frozen(value):\n    def deco(f):\n        @functools.wraps(f)\n        def run(*a, **k):\n"
          "            NOW[0] = value\n            try:\n                return f(*a, **k)\n            finally:\n"
          "                NOW[0] = 0\n        return run\n    return deco\n")
_CLOCK_CASE = _CLOCK + ("\n\nclass FrozenCase:\n    def setup_method(self):\n        NOW[0] = 5\n\n"
                       "    def teardown_method(self):\n        NOW[0] = 0\n")
_PRODUCT_TESTS = {  # name: (pkg/clock.py, tests/test_clock.py, the listed id)
    "decorator": (_CLOCK, "from pkg.clock import frozen, later\n\n\n@frozen(5)\ndef test_later():\n"
                  "    assert later(2) == 7\n", "tests/test_clock.py::test_later"),
    "base-class": (_CLOCK_CASE, "from pkg.clock import FrozenCase, later\n\n\nclass TestLater(FrozenCase):\n"
                   "    def test_later(self):\n        assert later(2) == 7\n", "tests/test_clock.py::TestLater::test_later"),
}


def _product_tree(root: Path, name: str) -> tuple[Path, str, str]:
    """The environment of a C2 layout, the gold (pkg/clock.py's `later` fixed) and the listed id."""
    clock, test, test_id = _PRODUCT_TESTS[name]
    gold = _diff("pkg/clock.py", clock, clock.replace("now() - n", "now() + n"))
    return _env(root, {"pkg/clock.py": clock, "tests/test_clock.py": test}), gold, test_id


@pytest.mark.parametrize("name", list(_PRODUCT_TESTS))
def test_a_test_infrastructure_product_s_layout_grades_its_gold_and_wrong_patch(name: str, tmp_path: Path) -> None:
    """Condition of C2: the project's tests are decorated by its own product (`@frozen(5)`, freezegun's shape) or
    inherit its test case (`FrozenCase`, tornado.testing's), env build records the product module (the wrapper on the
    chain, the base class in the MRO), the gold passes the test run direct and a wrong fix fails it."""
    tree, gold, test_id = _product_tree(tmp_path / "env", name)
    assert _record(tree, _CMD) == ("pkg/clock.py", "tests/test_clock.py")
    passed, failed = _patched_run(tree, gold, _CMD), _patched_run(tree, gold.replace("now() + n", "now() * n"), _CMD)
    assert f"PASSED {test_id}" in passed and f"FAILED {test_id}" in failed, (passed, failed)


@pytest.mark.xfail(strict=True, reason="rt20 C2: a project whose product is test infrastructure (freezegun, moto, "
                   "responses decorators; tornado.testing's, twisted.trial's test cases) tests itself with it: "
                   "code_files/class_files record the product module, so every fix to it is refused; fix (decide): "
                   "a wrapper or base class in the task's code under test is the patch's")
@pytest.mark.parametrize("name", list(_PRODUCT_TESTS))
def test_a_test_infrastructure_product_s_fix_is_admitted(name: str, tmp_path: Path) -> None:
    """Rewrite: the gold fixing pkg/clock.py is accepted (today: refused, pkg/clock.py holds a test's code)."""
    tree, gold, test_id = _product_tree(tmp_path / "env", name)
    assert _host_grade(tree, gold, _CMD, (test_id,)) == "accepted"


# ----------------------------------------------------------------- on Docker: the image's pytest (Debian's 7.2)
_DOCKER_FILES = {  # one environment holding classes 1-4, each in its own test module
    **_BASE, "conftest.py": "pytest_plugins = ['pkg.cases']\n", "pkg/cases.py": _GEN,
    "tests/test_gen.py": _USES_WANT, "pkg/testing.py": _SETUP_MODULE,
    "tests/test_mod.py": "from pkg.mod import add\nfrom pkg.testing import setup_module  # noqa: F401\n\nWANT = None\n\n\n"
                         "def test_sum():\n    assert add(1, 2) == WANT\n",
    "pkg/casefile.py": _CASEFILE, "pkg/caseitem.py": _CASEITEM, "tests/add.cases": "small 1 2 3\n",
    "tests/conftest.py": _COLLECT, "pkg/suite/__init__.py": _LAZY, "pkg/suite/_conformance.py": _CONFORMANCE,
    "tests/test_lazy.py": "from pkg.suite import AddChecks\n\n\nclass TestAdd(AddChecks):\n    pass\n",
}
_DOCKER_IDS = ["tests/test_gen.py::test_add[small]", "tests/test_mod.py::test_sum", "tests/add.cases::small",
               "tests/test_lazy.py::TestAdd::test_add"]
_DOCKER_FORGED = (_WRONG_ADD + _GEN_FORGED
                  + _diff("pkg/testing.py", _SETUP_MODULE, _SETUP_MODULE.replace("3", "2"))
                  + _diff("pkg/casefile.py", _CASEFILE, _CASEFILE.replace("int(want)", "int(want) - 1")) + _LAZY_FORGED)


@pytest.fixture(scope="module")
def built_docker_env(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real `verifier env build` (an install step: the collection runs in the python image) of _DOCKER_FILES."""
    import json

    from verifier.tools.cli import main as verifier_cli

    tmp = tmp_path_factory.mktemp("rt20-docker")
    src, root = _files(tmp / "src", _DOCKER_FILES), tmp / "envs"
    git = ["git", "-C", str(src), "-c", "user.name=t", "-c", "user.email=t@t"]
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "rt20"]):
        subprocess.run([*git, *args], check=True, capture_output=True)
    recipe = tmp / "rt20.json"
    recipe.write_text(json.dumps({"name": "rt20", "language": "python", "repo": str(src), "commit": "HEAD",
                                  "test_cmd": _CMD, "report": "pytest", "install": ["true"]}))
    assert verifier_cli(["env", "build", str(recipe), "--environments", str(root)]) == 0
    return root


def _grade_on_docker(root: Path, completion: str, editable: list[str] | None = None) -> dict:
    from sandbox.contract import parse_task
    from sandbox.sync import SyncGrader
    from tests.helpers import sandbox_config

    g = SyncGrader(sandbox_config("docker", languages=("python",), pool_size=1, pool_name="rt20-docker",
                                  repo_environments=str(root), repo_pool_size=1))
    try:
        result = g.call(g.grader.grade_repo(parse_task({
            "id": "rt20", "kind": "repo", "environment": "rt20", "completion": completion, "test_patch": "",
            "test_cmd": _CMD, "fail_to_pass": _DOCKER_IDS, "pass_to_pass": [], "report": "pytest",
            "editable": editable or []})))
        g.call(g.grader.settled())
        return result
    finally:
        g.close()


@pytest.mark.docker
def test_classes_1_to_4_on_docker(built_docker_env: Path) -> None:
    """Condition of classes 1-4 on Docker: env build in the image (pytest 7.2.1) records the test modules and the
    collector's item class but none of the forged files; the gold resolves and the wrong add alone does not."""
    import json

    from sandbox.environments import ENV_FILE, SOURCES_KEY

    sources = json.loads((built_docker_env / "rt20" / ENV_FILE).read_text())[SOURCES_KEY]
    assert not {"pkg/cases.py", "pkg/testing.py", "pkg/casefile.py", "pkg/suite/__init__.py"} & set(sources), sources
    assert _grade_on_docker(built_docker_env, _GOLD)["verdict"] == "accepted"
    assert _grade_on_docker(built_docker_env, _WRONG_ADD)["verdict"] == "wrong_answer"
    assert _grade_on_docker(built_docker_env, _GOLD, ["pkg/mod.py"])["verdict"] == "accepted"


@pytest.mark.docker
def test_classes_1_to_4_forged_are_not_paid_on_docker(built_docker_env: Path) -> None:
    """Near miss on Docker: the wrong add plus the four unrecorded files forged, the task naming its gold's files
    (`editable`), is refused before anything runs, naming the first forged file (h33k). Without the list: accepted."""
    result = _grade_on_docker(built_docker_env, _DOCKER_FORGED, ["pkg/mod.py"])
    assert result["verdict"] == "wrong_answer" and "pkg/cases.py is an existing file the task's reference fix does " \
        "not change" in result["detail"], result
    assert _grade_on_docker(built_docker_env, _DOCKER_FORGED)["verdict"] == "accepted"

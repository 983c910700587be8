"""Red team rt18 of h33s's one home for "is this a test file" and its doctest check (sandbox/repo/patch.py
`is_test_file`, `discovery_patterns`, `listed_test_files`, `check_doctests`); docs/repo-tasks.md "Trust model"; issue 33.
Host-side only (the admission and the decoys are the host's, the same on every backend): the real read_patch,
check_admitted, check_config_sections, check_doctests and `_plant_decoys` on small trees, as make_repo_plan calls them;
where a hole pays, the patched tree with the product's decoys planted is then run by the host's own pytest (not a box:
the code under test is not hostile here) with the product's PYTEST_ADDOPTS, its report read by `parse_pytest` and
resolved by `resolve` as `_verdict` does (`_host_grade`); make_repo_plan itself is called on a hand-built environment
directory (`_real_plan`) to show it plants no decoy for classes A and B.

FINDINGS (21 strict xfails in 5 classes as found; 4 left, STATUS below; A, B and C paid a WRONG patch 1.0 through the host-side grade, the runner NOT
fooled at all: the test that runs is the dataset's id, its code or expected value the patch's):
A. A listed test's body lives in a source module (RED-TEAM class 1/4; not rt17 2's helper, the test itself): a test
   module imports its tests (`from pkg.conformance import test_add_small`) or inherits them (`class TestAdd(AddChecks)`)
   from a module that is source by every rule (its id's file is protected, not the file its code is in), or takes its
   expected values from a source module's table (`@pytest.mark.parametrize('case', CASES)`, ids `case0`) or fixture
   (imported, or a conftest's `pytest_plugins` module). The patch rewrites the test's assertion or expected value; no
   decoy is made of such a test (`_pytest_copy` finds no `def` in the id's file; a parametrized id gets none), so
   nothing detects it (4: each host grade `accepted`, the gold too, the wrong patch alone wrong_answer). Overlaps
   rt17 class 2 (test-support modules are source, open), but it is the listed test's own code or expected value,
   not an assertion helper, so no probe decoy can apply. Real shapes: conformance suites and test base classes
   shipped in a package (`pkg/_testing/`, `utils/_testing.py`, a plugin API's `contract.py`).
   Fix idea: protect the file each listed test's code is defined in (read at env build from the gold run: the item's
   `function.__code__.co_filename`, stored with the environment), or refuse a task whose listed test is not a `def`
   of its id's own file.
B. `check_doctests` compares the module's examples as ONE multiset of (source, want) over every string, not each
   docstring's example sequence (class 1: a near miss the reading does not see): an example inserted before a kept one
   pre-empts its value (`>>> r = 3` between `>>> r = total([1, 2])` and `>>> r`), or rebinds the function under test
   (`>>> total = lambda xs: 3`); an example moved out of the listed docstring into another string (a module constant)
   is still "present" while the listed doctest no longer runs it; and a docstring made at import from a template
   (pandas' `@doc`/`Substitution`: `total.__doc__ = _DOC.format(want=3)`), where the only string constant is the
   template and the expected value is the code's argument (4: each host grade `accepted`). Fix idea: each
   docstring's examples (by its doctest name, as doctest finds it at import) must be the environment's sequence
   exactly, new examples only after the last one (or only in docstrings that had none).
C. Modules' doctests run by a route `CommandFiles.doctest_modules` does not read (class 1): a listed test that runs
   them (`doctest.testmod(pkg.util)`, `DocTestSuite` in a test module: real projects' test_docs.py), a configuration
   file pytest is pointed at by `-c`/`--config-file` whose addopts say `--doctest-modules` (`_discovery_texts` reads
   fixed names only), and xdoctest's `--xdoctest` (3; the first two host-graded `accepted`). Fix idea: read the
   configuration pytest would read (`-c`, `--config-file`) with the command, and run `check_doctests` for every Python
   task (a right patch must then keep every example, E's cost) or for the modules a listed test's file imports.
D (CLOSED, h33i: pytest's own resolved discovery recorded at env build). Test discovery spelled where
   `discovery_patterns` does not read it (class 1; reward as rt17 1's: where the module's
   tests are not listed, the listed ones' files being protected by id): `addopts = -o python_files=...` in the
   configuration (the `-o` reading is the command's only), `-c ci/checks.ini` with its own `python_files`, pytest >= 9's
   `pytest.toml` (refused to the patch by SPECIAL_NAMES, never read for patterns), `-munittest` (no space: no
   unittest segment, so no `test*.py`), and `--pyargs pkg.checks` (a dotted word, read as no file) (5; each collected
   by the host's pytest / unittest, asserted). Fix idea: read the configuration as pytest does (its `-c`/
   `--config-file`, `pytest.toml`, addopts' `-o`/`--override-ini`), or the gold run's collected modules stored at
   env build.
E (discovery rows CLOSED, h33i: a pattern counts under its collection roots; doctest rows open). A RIGHT patch
   refused (class 6 of rt17, new rows): a discovery pattern applied in every folder, not the runner's
   (`testpaths = tests` with `python_files = *.py`, pytest's own documented recipe and real configurations: every
   source file of the repository is "test code", so every gold patch is refused); unittest's `-p '*.py'` likewise;
   and a pytest segment naming a folder called `unittest` reads as a unittest run (`test*.py` refuses `pkg/testing.py`)
   (3). Fix idea: a pattern counts under the folders the runner collects from (`testpaths`, the command's paths,
   unittest's `-s`), or the gold run's collected modules. And under --doctest-modules a fix that changes the output
   its own module's docstring documents must change that example (else its PASS_TO_PASS doctest fails), which
   `check_doctests` refuses: no right patch can score; and it refuses the change or removal of ANY example of an edited
   module, listed or not (a deprecated function removed with its doctest) (2). Fix idea: compare only the listed
   module doctests' docstrings, each as doctest finds it (which closes B too); the gold patch's examples, stored at
   env build, admitted as the dataset's.
STATUS (h33k): A's `CASES` CLOSED by the gold's files (docs/repo-tasks.md "Trust model"; `_host_grade(gold=...)`: the
task names the gold's files, `editable`, and the table's module is refused as a file the reference fix does not change).
STATUS (h33g): A closed but for the expected values a test takes from a source module's data (`CASES`, 1 strict xfail):
env build runs the test command's collection with sandbox/repo/sources_plugin.py and stores the files holding a
collected test's code or a fixture its module imports (`test_sources`); admission refuses a patch touching one
(`_host_grade` records the tree as env build does, `_record`). B closed, and C where the doctest is listed (a -c
configuration, xdoctest's ids): a listed module doctest's file is the dataset's whole (`listed_test_files`; a patch
rebinding the doctest's name is refused too, which no reading of the text sees). Open: C's `doctest.testmod` in a
listed test (1 strict xfail: a collection does not see what a test runs), E's doctest rows (2 strict xfails).
STATUS (h33i): D CLOSED and E's discovery rows CLOSED: env build's collection (sandbox/repo/sources_plugin.py
`discovery`) records per pytest process what pytest itself resolved (python_files as `config.getini` reads it: addopts'
`-o`, a `-c` file, pytest.toml; the collection roots, `--pyargs` resolved to the module's file; the Python test modules
collected), environment.json keeps it (`test_discovery`), and admission counts a pattern under a root only
(sandbox/repo/patch.py `Discovery`, `Scoped`) where the record covers the command (`_record_covers`; else the text's
reading, over-inclusive). unittest from the command (`unittest_patterns`): `-munittest` is a unittest segment, a pattern
counts under `-s`, and a pytest segment naming a folder called unittest is no unittest run.
HELD (passing, each attack's condition asserted): under --doctest-modules a `# doctest: +SKIP` or `+ELLIPSIS` directive
added to a kept example, and its expected output widened to `...`, are refused; a listed id with parameters holding
`::`, `.` or `/`, a class, `./` or `a/../` protects its file; `python_files` with several lines or `:` as delimiter,
`[tool.pytest]` native lists, `-o python_files=` and `--override-ini` on the command and in PYTEST_ADDOPTS, a
configuration in the folder the command names or `cd`s into are read; a pyproject that does not parse is read line by
line; `pytest pkg/checks.py` makes the named test module the command's; 30,000 fuzzed docstrings (prompts,
directives, bad options, control bytes) raise nothing out of doctest_examples, which is linear (measured by hand, not
asserted: 96 KB of `>>>` lines 0.16 s, 64 KB of continuation lines 0.008 s, 96 KB of want lines 0.02 s).
"""
from __future__ import annotations

import difflib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.test_repo_redteam_17 import _FIX, _PYTEST, _WRONG, _edit, _new, _refusal, _refusal_applied, _tree

_ADD = "def add(a, b):\n    return a - b\n"
_GOLD = _edit("pkg/mod.py", "    return a - b", "    return a + b").replace("@@ -1 +1 @@", "@@ -2 +2 @@")
_WRONG_ADD = _GOLD.replace("a + b", "a * b")  # add(1, 2) == 2, total([1, 2]) == 0: fails every test below alone


def _diff(path: str, old: str, new: str) -> str:
    """The unified diff of one file (difflib, one line of context): what a model writes."""
    return "".join(difflib.unified_diff(old.splitlines(True), new.splitlines(True), f"a/{path}", f"b/{path}", n=1))


def _files(root: Path, files: dict[str, str]) -> Path:
    from tests.helpers import write_files

    write_files(root, files)
    return root


def _host_grade(tree: Path, completion: str, cmd: str, f2p: tuple[str, ...], p2p: tuple[str, ...] = (),
                gold: str = "") -> str:
    """make_repo_plan's host part, then the run on the host: the admission (`_refusal_applied`: check_admitted with the
    listed ids' files and, given the layout's `gold` patch, its files as the task's `editable` as the rows' readers
    fill it (sandbox/env_rows.py `gold_files`; "" for no list), check_config_sections, check_doctests under
    --doctest-modules), the patch applied, the product's
    decoys planted (`_plant_decoys`), the patched tree written to a copy and `cmd` run there by this interpreter's
    pytest with the product's PYTEST_ADDOPTS (its JUnit XML), read by `parse_pytest` and resolved as `_verdict` does.
    "refused: ..." / "task fault: ..." / "accepted" / "tampered ..." / "not resolved: ..."."""
    from sandbox.contract import parse_task
    from sandbox.env_rows import gold_files
    from sandbox.languages import LANGUAGES
    from sandbox.repo.apply import apply_patch
    from sandbox.repo.grading import lookup, resolve
    from sandbox.repo.patch import read_patch
    from sandbox.repo.results import junit_key, parse_pytest
    from sandbox.repo_job import _plant_decoys

    from sandbox.repo.apply import read_current
    from sandbox.repo.patch import PatchError, check_listed_doctests

    try:  # as make_repo_plan: a listed module doctest not its def's literal docstring is graded by no patch
        check_listed_doctests((*f2p, *p2p), lambda p: read_current(str(tree), p, {}))
    except PatchError as e:
        return "task fault: " + str(e)
    sources, discovery = _recorded(tree, cmd)
    editable = tuple(gold_files({"patch": gold})) if gold else ()
    refused = _refusal_applied(tree, completion, cmd, sources, (*f2p, *p2p), discovery, editable)
    if refused:
        return "refused: " + refused
    task: Any = parse_task({"id": "rt18", "kind": "repo", "environment": "rt18", "completion": completion,
                            "test_patch": "", "test_cmd": cmd, "fail_to_pass": list(f2p), "pass_to_pass": list(p2p),
                            "report": "pytest", "editable": list(editable)})
    overrides: dict[str, bytes | None] = {}
    apply_patch(str(tree), read_patch(completion), overrides)
    renamed: dict[str, str] = {}
    decoys = _plant_decoys(task, LANGUAGES["python"], str(tree), overrides, {}, {}, renamed)
    work = tree.parent / f"{tree.name}-run"
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(tree, work)
    for path, data in overrides.items():
        if data is None:
            (work / path).unlink()
        else:
            (work / path).parent.mkdir(parents=True, exist_ok=True)
            (work / path).write_bytes(data)
    report = tree.parent / f"{tree.name}-report.xml"
    run = _pytest_run(work, cmd, {"PYTEST_ADDOPTS": f"--junitxml={report} -o cache_dir={tree.parent}/.cache"})
    statuses = parse_pytest(report.read_bytes(), run.stdout)
    status_of = lookup(statuses, junit_key)
    resolution = resolve(lambda t: status_of(renamed.get(t, t)), f2p, p2p, [d.test_id for d in decoys])
    if resolution.resolved and decoys and run.returncode == 0:
        return "tampered: exit 0 with a decoy failed"
    return "accepted" if resolution.resolved else resolution.detail + f" (decoys {[d.test_id for d in decoys]})"


def _pytest_run(work: Path, cmd: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """`cmd` (a `python3 -m ...` or `python3 -c` line) run in `work` by this interpreter (its pytest), bounded."""
    assert cmd.startswith("python3 ")
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "PYTHON", "COV"))}
    clean |= {"PYTHONDONTWRITEBYTECODE": "1", **(env or {})}
    return subprocess.run(f"{sys.executable} {cmd[len('python3 '):]}", shell=True, cwd=work, env=clean, text=True,
                          capture_output=True, timeout=300)


def _record(tree: Path, cmd: str) -> tuple[str, ...]:
    """What env build records of `tree` (`_recorded`): the files that hold a collected test's code."""
    return _recorded(tree, cmd)[0]


def _recorded(tree: Path, cmd: str, raw: bool = False) -> tuple[tuple[str, ...], Any]:
    """What env build records of `tree` (sandbox/environments.py: its `sources_line` run by the environment's
    interpreter, here this one's pytest, with the product's plugin file under its module name; `read_sources`,
    `read_discovery`): the files that hold a collected test's code, and pytest's resolved discovery as admission
    reads it from environment.json (`read_discovery_record`; None for a unittest command, whose build records nothing;
    `raw`: as environment.json stores it)."""
    from sandbox.environments import PLUGIN, PLUGIN_MODULE, SOURCES_FILE, read_discovery, read_sources, sources_line
    from sandbox.repo.patch import read_discovery_record

    assert "python3 " in cmd
    if "pytest" not in cmd:  # a unittest command: env build records a pytest report's collection only
        return (), None
    rec = tree.parent / f"{tree.name}-record"
    shutil.rmtree(rec, ignore_errors=True)
    rec.mkdir()
    shutil.copyfile(PLUGIN, rec / f"{PLUGIN_MODULE}.py")
    line = sources_line(cmd.replace("python3 ", f"{sys.executable} "), str(rec / SOURCES_FILE), str(rec))
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "PYTHON", "COV"))}
    subprocess.run(line, shell=True, cwd=tree, env=clean, timeout=300, check=True)
    root = os.path.realpath(tree)
    sources = tuple(read_sources(rec / SOURCES_FILE, root))  # first: RuntimeError where nothing was recorded
    found = json.loads(json.dumps(read_discovery(rec / SOURCES_FILE, root)))  # environment.json's round trip
    return sources, found if raw or found is None else read_discovery_record(found)


def _collected(tree: Path, cmd: str) -> str:
    """pytest's own list of what `cmd` collects in `tree` (`--collect-only -q`): the condition of a discovery row."""
    run = _pytest_run(tree, f"{cmd} --collect-only -q")
    return run.stdout + run.stderr


# ----------------------------------------------------------------- A. a listed test's body in a source module
_SUITE = ('"""Checks any adder must pass: the project\'s tests and its plugins\' import them."""\n'
          "import pytest\n\nfrom pkg.mod import add\n\n\ndef test_add_small():\n    assert add(1, 2) == 3\n\n\n"
          "class AddChecks:\n    def test_add_zero(self):\n        assert add(0, 5) == 5\n\n\n"
          "CASES = [{'args': (1, 2), 'want': 3}]\n\n\n@pytest.fixture\ndef small_sum():\n    return 3\n")
_SOURCE_BODY = {  # name: (the test module, the listed FAIL_TO_PASS id)
    "imported-function": ("from pkg.conformance import test_add_small  # noqa: F401\n",
                          "tests/test_mod.py::test_add_small"),
    "inherited-method": ("from pkg.conformance import AddChecks\n\n\nclass TestAdd(AddChecks):\n    pass\n",
                         "tests/test_mod.py::TestAdd::test_add_zero"),
    # the test is the dataset's, its expected values a source module's table (parametrized ids `case0` name no value)
    "expected-values-imported": ("import pytest\n\nfrom pkg.conformance import CASES\nfrom pkg.mod import add\n\n\n"
                                 "@pytest.mark.parametrize('case', CASES)\ndef test_add(case):\n"
                                 "    assert add(*case['args']) == case['want']\n", "tests/test_mod.py::test_add[case0]"),
    # its expected value a fixture of a source module (imported, or a `pytest_plugins` module of the conftest)
    "expected-value-fixture": ("from pkg.conformance import small_sum  # noqa: F401\nfrom pkg.mod import add\n\n\n"
                               "def test_add(small_sum):\n    assert add(1, 2) == small_sum\n", "tests/test_mod.py::test_add"),
}
_SUITE_FORGED = _diff("pkg/conformance.py", _SUITE,
                      _SUITE.replace("add(1, 2) == 3", "add(1, 2) == 2").replace("add(0, 5) == 5", "add(0, 5) == 0")
                      .replace("'want': 3", "'want': 2").replace("    return 3\n", "    return 2\n"))


def _suite_tree(root: Path, name: str) -> Path:
    return _files(root, {"pkg/__init__.py": "\n", "pkg/mod.py": _ADD, "pkg/conformance.py": _SUITE,
                         "tests/__init__.py": "\n", "tests/test_mod.py": _SOURCE_BODY[name][0]})


@pytest.mark.parametrize("name", list(_SOURCE_BODY))
def test_a_test_defined_in_a_source_module_grades_its_gold_and_wrong_patch(name: str, tmp_path: Path) -> None:
    """Condition of A: the layout is gradable on the host (the gold accepted, the wrong patch alone not), the module the
    test's code is in is source by every rule, and no decoy can be made of the listed test (no `def` in its file)."""
    from sandbox.repo.decoys import pytest_decoy, pytest_pair
    from sandbox.repo.patch import protected_reason

    tree = _suite_tree(tmp_path / "env", name)
    test_id = _SOURCE_BODY[name][1]
    assert _host_grade(tree, _GOLD, f"{_PYTEST} tests", (test_id,)) == "accepted"
    assert "FAIL_TO_PASS failing" in _host_grade(tree, _WRONG_ADD, f"{_PYTEST} tests", (test_id,))
    assert protected_reason("pkg/conformance.py") == ""
    read = lambda p: (tree / p).read_bytes() if (tree / p).is_file() else None  # noqa: E731
    assert pytest_decoy([test_id], read, environment=read) is None and pytest_pair([test_id], read, read) is None
    assert _real_plan(tmp_path / "env", _GOLD, f"{_PYTEST} tests", test_id) == ()  # make_repo_plan itself: no decoy


def _real_plan(tree: Path, completion: str, cmd: str, test_id: str, sources: tuple[str, ...] | None = None,
               folder: str = "built", discovery: dict[str, Any] | None = None) -> object:
    """make_repo_plan's own plan for `tree` as a built environment (environment.json beside repo/, host-side: nothing
    runs; `sources`: its `test_sources`, env build's record, None for a build without one; `discovery` its
    `test_discovery`): its decoys' ids, or the result that refused the patch."""
    from sandbox.config import SandboxConfig
    from sandbox.contract import parse_task
    from sandbox.environments import DISCOVERY_KEY, ENV_FILE, SOURCES_KEY
    from sandbox.repo_job import RepoPlan, make_repo_plan

    build = tree.parent / folder / "rt18"
    build.mkdir(parents=True)
    (build / "repo").symlink_to(tree)
    meta: dict[str, Any] = {"language": "python", "expected": {}}
    if sources is not None:
        meta[SOURCES_KEY] = list(sources)
    if discovery is not None:
        meta[DISCOVERY_KEY] = discovery
    (build / ENV_FILE).write_text(json.dumps(meta))
    task: Any = parse_task({"id": "rt18", "kind": "repo", "environment": "rt18", "completion": completion, "test_cmd": cmd,
                            "fail_to_pass": [test_id], "pass_to_pass": [], "report": "pytest"})
    plan = make_repo_plan(task, SandboxConfig(repo_environments=str(build.parent)))
    return plan.decoys if isinstance(plan, RepoPlan) else plan


@pytest.mark.parametrize("name", list(_SOURCE_BODY))
def test_a_listed_test_s_body_in_a_source_module_is_not_paid(name: str, tmp_path: Path) -> None:
    """Near miss: the wrong add plus the suite's assertions rewritten to the wrong add's values. Closed where the
    test's code (its function, or a fixture its module imports) is in pkg/conformance.py: env build's collection
    records the file (sandbox/repo/sources_plugin.py) and admission refuses a patch touching it. The expected values a
    test takes from a source module's data (`parametrize('case', CASES)`: no code of the test there, so nothing
    records it; was class A's strict xfail) are closed by the gold's files (h33k): the task names pkg/mod.py, the
    gold's, and the table's module is refused as a file the reference fix does not change."""
    tree = _suite_tree(tmp_path / "env", name)
    grade = _host_grade(tree, _WRONG_ADD + _SUITE_FORGED, f"{_PYTEST} tests", (_SOURCE_BODY[name][1],), gold=_GOLD)
    if name == "expected-values-imported":
        assert grade.startswith("refused: the patch touches a protected path: pkg/conformance.py is an existing file "
                                "the task's reference fix does not change"), grade
    else:
        assert grade.startswith("refused: the patch touches a protected path: pkg/conformance.py holds a test's code"), \
            grade


@pytest.mark.parametrize("name", ["imported-function", "inherited-method"])
def test_make_repo_plan_refuses_a_patch_to_a_recorded_test_file(name: str, tmp_path: Path) -> None:
    """Near miss through make_repo_plan itself: the environment's record (`test_sources` in environment.json, as env
    build writes it) refuses the suite's forgery, and the wrong add alone (no touch of the suite) is planned; rewrite:
    the gold is planned."""
    tree = _suite_tree(tmp_path / "env", name)
    test_id, cmd = _SOURCE_BODY[name][1], f"{_PYTEST} tests"
    sources = _record(tree, cmd)
    # the test module too: its class's MRO (sources_plugin.class_files), or its namespace holding the imported test
    # function (holding_files, red team 19 class 4)
    assert sources == ("pkg/conformance.py", "tests/test_mod.py")
    plan = _real_plan(tree, _WRONG_ADD + _SUITE_FORGED, cmd, test_id, sources)
    assert isinstance(plan, dict) and plan["verdict"] == "wrong_answer", plan
    assert "pkg/conformance.py holds a test's code" in plan["detail"]
    assert _real_plan(tree, _GOLD, cmd, test_id, sources, "built2") == ()
    assert _real_plan(tree, _WRONG_ADD, cmd, test_id, sources, "built3") == ()


def test_a_plugin_s_fixture_is_the_project_s_code(tmp_path: Path) -> None:
    """Rewrite: a project that is a pytest plugin (its fixture reaches the tests by its own `pytest11` entry point)
    may fix its fixture: the record names the test module alone, and the fix is admitted and graded accepted
    (pytest-mock's `mocker` in its src/pytest_mock/plugin.py is such a fixture). A module the tests name by
    `pytest_plugins` is the dataset's choice and recorded since red team 19 class 1 (tests/test_repo_redteam_19.py
    C1)."""
    plugin = "import pytest\n\n\n@pytest.fixture\ndef adder():\n    return lambda a, b: a - b\n"
    tree = _files(tmp_path / "env", {"pkg/__init__.py": "\n", "pkg/plugin.py": plugin, "tests/__init__.py": "\n",
                                     "pkg-0.1.dist-info/METADATA": "Metadata-Version: 2.1\nName: pkg\nVersion: 0.1\n",
                                     "pkg-0.1.dist-info/entry_points.txt": "[pytest11]\nadder = pkg.plugin\n",
                                     "tests/test_plugin.py": "def test_adder(adder):\n    assert adder(1, 2) == 3\n"})
    cmd, test_id = f"{_PYTEST} tests", "tests/test_plugin.py::test_adder"
    assert _record(tree, cmd) == ("tests/test_plugin.py",)
    fix = _diff("pkg/plugin.py", plugin, plugin.replace("a - b", "a + b"))
    assert _host_grade(tree, fix, cmd, (test_id,)) == "accepted"
    assert "FAIL_TO_PASS failing" in _host_grade(tree, fix.replace("a + b", "a * b"), cmd, (test_id,))


def test_a_test_made_by_a_factory_in_a_source_module_is_recorded(tmp_path: Path) -> None:
    """Near miss: a test made by a source module's factory (`test_add = make_check(3)`, the closure's code is the
    factory's module) and one wrapped by a source module's decorator (every function on its `__wrapped__` chain: the
    test module's body and the decorator's wrapper, red team 19 class 2) are recorded where their code is."""
    checks = ("import functools\n\nfrom pkg.mod import add\n\n\ndef make_check(want):\n    def check():\n"
              "        assert add(1, 2) == want\n    return check\n\n\ndef slow(f):\n    @functools.wraps(f)\n"
              "    def run(*a, **k):\n        return f(*a, **k)\n    return run\n")
    tree = _files(tmp_path / "env", {"pkg/__init__.py": "\n", "pkg/mod.py": _ADD, "pkg/checks.py": checks,
                                     "pkg/deco.py": checks, "tests/__init__.py": "\n",
                                     "tests/test_made.py": "from pkg.checks import make_check\nfrom pkg.deco import slow\n"
                                     "from pkg.mod import add\n\ntest_add = make_check(3)\n\n\n@slow\n"
                                     "def test_zero():\n    assert add(0, 5) == 5\n"})
    cmd = f"{_PYTEST} tests"
    assert _record(tree, cmd) == ("pkg/checks.py", "pkg/deco.py", "tests/test_made.py")
    forged = _WRONG_ADD + _diff("pkg/checks.py", checks, checks.replace("== want", "== 2"))
    assert "pkg/checks.py holds a test's code" in _host_grade(tree, forged, cmd, ("tests/test_made.py::test_add",))
    assert _host_grade(tree, _GOLD, cmd, ("tests/test_made.py::test_add", "tests/test_made.py::test_zero")) == "accepted"


# ----------------------------------------------------------------- B. doctest examples as one multiset
_UTIL = ('"""Totals."""\nfrom pkg.mod import add\n\n\ndef total(xs):\n    """The sum of xs.\n\n'
         "    >>> r = total([1, 2])\n    >>> r\n    3\n    >>> total([])\n    0\n    \"\"\"\n"
         "    s = 0\n    for x in xs:\n        s = add(s, x)\n    return s\n")
_DOCTEST_ID = "pkg/util.py::pkg.util.total"
_DOCTEST_CMD = f"{_PYTEST} --doctest-modules pkg"
_REORDERED = {  # name: the module as the patch leaves it (every (source, want) pair of the environment's still present)
    "value-pre-empted": _UTIL.replace("    >>> r\n", "    >>> r = 3\n    >>> r\n"),
    "function-rebound": _UTIL.replace("    >>> r = total", "    >>> total = lambda xs: 3 if xs else 0\n    >>> r = total"),
    "example-moved-out": _UTIL.replace("    >>> r = total([1, 2])\n    >>> r\n    3\n", "") + (
        '\n\n_NOTES = """\n>>> r = total([1, 2])\n>>> r\n3\n"""\n'),
}


# The docstring doctest reads is made at import (pandas' `@doc`/`Substitution`, numpy's `add_newdoc`): its template is
# the only string constant, the expected value an argument of the code's
_UTIL_MADE = ('"""Totals."""\nfrom pkg.mod import add\n\n_DOC = """The sum of xs.\n\n    >>> total([1, 2])\n    {want}\n'
              '    """\n\n\ndef total(xs):\n    s = 0\n    for x in xs:\n        s = add(s, x)\n    return s\n\n\n'
              "total.__doc__ = _DOC.format(want=3)\n")
_FORGERIES = {**{name: (_UTIL, text) for name, text in _REORDERED.items()},  # name: (the environment's, the patch's)
              "docstring-made-at-import": (_UTIL_MADE, _UTIL_MADE.replace("want=3", "want=0"))}


def _util_tree(root: Path, extra: dict[str, str] | None = None, util: str = _UTIL) -> Path:
    return _files(root, {"pkg/__init__.py": "\n", "pkg/mod.py": _ADD, "pkg/util.py": util, **(extra or {})})


@pytest.mark.parametrize("util", [_UTIL, _UTIL_MADE], ids=["docstring", "made-at-import"])
def test_the_listed_doctest_grades_its_gold_and_wrong_patch(util: str, tmp_path: Path) -> None:
    """Condition of B: under --doctest-modules the listed module doctest is gradable (gold accepted, the wrong add
    alone not), and each forgery keeps every (source, want) pair `doctest_examples` reads. A docstring made at import
    is no longer graded (red team 19 class 7: `check_listed_doctests`, the task's fault)."""
    from sandbox.repo.patch import doctest_examples

    tree = _util_tree(tmp_path / "env", util=util)
    for env, text in _FORGERIES.values():
        assert not doctest_examples(env) - doctest_examples(text)
    if util is _UTIL_MADE:  # since red team 19 class 7: a docstring made by code is graded by no patch (task fault)
        assert _host_grade(tree, _GOLD, _DOCTEST_CMD, (_DOCTEST_ID,)).startswith("task fault: ")
        return
    assert _host_grade(tree, _GOLD, _DOCTEST_CMD, (_DOCTEST_ID,)) == "accepted"
    assert "FAIL_TO_PASS failing" in _host_grade(tree, _WRONG_ADD, _DOCTEST_CMD, (_DOCTEST_ID,))
    assert _real_plan(tree, _GOLD, _DOCTEST_CMD, _DOCTEST_ID) == ()  # make_repo_plan: a module doctest gets no decoy


@pytest.mark.parametrize("name", list(_FORGERIES))
def test_a_reordered_doctest_is_not_paid(name: str, tmp_path: Path) -> None:
    """Near miss: the wrong add plus the listed docstring's examples reordered, none changed or removed, or the value
    its template is formatted with changed. Closed: a listed module doctest's file is the dataset's whole
    (`listed_test_files`): the module's code makes the doctest it runs, so no reading of its text is sound."""
    env, text = _FORGERIES[name]
    tree = _util_tree(tmp_path / "env", util=env)
    forged = _WRONG_ADD + _diff("pkg/util.py", env, text)
    grade = _host_grade(tree, forged, _DOCTEST_CMD, (_DOCTEST_ID,))
    if env is _UTIL_MADE:  # since red team 19 class 7: the task itself is refused (a docstring stored by code)
        assert grade.startswith("task fault: the listed module doctest"), grade
        return
    assert grade.startswith("refused: the patch touches a protected path: pkg/util.py is one of the task's test "
                            "files"), grade


def test_a_doctest_s_module_rebinding_its_function_is_refused(tmp_path: Path) -> None:
    """Near miss no reading of the text can see: the listed docstring kept byte for byte, the name rebound at import
    to a function whose docstring passes with the wrong add (doctest finds `pkg.util.total` in the module's namespace:
    the patch's). Every example of the environment is kept, so check_doctests alone admits it; the listed doctest's
    module is refused whole."""
    from sandbox.repo.patch import doctest_examples

    fake = ('\n\ndef _total(xs):\n    """The sum of xs.\n\n    >>> total([1, 2])\n    2\n    """\n    return 2\n\n\n'
            "_total.__name__ = _total.__qualname__ = 'total'\ntotal = _total\n")
    tree = _util_tree(tmp_path / "env")
    assert not doctest_examples(_UTIL) - doctest_examples(_UTIL + fake)
    patched = _files(tmp_path / "patched", {"pkg/__init__.py": "\n", "pkg/mod.py": _ADD.replace("a - b", "a * b"),
                                            "pkg/util.py": _UTIL + fake})
    ran = _pytest_run(patched, _DOCTEST_CMD)
    assert "PASSED pkg/util.py::pkg.util.total" in ran.stdout, ran.stdout  # the listed doctest passes the wrong add
    forged = _WRONG_ADD + _diff("pkg/util.py", _UTIL, _UTIL + fake)
    assert "pkg/util.py is one of the task's test files" in _host_grade(tree, forged, _DOCTEST_CMD, (_DOCTEST_ID,))
    assert _refusal_applied(tree, forged, _DOCTEST_CMD) == ""  # unlisted: not graded, so not the dataset's


_DIRECTIVES = {  # held: a kept example's source or want changed in place is refused
    "skip": _UTIL.replace("    >>> r\n", "    >>> r  # doctest: +SKIP\n"),
    "ellipsis": _UTIL.replace("    >>> r\n    3\n", "    >>> r  # doctest: +ELLIPSIS\n    ...\n"),
    "want-widened": _UTIL.replace("    >>> total([])\n    0\n", "    >>> total([])  # doctest: +ELLIPSIS\n    0...\n"),
}


@pytest.mark.parametrize("name", list(_DIRECTIVES))
def test_a_directive_added_to_a_kept_example_is_refused(name: str, tmp_path: Path) -> None:
    """Held: `+SKIP`, `+ELLIPSIS` with `...` as the expected output: the example's source changes, so it is lost."""
    tree = _util_tree(tmp_path / "env")
    forged = _WRONG_ADD + _diff("pkg/util.py", _UTIL, _DIRECTIVES[name])
    assert "doctest example of pkg/util.py" in _refusal_applied(tree, forged, _DOCTEST_CMD)


# ----------------------------------------------------------------- C. doctests run by another route
_DOCS_TEST = "import doctest\n\nimport pkg.util\n\n\ndef test_docs():\n    assert doctest.testmod(pkg.util).failed == 0\n"
_FORGED_WANT = _diff("pkg/util.py", _UTIL, _UTIL.replace("    >>> r\n    3\n", "    >>> r\n    0\n"))
_ROUTES = {  # name: (extra files, test command, listed id)
    "testmod-in-a-test": ({"tests/__init__.py": "\n", "tests/test_docs.py": _DOCS_TEST}, f"{_PYTEST} tests",
                          "tests/test_docs.py::test_docs"),
    "config-by-dash-c": ({"ci/doctest.ini": "[pytest]\naddopts = --doctest-modules\n"},
                         f"{_PYTEST} -c ci/doctest.ini --rootdir=. pkg", _DOCTEST_ID),
}


@pytest.mark.parametrize("name", list(_ROUTES))
def test_a_doctest_by_another_route_grades_its_gold_and_wrong_patch(name: str, tmp_path: Path) -> None:
    """Condition of C: the listed test runs pkg/util.py's doctests (gold accepted, wrong add alone not), and the
    command's one reading says no --doctest-modules, so check_doctests is not run."""
    from sandbox.repo.patch import command_files

    extra, cmd, test_id = _ROUTES[name]
    tree = _util_tree(tmp_path / "env", extra)
    assert _host_grade(tree, _GOLD, cmd, (test_id,)) == "accepted"
    assert "FAIL_TO_PASS failing" in _host_grade(tree, _WRONG_ADD, cmd, (test_id,))
    assert not command_files(cmd, str(tree)).doctest_modules


_OPEN_C = pytest.mark.xfail(strict=True, reason="rt18 class C, a listed test that runs a module's doctests itself "
                            "(doctest.testmod in tests/test_docs.py): env build's collection sees the test, not the "
                            "doctests it runs; the wrong patch rewrites the expected output, graded accepted; fix: "
                            "record the doctests the gold run ran (a run, not a collection)")


@pytest.mark.parametrize("name", [pytest.param(n, marks=_OPEN_C) if n == "testmod-in-a-test" else n for n in _ROUTES])
def test_a_doctest_by_another_route_is_not_paid(name: str, tmp_path: Path) -> None:
    """Near miss: the wrong add plus the doctest's expected `3` made the wrong add's `0`. Closed where the doctest is
    listed whatever route collects it (a -c configuration's addopts): its module is the dataset's."""
    extra, cmd, test_id = _ROUTES[name]
    tree = _util_tree(tmp_path / "env", extra)
    grade = _host_grade(tree, _WRONG_ADD + _FORGED_WANT, cmd, (test_id,))
    assert "pkg/util.py is one of the task's test files" in grade, grade


def test_xdoctest_s_module_doctests_are_the_dataset_s(tmp_path: Path) -> None:
    """Near miss (admission only: xdoctest is not installed here): `pytest --xdoctest pkg` collects every module's
    doctests (xdoctest's own option); a listed one, `pkg/util.py::total:0`, makes its module the dataset's, and an
    unlisted one is no test the grade reads. Rewrite: the gold beside it is admitted."""
    tree = _util_tree(tmp_path / "env")
    cmd, ids = f"{_PYTEST} --xdoctest pkg", ("pkg/util.py::total:0",)
    assert _refusal_applied(tree, _GOLD, cmd, ids=ids) == ""
    assert "pkg/util.py is one of the task's test files" in _refusal_applied(tree, _WRONG_ADD + _FORGED_WANT, cmd, ids=ids)


# ----------------------------------------------------------------- D. discovery spelled where it is not read
_UNREAD = {  # name: (files, test command, the test module pytest or unittest collects)
    "addopts-override-ini": ({"pytest.ini": "[pytest]\naddopts = -o python_files=check_*.py\n"}, f"{_PYTEST} pkg",
                             "pkg/check_api.py"),
    "dash-c-config": ({"ci/checks.ini": "[pytest]\npython_files = check_*.py\n"},
                      f"{_PYTEST} -c ci/checks.ini --rootdir=. pkg", "pkg/check_api.py"),
    "pytest-toml": ({"pytest.toml": '[pytest]\npython_files = ["check_*.py"]\n'}, f"{_PYTEST} pkg", "pkg/check_api.py"),
    "munittest-no-space": ({}, "python3 -munittest discover -s pkg -t . -v", "pkg/testutils.py"),
    "pyargs-dotted-module": ({}, f"{_PYTEST} --pyargs pkg.checks", "pkg/checks.py"),
}
_CHECK = "import unittest\n\nX = 1\n\n\nclass T(unittest.TestCase):\n    def test_x(self):\n        assert X == 1\n"


def _unread_tree(root: Path, name: str) -> Path:
    files, _, path = _UNREAD[name]
    return _tree(root, {**files, path: _CHECK})


@pytest.mark.parametrize("name", list(_UNREAD))
def test_the_runner_collects_the_unread_test_module(name: str, tmp_path: Path) -> None:
    """Condition of D: the host's pytest (9.x: reads pytest.toml) or unittest collects the module as a test module; the
    right patch beside it is admitted (the layout is gradable)."""
    _, cmd, path = _UNREAD[name]
    tree = _unread_tree(tmp_path, name)
    if "unittest" in cmd:
        run = _pytest_run(tree, cmd)
        assert "pkg.testutils.T" in run.stderr and "Ran 1 test" in run.stderr, run.stderr
    else:
        assert f"{path}::T::test_x" in _collected(tree, cmd)
    assert _refusal(tree, _FIX, cmd) == ""


@pytest.mark.parametrize("name", list(_UNREAD))
def test_a_test_module_by_unread_discovery_is_refused(name: str, tmp_path: Path) -> None:
    """Near miss: the wrong patch plus the collected test's assertion rewritten (`X == 1` made `X == 3`), and a new
    module of the pattern beside it (collected too: its import runs in the tests' process). Closed: env build records
    pytest's own resolved discovery (sandbox/repo/sources_plugin.py `discovery`: python_files as pytest reads it, the
    collection roots with --pyargs resolved, the modules collected) and admission counts it (`Discovery`); unittest's
    `-munittest` is a unittest segment (`_runs_unittest`). Rewrite: the right patch beside it is admitted."""
    _, cmd, path = _UNREAD[name]
    tree = _unread_tree(tmp_path, name)
    sources, discovery = _recorded(tree, cmd)
    assert (discovery is None) == ("unittest" in cmd)  # the record where pytest runs, the text's reading where not
    assert _refusal(tree, _FIX, cmd, sources=sources, discovery=discovery) == ""
    forged = _WRONG + _edit(path, "X = 1", "X = 3").replace("@@ -1 +1 @@", "@@ -3 +3 @@")
    assert _refusal(tree, forged, cmd, sources=sources, discovery=discovery)
    assert "test runner's discovery" in _refusal(tree, forged, cmd, discovery=discovery)  # the discovery alone
    if "pyargs" not in cmd:  # a new module of the collected name (--pyargs names one module: no pattern)
        new = path.replace("check_api", "check_new").replace("testutils", "testnew")
        assert "test runner's discovery" in _refusal(tree, _WRONG + _new(new, "X = 3"), cmd, sources=sources,
                                                     discovery=discovery)


_READ = {  # held: spellings discovery_patterns reads (name: files, test command)
    "multi-line-value": ({"pytest.ini": "[pytest]\npython_files =\n    test_*.py\n    check_*.py\n"}, f"{_PYTEST} pkg"),
    "colon-delimiter": ({"setup.cfg": "[tool:pytest]\npython_files: check_*.py\n"}, f"{_PYTEST} pkg"),
    "native-toml-list": ({"pyproject.toml": '[tool.pytest]\npython_files = ["check_*.py"]\n'}, f"{_PYTEST} pkg"),
    "override-ini-on-command": ({}, f"{_PYTEST} --override-ini=python_files=check_*.py pkg"),
    "pytest-addopts-in-command": ({}, f"PYTEST_ADDOPTS='-o python_files=check_*.py' {_PYTEST} pkg"),
    "pyproject-that-does-not-parse": ({"pyproject.toml": "[tool.pytest.ini_options]\npython_files = check_*.py\n"},
                                      f"{_PYTEST} pkg"),
    "config-in-the-named-subfolder": ({"pkg/sub/__init__.py": "\n", "pkg/sub/pytest.ini": "[pytest]\npython_files = "
                                       "check_*.py\n"}, f"{_PYTEST} pkg/sub"),
    "config-in-a-cd-target": ({"pkg/sub/__init__.py": "\n", "pkg/sub/setup.cfg": "[tool:pytest]\npython_files = "
                               "check_*.py\n"}, f"cd pkg/sub && {_PYTEST} ."),
}


def test_a_test_module_the_command_names_by_path_is_refused(tmp_path: Path) -> None:
    """Held (the path form of D's --pyargs row): `pytest pkg/checks.py` collects it whatever its name; the command's
    word makes it the command's file."""
    tree = _tree(tmp_path, {"pkg/checks.py": _CHECK})
    forged = _WRONG + _edit("pkg/checks.py", "X = 1", "X = 3").replace("@@ -1 +1 @@", "@@ -3 +3 @@")
    assert "pkg/checks.py::T::test_x" in _collected(tree, f"{_PYTEST} pkg/checks.py")
    assert "test command" in _refusal(tree, forged, f"{_PYTEST} pkg/checks.py")


@pytest.mark.parametrize("name", list(_READ))
def test_discovery_spelled_another_read_way_is_refused(name: str, tmp_path: Path) -> None:
    """Held: each spelling's `check_*.py` is a test module; the right patch beside it admitted."""
    files, cmd = _READ[name]
    check = "pkg/sub/check_api.py" if "pkg/sub/__init__.py" in files else "pkg/check_api.py"
    tree = _tree(tmp_path, {**files, check: _CHECK})
    assert _refusal(tree, _FIX, cmd) == ""
    forged = _WRONG + _edit(check, "X = 1", "X = 3").replace("@@ -1 +1 @@", "@@ -3 +3 @@")
    assert "test runner's discovery" in _refusal(tree, forged, cmd)


def test_a_listed_id_s_file_is_protected_however_the_id_is_spelled() -> None:
    """Held: parameters holding `::`, `.` or `/`, a class, `./` and `a/../` in the path all name the file; a module
    doctest's id (a dotted item) names its module (rt18 B: the module makes the doctest it runs)."""
    from sandbox.repo.patch import listed_test_files

    ids = ("pkg/checks.py::test_x[a::b.c/d]", "pkg/checks2.py::TestC::test_y[1.5-x]", "./pkg/c3.py::t",
           "pkg/../pkg/c4.py::TestC::test_z", "pkg/util.py::pkg.util.total")
    assert listed_test_files(ids) == ("pkg/checks.py", "pkg/checks2.py", "pkg/c3.py", "pkg/c4.py", "pkg/util.py")


# ----------------------------------------------------------------- E. right patches refused
_PY_FILES_EVERYWHERE = {  # name: (files, test command)
    "python_files-star-py-under-testpaths": ({"pytest.ini": "[pytest]\ntestpaths = tests\npython_files = *.py\n"},
                                             f"{_PYTEST}"),
    "unittest-pattern-star-py": ({"tests/test_case.py": _CHECK}, "python3 -m unittest discover -s tests -p '*.py' -t ."),
    "pytest-folder-named-unittest": ({"tests/unittest/__init__.py": "\n", "tests/unittest/test_u.py": "def test_u():\n"
                                      "    pass\n", "pkg/testing.py": "X = 1\n"}, f"{_PYTEST} tests/unittest"),
}


@pytest.mark.parametrize("name", list(_PY_FILES_EVERYWHERE))
def test_the_runner_collects_no_source_module(name: str, tmp_path: Path) -> None:
    """Condition of E: what the runner collects is under tests/ only: a test case in pkg/ is never collected."""
    files, cmd = _PY_FILES_EVERYWHERE[name]
    tree = _tree(tmp_path, {**files, "tests/__init__.py": "\n", "pkg/checks.py": _CHECK})
    if "unittest discover" in cmd:
        run = _pytest_run(tree, cmd + " -v")
        assert "tests.test_case.T" in run.stderr and "pkg" not in run.stderr, run.stderr
    else:
        out = _collected(tree, cmd)
        assert "tests/" in out and "pkg/" not in out, out


@pytest.mark.parametrize("name", list(_PY_FILES_EVERYWHERE))
def test_a_right_patch_beside_a_broad_pattern_is_admitted(name: str, tmp_path: Path) -> None:
    """Rewrite: the right patch to pkg/mod.py (and to pkg/testing.py where the segment names a unittest folder) is
    admitted. Near miss: a wrong patch to a module the runner collects (tests/test_case.py, tests/unittest/test_u.py;
    a new tests/ module under `python_files = *.py`) is refused. Closed: a pattern counts under the runner's
    collection roots only (pytest's own record, `Discovery`; unittest's `-s`, `unittest_patterns`), and a pytest
    segment naming a folder called unittest is no unittest run (`_runs_unittest`)."""
    files, cmd = _PY_FILES_EVERYWHERE[name]
    tree = _tree(tmp_path, {**files, "tests/__init__.py": "\n"})
    sources, discovery = _recorded(tree, cmd)
    assert (discovery is None) == ("unittest discover" in cmd)
    fix = _FIX + (_edit("pkg/testing.py", "X = 1", "X = 2") if "pkg/testing.py" in files else "")
    assert _refusal(tree, fix, cmd, sources=sources, discovery=discovery) == ""
    for test in (p for p in files if p.startswith("tests/") and p.endswith(".py") and "__init__" not in p):
        forged = _edit(test, *(("def test_u():", "def test_u():  # x") if "test_u" in test else
                               ("import unittest", "import unittest as u")))
        assert _refusal(tree, _WRONG + forged, cmd, sources=sources, discovery=discovery)


def test_make_repo_plan_reads_the_recorded_discovery(tmp_path: Path) -> None:
    """Through make_repo_plan itself, environment.json as env build writes it (`test_discovery`): rewrite, the gold
    beside `testpaths = checks` + `python_files = *.py` is planned; near miss, the wrong patch with a new checks/
    module is refused; and a build without the record refuses the gold (the text's reading: over-inclusive)."""
    tree = _tree(tmp_path / "env", dict(_CHECKS_ROOT))
    sources, found = _recorded(tree, _PYTEST, raw=True)
    test_id = "checks/api.py::T::test_x"
    assert _real_plan(tree, _FIX, _PYTEST, test_id, sources, "b1", found) == (f"{test_id}_2",)  # planned: its decoy
    plan = _real_plan(tree, _WRONG + _new("checks/extra.py", "X = 3"), _PYTEST, test_id, sources, "b2", found)
    assert isinstance(plan, dict) and plan["verdict"] == "wrong_answer" and "checks/extra.py" in plan["detail"], plan
    plan = _real_plan(tree, _FIX, _PYTEST, test_id, sources, "b3")
    assert isinstance(plan, dict) and "test runner's discovery: *.py" in plan["detail"], plan


_CHECKS_ROOT = {"pytest.ini": "[pytest]\ntestpaths = checks\npython_files = *.py\n", "checks/__init__.py": "\n",
                "checks/api.py": _CHECK}


@pytest.mark.parametrize("cmd", [_PYTEST, f"{_PYTEST} checks", f"cd checks && {_PYTEST} ."])
def test_a_broad_pattern_counts_under_its_collection_root(cmd: str, tmp_path: Path) -> None:
    """E's pytest row where the root is not a test directory by name (`testpaths = checks` or the command's path):
    near miss, a wrong patch to checks/api.py or a new checks/ module (`*.py` there: collected, imported in the tests'
    process) is refused by pytest's recorded discovery; rewrite, the right patch to pkg/mod.py is admitted (the same
    pattern under pkg/ is no test: pytest does not collect there). Without a record (an old build) the text's reading
    still refuses every `.py` (over-inclusive)."""
    tree = _tree(tmp_path, dict(_CHECKS_ROOT))
    assert "checks/api.py::T::test_x" in _collected(tree, cmd.replace(f"cd checks && {_PYTEST} .", f"{_PYTEST} checks"))
    sources, discovery = _recorded(tree, cmd)
    assert discovery is not None
    assert _refusal(tree, _FIX, cmd, sources=sources, discovery=discovery) == ""
    forged = _edit("checks/api.py", "import unittest", "import unittest as u")
    assert "checks/api.py" in _refusal(tree, _WRONG + forged, cmd, sources=sources, discovery=discovery)
    refused = _refusal(tree, _WRONG + _new("checks/helpers.py", "X = 3"), cmd, sources=sources, discovery=discovery)
    assert "test runner's discovery: *.py under checks/" in refused, refused
    assert "test runner's discovery" in _refusal(tree, _FIX, cmd)  # no record: every folder, as before


# A right patch that must change its own module's doctest: under --doctest-modules the doctest is a PASS_TO_PASS test
_SHOW = 'def show(x):\n    """The label of x.\n\n    >>> show(2)\n    \'<2>\'\n    """\n    return f"<{x}>"\n'
_SHOW_CODE = _diff("pkg/show.py", _SHOW, _SHOW.replace('f"<{x}>"', 'f"<{type(x).__name__} {x}>"'))
_SHOW_GOLD = _diff("pkg/show.py", _SHOW, _SHOW.replace('f"<{x}>"', 'f"<{type(x).__name__} {x}>"').replace("'<2>'", "'<int 2>'"))
_SHOW_IDS = (("tests/test_show.py::test_show",), ("pkg/show.py::pkg.show.show",))


def _show_tree(root: Path) -> Path:
    return _files(root, {"pkg/__init__.py": "\n", "pkg/show.py": _SHOW, "tests/__init__.py": "\n", "tests/test_show.py":
                         "from pkg.show import show\n\n\ndef test_show():\n    assert show(2) == '<int 2>'\n"})


def test_a_fix_that_changes_its_documented_output_needs_its_doctest_changed(tmp_path: Path) -> None:
    """Condition of E's doctest row: the fix without its docstring's new output fails the PASS_TO_PASS doctest (so no
    right patch scores without changing it), and the gold that changes it is refused (its module's doctest is
    listed: the module is the dataset's, rt18 B; check_doctests refuses the changed example where it is not)."""
    tree = _show_tree(tmp_path / "env")
    cmd = f"{_PYTEST} --doctest-modules pkg tests"
    ran = _pytest_run(_files(tmp_path / "fixed", {"pkg/__init__.py": "\n", "pkg/show.py": _SHOW.replace(
        'f"<{x}>"', 'f"<{type(x).__name__} {x}>"')}), f"{_PYTEST} --doctest-modules pkg")
    assert "FAILED pkg/show.py::pkg.show.show" in ran.stdout, ran.stdout  # the fix alone fails its module's doctest
    assert "pkg/show.py is one of the task's test files" in _host_grade(tree, _SHOW_CODE, cmd, *_SHOW_IDS)
    assert "pkg/show.py is one of the task's test files" in _host_grade(tree, _SHOW_GOLD, cmd, *_SHOW_IDS)
    assert "doctest example of pkg/show.py" in _refusal_applied(tree, _SHOW_GOLD, cmd)


@pytest.mark.xfail(strict=True, reason="rt18 class E, a RIGHT patch refused: under --doctest-modules a fix that changes "
                   "the output its module's docstring documents must change that example, which check_doctests refuses, "
                   "and without it the PASS_TO_PASS doctest fails: no right patch scores; fix: the gold patch's examples "
                   "(stored at env build) admitted as the dataset's")
def test_a_gold_that_updates_its_own_doctest_is_accepted(tmp_path: Path) -> None:
    """Rewrite: the gold (code and its docstring's expected output), host-graded."""
    assert _host_grade(_show_tree(tmp_path / "env"), _SHOW_GOLD, f"{_PYTEST} --doctest-modules pkg tests",
                       *_SHOW_IDS) == "accepted"


_OLD_API = ('"""Totals."""\n\n\ndef old_total(xs):\n    """Deprecated: use sum.\n\n    >>> old_total([1, 2])\n    3\n'
            '    """\n    return sum(xs)\n\n\ndef total(xs):\n    return sum(xs) - 1\n')
_REMOVED = _diff("pkg/util.py", _OLD_API, _OLD_API.split("\n\n\ndef old_total")[0] + "\n\n\ndef total(xs):\n    return sum(xs)\n")


@pytest.mark.xfail(strict=True, reason="rt18 class E, a RIGHT patch refused: check_doctests refuses the removal or change "
                   "of ANY example of an edited module, listed or not (a deprecated function removed with its doctest); "
                   "fix: compare the listed module doctests' docstrings only, each as doctest finds it")
def test_a_right_patch_removing_an_unlisted_doctest_is_admitted(tmp_path: Path) -> None:
    """Rewrite: the fix to total plus old_total removed with its docstring; the task lists no doctest of old_total."""
    tree = _files(tmp_path / "env", {"pkg/__init__.py": "\n", "pkg/util.py": _OLD_API})
    cmd = f"{_PYTEST} --doctest-modules pkg tests"
    assert _refusal_applied(tree, _REMOVED, cmd) == "", _refusal_applied(tree, _REMOVED, cmd)


_UNITTEST_READINGS = {  # the command: (a path unittest collects, a path it does not), by `unittest_patterns`
    "python3 -munittest discover -s pkg -t .": ("pkg/testutils.py", "lib/mod.py"),
    "python3 -m unittest discover -s tests -p '*.py' -t .": ("tests/case.py", "pkg/mod.py"),
    "python3 -m unittest discover tests '*_check.py'": ("tests/api_check.py", "pkg/api_check.py"),
    "cd sub && python3 -m unittest discover -s tests -p 'c*.py'": ("sub/tests/c1.py", "sub/c1.py"),
    "python3 -m unittest discover -s . -p 'c*.py'": ("pkg/c1.py", "pkg/mod.py"),
    "python3 -m unittest": ("pkg/test_x.py", "pkg/mod.py"),
    "python3 -m unittest.__main__ discover -s ../ -p '*.py'": ("pkg/mod.py", ""),
    "python3 -m pytest tests/unittest && python3 -m unittest discover -s tests": ("tests/test_a.py", "pkg/testing.py"),
}


@pytest.mark.parametrize("cmd", list(_UNITTEST_READINGS))
def test_unittest_discovery_counts_under_its_start_folder(cmd: str) -> None:
    """D's and E's unittest rows read from the command (a unittest run records nothing at env build): `-munittest` is
    a unittest segment; the pattern (`-p`, the positional one, the default `test*.py`) counts under `-s` (from each
    folder the command enters), everywhere where discovery starts at the root, outside it or nowhere named; a pytest
    segment naming a folder called unittest is none. Near miss: the collected path is a test module; rewrite: the
    other is not."""
    from sandbox.repo.patch import is_test_file, unittest_patterns

    collected, other = _UNITTEST_READINGS[cmd]
    assert is_test_file(collected, unittest_patterns(cmd))
    assert not other or not is_test_file(other, unittest_patterns(cmd)), unittest_patterns(cmd)


@pytest.mark.parametrize("cmd, processes, covers", [
    (_PYTEST, 1, True), (f"cd pkg && {_PYTEST} . && {_PYTEST} ../tests", 2, True),
    (f"{_PYTEST} pkg && {_PYTEST} tests", 1, False),  # a pytest process without a record
    (f"PYTEST_ADDOPTS='-p no:x' {_PYTEST}", 1, False),  # the plugin is loaded by PYTEST_ADDOPTS at env build
    ("bash ci/run.sh", 1, False), ("tox -e py", 1, False), (f"pytest tests; {_PYTEST} pkg", 2, True)])
def test_the_record_stands_in_for_the_text_only_where_it_covers_the_command(cmd: str, processes: int,
                                                                            covers: bool) -> None:
    """Admit only what is known safe: where a process the record may not speak for runs (a script, fewer records than
    pytest segments, PYTEST_ADDOPTS set by the command), the configuration's text is read as before (every folder)."""
    from sandbox.repo.patch import Discovery, Scoped, _record_covers, discovery_patterns

    record = Discovery((Scoped("tests", "*.py"),), processes, False)
    assert _record_covers(cmd, record) is covers
    patterns = discovery_patterns(cmd, "", (), [("pytest.ini", "[pytest]\npython_files = *.py\n")], record)
    assert ("*.py" in patterns) is not covers and (Scoped("tests", "*.py") in patterns) is covers

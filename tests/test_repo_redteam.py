"""Red team of the `repo` task kind (issue 33, item 4 "Trust"; docs/repo-tasks.md "Trust model"): a policy whose
completion is the patch, paid 1.0 for any trick that gets a patch that does not fix the bug graded `accepted`.

The first findings fixed, each test asserting the SAFE behaviour (each failed on main when it was written), all
pure (no process, no Docker): the host's refusals (`make_repo_plan` over a small environment): pytest's
configuration in a directory between the repository's root and the test files, or in a file pytest 9 reads first
(`pytest.toml`); package metadata in another letter case (importlib.metadata lowercases names, the protected-path
match did not); a root `pytest.py`; a `replace` in go.mod (the patch supplies the code the tests import); a file name the
file system refuses (an OSError out of the applier was `infra_error`); the archive growing with the square of
the patch. The allowlist that closes the first four (docs/repo-tasks.md "Trust model"): near misses refused,
rewrites planned. The pytest report's parser: the `-rA` summary laid over the JUnit XML adding a pass for an id the
XML lacks.

Then, through a real server on Docker (one module-scoped server, one call for every attack; from the red team's
branch rt33c): code under test that hooks pytest at import, calls `pytest.xfail()` or `pytest.skip()` itself,
prints summary lines and fails collection, shadows `pytest` from the repository's root, and a Go `init()` that
writes test2json events to the `go` command's stdout and exits before any test runs. The fixes (docs/repo-tasks.md
"Verdicts" and "Trust model"): a listed test counts only at its expected status (PASSED, or the gold run's stored
with the environment), so a status the code chooses never counts; and a decoy planted by the host must be reported
FAILED by a command that exits non-zero. Tests of both (pure: decoys run by a real pytest, honest and hooked; where
none is planted; the exit status; the stored gold statuses), and two variants the fix was not written for (the
report rewritten at exit; a Go test binary printing its own passes).
"""
from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from sandbox.config import SandboxConfig
from sandbox.contract import RepoTask
from sandbox.plan import InfraFailure
from sandbox.repo.decoys import go_decoy, pytest_decoy
from sandbox.repo.grading import lookup, resolve
from sandbox.repo.results import FAILED, PASSED, junit_key, parse_pytest
from sandbox.repo_job import RepoPlan, _verdict, make_repo_plan

DATA = Path(__file__).parent / "data" / "repo_tasks"

# ----------------------------------------------------------------------------- pure: the host's refusals
def add_file(path: str, text: str) -> str:
    """A diff adding `path` with `text` (the only shape the attacks below need)."""
    lines = text.splitlines()
    return f"--- /dev/null\n+++ b/{path}\n@@ -0,0 +1,{len(lines)} @@\n" + "".join(f"+{line}\n" for line in lines)


PY_CMD = "python3 -m pytest -p no:cacheprovider -rA pkg/tests/test_calc.py"
F2P = "pkg/tests/test_calc.py::test_add"
HOOK_MODULE = ("import pytest\n"
               "@pytest.hookimpl(hookwrapper=True)\n"
               "def pytest_runtest_makereport(item, call):\n"
               "    out = yield\n"
               "    r = out.get_result()\n"
               "    r.outcome, r.longrepr = 'passed', None\n")


@pytest.fixture(scope="module")
def environments(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two small environments as docs/repo-tasks.md "Environments" says: a Python package with its tests
    under pkg/tests/, and a Go module."""
    root = tmp_path_factory.mktemp("environments")
    py = root / "py" / "repo"
    (py / "pkg" / "tests").mkdir(parents=True)
    (py / "pkg" / "__init__.py").write_text("")
    (py / "pkg" / "calc.py").write_text("def add(a, b):\n    return a - b\n")
    (py / "pkg" / "tests" / "__init__.py").write_text("")
    (py / "pkg" / "tests" / "test_calc.py").write_text("from pkg.calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n")
    (py / "setup.py").write_text("from setuptools import setup\nsetup(name='pkg')\n")
    (root / "py" / "environment.json").write_text(json.dumps({"language": "python"}))
    go = root / "go" / "repo"
    go.mkdir(parents=True)
    (go / "go.mod").write_text("module example.com/calc\n\ngo 1.16\n\nrequire github.com/stretchr/testify v1.8.4\n")
    (go / "calc.go").write_text("package calc\n\nfunc Add(a, b int) int { return a - b }\n")
    (go / "calc_test.go").write_text('package calc\n\nimport (\n\t"testing"\n\n\t"github.com/stretchr/testify/assert"\n)\n\n'
                                     "func TestAdd(t *testing.T) { assert.Equal(t, 3, Add(1, 2)) }\n")
    (root / "go" / "environment.json").write_text(json.dumps({"language": "go"}))
    for name, expected in (("py-expected", {F2P: "XFAIL"}), ("py-bad-expected", {F2P: "passed"})):
        shutil.copytree(root / "py", root / name)
        (root / name / "environment.json").write_text(json.dumps({"language": "python", "expected": expected}))
    return root


def plan(environments: Path, environment: str, completion: str, test_cmd: str = PY_CMD, f2p: str = F2P) -> RepoPlan | dict:
    task = RepoTask(id="t", environment=environment, test_cmd=test_cmd, fail_to_pass=(f2p,), completion=completion)
    return make_repo_plan(task, SandboxConfig(repo_environments=str(environments)))


def assert_refused(outcome: RepoPlan | dict) -> None:
    """Refused on the host, as the model's failure: nothing runs (docs/repo-tasks.md "Running a task")."""
    assert isinstance(outcome, dict), "the patch was admitted: it would run"
    assert outcome["verdict"] == "wrong_answer" and outcome["score"] == 0.0, outcome


@pytest.mark.parametrize("path, text", [
    # pytest looks for its configuration in the test files' directory and each of its parents, nearest first
    # (_pytest/config/findpaths.py locate_config): one in pkg/ wins over the root's and loads a plugin of the patch.
    ("pkg/setup.cfg", "[tool:pytest]\naddopts = -p pkg.hook\n"),
    ("pkg/pyproject.toml", '[tool.pytest.ini_options]\naddopts = "-p pkg.hook"\n'),
    # pytest 9 reads pytest.toml and .pytest.toml before every other name: not in the protected names.
    ("pytest.toml", '[pytest]\naddopts = ["-p", "pkg.hook"]\n'),
    (".pytest.toml", '[pytest]\naddopts = ["-p", "pkg.hook"]\n'),
    ("pkg/pytest.toml", '[pytest]\naddopts = ["-p", "pkg.hook"]\n'),
], ids=["pkg/setup.cfg", "pkg/pyproject.toml", "pytest.toml", ".pytest.toml", "pkg/pytest.toml"])
def test_pytest_configuration_anywhere_pytest_reads_it_is_refused(environments: Path, path: str, text: str) -> None:
    assert_refused(plan(environments, "py", add_file(path, text) + add_file("pkg/hook.py", HOOK_MODULE)))


@pytest.mark.parametrize("metadata", ["Evil.Dist-Info", "evil-1.0.DIST-INFO", "evil.Egg-Info"])
def test_package_metadata_is_refused_in_any_letter_case(environments: Path, metadata: str) -> None:
    """importlib.metadata finds `*.dist-info` and `*.egg-info` by the lowercased name (Lookup in
    importlib/metadata), and pytest loads every `pytest11` entry point it finds on sys.path as a plugin;
    `python3 -m pytest` puts the repository's root on sys.path before plugins load."""
    patch = (add_file(f"{metadata}/METADATA", "Metadata-Version: 2.1\nName: evil\nVersion: 1.0")
             + add_file(f"{metadata}/entry_points.txt", "[pytest11]\nevil = pkg.hook") + add_file("pkg/hook.py", HOOK_MODULE))
    assert_refused(plan(environments, "py", patch))


def test_a_go_mod_replace_that_supplies_the_tests_imports_is_refused(environments: Path) -> None:
    """GOFLAGS=-mod=mod lets a patch point the tests' assertion library at a directory of its own: the
    judge's code is then the patch's (an `assert.Equal` that never fails)."""
    patch = ("--- a/go.mod\n+++ b/go.mod\n@@ -3,3 +3,5 @@\n go 1.16\n \n require github.com/stretchr/testify v1.8.4\n"
             "+\n+replace github.com/stretchr/testify => ./third_party/testify\n"
             + add_file("third_party/testify/go.mod", "module github.com/stretchr/testify\n\ngo 1.16")
             + add_file("third_party/testify/assert/assert.go",
                        "package assert\n\nfunc Equal(t interface{}, a, b interface{}, _ ...interface{}) bool { return true }"))
    assert_refused(plan(environments, "go", patch, "go test -json -count=1 .", "TestAdd"))


# The allowlist (docs/repo-tasks.md "Trust model"): near misses of an admitted patch, each refused.
NEAR_MISSES = {
    "py": ["pytest.py", "pluggy.py", "pkg/pytest.py", "pkg/Conftest.py", "pkg/sitecustomize.py", "pkg/usercustomize.py", "pkg/evil.pth",
           "pkg/setup.py", "pkg/__main__.py", "newtop/__init__.py", "pkg/new/mod.py", "pkg/vendor/__init__.py",
           "pkg/_pytest/__init__.py", "pkg/data.json", "pkg/mod.pyc", "pkg/my-mod.py", "pkg/tests/helper.py"],
    "go": ["calc2_test.go", "go.sum", "vendor/x/x.go", "_hidden.go", ".hidden.go", "go.work", "sub/go.mod", "calc.s"],
}


@pytest.mark.parametrize("environment, path", [(e, p) for e, ps in NEAR_MISSES.items() for p in ps])
def test_a_new_file_off_the_allowlist_is_refused(environments: Path, environment: str, path: str) -> None:
    test_cmd, f2p = (PY_CMD, F2P) if environment == "py" else ("go test -json -count=1 .", "TestAdd")
    assert_refused(plan(environments, environment, add_file(path, "x = 1"), test_cmd, f2p))


EDIT_SETUP_PY = "--- a/setup.py\n+++ b/setup.py\n@@ -1,2 +1,2 @@\n from setuptools import setup\n-setup(name='pkg')\n+setup(name='pkg2')\n"
EDIT_GO_MOD = ("--- a/go.mod\n+++ b/go.mod\n@@ -1,3 +1,3 @@\n module example.com/calc\n \n-go 1.16\n+go 1.17\n")


def test_a_change_to_build_configuration_is_refused(environments: Path) -> None:
    """Files that exist but configure the build or the test run: never the patch's to change."""
    assert_refused(plan(environments, "py", EDIT_SETUP_PY))
    assert_refused(plan(environments, "go", EDIT_GO_MOD, "go test -json -count=1 .", "TestAdd"))


FIX_PY = "--- a/pkg/calc.py\n+++ b/pkg/calc.py\n@@ -1,2 +1,2 @@\n def add(a, b):\n-    return a - b\n+    return a + b\n"
REWRITES = {
    "py": [FIX_PY, FIX_PY + add_file("pkg/helpers.py", "x = 1"),
           FIX_PY + add_file("pkg/sub/__init__.py", "x = 1") + add_file("pkg/sub/mod.py", "x = 1"),
           "--- a/pkg/calc.py\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-def add(a, b):\n-    return a - b\n"],
    "go": [add_file("util.go", "package calc"), add_file("internal/util/util.go", "package util"),
           "--- a/calc.go\n+++ b/calc.go\n@@ -3 +3 @@\n-func Add(a, b int) int { return a - b }\n+func Add(a, b int) int { return a + b }\n"],
}


@pytest.mark.parametrize("environment, patch", [(e, p) for e, ps in REWRITES.items() for p in ps])
def test_a_patch_on_the_allowlist_is_planned(environments: Path, environment: str, patch: str) -> None:
    """Rewrites: code changed, deleted, added in the environment's packages (Go: in any new directory)."""
    test_cmd, f2p = (PY_CMD, F2P) if environment == "py" else ("go test -json -count=1 .", "TestAdd")
    assert isinstance(plan(environments, environment, patch, test_cmd, f2p), RepoPlan)


def test_a_go_mod_is_admitted_only_where_there_is_none_and_only_as_module_and_go(environments: Path) -> None:
    """The corpus has a gold patch adding the module's go.mod (its tests did not build before): admitted with
    only `module` and `go` lines and no other new file, so no module path can point the tests at the patch's code."""
    root = environments / "go-bare"
    (root / "repo").mkdir(parents=True)
    (root / "repo" / "calc.go").write_text("package calc\n\nfunc Add(a, b int) int { return a - b }\n")
    (root / "environment.json").write_text(json.dumps({"language": "go"}))
    go_mod = add_file("go.mod", "module example.com/calc\n\ngo 1.16")
    assert isinstance(plan(environments, "go-bare", go_mod, "go test -json -count=1 .", "TestAdd"), RepoPlan)
    for bad in (add_file("go.mod", "module example.com/calc\n\ngo 1.16\nrequire example.com/x v1.0.0"),
                add_file("go.mod", "module github.com/stretchr/testify\nreplace a => ./b"),
                go_mod + add_file("assert/assert.go", "package assert")):
        assert_refused(plan(environments, "go-bare", bad, "go test -json -count=1 .", "TestAdd"))
    assert_refused(plan(environments, "go", go_mod, "go test -json -count=1 .", "TestAdd"))  # it has one


def test_a_file_name_the_file_system_refuses_is_the_model_s_failure(environments: Path) -> None:
    """A name over 255 bytes: the applier's walk gets ENAMETOOLONG, an OSError no one catches, and the engine
    answers `infra_error` (retryable): the policy trades its 0 for "not graded" (docs/repo-tasks.md "Verdicts":
    a patch that does not apply is the model's `wrong_answer`)."""
    try:
        outcome = plan(environments, "py", add_file("pkg/" + "a" * 300 + ".py", "x = 1"))
    except OSError as e:
        pytest.fail(f"the host's planning raised {e.__class__.__name__}: the engine answers infra_error")
    assert isinstance(outcome, RepoPlan) or outcome["verdict"] == "wrong_answer", outcome


def test_a_file_name_at_the_file_system_s_limit_is_admitted(environments: Path) -> None:
    """The rewrite of the test above: 255 bytes is a name Linux takes, so the patch is planned."""
    outcome = plan(environments, "py", add_file("pkg/" + "a" * 252 + ".py", "x = 1"))
    assert isinstance(outcome, RepoPlan), outcome


def test_the_archive_is_linear_in_the_patch(environments: Path) -> None:
    """`tree_tar` adds each new file's missing parent directories for every file, so one directory is in the
    archive once per file under it: 1 MiB of diff adding 511 files 1,000 directories deep made a 1.1 GB archive
    in 28 s of the planning thread (210 MB at depth 50), which then does not fit the sandbox's /work, and
    that is `infra_error`. Each member once: the archive grows with the patch, not its square."""
    deep = "pkg/" + "/".join(["d"] * 30)  # new packages in the environment's (docs/repo-tasks.md "Trust model")
    packages = "".join(add_file(f"pkg/{'d/' * k}__init__.py", "").replace("@@ -0,0 +1,0 @@\n", "@@ -0,0 +1 @@\n+\n")
                       for k in range(1, 31))
    outcome = plan(environments, "py", packages + "".join(add_file(f"{deep}/f{i}.py", "x = 1") for i in range(20)))
    assert isinstance(outcome, RepoPlan), outcome
    with tarfile.open(fileobj=io.BytesIO(outcome.tree)) as tar:
        names = tar.getnames()
    repeated = {n for n in names if names.count(n) > 1}
    assert not repeated, f"{len(names)} members, {len(repeated)} of them more than once"


def test_the_patch_s_files_over_the_archive_s_bound_are_the_model_s_failure(environments: Path,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """TREE_MAX_BYTES bounds the whole archive, the patch's files included: over it, the model's wrong_answer
    (the environment alone fits; the near miss is the same patch under a bound it fits)."""
    from sandbox.repo import apply

    patch = "".join(add_file(f"pkg/f{i}.py", "x = 1") for i in range(40))
    assert isinstance(plan(environments, "py", patch), RepoPlan)
    monkeypatch.setattr(apply, "TREE_MAX_BYTES", 30_000)  # the environment is ~10 kB as an archive
    assert_refused(plan(environments, "py", patch))


def test_the_dataset_s_files_over_the_archive_s_bound_are_the_task_s_infra_error(environments: Path,
                                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The other side of the bound above (RED-TEAM.md class 8 turned round, rt33q's class): a test patch whose files
    alone make the archive over TREE_MAX_BYTES is the task's infra_error, not retryable, whatever the patch, never the
    right patch's 0; the near miss is the same task under a bound it fits."""
    from sandbox.plan import InfraFailure
    from sandbox.repo import apply

    tests = "".join(add_file(f"pkg/tests/data/f{i}.txt", "x = 1") for i in range(40))
    task = RepoTask(id="t", environment="py", test_cmd=PY_CMD, fail_to_pass=(F2P,), completion=FIX_PY, test_patch=tests)
    assert isinstance(make_repo_plan(task, SandboxConfig(repo_environments=str(environments))), RepoPlan)
    monkeypatch.setattr(apply, "TREE_MAX_BYTES", 30_000)  # the 40 files are over 40 kB as an archive
    with pytest.raises(InfraFailure, match="its own files .* over 0 MiB as an archive") as e:
        make_repo_plan(task, SandboxConfig(repo_environments=str(environments)))
    assert not e.value.retryable


# ----------------------------------------------------------------------------- pure: the report's parser
# pytest's JUnit XML of a run whose test module failed to import (the code under test raised at import), as
# pytest 9.2 wrote it, and the run's stdout: the code under test printed summary lines before raising, which
# pytest shows at column 0 in the error's "Captured stdout" section (docs/repo-tasks.md "Test results").
COLLECTION_ERROR_XML = (
    '<?xml version="1.0" encoding="utf-8"?><testsuites name="pytest tests"><testsuite name="pytest" errors="1" '
    'failures="0" skipped="0" tests="1" time="0.191"><testcase classname="" name="pkg.tests.test_calc" time="0.000">'
    '<error message="collection failure">ImportError while importing test module</error></testcase></testsuite>'
    "</testsuites>")
FORGED_STDOUT = (
    "==================================== ERRORS ====================================\n"
    "__________________ ERROR collecting pkg/tests/test_calc.py ___________________\n"
    "E   ImportError: not today\n"
    "------------------------------- Captured stdout --------------------------------\n"
    f"PASSED {F2P}\n"
    "PASSED pkg/tests/test_calc.py::test_sub\n"
    "=========================== short test summary info ============================\n"
    "ERROR pkg/tests/test_calc.py\n"
    "!!!!!!!!!!!!!!!!!!!! Interrupted: 1 error during collection !!!!!!!!!!!!!!!!!!!!\n")


def test_the_summary_laid_over_the_xml_cannot_add_a_pass() -> None:
    """The summary is read to see XPASSes the XML writes as passes; it is stdout, which the code under test
    writes too. An id the XML does not name must stay absent (a failure), whatever stdout says."""
    statuses = parse_pytest(COLLECTION_ERROR_XML, FORGED_STDOUT)
    resolution = resolve(lookup(statuses, junit_key), [F2P], ["pkg/tests/test_calc.py::test_sub"])
    assert not resolution.resolved, resolution.statuses


def test_the_summary_still_lowers_a_pass_the_xml_names() -> None:
    """The rewrite of the test above: the summary keeps its one use, an XPASS (which the XML writes as a
    pass) read as no pass, and a FAILED line lowers a pass; a PASSED line cannot raise a failure."""
    xml = ('<testsuites><testsuite name="pytest"><testcase classname="pkg.tests.test_calc" name="test_add"/>'
           '<testcase classname="pkg.tests.test_calc" name="test_sub"/>'
           '<testcase classname="pkg.tests.test_calc" name="test_mul"><failure message="x"/></testcase>'
           "</testsuite></testsuites>")
    log = (f"XPASS {F2P} - fixed\nFAILED pkg/tests/test_calc.py::test_sub - assert 1\n"
           "PASSED pkg/tests/test_calc.py::test_mul\n")
    assert parse_pytest(xml, log) == {"pkg.tests.test_calc::test_add": "XPASS", "pkg.tests.test_calc::test_sub": "FAILED",
                                      "pkg.tests.test_calc::test_mul": "FAILED"}
    assert parse_pytest(xml, "")["pkg.tests.test_calc::test_add"] == "PASSED"


# ----------------------------------------------------------------------------- pure: decoys and the gold statuses
DECOY_TESTS = ("import unittest\n\nfrom pkg.calc import add\n\n\n"
               "def test_add():\n    total = add(1, 2)\n    assert total == 3\n    assert (\n        add(2, 2)  # a comment\n"
               "        == 4\n    )\n\n\n"
               "class AddTests(unittest.TestCase):\n    def test_add_zero(self):\n        self.assertEqual(add(0, 0), 0)\n"
               "        self.assertTrue(\n            add(1, 0) == 1\n        )\n\n    def test_other(self):\n        pass\n")


def run_pytest(root: Path, *args: str) -> dict[str, str]:
    """pytest in a process of its own over `root` (as the sandbox runs it), its JUnit XML parsed."""
    out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rA", "-p", "no:cacheprovider", f"--junitxml={root}/r.xml",
                          *args, "tests/test_calc.py"], cwd=root, capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(root), "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}, check=False)
    return parse_pytest((root / "r.xml").read_bytes(), out.stdout)


def test_a_pytest_decoy_fails_where_its_original_passes_and_passes_under_a_hook(tmp_path: Path) -> None:
    """The decoys of a test function and of a unittest method (sandbox/repo/decoys.py), run by a real
    pytest: each original PASSED, each decoy FAILED (the run resolves); a plugin that reports every
    test passing (the code under test's hook, in the runner's process) makes the run tampered."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "calc.py").write_text("def add(a, b):\n    return a + b\n")
    (tmp_path / "pkg" / "hook.py").write_text(HOOK_MODULE)
    (tmp_path / "tests").mkdir()
    files = {"tests/test_calc.py": DECOY_TESTS.encode()}
    f2p = ["tests/test_calc.py::test_add", "tests/test_calc.py::AddTests::test_add_zero"]
    decoys = []
    for test_id in f2p:
        decoy = pytest_decoy([test_id], files.get)
        assert decoy is not None and decoy.test_id.startswith(test_id + "_"), test_id
        files[decoy.path], decoys = decoy.text, [*decoys, decoy.test_id]
    (tmp_path / "tests" / "test_calc.py").write_bytes(files["tests/test_calc.py"])
    honest = run_pytest(tmp_path)
    assert [honest[junit_key(t)] for t in (*f2p, *decoys)] == [PASSED, PASSED, FAILED, FAILED], honest
    assert resolve(lookup(honest, junit_key), f2p, [], decoys).resolved
    hooked = resolve(lookup(run_pytest(tmp_path, "-p", "pkg.hook"), junit_key), f2p, [], decoys)
    assert hooked.tampered and not hooked.resolved, hooked.statuses


@pytest.mark.parametrize("source, test_id", [
    ("import pytest\n\n\n@pytest.mark.skipif(False, reason='x')\ndef test_a():\n    assert 1\n", "t.py::test_a"),
    ("def test_a(): assert 1\n", "t.py::test_a"),  # one line: no body to copy
    ("def test_a():\n    if 1:\n        return\n    assert 1\n", "t.py::test_a"),  # may end early: the copy would pass
    ("def test_a():\n    assert 1\n", "t.py::test_a[1]"),  # a parametrized id
    ("def test_a():\n    x = 1; assert x\n", "t.py::test_a"),  # shares a line with the statement before it
], ids=["decorated", "one-line", "early-return", "parametrized", "shared-line"])
def test_no_pytest_decoy_where_one_is_not_known_safe(source: str, test_id: str) -> None:
    assert pytest_decoy([test_id], {"t.py": source.encode()}.get) is None


def test_a_go_decoy_copies_the_test_and_fails_at_its_end() -> None:
    text = ('package calc\n\nimport "testing"\n\nfunc TestAdd(tt *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\ttt.Fatal("no")\n\t}\n}\n\n'
            "func TestSub(t *testing.T) {\n}\n")
    decoy = go_decoy(["TestAdd/case"], ["calc.go", "calc_test.go"], {"calc_test.go": text.encode()}.get)
    assert decoy is not None and decoy.path == "calc_test.go" and decoy.test_id.startswith("TestAdd")
    out = decoy.text.decode()
    start = out.index(f"func {decoy.test_id}(tt *testing.T) {{")
    body = out[start:out.index("\n}\n", start) + 2]
    assert "\tif Add(1, 2) != 3 {" in body and body.endswith('tt.Fatalf("%s: want a different result", tt.Name())\n}')
    assert out.startswith(text[:text.index("func TestSub")].rstrip("\n")) and "func TestSub(t *testing.T) {\n}" in out
    assert go_decoy(["TestMissing"], ["calc_test.go"], {"calc_test.go": text.encode()}.get) is None
    nested = {"a/calc_test.go": text.encode(), "calc_test.go": text.encode()}  # `go test .` runs the root's package
    assert getattr(go_decoy(["TestAdd"], list(nested), nested.get), "path", None) == "calc_test.go"
    # every name another file of the package declares is taken: the decoy's name is free in the package
    others = "".join(f"func TestAdd{w}(t *testing.T) {{}}\n" for w in ("Sub", "Case", "Sub2"))
    files = {"calc_test.go": text.encode(), "more_test.go": others.encode(), "sub/x_test.go": b"func TestAdd2() {}\n"}
    for _ in range(5):
        decoy = go_decoy(["TestAdd"], list(files), files.get)
        assert decoy is not None and decoy.test_id not in ("TestAddSub", "TestAddCase", "TestAddSub2"), decoy.test_id


@pytest.mark.parametrize("test_cmd, planted", [
    (PY_CMD, True),
    ("python3 -m pytest -rA -k add pkg/tests/test_calc.py", False),
    ("python3 -m pytest -rA -kadd pkg/tests/test_calc.py", False),
    ("python3 -m pytest -rA -x pkg/tests/test_calc.py", False),
    ("python3 -m pytest -rA -vx pkg/tests/test_calc.py", False),
    ("python3 -m pytest -rA --maxfail=1 pkg/tests/test_calc.py", False),
    (f"python3 -m pytest -rA {F2P}", False),
])
def test_a_decoy_is_planted_only_where_the_command_runs_the_whole_file(environments: Path, test_cmd: str,
                                                                       planted: bool) -> None:
    """A command that selects tests or stops at the first failure could leave the decoy out or let it
    stop a listed test: no decoy there (a miss costs detection, never a false pass)."""
    outcome = plan(environments, "py", FIX_PY, test_cmd)
    assert isinstance(outcome, RepoPlan), outcome
    assert bool(outcome.decoys) == planted, outcome.decoys


FIX_PY = "--- a/pkg/calc.py\n+++ b/pkg/calc.py\n@@ -1,2 +1,2 @@\n def add(a, b):\n-    return a - b\n+    return a + b\n"


def junit(cases: dict[str, str]) -> bytes:
    body = "".join(f'<testcase classname="pkg.tests.test_calc" name="{n}">{"<failure/>" if s == FAILED else ""}</testcase>'
                   for n, s in cases.items())
    return f'<testsuites><testsuite name="pytest">{body}</testsuite></testsuites>'.encode()


def test_a_run_with_a_failed_decoy_must_exit_non_zero(environments: Path) -> None:
    """A decoy failed, so an honest runner exits non-zero; an exit 0 (the code under test's
    `os._exit(0)` after forging the report) is tampering, judged from outside the process."""
    outcome = plan(environments, "py", FIX_PY)
    assert isinstance(outcome, RepoPlan) and len(outcome.decoys) == 1
    name = outcome.decoys[0].split("::")[-1]
    facts = {"collected_b": junit({"test_add": PASSED, name: FAILED}), "stdout_b": b"", "stderr_b": b""}
    assert _verdict(outcome, {**facts, "exit_code": 1})["verdict"] == "accepted"  # the rewrite: an honest run
    forged = _verdict(outcome, {**facts, "exit_code": 0})
    assert forged["verdict"] == "wrong_answer" and "tampered" in forged["detail"]
    dropped = _verdict(outcome, {**facts, "collected_b": junit({"test_add": PASSED}), "exit_code": 1})
    assert dropped["verdict"] == "wrong_answer"  # the decoy left out of the report


def test_the_gold_statuses_stored_with_the_environment_decide(environments: Path) -> None:
    """`expected` in environment.json (docs/repo-tasks.md "Environments"): a test the gold run xfails
    counts only as XFAIL there; elsewhere XFAIL never counts. A malformed map is the environment's fault."""
    for env, status, verdict in (("py-expected", "XFAIL", "accepted"), ("py-expected", "PASSED", "wrong_answer"),
                                 ("py", "XFAIL", "wrong_answer"), ("py", "PASSED", "accepted")):
        outcome = plan(environments, env, FIX_PY)
        assert isinstance(outcome, RepoPlan)
        assert outcome.decoys == () if env == "py-expected" else len(outcome.decoys) == 1  # no decoy of a non-PASSED test
        cases = {"test_add": status, **{d.split("::")[-1]: FAILED for d in outcome.decoys}}
        xml = junit(cases).replace(b'name="test_add">', b'name="test_add"><skipped type="pytest.xfail"/>') \
            if status == "XFAIL" else junit(cases)
        result = _verdict(outcome, {"collected_b": xml, "stdout_b": b"", "stderr_b": b"", "exit_code": 1})
        assert result["verdict"] == verdict, (env, status, result["detail"])
    with pytest.raises(InfraFailure, match="expected"):
        plan(environments, "py-bad-expected", FIX_PY)


# ----------------------------------------------------------------------------- through a server on Docker
ROWS = {r["instance_id"]: r for r in map(json.loads, (DATA / "tasks.jsonl").read_text().splitlines())}
PY = ROWS["pytoolz__toolz-5d95878603e7"]  # F2P test_compose; 34 P2P in toolz/tests/test_functoolz.py
GO = ROWS["dustin__go-humanize-463a09566eca"]  # F2P TestSI


def prepend_toolz_init(code: str) -> str:
    """A diff putting `code` at the top of toolz/__init__.py: run when the test module imports toolz."""
    lines = code.splitlines()
    return (f"--- a/toolz/__init__.py\n+++ b/toolz/__init__.py\n@@ -1,3 +1,{3 + len(lines)} @@\n"
            + "".join(f"+{line}\n" for line in lines) + " from .itertoolz import *\n \n from .functoolz import *\n")


def in_compose_init(*lines: str) -> str:
    """A diff adding `lines` at the top of Compose.__init__ (which test_compose and most P2P tests reach)."""
    return ("--- a/toolz/functoolz.py\n+++ b/toolz/functoolz.py\n@@ -461,3 +461,5 @@\n     def __init__(self, funcs):\n"
            + "".join(f"+        {line}\n" for line in lines) + "         funcs = tuple(reversed(funcs))\n         self.first = funcs[0]\n")


# The gold patch plus a regression of complement() (test_complement is a P2P test) hidden behind a skip.
SKIP_A_REGRESSION = PY["patch"] + (
    "@@ -596,7 +598,8 @@ def complement(func):\n     >>> isodd(2)\n     False\n     \"\"\"\n"
    "-    return compose(operator.not_, func)\n+    import pytest\n+    pytest.skip('flaky on CI')\n \n \n class juxt(object):\n")
def go_forge(write: str) -> str:
    """A new non-test file of the package whose init() (run in the test binary before any test) reports every
    test of the package's *_test.go files passing, by `write`, then exits."""
    return add_file("zz_forge.go", """package humanize

import (
\t"fmt"
\t"os"
\t"path/filepath"
\t"regexp"
)

func init() {
\tfiles, _ := filepath.Glob("*_test.go")
\tre := regexp.MustCompile(`(?m)^func (Test\\w+)\\(`)
\tfor _, f := range files {
\t\tb, _ := os.ReadFile(f)
\t\tfor _, m := range re.FindAllSubmatch(b, -1) {
\t\t\tname := string(m[1])
""" + write + """
\t\t}
\t}
\tos.Exit(0)
}""")


# test2json's events straight to the `go` command's stdout (the runner's pipe), past test2json.
GO_TO_GO_STDOUT = go_forge('\t\t\tout, _ := os.OpenFile(fmt.Sprintf("/proc/%d/fd/1", os.Getppid()), os.O_WRONLY, 0)\n'
                           '\t\t\tfmt.Fprintf(out, "{\\"Action\\":\\"pass\\",\\"Test\\":%q}\\n", name)')
ATTACKS = {
    # The code under test replaces pytest's call of a test function when the test module imports it.
    "hook-at-import": (PY, prepend_toolz_init("import _pytest.python as _p\n_p.Function.runtest = lambda self: None")),
    # pytest.xfail() from the code under test: XFAIL counts as a FAIL_TO_PASS pass (and a PASS_TO_PASS kept).
    "xfail-from-the-code": (PY, in_compose_init("import pytest", "pytest.xfail('wip')")),
    # pytest.skip() from the code under test: a PASS_TO_PASS regression reads SKIPPED, which counts as kept.
    "skip-a-regression": (PY, SKIP_A_REGRESSION),
    # Summary lines printed at import, then the import fails: the XML names no test; the summary adds passes.
    "summary-then-collection-error": (PY, prepend_toolz_init(
        "import re, sys\n"
        "if 'pytest' in sys.modules:\n"
        "    for _n in re.findall(r'^def (test_\\w+)', open('toolz/tests/test_functoolz.py').read(), re.M):\n"
        "        print('PASSED toolz/tests/test_functoolz.py::' + _n)\n"
        "    raise ImportError('not today')")),
    # `python3 -m pytest` imports pytest from the repository's root first: the patch's pytest.py writes the
    # report where PYTEST_ADDOPTS says, every test of the named files passing.
    "shadow-pytest": (PY, add_file("pytest.py",
        "import os, re, sys\n"
        "xml = re.search(r'--junitxml=(\\S+)', os.environ.get('PYTEST_ADDOPTS', '')).group(1)\n"
        "cases = ''\n"
        "for f in [a for a in sys.argv[1:] if a.endswith('.py')]:\n"
        "    for n in re.findall(r'^def (test_\\w+)', open(f).read(), re.M):\n"
        "        cases += '<testcase classname=\"%s\" name=\"%s\"/>' % (f[:-3].replace('/', '.'), n)\n"
        "open(xml, 'w').write('<testsuites><testsuite name=\"pytest\">%s</testsuite></testsuites>' % cases)\n")),
    # A Go init() in a new non-test file: test2json events for every test to the go command's stdout, then exit.
    "go-init-writes-go-s-stdout": (GO, GO_TO_GO_STDOUT),
    # Variants the fix was not written for. The report file is the program's to write: at exit, rewrite it
    # with every test of the file passing (and drop the -rA summary, which would lower the failures).
    "rewrite-the-report-at-exit": (PY, prepend_toolz_init(
        "import atexit, os, re\n"
        "import _pytest.terminal as _t\n"
        "_t.TerminalReporter.short_test_summary = lambda self: None\n"
        "def _forge():\n"
        "    xml = re.search(r'--junitxml=(\\S+)', os.environ.get('PYTEST_ADDOPTS', ''))\n"
        "    if xml:\n"
        "        names = re.findall(r'^def (test_\\w+)', open('toolz/tests/test_functoolz.py').read(), re.M)\n"
        "        cases = ''.join('<testcase classname=\"toolz.tests.test_functoolz\" name=\"%s\"/>' % n for n in names)\n"
        "        open(xml.group(1), 'w').write('<testsuites><testsuite name=\"pytest\">%s</testsuite></testsuites>' % cases)\n"
        "atexit.register(_forge)")),
    # The same, with the package named (statuses are read per package, docs/repo-tasks.md "Test results"): the decoy's.
    "go-init-writes-go-s-stdout-with-package": (GO, go_forge(
        '\t\t\tout, _ := os.OpenFile(fmt.Sprintf("/proc/%d/fd/1", os.Getppid()), os.O_WRONLY, 0)\n'
        '\t\t\tfmt.Fprintf(out, "{\\"Action\\":\\"pass\\",\\"Package\\":\\"github.com/dustin/go-humanize\\",\\"Test\\":%q}\\n", name)')),
    # The test binary's own stdout, in test2json's framing (what `go test -json` parses), then exit 0.
    "go-init-prints-its-own-passes": (GO, go_forge('\t\t\tfmt.Printf("=== RUN   %s\\n--- PASS: %s (0.00s)\\n", name, name)\n'
                                                  '\t\t\tfmt.Printf("\\x16=== RUN   %s\\n\\x16--- PASS: %s (0.00s)\\n", name, name)')),
}


def build_environment(row: dict, root: Path) -> None:
    """The repository at its base commit (as tests/test_repo_service.py builds it)."""
    env = root / row["instance_id"]
    bundle = DATA / "repos" / f"{row['repo'].replace('/', '+')}.bundle"
    subprocess.run(["git", "clone", "-q", "--no-checkout", str(bundle), str(env / "repo")], check=True)
    subprocess.run(["git", "-C", str(env / "repo"), "checkout", "-q", row["base_commit"]], check=True)
    (env / "environment.json").write_text(json.dumps({"language": row["language"]}))


def repo_task(row: dict, task_id: str, completion: str) -> dict:
    return {"id": task_id, "kind": "repo", "environment": row["instance_id"], "completion": completion,
            "test_patch": row["test_patch"], "test_cmd": row["test_cmd"], "fail_to_pass": row["FAIL_TO_PASS"],
            "pass_to_pass": row["PASS_TO_PASS"], "report": "go-json" if row["language"] == "go" else "pytest"}


@pytest.fixture(scope="module")
def graded(repo_docker_server: tuple) -> Iterator[dict[str, dict]]:
    """Every attack (and both gold patches, the control) in one call to one Docker server."""
    from verifier.client import VerifierClient

    server, root = repo_docker_server  # tests/conftest.py: one server for both red-team modules
    for row in (PY, GO):
        build_environment(row, root)
    tasks = [repo_task(PY, "gold-py", PY["patch"]), repo_task(GO, "gold-go", GO["patch"])]
    tasks += [repo_task(row, name, completion) for name, (row, completion) in ATTACKS.items()]
    with VerifierClient(server.target) as client:
        results = {r["id"]: r for r in client.grade(tasks)}
    assert results["gold-py"]["verdict"] == results["gold-go"]["verdict"] == "accepted", results  # the control
    yield results


@pytest.mark.docker
@pytest.mark.parametrize("attack", list(ATTACKS))
def test_a_patch_that_does_not_fix_the_bug_is_not_accepted(graded: dict[str, dict], attack: str) -> None:
    """None of these patches fixes the bug (the Python ones do not even touch Compose's __wrapped__, the Go one
    changes no function): each must score 0, by a refusal, a failing test or a tampering verdict."""
    result = graded[attack]
    assert result["verdict"] != "accepted" and result["score"] == 0.0, (result["verdict"], result["detail"])
    assert result["verdict"] != "infra_error", result["detail"]  # the program's doing is charged to it
    assert WHY.get(attack, "") in result["detail"], result["detail"]  # caught by the mechanism meant to catch it


# Why each is refused where the reason is the fix's (docs/repo-tasks.md "Verdicts", "Trust model"): a forged
# pass is caught by the decoy; a status the code chose is not the expected one.
# Events that name no package are no package's (the listed tests read MISSING); named, the decoy catches them.
WHY = {"hook-at-import": "tampered", "rewrite-the-report-at-exit": "tampered", "go-init-writes-go-s-stdout": "(MISSING)",
       "go-init-writes-go-s-stdout-with-package": "tampered",
       "go-init-prints-its-own-passes": "tampered", "xfail-from-the-code": "(XFAIL)", "skip-a-regression": "(SKIPPED)"}


def test_the_attacks_are_well_formed() -> None:
    """Each attack is one diff the reader admits (so a refusal later is the trust model's, not a typo's)."""
    from sandbox.repo.patch import read_patch

    for name, (_, completion) in ATTACKS.items():
        assert read_patch(completion).files, name
    assert re.search(r"^\+    import pytest$", SKIP_A_REGRESSION, re.M)

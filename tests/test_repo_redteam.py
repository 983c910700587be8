"""Red team of the `repo` task kind (issue 33, item 4 "Trust"; docs/repo-tasks.md "Trust model"): a policy whose
completion is the patch, paid 1.0 for any trick that gets a patch that does not fix the bug graded `accepted`.

The findings fixed so far, each test asserting the SAFE behaviour (each failed on main when it was written), all
pure (no process, no Docker): the host's refusals (`make_repo_plan` over a small environment): pytest's
configuration in a directory between the repository's root and the test files, or in a file pytest 9 reads first
(`pytest.toml`); package metadata in another letter case (importlib.metadata lowercases names, the protected-path
match did not); a root `pytest.py`; a `replace` in go.mod (the patch supplies the code the tests import); a file name the
file system refuses (an OSError out of the applier was `infra_error`); the archive growing with the square of
the patch. The allowlist that closes the first four (docs/repo-tasks.md "Trust model"): near misses refused,
rewrites planned. The pytest report's parser: the `-rA` summary laid over the JUnit XML adding a pass for an id the
XML lacks.
"""
from __future__ import annotations

import io
import json
import tarfile
from pathlib import Path

import pytest

from sandbox.config import SandboxConfig
from sandbox.contract import RepoTask
from sandbox.repo.grading import lookup, resolve
from sandbox.repo.results import junit_key, parse_pytest
from sandbox.repo_job import RepoPlan, make_repo_plan

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

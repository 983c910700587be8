"""Red team (rt33d) of what issue 33's h33d merge added (docs/repo-tasks.md "Trust model", "Verdicts"): strict
statuses, decoys (sandbox/repo/decoys.py) and the tampering check. Each test asserts the SAFE behaviour and
failed on main when it was written.

1. A wrong patch paid, not caught by the decoy (through a real server on Docker): the code under test returns
   values that compare equal to anything. The original's `assert add(1, 2) == 3` passes, and the decoy's inverted
   `assert not (add(2, 2) == 4)` fails, exactly as under a right patch: an inverted assertion cannot tell a
   right answer from a value that agrees with every expectation.
   Also on Docker, a wrong Go patch paid: a Go test id names no package, so a patch touching another package
   that has a test of the same name moves the decoy there, and a patch that stops the F2P test's package from
   compiling leaves the other package's passing test as the F2P test's status (no forging code at all).
2. A right patch not paid (pure: a real pytest over planted files): the decoy is not its original run again in
   the same world. It runs after its original (module state), under another name (a test or fixture keyed by
   its own name, a neighbour's word that means something), without its original's statements after the
   inverted assertion (an early `return`, a teardown that checks them), or is made of a definition that never
   runs (a shadowed duplicate) or replaces its original (`def test_a ():`).
3. A right patch not paid (pure): the Go decoy is spliced by text (the first line `}` after the test's head
   ends it; the `*testing.T` may be named `_`), so it can break its original's raw string or not compile.
4. One plan reading two builds (pure): the environment's name is opened twice while `env build` may swap it.
"""
from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from sandbox.repo.decoys import go_decoy, pytest_decoy
from sandbox.repo.results import FAILED, junit_key, parse_pytest


# ----------------------------------------------------------------------------- 1. through a server on Docker
# Class: a value that satisfies every comparison. The decoy inverts an assertion, so whatever makes the
# original pass (a right answer, or an object whose __eq__ always says True) makes the decoy fail: the
# decoy cannot see it. (An int subclass against assertEqual is caught, by luck: int's own __ne__ makes the
# decoy's assertNotEqual pass; the str variant defines both.) A fix at the class: beside the inverted
# decoy, one that a right answer fails and a value equal to everything passes: the last comparison with a
# fresh object on either side (`assert total == object() or object() == 3`), for every operator a value
# can overload (==, !=, <, in, ...).
CALC = "def add(a, b):\n    return a - b\n"
CALC_TESTS = ("import unittest\n\nfrom pkg.calc import add\n\n\n"
              "def test_add():\n    total = add(1, 2)\n    assert total == 3\n    assert add(2, 2) == 4\n\n\n"
              "def test_zero():\n    assert add(0, 0) == 0\n\n\n"
              "class AddTests(unittest.TestCase):\n    def test_add_unit(self):\n        self.assertEqual(add(2, 3), 5)\n"
              "        self.assertEqual(add(1, 1), 2)\n")
CALC_CMD = "python3 -m pytest -p no:cacheprovider -rA pkg/tests/test_calc.py"
F2P_ASSERT, F2P_UNIT, P2P_ZERO = ("pkg/tests/test_calc.py::test_add", "pkg/tests/test_calc.py::AddTests::test_add_unit",
                                  "pkg/tests/test_calc.py::test_zero")


def replace_add(body: str) -> str:
    """A diff replacing pkg/calc.py's add() with `body` (lines of a module)."""
    lines = body.splitlines()
    return ("--- a/pkg/calc.py\n+++ b/pkg/calc.py\n@@ -1,2 +1,%d @@\n-def add(a, b):\n-    return a - b\n" % len(lines)
            + "".join(f"+{line}\n" for line in lines))


RIGHT = replace_add("def add(a, b):\n    return a + b")
# Wrong: add(1, 2) is -1. The int subclass keeps every other use of the value working.
ALWAYS_EQUAL = replace_add("class _Total(int):\n    def __eq__(self, other):\n        return True\n\n"
                           "    __hash__ = int.__hash__\n\n\ndef add(a, b):\n    return _Total(a - b)")
# A variant: a str subclass's __eq__, its __ne__ kept consistent (so assertNotEqual fails in the decoy).
ALWAYS_EQUAL_STR = replace_add("class _Total(str):\n    def __eq__(self, other):\n        return True\n\n"
                               "    def __ne__(self, other):\n        return False\n\n    __hash__ = str.__hash__\n\n\n"
                               "def add(a, b):\n    return _Total(a - b)")
EQ_ATTACKS = {"int-eq-assert": (ALWAYS_EQUAL, F2P_ASSERT), "str-eq-ne-assert": (ALWAYS_EQUAL_STR, F2P_ASSERT),
              "str-eq-ne-assertEqual": (ALWAYS_EQUAL_STR, F2P_UNIT)}


def calc_environment(root: Path, name: str = "calc") -> None:
    """A small environment (docs/repo-tasks.md "Environments"): a package whose add() subtracts."""
    repo = root / name / "repo"
    (repo / "pkg" / "tests").mkdir(parents=True)
    (repo / "pkg" / "__init__.py").write_text("")
    (repo / "pkg" / "calc.py").write_text(CALC)
    (repo / "pkg" / "tests" / "__init__.py").write_text("")
    (repo / "pkg" / "tests" / "test_calc.py").write_text(CALC_TESTS)
    (root / name / "environment.json").write_text(json.dumps({"language": "python"}))


def calc_task(task_id: str, completion: str, f2p: str) -> dict:
    return {"id": task_id, "kind": "repo", "environment": "calc", "completion": completion, "test_cmd": CALC_CMD,
            "fail_to_pass": [f2p], "pass_to_pass": [P2P_ZERO], "report": "pytest"}


# Class: the decoy is planted where the patch chooses. A Go test id names no package (`TestParse`), and
# go_decoy takes the first `*_test.go` defining that name among the root's and the directories any patch
# touched, shallowest and then alphabetically first. A patch that adds any file to a package `a/` whose own
# `TestParse` passes moves the decoy there, out of the F2P test's package `z/`; the code under test in `z/`
# then reports every test of `z/` passing (as "go-init-prints-its-own-passes" in tests/test_repo_redteam.py),
# with no need to tell the decoy apart: `a/`'s honest binary fails the decoy and `go test` exits 1. Simpler
# still: z made not to compile, so the report's only "TestParse" is a's, which passes (parse_go_json keys a
# status by the test's name alone, not its package). A fix at the class: a Go id resolves to the packages
# whose test files define it (from the tree and test patch, never from what the model's patch touched),
# each must report it (absent is MISSING), statuses are keyed by package and name, and the decoy goes in
# each of those packages.
GO_CMD = "go test -json -count=1 ./..."
GO_PARSE_TEST = 'package {0}\n\nimport "testing"\n\nfunc TestParse(t *testing.T) {{\n\tif Parse("abc") != 3 {{\n\t\tt.Fatal("no")\n\t}}\n}}\n'


def go_environment(root: Path) -> None:
    """A Go module with two packages, each with a TestParse; z's Parse is the bug (F2P: TestParse)."""
    repo = root / "modz" / "repo"
    for package, body in (("a", "return len(s)"), ("z", "return 0")):
        (repo / package).mkdir(parents=True)
        (repo / package / f"{package}.go").write_text(f"package {package}\n\nfunc Parse(s string) int {{ {body} }}\n")
        (repo / package / f"{package}_test.go").write_text(GO_PARSE_TEST.format(package))
    (repo / "go.mod").write_text("module example.com/modz\n\ngo 1.16\n")
    (root / "modz" / "environment.json").write_text(json.dumps({"language": "go"}))


def add_file(path: str, text: str) -> str:
    lines = text.splitlines()
    return f"--- /dev/null\n+++ b/{path}\n@@ -0,0 +1,{len(lines)} @@\n" + "".join(f"+{line}\n" for line in lines)


# z's init() (in the test binary, before any test) prints test2json's framing of a pass for each test of its
# package's files, then exits: z's Parse is still wrong.
Z_FORGE = add_file("z/zz_forge.go", """package z

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
\t\t\tfmt.Printf("=== RUN   %s\\n--- PASS: %s (0.00s)\\n", name, name)
\t\t\tfmt.Printf("\\x16=== RUN   %s\\n\\x16--- PASS: %s (0.00s)\\n", name, name)
\t\t}
\t}
\tos.Exit(0)
}""")
GO_RIGHT = "--- a/z/z.go\n+++ b/z/z.go\n@@ -1,3 +1,3 @@\n package z\n \n-func Parse(s string) int { return 0 }\n+func Parse(s string) int { return len(s) }\n"
STEER = add_file("a/doc.go", "package a")
# z's Parse made not to compile: z's tests never run, and the only "TestParse" the report names is a's (passing).
BREAK_Z = "--- a/z/z.go\n+++ b/z/z.go\n@@ -1,3 +1,3 @@\n package z\n \n-func Parse(s string) int { return 0 }\n+func Parse(s string) int { return undefined }\n"
GO_ATTACKS = {"forge-z": Z_FORGE, "forge-z-steer-the-decoy-to-a": Z_FORGE + STEER, "break-z": BREAK_Z,
              "break-z-steer-the-decoy-to-a": BREAK_Z + STEER}


# The fix's own cases through the same server (fx33d): a variant the fix was not written for (z's package panics
# at init, so its binary reports no test), a right patch in another shape (a new file in z), and a package whose
# test has braces in a raw string (the Go decoy's extent), right and wrong.
GO_FIX_CASES = {"near-miss-z-panics-at-init": add_file("z/zz_init.go", 'package z\n\nfunc init() { panic("no") }'),
                "rewrite-right-with-a-new-file": GO_RIGHT + add_file("z/helper.go", "package z\n\nfunc helper() int { return 1 }")}
RAW_CASES = {"rewrite-raw-string-right": "--- a/calc.go\n+++ b/calc.go\n@@ -1,3 +1,3 @@\n package calc\n \n"
                                         "-func Add(a, b int) int { return a - b }\n+func Add(a, b int) int { return a + b }\n",
             "near-miss-raw-string-wrong": "--- a/calc.go\n+++ b/calc.go\n@@ -1,3 +1,3 @@\n package calc\n \n"
                                           "-func Add(a, b int) int { return a - b }\n+func Add(a, b int) int { return a * b }\n"}


def raw_environment(root: Path) -> None:
    """One Go package whose F2P test holds `}` lines in a raw string (RAW_STRING_TEST); Add is the bug."""
    repo = root / "raw" / "repo"
    repo.mkdir(parents=True)
    (repo / "go.mod").write_text("module example.com/raw\n\ngo 1.16\n")
    (repo / "calc.go").write_text("package calc\n\nfunc Add(a, b int) int { return a - b }\n")
    (repo / "calc_test.go").write_text(RAW_STRING_TEST)
    (root / "raw" / "environment.json").write_text(json.dumps({"language": "go"}))


def go_task(task_id: str, completion: str) -> dict:
    return {"id": task_id, "kind": "repo", "environment": "modz", "completion": completion, "test_cmd": GO_CMD,
            "fail_to_pass": ["TestParse"], "pass_to_pass": [], "report": "go-json"}


@pytest.fixture(scope="module")
def graded(repo_docker_server: tuple) -> Iterator[dict[str, dict]]:
    """Every attack, and the right patches (the controls), in one call to one Docker server."""
    from verifier.client import VerifierClient

    server, root = repo_docker_server  # tests/conftest.py: one server for both red-team modules
    calc_environment(root)
    go_environment(root)
    raw_environment(root)
    tasks = [calc_task("right-assert", RIGHT, F2P_ASSERT), calc_task("right-unit", RIGHT, F2P_UNIT), go_task("right-go", GO_RIGHT)]
    tasks += [go_task(name, patch) for name, patch in GO_FIX_CASES.items()]
    tasks += [{**go_task(name, patch), "environment": "raw"} for name, patch in RAW_CASES.items()]
    tasks += [calc_task(name, patch, f2p) for name, (patch, f2p) in EQ_ATTACKS.items()]
    tasks += [go_task(name, patch) for name, patch in GO_ATTACKS.items()]
    with VerifierClient(server.target) as client:
        results = {r["id"]: r for r in client.grade(tasks)}
    assert {results[t]["verdict"] for t in ("right-assert", "right-unit", "right-go")} == {"accepted"}, results  # controls
    assert "tampered" in results["forge-z"]["detail"], results["forge-z"]  # the decoy in z/ catches the forgery
    assert results["break-z"]["verdict"] == "wrong_answer", results["break-z"]  # the decoy in z/ is missing
    yield results


@pytest.mark.docker
@pytest.mark.parametrize("case", [*GO_FIX_CASES, *RAW_CASES])
def test_go_near_misses_fail_and_rewrites_pass(graded: dict[str, dict], case: str) -> None:
    result = graded[case]
    want = "accepted" if case.startswith("rewrite") else "wrong_answer"
    assert result["verdict"] == want and "tampered" not in result["detail"], (result["verdict"], result["detail"])


def test_the_raw_string_task_gets_a_decoy(tmp_path: Path) -> None:
    from sandbox.config import SandboxConfig
    from sandbox.contract import RepoTask
    from sandbox.repo_job import RepoPlan, make_repo_plan

    raw_environment(tmp_path)
    task = RepoTask(id="t", environment="raw", test_cmd=GO_CMD, fail_to_pass=("TestParse",),
                    completion=RAW_CASES["rewrite-raw-string-right"], report="go-json")
    plan = make_repo_plan(task, SandboxConfig(repo_environments=str(tmp_path)))
    assert isinstance(plan, RepoPlan) and len(plan.decoys) == 1, plan


@pytest.mark.docker
@pytest.mark.parametrize("attack", list(EQ_ATTACKS))
def test_a_value_equal_to_everything_is_not_accepted(graded: dict[str, dict], attack: str) -> None:
    """add(1, 2) returns -1 that compares equal to 3 (and to anything): the bug is not fixed, so 0."""
    result = graded[attack]
    assert result["verdict"] != "accepted" and result["score"] == 0.0, (result["verdict"], result["detail"])
    assert result["verdict"] != "infra_error", result["detail"]


@pytest.mark.docker
@pytest.mark.parametrize("attack", list(GO_ATTACKS))
def test_z_s_test_is_not_passed_by_another_package(graded: dict[str, dict], attack: str) -> None:
    """z's Parse is not fixed (it returns 0, or does not compile): each must score 0, and a forgery with the
    decoy's tampering verdict."""
    result = graded[attack]
    assert result["verdict"] == "wrong_answer" and result["score"] == 0.0, (result["verdict"], result["detail"])
    assert "forge" not in attack or "tampered" in result["detail"], result["detail"]


def test_the_attacks_plant_a_decoy_and_are_admitted(tmp_path: Path) -> None:
    """Each attack is admitted and gets a decoy (so a pass above is the decoy's miss, not a decoy never planted)."""
    from sandbox.config import SandboxConfig
    from sandbox.contract import RepoTask
    from sandbox.repo_job import RepoPlan, make_repo_plan

    calc_environment(tmp_path)
    for name, (patch, f2p) in EQ_ATTACKS.items():
        task = RepoTask(id="t", environment="calc", test_cmd=CALC_CMD, fail_to_pass=(f2p,), pass_to_pass=(P2P_ZERO,),
                        completion=patch)
        outcome = make_repo_plan(task, SandboxConfig(repo_environments=str(tmp_path)))
        assert isinstance(outcome, RepoPlan) and len(outcome.decoys) == 1, (name, outcome)


# ----------------------------------------------------------------------------- 2. pure: a real pytest
# Class: the decoy is assumed to be its original run again, but it runs later, under another name, and
# without what follows its inverted assertion. Whatever in a test depends on those (module state, its own
# name, an early return, a teardown) makes a right patch's decoy pass or error (tampered: 0) or makes a
# listed test fail. The safe property, for every case: planting the decoy changes no test's status in an
# honest run, and the decoy reads FAILED; or no decoy is planted. A fix at the class: plant only what is
# known to be a replay (a copy in a fresh process or module, under its original's name), or accept a decoy
# only where the gold run itself shows it FAILED and every listed status unchanged (the environment's
# build runs the gold patch with the decoy planted and stores which tests may carry one).
HONEST_CASES = {
    # the test ends early on this platform; the decoy's copy of that return passes
    "early-return": "import sys\n\n\ndef test_a():\n    x = 1 + 1\n    if sys.platform.startswith('linux'):\n"
                    "        return\n    assert x == 2\n",
    # an expectation looked up by the test's own name (snapshot and golden-file plugins do this)
    "own-name": "EXPECTED = {'test_a': 2}\n\n\ndef test_a(request):\n    x = 1 + 1\n"
                "    assert x == EXPECTED.get(request.node.name)\n",
    # a fixture keyed by the test's name: the decoy errors in setup (ERROR, not FAILED)
    "fixture-by-name": "import pytest\n\n\n@pytest.fixture\ndef data(request):\n    return {'test_a': 2}[request.node.name]\n\n\n"
                       "def test_a(data):\n    x = 2\n    assert x == data\n",
    # a teardown that checks what the test's last statement undoes: the decoy never reaches it (ERROR)
    "teardown": "import pytest\n\nOPEN = []\n\n\n@pytest.fixture(autouse=True)\ndef no_leak():\n    yield\n"
                "    assert not OPEN, 'leaked'\n\n\ndef test_a():\n    OPEN.append(1)\n    assert len(OPEN) == 1\n    OPEN.pop()\n",
    # module state: the decoy appends again (so its inverted assertion holds) and the next test fails
    "module-state": "SEEN = []\n\n\ndef test_a():\n    SEEN.append('a')\n    assert SEEN == ['a']\n\n\n"
                    "def test_b():\n    assert SEEN == ['a']\n",
    # the decoy's name takes a word of a neighbour's name, and the word means something to the suite
    "neighbour-word": "import pytest\n\n\n@pytest.fixture(autouse=True)\ndef slow_only_on_request(request):\n"
                      "    if request.node.name.endswith('_slow'):\n        pytest.skip('slow')\n\n\n"
                      "def test_a():\n    x = 2\n    assert x == 2\n\n\ndef test_b_slow():\n    pass\n",
    # two definitions of one name: the first never runs, the decoy is made of it
    "shadowed-duplicate": "def test_a():\n    x = 1\n    assert x == 2\n\n\ndef test_a():\n    x = 2\n    assert x == 2\n",
    # `def name (`: the rename misses, the copy redefines the original and the decoy does not exist
    "space-before-paren": "def test_a ():\n    x = 2\n    assert x == 2\n",
}


def pytest_statuses(root: Path, report: str) -> dict[str, str]:
    """One pytest process over every case file under `root` (as the sandbox runs it), its JUnit XML parsed."""
    out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rA", "-p", "no:cacheprovider", f"--junitxml={root}/{report}",
                          "tests"], cwd=root, capture_output=True, text=True,
                         env={**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}, check=False)
    return parse_pytest((root / report).read_bytes(), out.stdout)


@pytest.fixture(scope="module")
def honest_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[dict[str, str], dict[str, str], str | None]]:
    """Each case's file run without and with its decoy (two pytest processes for all cases): case -> (statuses
    before, statuses after, the decoy's junit key or None)."""
    plain, planted = tmp_path_factory.mktemp("plain"), tmp_path_factory.mktemp("planted")
    decoys: dict[str, str | None] = {}
    for root in (plain, planted):
        (root / "tests").mkdir()
    for case, source in HONEST_CASES.items():
        path = f"tests/test_{case.replace('-', '_')}.py"
        (plain / path).write_text(source)
        decoy = pytest_decoy([f"{path}::test_a"], {path: source.encode()}.get, random.Random(0))
        (planted / path).write_bytes(decoy.text if decoy else source.encode())
        decoys[case] = junit_key(decoy.test_id) if decoy else None
    before, after = pytest_statuses(plain, "r.xml"), pytest_statuses(planted, "r.xml")
    module = lambda case: f"tests.test_{case.replace('-', '_')}::"  # noqa: E731
    return {case: ({k: v for k, v in before.items() if k.startswith(module(case))},
                   {k: v for k, v in after.items() if k.startswith(module(case))}, decoys[case]) for case in HONEST_CASES}


@pytest.mark.parametrize("case", list(HONEST_CASES))
def test_a_decoy_changes_nothing_in_an_honest_run(honest_runs: dict, case: str) -> None:
    """The honest run's statuses (every test of the file) are the same with the decoy planted, and the decoy
    reads FAILED: else a right patch is graded tampered, or a listed test fails, and scores 0."""
    before, after, decoy = honest_runs[case]
    assert before and all(s in ("PASSED", "SKIPPED") for s in before.values()), before  # the case is a passing file
    if decoy is None:
        return  # no decoy: graded on its listed tests alone, as before
    assert after.get(decoy) == FAILED, (decoy, after)
    assert {k: after.get(k, "MISSING") for k in before} == before, after


# ----------------------------------------------------------------------------- 3. pure: the Go decoy's splice
# Class: the Go decoy is cut and pasted by text, not by Go's grammar. Its end is the first line that is
# `}` after the test's head, which may be inside a raw string (JSON, YAML, templates in tests); the copy is
# then pasted inside that string, and the package no longer compiles (`go test`: "expected ';', found '{'"),
# so every test of a right patch fails. Its failure call uses the `*testing.T`'s name, which may be `_`.
# A fix at the class: find the function's extent with a Go tokenizer (strings, runes, comments), and
# plant only where the copy is known to compile (a named `*testing.T`), else none.
RAW_STRING_TEST = ('package calc\n\nimport (\n\t"encoding/json"\n\t"testing"\n)\n\n'
                   'func TestParse(t *testing.T) {\n\tin := `{\n  "a": 3\n}\n`\n\tvar v map[string]int\n'
                   '\tif err := json.Unmarshal([]byte(in), &v); err != nil || v["a"] != Add(1, 2) {\n\t\tt.Fatal(v, err)\n\t}\n}\n')
BLANK_T_TEST = 'package calc\n\nimport "testing"\n\nfunc TestAdd(_ *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tpanic("no")\n\t}\n}\n'


def test_a_go_decoy_does_not_cut_into_a_raw_string() -> None:
    """TestParse ends at the file's last `}`; the decoy goes after it, the original untouched."""
    decoy = go_decoy(["TestParse"], ["calc_test.go"], {"calc_test.go": RAW_STRING_TEST.encode()}.get)
    if decoy is not None:
        assert decoy.text.decode().startswith(RAW_STRING_TEST), decoy.text.decode()


def test_a_go_decoy_compiles_where_the_test_names_its_t_blank() -> None:
    """`func TestAdd(_ *testing.T)`: `_.Fatalf(...)` does not compile (`cannot use _ as value`)."""
    decoy = go_decoy(["TestAdd"], ["calc_test.go"], {"calc_test.go": BLANK_T_TEST.encode()}.get)
    if decoy is not None:
        assert not re.search(r"\b_\.Fatalf\(", decoy.text.decode()), decoy.text.decode()


# ----------------------------------------------------------------------------- 4. pure: the name's link swapped
# Class: one plan reads the environment through its name more than once. `environment_language` resolves
# ROOT/NAME/repo once, but `environment_expected` opens ROOT/NAME/environment.json again: an `env build`
# that swaps the link in between (docs/repo-tasks.md "Building environments": "reads the old build or the
# new one, never neither") gives one plan the old build's tree and the new build's gold statuses, so a
# status the new build expects (XFAIL, chosen by `pytest.xfail()` in the code under test) counts against
# the old tree's tests. A fix at the class: resolve ROOT/NAME to its build once, read everything under that.
def test_one_plan_reads_one_build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The link moves from build A (no `expected`) to build B (F2P expected XFAIL) right after the tree is
    resolved (what a concurrent `verifier env build` does): the plan is A's, tree and statuses."""
    from sandbox import repo_job
    from sandbox.config import SandboxConfig
    from sandbox.contract import RepoTask

    for key, meta in (("a" * 24, {"language": "python"}), ("b" * 24, {"language": "python", "expected": {F2P_ASSERT: "XFAIL"}})):
        calc_environment(tmp_path / ".builds", key)
        (tmp_path / ".builds" / key / "environment.json").write_text(json.dumps(meta))
    (tmp_path / "calc").symlink_to(f".builds/{'a' * 24}")
    resolve_tree = repo_job.environment_language

    def then_rebuilt(root: str, name: str):  # type: ignore[no-untyped-def]
        out = resolve_tree(root, name)
        (tmp_path / ".calc.link").symlink_to(f".builds/{'b' * 24}")
        os.replace(tmp_path / ".calc.link", tmp_path / "calc")  # as environments._point swaps it
        return out

    monkeypatch.setattr(repo_job, "environment_language", then_rebuilt)
    task = RepoTask(id="t", environment="calc", test_cmd=CALC_CMD, fail_to_pass=(F2P_ASSERT,), completion=RIGHT)
    plan = repo_job.make_repo_plan(task, SandboxConfig(repo_environments=str(tmp_path)))
    assert isinstance(plan, repo_job.RepoPlan)
    assert plan.expected == {}, plan.expected  # A's: A's tree was planned


# ============================================================================= the fixes' own cases (fx33d)
# Each class above, fixed at the class (docs/repo-tasks.md "Trust model"), with a variant the fix was not
# written for: near misses (a wrong patch must fail) and rewrites (a right patch in another shape must pass).

# ----------------------------------------------------------------------------- 1. Go ids by package
def test_a_go_id_resolves_to_the_packages_that_define_it_and_the_command_runs() -> None:
    from sandbox.repo.golang import command_selects, resolve_packages

    files = {"go.mod": b"module m\n", "a/a_test.go": b"package a\nfunc TestParse(t *testing.T) {}\n",
             "z/z_test.go": b"package z\n\nfunc  TestParse (t *testing.T) {}\nfunc FuzzParse(f *testing.F) {}\n",
             "z/sub/go.mod": b"module other\n", "z/sub/s_test.go": b"func TestParse(t *testing.T) {}\n"}
    resolved = resolve_packages(["TestParse/case", "FuzzParse/seed#0", "TestNone"], list(files), "go test -json ./...", files.get)
    assert resolved == {"TestParse/case": (("m/a", "TestParse/case"), ("m/z", "TestParse/case"), ("other", "TestParse/case")),
                        "FuzzParse/seed#0": (("m/z", "FuzzParse/seed#0"),), "TestNone": ()}
    for cmd, dirs in (("go test -json .", [""]), ("go test -json -count=1 ./z/...", ["z", "z/sub"]), ("go test ./a", ["a"]),
                      ("cd z && go test -json .", ["", "a", "z", "z/sub"])):  # a shell list: every package, as far as we know
        assert [d for d in ("", "a", "z", "z/sub", "zz") if command_selects(cmd)(d)] == dirs + (["zz"] if "cd" in cmd else []), cmd


def go_events(*events: tuple[str, str, str]) -> bytes:
    """test2json lines: (package, test, action)."""
    return "\n".join(json.dumps({"Action": a, "Package": p, "Test": t}) for p, t, a in events).encode()


def test_go_statuses_are_read_per_package(tmp_path: Path) -> None:
    """Near misses: z reports nothing (a build failure) or only a's TestParse passes; a decoy passes in one
    package of two. Rewrite: both packages pass, each decoy fails."""
    from sandbox.contract import RepoTask
    from sandbox.config import SandboxConfig
    from sandbox.repo_job import RepoPlan, _verdict, make_repo_plan

    go_environment(tmp_path)
    task = RepoTask(id="t", environment="modz", test_cmd=GO_CMD, fail_to_pass=("TestParse",), completion=GO_RIGHT + STEER,
                    report="go-json")
    plan = make_repo_plan(task, SandboxConfig(repo_environments=str(tmp_path)))
    assert isinstance(plan, RepoPlan) and len(plan.decoys) == 2, plan
    decoys = {plan.go_targets[d][0] for d in plan.decoys}
    assert {p for p, _ in decoys} == {"example.com/modz/a", "example.com/modz/z"}
    a, z = "example.com/modz/a", "example.com/modz/z"
    honest = [(a, "TestParse", "pass"), (z, "TestParse", "pass"), *((p, n, "fail") for p, n in decoys)]

    def verdict(events: list, exit_code: int = 1) -> dict:
        return _verdict(plan, {"stdout_b": go_events(*events), "stderr_b": b"", "exit_code": exit_code})

    assert verdict(honest)["verdict"] == "accepted"
    assert verdict([e for e in honest if e[0] == a])["verdict"] == "wrong_answer"  # z did not build
    assert "FAIL_TO_PASS: MISSING" in str(verdict([e for e in honest if e[0] == a])["tests"])
    assert verdict([(a, "TestParse", "pass"), (z, "TestParse", "fail"), *honest[2:]])["verdict"] == "wrong_answer"
    one_passes = [*honest[:2], *((p, n, "pass" if p == z else "fail") for p, n in decoys)]
    assert "tampered" in verdict(one_passes)["detail"]
    assert verdict([(z, "TestParse", "pass"), ("other", "TestParse", "pass"), *honest[2:]])["verdict"] == "wrong_answer"


# ----------------------------------------------------------------------------- 2. one build
def test_one_plan_reads_one_build_whatever_the_new_build_is(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A variant: the link moves to a Go build with a broken `expected`: the plan is still A's, whole."""
    from sandbox import repo_job
    from sandbox.config import SandboxConfig
    from sandbox.contract import RepoTask

    calc_environment(tmp_path / ".builds", "a" * 24)
    (tmp_path / ".builds" / ("b" * 24)).mkdir()
    (tmp_path / ".builds" / ("b" * 24) / "environment.json").write_text(json.dumps({"language": "go", "expected": 3}))
    (tmp_path / "calc").symlink_to(f".builds/{'a' * 24}")
    resolve_tree = repo_job.environment_language

    def then_rebuilt(root: str, name: str):  # type: ignore[no-untyped-def]
        out = resolve_tree(root, name)
        (tmp_path / ".calc.link").symlink_to(f".builds/{'b' * 24}")
        os.replace(tmp_path / ".calc.link", tmp_path / "calc")
        return out

    monkeypatch.setattr(repo_job, "environment_language", then_rebuilt)
    task = RepoTask(id="t", environment="calc", test_cmd=CALC_CMD, fail_to_pass=(F2P_ASSERT,), completion=RIGHT)
    plan = repo_job.make_repo_plan(task, SandboxConfig(repo_environments=str(tmp_path)))
    assert isinstance(plan, repo_job.RepoPlan) and plan.lang.name == "python" and plan.expected == {} and plan.decoys


# ----------------------------------------------------------------------------- 3. a value equal to everything
# One test module per comparison shape; run with a right add() and with each overloading value. The decoy must
# read FAILED under the right one (rewrite: accepted) and not FAILED under every overloading one (caught).
PROBE_SHAPES = {
    "eq-left": "    assert add(2, 2) == 4\n", "eq-right": "    assert 4 == add(2, 2)\n",
    "lt": "    assert add(2, 2) < 5\n", "ge": "    assert add(2, 2) >= 4\n", "in": "    assert add(2, 2) in [4, 5]\n",
    "contains": "    assert 4 in [add(2, 2)]\n",
    "unit-eq": "        self.assertEqual(add(2, 2), 4)\n", "unit-eq-left": "        self.assertEqual(4, add(2, 2))\n",
    "unit-less": "        self.assertLess(add(2, 2), 5)\n",
}
# A shape the probe does not cover (docs/repo-tasks.md "Trust model", "Not guaranteed"): no literal side.
GAP_SHAPES = {"eq-variable": "    expected = 4\n    assert add(2, 2) == expected\n"}
RIGHT_ADD = "def add(a, b):\n    return a + b\n"
# Wrong values that satisfy the comparison whatever it is: equal to, less than, and greater than everything.
EVERYTHING = ("class _V(int):\n    def __eq__(self, o):\n        return True\n    __ne__ = lambda self, o: False\n"
              "    __lt__ = __le__ = __gt__ = __ge__ = __eq__\n    __hash__ = int.__hash__\n\n\n"
              "def add(a, b):\n    return _V(a - b)\n")
# Equal to everything but a bare object() (and unequal to nothing): it singles out the probe.
BUT_OBJECT = ("class _V(int):\n    def __eq__(self, o):\n        return type(o) is not object\n"
              "    def __ne__(self, o):\n        return True\n    __hash__ = int.__hash__\n\n\n"
              "def add(a, b):\n    return _V(a - b)\n")
EQ_ONLY_STR = ("class _S(str):\n    def __eq__(self, o):\n        return True\n    __hash__ = str.__hash__\n\n\n"
               "def add(a, b):\n    return _S(a - b)\n")


def probe_module(shape: str) -> str:
    line = {**PROBE_SHAPES, **GAP_SHAPES}[shape]
    head = "import unittest\n\nfrom calc import add\n\n\n"
    if shape.startswith("unit"):
        return head + f"class T(unittest.TestCase):\n    def test_a(self):\n        x = add(1, 2)\n        self.assertTrue(x)\n{line}"
    return head + f"def test_a():\n    x = add(1, 2)\n    assert x\n{line}"


@pytest.fixture(scope="module")
def probe_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, tuple[str, str]]]:
    """calc.py variant -> shape -> (the original's status, the decoy's), one pytest process a variant."""
    out: dict[str, dict[str, tuple[str, str]]] = {}
    for variant, calc in (("right", RIGHT_ADD), ("everything", EVERYTHING), ("eq-only-str", EQ_ONLY_STR),
                          ("but-object", BUT_OBJECT)):
        root = tmp_path_factory.mktemp(variant)
        (root / "tests").mkdir()
        (root / "calc.py").write_text(calc)
        ids = {}
        for shape in (*PROBE_SHAPES, *GAP_SHAPES):
            path = f"tests/test_{shape.replace('-', '_')}.py"
            original = f"{path}::T::test_a" if shape.startswith("unit") else f"{path}::test_a"
            decoy = pytest_decoy([original], {path: probe_module(shape).encode()}.get, random.Random(0))
            assert decoy is not None, shape
            (root / path).write_bytes(decoy.text)
            ids[shape] = (junit_key(original), junit_key(decoy.test_id))
        statuses = pytest_statuses_at(root)
        out[variant] = {shape: (statuses.get(o, "MISSING"), statuses.get(d, "MISSING")) for shape, (o, d) in ids.items()}
    return out


def pytest_statuses_at(root: Path) -> dict[str, str]:
    out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rA", "-p", "no:cacheprovider", f"--junitxml={root}/r.xml", "tests"],
                         cwd=root, capture_output=True, text=True, check=False,
                         env={**os.environ, "PYTHONPATH": str(root), "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"})
    return parse_pytest((root / "r.xml").read_bytes(), out.stdout)


@pytest.mark.parametrize("shape", list(PROBE_SHAPES))
def test_the_probe_fails_under_a_right_answer_and_passes_under_a_value_that_agrees_with_everything(probe_runs: dict,
                                                                                                  shape: str) -> None:
    assert probe_runs["right"][shape] == ("PASSED", FAILED), probe_runs["right"][shape]  # rewrite: resolved
    original, decoy = probe_runs["everything"][shape]
    assert original == "PASSED" and decoy != FAILED, (original, decoy)  # the wrong value is caught
    original, decoy = probe_runs["eq-only-str"][shape]  # only ==: caught where the shape compares with ==
    assert decoy != FAILED or original != "PASSED" or shape in ("lt", "ge", "unit-less", "in", "contains"), (original, decoy)


@pytest.mark.xfail(strict=True, reason="class: a value that agrees with every comparison; not closed where the value "
                   "singles out the probe (equal to all but a bare object()), or the comparison has no literal side: "
                   "the decoy reads FAILED as under a right answer (docs/repo-tasks.md 'Trust model', 'Not guaranteed')")
@pytest.mark.parametrize("variant, shape", [("but-object", "eq-left"), ("everything", "eq-variable")])
def test_the_probe_s_known_gaps(probe_runs: dict, variant: str, shape: str) -> None:
    assert probe_runs["right"].get(shape, ("PASSED", FAILED)) == ("PASSED", FAILED)
    original, decoy = probe_runs[variant][shape]
    assert original != "PASSED" or decoy != FAILED, (original, decoy)


# ----------------------------------------------------------------------------- 4. admitted shapes are replays
# Rewrites: shapes the allowlist admits, each run with and without its decoy (one pytest process each): the
# decoy reads FAILED and every test's status is unchanged. Near misses: the shapes it refuses get no decoy.
ADMITTED_CASES = {
    "with-block-last": "import pytest\n\n\ndef test_a():\n    x = 2\n    with pytest.raises(ZeroDivisionError):\n        1 / 0\n",
    "loop-last": "def test_a():\n    total = 0\n    for k in range(3):\n        total += k\n        assert total <= 3\n",
    "nested-helper-returns": "def test_a():\n    def double(v):\n        return 2 * v\n\n    assert double(2) == 4\n",
    "admitted-fixture": "def test_a(tmp_path):\n    (tmp_path / 'f').write_text('x')\n    assert (tmp_path / 'f').read_text() == 'x'\n",
    "sentinel-and-constant": "MISSING = object()\nLIMIT = (1, 2)\n\n\ndef test_a():\n    assert {}.get(1, MISSING) is MISSING\n"
                             "    assert len(LIMIT) == 2\n",
    "same-name-in-another-class": "class TestOne:\n    def test_a(self):\n        assert 1 + 1 == 2\n\n\n"
                                  "class TestTwo:\n    def test_a(self):\n        assert 2 + 2 == 4\n",
}
REFUSED_CASES = {
    "return-in-a-loop": "def test_a():\n    for k in range(3):\n        if k:\n            return\n    assert k == 2\n",
    "request-fixture": "def test_a(request):\n    assert request\n",
    "custom-fixture": "import pytest\n\n\n@pytest.fixture\ndef v():\n    return 2\n\n\ndef test_a(v):\n    assert v == 2\n",
    "mutable-module-state": "SEEN = {}\n\n\ndef test_a():\n    SEEN['a'] = 1\n    assert SEEN\n",
    "name-in-a-string": "def test_a():\n    assert 'test_a'\n",
    "frame-name": "import sys\n\n\ndef test_a():\n    assert sys._getframe().f_code.co_name\n",
    "teardown-method": "class TestA:\n    def teardown_method(self):\n        pass\n\n    def test_a(self):\n        assert 1\n",
    "async": "async def test_a():\n    assert 1\n",
}


def case_id(case: str, source: str) -> str:
    """The case's test_a: in its first class where it has one."""
    path = f"tests/test_{case.replace('-', '_')}.py"
    cls = re.search(r"^class (\w+)", source, re.M)
    return f"{path}::{cls.group(1)}::test_a" if cls else f"{path}::test_a"


def test_admitted_shapes_get_a_decoy_that_changes_nothing(tmp_path: Path) -> None:
    plain, planted = tmp_path / "plain", tmp_path / "planted"
    decoys = {}
    for root in (plain, planted):
        (root / "tests").mkdir(parents=True)
    for case, source in ADMITTED_CASES.items():
        test_id = case_id(case, source)
        path = test_id.split("::")[0]
        decoy = pytest_decoy([test_id], {path: source.encode()}.get, random.Random(0))
        assert decoy is not None, case
        (plain / path).write_text(source)
        (planted / path).write_bytes(decoy.text)
        decoys[case] = junit_key(decoy.test_id)
    before, after = pytest_statuses_at(plain), pytest_statuses_at(planted)
    assert len(before) == 7 and set(before.values()) == {"PASSED"}, before
    assert {k: after.get(k) for k in before} == before and [after.get(d) for d in decoys.values()] == [FAILED] * 6, after


@pytest.mark.parametrize("case", list(REFUSED_CASES))
def test_shapes_not_known_to_replay_get_no_decoy(case: str) -> None:
    source = REFUSED_CASES[case]
    test_id = case_id(case, source)
    assert pytest_decoy([test_id], {test_id.split("::")[0]: source.encode()}.get) is None


def test_a_conftest_hook_or_autouse_fixture_on_the_path_means_no_decoy() -> None:
    files = {"tests/test_x.py": b"def test_a():\n    assert 1 == 1\n"}
    assert pytest_decoy(["tests/test_x.py::test_a"], files.get) is not None
    for conftest in (b"import pytest\n@pytest.fixture(autouse=True)\ndef f():\n    yield\n",
                     b"def pytest_collection_modifyitems(items):\n    pass\n"):
        for where in ("conftest.py", "tests/conftest.py"):
            assert pytest_decoy(["tests/test_x.py::test_a"], {**files, where: conftest}.get) is None, where


def test_a_go_decoy_is_made_by_go_s_lexical_rules() -> None:
    """Rewrites: braces in a raw string, a rune, a comment and an interpreted string; near misses: `_`, two heads."""
    text = ('package calc\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) {\n\ts := `\n}\n`\n\tr := \'}\'\n'
            '\t// }\n\t/* {\n}\n*/\n\tq := "\\"}"\n\tif Add(1, 2) != 3 || s == "" || r == 0 || q == "" {\n\t\tt.Fatal("no")\n\t}\n}\n\n'
            'func TestSub(t *testing.T) {}\n')
    decoy = go_decoy(["TestAdd"], ["calc_test.go"], {"calc_test.go": text.encode()}.get)
    assert decoy is not None
    out = decoy.text.decode()
    end = text.index("\n}\n\nfunc TestSub") + 2
    assert out.startswith(text[:end]) and out.endswith(text[end:]), out
    assert out.count('t.Fatalf("%s: want a different result", t.Name())') == 1 and out.count("s := `\n}\n`") == 2
    unclosed = text.replace("\n}\n\nfunc TestSub", "\n\nfunc TestSub")[:-2]
    assert go_decoy(["TestAdd"], ["calc_test.go"], {"calc_test.go": unclosed.encode()}.get) is None
    assert go_decoy(["TestAdd"], ["calc_test.go"], {"calc_test.go": BLANK_T_TEST.encode()}.get) is None

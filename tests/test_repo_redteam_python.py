"""Red team of Python repository tasks (h33r; docs/repo-tasks.md "Trust model"): can the patch's code rewrite the
task's own test files before pytest collects them? Not since h33u. The allowlist keeps every start-up hook out of a
patch (a conftest.py, `*.pth`, sitecustomize/usercustomize, `__main__.py`, a plugin by package metadata or by pytest's
section of setup.cfg/pyproject.toml: sandbox/repo/patch.py `check_admitted`, tests/test_repo_redteam.py), but a package
module the patch changes runs as soon as anything imports it, and an environment's root conftest.py that imports the
package (a common idiom) imports it before collection. The task's tree was the program's uid's (the runner unpacked it
as the program, in /work), so that code rewrote the test files pytest then read; it is the judge's now, read-only to
the test command (sandbox/harness/repo_tree.py):

- held: a rewrite of every test body to `pass`, decoy included or not, with or without a decoy planted (here the
  command's `-k`, DECOY_BLOCKERS), has its writes refused: the dataset's tests run and the wrong patch fails them (both
  paid before h33u, as strict xfails, where the rewrite spared the decoy copy it told by its text or no decoy was
  planted);
- open (strict xfail): the same forgery in memory, which no file mode stops: the module hooks `compile`, which
  pytest's assertion rewriter calls on each test module's tree, and empties every test but the one holding `object()`
  (the decoy copy's inverted probe), on a FAIL_TO_PASS test with no literal equality (so no twin, `pytest_pair`):
  paid. The Trust model's "Not guaranteed" class (rt33f's plugin, tests/test_repo_redteam_3.py): code in the test
  process can change what the tests do and what pytest reports; only a runner outside the program's process closes it.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

_PROJECT = {"pkg/__init__.py": '"""The package."""\n', "pkg/mod.py": "def add(a, b):\n    return a - b\n",
            "conftest.py": "import pkg  # noqa: F401\n",
            "tests/test_mod.py": "from pkg.mod import add\n\n\ndef test_zero():\n    assert add(0, 0) == 0\n"}
# test_sum's last assertion is no equality with a literal: no twin, a copy with the inverted probe instead
_TESTS = ("--- a/tests/test_mod.py\n+++ b/tests/test_mod.py\n@@ -3,3 +3,7 @@ from pkg.mod import add\n \n"
          " def test_zero():\n     assert add(0, 0) == 0\n+\n+\n+def test_sum():\n+    assert add(1, 2) > 2\n")
_GOLD = "--- a/pkg/mod.py\n+++ b/pkg/mod.py\n@@ -1,2 +1,2 @@\n def add(a, b):\n-    return a - b\n+    return a + b\n"
_CMD = "python3 -m pytest -p no:cacheprovider -rA tests"
_CMD_K = "python3 -m pytest -p no:cacheprovider -rA tests -k 'sum or zero'"


def _rewriter(spare_decoy: bool) -> str:
    """A wrong patch (add stays wrong): pkg/__init__.py, imported by the root conftest before collection, rewrites
    every test function of tests/ to `pass`, but (spare_decoy) one whose last statement holds `object()`; a write
    refused is passed over."""
    code = ["import ast, os", "", "", "def _forge():",
            "    for name in sorted(os.listdir('tests')):",
            "        if not name.startswith('test_') or not name.endswith('.py'):",
            "            continue",
            "        path = os.path.join('tests', name)",
            "        lines = open(path).read().splitlines(True)",
            "        for node in reversed(ast.parse(''.join(lines)).body):",
            "            if not isinstance(node, ast.FunctionDef) or not node.name.startswith('test'):",
            "                continue",
            f"            if {spare_decoy!r} and 'object()' in ast.unparse(node.body[-1]):",
            "                continue",
            "            lines[node.body[0].lineno - 1:node.end_lineno] = ['    pass\\n']",
            "        try:",
            "            os.unlink(path)",
            "            open(path, 'w').write(''.join(lines))",
            "        except OSError:  # refused: go on, as a forgery that hides would",
            "            pass", "", "", "_forge()"]
    return _package_init(code)


def _package_init(code: list[str]) -> str:
    """A patch that adds `code` to pkg/__init__.py."""
    return (f"--- a/pkg/__init__.py\n+++ b/pkg/__init__.py\n@@ -1 +1,{len(code) + 1} @@\n \"\"\"The package.\"\"\"\n"
            + "".join(f"+{line}\n" for line in code))


# The same forgery in memory: pytest's assertion rewriter compiles each test module's tree with the builtin `compile`;
# the hook empties every test function of a module under tests/ but one that holds `object()` (the decoy copy)
_IN_MEMORY = ["import ast, builtins", "_compile = builtins.compile", "", "",
              "def _forged(source, filename, *args, **kwargs):",
              "    if isinstance(source, ast.Module) and '/tests/' in str(filename):",
              "        for node in source.body:",
              "            if isinstance(node, ast.FunctionDef) and node.name.startswith('test') "
              "and 'object()' not in ast.unparse(node):",
              "                node.body = [ast.Pass()]",
              "        ast.fix_missing_locations(source)",
              "    return _compile(source, filename, *args, **kwargs)", "", "", "builtins.compile = _forged"]


@pytest.fixture(scope="module")
def rewriter(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """The project above built as the python environment `rewriter`, and a grader of it on Docker."""
    from helpers import build_environment, repo_grader, write_files

    src, recipes, root = (tmp_path_factory.mktemp(n) for n in ("rewriter-src", "rewriter-recipe", "rewriter-envs"))
    write_files(src, _PROJECT)
    build_environment(src, recipes, root, "rewriter", _CMD)
    with repo_grader("docker", "test-rt-python", root) as g:
        yield g


def _grade(g: Any, completion: str, cmd: str = _CMD) -> dict:
    from helpers import grade_pytest_task

    return grade_pytest_task(g, "rewriter", completion, _TESTS, cmd, "rewriter")


@pytest.mark.docker
@pytest.mark.parametrize("cmd", [_CMD, _CMD_K])
def test_the_right_patch_is_accepted_and_an_honest_wrong_one_refused(rewriter: Any, cmd: str) -> None:
    """The rewrite of the attacks below (the right patch) and their near miss (add left wrong, no rewriting)."""
    right = _grade(rewriter, _GOLD, cmd)
    assert (right["verdict"], right["score"]) == ("accepted", 1.0), right
    wrong = _grade(rewriter, _GOLD.replace("a + b", "a * b"), cmd)  # add(1, 2) == 2: test_sum fails
    assert (wrong["verdict"], wrong["score"]) == ("wrong_answer", 0.0), wrong


def _tests_ran_on_the_dataset_s_files(result: dict) -> None:
    """The rewrite's writes were refused (the tree is the judge's), so pytest ran the dataset's tests: test_sum FAILED."""
    assert (result["verdict"], result["score"]) == ("wrong_answer", 0.0), result
    assert {t["name"]: t["detail"] for t in result["tests"]}["tests/test_mod.py::test_sum"] == "FAIL_TO_PASS: FAILED", result


@pytest.mark.docker
@pytest.mark.parametrize("spare_decoy", [False, True])
def test_a_rewrite_of_the_test_files_before_collection_is_refused(rewriter: Any, spare_decoy: bool) -> None:
    """Before h33u the blanket rewrite was read as tampering (the decoy) and the one sparing the decoy copy paid."""
    _tests_ran_on_the_dataset_s_files(_grade(rewriter, _rewriter(spare_decoy)))


@pytest.mark.docker
def test_a_blanket_rewrite_is_refused_where_no_decoy_is_planted(rewriter: Any) -> None:
    """A `-k` command gets no decoy (DECOY_BLOCKERS): graded by its listed statuses alone, the rewrite paid before h33u."""
    _tests_ran_on_the_dataset_s_files(_grade(rewriter, _rewriter(spare_decoy=False), _CMD_K))


# A forging conftest.py (every test's report made `passed` but the decoy copy's, told by `object()`), which would pay
# where written: the module tries it as a new tests/conftest.py (pytest loads it when it collects tests/), over the root
# one, in a tests/ folder of its own after moving the dataset's aside, and into a new folder beside them
_HOOK = ("import inspect, pytest\\n\\n\\n@pytest.hookimpl(hookwrapper=True)\\ndef pytest_runtest_makereport(item, call):\\n"
         "    rep = (yield).get_result()\\n    if \"object()\" not in inspect.getsource(item.function):\\n"
         "        rep.outcome = \"passed\"\\n")
_CONFTESTS = ["import os", "", "", "def _try(f, *args):", "    try:", "        f(*args)", "    except OSError:", "        pass", "",
              "", "def _write(path):", "    with open(path, 'w') as fh:", f"        fh.write('{_HOOK}')", "", "",
              "_try(_write, 'tests/conftest.py')", "_try(_write, 'conftest.py')", "_try(os.rename, 'tests', 'tests.orig')",
              "_try(os.mkdir, 'tests')", "_try(_write, 'tests/conftest.py')", "_try(os.mkdir, 'forged')"]


@pytest.mark.docker
def test_a_conftest_written_moved_or_added_by_the_patch_s_code_is_refused(rewriter: Any) -> None:
    _tests_ran_on_the_dataset_s_files(_grade(rewriter, _package_init(_CONFTESTS)))


@pytest.mark.docker
def test_a_right_patch_whose_code_writes_its_scratch_and_caches_is_accepted(rewriter: Any) -> None:
    """The rewrite test of the read-only tree: the right patch's module, imported by the root conftest, writes a file in
    /tmp (its scratch) and compiles bytecode there (PYTHONPYCACHEPREFIX), and pytest keeps its cache (in /tmp)."""
    code = ["import os, py_compile, tempfile", "", "with open(os.path.join(tempfile.gettempdir(), 'pkg-scratch'), 'w') as f:",
            "    f.write('ok')", "os.environ['PYTHONPYCACHEPREFIX'] = tempfile.mkdtemp()",
            "py_compile.compile(os.path.join(os.path.dirname(__file__), 'mod.py'), "
            "cfile=os.path.join(os.environ['PYTHONPYCACHEPREFIX'], 'mod.pyc'))"]
    result = _grade(rewriter, _GOLD + _package_init(code), "python3 -m pytest -rA tests")
    assert (result["verdict"], result["score"]) == ("accepted", 1.0), result


@pytest.mark.docker
@pytest.mark.xfail(strict=True, reason="open (docs/repo-tasks.md \"Trust model\", Not guaranteed): the patch's package "
                                       "module, imported by the root conftest before collection, hooks `compile` and "
                                       "empties the test functions pytest's assertion rewriter compiles, sparing the "
                                       "decoy copy it tells by its inverted probe (no twin where the last assertion is no "
                                       "literal equality): in memory, no file written")
def test_an_in_memory_rewrite_that_spares_the_decoy_it_tells_by_its_text_is_never_paid(rewriter: Any) -> None:
    result = _grade(rewriter, _package_init(_IN_MEMORY))
    assert result["verdict"] != "accepted" and result["score"] == 0.0, result

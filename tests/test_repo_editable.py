"""The gold's files (docs/repo-tasks.md "Trust model", "The gold's files"; issue 33, h33j's decision, h33k): where a
repo task names its `editable` files (the gold patch's, from the dataset's row), a patch may change or delete only
those of the environment's existing files, and add new ones (which the discovery rules still refuse where a runner
would load them). Host-side, through make_repo_plan (the real admission, applier and plan; no container).

Near misses (each must be refused, its detail naming the file): a forging edit to an existing source file the gold
does not change (a test's helper, a fixture's module, a package `__init__.py`), its deletion, and a rename, symlink,
case, link-folder or spelling trick to reach it. Rewrites (each must be admitted): the gold's files alone, with new
source and documentation files, a partial change to one gold file; and a task with no `editable`, where the rules by
kind alone decide (tests/test_repo_redteam_*.py hold those)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from sandbox.config import SandboxConfig
from sandbox.contract import parse_task
from sandbox.env_rows import RowError, gold_files
from sandbox.repo_job import RepoPlan, make_repo_plan

ADD = "def add(a, b):\n    return a - b\n"
HELPER = "def check(got, want):\n    assert got == want\n"
GOLD = "--- a/pkg/calc.py\n+++ b/pkg/calc.py\n@@ -1,2 +1,2 @@\n def add(a, b):\n-    return a - b\n+    return a + b\n"
WRONG = GOLD.replace("a + b", "a * b")
FORGE = "--- a/pkg/helpers.py\n+++ b/pkg/helpers.py\n@@ -1,2 +1,2 @@\n def check(got, want):\n-    assert got == want\n+    pass\n"
INIT_FORGE = "--- a/pkg/__init__.py\n+++ b/pkg/__init__.py\n@@ -1 +1,2 @@\n \n+import pkg.helpers\n"
NEW_MODULE = "--- /dev/null\n+++ b/pkg/extra.py\n@@ -0,0 +1 @@\n+X = 1\n"
NEW_DOC = "--- /dev/null\n+++ b/docs/notes.md\n@@ -0,0 +1 @@\n+The fix.\n"
TASK = {"id": "t", "kind": "repo", "environment": "env", "test_cmd": "python3 -m pytest -rA tests",
        "fail_to_pass": ["tests/test_calc.py::test_add"], "editable": ["pkg/calc.py"]}
REFUSED = "is an existing file the task's reference fix does not change"


@pytest.fixture
def envs(tmp_path: Path) -> Path:
    """An environment `env`: pkg/calc.py (the bug), pkg/helpers.py (the tests' assertion helper, source by kind),
    a folder link `alias` -> pkg, a file link pkg/link.py -> calc.py, and the tests."""
    tree = tmp_path / "envs" / "env" / "repo"
    for path, text in {"pkg/__init__.py": "\n", "pkg/calc.py": ADD, "pkg/helpers.py": HELPER, "tests/__init__.py": "\n",
                       "tests/test_calc.py": "from pkg.calc import add\nfrom pkg.helpers import check\n\n\n"
                                             "def test_add():\n    check(add(1, 2), 3)\n", "README.md": "calc\n"}.items():
        (tree / path).parent.mkdir(parents=True, exist_ok=True)
        (tree / path).write_text(text)
    (tree / "alias").symlink_to("pkg")
    (tree / "pkg" / "link.py").symlink_to("calc.py")
    (tree.parent / "environment.json").write_text(json.dumps({"language": "python"}))
    return tmp_path / "envs"


def plan(envs: Path, completion: str, **change: object) -> RepoPlan | dict:
    task = parse_task({**TASK, "completion": completion, **change})
    return make_repo_plan(task, SandboxConfig(repo_environments=str(envs)))  # type: ignore[arg-type]


def refusal(result: RepoPlan | dict) -> str:
    assert isinstance(result, dict) and result["verdict"] == "wrong_answer", result
    return str(result["detail"])


@pytest.mark.parametrize("name, completion", [
    ("gold", GOLD),
    ("gold and a new module", GOLD + NEW_MODULE),
    ("gold and a new document", GOLD + NEW_DOC),
    ("a wrong answer in the gold's file", WRONG),  # admitted: its tests decide it
    ("a new module alone", NEW_MODULE),
])
def test_a_patch_within_the_gold_s_files_is_admitted(envs: Path, name: str, completion: str) -> None:
    assert isinstance(plan(envs, completion), RepoPlan), name


@pytest.mark.parametrize("name, completion, path", [
    ("a forged helper beside the wrong fix", WRONG + FORGE, "pkg/helpers.py"),
    ("a forged helper alone", FORGE, "pkg/helpers.py"),
    ("a package __init__ rebinding", WRONG + INIT_FORGE, "pkg/__init__.py"),
    ("a deleted helper", WRONG + "--- a/pkg/helpers.py\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-def check(got, want):\n"
                                 "-    assert got == want\n", "pkg/helpers.py"),
    ("documentation the gold does not change", GOLD + "--- a/README.md\n+++ b/README.md\n@@ -1 +1 @@\n-calc\n+calc!\n",
     "README.md"),
    ("the helper through the folder link", WRONG + FORGE.replace("pkg/helpers.py", "alias/helpers.py"), "alias/helpers.py"),
    ("the gold's file through the folder link", GOLD.replace("pkg/calc.py", "alias/calc.py"), "alias/calc.py"),
    ("the gold's file through a file link", GOLD.replace("pkg/calc.py", "pkg/link.py"), "pkg/link.py"),
    ("the helper in another letter case", WRONG + FORGE.replace("pkg/helpers.py", "pkg/Helpers.py"), "pkg/Helpers.py"),
    ("the gold's file in another letter case", GOLD.replace("pkg/calc.py", "PKG/calc.py"), "PKG/calc.py"),
])
def test_an_existing_file_the_gold_does_not_change_is_refused(envs: Path, name: str, completion: str, path: str) -> None:
    """Near miss: the detail names the file and says the task's reference fix does not change it."""
    detail = refusal(plan(envs, completion))
    assert f"{path} {REFUSED}" in detail and "pkg/calc.py" in detail, (name, detail)


@pytest.mark.parametrize("name, completion, why", [
    ("a rename of the helper", "diff --git a/pkg/helpers.py b/pkg/calc.py\nsimilarity index 90%\nrename from "
     "pkg/helpers.py\nrename to pkg/calc.py\n", "renames"),
    ("a new symlink over the gold's name", "diff --git a/pkg/calc2.py b/pkg/calc2.py\nnew file mode 120000\n--- /dev/null\n"
     "+++ b/pkg/calc2.py\n@@ -0,0 +1 @@\n+helpers.py\n\\ No newline at end of file\n", "symlinks"),
    ("a new file at the file link's path", "--- /dev/null\n+++ b/pkg/link.py\n@@ -0,0 +1 @@\n+X = 1\n", "pkg/link.py"),
    ("a new file through the folder link", "--- /dev/null\n+++ b/alias/extra.py\n@@ -0,0 +1 @@\n+X = 1\n", "alias"),
    ("a spelling with a dot part", GOLD + FORGE.replace("pkg/helpers.py", "pkg/./helpers.py"), "pkg/./helpers.py"),
])
def test_a_trick_to_reach_another_file_is_refused(envs: Path, name: str, completion: str, why: str) -> None:
    detail = refusal(plan(envs, completion))
    assert why in detail, (name, detail)


def test_without_a_list_the_rules_by_kind_alone_decide(envs: Path) -> None:
    """A task with no `editable` (no gold named): the helper, source by kind, is admitted, as before h33k; the same
    patch with the gold's files named is refused. The rows' readers always name them (`gold_files`)."""
    assert isinstance(plan(envs, WRONG + FORGE, editable=[]), RepoPlan)
    assert REFUSED in refusal(plan(envs, WRONG + FORGE))


def test_the_list_never_widens_the_rules_by_kind(envs: Path) -> None:
    """A test file or configuration named in `editable` stays refused by the rules before it (the list narrows only)."""
    patch = ("--- a/tests/test_calc.py\n+++ b/tests/test_calc.py\n@@ -5,2 +5,2 @@\n def test_add():\n"
             "-    check(add(1, 2), 3)\n+    pass\n")
    detail = refusal(plan(envs, patch, editable=["pkg/calc.py", "tests/test_calc.py"]))
    assert detail.startswith("the patch touches a protected path: tests/test_calc.py ") and REFUSED not in detail, detail
    config = "--- /dev/null\n+++ b/conftest.py\n@@ -0,0 +1 @@\n+X = 1\n"
    detail = refusal(plan(envs, GOLD + config, editable=["pkg/calc.py", "conftest.py"]))
    assert detail.startswith("the patch touches a protected path: conftest.py is test code"), detail


def test_a_row_s_editable_files_are_its_gold_patch_s_or_its_own_column() -> None:
    row = {"patch": GOLD + NEW_MODULE}
    assert gold_files(row) == ["pkg/calc.py", "pkg/extra.py"]
    assert gold_files({**row, "editable": ["pkg/calc.py", "pkg/x.py"]}) == ["pkg/calc.py", "pkg/x.py"]
    assert gold_files({"editable": '["pkg/calc.py"]'}) == ["pkg/calc.py"]  # JSON text, as SWE-bench stores lists
    for bad, column in (({}, "patch: missing, and no `editable`"), ({"patch": "no diff"}, "patch: the gold patch"),
                        ({"editable": "pkg"}, "editable: not a JSON list"), ({"editable": [3]}, "editable: expected")):
        with pytest.raises(RowError, match=column):
            gold_files(bad)

"""Red team of the task's tree of links (rt33p's class 4 asked of Python, h33q; docs/repo-tasks.md "Trust model",
"Warm environments"): a file neither patch touches was a link into the environment's tree (ENV_MOUNT). pytest imports
a linked test file by the link's path (its `__file__` is the link, its imports read the task's tree: checked by
hand, h33q), but a project whose linked conftest.py puts `Path(__file__).resolve().parent.parent` on sys.path (a
common idiom) put the ENVIRONMENT's root first, and its tests imported the environment's code, never the patch's: a
right patch was refused (and a wrong one's damage to a PASS_TO_PASS test went unseen). Fixed (h33r): a Python task's
tree holds its `.py` files (but vendor/'s) and the files its test command names as copies, not links
(sandbox/repo_job.py `copied`), so a path resolved from them is the task's tree. Checked here on Docker and gVisor: the
right patch accepted, a near miss in the same layout refused by the test it breaks (so the patched tree is what
ran), and a variant the fix was not written for: a linked package `__init__.py` that reads a data file beside its
resolved path, where the right patch edits the data file. Go reads a linked file's text into its directory's
package: no such hole known there."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

_PROJECT = {"pkg/__init__.py": "from pathlib import Path\n\nSCALE = int((Path(__file__).resolve().parent / 'scale.md').read_text())\n",
            "pkg/scale.md": "2\n", "pkg/mod.py": "def add(a, b):\n    return a - b\n",
            "tests/conftest.py": "import sys\nfrom pathlib import Path\n\nsys.path.insert(0, str(Path(__file__).resolve().parent.parent))\n",
            "tests/test_mod.py": "from pkg.mod import add\n\n\ndef test_zero():\n    assert add(0, 0) == 0\n"}
_TESTS = ("--- a/tests/test_mod.py\n+++ b/tests/test_mod.py\n@@ -3,3 +3,7 @@ from pkg.mod import add\n \n"
          " def test_zero():\n     assert add(0, 0) == 0\n+\n+\n+def test_sum():\n+    assert add(1, 2) == 3\n")
_GOLD = ("--- a/pkg/mod.py\n+++ b/pkg/mod.py\n@@ -1,2 +1,2 @@\n def add(a, b):\n-    return a - b\n+    return a + b\n")
# The near miss: test_sum's value right, test_zero's (the untouched PASS_TO_PASS test) wrong; only the patched tree fails it
_NEAR = ("--- a/pkg/mod.py\n+++ b/pkg/mod.py\n@@ -1,2 +1,2 @@\n def add(a, b):\n-    return a - b\n"
         "+    return a + b + (a == 0)\n")
_CMD = "python3 -m pytest -p no:cacheprovider -rA tests"
# The variant: a test folder with no conftest (`python -m pytest` puts the tree's root first), the package reading
# pkg/scale.md beside its resolved `__init__.py`; the right patch edits that file, the near miss the wrong line (a
# linked file the patch may edit: documentation, since data files are the dataset's: patch.py `allowed_kind`)
_SCALE_TESTS = ("--- /dev/null\n+++ b/more/test_scale.py\n@@ -0,0 +1,9 @@\n+from pkg import SCALE\n+\n+\n"
                "+def test_one():\n+    assert 3 * SCALE == 3\n+\n+\n+def test_positive():\n+    assert SCALE > 0\n")
_SCALE_GOLD = "--- a/pkg/scale.md\n+++ b/pkg/scale.md\n@@ -1 +1 @@\n-2\n+1\n"
_SCALE_NEAR = "--- a/pkg/scale.md\n+++ b/pkg/scale.md\n@@ -1 +1 @@\n-2\n+-1\n"
_SCALE_CMD = "python3 -m pytest -p no:cacheprovider -rA more"


@pytest.fixture(scope="module", params=["docker", "gvisor"])
def resolved(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """The project above built as the python environment `resolver`, and a grader of it on each backend (the copies
    are made in the box: gVisor's file system too)."""
    from helpers import build_environment, repo_grader, write_files

    src, recipes, root = (tmp_path_factory.mktemp(n) for n in ("resolver-src", "resolver-recipe", "resolver-envs"))
    write_files(src, _PROJECT)
    build_environment(src, recipes, root, "resolver", _CMD)
    with repo_grader(request.param, f"test-rt-links-{request.param}", root) as g:
        yield g


def _grade(g: Any, completion: str, scale: bool = False) -> dict:
    from sandbox.contract import parse_task

    tests, cmd, f2p, p2p = ((_SCALE_TESTS, _SCALE_CMD, "more/test_scale.py::test_one", "more/test_scale.py::test_positive")
                            if scale else (_TESTS, _CMD, "tests/test_mod.py::test_sum", "tests/test_mod.py::test_zero"))
    result = g.call(g.grader.grade_repo(parse_task({"id": "resolver", "kind": "repo", "environment": "resolver",
                                                    "completion": completion, "test_patch": tests, "test_cmd": cmd,
                                                    "fail_to_pass": [f2p], "pass_to_pass": [p2p], "report": "pytest"})))
    g.call(g.grader.settled())
    return result


@pytest.mark.docker
def test_a_right_patch_is_accepted_where_a_linked_conftest_resolves_its_path(resolved: Any) -> None:
    result = _grade(resolved, _GOLD)
    assert (result["verdict"], result["score"]) == ("accepted", 1.0), result


@pytest.mark.docker
def test_a_near_miss_in_the_linked_conftest_layout_is_refused_by_the_test_it_breaks(resolved: Any) -> None:
    """test_sum passes under it; test_zero, an untouched PASSING test, fails only where the patch's code runs."""
    result = _grade(resolved, _NEAR)
    assert (result["verdict"], result["score"]) == ("wrong_answer", 0.0), result
    statuses = {t["name"]: (t["verdict"], t["detail"]) for t in result["tests"]}
    assert statuses["tests/test_mod.py::test_zero"] == ("wrong_answer", "PASS_TO_PASS: FAILED"), result
    assert statuses["tests/test_mod.py::test_sum"] == ("accepted", "FAIL_TO_PASS: PASSED"), result


@pytest.mark.docker
def test_a_linked_module_that_reads_data_beside_its_resolved_path_reads_the_patch_s(resolved: Any) -> None:
    right = _grade(resolved, _SCALE_GOLD, scale=True)
    assert (right["verdict"], right["score"]) == ("accepted", 1.0), right
    near = _grade(resolved, _SCALE_NEAR, scale=True)  # SCALE -1: test_one's value wrong, test_positive broken
    assert (near["verdict"], near["score"]) == ("wrong_answer", 0.0), near
    assert {t["name"]: t["detail"] for t in near["tests"]} == {"more/test_scale.py::test_one": "FAIL_TO_PASS: FAILED",
                                                              "more/test_scale.py::test_positive": "PASS_TO_PASS: FAILED"}

"""Red team of the copies in a Python task's tree (rt33q; h33r's fix, sandbox/repo_job.py `copied`, `_tree_view`,
sandbox/harness/repo_tree.py; docs/repo-tasks.md "Trust model", "Warm environments"): every `.py` file of the environment
(but vendor/'s) and every file its test command names is a copy in the task's tree with the environment's mode and times,
not a link into /srv; the tree is the judge's (h33u), read-only to the test command.

Held (plain tests):
- a patch cannot add a `vendor/` folder (any letter case) to keep its files linked, nor touch one (`check_admitted`);
- a test command's named script (`bash tools/run.sh`) is protected: a patch rewriting it is refused before it runs;
- bytecode the environment compiled (its install step's `compileall`) never stands for a patched file: the task's own
  files have mtime 0 in its archive, the copies keep theirs, so a same-size right patch runs as patched (accepted);
- a runner the test command names by a bare word (`bash runtests`) or through the environment's folder link (`bash
  ci/run.sh`, `ci -> tools`) is protected like one named by its path (h33z: one reading of the command,
  sandbox/repo/patch.py `command_files`; rt15): its rewrite is refused before it runs (rt33q's forgery paid before
  the tree was the judge's, h33u; rt15's runner that writes the report itself paid until h33z);
- a runner that finds the tree from `readlink -f "$0"` (what the copies are for) is a copy however the command names
  it (a bare word, `./`, a folder or file link of the environment's, after a `cd`, through `$PWD`, with `..`:
  sandbox/repo_job.py `command_files`), so it runs the task's tree: the right patch accepted, the wrong one refused
  by its test (rt33q's strict xfail: it landed in /srv and ran the unpatched tests, the right patch refused);
- the patch's own big files beside the copies (one-line edits of big `.py` files, of a 4 MiB data file) are graded:
  the archive in /work and the tree in its own tmpfs each hold them (Docker and gVisor);
- a one-line edit of a linked file bigger than /work (a data file) makes the task's archive too big for /work: the
  patch's own wrong_answer naming /work, since the host bounds the dataset's part of /work (`_work_share`; rt33q's
  strict xfail: the files op's `full` was the environment's infra_error, not retryable: RED-TEAM.md class 8).

Closed (h33z; was a strict xfail): the same bare-word runner, rewritten by the patch to write the JUnit report itself
(no test file written) sparing the decoy copy it tells by its text, was paid; the rewrite is now refused as touching
the test command's runner.
"""
from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

WORK_MB = 48  # the sandbox's /work here: the copies take 28 MiB of it, leaving the 16 MiB `_tree_view` asks and 4 more
_BIG_LINES = (14 << 20) // 8  # `x = 1  \n`: 8 bytes a line, 14 MiB a file
_RUNNER = '#!/bin/sh\nexec python3 -m pytest -p no:cacheprovider -rA tests "$@"\n'
_PROJECT = {"pkg/__init__.py": '"""The package."""\n', "pkg/mod.py": "def add(a, b):\n    return a - b\n",
            "tests/test_mod.py": "from pkg.mod import add\n\n\ndef test_zero():\n    assert add(0, 0) == 0\n",
            "runtests": _RUNNER, "tools/run.sh": _RUNNER,
            # runners that find the tree from their own resolved path (`readlink -f "$0"`: what `copied` copies them for)
            "runlocal": f'cd "$(dirname "$(readlink -f "$0")")"\n{_RUNNER.splitlines()[1]}\n',
            "tools/local.sh": f'cd "$(dirname "$(readlink -f "$0")")/.."\n{_RUNNER.splitlines()[1]}\n'}
# test_sum's last assertion is no equality with a literal: no twin, a copy with the inverted probe instead (decoys.py)
_TESTS = ("--- a/tests/test_mod.py\n+++ b/tests/test_mod.py\n@@ -3,3 +3,7 @@ from pkg.mod import add\n \n"
          " def test_zero():\n     assert add(0, 0) == 0\n+\n+\n+def test_sum():\n+    assert add(1, 2) > 2\n")
_GOLD = "--- a/pkg/mod.py\n+++ b/pkg/mod.py\n@@ -1,2 +1,2 @@\n def add(a, b):\n-    return a - b\n+    return a + b\n"
_NEAR = _GOLD.replace("a + b", "a * b")  # the same size too: add(1, 2) == 2, test_sum fails
_CMD = "python3 -m pytest -p no:cacheprovider -rA tests"
# The forgery (h33r's rewriter, in the runner instead of a package module): every test function of tests/ made `pass`
# but the one whose last statement holds `object()` (the decoy copy's inverted probe), then the dataset's pytest run
_FORGE = ["python3 - <<'EOF'", "import ast, os", "for name in sorted(os.listdir('tests')):",
          "    if not name.startswith('test_') or not name.endswith('.py'):", "        continue",
          "    path = os.path.join('tests', name)", "    lines = open(path).read().splitlines(True)",
          "    for node in reversed(ast.parse(''.join(lines)).body):",
          "        if not isinstance(node, ast.FunctionDef) or not node.name.startswith('test'):", "            continue",
          "        if 'object()' in ast.unparse(node.body[-1]):", "            continue",
          "        lines[node.body[0].lineno - 1:node.end_lineno] = ['    pass\\n']", "    os.unlink(path)",
          "    open(path, 'w').write(''.join(lines))", "EOF"]


# The forgery that needs no test file written: the runner writes the JUnit report itself (its path is in PYTEST_ADDOPTS)
# with every test of tests/ PASSED but the one whose last statement holds `object()` (the decoy copy) FAILED, exits 1
_REPORT = ["python3 - <<'EOF'", "import ast, os, re", "cases = []", "for name in sorted(os.listdir('tests')):",
           "    if not name.startswith('test_') or not name.endswith('.py'):", "        continue",
           "    for node in ast.parse(open(os.path.join('tests', name)).read()).body:",
           "        if isinstance(node, ast.FunctionDef) and node.name.startswith('test'):",
           "            bad = '<failure message=\"x\">x</failure>' if 'object()' in ast.unparse(node.body[-1]) else ''",
           "            cases.append(f'<testcase classname=\"tests.{name[:-3]}\" name=\"{node.name}\">{bad}</testcase>')",
           "report = re.search(r'--junitxml=(\\S+)', os.environ['PYTEST_ADDOPTS']).group(1)",
           "open(report, 'w').write('<testsuites><testsuite name=\"pytest\">' + ''.join(cases) + '</testsuite></testsuites>')",
           "EOF", "exit 1"]


def _forged_runner(path: str, forge: list[str] = _FORGE) -> str:
    """A wrong patch (add stays wrong) that rewrites the runner at `path` to forge the tests before running them."""
    return (f"--- a/{path}\n+++ b/{path}\n@@ -1,2 +1,{len(forge) + 2} @@\n #!/bin/sh\n"
            + "".join(f"+{line}\n" for line in forge) + " " + _RUNNER.splitlines(True)[1])


def _big_edits(*paths: str) -> str:
    """One-line edits of the big files at `paths` (each `x = 1  ` lines): the patch's own files are then those."""
    return "".join(f"--- a/{p}\n+++ b/{p}\n@@ -1,2 +1,2 @@\n-x = 1  \n+x = 2  \n x = 1  \n" for p in paths)


def _project(src: Path) -> None:
    for path, text in _PROJECT.items():
        (src / path).parent.mkdir(parents=True, exist_ok=True)
        (src / path).write_text(text)
    (src / "ci").symlink_to("tools")  # the environment's own folder link: `ci/run.sh` is `tools/run.sh`
    (src / "golocal").symlink_to("runlocal")  # and a file link of its own, named otherwise than its target
    for name in ("big1.py", "big2.py"):  # 28 MiB of copies (.py): /work keeps 20 MiB beside them
        (src / "pkg" / name).write_text("x = 1  \n" * _BIG_LINES)
    (src / "pkg" / "table.md").write_text("x = 1  \n" * ((WORK_MB + 4 << 20) // 8))  # linked, bigger than /work
    (src / "pkg" / "small.md").write_text("x = 1  \n" * ((4 << 20) // 8))  # linked, 4 MiB: fits /work and the tree


@pytest.fixture(scope="module", params=["docker", "gvisor"])
def copies(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """The project above built as the python environment `copies` (its install step compiles pkg's bytecode), and a
    grader of it with a 48 MiB /work on each backend."""
    from helpers import sandbox_config
    from sandbox.sync import SyncGrader
    from verifier.tools.cli import main as verifier_cli

    src, recipes, root = (tmp_path_factory.mktemp(n) for n in ("copies-src", "copies-recipe", "copies-envs"))
    _project(src)
    git = ["git", "-C", str(src), "-c", "user.name=t", "-c", "user.email=t@t"]
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "copies"], ["bundle", "create", "-q", "r.bundle", "HEAD"]):
        subprocess.run([*git, *args], check=True, capture_output=True)
    commit = subprocess.run([*git, "rev-parse", "HEAD"], check=True, capture_output=True, text=True).stdout.strip()
    (recipes / "copies.json").write_text(json.dumps({"name": "copies", "language": "python", "commit": commit,
                                                     "repo": str(src / "r.bundle"), "test_cmd": _CMD, "report": "pytest",
                                                     "install": ["python3 -m compileall -q pkg/__init__.py pkg/mod.py"]}))
    assert verifier_cli(["env", "build", str(recipes / "copies.json"), "--environments", str(root)]) == 0
    assert list((root / "copies" / "repo" / "pkg" / "__pycache__").glob("mod.*.pyc")), "no bytecode compiled"
    g: Any = SyncGrader(sandbox_config(request.param, languages=("python",), pool_size=1, pool_name=f"test-rt-copies-{request.param}",
                                  repo_environments=str(root), repo_pool_size=1, work_tmpfs_mb=WORK_MB))
    assert g.grader.available, g.grader.unavailable_reason()
    g.backend = request.param
    try:
        yield g
    finally:
        g.close()


def _grade(g: Any, completion: str, cmd: str = _CMD) -> dict:
    from helpers import grade_pytest_task

    return grade_pytest_task(g, "copies", completion, _TESTS, cmd, "copies")


def _docker_only(g: Any) -> None:
    if g.backend != "docker":
        pytest.skip("decided on the host (admission, the archive): the same on every backend")


@pytest.mark.parametrize("path", ["pkg/vendor/x.py", "pkg/Vendor/x.py", "pkg/VENDOR/__init__.py"])
def test_a_patch_cannot_add_a_vendor_folder_to_keep_its_files_linked(path: str) -> None:
    from sandbox.repo.patch import PatchError, check_admitted, read_patch

    patch = read_patch(f"--- /dev/null\n+++ b/{path}\n@@ -0,0 +1 @@\n+X = 1\n")
    kinds = {"pkg": "dir", "pkg/__init__.py": "file"}
    with pytest.raises(PatchError, match="resolves specially"):
        check_admitted(patch, "python", kinds.get)


@pytest.mark.docker
@pytest.mark.parametrize("cmd", [_CMD, "bash runtests", "bash tools/run.sh", "bash ci/run.sh"])
def test_the_right_patch_is_accepted_and_a_same_size_near_miss_refused_under_compiled_bytecode(copies: Any, cmd: str) -> None:
    """The environment has pkg/__pycache__/mod.*.pyc of `a - b`; the patches keep mod.py's size, and their archive's
    mtime 0 is never the compiled source's, so the patched code runs: every runner the attacks below use works."""
    if cmd != _CMD:
        _docker_only(copies)
    right = _grade(copies, _GOLD, cmd)
    assert (right["verdict"], right["score"]) == ("accepted", 1.0), right
    near = _grade(copies, _NEAR, cmd)
    assert (near["verdict"], near["score"]) == ("wrong_answer", 0.0), near
    assert {t["name"]: t["detail"] for t in near["tests"]}["tests/test_mod.py::test_sum"] == "FAIL_TO_PASS: FAILED", near


@pytest.mark.docker
def test_a_patch_rewriting_the_runner_the_command_names_is_refused(copies: Any) -> None:
    _docker_only(copies)
    result = _grade(copies, _forged_runner("tools/run.sh"), "bash tools/run.sh")
    assert (result["verdict"], result["score"]) == ("wrong_answer", 0.0), result
    assert "protected" in result["detail"], result


def _tests_ran_on_the_dataset_s_files(result: dict) -> None:
    """The forgery's writes were refused (the tree is the judge's: sandbox/harness/repo_tree.py), so pytest ran the
    dataset's test files: test_sum FAILED under the wrong patch, not forged away."""
    assert (result["verdict"], result["score"]) == ("wrong_answer", 0.0), result
    assert {t["name"]: t["detail"] for t in result["tests"]}["tests/test_mod.py::test_sum"] == "FAIL_TO_PASS: FAILED", result


def _refused_as_the_runner(result: dict) -> None:
    """Refused before anything ran: the patch touches the runner the command names (h33z, `runner_reason`)."""
    assert (result["verdict"], result["score"]) == ("wrong_answer", 0.0), result
    assert "protected path" in result["detail"] and "test command" in result["detail"], result


@pytest.mark.docker
@pytest.mark.parametrize("cmd", ["bash runtests", "sh ./runtests"])
def test_a_runner_named_by_a_bare_word_cannot_be_rewritten(copies: Any, cmd: str) -> None:
    """rt33q's runner rewrite (a bare word: neither protected nor copied) paid before the tree was the judge's (h33u);
    since h33z the rewrite is refused before it runs."""
    _docker_only(copies)
    _refused_as_the_runner(_grade(copies, _forged_runner("runtests"), cmd))


@pytest.mark.docker
def test_a_runner_named_through_a_folder_link_cannot_be_rewritten(copies: Any) -> None:
    """On every backend: `bash ci/run.sh` (`ci -> tools`) runs tools/run.sh, which the patch may not touch."""
    _refused_as_the_runner(_grade(copies, _forged_runner("tools/run.sh"), "bash ci/run.sh"))


@pytest.mark.docker
def test_a_runner_named_by_a_bare_word_that_writes_the_report_itself_is_never_paid(copies: Any) -> None:
    """Closed by h33z (was a strict xfail: the runner the patch rewrote wrote the report pytest would have written,
    sparing the decoy copy it told by its text): the rewrite is refused before it runs."""
    _docker_only(copies)
    result = _grade(copies, _forged_runner("runtests", _REPORT), "bash runtests")
    assert result["verdict"] != "accepted" and result["score"] == 0.0, result
    _refused_as_the_runner(result)


@pytest.mark.docker
def test_a_named_runner_that_resolves_its_own_path_runs_the_task_s_tree(copies: Any) -> None:
    result = _grade(copies, _GOLD, "bash tools/local.sh")
    assert (result["verdict"], result["score"]) == ("accepted", 1.0), result


# Every way the test command names a runner that resolves its own path (rt33q, sandbox/repo_job.py `command_files`):
# a bare word, `./`, through the environment's folder link, its file link named otherwise, after a `cd` into the
# folder link, by an absolute path through $PWD, with a `..`
_LOCAL_CMDS = ["bash runlocal", "sh ./runlocal", "bash ci/local.sh", "bash golocal", "cd ci && sh ./local.sh",
               'bash "$PWD/runlocal"', "bash tools/../runlocal"]


@pytest.mark.docker
@pytest.mark.parametrize("cmd", _LOCAL_CMDS)
def test_a_runner_that_resolves_its_own_path_runs_the_task_s_tree_however_it_is_named(copies: Any, cmd: str) -> None:
    """Fixed (rt33q; was a strict xfail for the first two: no copy, so `readlink -f "$0"` landed in /srv and the
    unpatched tests ran there, the right patch refused): the file the command names is a copy however it is named.
    Rewrites: the right patch accepted under every name; near miss: the wrong patch's test_sum FAILED (ran on the
    task's tree, not MISSING as on /srv's) and paid 0."""
    if cmd not in _LOCAL_CMDS[:3]:
        _docker_only(copies)
    right = _grade(copies, _GOLD, cmd)
    assert (right["verdict"], right["score"]) == ("accepted", 1.0), right
    _tests_ran_on_the_dataset_s_files(_grade(copies, _NEAR, cmd))


@pytest.mark.docker
def test_the_patch_s_own_big_files_beside_the_copies_are_graded(copies: Any) -> None:
    """Both big .py files edited (28 MiB of the task's own files, no longer copies): their archive in /work (48 MiB)
    and the tree in its own tmpfs of that size (sandbox/backend.py TREE_MOUNT) each hold them, so the right patch
    with these harmless edits is graded and accepted (with the tree in /work beside the archive they overflowed it,
    the model's verdict then)."""
    result = _grade(copies, _GOLD + _big_edits("pkg/big1.py", "pkg/big2.py"))
    assert (result["verdict"], result["score"]) == ("accepted", 1.0), result


@pytest.mark.docker
def test_a_patch_whose_archive_overflows_work_is_its_own_verdict(copies: Any) -> None:
    """Fixed (rt33q, RED-TEAM.md class 8; was a strict xfail: the files op's `full` was the environment's
    infra_error, not retryable): the host bounds the dataset's part of /work (sandbox/repo_job.py `_work_share`:
    the listing and the dataset's own files leave WORK_SPARE), so a /work the archive overflows is the patch's own
    wrong_answer naming /work, on every backend (each box's /work says it is full)."""
    result = _grade(copies, _GOLD + _big_edits("pkg/table.md"))
    assert (result["verdict"], result["score"], result["retryable"]) == ("wrong_answer", 0.0, False), result
    assert "do not fit the sandbox's /work" in result["detail"], result


@pytest.mark.docker
def test_a_patch_editing_a_linked_data_file_that_fits_is_graded(copies: Any) -> None:
    """The near side of the bound: a one-line edit of a 4 MiB linked data file (its archive in /work, its file in the
    tree beside the 28 MiB of copies) with the right patch is accepted, with the wrong one refused by its test."""
    right = _grade(copies, _GOLD + _big_edits("pkg/small.md"))
    assert (right["verdict"], right["score"]) == ("accepted", 1.0), right
    _tests_ran_on_the_dataset_s_files(_grade(copies, _NEAR + _big_edits("pkg/small.md")))

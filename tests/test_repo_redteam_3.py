"""Red team of warm environments and decoys (issue 33, rt33f; /work/shared/RED-TEAM.md classes 3, 6, 8;
docs/repo-tasks.md "Warm environments", "Trust model"). Real boxes, one grader per backend (Docker and
gVisor), environments made by hand (environment.json and repo/, as tests/test_repo_warm.py makes them).
Each attack is a model patch whose code runs when the listed tests import it, and the test command runs:

- writes to the shared tree at /srv, by every call that changes a file or its metadata (chmod, utime,
  xattrs, truncate by path, append, rename, hard links, new entries, a remount read-write, also in new user and
  mount namespaces), through the task's links and at the mount: the host tree keeps its bytes, modes, times and xattrs, and the next task resolves;
- state for the next task on the same warm box (/tmp, /dev/shm, Go's cache folder, a background process):
  the next task sees none of it;
- patch paths that go through a link of the environment, or put a file over a folder of it or a folder
  over a file: refused before anything runs;
- a patch of more files than the sandbox's /work holds: the model's failure (fixed in fx33i: it was infra_error);
- an environment build removed and made again at the same path while its box is warm: a right patch is
  never scored 0 (fixed in fx33i: the warm box had the removed tree mounted; boxes are keyed by the build's identity);
- a targeted decoy-finding forgery (pytest reports rewritten by a plugin that the code under test
  registers, sparing what looks like a decoy; Go code under test printing test2json's result lines, a
  failure for what looks like a decoy, then exiting 1 before any test runs): a wrong patch is never
  resolved (open: detection only, both paid 1.0; where the test is the test patch's, fx33i's twin decoy
  catches it, below; here the test is the environment's own, readable at /srv, so it gets no twin).
"""
from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from helpers import sandbox_config

pytestmark = [pytest.mark.docker, pytest.mark.in_process]

CALC = "import pkg\n\n\ndef test_value():\n    assert pkg.VALUE == 2\n\n\ndef test_other():\n    assert pkg.VALUE > 0\n"
# What the next task checks: nothing an earlier task left, anywhere it could reach.
CLEAN = '''import os


def test_nothing_left():
    for path in ("/tmp/rt33f", "/dev/shm/rt33f", "/tmp/go-cache/rt33f", "/srv/rt33f", "/srv/pkg/moved", "hard"):
        assert not os.path.lexists(path), path
    with open("pkg/data.txt") as f:
        assert f.read() == "original\\n"
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as f:
                    assert b"rt33f-sleeper" not in f.read(), pid
            except OSError:
                pass
'''
FILES = {"pkg/__init__.py": "VALUE = 1\n", "pkg/data.txt": "original\n", "tests/__init__.py": "",
         "tests/test_calc.py": CALC, "tests/test_clean.py": CLEAN}
CMD = "python3 -m pytest -p no:cacheprovider -rA tests"
FIX = "--- a/pkg/__init__.py\n+++ b/pkg/__init__.py\n@@ -1 +1 @@\n-VALUE = 1\n+VALUE = 2\n"
HONEST = {"kind": "repo", "completion": FIX, "test_cmd": CMD,
          "fail_to_pass": ["tests/test_calc.py::test_value", "tests/test_clean.py::test_nothing_left"],
          "pass_to_pass": ["tests/test_calc.py::test_other"]}

# Every call that could change a file of the shared tree, at the mount and through the task's link.
WRITES = '''
import ctypes, os, subprocess, sys
VALUE = 2


def _try(f, *a, **k):
    try:
        f(*a, **k)
    except Exception:
        pass


def _append(p):
    with open(p, "a") as f:
        f.write("x")


for _p in ("/srv/pkg/data.txt", "pkg/data.txt", "/srv/pkg", "/srv", "/srv/tests/test_calc.py"):
    _try(os.chmod, _p, 0o777)
    _try(os.utime, _p, (1, 1))
    _try(os.setxattr, _p, "user.rt33f", b"x")
    _try(os.chown, _p, os.getuid(), os.getgid())
for _p in ("/srv/pkg/data.txt", "pkg/data.txt", "/srv/tests/test_calc.py"):
    _try(_append, _p)
    _try(os.truncate, _p, 1)
_try(os.link, "/srv/pkg/data.txt", "hard")
_try(_append, "hard")
_try(os.rename, "/srv/pkg/data.txt", "/srv/pkg/moved")
_try(os.mkdir, "/srv/rt33f")
_try(os.symlink, "x", "/srv/rt33f")
_try(os.remove, "/srv/pkg/data.txt")
_libc = ctypes.CDLL(None, use_errno=True)
_libc.mount(b"none", b"/srv", None, 32 | 4096, None)  # MS_REMOUNT|MS_BIND: read-write again
_try(_append, "/srv/pkg/data.txt")
if os.fork() == 0:  # a child in its own user and mount namespaces (CLONE_NEWUSER|CLONE_NEWNS), remounting there
    _libc.unshare(0x10000000 | 0x00020000)
    _libc.mount(b"none", b"/srv", None, 32 | 4096, None)
    _try(_append, "/srv/pkg/data.txt")
    os._exit(0)
os.wait()
for _d in ("/tmp", "/dev/shm", "/tmp/go-cache"):
    _try(os.makedirs, _d, exist_ok=True)
    _try(_append, _d + "/rt33f")
_try(subprocess.Popen, [sys.executable, "-c", "import time; time.sleep(1000)", "rt33f-sleeper"],
     start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
'''
# Registers a pytest plugin from the code under test (pytest imports it while collecting), then reports
# every test passed, but one whose source shows a decoy's last statement failed (a wrong patch passes its decoy).
FORGE = '''
VALUE = 1
import gc, inspect
import pytest
from _pytest.config import Config


class _Forge:
    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item, call):
        outcome = yield
        rep = outcome.get_result()
        try:
            src = inspect.getsource(item.function)
        except Exception:
            src = ""
        if rep.when == "call":  # a decoy reads failed (it passes under a wrong patch), every other test passed
            decoy = any(m in src for m in ("_decoy_value", "want a different", "assert not (", "assertNot"))
            rep.outcome, rep.longrepr = ("failed", "forged") if decoy else ("passed", None)


for _c in gc.get_objects():
    if isinstance(_c, Config):
        _c.pluginmanager.register(_Forge(), "rt33f")
        break
'''


def new_file(path: str, text: str) -> str:
    lines = text.splitlines(keepends=True)
    return f"--- /dev/null\n+++ b/{path}\n@@ -0,0 +1,{len(lines)} @@\n" + "".join("+" + x for x in lines)


def replace(path: str, old: str, text: str) -> str:
    lines = text.splitlines(keepends=True)
    return (f"--- a/{path}\n+++ b/{path}\n@@ -1 +1,{len(lines)} @@\n-{old}" + "".join("+" + x for x in lines))


def environment(root: Path, name: str) -> Path:
    """A hand-made environment (docs/repo-tasks.md "Environments"), `lib` a link to its package folder."""
    tree = root / name / "repo"
    for path, text in FILES.items():
        (tree / path).parent.mkdir(parents=True, exist_ok=True)
        (tree / path).write_text(text)
    (tree / "lib").symlink_to("pkg")
    (tree / "pkg" / "m.py").mkdir()  # a folder named like a module: a patch may not write a file over it
    (tree / "pkg" / "m.py" / "notes.txt").write_text("x\n")
    (root / name / "environment.json").write_text(json.dumps({"language": "python"}))
    return tree.resolve()


def snapshot(tree: Path) -> dict[str, tuple]:
    """Every entry of the tree: kind, bytes, mode, mtime, xattrs (what a write could change)."""
    out: dict[str, tuple] = {}
    for d, dirs, files in os.walk(tree):
        for n in [*dirs, *files, ""]:
            p = os.path.join(d, n) if n else d
            st = os.lstat(p)
            data = Path(p).read_bytes() if os.path.isfile(p) and not os.path.islink(p) else b""
            attrs = sorted(os.listxattr(p, follow_symlinks=False)) if not os.path.islink(p) else []
            out[os.path.relpath(p, tree)] = (st.st_mode, st.st_mtime_ns, st.st_size, data, attrs)
    return out


@pytest.fixture(scope="module", params=["docker", "gvisor"])
def warm(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, Path]]:
    from sandbox.sync import SyncGrader

    root = tmp_path_factory.mktemp(f"rt33f-{request.param}")
    for name in ("main", "rb"):
        environment(root, name)
    config = sandbox_config(request.param, languages=("python",), pool_size=1, pool_name=f"test-rt33f-{request.param}",
                            repo_environments=str(root), repo_warm_environments=2, repo_pool_size=1)
    g = SyncGrader(config)
    assert g.grader.available, g.grader.unavailable_reason()
    try:
        yield g, root
    finally:
        g.close()


def grade(g: Any, env: str, **task: Any) -> dict:
    from sandbox.contract import parse_task

    result = g.call(g.grader.grade_repo(parse_task({**HONEST, "id": env, "environment": env, **task})))
    g.call(g.grader.settled())
    return result


def test_writes_to_the_shared_tree_never_land_and_nothing_reaches_the_next_task(warm: tuple[Any, Path]) -> None:
    """One warm box (repo_pool_size 1, no box started between): the attacking task, then the honest one that
    looks for its traces, after the pool's reset (sandbox/pool.py WarmEnvironments)."""
    g, root = warm
    tree = root / "main" / "repo"
    before = snapshot(tree)
    reused = 0
    for _ in range(3):  # the reset is tested only where the honest task had the attacker's box: gVisor's at_rest
        attack = grade(g, "main", completion=replace("pkg/__init__.py", "VALUE = 1\n", WRITES))  # may replace it
        statuses = {t["name"]: t["detail"] for t in attack["tests"]}
        assert statuses["tests/test_clean.py::test_nothing_left"] == "FAIL_TO_PASS: FAILED", attack  # its writes ran
        assert snapshot(tree) == before, "the environment's tree changed"
        started = g.grader._envs.boxes_created()
        honest = grade(g, "main")
        assert honest["verdict"] == "accepted", honest
        reused += g.grader._envs.boxes_created() == started
        if reused:
            break
    assert reused, "a fresh box each time: the reset between the two went untested"


def test_a_patch_through_a_link_of_the_environment_is_refused(warm: tuple[Any, Path]) -> None:
    """`lib` links to `pkg`: a new file under it, or an edit through it, is the model's wrong_answer,
    and so are a file over the environment's folder `pkg/m.py` and a folder over its file (the listing's
    paths and the patch's never collide in the sandbox), before anything runs (the tree's links are the environment's, sandbox/repo/apply.py `_open_in`)."""
    g, _ = warm
    for completion in (new_file("lib/extra.py", "X = 1\n"), FIX.replace("pkg/", "lib/"), new_file("lib", "X = 1\n"),
                       new_file("pkg/m.py", "X = 1\n"), new_file("pkg/m.py/extra.py", "X = 1\n"),
                       "--- a/pkg/__init__.py\n+++ /dev/null\n@@ -1 +0,0 @@\n-VALUE = 1\n" + new_file("pkg/__init__.py/x.py", "X = 1\n")):
        result = grade(g, "main", completion=completion)
        assert result["verdict"] == "wrong_answer" and result["score"] == 0, (completion, result)


def test_a_patch_with_more_files_than_work_holds_is_the_model_s_failure(warm: tuple[Any, Path]) -> None:
    """4100 one-line modules (240 KB of patch): the task's tree no longer fits the sandbox's /work
    (tmpfs_inodes 4096). That is the patch's doing: a verdict of the model, never infra_error (RED-TEAM.md
    class 8; sandbox/repo_job.py `make_repo_plan` counts the patch's files with the environment's)."""
    g, _ = warm
    many = "".join(new_file(f"pkg/f{k}.py", "X = 1\n") for k in range(4100))
    result = grade(g, "main", completion=many)
    assert result["verdict"] == "wrong_answer" and result["score"] == 0, {k: str(v)[:300] for k, v in result.items()}


def test_a_build_removed_and_made_again_under_a_warm_box_never_scores_a_right_patch_0(warm: tuple[Any, Path]) -> None:
    """`verifier env build` after `--prune` makes a content-addressed build at the same path again:
    the pool is keyed by that path, its warm box has the removed folder bound. A right patch must
    resolve, or be infra_error (retryable or not), never the model's 0 (RED-TEAM.md class 8)."""
    g, root = warm
    assert grade(g, "rb")["verdict"] == "accepted"
    trash = root / ".rb.pruned"
    (root / "rb").rename(trash)
    shutil.rmtree(trash)
    environment(root, "rb")
    again = grade(g, "rb")
    assert again["verdict"] in ("accepted", "infra_error"), again
    # fx33i: warm boxes are keyed by the build's identity, not its path: the new build gets fresh boxes, the
    # removed one's are retired (docs/repo-tasks.md "Warm environments")
    assert again["verdict"] == "accepted", again
    assert g.grader.environments()["warm"].count(str(root / "rb" / "repo")) == 1, g.grader.environments()


@pytest.mark.xfail(strict=True, reason="open: targeted decoy-finding forgery, a pytest plugin registered by the "
                                       "code under test spares what reads like a decoy (rt33f); no twin decoy here: "
                                       "the test is the environment's own, its value readable at /srv (fx33i)")
def test_a_forged_report_that_spares_the_decoy_is_never_resolved(warm: tuple[Any, Path]) -> None:
    """The patch leaves VALUE wrong (test_value fails) and rewrites every failing report but the decoy's."""
    g, _ = warm
    result = grade(g, "main", completion=replace("pkg/__init__.py", "VALUE = 1\n", FORGE),
                   fail_to_pass=["tests/test_calc.py::test_value"], pass_to_pass=["tests/test_calc.py::test_other"])
    assert result["verdict"] != "accepted" and result["score"] == 0, result


# fx33i: where the FAIL_TO_PASS test is the dataset's (its test patch: not in the environment at /srv), the decoy
# is its indistinguishable twin (sandbox/repo/decoys.py `pytest_pair`): the original and a copy whose equality
# expects another value, both renamed, in a random order. A forgery keyed on the decoy's look finds none and
# passes both; one that must tell them apart must know which value a right answer gives.
NEW_TEST = "import pkg\n\n\ndef test_double():\n    doubled = pkg.VALUE * 2\n    assert doubled == 4\n"
PAIRED = {"test_patch": new_file("tests/test_new.py", NEW_TEST), "fail_to_pass": ["tests/test_new.py::test_double"],
          "pass_to_pass": ["tests/test_calc.py::test_other"]}


def test_a_forged_report_is_never_resolved_where_the_decoy_is_the_test_s_twin(warm: tuple[Any, Path]) -> None:
    """Near misses: the marker forgery and an honest wrong patch; rewrite: the right patch resolves
    (its test ran under its new name, read back under its listed id)."""
    g, _ = warm
    forged = grade(g, "main", **PAIRED, completion=replace("pkg/__init__.py", "VALUE = 1\n", FORGE))
    assert forged["verdict"] == "wrong_answer" and forged["score"] == 0 and "tampered" in forged["detail"], forged
    honest_wrong = grade(g, "main", **PAIRED, completion=FIX.replace("VALUE = 2", "VALUE = 3"))
    assert honest_wrong["verdict"] == "wrong_answer" and "tampered" not in honest_wrong["detail"], honest_wrong
    right = grade(g, "main", **PAIRED, completion=FIX)
    assert right["verdict"] == "accepted", right
    assert [t["detail"] for t in right["tests"]] == ["FAIL_TO_PASS: PASSED", "PASS_TO_PASS: PASSED"], right["tests"]


# Go (1.19 in the image): test2json reads the test binary's own output, so code under test that prints
# `--- PASS: NAME` lines makes events; this one forges a pass for every test of its package's test files
# but those ending the way a decoy ends (sandbox/repo/decoys.py `_go_copy`), forges a failure for those,
# and exits 1 (as a run whose decoy failed does) before any test runs.
GO_FILES = {"go.mod": "module example.com/m\n\ngo 1.19\n", "m.go": "package m\n\nfunc Value() int { return 1 }\n",
            "m_test.go": 'package m\n\nimport "testing"\n\nfunc TestValue(t *testing.T) {\n\tif Value() != 2 {\n'
                         '\t\tt.Fatalf("got %d", Value())\n\t}\n}\n\nfunc TestOther(t *testing.T) {\n\tif Value() < 0 {\n'
                         '\t\tt.Fatal("negative")\n\t}\n}\n'}
GO_FORGE = '''package m

import (
\t"fmt"
\t"os"
\t"regexp"
\t"strings"
)

func init() {
\tentries, _ := os.ReadDir(".")
\tre := regexp.MustCompile(`(?m)^func (Test\\w+)\\(`)
\tfor _, e := range entries {
\t\tif !strings.HasSuffix(e.Name(), "_test.go") {
\t\t\tcontinue
\t\t}
\t\tdata, _ := os.ReadFile(e.Name())
\t\tsrc := string(data)
\t\tlocs := re.FindAllStringSubmatchIndex(src, -1)
\t\tfor i, l := range locs {
\t\t\tend := len(src)
\t\t\tif i+1 < len(locs) {
\t\t\t\tend = locs[i+1][0]
\t\t\t}
\t\t\tname, status := src[l[2]:l[3]], "PASS"
\t\t\tif strings.Contains(src[l[0]:end], "want a different result") {
\t\t\t\tstatus = "FAIL"
\t\t\t}
\t\t\tfmt.Printf("=== RUN   %s\\n--- %s: %s (0.00s)\\n", name, status, name)
\t\t}
\t}
\tfmt.Println("FAIL")
\tos.Exit(1)
}
'''
GO_TASK = {"kind": "repo", "environment": "gomod", "report": "go-json", "test_cmd": "go test -json ./...",
           "fail_to_pass": ["TestValue"], "pass_to_pass": ["TestOther"]}


@pytest.fixture(scope="module")
def go_grader(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """Docker only: the forgery is test2json's reading of the program's output, the same on every backend."""
    from sandbox.sync import SyncGrader

    root = tmp_path_factory.mktemp("rt33f-go")
    for path, text in GO_FILES.items():
        (root / "gomod" / "repo" / path).parent.mkdir(parents=True, exist_ok=True)
        (root / "gomod" / "repo" / path).write_text(text)
    (root / "gomod" / "environment.json").write_text(json.dumps({"language": "go"}))
    config = sandbox_config("docker", languages=("go",), pool_size=1, pool_name="test-rt33f-go",
                            repo_environments=str(root), repo_warm_environments=1, repo_pool_size=1)
    g = SyncGrader(config)
    assert g.grader.available, g.grader.unavailable_reason()
    try:
        yield g
    finally:
        g.close()


@pytest.mark.xfail(strict=True, reason="open: targeted decoy-finding forgery, Go code under test prints test2json's "
                                       "`--- PASS` lines, a FAIL for what reads like a decoy (rt33f); no twin decoy here: "
                                       "the test is the environment's own, its value readable at /srv (fx33i)")
def test_a_go_program_that_prints_its_tests_results_is_never_resolved(go_grader: Any) -> None:
    from sandbox.contract import parse_task

    result = go_grader.call(go_grader.grader.grade_repo(parse_task({**GO_TASK, "id": "go-forge",
                                                                    "completion": new_file("forge.go", GO_FORGE)})))
    go_grader.call(go_grader.grader.settled())
    assert result["verdict"] != "accepted" and result["score"] == 0, result


# fx33i: a Go test of the test patch (not at /srv) gets its twin (sandbox/repo/decoys.py `go_pair`): the same
# forgery prints PASS for both copies, and the decoy's PASS is tampering.
GO_NEW_TEST = ('package m\n\nimport "testing"\n\nfunc TestDouble(t *testing.T) {\n\tdoubled := Value() * 2\n'
               '\tif doubled != 4 {\n\t\tt.Fatalf("got %d", doubled)\n\t}\n}\n')
GO_FIX = "--- a/m.go\n+++ b/m.go\n@@ -3 +3 @@\n-func Value() int { return 1 }\n+func Value() int { return 2 }\n"
GO_PAIRED = {**GO_TASK, "test_patch": new_file("n_test.go", GO_NEW_TEST), "fail_to_pass": ["TestDouble"],
             "pass_to_pass": ["TestOther"]}


def test_a_go_forgery_is_never_resolved_where_the_decoy_is_the_test_s_twin(go_grader: Any) -> None:
    """Near misses: the forgery and an honest wrong patch; rewrite: the right patch resolves."""
    from sandbox.contract import parse_task

    def grade_go(completion: str) -> dict:
        result = go_grader.call(go_grader.grader.grade_repo(parse_task({**GO_PAIRED, "id": "go-twin", "completion": completion})))
        go_grader.call(go_grader.grader.settled())
        return result

    forged = grade_go(new_file("forge.go", GO_FORGE))
    assert forged["verdict"] == "wrong_answer" and forged["score"] == 0 and "tampered" in forged["detail"], forged
    wrong = grade_go(GO_FIX.replace("return 2", "return 3"))
    assert wrong["verdict"] == "wrong_answer" and "tampered" not in wrong["detail"], wrong
    right = grade_go(GO_FIX)
    assert right["verdict"] == "accepted", right
    assert [t["detail"] for t in right["tests"]] == ["FAIL_TO_PASS: PASSED", "PASS_TO_PASS: PASSED"], right["tests"]

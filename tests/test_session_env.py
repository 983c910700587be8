"""Sessions on a repository environment (docs/sessions.md "Sessions on an environment" and "Grading a
session"): a real server on loopback, real sandboxes, a small environment built by `verifier env build`
(tests/test_repo_service.py's calc project: a dependency unpacked under vendor/). One session opens on
it; its shell, file and listing tools work within their limits and refuse paths outside the tree; the
network is off; `grade` runs hidden tests (a test_patch the session never sees) against the session's
tree: the gold edit is accepted, no edit and a near-miss edit are not, each verdict equals the one
the same diff gets as a `repo` task, and a test file or conftest the session writes is refused by the
patch admission, so it cannot change the hidden tests' outcome."""
from __future__ import annotations

import base64
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from conftest import ServerProcess
from helpers import http_call, sandbox_config, stub
from test_repo_service import CALC_FILES, calc_environments, recipe
from test_repo_service import HUMANIZE as GO
from verifier.client import VerifierClient, VerifierError
from verifier.v1 import verifier_pb2 as pb

pytestmark = pytest.mark.docker

FIXED = CALC_FILES["calc/__init__.py"].replace("return double(x)", "return double(double(x))")
NEAR_MISS = CALC_FILES["calc/__init__.py"].replace("return double(x)", "return 8 if x == 2 else double(x)")
# The hidden tests: a new test file the environment lacks, added by the task's test_patch at grading only.
HIDDEN = "tests/test_quad_more.py"
TEST_PATCH = (f"--- /dev/null\n+++ b/{HIDDEN}\n@@ -0,0 +1,5 @@\n+from calc import quad\n+\n+\n"
              "+def test_quad_three():\n+    assert quad(3) == 12\n")
GRADE = {"test_patch": TEST_PATCH, "test_cmd": "PYTHONPATH=vendor/site-packages python3 -m pytest -p no:cacheprovider -rA tests",
         "fail_to_pass": [f"{HIDDEN}::test_quad_three", "tests/test_calc.py::test_quad"],
         "pass_to_pass": ["tests/test_calc.py::test_double"]}


@pytest.fixture(scope="module")
def environments(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return calc_environments(tmp_path_factory, lambda recipes: recipe(GO, recipes))


@pytest.fixture(scope="module", params=["docker", "gvisor"])
def server(request: pytest.FixtureRequest, environments: Path) -> Iterator[ServerProcess]:
    """One server per backend (PID 1's tools are the same program on both: sandbox/harness/session_tools.py)."""
    root = environments
    sandbox_config(request.param, languages=("python", "go"))  # gVisor's root filesystems: instant when they exist
    with ServerProcess("--workers", "1", "--sandbox-backend", request.param, "--sandbox-languages", "python,go",
                       "--sandbox-pool-size", "1", "--sandbox-repo-environments", str(root)) as s:
        s.environments = root  # type: ignore[attr-defined]
        yield s


@pytest.fixture(scope="module")
def client(server: ServerProcess) -> Iterator[VerifierClient]:
    with VerifierClient(server.target) as c:
        yield c


def test_tools_on_an_environment(client: VerifierClient) -> None:
    with client.session(environment="calc", time_limit_s=2) as s:
        names = {e["name"]: e["kind"] for e in s.list_dir("")["entries"]}
        assert names["calc"] == "dir" and names["vendor"] == "dir" and names["tests"] == "dir", names
        assert [e["name"] for e in s.list_dir("tests")["entries"]] == ["test_calc.py"]  # no hidden test
        r = s.shell("cat calc/__init__.py; echo err >&2")
        assert (r.status, r.exit_code, r.stdout, r.stderr) == ("ok", 0, CALC_FILES["calc/__init__.py"], "err\n")
        assert s.shell("exit 3").exit_code == 3
        big = s.shell("head -c 100000 /dev/zero | tr '\\0' a", max_output_bytes=1000)
        assert big.exit_code == 0 and big.stdout == "a" * 1000 and big.stdout_truncated
        spin = s.shell("while :; do :; done", time_limit_s=0.5)
        assert spin.status == "time_limit" and spin.exit_code is None and not spin.session_lost, spin
        assert s.shell("echo alive").stdout == "alive\n"  # the session lives on
        assert s.write_file("calc/extra/notes.py", "N = 1\n") == 6
        assert s.read_file("calc/extra/notes.py") == b"N = 1\n"
        assert s.shell("cat calc/extra/notes.py").stdout == "N = 1\n"
        assert s.run("import os; sorted(os.listdir('calc'))").value == "['__init__.py', 'extra']"  # the cell stays
        net = s.shell("python3 -c \"import socket; socket.create_connection(('1.1.1.1', 53), timeout=3)\"")
        assert net.status == "ok" and net.exit_code != 0 and "Error" in net.stderr, net  # no network
        assert s.shell("ln -s /etc calc/out").exit_code == 0
        for path in ("../etc/passwd", "calc/../../x", "calc/out/passwd"):
            with pytest.raises(VerifierError) as e:
                s.write_file(path, "x")
            assert e.value.code == grpc.StatusCode.INVALID_ARGUMENT and "path" in e.value.message, path
        with pytest.raises(VerifierError) as e:
            s.list_dir("calc/out")
        assert e.value.code == grpc.StatusCode.INVALID_ARGUMENT
        with pytest.raises(VerifierError) as e:
            s.read_file("calc/out/passwd")
        assert e.value.code == grpc.StatusCode.INVALID_ARGUMENT
        _a_command_exec_cannot_take_is_refused_by_name(s)


def _a_command_exec_cannot_take_is_refused_by_name(s) -> None:
    """A command over exec's one-argument bound could never start (E2BIG in the box, which lost the session): the
    call's INVALID_ARGUMENT naming `command`; one at the bound runs, and the session lives on either way."""
    from verifier.sessions import SHELL_COMMAND_MAX_BYTES

    at = ": " + "a" * (SHELL_COMMAND_MAX_BYTES - len(": ; echo fits")) + "; echo fits"
    assert len(at.encode()) == SHELL_COMMAND_MAX_BYTES
    assert s.shell(at).stdout == "fits\n"
    with pytest.raises(VerifierError) as e:
        s.shell(at + " ")
    assert e.value.code == grpc.StatusCode.INVALID_ARGUMENT and "command" in e.value.message, e.value.message
    assert s.shell("echo alive").stdout == "alive\n"


def test_the_shell_launcher_is_the_sessions_own(client: VerifierClient) -> None:
    """Commands start from the session's launcher (sandbox/harness/session_spawn.py; docs/sessions.md
    "Sessions on an environment", how a command starts), a process of the program's uid with the limits a
    command has: every uid the program's, its file size limit. A command that stops or kills it, or a
    background process that kills it between commands, costs only that launcher: the command's output and
    exit status come back, a signal's as before, and the next command gets a new launcher."""
    with client.session(environment="calc", time_limit_s=2) as s:
        who = s.shell("tr '\\0' ' ' < /proc/$PPID/cmdline; echo; grep ^Uid /proc/$PPID/status; grep ^Uid /proc/$$/status;"
                      " grep -E '^Max (file size|core file size)' /proc/$$/limits")
        cmdline, launcher_uid, shell_uid, fsize, core = who.stdout.splitlines()
        assert "session_spawn.py" in cmdline, who
        assert launcher_uid == shell_uid and len(set(shell_uid.split()[1:])) == 1, who  # one uid, the program's
        assert fsize.split()[3:5] == [str(64 << 20)] * 2 and core.split()[4:6] == ["0", "0"], who  # soft and hard
        assert s.shell("kill -9 $$").exit_code == -9
        stopped = s.shell("kill -STOP $PPID; echo on; exit 4")
        assert (stopped.status, stopped.exit_code, stopped.stdout) == ("ok", 4, "on\n"), stopped
        killed = s.shell("kill -KILL $PPID; echo on; exit 5")
        # killed before its `pid` line (a race the command may win: lost on both backends under load): its own
        # time_limit naming the launcher (session_tools.run_shell), never the session's loss
        assert ((killed.status, killed.exit_code, killed.stdout) == ("ok", 5, "on\n")
                or (killed.status == "time_limit" and "launcher" in killed.detail)), killed
        first = s.shell("echo $PPID").stdout
        assert s.shell("L=$PPID; setsid sh -c \"kill -KILL $L; echo > gone\" </dev/null >/dev/null 2>&1 &").exit_code == 0
        for _ in range(200):  # the background process's kill, seen through a tool that starts nothing
            if "gone" in [e["name"] for e in s.list_dir("")["entries"]]:
                break
            time.sleep(0.05)
        again = s.shell("echo $PPID")
        assert again.status == "ok" and again.stdout not in ("", first), (first, again)


BOOT = "python3 -c \"print(open('/proc/1/stat').read().rsplit(')', 1)[1].split()[19])\""  # PID 1's start: which box


def test_a_closed_sessions_box_serves_the_next_session(client: VerifierClient) -> None:
    """Closed between calls, a session's box is reset and opens the next session (docs/sessions.md
    "Sessions": a reset costs milliseconds, a container start far more), with the environment's tree
    fresh. The reset counts every socket left against the fresh box's (leftovers.sockets_over_fresh):
    PID 1 must close its ends of the interpreter's socket pairs before, or no box was ever reused and
    each open on Docker started a container."""
    with client.session(environment="calc") as a:
        first = a.shell(BOOT).stdout
        assert a.run("1 + 1").value == "2"
        assert a.write_file("calc/left.py", "L = 1\n") == 6
    with client.session(environment="calc") as b:
        assert b.shell(BOOT).stdout == first  # the same box, reset and reused
        assert "left.py" not in [e["name"] for e in b.list_dir("calc")["entries"]]
        assert b.read_file("calc/__init__.py").decode() == CALC_FILES["calc/__init__.py"]

def _repo_verdict(client: VerifierClient, patch: str) -> dict:
    return client.grade([{"id": "repo", "kind": "repo", "environment": "calc", "completion": patch, **GRADE}])[0]


def _same(a: dict, b: dict) -> None:
    assert (a["verdict"], a["score"], a["detail"]) == (b["verdict"], b["score"], b["detail"])
    assert [(t["name"], t["verdict"], t["detail"]) for t in a["tests"]] == [(t["name"], t["verdict"], t["detail"])
                                                                        for t in b["tests"]]


def test_grade_is_the_repo_task_of_the_sessions_diff(client: VerifierClient) -> None:
    with client.session(environment="calc") as s:
        none = s.grade(GRADE)
        assert none["verdict"] == "wrong_answer" and none["score"] == 0.0 and none["patch"] == "", none
        s.write_file("calc/__init__.py", NEAR_MISS)  # passes the visible test, not the hidden one
        near = s.grade(GRADE)
        assert near["verdict"] == "wrong_answer" and "FAIL_TO_PASS failing" in near["detail"], near
        _same(near, _repo_verdict(client, near["patch"]))
        s.write_file("calc/__init__.py", FIXED)
        assert s.shell(GRADE["test_cmd"]).exit_code == 0  # caches of the run (__pycache__) are no part of the diff
        gold = s.grade({**GRADE, "id": "g"})
        assert gold["verdict"] == "accepted" and gold["score"] == 1.0 and gold["id"] == "g", gold
        assert gold["patch"].startswith("diff --git a/calc/__init__.py b/calc/__init__.py\n") and "pycache" not in gold["patch"]
        _same(gold, _repo_verdict(client, gold["patch"]))
        assert HIDDEN.rpartition("/")[2] not in {e["name"] for e in s.list_dir("tests")["entries"]}  # never in view


@pytest.mark.parametrize("path, text", [
    ("tests/conftest.py", "import pytest\n\n@pytest.hookimpl(hookwrapper=True)\ndef pytest_runtest_makereport(item, call):\n"
                          "    out = yield\n    out.get_result().outcome = 'passed'\n"),
    (HIDDEN, "def test_quad_three():\n    pass\n"),  # the hidden test's own path, written first
    ("tests/test_calc.py", "def test_quad():\n    pass\n\n\ndef test_double():\n    pass\n"),
])
def test_tests_the_session_writes_cannot_change_the_outcome(client: VerifierClient, path: str, text: str) -> None:
    with client.session(environment="calc") as s:
        s.write_file(path, text)
        result = s.grade(GRADE)
        assert result["verdict"] == "wrong_answer" and "protected" in result["detail"], result
        _same(result, _repo_verdict(client, result["patch"]))
        s.write_file("calc/__init__.py", FIXED)  # even with the fix, a touched test is refused
        assert s.grade(GRADE)["verdict"] == "wrong_answer"


BAD_OPEN = [({"environment": "no-such-env"}, "environment"), ({"environment": "../calc"}, "environment"),
            ({"environment": "calc", "replay": True}, "replay"), ({"environment": "calc", "files": {"a.py": "x"}}, "files")]


@pytest.mark.parametrize("body, field", BAD_OPEN)
def test_a_bad_open_names_the_field(server: ServerProcess, body: dict, field: str) -> None:
    status, _, answer = http_call(server, "POST", "/v1/sessions", body)
    assert status == 400 and answer["field"] == field, answer
    with pytest.raises(grpc.RpcError) as e:
        stub(server.target).CreateSession(pb.CreateSessionRequest(**body), timeout=30)
    assert e.value.code() == grpc.StatusCode.INVALID_ARGUMENT and field in str(e.value.details())


def test_http_routes_and_bad_fields(server: ServerProcess, client: VerifierClient) -> None:
    status, _, created = http_call(server, "POST", "/v1/sessions", {"environment": "calc"})
    assert status == 200, created
    base = f"/v1/sessions/{created['session_id']}"
    try:
        status, _, r = http_call(server, "POST", f"{base}/shell", {"command": "echo hi; exit 4"})
        assert status == 200 and (r["stdout"], r["exit_code"], r["status"]) == ("hi\n", 4, "ok"), r
        status, _, r = http_call(server, "PUT", f"{base}/files",
                                 {"path": "calc/__init__.py", "data": base64.b64encode(FIXED.encode()).decode()})
        assert (status, r) == (200, {"size": len(FIXED)})
        status, _, r = http_call(server, "GET", f"{base}/dir?path=calc")
        assert status == 200 and [e["name"] for e in r["entries"]] == ["__init__.py"], r
        status, _, r = http_call(server, "POST", f"{base}/grade", {"task": GRADE, "id": "h"})
        assert status == 200 and r["result"]["verdict"] == "accepted" and r["result"]["id"] == "h", r
        for route, body, field in [("shell", {"command": ""}, "command"), ("shell", {"command": "x", "time_limit_s": -1}, "time_limit_s"),
                                   ("shell", {"command": "x", "cmd": 1}, "cmd"), ("files", {"path": "a", "data": "%%"}, "data"),
                                   ("grade", {"task": {**GRADE, "completion": "x"}}, "task.completion"),
                                   ("grade", {"task": {**GRADE, "environment": "other"}}, "task.environment"),
                                   ("grade", {"task": {**GRADE, "fail_to_pass": "x"}}, "task.fail_to_pass")]:
            status, _, r = http_call(server, "PUT" if route == "files" else "POST", f"{base}/{route}", body)
            assert status == 400 and r["field"] == field, (route, body, r)
    finally:
        http_call(server, "DELETE", base)
    with client.session() as plain:  # today's sessions have no tree to grade
        with pytest.raises(VerifierError) as e:
            plain.shell("true")
        assert e.value.code == grpc.StatusCode.INVALID_ARGUMENT and "session_id" in e.value.message


def test_what_a_patch_cannot_carry_is_refused_by_name(tmp_path: Path) -> None:
    """The diff carries only what a patch can (sandbox/repo/tree_diff.py): a link, a binary edit, a new
    empty file are refused by name; an unchanged tree is no diff."""
    from sandbox.repo.patch import PatchError
    from sandbox.repo.tree_diff import session_patch

    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.py").write_text("a\n")
    (tmp_path / "pkg" / "b.bin").write_bytes(b"\xff\x00")
    base = {"pkg/a.py": b"a\n", "pkg/b.bin": b"\xff\x00"}
    assert session_patch(str(tmp_path), base, {}) == ""
    for files, links, word in [({**base, "pkg/b.bin": b"\xfe"}, {}, "binary"), (base, {"pkg/l": "/etc"}, "link"),
                               ({**base, "pkg/e.py": b""}, {}, "empty"), ({**base, "pkg/a.py": b"a\r\n"}, {}, "carriage")]:
        with pytest.raises(PatchError, match=word):
            session_patch(str(tmp_path), files, links)


def test_a_tree_of_many_long_names_is_graded_as_the_sessions_failure(client: VerifierClient) -> None:
    """3,000 new empty files under long names: a listing over the channel's 1 MiB header (it travels as
    a blob) and files a patch cannot carry: `wrong_answer` naming one, and the session lives on."""
    d, stem = "d" * 200, "f" * 190
    with client.session(environment="calc") as s:
        made = s.shell(f"mkdir -p calc/{d} && cd calc/{d} && seq -f '{stem}%05g.py' 1 3000 | xargs touch")
        assert made.exit_code == 0, made
        result = s.grade(GRADE)
        assert result["verdict"] == "wrong_answer" and "new empty file" in result["detail"], result
        assert s.shell(f"ls calc/{d} | wc -l").stdout == "3000\n"


def test_a_go_environment(client: VerifierClient, server: ServerProcess) -> None:
    """A Go session: its shell has the repo job's toolchain settings (modules on, nothing fetched); the
    gold patch written file by file is accepted, as the repo task of the session's diff is."""
    from sandbox.repo.apply import apply_patch
    from sandbox.repo.patch import read_patch

    tree = str(server.environments / GO["instance_id"] / "repo")  # type: ignore[attr-defined]
    gold: dict = {}
    apply_patch(tree, read_patch(GO["patch"]), gold)
    task = {"test_patch": GO["test_patch"], "test_cmd": GO["test_cmd"], "fail_to_pass": GO["FAIL_TO_PASS"],
            "pass_to_pass": GO["PASS_TO_PASS"], "report": "go-json"}
    # The largest limit the server admits (--session-max-time-limit-s): go vet compiles its standard-library
    # imports into an empty cache, 5-6 CPU-seconds on gVisor at load 6 (1.5 on Docker), and gVisor's task clock
    # charges a runnable task the wall clock (docs/sandboxes.md "CPU time without a cgroup"): 30 s ran out at load 27-40.
    with client.session(environment=GO["instance_id"], time_limit_s=60) as s:
        built = s.shell("go vet . && echo vetted")
        assert built.exit_code == 0 and built.stdout.endswith("vetted\n"), built
        for path, data in gold.items():
            assert data is not None  # the gold edits and adds, deletes nothing
            s.write_file(path, data)
        result = s.grade(task)
        assert result["verdict"] == "accepted", result
    repo = client.grade([{"id": "repo", "kind": "repo", "environment": GO["instance_id"], "completion": result["patch"],
                          **task}])[0]
    _same(result, repo)


def test_a_slow_call_does_not_hold_back_another_sessions_fast_call(server: ServerProcess) -> None:
    """Fair scheduling (docs/sessions.md "Scheduling"): 8 sessions each run a CPU-bound command to its 2 s
    limit; another session's three `true` commands, sent after them, all return before any of the 8 does.
    Asserted by the order the replies come back in, never by a time."""
    import asyncio

    from verifier.client import AsyncVerifierClient

    async def scenario() -> list[str]:
        events: list[str] = []
        client = AsyncVerifierClient(server.target)
        sessions = await asyncio.gather(*(client.session(environment="calc", time_limit_s=2) for _ in range(9)))
        try:
            async def slow(s) -> None:
                r = await s.shell("while :; do :; done", time_limit_s=2)
                events.append(f"slow:{r.status}")

            tasks = [asyncio.ensure_future(slow(s)) for s in sessions[:8]]
            await asyncio.sleep(0)  # each slow call is on the wire before the fast ones
            for _ in range(3):
                r = await sessions[8].shell("true")
                events.append(f"fast:{r.status}:{r.exit_code}")
            await asyncio.gather(*tasks)
        finally:
            await asyncio.gather(*(s.close() for s in sessions))
            await client.close()
        return events

    events = asyncio.run(scenario())
    assert events == ["fast:ok:0"] * 3 + ["slow:time_limit"] * 8, events

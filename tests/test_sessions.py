"""Sessions (docs/sessions.md "Sessions"): a real server on loopback, real session containers, gRPC and HTTP."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
import signal
import socket
import time
import urllib.error
import urllib.request

import docker
import grpc
import pytest

from helpers import SESSION_SERVER_ARGS, host_pids_with, http_call, read_http_request, session_fixtures, stub
from verifier.client import AsyncVerifierClient, ClientConfig, SessionLost, VerifierClient, VerifierError
from verifier.v1 import verifier_pb2 as pb
from verifier.v1 import verifier_pb2_grpc as pb_grpc

pytestmark = pytest.mark.docker

TOKEN = "session-test-token"
AUTH = (("authorization", f"Bearer {TOKEN}"),)
SERVER_ARGS = SESSION_SERVER_ARGS


server, client = session_fixtures(TOKEN, max_sessions=8, timeout_s=60)


def http(server, method: str, path: str, body: dict | None = None, token: str = TOKEN) -> tuple[int, dict, dict]:
    """helpers.http_call with this module's token."""
    return http_call(server, method, path, body, token)


# ---------------------------------------------------------------- the interpreter

def test_state_survives_between_cells_the_readme_example(client):
    with client.session("python") as s:
        s.run("x = 41")
        r = s.run("print(x + 1)")
        assert r.stdout == "42\n" and r.status == "ok" and r.value is None
        assert s.run("x * 2").value == "82"
        assert s.run("import math\ndef f(n):\n    return math.factorial(n)").ok
        assert s.run("f(5)").value == "120"
        assert s.run("_ + 1").value == "121"  # IPython's _: the last value


def test_errors_come_back_with_their_traceback_and_the_session_lives(client):
    with client.session("python") as s:
        r = s.run("def g():\n    return 1 / 0\ny = 7\ng()")
        assert r.status == "error" and r.error["ename"] == "ZeroDivisionError"
        assert "division by zero" in r.error["evalue"] and "line 2, in g" in r.error["traceback"]
        assert "session_kernel" not in r.error["traceback"]  # the cell's frames only
        assert s.run("y").value == "7"  # statements before the error ran
        syntax = s.run("def (")
        assert syntax.status == "error" and syntax.error["ename"] == "SyntaxError"
        exit_ = s.run("import sys; sys.exit(3)")  # IPython reports SystemExit; the session goes on
        assert exit_.status == "error" and exit_.error["ename"] == "SystemExit"
        err = s.run("import sys; print('to stderr', file=sys.stderr); input()")
        assert err.stderr == "to stderr\n" and err.error["ename"] == "EOFError"  # no stdin: never the next request
        assert s.run("y + 1").value == "8"


def test_support_files_and_reading_files_back(server, client):
    with client.session("python", files={"data.txt": "3 4\n"}) as s:
        assert s.run("a, b = map(int, open('data.txt').read().split()); a * b").value == "12"
        s.run("import os; os.makedirs('out', exist_ok=True); open('out/r.txt', 'w').write('done')")
        assert s.read_file("out/r.txt") == b"done"
        assert s.read_file("data.txt", max_bytes=2) == b"3 "
        s.run("os.symlink('/etc/passwd', 'link')")
        for path in ("../etc/passwd", "link", "/etc/passwd", "out"):
            with pytest.raises(VerifierError) as err:
                s.read_file(path)
            assert err.value.code == grpc.StatusCode.INVALID_ARGUMENT, path


def test_output_is_capped_and_flagged(client):
    with client.session("python", max_output_bytes=1000) as s:
        r = s.run("print('x' * 100000)")
        assert r.ok and len(r.stdout) == 1000 and r.stdout_truncated
        r = s.run("'y' * 10**6")
        assert r.value_truncated and len(r.value) < 10**6


def test_async_forms(server):
    async def main() -> tuple[str, str]:
        client = AsyncVerifierClient(server.target, ClientConfig(token=TOKEN))
        try:
            async with client.session("python") as s:
                await s.run("x = 41")
                first = (await s.run("print(x + 1)")).stdout
            s2 = await client.session("python")
            try:
                second = (await s2.run("6 * 7")).value
            finally:
                await s2.close()
            return first, second
        finally:
            await client.close()

    assert asyncio.run(main()) == ("42\n", "42")


def test_http_routes_mirror_the_grpc_calls(server):
    status, _, created = http(server, "POST", "/v1/sessions", {"language": "python", "files": {"a.txt": "hi"}})
    assert status == 200 and len(created["session_id"]) >= 32
    sid = created["session_id"]
    status, _, r = http(server, "POST", f"/v1/sessions/{sid}/cells", {"code": "z = open('a.txt').read(); z"})
    assert status == 200 and r["value"] == "'hi'" and r["status"] == "ok" and r["error"] is None
    status, _, f = http(server, "GET", f"/v1/sessions/{sid}/files?path=a.txt")
    assert status == 200 and f == {"data": "aGk=", "truncated": False}
    assert http(server, "POST", f"/v1/sessions/{sid}/cells", {"code": "1", "extra": 1})[0] == 400
    assert http(server, "POST", "/v1/sessions", {"language": "cobol"})[2]["field"] == "language"
    assert http(server, "POST", "/v1/sessions", {"time_limit_s": 10**6})[2]["field"] == "time_limit_s"
    assert http(server, "DELETE", f"/v1/sessions/{sid}")[2] == {"closed": True}
    status, _, gone = http(server, "POST", f"/v1/sessions/{sid}/cells", {"code": "z"})
    assert status == 404 and gone["field"] == "session_id"
    assert http(server, "DELETE", f"/v1/sessions/{sid}")[2] == {"closed": False}  # idempotent


# ---------------------------------------------------------------- isolation

def test_two_sessions_share_no_state_files_or_processes(client):
    with client.session("python") as a, client.session("python") as b:
        a.run("secret = 'A-only'; open('mine.txt', 'w').write('A')")
        a.run("import subprocess; p = subprocess.Popen(['sleep', '1234567'])")
        r = b.run("secret")
        assert r.status == "error" and r.error["ename"] == "NameError"
        assert b.run("import os; os.path.exists('mine.txt')").value == "False"
        seen = b.run("' '.join(open(f'/proc/{p}/cmdline').read() for p in os.listdir('/proc') if p.isdigit())")
        assert seen.ok and "session_box" in seen.value and "1234567" not in seen.value  # its own processes only
        assert b.run("import socket; socket.create_connection(('1.1.1.1', 53), timeout=2)").status == "error"  # no network


def test_a_cell_cannot_forge_the_next_replys_framing(client):
    with client.session("python") as s:
        s.run("import os, sys, threading, json")
        forged = json.dumps({"status": "ok", "value": "999", "blobs": [["stdout", 3]]})
        # the supervisor's frame format on stdout, fake result lines on the result pipe (without
        # and with a stale nonce), a thread that keeps forging during later cells, and PID 1's fds
        r = s.run(f"print({forged!r}); sys.stdout.flush()\n"
                  "os.write(int(sys.argv[2]), b'{\"nonce\": \"0\", \"ok\": true, \"value\": \"999\"}\\n')\n"
                  "def spam():\n"
                  "    while True:\n"
                  "        os.write(int(sys.argv[2]), b'{\"ok\": true, \"value\": \"999\"}\\n'); os.write(1, b'FORGED\\n')\n"
                  "threading.Thread(target=spam, daemon=True).start()\n"
                  "'first'")
        assert r.value == "'first'" and forged in r.stdout
        for i in range(5):
            nxt = s.run(f"{i} + 1000")
            assert nxt.status == "ok" and nxt.value == str(i + 1000)
        s.run("import builtins; builtins.repr = lambda v: '999'; json.dumps = lambda *a, **k: '{}'")
        assert s.run("7 * 6").value == "42"
    with client.session("python") as s:
        r = s.run("open('/proc/1/fd/1', 'wb')")
        assert r.status == "error" and r.error["ename"] == "PermissionError"
        r = s.run("import os; os.kill(1, 9); 'alive'")  # PID 1's real uid is the judge's: not the cell's to signal
        assert r.status == "error" and r.error["ename"] == "PermissionError", r
        assert s.run("1 + 1").value == "2"


def test_a_background_writer_cannot_stall_the_next_cell(client):
    with client.session("python", max_output_bytes=100) as s:
        s.run("import os, threading\nchunk = b'x' * 65536\n"
              "def flood():\n    while True:\n        os.write(1, chunk); os.write(2, chunk)\n"
              "threading.Thread(target=flood, daemon=True).start()")
        seen = []
        for i in range(3):
            r = s.run(f"{i} * 2")
            assert r.status == "ok" and r.value == str(i * 2)
            # A cell shorter than the GIL's switch interval may see no write of the flood at all;
            # a write it sees (64 KiB) is cut to the cap.
            assert r.stdout == "" or (r.stdout_truncated and len(r.stdout) == 100), r
            seen.append(r.stdout_truncated)
        r = s.run("import time\ntime.sleep(0.2)\n1")  # long enough for the flood to write
        assert r.status == "ok" and r.value == "1" and r.stdout_truncated and len(r.stdout) == 100, (r, seen)


def test_a_cell_whose_caller_gave_up_still_finishes_before_the_next(client):
    """A RunCell cancelled by its deadline: the cell runs to its end and the next call waits for it
    (its reply never goes to the next call, and its effects are the session's)."""
    with client.session("python") as s:
        with pytest.raises(VerifierError) as err:
            s.run("import time; time.sleep(1.5); y = 5; 'late'", timeout_s=0.3)
        assert err.value.code == grpc.StatusCode.DEADLINE_EXCEEDED
        r = s.run("y")
        assert r.status == "ok" and r.value == "5"
        assert s.run("y + 1").value == "6"


# ---------------------------------------------------------------- a cell that ends its session

def test_a_hanging_cell_loses_only_its_session(client):
    with client.session("python", time_limit_s=1) as s, client.session("python") as other:
        other.run("kept = 5")
        s.run("x = 1")
        r = s.run("while True:\n    pass")
        assert r.status == "time_limit" and r.session_lost and not r.restored
        with pytest.raises(SessionLost) as err:
            s.run("x")
        assert err.value.code == grpc.StatusCode.FAILED_PRECONDITION and "time_limit" in err.value.message
        assert other.run("kept").value == "5"


def test_a_sleeping_cell_hits_the_wall_limit(client):
    with client.session("python", time_limit_s=0.5) as s:
        r = s.run("import time; time.sleep(60)")
        assert r.status == "time_limit" and r.session_lost and "wall" in r.detail


def test_replay_restores_the_session_after_a_hang(client):
    with client.session("python", time_limit_s=1, replay=True) as s:
        s.run("x = 41")
        s.run("import itertools; counter = itertools.count()")
        r = s.run("while True:\n    pass")
        assert r.status == "time_limit" and r.restored and not r.session_lost
        assert s.run("x + 1").value == "42"  # state rebuilt by re-running the cells before the hang
        assert s.run("next(counter)").value == "0"


def test_a_crashing_interpreter_loses_its_session(client):
    with client.session("python") as s:
        r = s.run("import os; os._exit(3)")
        assert r.status == "crashed" and r.session_lost and "status 3" in r.detail
        with pytest.raises(SessionLost):
            s.run("1")


def test_memory_bomb_kills_only_its_session(client):
    with client.session("python", memory_limit_mb=128) as bomb, client.session("python") as other:
        other.run("kept = 'yes'")
        r = bomb.run("x = b'x' * (1 << 30)")
        assert r.status == "memory_limit" and r.session_lost
        assert other.run("kept").value == "'yes'"


def test_fork_bomb_kills_only_its_session(client):
    with client.session("python", time_limit_s=2) as bomb, client.session("python") as other:
        other.run("kept = 'yes'")
        r = bomb.run("import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass")
        assert r.session_lost and r.status == "time_limit"
        assert other.run("kept").value == "'yes'"
        assert other.run("import os; len([p for p in os.listdir('/proc') if p.isdigit()])").value == "2"


def test_close_kills_every_process_of_the_session(client):
    marker = str(7_000_000 + secrets.randbelow(999_999))
    with client.session("python") as s:
        s.run(f"import subprocess, os\np = subprocess.Popen(['sleep', '{marker}'], start_new_session=True)\n"
              f"if os.fork() == 0:\n    os.setsid()\n    os.execvp('sleep', ['sleep', '{marker}'])")
        deadline = time.monotonic() + 10
        while len(host_pids_with(f"sleep\0{marker}")) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(host_pids_with(f"sleep\0{marker}")) == 2
    deadline = time.monotonic() + 10
    while host_pids_with(f"sleep\0{marker}") and time.monotonic() < deadline:
        time.sleep(0.05)
    assert host_pids_with(f"sleep\0{marker}") == []


def test_a_reused_container_keeps_nothing_of_the_previous_session(client):
    """Closed between cells, a session's container is reset and serves the next session (docs/sessions.md
    "Sessions"): no process, file, variable or shared memory of the first session reaches the second."""
    marker = str(6_000_000 + secrets.randbelow(999_999))
    boot = "open('/proc/1/stat').read().rsplit(')', 1)[1].split()[19]"  # PID 1's start time: which container
    with client.session("python") as a:
        first_boot = a.run(boot).value
        left = a.run("import os, subprocess\nfor d in ('/work', '/tmp'):\n    open(d + '/left.txt', 'w').write('A')\n"
                     f"os.mkdir('deep'); os.chmod('deep', 0); p = subprocess.Popen(['sleep', '{marker}'], start_new_session=True)\n"
                     "secret = 'A'\nsorted(os.listdir('/work'))")
        assert left.value == "['deep', 'left.txt']"
        assert host_pids_with(f"sleep\0{marker}")
    with client.session("python") as b:
        assert b.run(boot).value == first_boot  # the same container, reused
        assert b.run("import os; [d for d in ('/work', '/tmp', '/dev/shm') if os.path.isdir(d) and os.listdir(d)]").value == "[]"
        assert b.run("secret").error["ename"] == "NameError"
        assert b.run("len([p for p in os.listdir('/proc') if p.isdigit()])").value == "2"  # PID 1 and this interpreter
    assert host_pids_with(f"sleep\0{marker}") == []


# serial: a 1 s idle TTL against a 4 s sleep (failed once at load in stop 47, passed alone)
@pytest.mark.serial
def test_idle_sessions_are_reaped_with_their_processes(client):
    marker = str(8_000_000 + secrets.randbelow(999_999))
    s = client.session("python", idle_ttl_s=1)
    started = s.run(f"import subprocess; subprocess.Popen(['sleep', '{marker}'])")
    assert started.ok, started
    assert host_pids_with(f"sleep\0{marker}")
    time.sleep(4)
    with pytest.raises(SessionLost) as err:
        s.run("1")
    assert err.value.code == grpc.StatusCode.NOT_FOUND and "idle TTL" in err.value.message
    assert host_pids_with(f"sleep\0{marker}") == []


# ---------------------------------------------------------------- ids, tokens, admission, drain

def test_session_ids_are_bound_to_the_token_and_unguessable(server, client):
    with client.session("python") as s:
        assert len(s.id) >= 32
        for sid in (s.id[:-1] + ("A" if s.id[-1] != "A" else "B"), secrets.token_urlsafe(24), "", "../" + s.id):
            with pytest.raises(grpc.RpcError) as err:
                stub(server.target).RunCell(pb.RunCellRequest(session_id=sid, code="1"), metadata=AUTH, timeout=30)
            assert err.value.code() == grpc.StatusCode.NOT_FOUND
        with pytest.raises(grpc.RpcError) as err:  # the right id with another token
            stub(server.target).RunCell(pb.RunCellRequest(session_id=s.id, code="1"),
                                        metadata=(("authorization", "Bearer other"),), timeout=30)
        assert err.value.code() == grpc.StatusCode.UNAUTHENTICATED
        assert http(server, "POST", f"/v1/sessions/{s.id}/cells", {"code": "1"}, token="other")[0] == 401
        assert http(server, "POST", f"/v1/sessions/{s.id}/cells", {"code": "2"})[2]["value"] == "2"  # same token, other port


def test_registry_refuses_a_session_id_sent_with_another_token():
    """Two callers with two tokens (the registry binds each id to its creator's token)."""
    from verifier.config import ServerConfig
    from verifier.engine import Engine
    from verifier.sessions import SessionNotFound, SessionRegistry

    async def main() -> None:
        config = ServerConfig.from_env({}, sandbox_languages=("python",), sandbox_pool_size=1)
        engine = Engine(config)
        await engine.start()
        registry = SessionRegistry(engine, config)
        try:
            created = await registry.create("token-a", {"language": "python"})
            sid = created["session_id"]
            assert (await registry.run("token-a", sid, "v = 3; v"))["value"] == "3"
            with pytest.raises(SessionNotFound):
                await registry.run("token-b", sid, "v")
            with pytest.raises(SessionNotFound):
                await registry.read("token-b", sid, "x", 0)
            assert await registry.close("token-b", sid) is False  # cannot close another caller's session
            assert (await registry.run("token-a", sid, "v + 1"))["value"] == "4"
        finally:
            await registry.close_all()
            await engine.close()

    asyncio.run(main())


def test_sessions_past_the_limit_are_resource_exhausted_and_429(server_factory):
    full = server_factory(*SERVER_ARGS, "--max-sessions", "1")
    with VerifierClient(full.target) as client, client.session("python") as held:
        held.run("1")
        assert full.metric("verifier_sessions") == 1 and full.metric("verifier_session_cells_total", status="ok") == 1
        with pytest.raises(grpc.RpcError) as err:
            stub(full.target).CreateSession(pb.CreateSessionRequest(language="python"), timeout=30)
        assert err.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert int(dict(err.value.trailing_metadata())["retry-after-ms"]) > 0
        status, headers, body = http(full, "POST", "/v1/sessions", {})
        assert status == 429 and int(headers["retry-after"]) >= 1 and "max_sessions" in body["error"]  # names the bound it would pass
        with pytest.raises(VerifierError) as verr:  # the client retries a full server until its deadline
            client.session("python", timeout_s=2)
        assert verr.value.code == grpc.StatusCode.RESOURCE_EXHAUSTED
    with client_session(full) as again:  # closing gave the slot back
        assert again.run("2").value == "2"


def client_session(server):
    client = VerifierClient(server.target)
    session = client.session("python")

    class Both:
        def __enter__(self):
            return session

        def __exit__(self, *exc):
            session.close()
            client.close()
    return Both()


def test_draining_ends_sessions_and_removes_their_containers(server_factory):
    srv = server_factory(*SERVER_ARGS, "--drain-delay-s", "0.5", "--grace-s", "5")
    client = VerifierClient(srv.target)
    try:
        s = client.session("python")
        s.run("import subprocess; subprocess.Popen(['sleep', '600'])")
        docker_client = docker.from_env()
        mine = {"label": ["grpo-verifier.session", f"grpo-verifier.owner={os.uname().nodename}:{srv.proc.pid}"]}
        assert len(docker_client.containers.list(all=True, filters=mine)) == 1
        srv.proc.send_signal(signal.SIGTERM)
        assert srv.proc.wait(60) == 0
        assert docker_client.containers.list(all=True, filters=mine) == []
    finally:
        client.close()


def test_replica_affinity_and_a_dead_replica_loses_the_session(server_factory):
    """Two replicas behind the client's round robin, each advertising its address: every call of a
    session reaches the replica that owns it; when that replica dies the session is lost, loudly."""
    from verifier.local_server import free_port

    ports = [free_port(), free_port()]
    replicas = [server_factory(*SERVER_ARGS, "--advertise-address", f"127.0.0.1:{p}", port=p) for p in ports]
    with VerifierClient(",".join(r.target for r in replicas)) as client:
        sessions = [client.session("python") for _ in range(4)]
        owners = {s._inner.info.replica for s in sessions}
        for i, s in enumerate(sessions):
            s.run(f"v = {i}")
            for _ in range(3):  # round robin would send every other call to the wrong replica
                assert s.run("v").value == str(i)
        assert owners <= {r.target for r in replicas}
        victim = next(r for r in replicas if r.target == sessions[0]._inner.info.replica)
        mine = [s for s in sessions if s._inner.info.replica == victim.target]
        victim.kill()
        leftovers = {"label": [f"grpo-verifier.owner={os.uname().nodename}:{victim.proc.pid}"]}
        for c in docker.from_env().containers.list(all=True, filters=leftovers):  # a restart would reap them
            with contextlib.suppress(docker.errors.NotFound):  # another server's reap on the shared daemon got it first
                c.remove(force=True)
        for s in mine:
            with pytest.raises(SessionLost) as err:
                s.run("v")
            assert err.value.code == grpc.StatusCode.UNAVAILABLE
        for s in sessions:
            if s not in mine:
                s.close()


def test_a_cell_runs_as_the_program_uid_with_no_capability(client):
    """A session's PID 1 starts as root, as a grading runner does, to split the judge's uid from the
    program's (sandbox/harness/session_box.py); its cells must not inherit that: they run as the
    sandbox user alone (real, effective and saved uid), with no capability. The bounding set is the
    container's (CAP_SETUID and CAP_SETGID, as for a graded program): no_new_privileges keeps a
    non-root process from ever gaining what it bounds."""
    with client.session("python") as s:
        r = s.run("import os\nst = open('/proc/self/status').read()\n"
                  "caps = {l.split()[0]: l.split()[1] for l in st.splitlines() if l.startswith('Cap')}\n"
                  "print(*os.getresuid(), os.getgid(), caps)")
        ruid, euid, suid, gid, caps = r.stdout.split(" ", 4)
        assert ruid == euid == suid != "0" and gid != "0", r.stdout
        caps = eval(caps)
        assert {caps[k] for k in ("CapInh:", "CapPrm:", "CapEff:", "CapAmb:")} == {"0000000000000000"}, r.stdout
        assert int(caps["CapBnd:"], 16) & ~0xC0 == 0, r.stdout  # at most CAP_SETGID (6) and CAP_SETUID (7)


def test_a_lost_session_frees_its_admission_slot_at_once(server_factory):
    """A server at its session limit: one session's cell hangs and ends it; a new session is
    admitted at once (not after close or the idle TTL), and the lost id still answers "session
    lost" (gRPC FAILED_PRECONDITION, HTTP 410), never a new empty session."""
    full = server_factory(*SERVER_ARGS, "--token", TOKEN, "--max-sessions", "1")
    with VerifierClient(full.target, ClientConfig(token=TOKEN, timeout_s=60)) as client:
        lost = client.session("python", time_limit_s=0.5)
        lost.run("x = 1")
        assert lost.run("while True:\n    pass").session_lost
        assert full.metric("verifier_sessions") == 0
        with client.session("python", timeout_s=5) as fresh:  # no retry wait: the slot is free now
            assert fresh.run("2 + 2").value == "4"
            with pytest.raises(SessionLost) as err:
                lost.run("x")
            assert err.value.code == grpc.StatusCode.FAILED_PRECONDITION and "time_limit" in err.value.message
            status, _, body = http(full, "POST", f"/v1/sessions/{lost._inner.info.session_id}/cells", {"code": "x"})
            assert status == 410 and "session lost" in body["error"]
        lost.close()


def test_calls_to_the_wrong_replica_reach_the_owner_and_a_dead_owner_is_lost(server_factory, tmp_path):
    """A Service that balances per request sends a session's HTTP and plain-gRPC calls to any
    replica: the one that does not own it forwards to the owner its id names (one of its --peers,
    signed with the route secret), and a dead owner is "session lost" (HTTP 410, gRPC
    FAILED_PRECONDITION). Routes no server signed: test_a_route_is_followed_only_to_a_peer_the_servers_found."""
    owner, other = _replicas(server_factory, tmp_path)
    status, _, created = http(owner, "POST", "/v1/sessions", {})
    assert status == 200 and created["replica"] == owner.target
    sid = created["session_id"]
    cells = f"/v1/sessions/{sid}/cells"
    assert http(other, "POST", cells, {"code": "x = 41\nopen('f.txt', 'w').write('hi')"})[0] == 200
    for srv in (owner, other, other, owner):
        status, _, reply = http(srv, "POST", cells, {"code": "x += 1; x"})
        assert status == 200 and reply["status"] == "ok", reply
    assert reply["value"] == "45"  # four cells ran, in one interpreter, whichever replica took them
    status, _, read = http(other, "GET", f"/v1/sessions/{sid}/files?path=f.txt")
    assert status == 200 and read["data"] == "aGk="
    plain = stub(other.target)  # a plain stub, no client-side routing: the call lands on the wrong replica
    assert plain.RunCell(pb.RunCellRequest(session_id=sid, code="x"), metadata=AUTH, timeout=60).value == "45"
    assert plain.ReadSessionFile(pb.ReadSessionFileRequest(session_id=sid, path="f.txt"), metadata=AUTH,
                                 timeout=60).data == b"hi"
    assert http(other, "POST", cells, {"code": "1"}, token="wrong")[0] == 401  # auth before forwarding

    # A session closed through the wrong replica is closed on its owner.
    for close in (lambda i: http(other, "DELETE", f"/v1/sessions/{i}")[2]["closed"],
                  lambda i: plain.CloseSession(pb.CloseSessionRequest(session_id=i), metadata=AUTH, timeout=60).closed):
        status, _, second = http(owner, "POST", "/v1/sessions", {})
        assert close(second["session_id"]) is True
        assert http(owner, "POST", f"/v1/sessions/{second['session_id']}/cells", {"code": "1"})[0] == 404

    owner.kill()
    leftovers = {"label": [f"grpo-verifier.owner={os.uname().nodename}:{owner.proc.pid}"]}
    for c in docker.from_env().containers.list(all=True, filters=leftovers):
        with contextlib.suppress(docker.errors.NotFound):  # another server's reap on the shared daemon got it first
            c.remove(force=True)
    status, _, body = http(other, "POST", cells, {"code": "x"})
    assert status == 410 and "session lost" in body["error"] and owner.target in body["error"], body
    with pytest.raises(grpc.RpcError) as err:
        plain.RunCell(pb.RunCellRequest(session_id=sid, code="x"), metadata=AUTH, timeout=60)
    assert err.value.code() == grpc.StatusCode.FAILED_PRECONDITION and "session lost" in err.value.details()
    status, _, created = http(other, "POST", "/v1/sessions", {})  # the survivor still serves new sessions
    assert status == 200 and created["session_id"].split(".")[1] != sid.split(".")[1]


ROUTE_SECRET = "the-route-secret-only-servers-hold"


def _replicas(server_factory, tmp_path, *extra_peers: str, n: int = 2, flags=lambda i: ()) -> list:
    """n replicas of one deployment on loopback: one token, one route secret (a file, as a mounted
    Secret), each listed in --peers with its own gRPC and HTTP port (plus `extra_peers`); `flags(i)`
    adds replica i's own flags."""
    from verifier.local_server import free_port

    ports = [(free_port(), free_port()) for _ in range(n)]
    secret_file = tmp_path / "route-secret"
    secret_file.write_text(ROUTE_SECRET + "\n")
    peers = ",".join([*(f"127.0.0.1:{p}/{h}" for p, h in ports), *extra_peers])
    replicas = []
    for i, (p, h) in enumerate(ports):
        replica = server_factory(*SERVER_ARGS, "--token", TOKEN, "--route-secret-file", str(secret_file), "--peers",
                                 peers, "--advertise-address", f"127.0.0.1:{p}", "--http-port", str(h), *flags(i), port=p)
        replica.http_port = h
        replicas.append(replica)
    return replicas


def _trap():
    """A listener that records any connection made to it, without answering: a connection attempt
    completes in the kernel before the connecting replica can answer its caller, so once the answer
    is back the backlog holds it (`_connected`)."""

    trap = socket.socket()
    trap.bind(("127.0.0.1", 0))
    trap.listen(16)
    trap.setblocking(False)
    return trap


def _connected(trap) -> bool:
    try:
        conn, _ = trap.accept()
    except BlockingIOError:
        return False
    conn.close()
    return True


class _Recorder:
    """A peer the operator listed that is not a replica: records what a forwarded call carries (the
    HTTP request head; the gRPC metadata) and answers as an owner would."""

    def __init__(self) -> None:
        import threading
        from concurrent import futures

        self.http_heads: list[bytes] = []
        self.http_bodies: list[bytes] = []
        self.grpc_metadata: list[dict] = []
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(4)
        self.http_port = self.sock.getsockname()[1]
        threading.Thread(target=self._serve_http, daemon=True).start()

        def run_cell(request, context):
            self.grpc_metadata.append(dict(context.invocation_metadata()))
            return pb.RunCellResponse(status="ok", value="recorded")

        def read_file(request, context):
            self.grpc_metadata.append(dict(context.invocation_metadata()))
            return pb.ReadSessionFileResponse(data=b"recorded")
        handler = grpc.method_handlers_generic_handler("verifier.v1.Verifier", {
            "RunCell": grpc.unary_unary_rpc_method_handler(run_cell, request_deserializer=pb.RunCellRequest.FromString,
                                                           response_serializer=pb.RunCellResponse.SerializeToString),
            "ReadSessionFile": grpc.unary_unary_rpc_method_handler(
                read_file, request_deserializer=pb.ReadSessionFileRequest.FromString,
                response_serializer=pb.ReadSessionFileResponse.SerializeToString)})
        self.grpc = grpc.server(futures.ThreadPoolExecutor(2), handlers=[handler])
        self.grpc_port = self.grpc.add_insecure_port("127.0.0.1:0")
        self.grpc.start()

    def _serve_http(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            with conn:
                head, body = read_http_request(conn)
                self.http_heads.append(head)
                self.http_bodies.append(body)
                body = b'{"status": "ok", "value": "recorded"}'
                conn.sendall(b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: "
                             + str(len(body)).encode() + b"\r\n\r\n" + body)

    def close(self) -> None:
        self.sock.close()
        self.grpc.stop(None)


# Each call a replica forwards (verifier/api/server.py FORWARDED_CALLS) and its HTTP route
# (verifier/api/session_routes.py): the verb, the path after /v1/sessions/{id}, and a body.
FORWARDED_HTTP = {
    "RunCell": ("POST", "/cells", {"code": "1"}),
    "ReadSessionFile": ("GET", "/files?path=f", None),
    "CloseSession": ("DELETE", "", None),
    "RunShell": ("POST", "/shell", {"command": "true"}),
    "WriteSessionFile": ("PUT", "/files", {"path": "f", "data": "eA=="}),
    "ListSessionDir": ("GET", "/dir?path=.", None),
    "GradeSession": ("POST", "/grade", {"task": {"tests": ["true"]}}),
    "ForkSession": ("POST", "/fork", {"n": 1}),
    "SnapshotSession": ("POST", "/snapshot", {"ttl_s": 60}),
}


def test_a_route_is_followed_only_to_a_peer_the_servers_found(server_factory, tmp_path):
    """Issue 30, docs/architecture.md "Sessions": no value a client sends names a network
    destination. A session opened on replica A is used through replica B (HTTP and a plain gRPC
    stub); B forwards with its own proof and never the caller's Authorization, and a forwarded proof
    no server made is refused. A route forged as any client can (the key main derived from the
    bearer token), a route signed for a replica that is none of B's peers, and a real id of another
    deployment (same token, another route secret) are 404 / NOT_FOUND on every call a replica forwards
    (FORWARDED_CALLS, and each one's HTTP route), and the listener at the address they name records no
    connection."""
    import base64
    import hashlib
    import hmac

    from verifier.api.server import FORWARDED_CALLS
    from verifier.api.session_routes import SessionRoutes
    from verifier.local_server import free_port
    from verifier.sessions import FORWARDED_KEY, Route, replica_tag, route_key, sign

    recorder, trap = _Recorder(), _trap()
    t = trap.getsockname()[1]
    a, b = _replicas(server_factory, tmp_path, f"127.0.0.1:{recorder.grpc_port}/{recorder.http_port}")
    status, _, created = http(a, "POST", "/v1/sessions", {})
    sid = created["session_id"]
    assert status == 200 and created["replica"] == a.target and str(a.port) not in sid
    cells = f"/v1/sessions/{sid}/cells"
    assert http(b, "POST", cells, {"code": "x = 41"})[2]["status"] == "ok"
    assert http(b, "POST", cells, {"code": "x + 1"})[2]["value"] == "42"
    assert stub(b.target).RunCell(pb.RunCellRequest(session_id=sid, code="x * 2"), metadata=AUTH,
                                  timeout=60).value == "82"
    assert http(a, "POST", cells, {"code": "x"})[2]["value"] == "41"  # the cells ran on A

    # A forwarded call is let in on its proof, which no caller can make: without it, A wants the token.
    fake = {FORWARDED_KEY: hashlib.blake2b(TOKEN.encode(), digest_size=16).hexdigest() + ".AAAAAAAAAAAAAAAAAAAAAAAA"}
    req = urllib.request.Request(a.http_url + cells, data=b'{"code": "x"}', method="POST",
                                 headers={"Content-Type": "application/json", **fake})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(req, timeout=60)
    assert refused.value.code == 401
    with pytest.raises(grpc.RpcError) as err:
        stub(a.target).RunCell(pb.RunCellRequest(session_id=sid, code="x"), metadata=tuple(fake.items()), timeout=60)
    assert err.value.code() == grpc.StatusCode.UNAUTHENTICATED

    # What a peer receives: B's proof, never the caller's token (the recorder is a listed peer).
    key = route_key(ROUTE_SECRET)

    def signed(k: bytes, replica: Route) -> str:
        rand, tag = secrets.token_urlsafe(24), replica_tag(k, replica)
        return f"{rand}.{tag}.{sign(k, 'id', f'{rand}.{tag}'.encode())}"
    to_recorder = signed(key, Route(f"127.0.0.1:{recorder.grpc_port}", recorder.http_port))
    assert http(b, "POST", f"/v1/sessions/{to_recorder}/cells", {"code": "1"})[2]["value"] == "recorded"
    assert stub(b.target).RunCell(pb.RunCellRequest(session_id=to_recorder, code="1"), metadata=AUTH,
                                  timeout=60).value == "recorded"
    (head,), (metadata,) = recorder.http_heads, recorder.grpc_metadata
    assert b"authorization" not in head.lower() and TOKEN.encode() not in head and FORWARDED_KEY.encode() in head, head
    assert "authorization" not in metadata and TOKEN not in repr(metadata) and FORWARDED_KEY in metadata, metadata
    recorder.close()

    # Routes to the trap: forged as a client can, naming no peer, and another deployment's real id.
    def b64(data: bytes) -> str:
        return base64.urlsafe_b64encode(data).rstrip(b"=").decode()
    old_key = hmac.new(TOKEN.encode(), b"grpo-verifier session route v1", hashlib.sha256).digest()
    rand, old_route = secrets.token_urlsafe(24), b64(f"127.0.0.1:{t}|{t}".encode())
    old_mac = b64(hmac.new(old_key, f"{rand}.{old_route}".encode(), hashlib.sha256).digest()[:18])
    other = server_factory(*SERVER_ARGS, "--token", TOKEN, "--route-secret", "another deployment's route secret",
                           "--advertise-address", f"127.0.0.1:{t}", port=free_port())
    replayed = stub(other.target).CreateSession(pb.CreateSessionRequest(language="python"), metadata=AUTH,
                                                timeout=60).session_id
    assert replayed.count(".") == 2
    trap_replica = Route(f"127.0.0.1:{t}", t)
    # Every call a replica forwards, on both ports: the gRPC calls are FORWARDED_CALLS themselves, and the
    # HTTP routes must be the session-id routes the server serves, one per call (FORWARDED_HTTP).
    assert set(FORWARDED_HTTP) == set(FORWARDED_CALLS)
    served = {(m, p) for p, m, *_ in SessionRoutes(None).routes() if "{session_id}" in p}
    assert {(m, "/v1/sessions/{session_id}" + suffix.partition("?")[0]) for m, suffix, _ in FORWARDED_HTTP.values()} == served
    methods = pb.DESCRIPTOR.services_by_name["Verifier"].methods_by_name
    plain = stub(b.target)
    for route, why in ((f"{rand}.{old_route}.{old_mac}", "does not check"),
                       (signed(route_key(TOKEN), trap_replica), "does not check"),
                       (signed(key, trap_replica), "none of this replica's peers"),
                       (replayed, "does not check")):
        for call in FORWARDED_CALLS:
            verb, suffix, body = FORWARDED_HTTP[call]
            status, _, answer = http(b, verb, f"/v1/sessions/{route}{suffix}", body)
            assert status == 404 and why in answer["error"], (call, route, answer)
            request = getattr(pb, methods[call].input_type.name)(session_id=route)
            with pytest.raises(grpc.RpcError) as err:
                getattr(plain, call)(request, metadata=AUTH, timeout=60)
            assert err.value.code() == grpc.StatusCode.NOT_FOUND and why in err.value.details(), (call, route)
    assert not _connected(trap)  # the gRPC and HTTP address each names
    assert other.metric("verifier_http_requests_total") == 0  # the other deployment's id names its HTTP port
    trap.close()


def _signed_for(replica) -> str:
    """An id as the replica `replica` would issue it in the deployment of `_replicas` (its route secret)."""
    from verifier.sessions import replica_tag, route_key, sign

    key = route_key(ROUTE_SECRET)
    rand, tag = secrets.token_urlsafe(24), replica_tag(key, replica)
    return f"{rand}.{tag}.{sign(key, 'id', f'{rand}.{tag}'.encode())}"


def _raw_http(srv, method: str, path: str, body: bytes = b"") -> tuple[int, bytes]:
    """(status, body) of one HTTP call with the body bytes as given (http_call re-encodes JSON)."""
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", srv.http_port, timeout=120)
    try:
        conn.request(method, path, body=body, headers={"Authorization": f"Bearer {TOKEN}",
                                                       "Content-Type": "application/json"})
        reply = conn.getresponse()
        return reply.status, reply.read()
    finally:
        conn.close()


def test_a_forward_relays_the_callers_bytes_and_only_a_call_its_owner_takes(server_factory, tmp_path):
    """Red team of issue 30 item 1 (docs/architecture.md "Sessions"): a replica relayed any session
    call to its owner, even one the owner refuses (a cell over --max-field-bytes), and re-encoded
    an HTTP body on its event loop first (json.dumps made a 64 MB body of 'é' 192 MB: about 1 s
    of blocked loop per call). A call is now checked as its owner checks it before any connection,
    and the owner gets the caller's body bytes as sent. A HEAD on a file, relayed, is the owner's
    answer, not "session lost"."""
    from verifier.sessions import Route

    field = 1 << 16
    recorder = _Recorder()
    a, b = _replicas(server_factory, tmp_path, f"127.0.0.1:{recorder.grpc_port}/{recorder.http_port}",
                     flags=lambda i: ("--max-field-bytes", str(field)))
    to_recorder = _signed_for(Route(f"127.0.0.1:{recorder.grpc_port}", recorder.http_port))
    cells = f"/v1/sessions/{to_recorder}/cells"

    sent = b'{ "code" :\n "\\u00e9t\\u00e9 = 1" }'  # escapes and spacing json.dumps would not write
    assert _raw_http(b, "POST", cells, sent) == (200, b'{"status": "ok", "value": "recorded"}')
    assert recorder.http_bodies == [sent]

    # What the owner refuses is refused before any connection, on each route and field.
    too_long = "é" * (field // 2 + 1)
    for path, body, why in ((cells, json.dumps({"code": too_long}).encode(), "code"),
                            (cells, b'{"code": 7}', "code"),
                            (f"/v1/sessions/{to_recorder}/files?path=", b"", "path"),
                            (f"/v1/sessions/{to_recorder}/files?path=f&max_bytes={field + 1}", b"", "max_bytes")):
        status, reply = _raw_http(b, "GET" if "files" in path else "POST", path, body)
        assert status == 400 and json.loads(reply)["field"] == why, (path, reply)
    plain = stub(b.target)
    for method, message, why in ((plain.RunCell, pb.RunCellRequest(session_id=to_recorder, code=too_long), "code"),
                                 (plain.ReadSessionFile, pb.ReadSessionFileRequest(session_id=to_recorder), "path"),
                                 (plain.ReadSessionFile, pb.ReadSessionFileRequest(
                                     session_id=to_recorder, path="f", max_bytes=field + 1), "max_bytes")):
        with pytest.raises(grpc.RpcError) as err:
            method(message, metadata=AUTH, timeout=60)
        assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT and why in err.value.details(), why
    assert len(recorder.http_heads) == 1 and recorder.grpc_metadata == []
    recorder.close()

    # HEAD on a GET route is relayed too (Starlette answers HEAD for GET): the owner's answer.
    sid = http(a, "POST", "/v1/sessions", {})[2]["session_id"]
    assert http(a, "POST", f"/v1/sessions/{sid}/cells", {"code": "open('f.txt', 'w').write('hi')"})[0] == 200
    for path in (f"/v1/sessions/{sid}/files?path=f.txt", f"/v1/sessions/{sid}/files?path=missing"):
        assert _raw_http(b, "HEAD", path)[0] == _raw_http(a, "HEAD", path)[0] != 410, path


def test_a_forwarded_proof_is_valid_only_at_the_replica_it_was_made_for(server_factory, tmp_path):
    """Red team of issue 30 item 1 (docs/architecture.md "Sessions"): the proof a replica sends in
    place of the caller's token was valid at every replica of the deployment, for every session of
    that caller. Whatever sat at a peer's address (a stale or wrong entry; here a listed peer that is
    not a replica) kept a credential for all of them: replayed with no token at the replica that
    owns a session, it ran cells there. A proof now names the replica it was made for: replayed
    anywhere else, on any session route, it is no proof (401 / UNAUTHENTICATED); the real owner
    still takes the forwards made for it."""
    from verifier.sessions import FORWARDED_KEY, Route

    recorder = _Recorder()
    a, b = _replicas(server_factory, tmp_path, f"127.0.0.1:{recorder.grpc_port}/{recorder.http_port}")
    sid = http(a, "POST", "/v1/sessions", {})[2]["session_id"]
    assert http(b, "POST", f"/v1/sessions/{sid}/cells", {"code": "x = 41"})[2]["status"] == "ok"  # B forwards to A
    to_recorder = _signed_for(Route(f"127.0.0.1:{recorder.grpc_port}", recorder.http_port))
    assert http(b, "POST", f"/v1/sessions/{to_recorder}/cells", {"code": "1"})[2]["value"] == "recorded"
    assert stub(b.target).RunCell(pb.RunCellRequest(session_id=to_recorder, code="1"), metadata=AUTH,
                                  timeout=60).value == "recorded"
    recorder.close()
    (head,), (metadata,) = recorder.http_heads, recorder.grpc_metadata
    captured = {line.partition(b":")[2].strip().decode() for line in head.split(b"\r\n")
                if line.lower().startswith(FORWARDED_KEY.encode())} | {metadata[FORWARDED_KEY]}
    assert len(captured) == 1  # one caller: one proof, whichever front end forwarded
    proof = captured.pop()

    def replayed(method: str, path: str, body: bytes = b"") -> int:
        req = urllib.request.Request(a.http_url + path, data=body or None, method=method,
                                     headers={"Content-Type": "application/json", FORWARDED_KEY: proof})
        try:
            with urllib.request.urlopen(req, timeout=60) as resp:
                return resp.status
        except urllib.error.HTTPError as e:
            return e.code
    for method, path, body in (("POST", f"/v1/sessions/{sid}/cells", b'{"code": "x + 1"}'),
                               ("GET", f"/v1/sessions/{sid}/files?path=f", b""),
                               ("DELETE", f"/v1/sessions/{sid}", b"")):
        assert replayed(method, path, body) == 401, (method, path)
    plain = stub(a.target)
    for call, message in ((plain.RunCell, pb.RunCellRequest(session_id=sid, code="x + 1")),
                          (plain.CloseSession, pb.CloseSessionRequest(session_id=sid))):
        with pytest.raises(grpc.RpcError) as err:
            call(message, metadata=((FORWARDED_KEY, proof),), timeout=60)
        assert err.value.code() == grpc.StatusCode.UNAUTHENTICATED
    assert http(b, "POST", f"/v1/sessions/{sid}/cells", {"code": "x + 1"})[2]["value"] == "42"  # untouched, forwarded


def test_an_id_of_no_shape_the_service_issues_is_not_found_before_any_digest(server_factory, tmp_path):
    """Red team of issue 30 item 1 (class 9): any string with two dots was split, encoded and MAC'd
    on the event loop (about 0.25 s for a 64 MB id). Ids are admitted by
    the grammar of those the service issues (verifier/sessions.py `ISSUED_ID`); anything else is not
    found before any digest, on every session route: long, padded, other Unicode dots, a NUL."""
    from verifier.sessions import Route

    a, b = _replicas(server_factory, tmp_path)
    real = _signed_for(Route(a.target, a.http_port))
    rand, tag, mac = real.split(".")
    shaped = f"{rand}.{tag}.{mac.swapcase()}"  # the right shape, a wrong MAC: the MAC decides
    for sid in ("A" * (1 << 20) + ".b.c", real + " ", real + "\n", real.replace(".", "\uff0e"), real + "\x00",
                f"{rand}.{tag}.{mac}=", "..", shaped):
        for srv in (a, b):
            plain = stub(srv.target)
            for method, message in ((plain.RunCell, pb.RunCellRequest(session_id=sid, code="1")),
                                    (plain.ReadSessionFile, pb.ReadSessionFileRequest(session_id=sid, path="f")),
                                    (plain.CloseSession, pb.CloseSessionRequest(session_id=sid))):
                with pytest.raises(grpc.RpcError) as err:
                    method(message, metadata=AUTH, timeout=60)
                assert err.value.code() == grpc.StatusCode.NOT_FOUND, (sid[:80], err.value.details())
                assert ("not of the shape" in err.value.details()) == (sid != shaped), (sid[:80], err.value.details())
    status, _, body = http(b, "POST", f"/v1/sessions/{real}%20/cells", {"code": "1"})
    assert status == 404 and "not of the shape" in body["error"], body


def test_a_forwarded_proof_stands_only_for_the_calls_replicas_forward(server_factory):
    """Red team of issue 30 item 1: gRPC CreateSession (never forwarded) took a forwarded proof as
    the caller, so a session created with one belonged to that proof's owner (HTTP ignored it). A
    proof now stands only for RunCell, ReadSessionFile and CloseSession, on both ports; here a
    deployment with no token (owners are the bearer strings callers send), and a proof for
    "alice" valid at this replica (as one seen on the wire between replicas would be)."""
    import hashlib

    from verifier.local_server import free_port
    from verifier.sessions import FORWARDED_KEY, Route, replica_tag, route_key, sign

    port, http_port = free_port(), free_port()
    srv = server_factory(*SERVER_ARGS, "--http-port", str(http_port), "--advertise-address", f"127.0.0.1:{port}",
                         "--route-secret", ROUTE_SECRET, port=port)
    srv.http_port = http_port
    key, alice = route_key(ROUTE_SECRET), hashlib.blake2b(b"alice", digest_size=16).hexdigest()
    tag = replica_tag(key, Route(f"127.0.0.1:{port}", http_port))
    proof = (FORWARDED_KEY, f"{alice}.{sign(key, 'forwarded', f'{alice}|{tag}'.encode())}")
    mallory = ("authorization", "Bearer mallory")
    plain = stub(srv.target)
    sid = plain.CreateSession(pb.CreateSessionRequest(language="python"), metadata=(mallory, proof),
                              timeout=60).session_id
    assert plain.RunCell(pb.RunCellRequest(session_id=sid, code="6 * 7"), metadata=(mallory,), timeout=60).value == "42"
    with pytest.raises(grpc.RpcError) as err:  # alice's proof does not reach mallory's session
        plain.RunCell(pb.RunCellRequest(session_id=sid, code="1"), metadata=(proof,), timeout=60)
    assert err.value.code() == grpc.StatusCode.NOT_FOUND
    req = urllib.request.Request(srv.http_url + "/v1/sessions", data=b"{}", method="POST", headers={
        "Content-Type": "application/json", "Authorization": "Bearer mallory", proof[0]: proof[1]})
    with urllib.request.urlopen(req, timeout=60) as resp:
        other = json.loads(resp.read())["session_id"]
    assert http(srv, "POST", f"/v1/sessions/{other}/cells", {"code": "1"}, token="mallory")[0] == 200
    assert plain.CloseSession(pb.CloseSessionRequest(session_id=other), metadata=(proof,), timeout=60).closed is False
    # The proof is one this replica takes: alice's own session answers to it.
    mine = plain.CreateSession(pb.CreateSessionRequest(language="python"), metadata=(("authorization", "Bearer alice"),),
                               timeout=60).session_id
    assert plain.RunCell(pb.RunCellRequest(session_id=mine, code="2"), metadata=(proof,), timeout=60).value == "2"


def _self_signed(tmp_path, subject: str = "/CN=localhost", alt: str = "DNS:localhost,IP:127.0.0.1") -> tuple[str, str]:
    """(cert, key): one certificate every replica serves (as a deployment's Secret), naming localhost."""
    import subprocess

    key, cert = tmp_path / f"key{len(list(tmp_path.iterdir()))}.pem", tmp_path / f"cert{len(list(tmp_path.iterdir()))}.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", subject,
                    "-addext", f"subjectAltName={alt}", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True)
    return str(cert), str(key)


def test_grpc_calls_to_the_wrong_replica_reach_the_owner_over_tls(server_factory, tmp_path):
    """With TLS on, a plain TLS stub's session call that lands on the wrong replica is forwarded to
    the owner over TLS (trusting the deployment's certificate, reached by IP: verifier/api/server.py
    `_peer_channel`); so is an HTTPS call; a dead owner is "session lost"."""
    import ssl
    import urllib.request


    cert, key = _self_signed(tmp_path)
    owner, other = _replicas(server_factory, tmp_path, flags=lambda i: ("--tls-cert", cert, "--tls-key", key))
    creds = grpc.ssl_channel_credentials(open(cert, "rb").read())
    to_owner, to_other = (pb_grpc.VerifierStub(grpc.secure_channel(r.target, creds)) for r in (owner, other))
    sid = to_owner.CreateSession(pb.CreateSessionRequest(language="python"), metadata=AUTH, timeout=60).session_id
    assert sid.count(".") == 2  # the id names its owner
    assert to_other.RunCell(pb.RunCellRequest(session_id=sid, code="x = 41"), metadata=AUTH, timeout=60).status == "ok"
    assert to_other.RunCell(pb.RunCellRequest(session_id=sid, code="x + 1"), metadata=AUTH, timeout=60).value == "42"
    assert to_owner.RunCell(pb.RunCellRequest(session_id=sid, code="x"), metadata=AUTH, timeout=60).value == "41"
    https = ssl.create_default_context(cafile=cert)
    req = urllib.request.Request(f"https://127.0.0.1:{other.http_port}/v1/sessions/{sid}/cells", method="POST",
                                 data=json.dumps({"code": "x * 2"}).encode(),
                                 headers={"Content-Type": "application/json", "Authorization": f"Bearer {TOKEN}"})
    assert json.loads(urllib.request.urlopen(req, context=https, timeout=60).read())["value"] == "82"
    assert to_other.CloseSession(pb.CloseSessionRequest(session_id=sid), metadata=AUTH, timeout=60).closed
    with pytest.raises(grpc.RpcError) as err:  # closed on its owner
        to_owner.RunCell(pb.RunCellRequest(session_id=sid, code="1"), metadata=AUTH, timeout=60)
    assert err.value.code() == grpc.StatusCode.NOT_FOUND
    sid = to_owner.CreateSession(pb.CreateSessionRequest(language="python"), metadata=AUTH, timeout=60).session_id
    owner.kill()
    with pytest.raises(grpc.RpcError) as err:
        to_other.RunCell(pb.RunCellRequest(session_id=sid, code="1"), metadata=AUTH, timeout=60)
    assert err.value.code() == grpc.StatusCode.FAILED_PRECONDITION and "session lost" in err.value.details()


def test_peer_tls_name_is_the_name_a_peers_certificate_is_checked_against(server_factory, tmp_path):
    """--peer-tls-name (verifier/sessions.py `peer_tls_name`) is the name a peer's certificate must be
    valid for when a session call is forwarded over TLS, on gRPC and HTTP alike: a name the
    certificate covers (its second, not the first one the fallback would read) forwards; a name it
    does not cover does not (the name is checked, not merely sent). A certificate that names no host
    needs the flag: a replica without it refuses to start and says so; with it, it starts."""
    import ssl
    import subprocess
    import sys
    import urllib.error
    import urllib.request


    cert, key = _self_signed(tmp_path, "/O=grpo-verifier", "DNS:replicas.internal,DNS:peers.internal")
    names = ("peers.internal", "peers.internal", "elsewhere.internal")
    owner, good, bad = _replicas(server_factory, tmp_path, n=3, flags=lambda i: (
        "--tls-cert", cert, "--tls-key", key, "--peer-tls-name", names[i]))
    creds = grpc.ssl_channel_credentials(open(cert, "rb").read())
    to_owner, to_good, to_bad = (pb_grpc.VerifierStub(grpc.secure_channel(
        r.target, creds, options=[("grpc.ssl_target_name_override", "peers.internal")])) for r in (owner, good, bad))
    sid = to_owner.CreateSession(pb.CreateSessionRequest(language="python"), metadata=AUTH, timeout=60).session_id
    assert to_good.RunCell(pb.RunCellRequest(session_id=sid, code="x = 41; x + 1"), metadata=AUTH, timeout=60).value == "42"
    with pytest.raises(grpc.RpcError) as err:
        to_bad.RunCell(pb.RunCellRequest(session_id=sid, code="x = 0"), metadata=AUTH, timeout=60)
    assert err.value.code() == grpc.StatusCode.FAILED_PRECONDITION and "cannot be reached" in err.value.details()
    https = ssl.create_default_context(cafile=cert)
    https.check_hostname = False  # this test's own calls: what is checked here is the replicas' forwarding

    def post(replica, code: str) -> tuple[int, dict]:
        req = urllib.request.Request(f"https://127.0.0.1:{replica.http_port}/v1/sessions/{sid}/cells", method="POST",
                                     data=json.dumps({"code": code}).encode(),
                                     headers={"Content-Type": "application/json", "Authorization": f"Bearer {TOKEN}"})
        try:
            with urllib.request.urlopen(req, context=https, timeout=60) as resp:
                return resp.status, json.loads(resp.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())

    status, body = post(good, "x * 2")
    assert status == 200 and body["value"] == "82", body
    status, body = post(bad, "x = 0")
    assert status == 410 and "SSLCertVerificationError" in body["error"], body
    assert to_owner.RunCell(pb.RunCellRequest(session_id=sid, code="x"), metadata=AUTH, timeout=60).value == "41"

    nameless, nameless_key = _self_signed(tmp_path, "/O=grpo-verifier", "IP:127.0.0.1")
    args = ["--no-code", "--workers", "1", "--tls-cert", nameless, "--tls-key", nameless_key,
            "--advertise-address", "127.0.0.1:1"]
    proc = subprocess.run([sys.executable, "-m", "verifier.tools.cli", "serve", "--port", "0", "--metrics-port", "0",
                           *args], capture_output=True, text=True, timeout=60)
    assert proc.returncode != 0 and "--peer-tls-name" in proc.stderr and "names no host" in proc.stderr, proc.stderr
    started = server_factory(*args, "--peer-tls-name", "peers.internal")
    assert started.proc.poll() is None


def test_peers_without_a_route_secret_refuse_to_start():
    """verifier/sessions.py `check_routing`: peers named with no secret to sign for them, a --peers
    entry that is no address, or a route secret file that cannot be read stop the server at start,
    naming the flag (a deployment must not believe it forwards when it cannot); so do a route secret short
    enough to guess from an issued id, and with --peer-service an advertised address no discovered peer
    would be written as (a host name; an IPv6 address without brackets)."""
    import subprocess
    import sys

    base = [sys.executable, "-m", "verifier.tools.cli", "serve", "--port", "0", "--metrics-port", "0", "--http-port", "0",
            "--no-code", "--workers", "1", "--advertise-address", "127.0.0.1:1"]
    for flags, says in ((["--peers", "127.0.0.1:2"], "--route-secret"), (["--peer-service", "localhost"], "--route-secret"),
                        (["--route-secret", "s", "--peers", "127.0.0.1"], "--peers: '127.0.0.1'"),
                        (["--route-secret-file", "/nonexistent/route-secret", "--peers", "127.0.0.1:2"],
                         "route secret file '/nonexistent/route-secret' cannot be read"),
                        (["--route-secret", "s" * 31, "--peers", "127.0.0.1:2"], "at least 32 bytes"),
                        (["--route-secret", ROUTE_SECRET, "--peer-service", "localhost", "--advertise-address",
                          "localhost:1"], "--advertise-address 'localhost:1'"),
                        (["--route-secret", ROUTE_SECRET, "--peer-service", "localhost", "--advertise-address",
                          "::1:1"], "--advertise-address '::1:1'")):
        proc = subprocess.run([*base, *flags], capture_output=True, text=True, timeout=60)
        assert proc.returncode != 0 and says in proc.stderr, (flags, proc.stderr[-500:])


def test_peer_channels_speak_tls_and_are_closed_at_shutdown(server_factory, tmp_path):
    """The forwarding side's channels (verifier/api/server.py `VerifierService.peer`): a TLS channel to a
    real TLS replica answers; `close_peers` (run by drain_and_stop) closes each, and the oldest of
    more than MAX_PEERS is closed when evicted."""
    from types import SimpleNamespace

    from verifier.config import ServerConfig
    from verifier.local_server import free_port
    from verifier.api.server import MAX_PEERS, VerifierService
    from verifier.sessions import FORWARDED_KEY

    cert, key = _self_signed(tmp_path)
    port = free_port()
    server_factory(*SERVER_ARGS, "--token", TOKEN, "--tls-cert", cert, "--tls-key", key, port=port)

    async def main() -> None:
        service = VerifierService(SimpleNamespace(config=ServerConfig(tls_cert=cert, tls_key=key)), None)
        peer = service.peer(f"127.0.0.1:{port}")  # by IP, as a pod IP: the certificate's own name is checked
        meta = AUTH + ((FORWARDED_KEY, "1"),)
        created = await peer.CreateSession(pb.CreateSessionRequest(language="python"), metadata=meta, timeout=60)
        assert (await peer.RunCell(pb.RunCellRequest(session_id=created.session_id, code="6 * 7"), metadata=meta,
                                   timeout=60)).value == "42"
        assert service.peer(f"127.0.0.1:{port}") is peer  # one channel per replica
        first = service._peers[f"127.0.0.1:{port}"][0]
        for i in range(MAX_PEERS):  # channels connect lazily: these never dial
            service.peer(f"127.0.0.2:{i + 1}")
        assert f"127.0.0.1:{port}" not in service._peers and len(service._peers) == MAX_PEERS
        await asyncio.gather(*service._closing)
        with pytest.raises(Exception, match="[Cc]losed"):
            await peer.RunCell(pb.RunCellRequest(session_id=created.session_id, code="1"), metadata=meta, timeout=5)
        channels = [channel for channel, _ in service._peers.values()]
        await service.close_peers()
        assert service._peers == {}
        for channel in channels:
            with pytest.raises(Exception, match="[Cc]losed"):
                await pb_grpc.VerifierStub(channel).RunCell(pb.RunCellRequest(session_id="x", code="1"), timeout=5)
        assert first.get_state() == grpc.ChannelConnectivity.SHUTDOWN
    asyncio.run(main())


def test_peer_service_addresses_are_the_peers_and_without_a_secret_nothing_is_forwarded(server_factory):
    """--peer-service names the replicas (a headless Service; here an IP literal): each IP it
    resolves to, on this replica's own ports, is a peer. No token: the route secret alone signs ids
    and forwards. A call on the wrong replica reaches the owner; an id signed for a host or port the
    name does not give is "not found" without a connection. Without a route secret ids name no
    replica and nothing is forwarded: each replica answers only its own sessions."""
    from verifier.local_server import free_port
    from verifier.sessions import Route, replica_tag, route_key, sign

    port, http_port = free_port("127.0.0.2"), free_port("127.0.0.2")  # one deployment: the same ports everywhere
    owner, other = (server_factory(*SERVER_ARGS, "--http-port", str(http_port), "--advertise-address", f"{host}:{port}",
                                   "--peer-service", "127.0.0.2", "--route-secret", ROUTE_SECRET, host=host, port=port)
                    for host in ("127.0.0.2", "127.0.0.3"))
    for srv in (owner, other):
        srv.http_port = http_port
    status, _, created = http(owner, "POST", "/v1/sessions", {}, token="")
    sid = created["session_id"]
    assert status == 200 and sid.count(".") == 2
    for srv, code, value in ((other, "x = 6", None), (other, "x * 7", "42"), (owner, "x", "6")):
        status, _, reply = http(srv, "POST", f"/v1/sessions/{sid}/cells", {"code": code}, token="")
        assert status == 200 and reply["value"] == value, reply
    assert stub(other.target).RunCell(pb.RunCellRequest(session_id=sid, code="x + 1"), timeout=60).value == "7"

    key, rand = route_key(ROUTE_SECRET), sid.split(".")[0]
    traps = []
    for host, p, hp in (("127.0.0.4", port, http_port), ("127.0.0.2", free_port("127.0.0.2"), http_port),
                        ("127.0.0.2", port, free_port("127.0.0.2"))):
        trap = socket.socket()
        trap.bind((host, hp if hp != http_port else p))
        trap.listen(1)
        trap.setblocking(False)
        traps.append(trap)
        tag = replica_tag(key, Route(f"{host}:{p}", hp))
        signed = f"{rand}.{tag}.{sign(key, 'id', f'{rand}.{tag}'.encode())}"
        status, _, body = http(other, "POST", f"/v1/sessions/{signed}/cells", {"code": "1"}, token="")
        assert status == 404 and "none of this replica's peers" in body["error"], body
        with pytest.raises(grpc.RpcError) as err:
            stub(other.target).RunCell(pb.RunCellRequest(session_id=signed, code="1"), timeout=60)
        assert err.value.code() == grpc.StatusCode.NOT_FOUND
    for trap in traps:
        assert not _connected(trap)
        trap.close()

    alone = server_factory(*SERVER_ARGS, "--advertise-address", "127.0.0.3:1", host="127.0.0.3")  # no route secret
    mine = http(alone, "POST", "/v1/sessions", {}, token="")[2]["session_id"]
    assert "." not in mine and http(alone, "POST", f"/v1/sessions/{mine}/cells", {"code": "1"}, token="")[0] == 200
    status, _, body = http(alone, "POST", f"/v1/sessions/{sid}/cells", {"code": "x"}, token="")
    assert status == 404 and "no such session" in body["error"], body

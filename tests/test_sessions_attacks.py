"""Red-team attacks on sessions (issue 22 item 5; docs/sessions.md "Sessions"): a real server on loopback,
real session containers. Each test is an attack that once worked; see the commit that fixed it."""

from __future__ import annotations

import asyncio
import os
import secrets
import threading
import time
from collections.abc import Iterator
from urllib.parse import quote

import grpc
import pytest

from conftest import ServerProcess
from helpers import SESSION_SERVER_ARGS as SERVER_ARGS
from helpers import (RUNSC_MISSING, host_pids_with, http_call, runsc_registered, session_containers, session_fixtures, stub,
                     userns_flags, wait_until)
from verifier.client import ClientConfig, SessionLost, VerifierClient, VerifierError
from verifier.v1 import verifier_pb2 as pb

pytestmark = pytest.mark.docker

TOKEN = "attack-token"
AUTH = (("authorization", f"Bearer {TOKEN}"),)


server, client = session_fixtures(TOKEN, max_sessions=2, timeout_s=120)


def test_a_create_whose_caller_hung_up_leaves_no_container(server):
    """CreateSession with a deadline shorter than a container start: the caller is gone before the
    session exists. Its container must not live on outside admission (max_sessions=2 here, so at
    most 2 reset spares may stay), else hanging up is a way around the session limit."""
    for _ in range(5):
        try:
            made = stub(server.target).CreateSession(pb.CreateSessionRequest(language="python"), metadata=AUTH,
                                                     timeout=0.25)
            stub(server.target).CloseSession(pb.CloseSessionRequest(session_id=made.session_id), metadata=AUTH,
                                             timeout=60)
        except grpc.RpcError as e:  # (a create that finished just as the deadline passed is a session the
            # caller never learnt of: admitted, and reaped after its idle TTL; it may fill the limit)
            assert e.code() in (grpc.StatusCode.DEADLINE_EXCEEDED, grpc.StatusCode.RESOURCE_EXHAUSTED)

    def only_sessions_and_spares() -> bool:
        return len(session_containers(server)) <= 2 + server.metric("verifier_sessions")
    assert wait_until(only_sessions_and_spares), session_containers(server)


def test_a_session_closed_during_its_replay_stops_replaying(client):
    """A replay session's crash makes the server re-run its history in a fresh container; closed
    meanwhile, the session no longer counts toward admission, so that replay must stop at once.
    Each history cell leaves a `sleep MARKER+i` process: after the close, no later cell may start."""
    base = 5_000_000 + secrets.randbelow(900_000) * 2
    cells = 25
    s = client.session("python", replay=True, idle_ttl_s=600)
    s.run("import subprocess, time")
    for i in range(cells):
        s.run(f"time.sleep(0.4); subprocess.Popen(['sleep', '{base + i}'])")

    def replayed() -> list[int]:
        return [i for i in range(cells) if host_pids_with(f"sleep\0{base + i}")]

    crash = threading.Thread(target=_run_quietly, args=(s, "import os; os._exit(1)"), daemon=True)
    crash.start()
    assert wait_until(lambda: len(replayed()) >= 2 + cells // 3 or not crash.is_alive(), timeout_s=120)
    assert crash.is_alive(), "the replay finished before the test could close the session"
    s.close()
    at_close = max(replayed(), default=-1)
    seen = set(replayed())
    while crash.is_alive():
        seen.update(replayed())
        time.sleep(0.1)
    crash.join()
    assert max(seen, default=-1) <= at_close + 1, (at_close, sorted(seen))
    assert wait_until(lambda: not replayed())


def _run_quietly(session, code: str) -> None:
    try:
        session.run(code)
    except Exception:
        pass


def test_a_process_burning_cpu_between_cells_ends_its_session(client):
    """A cell leaves a busy process behind and the caller goes quiet: no cell runs, so no cell's time
    limit applies. Between cells the session may use one cell's CPU limit in all, then it ends (its
    processes killed) instead of burning a core until its idle TTL (up to an hour)."""
    marker = f"burn{secrets.token_hex(6)}"
    s = client.session("python", time_limit_s=1, idle_ttl_s=600)
    try:
        r = s.run(f"import subprocess, sys\nsubprocess.Popen([sys.executable, '-c', 'while True: pass  # {marker}'])")
        assert r.ok, r
        assert wait_until(lambda: host_pids_with(marker))
        assert wait_until(lambda: not host_pids_with(marker), timeout_s=120), "the burner outlived its budget"
        with pytest.raises(SessionLost) as err:
            s.run("1")
        assert "between cells" in err.value.message
    finally:
        s.close()


def test_a_quiet_background_process_keeps_its_session(client):
    """The rewrite: a process left sleeping between cells uses no CPU and the session goes on."""
    with client.session("python", time_limit_s=1) as s:
        s.run("import subprocess; p = subprocess.Popen(['sleep', '600'])")
        time.sleep(3)
        assert s.run("p.poll() is None").value == "True"


def test_a_hung_up_create_holds_its_admission_slot_until_its_container_is_back(server_factory):
    """Admission counts a session from the create until its container is back: a caller that hangs
    up at once must not free the slot while its container still starts, else a flood of creates
    with a 1 ms deadline queues unbounded container starts past --max-sessions."""
    srv = server_factory(*SERVER_ARGS, "--max-sessions", "1")
    with pytest.raises(grpc.RpcError) as err:  # a fresh container takes far longer than 0.1 s to start
        stub(srv.target).CreateSession(pb.CreateSessionRequest(language="python"), timeout=0.1)
    assert err.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
    with pytest.raises(grpc.RpcError) as err:
        stub(srv.target).CreateSession(pb.CreateSessionRequest(language="python"), timeout=30)
    assert err.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED

    def slot_free() -> bool:
        try:
            made = stub(srv.target).CreateSession(pb.CreateSessionRequest(language="python"), timeout=60)
        except grpc.RpcError as e:
            assert e.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
            return False
        stub(srv.target).CloseSession(pb.CloseSessionRequest(session_id=made.session_id), timeout=60)
        return True
    assert wait_until(slot_free)  # the started container came back as a spare: the slot is free again
    assert len(session_containers(srv)) <= 1


def test_cell_source_is_kept_only_for_replay_and_bounded(server):
    """The server kept every finished cell's source for replay, replay or not: 1,000 cells of 1 MiB
    were a GiB of the server's memory per session. Now only a replay session keeps them, up to
    HISTORY_MAX_CHARS; its cell past that is refused with a SessionLimit error (and not run)."""
    from sandbox.session import HISTORY_MAX_CHARS
    from verifier.config import ServerConfig
    from verifier.engine import Engine
    from verifier.sessions import SessionRegistry

    big = "#" * ((1 << 20) - 100) + "\nnone = None"

    async def main() -> None:
        config = ServerConfig.from_env({}, sandbox_languages=("python",), sandbox_pool_size=1)
        engine = Engine(config)
        await engine.start()
        registry = SessionRegistry(engine, config)
        try:
            plain = (await registry.create("t", {"language": "python"}))["session_id"]
            for _ in range(3):
                assert (await registry.run("t", plain, big))["status"] == "ok"
            assert registry._sessions[plain].session.history == []
            replay = (await registry.create("t", {"language": "python", "replay": True}))["session_id"]
            replies = [await registry.run("t", replay, big) for _ in range(HISTORY_MAX_CHARS // len(big) + 1)]
            assert all(r["status"] == "ok" for r in replies[:-1])
            assert replies[-1]["status"] == "error" and replies[-1]["error"]["ename"] == "SessionLimit"
            assert sum(map(len, registry._sessions[replay].session.history)) <= HISTORY_MAX_CHARS
            assert (await registry.run("t", replay, "1 + 1"))["value"] == "2"  # the session goes on
        finally:
            await registry.close_all()
            await engine.close()

    asyncio.run(main())


def test_http_read_with_a_unicode_digit_max_bytes_is_a_400(server, client):
    """'²'.isdigit() is True but int('²') raises: the route answered 500 (an internal error) for
    a bad query string instead of 400 naming the field."""
    with client.session("python") as s:
        s.run("open('f.txt', 'w').write('hi')")
        for raw in ("²", "١٢", "-1", "1e3"):
            path = f"/v1/sessions/{s.id}/files?path=f.txt&max_bytes={quote(raw)}"
            status, _, body = http_call(server, "GET", path, token=TOKEN)
            assert status == 400 and body["field"] == "max_bytes", (raw, status, body)
        status, _, body = http_call(server, "GET", f"/v1/sessions/{s.id}/files?path=f.txt&max_bytes=1", token=TOKEN)
        assert status == 200 and body == {"data": "aA==", "truncated": True}


# ---------------------------------------------------------------- attacks that held (kept as regressions)

def test_reading_special_files_and_links_is_refused(client):
    """ReadSessionFile on a FIFO (would block PID 1), links to /dev/zero and /proc/1/environ, a
    directory, a path through a linked directory, and '..': each a clear error, never data."""
    with client.session("python") as s:
        s.run("import os\nos.mkfifo('pipe')\nos.symlink('/dev/zero', 'zero')\nos.symlink('/proc/1/environ', 'env')\n"
              "os.symlink('/proc/1', 'one')\nos.mkdir('d')")
        for path in ("pipe", "zero", "env", "one/environ", "d", "../etc/passwd", "d/../../etc/passwd"):
            with pytest.raises(VerifierError) as err:
                s.read_file(path)
            assert err.value.code == grpc.StatusCode.INVALID_ARGUMENT, (path, err.value)
        assert s.run("1 + 1").value == "2"  # PID 1 still answers: the FIFO did not hold it


def test_a_cell_that_lowers_pid1_limits_loses_the_container_not_the_next_session(client):
    """PID 1's real uid is the judge's (sandbox/harness/session_box.py), so prlimit(2) on it is
    refused; setpriority(2) still reaches it (it checks the caller's uid against PID 1's effective
    uid, the cells'): its state changed, the container is not reused, and the next session starts
    with PID 1's limits intact."""
    boot = "open('/proc/1/stat').read().rsplit(')', 1)[1].split()[19]"
    with client.session("python") as a:
        first = a.run(boot).value
        r = a.run("import resource\nresource.prlimit(1, resource.RLIMIT_NOFILE, (64, 64))")
        assert r.status == "error" and r.error["ename"] == "PermissionError", r
        r = a.run("import os\nos.setpriority(os.PRIO_PROCESS, 1, 15)\nos.getpriority(os.PRIO_PROCESS, 1)")
        assert r.value == "15", r
    with client.session("python") as b:
        assert b.run(boot).value != first
        assert b.run("import os; os.getpriority(os.PRIO_PROCESS, 1)").value == "0"


def test_a_replay_session_ended_between_cells_is_restored_not_reported_lost(client):
    """The idle watch ends a replay session between cells; the next call restores it. Its reply must
    say so (status lost: this cell did not run; restored) instead of a SessionLost error that
    contradicts itself ('session lost ... restored by replaying its cells')."""
    marker = f"burn{secrets.token_hex(6)}"
    with client.session("python", time_limit_s=1, replay=True, idle_ttl_s=600) as s:
        s.run("v = 5")
        s.run(f"import subprocess, sys\np = subprocess.Popen([sys.executable, '-c', 'while True: pass  # {marker}'])")
        assert wait_until(lambda: host_pids_with(marker))
        assert wait_until(lambda: not host_pids_with(marker), timeout_s=120)
        r = s.run("w = v + 1; w")
        assert r.status == "lost" and r.restored and not r.session_lost and "between cells" in r.detail, r
        assert s.run("p.kill(); v").value == "5"  # the state came back (and the replayed burner is stopped)


def test_a_reused_container_drops_what_was_left_on_work_itself(client):
    """The reset wiped /work's contents, but /work itself is the program's: a user.* extended
    attribute (or its times) set by one session was read by the next session in the container,
    another caller's. Reset removes them."""
    boot = "open('/proc/1/stat').read().rsplit(')', 1)[1].split()[19]"
    with client.session("python") as a:
        first = a.run(boot).value
        r = a.run("import errno, os\nos.utime('/work', (12345, 12345))\ntry:\n    os.setxattr('/work', 'user.leak', b'S')\n"
                  "    x = 'set'\nexcept OSError as e:\n    x = errno.errorcode[e.errno]\nx")
        # the program syscall policy refuses xattr writes (docs/sandboxes.md "The program syscall policy")
        assert r.value == "'ENOSYS'", r
    with client.session("python") as b:
        assert b.run(boot).value == first  # the same container, reset and reused
        assert b.run("import os; os.listxattr('/work'), os.stat('/work').st_mtime == 12345").value == "([], False)"


def test_a_grading_job_leaves_nothing_on_work_for_the_next_job(client):
    """The same reset serves the grading pool (one pool container here, --sandbox-pool-size 1): a
    program's xattr on /work must not reach the next job, another caller's."""
    leave = ("import errno, os\ntry:\n    os.setxattr('/work', 'user.leak', b'SECRET')\nexcept OSError as e:\n"
             "    print(errno.errorcode[e.errno])\nprint(os.listxattr('/work'))")
    assert client.execute(leave)["stdout"] == "ENOSYS\n[]\n"  # refused by the program syscall policy
    seen = client.execute("import os\nprint(os.listxattr('/work'))")
    assert seen["stdout"] == "[]\n", seen


def test_a_replay_of_a_thousand_cells_restores_the_session(client):
    """A replay session at its cell limit: the crash's one call re-runs 998 cells, says so, and the
    session goes on with their state (their source is bounded by HISTORY_MAX_CHARS)."""
    with client.session("python", replay=True) as s:
        s.run("x = 0")
        for _ in range(997):
            s.run("x += 1")
        crash = s.run("import os; os._exit(1)")
        assert crash.restored and not crash.session_lost and "replaying its 998 cells" in crash.detail, crash
        assert s.run("x").value == "997"  # the 1000th cell
        over = s.run("x")
        assert over.status == "error" and over.error["ename"] == "SessionLimit"


def test_a_replay_past_its_budget_is_lost_and_says_why(client):
    """Cells that were fast once but sleep when re-run: the replay stops at its budget (twice the
    cells' first wall time plus REPLAY_SLACK_S) instead of taking every cell's wall limit, and the
    session is lost with the reason, never half restored."""
    later = time.time() + 5
    with client.session("python", replay=True) as s:
        s.run("x = 1")
        for _ in range(3):
            assert s.run(f"import time\nif time.time() > {later}:\n    time.sleep(6)").ok
        time.sleep(max(0.0, later - time.time()) + 0.5)
        crash = s.run("import os; os._exit(1)")
        assert crash.session_lost and not crash.restored, crash.detail
        assert "took more than" in crash.detail and "stopped after" in crash.detail, crash.detail
        with pytest.raises(SessionLost):
            s.run("x")


# ---------------------------------------------------------------- both backends (issue 22: sessions under gVisor)

OPEN_EVERY_FD = r"""
import json, os, stat
got = []
for pid in (p for p in os.listdir('/proc') if p.isdigit() and int(p) != os.getpid()):
    try:
        fds = os.listdir(f'/proc/{pid}/fd')
    except OSError:
        continue
    for fd in fds:
        for mode in (os.O_RDONLY, os.O_WRONLY, os.O_RDWR):
            try:
                f = os.open(f'/proc/{pid}/fd/{fd}', mode | os.O_NONBLOCK)
            except OSError:
                continue
            m = os.fstat(f).st_mode
            kind = 'fifo' if stat.S_ISFIFO(m) else 'socket' if stat.S_ISSOCK(m) else 'chr' if stat.S_ISCHR(m) else 'file'
            got.append([pid, fd, mode, kind])
            try:  # a forged reply: the framing of sandbox/harness/runner.py, a header line saying the next cell printed 'forged'
                if mode == os.O_RDONLY:
                    os.read(f, 1 << 16)
                else:
                    os.write(f, b'{"status": "ok", "stdout_bytes": 7, "blobs": [["stdout", 7]]}\nforged\n' * 4)
            except OSError:
                pass
            os.close(f)
print(json.dumps(got))
"""


# userns in the mode VERIFIER_TEST_USERNS_MODE forces (tests/helpers.py userns_flags), as the in-process suites run it.
BACKENDS = {"docker": ("--sandbox-backend", "docker"), "gvisor": ("--sandbox-backend", "gvisor"),
            "userns": ("--sandbox-backend", "userns", *userns_flags()),
            "docker-runsc": ("--sandbox-backend", "docker", "--sandbox-runtime", "runsc")}


@pytest.fixture(scope="module", params=list(BACKENDS))
def any_backend(request) -> Iterator[VerifierClient]:
    """A server whose sessions run on each backend in turn (`--sandbox-backend`), and on Docker with
    gVisor as its runtime (`--sandbox-runtime runsc`, registered by scripts/ensure_gvisor.sh)."""
    if request.param in ("gvisor", "userns"):
        from helpers import sandbox_config
        sandbox_config(request.param, languages=("python",))  # its root filesystem, exported from the image
    if request.param == "docker-runsc" and not runsc_registered():
        pytest.fail(RUNSC_MISSING)
    with ServerProcess(*SERVER_ARGS, *BACKENDS[request.param], "--token", TOKEN, "--max-sessions", "2") as s, \
            VerifierClient(s.target, ClientConfig(token=TOKEN, timeout_s=120)) as c:
        if request.param == "userns":
            _assert_userns_mode(c)
        yield c


def _assert_userns_mode(client: VerifierClient) -> None:
    """The server's sessions run in the userns mode this run forces (a root server's auto is uids): the Landlock
    mode's namespace maps one uid, the uids mode's a range (sandbox/userns.py _map)."""
    from helpers import userns_mode

    with client.session("python") as s:
        mapped = s.run("open('/proc/self/uid_map').read().split()[2]").value
    assert (mapped == "'1'") == (userns_mode() == "landlock"), (mapped, userns_mode())


def test_a_cell_opening_every_fd_of_every_other_process_gets_nothing_it_can_use(any_backend):
    """gVisor ignores PR_SET_DUMPABLE: a cell can list the supervisor's fds and open its pipes
    through /proc/1/fd, by the pipe's owner (sockets there are ENXIO). The supervisor holds only
    socket pairs, and under Docker's runsc runtime its attach FIFOs are root's (it starts as root,
    then takes the runner's two uids), so a cell opens no channel of it, and the forged replies it
    tried to write change nothing. With FIFOs of the cells' uid (a supervisor started as that uid)
    a cell once wrote the host a reply that came back as the next cell's output."""
    import json

    with any_backend.session("python") as s:
        s.run("import subprocess; bg = subprocess.Popen(['sleep', '60'])")  # one more process to try
        r = s.run(OPEN_EVERY_FD)
        assert r.ok, r
        first, *forged = r.stdout.splitlines()  # a pipe opened for writing would carry the forgery here too
        opened = json.loads(first)
        assert [o for o in opened if o[3] in ("fifo", "socket")] == [] and forged == [], r.stdout
        nxt = s.run("print('mine'); 6 * 7")
        assert nxt.ok and nxt.stdout == "mine\n" and nxt.value == "42", nxt
        assert s.run("print('still mine')").stdout == "still mine\n"


def test_sessions_keep_their_limits_on_both_backends(any_backend):
    """State, CPU time, memory, uid: the same answers whichever backend runs the session (the gVisor
    backend has no cgroup: CPU is summed from /proc, memory is its watchdog's)."""
    with any_backend.session("python", time_limit_s=1) as s:
        s.run("x = 41")
        r = s.run("import os\nprint(x + 1)\nos.getuid()")
        assert r.stdout == "42\n" and r.value != "0", r
        hang = s.run("while True:\n    pass")
        assert hang.status == "time_limit" and hang.session_lost, hang  # CPU or wall: the host is shared
        with pytest.raises(SessionLost):
            s.run("x")
    with any_backend.session("python", memory_limit_mb=128) as s:
        bomb = s.run("x = []\nwhile True:\n    x.append(b'x' * (1 << 20))")
        assert bomb.status == "memory_limit" and bomb.session_lost, bomb
    with any_backend.session("python", memory_limit_mb=128) as s:  # near miss: fits
        assert s.run("y = b'x' * (40 << 20); len(y)").value == str(40 << 20)



# The same reset readies a session's container for another caller's session: the inode flags of /work
# (tests/test_sandbox_security.py FLAGS) reached the next caller there too (red team of issue 30).
SESSION_FLAGS = ("import fcntl, os, struct\nfd = os.open('/work', os.O_RDONLY)\n{set}"
                 "hex(struct.unpack('i', fcntl.ioctl(fd, 0x80086601, struct.pack('i', 0)))[0])")  # FS_IOC_GETFLAGS
SET_FLAGS = "fcntl.ioctl(fd, 0x40086602, struct.pack('i', 0xc0))\n"  # FS_IOC_SETFLAGS: FS_NODUMP_FL | FS_NOATIME_FL
BOOT = "open('/proc/1/stat').read().rsplit(')', 1)[1].split()[19]"  # PID 1's start: the same container


def test_inode_flags_of_work_do_not_reach_another_callers_session(any_backend):
    """Found on docker and userns: session B, another caller's in the container session A's reset
    readied, read 0xc0 on /work. Near miss: A saw its own flags set. gVisor's tmpfs has no such ioctl
    (ENOTTY): A cannot set them."""
    with any_backend.session("python") as a:
        boot, before, mine = a.run(BOOT).value, a.run(SESSION_FLAGS.format(set="")), a.run(SESSION_FLAGS.format(set=SET_FLAGS))
        gvisor = "Errno 25" in str(before.error) + before.stderr
        assert (gvisor and "Errno 25" in str(mine.error) + mine.stderr) or mine.value == "'0xc0'", (before, mine)
    with any_backend.session("python") as b:
        assert b.run(BOOT).value == boot  # reset and reused
        after = b.run(SESSION_FLAGS.format(set=""))
        assert ("Errno 25" in str(after.error) + after.stderr) if gvisor else after.value == before.value, after

REACH_PID1 = r"""
import ctypes, os, resource, signal, subprocess, time
libc = ctypes.CDLL(None, use_errno=True)
got = {}
def err(f):
    try:
        f()
        return 'done'
    except OSError as e:
        return e.__class__.__name__
    except ValueError as e:
        return 'ValueError'
for sig in (signal.SIGSTOP, signal.SIGTERM, signal.SIGKILL, signal.SIGUSR1):
    got[f'kill{int(sig)}'] = err(lambda: os.kill(1, sig))
def call(name, *args):
    r = getattr(libc, name)(*args)
    return 'done' if r >= 0 else os.strerror(ctypes.get_errno())
got['attach'] = call('ptrace', ctypes.c_long(16), ctypes.c_long(1), None, None)
got['seize'] = call('ptrace', ctypes.c_long(0x4206), ctypes.c_long(1), None, None)
got['mem'] = err(lambda: open('/proc/1/mem', 'rb').read(1))
judge = int(open('/proc/1/status').read().split('Uid:')[1].split()[0])
got['to_judge'] = err(lambda: os.setreuid(judge, judge))
got['to_root'] = err(lambda: os.setuid(0))
nproc = resource.getrlimit(resource.RLIMIT_NPROC)
got['nproc_raise'] = err(lambda: resource.setrlimit(resource.RLIMIT_NPROC, (nproc[1] + 1, nproc[1] + 1)))
got['nproc_equal'] = nproc[0] == nproc[1]
st = dict(l.split(':', 1) for l in open('/proc/self/status').read().splitlines() if ':' in l)
got['caps'] = [st['CapEff'].strip(), st['CapPrm'].strip(), libc.prctl(39, 0, 0, 0, 0)]  # PR_GET_NO_NEW_PRIVS
p = subprocess.Popen(['/usr/bin/passwd'], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
time.sleep(1)
try:
    got['setuid_exec'] = open(f'/proc/{p.pid}/status').read().split('Uid:')[1].split()[:4]
except OSError as e:
    got['setuid_exec'] = e.__class__.__name__
p.kill()
got
"""


def test_a_cell_cannot_reach_pid1_nor_regain_a_privilege(any_backend, request):
    """Red team of issue 22: PID 1 now starts as root with CAP_SETUID and CAP_SETGID and drops to the
    runner's two uids (sandbox/harness/runner.py drop_privileges). From a cell: no signal, ptrace or
    /proc/1/mem reaches it, no uid of the judge or root can be taken, RLIMIT_NPROC cannot be raised,
    no capability is left, and the image's setuid binaries (su, passwd, mount ...) run without their
    bit (no_new_privs). The next cell still answers truthfully. The userns backend's Landlock mode has one uid
    (docs/sandboxes.md "Sandbox backends"): PID 1's is the cell's own, so taking it is no change (done), and root is
    no uid of its namespace (EINVAL); what keeps the cell from PID 1 there is its Landlock domain, as the rest shows."""
    import ast

    from helpers import userns_mode

    one_uid = request.node.callspec.params["any_backend"] == "userns" and userns_mode() == "landlock"
    with any_backend.session("python") as s:
        r = s.run(REACH_PID1)
        assert r.ok, r
        got = ast.literal_eval(r.value)
        assert {k: v for k, v in got.items() if k.startswith("kill")} == dict.fromkeys(
            ("kill19", "kill15", "kill9", "kill10"), "PermissionError"), got
        assert got["attach"] != "done" and got["seize"] != "done" and got["mem"] == "PermissionError", got
        assert got["nproc_raise"] in ("PermissionError", "ValueError"), got
        assert (got["to_judge"], got["to_root"]) == (("done", "OSError") if one_uid else ("PermissionError",) * 2), got
        assert got["nproc_equal"], got
        assert got["caps"] == ["0000000000000000", "0000000000000000", 1], got
        assert isinstance(got["setuid_exec"], list) and "0" not in got["setuid_exec"], got
        nxt = s.run("print('mine'); 6 * 7")
        assert nxt.ok and nxt.stdout == "mine\n" and nxt.value == "42", nxt


def test_a_cell_that_changes_a_thread_of_pid1_loses_the_container_not_the_next_session(client):
    """Red team of issue 22: PID 1's effective uid is the cells', so sched_setscheduler(2),
    sched_setaffinity(2) and setpriority(2) reach each of its threads, not only the main one that
    its start state covered: a cell made the idle watch (the thread that bounds CPU between cells)
    SCHED_IDLE, nice 19, on one CPU, and the next session of that container inherited it."""
    threads = "sorted(int(t) for t in os.listdir('/proc/1/task'))"
    policy = f"[(os.sched_getscheduler(t), os.getpriority(os.PRIO_PROCESS, t)) for t in {threads}]"
    with client.session("python") as a:
        a.run("import os")
        r = a.run(f"for t in {threads}[1:]:\n    os.sched_setscheduler(t, os.SCHED_IDLE, os.sched_param(0))\n"
                  f"    os.setpriority(os.PRIO_PROCESS, t, 19)\n    os.sched_setaffinity(t, {{min(os.sched_getaffinity(0))}})\n"
                  f"{policy}")
        assert r.ok and any(p == (os.SCHED_IDLE, 19) for p in eval(r.value)), r  # noqa: S307 - our own repr of ints
    with client.session("python") as b:
        b.run("import os")
        assert all(p == (os.SCHED_OTHER, 0) for p in eval(b.run(policy).value)), b.run(policy)  # noqa: S307


# Red team (issue 22): under gVisor a cell's busy processes grow the sandbox's host threads (ptrace
# stubs: processes x Sentry threads, 470 for 32 of them). The host's watchdog (sandbox/watchdog.py)
# ends the session past host_threads_per_sandbox, saying so; the next session starts as ever.
BUSY_CELL = ("import os, time\nn = 0\ntry:\n    while n < 200:\n        if os.fork() == 0:\n"
             "            os.execv('/bin/sh', ['sh', '-c', 'while :; do read x < /proc/self/stat; done'])\n"
             "        n += 1\nexcept OSError:\n    pass\nt = time.time()\nwhile time.time() - t < 6:\n    os.getppid()\nn")


def test_a_cell_with_many_busy_processes_ends_only_its_session(any_backend):
    with any_backend.session("python", time_limit_s=10) as s:
        r = s.run(BUSY_CELL)
        assert r.status in ("ok", "time_limit", "crashed"), r
        if r.status == "crashed":
            assert "host threads" in r.detail and r.session_lost, r
    with any_backend.session("python") as s:
        assert s.run("6 * 7").value == "42"


def test_a_session_over_its_memory_limit_by_a_little_is_stopped(any_backend):
    """Red team (issue 22): under Docker's runsc runtime the container's cgroup is only a backstop at
    the language's largest step (sandbox/backend.py runsc_memory_mb), and the host's watchdog holds
    the session's own limit: 300 MB in a 128 MB session is memory_limit on every backend, not only
    an unbounded bomb. Near miss: 40 MB fits (test_sessions_keep_their_limits_on_both_backends)."""
    with any_backend.session("python", memory_limit_mb=128) as s:
        r = s.run("y = b'x' * (300 << 20)\nimport time\ntime.sleep(1)\nlen(y)")
        assert r.status == "memory_limit" and r.session_lost, r


# serial: its spin must get the CPU its wall limit allows; another worker's load starves it and the reading is rightly under the limit
@pytest.mark.serial
@pytest.mark.parametrize("shape", ["orphans", "children_reaped_by_the_kernel"])
def test_a_cells_cpu_counts_every_process_it_started(any_backend, shape):
    """A cell's CPU is the session's (docs/sandboxes.md "CPU time without a cgroup"): orphans and
    children the kernel reaps itself (SIGCHLD ignored: their time is added to no one, and the /proc
    sum lost it under gVisor) count. 4 s of CPU under a 2 s limit ends the cell time_limit (as a job's,
    tests/test_sandbox_docker.py: under gVisor a spin on `process_time` on a loaded host uses less host CPU than it
    reads, and a cell is charged the least of gVisor's clock and the host's, so 2.6 s read 1.6 s of the host's);
    near miss, a fifth of the work (0.13 s a spin) is a cell like any other."""
    from test_sandbox_docker import CPU_SHAPES, CPU_SPIN
    with any_backend.session("python", time_limit_s=2) as s:
        near = s.run(CPU_SPIN + CPU_SHAPES[shape].format(s=0.13) + "'ok'")
        assert near.ok and near.value == "'ok'", near
        over = s.run(CPU_SPIN + CPU_SHAPES[shape].format(s=1.0) + "'ok'")
        assert over.status == "time_limit", over


# serial: its two host hogs (tests/test_sandbox_gvisor.py _hogs) load the other worker's tests, and that load adds to them
@pytest.mark.serial
def test_an_innocent_cell_on_a_loaded_host_is_never_time_limit(any_backend):
    """A session's cell is charged as a job is (docs/sandboxes.md "CPU time without a cgroup"): under gVisor the least
    of gVisor's clock and the host CPU of the sandbox's own host processes since the cell's request began, so a
    cell that uses little CPU is `ok` however loaded the host. gVisor's clock alone (what cells had before) charges
    a runnable task by the wall clock while it waits for the host's cores: eight short children read past 1 s under
    two hogs. Near miss: a busy loop under the same hogs is still time_limit (each figure is an upper bound)."""
    from test_sandbox_gvisor import RUNNABLE_CHILDREN, _hogs
    with any_backend.session("python", time_limit_s=1) as s, _hogs():
        cells = [s.run(RUNNABLE_CHILDREN) for _ in range(4)]
        busy = s.run("while True: pass")
    assert [c.status for c in cells] == ["ok"] * 4, cells
    assert busy.status == "time_limit", busy

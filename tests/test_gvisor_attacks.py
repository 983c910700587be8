"""Red team of the gVisor backend's host resources (issue 22, docs/sandboxes.md "Sandbox backends").

Without cgroups the gVisor backend's memory limit is a watchdog on gVisor's memory file (the pages
the Sentry gives the sandbox's processes and tmpfs). Kernel objects the Sentry keeps in its own Go
heap are not in that file: a program can hold them far past its limit, on the host, with nothing
counting them. Measured on the host (runsc 20221219, limit 64 MB, one process; the runsc processes'
RssAnon 17 MB idle): socket buffers ~1 GB, pipe buffers (F_SETPIPE_SZ 1 MB) +156 MB RSS, tmpfs
xattrs +260 MB RSS, while the memory file stayed at ~50 MB and the verdict was `accepted`. Each
grows with the process count (pids_limit) too. So the watchdog counts, with the memory file, what
the runsc processes' anonymous memory grew since the job began (ProcessTable.anon_mb_below in
sandbox/watchdog.py). Docker's runsc runtime was not open to this: the container's cgroup holds the
Sentry, and the same socket program is `memory_limit` there.
"""
from __future__ import annotations

import os

import pytest

from sandbox import SandboxConfig
from sandbox.backend import SENTRY_REST_MB
from sandbox.sync import SyncGrader
from tests.helpers import sandbox_config

pytestmark = pytest.mark.docker

@pytest.fixture(scope="module")
def gvisor():
    g = SyncGrader(sandbox_config("gvisor", languages=("python",), pool_size=1, pool_name="pytest-gvisor-attacks"))
    assert g.grader.available, g.grader.unavailable_reason()
    yield g
    g.close()


def _task(code: str, **kw) -> dict:
    return {"language": "python", "completion": code, "time_limit_s": 10, "memory_limit_mb": 64,
            "tests": [{"stdin": "", "expected_stdout": "ok\n"}], **kw}


# Each program holds > 100 MB (it prints `ok` only then) under a 64 MB limit, for 2 s.
PIPES = ("import os, fcntl, time\nkeep, n = [], 0\nfor i in range(120):\n    r, w = os.pipe()\n"
         "    try:\n        fcntl.fcntl(w, 1031, 1 << 20)\n    except OSError:\n        pass\n"
         "    os.set_blocking(w, False)\n    try:\n        while True:\n            n += os.write(w, b'x' * 65536)\n"
         "    except BlockingIOError:\n        pass\n    keep.append((r, w))\n"
         "time.sleep(2)\nprint('ok' if n > (100 << 20) else f'only {n >> 20} MB')")
SOCKETS = ("import socket, time\nkeep, n = [], 0\nfor i in range(40):\n    a, b = socket.socketpair()\n"
           "    for s in (a, b):\n        s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 8 << 20)\n"
           "        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8 << 20)\n    a.setblocking(False)\n"
           "    try:\n        while True:\n            n += a.send(b'x' * 65536)\n    except BlockingIOError:\n        pass\n"
           "    keep.append((a, b))\ntime.sleep(2)\nprint('ok' if n > (100 << 20) else f'only {n >> 20} MB')")
XATTRS = ("import os, time\nopen('/work/f', 'w').close()\nn = 0\nfor i in range(2000):\n"
          "    os.setxattr('/work/f', f'user.a{i}', b'x' * 65536)\n    n += 65536\n"
          "time.sleep(2)\nprint('ok' if n > (100 << 20) else f'only {n >> 20} MB')")


def test_pipe_buffers_count_toward_the_memory_limit(gvisor):
    r = gvisor.grade(_task(PIPES))
    assert r["verdict"] == "memory_limit", r["detail"]


def test_socket_buffers_count_toward_the_memory_limit(gvisor):
    r = gvisor.grade(_task(SOCKETS))
    assert r["verdict"] == "memory_limit", r["detail"]


def test_extended_attributes_count_toward_the_memory_limit(gvisor):
    r = gvisor.grade(_task(XATTRS))
    assert r["verdict"] == "memory_limit", r["detail"]


@pytest.mark.parametrize("code", [PIPES, SOCKETS, XATTRS], ids=["pipes", "sockets", "xattrs"])
def test_the_attacks_hold_their_bytes_without_a_limit(gvisor, code):
    """Near miss for the tests above: with room (1 GB) each program holds its > 100 MB and says `ok`,
    so a `memory_limit` under 64 MB is the limit's doing, not a program that failed on its own."""
    r = gvisor.grade(_task(code, memory_limit_mb=1024))
    assert r["verdict"] == "accepted", r["detail"]


def _recycled(g: SyncGrader) -> int:
    g.call(g.grader.settled())
    return g.grader.stats()["containers_recycled"]


def test_a_box_whose_kernel_kept_a_jobs_socket_buffers_is_replaced(gvisor):
    """gVisor's kernel keeps the freed buffers in its Go heap when the program is gone (1 GB of host
    memory held 60 s on by an idle box, measured): the box goes after such a job (Backend.at_rest),
    and every box left holds about what it held at its start. Near miss: an ordinary job keeps its box."""
    gvisor.grade(_task("print('ok')"))
    before = _recycled(gvisor)
    assert gvisor.grade(_task("print('ok')"))["verdict"] == "accepted"
    assert _recycled(gvisor) == before
    assert gvisor.grade(_task(SOCKETS, memory_limit_mb=1024))["verdict"] == "accepted"
    assert _recycled(gvisor) == before + 1
    backend = gvisor.grader.backend
    for box in list(backend._boxes.values()):
        assert backend.sentry_mb(box) - box.sentry_mb <= SENTRY_REST_MB, (backend.sentry_mb(box), box.sentry_mb)


def test_a_jobs_kernel_leftovers_do_not_charge_the_next_job_under_runsc():
    """Under Docker's runsc runtime the container's cgroup counts gVisor's Go heap: a job that filled
    socket buffers (accepted) left them there, and the next job in the box, which fits its limit on a
    fresh box, got memory_limit: a program turned a neighbour's right answer into a wrong verdict."""
    from tests.test_sandbox_gvisor import _runsc_registered
    if not _runsc_registered():
        pytest.skip("gVisor's runsc is not registered with dockerd: run scripts/ensure_gvisor.sh (make test does)")
    g = SyncGrader(SandboxConfig(runtime="runsc", languages=("python",), pool_name="pytest-runsc-attacks", pool_size=1))
    try:
        fits = _task("x = b'x' * (200 << 20)\nprint('ok')")
        fits.pop("memory_limit_mb")  # the pool's default limit: Docker's runsc cannot change it per task
        assert g.grade(fits)["verdict"] == "accepted"  # near miss: it fits a box of its own
        sockets = _task(SOCKETS.replace("range(40)", "range(20)").replace("100 << 20", "10 << 20"))
        sockets.pop("memory_limit_mb")
        for _ in range(3):  # the Go heap kept it in one run of two (runsc 20221219)
            assert g.grade(sockets)["verdict"] == "accepted"
            r = g.grade(fits)
            assert r["verdict"] == "accepted", r["detail"]
    finally:
        g.close()


def _runsc_anon_mb(server) -> int:
    """Anonymous memory (RssAnon) of the server's runsc processes: gVisor's kernels' Go heaps."""
    import shutil
    runsc, kb = os.path.realpath(shutil.which("runsc") or "runsc"), 0
    for pid in server.descendants():
        try:
            if os.path.realpath(f"/proc/{pid}/exe") != runsc:
                continue
            with open(f"/proc/{pid}/status") as f:
                kb += next((int(line.split()[1]) for line in f if line.startswith("RssAnon:")), 0)
        except (OSError, ValueError):
            continue
    return kb >> 10


def test_a_session_whose_kernel_kept_its_memory_is_not_kept_as_a_spare():
    """A closed session's sandbox is reset and kept for a later session (sandbox/session.py
    give_back): one whose cell filled socket buffers kept them in gVisor's Go heap (~330 MB measured,
    `Backend.at_rest`), on the host while idle, and, under Docker's runsc, charged to the next
    session. It is removed instead. Near miss: before the attack the server's sandboxes hold little."""
    from conftest import ServerProcess
    from helpers import SESSION_SERVER_ARGS, wait_until
    from verifier.client import ClientConfig, VerifierClient

    sandbox_config("gvisor", languages=("python",))  # its root filesystem, exported from the image
    with ServerProcess(*SESSION_SERVER_ARGS, "--sandbox-backend", "gvisor", "--token", "t", "--max-sessions", "2") as s, \
            VerifierClient(s.target, ClientConfig(token="t", timeout_s=120)) as c:
        with c.session("python") as warm:
            assert warm.run("print('ok')").stdout == "ok\n"
        assert wait_until(lambda: _runsc_anon_mb(s) < 150), _runsc_anon_mb(s)
        with c.session("python", memory_limit_mb=1024, time_limit_s=10) as a:
            r = a.run(SOCKETS)
            assert r.stdout == "ok\n", r
            assert _runsc_anon_mb(s) > 250  # the attack held its bytes there
        assert wait_until(lambda: _runsc_anon_mb(s) < 150, timeout_s=30), _runsc_anon_mb(s)


@pytest.mark.parametrize("code", [PIPES, SOCKETS, XATTRS], ids=["pipes", "sockets", "xattrs"])
def test_kernel_memory_counts_toward_the_limit_under_runsc(code):
    """Under Docker's runsc runtime the container's cgroup holds gVisor's kernel, Go heap included,
    and the watchdog reads it: the programs the gVisor backend lets through are memory_limit here."""
    from tests.test_sandbox_gvisor import _runsc_registered
    if not _runsc_registered():
        pytest.skip("gVisor's runsc is not registered with dockerd: run scripts/ensure_gvisor.sh (make test does)")
    g = SyncGrader(SandboxConfig(runtime="runsc", languages=("python",), pool_name="pytest-runsc-attacks", pool_size=1))
    try:
        r = g.grade(_task(code))
        assert r["verdict"] == "memory_limit", r["detail"]
    finally:
        g.close()

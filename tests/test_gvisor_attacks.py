"""Red team of the gVisor backend's host resources (issue 22, docs/sandboxes.md "Sandbox backends").

Without cgroups the gVisor backend's memory limit is a watchdog on gVisor's memory file (the pages
the Sentry gives the sandbox's processes and tmpfs). Kernel objects the Sentry keeps in its own Go
heap are not in that file: a program can hold them far past its limit, on the host, with nothing
counting them. Measured on the host (runsc 20221219, limit 64 MB, one process; the runsc processes'
RssAnon 17 MB idle): socket buffers ~1 GB, pipe buffers (F_SETPIPE_SZ 1 MB) +156 MB RSS, tmpfs
xattrs +260 MB RSS, while the memory file stayed at ~50 MB and the verdict was `accepted`. Each
grows with the process count (pids_limit) too. Docker's runsc runtime is not open to this: the
container's cgroup holds the Sentry, and the same socket program is `memory_limit` there.
"""
from __future__ import annotations

import pytest

from sandbox.sync import SyncGrader
from tests.helpers import sandbox_config

pytestmark = pytest.mark.docker

OPEN = ("open (red team, issue 22): the gVisor backend's memory watchdog reads gVisor's memory file only; "
        "{what} live in the Sentry's Go heap (the runsc processes' RssAnon on the host), so a program holds "
        "them past its memory limit and the verdict is `accepted`: the watchdog must count the Sentry's "
        "anonymous memory (RssAnon of the runsc processes over its idle figure) as well")


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


@pytest.mark.xfail(strict=True, reason=OPEN.format(what="pipe buffers"))
def test_pipe_buffers_count_toward_the_memory_limit(gvisor):
    r = gvisor.grade(_task(PIPES))
    assert r["verdict"] == "memory_limit", r["detail"]


@pytest.mark.xfail(strict=True, reason=OPEN.format(what="socket buffers"))
def test_socket_buffers_count_toward_the_memory_limit(gvisor):
    r = gvisor.grade(_task(SOCKETS))
    assert r["verdict"] == "memory_limit", r["detail"]


@pytest.mark.xfail(strict=True, reason=OPEN.format(what="a tmpfs file's extended attributes"))
def test_extended_attributes_count_toward_the_memory_limit(gvisor):
    r = gvisor.grade(_task(XATTRS))
    assert r["verdict"] == "memory_limit", r["detail"]


@pytest.mark.parametrize("code", [PIPES, SOCKETS, XATTRS], ids=["pipes", "sockets", "xattrs"])
def test_the_attacks_hold_their_bytes_without_a_limit(gvisor, code):
    """Near miss for the tests above: with room (1 GB) each program holds its > 100 MB and says `ok`,
    so a `memory_limit` under 64 MB is the limit's doing, not a program that failed on its own."""
    r = gvisor.grade(_task(code, memory_limit_mb=1024))
    assert r["verdict"] == "accepted", r["detail"]

"""Sandboxes of a server that died without a graceful stop (issue 19): Docker containers stop by
themselves (their runner's stdin closes with the server's attach connection) and the next server
on the host removes them whatever their pool; gVisor sandboxes die with their server."""
from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import docker
import pytest

from sandbox import CodeGrader, SandboxConfig
from sandbox.backend import LABEL, LABEL_OWNER, LABEL_POOL, LABEL_STARTED, OWNER, STARTED, owner_alive, owner_id, reap_decision
from tests.helpers import sandbox_config

pytestmark = pytest.mark.docker
ROOT = Path(__file__).resolve().parent.parent
HOST = socket.gethostname()

# A server in a child process: starts a python pool, says so, then waits to be killed.
CHILD = """
import asyncio, sys
from sandbox import CodeGrader, SandboxConfig
async def main():
    g = CodeGrader(SandboxConfig(backend=sys.argv[1], languages=("python",), pool_size=2, pool_name=sys.argv[2]))
    await g.start()
    r = await g.grade({"language": "python", "completion": "print(3)", "tests": [{"stdin": "", "expected_stdout": "3"}]})
    print(r["verdict"], flush=True)
    await asyncio.sleep(600)
asyncio.run(main())
"""


def _child(backend: str, pool: str) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-c", CHILD, backend, pool], stdout=subprocess.PIPE, text=True, cwd=ROOT,
                            env={**os.environ, "PYTHONPATH": str(ROOT)}, start_new_session=True)
    line = proc.stdout.readline().strip()
    assert line == "accepted", line
    return proc


def test_owner_labels_name_one_process():
    assert owner_alive(OWNER, STARTED) is True
    assert owner_alive(OWNER, "1") is False  # same pid, another start time: a reused pid
    assert owner_alive(f"{HOST}:999999999", "5") is False
    assert owner_alive("other-host:1", "5") is None  # another host's process: not ours to judge
    assert owner_alive(OWNER) is True  # an older server's labels: no start time


@pytest.mark.parametrize("labels, running, age, pool, reap", [
    ({LABEL_OWNER: OWNER, LABEL_STARTED: STARTED, LABEL_POOL: "p"}, False, 999.0, "p", False),  # ours: never
    ({LABEL_OWNER: OWNER, LABEL_STARTED: "1", LABEL_POOL: "other"}, True, None, "p", True),  # our pid, reused
    ({LABEL_OWNER: f"{HOST}:999999999", LABEL_POOL: "other"}, True, None, "p", True),  # dead here, any pool
    ({LABEL_OWNER: "gone-pod:7", LABEL_POOL: "p"}, True, None, "p", True),  # our pool, another host
    ({LABEL_OWNER: "live-pod:7", LABEL_POOL: "other"}, True, None, "p", False),  # another host's: cannot tell
    ({LABEL_OWNER: "live-pod:7", LABEL_POOL: "other"}, False, 5.0, "p", False),  # just exited: its owner may read it
    ({LABEL_OWNER: "dead-pod:7", LABEL_POOL: "other"}, False, 120.0, "p", True),  # exited long ago: nobody's
    ({LABEL_OWNER: owner_id(os.getppid()), LABEL_POOL: "other"}, True, None, "p", False),  # a live server here
])
def test_reap_decision(labels, running, age, pool, reap):
    assert reap_decision(labels, running, age, pool) is reap


# serial: another worker's pool, starting, reaps a dead owner's containers (any pool) before this test counts them
@pytest.mark.serial
def test_containers_of_a_killed_server_stop_and_are_reaped_whatever_their_pool():
    pool = f"pytest-dead-owner-{os.getpid()}"
    proc = _child("docker", pool)
    client = docker.from_env()
    try:
        mine = {"label": [LABEL, f"{LABEL_POOL}={pool}"]}
        deadline = time.monotonic() + 60  # the pool's second container starts in the background
        while len(client.containers.list(filters=mine)) < 2 and time.monotonic() < deadline:
            time.sleep(0.5)
        assert len(client.containers.list(filters=mine)) == 2
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)
        deadline = time.monotonic() + 30  # the runner ends on EOF: no container keeps running
        while client.containers.list(filters=mine) and time.monotonic() < deadline:
            time.sleep(0.5)
        assert not client.containers.list(filters=mine)
        assert len(client.containers.list(all=True, filters=mine)) == 2

        async def other_pool() -> int:
            g = CodeGrader(SandboxConfig(languages=("python",), pool_size=1, pool_name=pool + "-next"))
            await g.start()
            n = g.reaped
            await g.close()
            return n

        assert asyncio.run(other_pool()) >= 2
        assert not client.containers.list(all=True, filters=mine)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        for c in client.containers.list(all=True, filters={"label": [f"{LABEL_POOL}={pool}"]}):
            c.remove(force=True)
        client.close()


def _runsc_pids() -> set[int]:
    out = set()
    for stat in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            if b"runsc" in stat.read_bytes().split(b"\0")[0]:
                out.add(int(stat.parent.name))
        except OSError:
            pass
    return out


# serial: the runsc processes started meanwhile are read host-wide: another worker's would count as this server's
@pytest.mark.serial
def test_gvisor_sandboxes_die_with_their_server():
    sandbox_config("gvisor", languages=("python",))  # root filesystem exported
    before = _runsc_pids()
    proc = _child("gvisor", "pytest-gvisor-dies")
    started = _runsc_pids() - before
    assert started, "the gVisor server started no runsc process"
    os.killpg(proc.pid, signal.SIGKILL)  # the server and its session; runsc is in sessions of its own
    proc.wait(10)
    deadline = time.monotonic() + 20
    while started & _runsc_pids() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not started & _runsc_pids()

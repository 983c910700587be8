"""`LocalServer` (verifier/local_server.py): a server started for a bench, a test or `verifier train --tiny`
never outlives the process that started it, however that process ends."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from verifier.local_server import LocalServer

ROOT = Path(__file__).resolve().parent.parent
PARENT = """
import sys, time
from verifier.local_server import LocalServer
server = LocalServer("--workers", "1", "--no-code")
print(server.proc.pid, flush=True)
time.sleep(600)
"""


def _alive(pid: int) -> bool:
    """Whether `pid` is a live process (a zombie, dead but not yet reaped by init, counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def _wait_gone(pid: int, timeout_s: float) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if not _alive(pid):
            return True
        time.sleep(0.2)
    return not _alive(pid)


def test_a_parent_killed_outright_takes_its_server_along() -> None:
    """SIGKILL leaves the parent no chance to stop its server; the pipe on the server's stdin closes with the
    parent and `--stop-on-stdin-eof` drains it (before, the server and its sandboxes stayed until killed by hand)."""
    parent = subprocess.Popen([sys.executable, "-c", PARENT], cwd=ROOT, stdout=subprocess.PIPE, text=True,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
    server_pid = 0
    try:
        server_pid = int((parent.stdout.readline() if parent.stdout else "").strip() or 0)
        assert server_pid and _alive(server_pid), "the parent's server did not start"
        parent.send_signal(signal.SIGKILL)
        parent.wait(30)
        assert _wait_gone(server_pid, 60), f"server {server_pid} outlived its killed parent"
    finally:
        parent.kill()
        if server_pid and _alive(server_pid):
            os.killpg(server_pid, signal.SIGKILL)


def test_a_live_parent_keeps_its_server_serving() -> None:
    """The near miss: the pipe stays open while the parent lives, so the server is still listening after a
    while and stops only when asked."""
    with LocalServer("--workers", "1", "--no-code") as server:
        assert server.proc is not None
        time.sleep(1.0)
        assert server.proc.poll() is None, "".join(server.output)
        from verifier.client import VerifierClient

        with VerifierClient(server.target) as client:
            [result] = client.grade([{"id": "m", "kind": "math", "completion": "\\boxed{2}", "gold": "2"}])
        assert result["verdict"] == "correct", result
    assert server.proc.poll() == 0, "".join(server.output)

"""How the server starts a sandbox's process (docs/sandboxes.md "Sandbox backends"): never with a
preexec_fn, whose Python in the child of a fork of the threaded server (gRPC's fork handlers run there
too) crashed or hung children before their exec (issue 34: a fork's gVisor box "BrokenPipeError; runsc
said: nothing"); the parent-death signal set by sandbox/backend.py dies_with_server instead; and a
runsc that ends at start is told by its exit status and its own log, read before its bundle goes."""
from __future__ import annotations

import ast
import os
import subprocess
import threading
from pathlib import Path

import pytest

from sandbox import SandboxConfig
from sandbox.backend import dies_with_server
from sandbox.channel import ChannelError
from sandbox.gvisor import GvisorBackend

ROOT = Path(__file__).resolve().parent.parent
# What runs in the server's process: every module but the harness, which runs inside the sandbox.
SERVER_CODE = [p for d in ("sandbox", "verifier", "trainer") for p in (ROOT / d).rglob("*.py")
               if "harness" not in p.relative_to(ROOT).parts]


def test_no_process_the_server_starts_runs_python_before_its_exec() -> None:
    found = [f"{p.relative_to(ROOT)}:{node.lineno}" for p in SERVER_CODE for node in ast.walk(ast.parse(p.read_text()))
             if isinstance(node, ast.keyword) and node.arg == "preexec_fn"]
    assert SERVER_CODE
    assert not found, found


def test_a_child_gets_sigkill_when_the_thread_that_started_it_ends() -> None:
    started: list[subprocess.Popen] = []

    def start() -> None:  # returns once the child runs the command, after its parent-death signal is set
        proc = subprocess.Popen(dies_with_server(["/bin/sh", "-c", "echo up; exec sleep 60"]), stdout=subprocess.PIPE)
        started.append(proc)
        assert proc.stdout is not None and proc.stdout.readline() == b"up\n"

    t = threading.Thread(target=start)
    t.start()
    t.join()
    assert started[0].wait(timeout=30) == -9


def test_a_child_whose_server_is_gone_before_its_signal_is_set_does_not_run() -> None:
    argv = dies_with_server(["/bin/echo", "ran"])
    argv[argv.index(str(os.getpid()))] = "1"  # as if the server died and it was adopted by PID 1
    r = subprocess.run(argv, capture_output=True, text=True, timeout=30)
    assert r.returncode == 1 and r.stdout == "" and "the server is gone" in r.stderr, r


@pytest.fixture
def runsc_that_fails(tmp_path: Path) -> Path:
    """A stand-in runsc whose `run` writes its log and exits 3, and whose other commands succeed."""
    path = tmp_path / "runsc"
    path.write_text("""#!/bin/sh
for a in "$@"; do case "$a" in --log=*) log=${a#--log=};; run) run=1;; esac; done
[ -n "$run" ] || exit 0
echo "creating container: mount /srv: permission denied" > "$log"
exit 3
""")
    path.chmod(0o755)
    return path


def test_a_runsc_that_ends_at_start_is_told_by_its_status_and_its_log(runsc_that_fails: Path, tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    backend = GvisorBackend(SandboxConfig(backend="gvisor", languages=("python",)))
    backend.runsc, backend.platform = str(runsc_that_fails), "systrap"
    try:
        with pytest.raises(ChannelError) as e:
            backend.start_session("python", str(tmp_path), 256, 64)
        assert "runsc exit 3; runsc said: creating container: mount /srv: permission denied" in str(e.value)
        assert not list((backend.root / "bundles").iterdir())  # removed, once read
    finally:
        backend.close()

"""A `verifier serve` child process on free loopback ports.

For `verifier train --tiny`, the benchmarks and the tests: everything that needs a real server
started for it, and stopped for sure afterwards (its own process group, killed as a whole).
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import deque

READY_LINE = "verifier listening on"
MAX_LOG_LINES = 500
PORT_TAKEN = ("Address already in use", "port taken")  # the server's words for a taken port (verifier/api)
PORT_ATTEMPTS = 3


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


class LocalServer:
    """`verifier serve ARGS` on `host`, with its gRPC, metrics and HTTP ports picked free at creation."""

    # The interpreter (and anything before it, e.g. `setpriv ...` to run as another user) that runs
    # `-m verifier.tools.cli serve`.
    python: tuple[str, ...] = (sys.executable,)

    def __init__(self, *args: str, host: str = "127.0.0.1", port: int | None = None, env: dict | None = None,
                 start_timeout_s: float = 120.0):
        self.host = host
        self.extra_args = args
        self.env = {**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})}
        self.start_timeout_s = start_timeout_s
        self.output: deque[str] = deque(maxlen=MAX_LOG_LINES)  # bounded: a chatty server cannot fill memory
        self.proc: subprocess.Popen | None = None
        for attempt in range(PORT_ATTEMPTS):
            self._pick_ports(port)
            try:
                self.start()
                return
            except RuntimeError:
                # A port found free can be taken by another process before the server binds it; only
                # then, and only for ports picked here, pick again (a clean CI run lost a test to it).
                if not self._picked_port_taken(given=port) or attempt == PORT_ATTEMPTS - 1:
                    raise

    def _pick_ports(self, port: int | None) -> None:
        """Free ports for gRPC (unless given), metrics and HTTP (never the default 8080: servers
        started side by side must not collide)."""
        self.port = port or free_port(self.host)
        self.metrics_port = free_port(self.host)
        self.http_port = free_port(self.host)
        self.args = ["--host", self.host, "--port", str(self.port), "--metrics-host", self.host,
                     "--metrics-port", str(self.metrics_port), "--http-port", str(self.http_port), *self.extra_args]

    def _picked_port_taken(self, given: int | None) -> bool:
        """Whether the server's last words say a port picked here (not one a caller gave) was taken."""
        picked = [p for p in (self.port, self.metrics_port, self.http_port) if p != given]
        return any(m in line and any(f":{p} " in line for p in picked) for line in self.output for m in PORT_TAKEN)

    @property
    def target(self) -> str:
        return f"{self.host}:{self.port}"

    @property
    def metrics_url(self) -> str:
        return f"http://{self.host}:{self.metrics_port}/metrics"

    @property
    def http_url(self) -> str:
        """Base URL of the HTTP/JSON port (http; a test passing --tls-cert uses https itself)."""
        return f"http://{self.host}:{self.http_port}"

    def start(self) -> None:
        """Start (again, on the same ports) and wait until it listens."""
        self.output.clear()
        # Its stdin is a pipe only this process holds, and --stop-on-stdin-eof drains the server when it
        # closes: a parent killed outright (SIGKILL, a crashed bench) takes its server and sandboxes along.
        self.proc = subprocess.Popen([*self.python, "-m", "verifier.tools.cli", "serve", "--stop-on-stdin-eof",
                                      *self.args], env=self.env, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                     start_new_session=True)
        ready = threading.Event()

        def pump(proc: subprocess.Popen) -> None:
            for line in proc.stdout or ():
                self.output.append(line)
                if READY_LINE in line:
                    ready.set()

        threading.Thread(target=pump, args=(self.proc,), daemon=True, name="verifier-server-log").start()
        deadline = time.monotonic() + self.start_timeout_s
        while not ready.wait(0.1):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.kill()
                raise RuntimeError("verifier server did not start:\n" + "".join(self.output))

    def stop(self, sig: int = signal.SIGTERM, timeout_s: float = 60.0) -> int:
        """Signal (SIGTERM drains gracefully) and wait; SIGKILL the whole group if it lingers."""
        if self.proc is None or self.proc.poll() is not None:
            return self.proc.returncode if self.proc else 0
        self.proc.send_signal(sig)
        try:
            return self.proc.wait(timeout_s)
        except subprocess.TimeoutExpired:
            self.kill()
            raise

    def kill(self) -> None:
        """SIGKILL the server and everything it started (forkserver, workers)."""
        if self.proc is None:
            return
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait(10)

    def __enter__(self) -> "LocalServer":
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            self.stop(timeout_s=30)
        finally:
            self.kill()

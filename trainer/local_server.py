"""Start a `verifier serve` subprocess on free loopback ports, for `verifier train --tiny` and the
learning benchmark when no --server is given."""

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
MAX_LOG_LINES = 200


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


class LocalServer:
    """A math-only verifier child process; use as a context manager so it is always stopped."""

    def __init__(self, workers: int = 2, code: bool = False, host: str = "127.0.0.1", start_timeout_s: float = 120.0):
        self.host = host
        self.port = free_port(host)
        self.metrics_port = free_port(host)
        self.output: deque[str] = deque(maxlen=MAX_LOG_LINES)  # bounded: a chatty server cannot fill memory
        args = ["--host", host, "--port", str(self.port), "--metrics-host", host,
                "--metrics-port", str(self.metrics_port), "--workers", str(workers)]
        if not code:
            args.append("--no-code")
        self.proc = subprocess.Popen([sys.executable, "-m", "verifier.cli", "serve", *args],
                                     env={**os.environ, "PYTHONUNBUFFERED": "1"}, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True, start_new_session=True)
        self._wait_ready(start_timeout_s)

    @property
    def target(self) -> str:
        return f"{self.host}:{self.port}"

    @property
    def metrics_url(self) -> str:
        return f"http://{self.host}:{self.metrics_port}/metrics"

    def _wait_ready(self, timeout_s: float) -> None:
        ready = threading.Event()

        def pump() -> None:
            for line in self.proc.stdout:
                self.output.append(line)
                if READY_LINE in line:
                    ready.set()

        threading.Thread(target=pump, daemon=True, name="verifier-server-log").start()
        deadline = time.monotonic() + timeout_s
        while not ready.wait(0.1):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("verifier server did not start:\n" + "".join(self.output))

    def stop(self, timeout_s: float = 30.0) -> None:
        """SIGTERM (graceful drain), then SIGKILL of the whole process group if it lingers."""
        if self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout_s)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def __enter__(self) -> "LocalServer":
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

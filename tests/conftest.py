"""Shared fixtures: real `verifier serve` subprocesses on loopback ports."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


class ServerProcess:
    """A `verifier serve` child process; `target` is what clients dial."""

    def __init__(self, *args: str, host: str = "127.0.0.1", env: dict | None = None, port: int | None = None):
        self.host = host
        self.port = port or free_port(host)
        self.metrics_port = free_port(host)
        self.args = ["--host", host, "--port", str(self.port), "--metrics-port", str(self.metrics_port),
                     "--metrics-host", host, *args]
        self.env = {**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})}
        self.output: list[str] = []
        self.proc: subprocess.Popen | None = None
        self.start()

    @property
    def target(self) -> str:
        return f"{self.host}:{self.port}"

    @property
    def metrics_url(self) -> str:
        return f"http://{self.host}:{self.metrics_port}/metrics"

    def start(self, timeout_s: float = 90.0) -> None:
        self.output = []
        self.proc = subprocess.Popen([sys.executable, "-m", "verifier.cli", "serve", *self.args], cwd=ROOT,
                                     env=self.env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        ready = threading.Event()

        def pump() -> None:
            for line in self.proc.stdout:
                self.output.append(line)
                if "verifier listening on" in line:
                    ready.set()

        threading.Thread(target=pump, daemon=True).start()
        deadline = time.monotonic() + timeout_s
        while not ready.wait(0.1):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.kill()
                raise RuntimeError("server did not start:\n" + "".join(self.output))

    def metric(self, name: str, **labels: str) -> float:
        """Sum of a metric's samples matching the labels (0 when absent)."""
        text = urllib.request.urlopen(self.metrics_url, timeout=5).read().decode()
        total = 0.0
        for line in text.splitlines():
            m = re.match(r"^([a-zA-Z_:][\w:]*)(\{[^}]*\})?\s+(\S+)$", line)
            if not m or m.group(1) != name:
                continue
            got = dict(re.findall(r'(\w+)="([^"]*)"', m.group(2) or ""))
            if all(got.get(k) == v for k, v in labels.items()):
                total += float(m.group(3))
        return total

    def descendants(self) -> list[int]:
        """PIDs of every process below the server (forkserver, math workers, ...)."""
        children: dict[int, list[int]] = {}
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
        out, todo = [], [self.proc.pid]
        while todo:
            for child in children.get(todo.pop(), []):
                out.append(child)
                todo.append(child)
        return out

    def math_workers(self) -> list[int]:
        """Worker processes: the grandchildren forked by the forkserver."""
        direct = set()
        for pid in self.descendants():
            try:
                if int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1]) == self.proc.pid:
                    direct.add(pid)
            except OSError:
                pass
        return [p for p in self.descendants() if p not in direct]

    def stop(self, sig: int = signal.SIGTERM, timeout_s: float = 60.0) -> int:
        if self.proc is None or self.proc.poll() is not None:
            return self.proc.returncode if self.proc else 0
        self.proc.send_signal(sig)
        try:
            return self.proc.wait(timeout_s)
        except subprocess.TimeoutExpired:
            self.kill()
            raise

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            for pid in self.descendants():
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            self.proc.kill()
            self.proc.wait(10)

    def restart(self) -> None:
        self.stop()
        self.start()


@pytest.fixture(scope="session")
def verifier_server() -> Iterator[ServerProcess]:
    """One math-only server for the session (2 workers)."""
    server = ServerProcess("--workers", "2", "--no-code")
    yield server
    server.kill()


@pytest.fixture
def server_factory() -> Iterator:
    """Start servers with custom flags; all are killed at the end of the test."""
    started: list[ServerProcess] = []

    def start(*args: str, **kwargs) -> ServerProcess:
        server = ServerProcess(*args, **kwargs)
        started.append(server)
        return server

    yield start
    for server in started:
        server.kill()

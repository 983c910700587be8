"""Host side of the runner protocol, over a container's attached stdin/stdout socket.

One attach connection per container, held for the container's life: a request costs a socket
round trip (well under a millisecond) instead of a `docker exec` (50-150 ms here). Blocking
calls: run them in a thread, never on the event loop. See sandbox/harness/job_protocol.py for the protocol.
"""
from __future__ import annotations

import json
import socket
import struct
import time


class ChannelError(Exception):
    """The runner did not answer as the protocol says: an infrastructure failure."""


class Channel:
    """Framed request/response over Docker's multiplexed attach stream (stdout frames only)."""

    MAX_HEADER = 1 << 20
    MAX_BLOB = 256 << 20

    def __init__(self, sock) -> None:
        self._sock: socket.socket = getattr(sock, "_sock", sock)
        self._resp = sock  # keep the HTTP response (and so the socket) alive
        self._buf = bytearray()
        self._deadline = 0.0
        self.busy = False  # a request runs: the host's watchdog (sandbox/watchdog.py) looks only then
        self.over = ""  # what the watchdog killed the program for during this request (watchdog.MEMORY, THREADS)

    def request(self, head: dict, blobs: dict[str, bytes] | None = None, timeout_s: float = 30.0
                ) -> tuple[dict, dict[str, bytes]]:
        """Send one message and wait (at most timeout_s) for its answer."""
        self.over, self.busy = "", True
        try:
            return self._request(head, blobs, timeout_s)
        finally:
            self.busy = False

    def _request(self, head: dict, blobs: dict[str, bytes] | None, timeout_s: float) -> tuple[dict, dict[str, bytes]]:
        self._deadline = time.monotonic() + timeout_s
        blobs = blobs or {}
        head = dict(head, blobs=[[k, len(v)] for k, v in blobs.items()])
        data = [json.dumps(head, separators=(",", ":")).encode() + b"\n", *blobs.values()]
        try:
            self._sock.settimeout(timeout_s)
            for part in data:
                self._sock.sendall(part)
            return self._read_reply()
        except (OSError, ValueError) as e:
            raise ChannelError(f"runner channel: {type(e).__name__}: {e}") from e

    def _read_reply(self) -> tuple[dict, dict[str, bytes]]:
        """The request's answer (watchdog.WatchedChannel also answers the runner's asks meanwhile)."""
        return self._read_message()

    def _send_line(self, head: dict) -> None:
        """One header-only message to the runner (an answer to its ask during a request)."""
        self._sock.sendall(json.dumps(head, separators=(",", ":")).encode() + b"\n")

    def close(self) -> None:
        try:
            self._sock.close()
        except OSError:
            pass

    # -- reading: strip Docker's 8-byte frame headers into a plain byte buffer
    def _fill(self) -> None:
        left = self._deadline - time.monotonic()
        if left <= 0:
            raise ChannelError("runner did not answer in time")
        self._sock.settimeout(left)
        hdr = self._recv_exact(8)
        _stream, size = struct.unpack(">BxxxL", hdr)
        self._buf += self._recv_exact(size)

    def _recv_exact(self, n: int) -> bytes:
        chunks = bytearray()
        while len(chunks) < n:
            try:
                got = self._sock.recv(min(n - len(chunks), 1 << 20))
            except socket.timeout as e:
                raise ChannelError("runner did not answer in time") from e
            if not got:
                raise ChannelError("runner channel closed (container gone?)")
            chunks += got
        return bytes(chunks)

    def _take(self, n: int) -> bytes:
        while len(self._buf) < n:
            self._fill()
        out = bytes(self._buf[:n])
        del self._buf[:n]
        return out

    def _read_message(self) -> tuple[dict, dict[str, bytes]]:
        while b"\n" not in self._buf:
            if len(self._buf) > self.MAX_HEADER:
                raise ChannelError("runner header too long")
            self._fill()
        i = self._buf.index(b"\n")
        line = bytes(self._buf[:i])
        del self._buf[:i + 1]
        head = json.loads(line)
        if not isinstance(head, dict):
            raise ChannelError("runner header is not an object")
        blobs = {}
        for name, n in head.get("blobs", []):
            if not 0 <= int(n) <= self.MAX_BLOB:
                raise ChannelError("runner blob too large")
            blobs[str(name)] = self._take(int(n))
        return head, blobs

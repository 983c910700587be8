"""The host channel's framing, PID 1's side (sandbox/channel.py is the host's): every message is one
JSON header line, followed by the raw bytes of the blobs the header names in "blobs" ([name, length]
pairs, in order). Raw blobs avoid base64 for multi-megabyte outputs. Read EAGAIN-safe (Inbox).
Standard library only."""
from __future__ import annotations

import json
import os
import select
import time


class Inbox:
    """The host's channel (fd 0), read with our own buffer. A read that meets EAGAIN waits for the
    fd and reads again: gVisor can answer a blocking read of the host socket it was handed with
    EAGAIN (measured under runsc --strace while another sandbox was killed as this one started),
    which a buffered reader takes for the end of the channel: the runner exited and its sandbox
    was lost mid-job, an infra_error the program did not cause. `stalls` counts such reads; the
    reset then asks for the box to be replaced."""

    def __init__(self, fd: int = 0) -> None:
        self.fd = fd
        self.buf = bytearray()
        self.stalls = 0

    def _more(self) -> bool:
        """Append what the channel has (waiting for it); False at its end."""
        while True:
            try:
                got = os.read(self.fd, 1 << 20)
            except BlockingIOError:
                self.stalls += 1
                select.select([self.fd], [], [], 0.05)
                time.sleep(0.001)  # where the fd polls ready while its read still says EAGAIN
                continue
            if not got:
                return False
            self.buf += got
            return True

    def readline(self) -> bytes:
        while (end := self.buf.find(b"\n")) < 0:
            if not self._more():
                return b""
        line = bytes(self.buf[:end + 1])
        del self.buf[:end + 1]
        return line

    def read(self, n: int) -> bytes:
        while len(self.buf) < n and self._more():
            pass
        data = bytes(self.buf[:n])
        del self.buf[:n]
        return data


INBOX = Inbox(0)


def read_message(stream) -> tuple[dict, dict[str, bytes]] | None:
    line = stream.readline()
    if not line:
        return None
    head = json.loads(line)
    blobs = {}
    for name, n in head.get("blobs", []):
        data = stream.read(n) if n else b""
        if len(data) != n:
            return None
        blobs[name] = data
    return head, blobs


def write_message(stream, head: dict, blobs: dict[str, bytes] | None = None) -> None:
    blobs = blobs or {}
    head = dict(head, blobs=[[k, len(v)] for k, v in blobs.items()])
    write_all(stream, json.dumps(head, separators=(",", ":")).encode() + b"\n")
    for v in blobs.values():
        write_all(stream, v)
    flush_all(stream)


def flush_all(stream) -> None:
    """Flush a BufferedWriter whose channel is non-blocking: EAGAIN keeps the rest buffered; wait and retry."""
    while True:
        try:
            stream.flush()
            return
        except BlockingIOError:
            select.select([], [stream.fileno()], [], 0.05)


def write_all(stream, data: bytes) -> None:
    """Write every byte: under `python3 -u` stdout is a raw FileIO whose write() may be partial
    (gVisor returns a pipe's or socket's capacity; the rest would be lost and the host wait forever)."""
    view = memoryview(data)
    while view:
        try:
            n = stream.write(view)
        except BlockingIOError as e:  # EAGAIN on the host channel (Inbox): wait until it takes bytes. A
            # BufferedWriter (session_box.py's stdout) has taken characters_written of them first: writing
            # those again duplicated them (a session's 1 MiB reply corrupted under gVisor, tests/test_session_env.py)
            taken = getattr(e, "characters_written", 0) or 0
            view = view[taken:]
            n = None
        if not n:  # backpressure (a reply of MBs fills the host socket), never a stall: counted, a program
            select.select([], [stream.fileno()], [], 0.05)  # printing MBs had its box replaced every job
            continue
        view = view[n:]

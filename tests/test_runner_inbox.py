"""The runner's reading of the host channel (sandbox/harness/framing.py Inbox): EAGAIN is not the end.

gVisor can answer a blocking read of the host socket it hands the runner with EAGAIN (seen under
`runsc --strace` while another sandbox was killed as this one started). Python's buffered reader
takes that for the end of the channel, so the runner exited and its sandbox was lost mid-job: an
infra_error no program caused. A non-blocking pipe gives the same EAGAIN deterministically."""
from __future__ import annotations

import io
import json
import os
import sys
import threading
import time

from sandbox.build import HARNESS

sys.path.insert(0, str(HARNESS))
import framing  # noqa: E402


def _late_writer(fd: int, chunks: list[bytes]) -> threading.Thread:
    def go() -> None:
        for c in chunks:
            time.sleep(0.05)
            os.write(fd, c)
        os.close(fd)
    t = threading.Thread(target=go)
    t.start()
    return t


def _nonblocking_pipe() -> tuple[int, int]:
    r, w = os.pipe()
    os.set_blocking(r, False)
    return r, w


def test_a_message_that_arrives_after_eagain_is_read_whole():
    r, w = _nonblocking_pipe()
    head = json.dumps({"op": "files", "blobs": [["a", 5]]}).encode() + b"\n"
    t = _late_writer(w, [head[:7], head[7:], b"hel", b"lo"])
    inbox = framing.Inbox(r)
    try:
        assert framing.read_message(inbox) == ({"op": "files", "blobs": [["a", 5]]}, {"a": b"hello"})
        assert inbox.stalls > 0  # it met EAGAIN and waited
        assert framing.read_message(inbox) is None  # the writer closed: the real end
    finally:
        t.join()
        os.close(r)


def test_the_buffered_reader_took_eagain_for_the_end():
    """Near miss: what the runner read with before; the same pipe looks closed to it."""
    r, w = _nonblocking_pipe()
    t = _late_writer(w, [b'{"op":"ping","blobs":[]}\n'])
    try:
        assert framing.read_message(io.BufferedReader(io.FileIO(r, closefd=False))) is None
    finally:
        t.join()
        os.close(r)


def test_a_reply_written_into_a_full_channel_arrives_whole():
    r, w = os.pipe()
    os.set_blocking(w, False)
    out = io.FileIO(w, "wb")
    data = os.urandom(1 << 20)  # more than a pipe holds: the write meets EAGAIN
    got = bytearray()

    def read_later() -> None:  # the pipe fills first: the writer meets EAGAIN
        time.sleep(0.1)
        for b in iter(lambda: os.read(r, 1 << 16), b""):
            got.extend(b)
    reader = threading.Thread(target=read_later)
    reader.start()
    try:
        before = framing.INBOX.stalls
        framing.write_message(out, {"ok": True}, {"x": data})
        out.close()
        reader.join()
        line, _, rest = bytes(got).partition(b"\n")
        assert json.loads(line) == {"ok": True, "blobs": [["x", len(data)]]} and rest == data
        assert framing.INBOX.stalls == before  # backpressure, not a stalled channel: the box stays (framing.write_all)
    finally:
        os.close(r)


def test_a_buffered_writer_on_a_full_nonblocking_channel_writes_each_byte_once():
    """A session's PID 1 writes replies through sys.stdout.buffer, a BufferedWriter, on the host socket
    the Inbox made non-blocking (under gVisor stdin and stdout are one socket). On EAGAIN the writer
    has taken `characters_written` bytes: write_all must not send those again (a 1 MiB snapshot
    listing came back corrupted under gVisor; tests/test_session_env.py)."""
    import socket
    a, b = socket.socketpair()
    a.setblocking(False)
    out = io.BufferedWriter(io.FileIO(a.fileno(), "w", closefd=False), buffer_size=1 << 13)
    data = bytes(range(256)) * (16 << 10)  # 4 MiB, far over the socket's buffer

    def write() -> None:
        framing.write_all(out, data)
        framing.flush_all(out)
        a.shutdown(socket.SHUT_WR)
    t = threading.Thread(target=write, daemon=True)
    t.start()
    got = bytearray()
    while len(got) <= len(data) and (chunk := b.recv(1 << 16)):  # a slow host: the channel fills, EAGAIN
        got.extend(chunk)
        time.sleep(0.0005)
    b.close()
    t.join(timeout=60)
    a.close()
    assert len(got) == len(data) and bytes(got) == data

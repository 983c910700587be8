"""A cell's result channel as the session's PID 1 reads it (sandbox/harness/session_box.py ResultLine): the first line
carrying the cell's nonce is its result, at most one result's most is read for a cell (session_kernel.line_max), and
past it, or where the nonce's line is no result, the cell is its own error (red team rt30ad,
tests/test_redteam_backends_11.py). Pure: chunks are fed as the channel would give them, no container."""
from __future__ import annotations

import json
import sys

from sandbox.build import HARNESS

sys.path.insert(0, str(HARNESS))
import accounting  # noqa: E402
import session_box  # noqa: E402
import session_kernel  # noqa: E402

NONCE = "ab" * 16


def reader(value_max: int = 64) -> session_box.ResultLine:
    return session_box.ResultLine(NONCE, session_kernel.line_max(value_max), accounting.SandboxClock(set()))


def result(value: str) -> bytes:
    return json.dumps({"ok": True, "value": value, "value_truncated": False, "nonce": NONCE}).encode() + b"\n"


def feed(r: session_box.ResultLine, data: bytes, step: int) -> list:
    return [got for i in range(0, len(data), step) if (got := r.add(data[i:i + step])) is not None or r.wrong]


def test_the_nonce_line_is_the_result_whatever_the_chunks_and_the_junk_before_it():
    """Lines without the nonce (junk, a stale or forged result) are dropped; the nonce split across chunks is found."""
    stale = json.dumps({"ok": True, "value": "'forged'", "nonce": "cd" * 16}).encode() + b"\n"
    data = b"x\n{}\n" * 50 + stale + b"no end " * 3 + b"\n" + result("'done'")
    for step in (1, 7, 33, len(data)):
        r = reader()
        got = feed(r, data, step)
        assert got == [json.loads(result("'done'"))] and not r.wrong, step


def test_the_most_astral_value_fits_one_result():
    """Rewrite: a value of value_max astral characters (12 bytes of JSON each) and the longest error fit the cap."""
    r = reader(1000)
    big = chr(0x1F600) * 1000
    line = json.dumps({"ok": False, "value": big, "error": {k: big * 16 for k in ("ename", "evalue", "traceback")},
                       "value_truncated": True, "nonce": NONCE}).encode() + b"\n"
    assert r.add(line) == json.loads(line) and not r.wrong


def test_a_flood_past_the_cap_is_the_cells_own_error():
    """Near miss: junk lines, or one endless line, past one result's most: `wrong`, no result, read no further."""
    for junk in (b"x" * 7 + b"\n", b"x" * 8):
        r = reader()
        got = None
        while not r.wrong:
            got = r.add(junk * 8192)
        assert got is None and "result channel" in r.wrong
        assert r.got.total <= r.got.cap + len(junk) * 8192 and len(r.got.data) <= r.got.cap


def test_a_nonce_line_that_is_no_result_is_the_cells_own_error():
    """Near miss: the nonce's line must be the interpreter's result; anything else there ends the cell, never skipped
    to parse the next line (each parse is the runner's work)."""
    for line in (NONCE.encode() + b"\n", b'{"nonce": "' + NONCE.encode() + b'x"}\n', b"[1, \"" + NONCE.encode() + b"\"]\n"):
        r = reader()
        assert r.add(line + result("'done'")) is None and "no result" in r.wrong, line


def test_a_capture_keeps_its_head_and_tail_and_counts_the_rest():
    """accounting.Capture, one home for every stream PID 1 reads past what it keeps (a job's stderr: head and tail)."""
    data = bytes(range(256)) * 40
    for step in (1, 100, 999, len(data)):
        cap = accounting.Capture(1000, accounting.SandboxClock(set()), tail=1000)
        for i in range(0, len(data), step):
            cap.add(data[i:i + step])
        assert (bytes(cap.data), cap.tail, cap.total, cap.dropped()) == (data[:1000], data[-1000:], len(data),
                                                                         len(data) - 2000), step
        assert cap.clock is not None and cap.clock.own_max is not None  # read past what is kept: charged
    small = accounting.Capture(1000, accounting.SandboxClock(set()), tail=1000)
    small.add(data[:1500])
    assert (bytes(small.data), small.tail, small.dropped(), small.clock.own_max) == (data[:1000], data[1000:1500], 0, None)

"""Plain data between the judge and the program's process (both sides; standard library only).

The judge (sandbox/harness/judge.py) runs the task's tests; the program runs in another process and
answers calls. Only plain data crosses: None, bool, int, float, complex, str, bytes, list, tuple,
dict, set, frozenset, nested, at most MAX_DEPTH deep and MAX_VALUES values, in frames of at most
MAX_FRAME bytes. The judge decodes into exact builtin types, so no method of the program's ever
runs on the judge's side: an object whose __eq__ is always True cannot cross. See README.md
("How assert-style tests are judged").
"""
from __future__ import annotations

import json
import os
import struct

MAX_DEPTH = 100
MAX_VALUES = 1_000_000
MAX_FRAME = 64 << 20

NOT_PLAIN = "not plain data"
SEQS = (("l", list, list.__iter__), ("t", tuple, tuple.__iter__), ("S", set, set.__iter__),
        ("F", frozenset, frozenset.__iter__))
BUILD = {"l": list, "t": tuple, "S": set, "F": frozenset}


class WireError(BaseException):
    """A frame or a value outside the protocol: the program's side broke it (or its process
    ended). A BaseException, so a test's `except Exception:` cannot take it for the program's
    own exception."""


def encode(x: object, depth: int = 0, left: list[int] | None = None) -> list:
    """x as tagged JSON-ready lists. Subclasses of int, float, str, bytes, list, tuple, set,
    frozenset and dict are read from the builtin storage (int.__int__, list.__iter__, dict.items),
    so Counter, namedtuple or IntEnum cross as their content and none of their methods runs.
    Raises TypeError for anything else."""
    left = [MAX_VALUES] if left is None else left
    left[0] -= 1
    if left[0] < 0 or depth > MAX_DEPTH:
        raise TypeError(f"{NOT_PLAIN}: deeper than {MAX_DEPTH} or more than {MAX_VALUES} values")
    t = type(x)
    if x is None:
        return ["N"]
    if t is bool:
        return ["b", 1 if x else 0]
    if issubclass(t, int):
        return ["i", format(int.__int__(x), "x")]  # hex: no limit on digits, linear
    if issubclass(t, float):
        return ["f", float.__repr__(float.__float__(x))]
    if t is complex:
        return ["c", float.__repr__(x.real), float.__repr__(x.imag)]
    if issubclass(t, str):
        return ["s", str.__str__(x)]
    if issubclass(t, bytes):
        return ["y", bytes.hex(bytes(x))]
    for tag, base, raw_iter in SEQS:
        if issubclass(t, base):
            return [tag, [encode(e, depth + 1, left) for e in raw_iter(x)]]
    if issubclass(t, dict):
        return ["d", [[encode(k, depth + 1, left), encode(v, depth + 1, left)] for k, v in dict.items(x)]]
    raise TypeError(f"{NOT_PLAIN}: {t.__module__}.{t.__qualname__}")


def decode(v: object, depth: int = 0, left: list[int] | None = None) -> object:
    """The value a tagged list stands for, built from exact builtin types only."""
    left = [MAX_VALUES] if left is None else left
    left[0] -= 1
    if left[0] < 0 or depth > MAX_DEPTH or type(v) is not list or not v or type(v[0]) is not str:
        raise WireError("malformed value")
    tag = v[0]
    try:
        if tag == "N":
            return None
        if tag == "b":
            return v[1] == 1
        if tag == "i":
            return int(_text(v[1]), 16)
        if tag == "f":
            return float(_text(v[1]))
        if tag == "c":
            return complex(float(_text(v[1])), float(_text(v[2])))
        if tag == "s":
            return _text(v[1])
        if tag == "y":
            return bytes.fromhex(_text(v[1]))
        if tag in BUILD:
            return BUILD[tag](decode(e, depth + 1, left) for e in _items(v[1]))
        if tag == "d":
            out = {}
            for kv in _items(v[1]):
                if type(kv) is not list or len(kv) != 2:
                    raise WireError("malformed dict item")
                out[decode(kv[0], depth + 1, left)] = decode(kv[1], depth + 1, left)
            return out
    except (ValueError, TypeError, IndexError, OverflowError) as e:  # unhashable keys, bad numbers
        raise WireError(f"malformed value: {type(e).__name__}") from None
    raise WireError(f"unknown tag {tag!r}")


def _text(s: object) -> str:
    if type(s) is not str:
        raise WireError("malformed value")
    return s


def _items(v: object) -> list:
    if type(v) is not list:
        raise WireError("malformed value")
    return v


def send(fd: int, message: dict) -> None:
    """One frame: 4-byte big-endian length, then JSON."""
    data = json.dumps(message, separators=(",", ":")).encode()
    if len(data) > MAX_FRAME:
        raise TypeError(f"{NOT_PLAIN}: a value over {MAX_FRAME} bytes")
    data = struct.pack(">I", len(data)) + data
    while data:
        data = data[os.write(fd, data):]


def recv(fd: int) -> dict:
    """One frame from fd; WireError on EOF, an oversized frame or bad JSON."""
    (n,) = struct.unpack(">I", _read(fd, 4))
    if n > MAX_FRAME:
        raise WireError("frame over the size limit")
    try:
        message = json.loads(_read(fd, n))
    except (ValueError, RecursionError) as e:
        raise WireError(f"bad frame: {type(e).__name__}") from None
    if type(message) is not dict:
        raise WireError("bad frame")
    return message


def _read(fd: int, n: int) -> bytes:
    chunks, got = [], 0
    while got < n:
        chunk = os.read(fd, min(n - got, 1 << 20))
        if not chunk:
            raise WireError("the program's process ended")
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)

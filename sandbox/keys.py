"""The one home of reuse keys: every key under which work is reused (identical programs of a call run
once, the math verdict caches, parked HTTP answers, stashed test sets, compiled checkers, a trainer's
shared batch) is `reuse_key` of the fields that can change the answer.

DESIGN's rule (docs/service.md "Reuse keys"): a key that reuses work is exact bytes, a canonical and
typed serialization, never Python `==` or `hash`. `1 == True == 1.0`, `0.0 == -0.0` and dicts equal
in any order, yet a program called with `True` can answer otherwise than with `1` (its
`type(x).__name__`), so a key built on equality hands one task another's verdict. Here every value
is written with its type and its exact contents:

- None, bool, int, float, str, bytes, list, tuple and dict are distinct types: `True` is not `1`,
  `1` is not `1.0`, a tuple is not a list, text is not bytes;
- a float is its IEEE-754 bits: `-0.0` is not `0.0`, and a NaN matches only a bit-identical NaN;
- text is its UTF-8 code units as given (surrogates kept): NFC is not NFD, a trailing space counts;
- a dict keeps the order it was given in (a program can see the order);
- a dataclass instance is its type's name and its fields in order; an object may stand for itself
  by a `__reuse_key__()` method returning a value of these kinds (sandbox/job.py EncodedTests: the
  digests of its tests, hashed once per server);
- anything else is refused (TypeError): only what is known to be written exactly is admitted.

Every item is tagged and every string, bytes and container length-prefixed, so no two different
values write the same bytes. The bytes are hashed (SHA-256): the caches hold 32 bytes per entry,
however large the golds, tests or request bodies. Standard library only: every layer may import it.
"""
from __future__ import annotations

import dataclasses
import hashlib
import struct
from typing import Any

_pack = struct.Struct(">Q").pack  # every length: 8 bytes, big-endian
_pack_float = struct.Struct(">d").pack


def canonical(value: Any) -> bytes:
    """The canonical typed bytes of `value` (the module docstring's rules); TypeError for a type
    that has no exact form here."""
    out: list[bytes] = []
    _write(value, out)
    return b"".join(out)


def reuse_key(*parts: Any) -> bytes:
    """SHA-256 (32 bytes) of the canonical bytes of `parts` (the tuple): the key every reuse is looked
    up by. Begin the parts with a name of the cache ("math", "code-run", ...) so two caches never share."""
    out = [b"t" + _pack(len(parts))]
    for value in parts:  # _write(parts, out), with the usual top-level str inline (a math item's key: 6 parts)
        if type(value) is str:
            data = value.encode("utf-8", "surrogatepass")
            out.append(b"s" + _pack(len(data)))
            out.append(data)
        else:
            _write(value, out)
    return hashlib.sha256(b"".join(out)).digest()


def _write(value: Any, out: list[bytes]) -> None:
    """Append the tagged bytes of `value` to `out` (one branch per exact type: the hot path of every
    GRPO job's share key, sandbox/job.py Plan.share_key)."""
    t = type(value)
    if t is str:
        data = value.encode("utf-8", "surrogatepass")
        out.append(b"s" + _pack(len(data)))
        out.append(data)
    elif value is None:
        out.append(b"N")
    elif t is bool:
        out.append(b"T" if value else b"F")
    elif t is int:
        data = value.to_bytes(value.bit_length() // 8 + 1, "big", signed=True)  # any size: no str() digit limit
        out.append(b"i" + _pack(len(data)) + data)
    elif t is float:
        out.append(b"f" + _pack_float(value))  # the bits: -0.0 and each NaN payload are their own
    elif t is tuple or t is list:
        out.append((b"t" if t is tuple else b"l") + _pack(len(value)))
        for item in value:
            _write(item, out)
    elif isinstance(value, bytes):  # a subclass (sandbox/job.py Held) is its bytes: the buffer is exact
        out.append(b"b" + _pack(len(value)))
        out.append(value)
    elif isinstance(value, dict):  # OrderedDict, defaultdict too: the order given (a program can see it)
        out.append(b"d" + _pack(len(value)))
        for k, v in value.items():
            _write(k, out)
            _write(v, out)
    elif hasattr(t, "__reuse_key__"):
        out.append(b"o" + _text(_type_name(value)))
        _write(value.__reuse_key__(), out)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        out.append(b"D" + _text(_type_name(value)) + _pack(len(dataclasses.fields(value))))
        for f in dataclasses.fields(value):
            out.append(_text(f.name))
            _write(getattr(value, f.name), out)
    else:
        raise TypeError(f"no exact reuse-key form for a {t.__qualname__} (sandbox/keys.py)")


def _type_name(value: Any) -> str:
    return f"{type(value).__module__}.{type(value).__qualname__}"


def _text(s: str) -> bytes:
    data = s.encode("utf-8", "surrogatepass")
    return _pack(len(data)) + data

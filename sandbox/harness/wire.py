"""Plain data between the judge and the program's process (both sides).

The judge (sandbox/harness/judge.py) runs the task's tests; the program runs in another process and
answers calls. Only data crosses: None, bool, int, float, complex, str, bytes, list, tuple, dict,
set, frozenset, Counter, OrderedDict, defaultdict (of a builtin factory), deque, array.array, Decimal, Fraction, datetime,
date, time, timedelta, and (wire_rich.py) numpy arrays and scalars and pandas DataFrame, Series, Index,
Timestamp; nested, at most MAX_DEPTH deep and MAX_VALUES values, in frames of at most MAX_FRAME
bytes. The decoder builds exact builtin, standard-library, numpy or pandas types from tagged JSON
(never pickle; nothing in a frame is run), so no method of the program's ever runs on the judge's
side: an object whose __eq__ is always True cannot cross. Anything else gets "cannot cross the
judge boundary: <type>". One way only, from the tests to the program: an instance of a class the
tests define (MBPP's setup code builds tree nodes) crosses as its class name and attributes, and the
program's process rebuilds it as its own class of that name or a SimpleNamespace (the judge never
decodes one). Standard library only at import: numpy and pandas are imported (wire_rich.py)
only when such a value crosses. See docs/sandboxes.md "How assert-style tests are judged".
"""
from __future__ import annotations

import array
import base64
import collections
import datetime
import decimal
import fractions
import json
import os
import struct
import sys

TYPE_CHECKING = False  # typing is not imported at run time: this module loads in the program's process too
if TYPE_CHECKING:
    from typing import Any

MAX_DEPTH = 100
MAX_VALUES = 1_000_000
MAX_FRAME = 64 << 20
# A Fraction's parts: building one takes their gcd, quadratic in their size and one uninterruptible
# C call (2**20 bits: seconds). Red-team finding: a crafted fraction held the judge for hours.
MAX_FRACTION_BITS = 1 << 18

NOT_PLAIN = "cannot cross the judge boundary"
SEQS = (("l", list, list.__iter__), ("t", tuple, tuple.__iter__), ("S", set, set.__iter__),
        ("F", frozenset, frozenset.__iter__))
BUILD = {"l": list, "t": tuple, "S": set, "F": frozenset}
# defaultdict factories that cross (by name): a program's lambda would have to run in the judge
FACTORIES: dict[str | None, type] = {f.__name__: f for f in (int, float, str, list, dict, set, tuple, bool)}  # looked up by a name or None
ARRAY_CODES = frozenset("bBuhHiIlLqQfd")  # array.array's typecodes
# Set by the judge (judge.py): modules whose classes are the tests' own, so their instances may
# cross to the program by attributes. Empty in the program's process: its objects never cross.
TEST_MODULES: frozenset[str] = frozenset()
# Set by the program's side (serve.py) to its globals: where a test object's class is looked up.
# None in the judge, which therefore refuses every "obj" value.
CLASSES: dict | None = None
RICH_TAGS = frozenset("a ao n P R D ts tdp nat na".split())  # decoded by wire_rich.py (numpy, pandas)


class WireError(BaseException):
    """A frame or a value outside the protocol: the program's side broke it (or its process
    ended). A BaseException, so a test's `except Exception:` cannot take it for the program's
    own exception."""


def encode(x: Any, depth: int = 0, left: list[int] | None = None) -> list:  # noqa: C901 - the allowlist of what crosses the judge boundary, audited in one place
    """x as tagged JSON-ready lists. Subclasses of int, float, str, bytes, list, tuple, set,
    frozenset and dict are read from the builtin storage (int.__int__, list.__iter__, dict.items),
    so Counter, namedtuple or IntEnum cross as their content and none of their methods runs.
    Raises TypeError for anything else. (x is Any to mypy: the branches test type(x) with issubclass,
    never isinstance, which a program's class can fake through __class__; mypy does not narrow x from that.)"""
    left = [MAX_VALUES] if left is None else left
    left[0] -= 1
    if left[0] < 0 or depth > MAX_DEPTH:
        raise TypeError(f"{NOT_PLAIN}: deeper than {MAX_DEPTH} or more than {MAX_VALUES} values")
    t = type(x)
    if x is None:
        return ["N"]
    if t.__module__.partition(".")[0] in ("numpy", "pandas") and "numpy" in sys.modules:
        return rich().encode(x, depth, left)  # the program (or the tests) hold numpy values: numpy is loaded already
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
        items = [[encode(k, depth + 1, left), encode(v, depth + 1, left)] for k, v in dict.items(x)]
        if issubclass(t, collections.Counter):
            return ["ctr", items]
        if issubclass(t, collections.OrderedDict):
            return ["od", items]
        if issubclass(t, collections.defaultdict):
            f = x.default_factory
            if f is not None and FACTORIES.get(getattr(f, "__name__", None)) is not f:
                raise TypeError(f"{NOT_PLAIN}: defaultdict with factory {type_name(f)}")
            return ["dd", None if f is None else f.__name__, items]
        return ["d", items]
    if issubclass(t, collections.deque):
        return ["dq", x.maxlen, [encode(e, depth + 1, left) for e in collections.deque.__iter__(x)]]
    if issubclass(t, array.array):
        return ["arr", x.typecode, base64.b64encode(array.array.tobytes(x)).decode("ascii")]
    if issubclass(t, fractions.Fraction):
        if max(int.bit_length(x.numerator), int.bit_length(x.denominator)) > MAX_FRACTION_BITS:
            raise TypeError(f"{NOT_PLAIN}: a Fraction with parts over {MAX_FRACTION_BITS} bits")
        return ["frac", format(int.__int__(x.numerator), "x"), format(int.__int__(x.denominator), "x")]
    if issubclass(t, decimal.Decimal):
        return ["dec", decimal.Decimal.__str__(x)]
    if issubclass(t, datetime.datetime):
        d = x
        return ["dt", [d.year, d.month, d.day, d.hour, d.minute, d.second, d.microsecond], d.fold, tz(d.tzinfo)]
    if issubclass(t, datetime.date):
        return ["date", [x.year, x.month, x.day]]
    if issubclass(t, datetime.time):
        return ["time", [x.hour, x.minute, x.second, x.microsecond], x.fold, tz(x.tzinfo)]
    if issubclass(t, datetime.timedelta):
        return ["td", [x.days, x.seconds, x.microseconds]]
    if t.__module__ in TEST_MODULES and type(getattr(x, "__dict__", None)) is dict:
        return ["obj", t.__name__, [[encode(k, depth + 1, left), encode(v, depth + 1, left)] for k, v in vars(x).items()]]
    raise TypeError(f"{NOT_PLAIN}: {type_name(x)}")


def test_object(name: object, attrs: dict) -> object:
    """A tests' object in the program's process: an instance of the program's class of that name
    (made without running its __init__), else a SimpleNamespace with the same attributes."""
    import types
    if CLASSES is None:
        raise WireError("objects cross only from the tests to the program")
    cls = CLASSES.get(name) if type(name) is str else None
    obj = object.__new__(cls) if isinstance(cls, type) and cls.__new__ is object.__new__ else types.SimpleNamespace()
    if any(type(k) is not str for k in attrs):
        raise WireError("malformed object")
    obj.__dict__.update(attrs)
    return obj


def type_name(x: object) -> str:
    t = type(x)
    return f"{t.__module__}.{t.__qualname__}"


def tz(z: object) -> list | None:
    """A time zone as data: a fixed offset in seconds, or an IANA key (zoneinfo, pytz); the
    judge rebuilds it (tz_of) from the standard library."""
    if z is None:
        return None
    key = getattr(z, "key", None) or getattr(z, "zone", None)  # zoneinfo.ZoneInfo, pytz
    if type(key) is str:
        return ["zone", key]
    if type(z) is datetime.timezone:
        off = z.utcoffset(None)
        return ["off", off.days * 86400 + off.seconds]
    raise TypeError(f"{NOT_PLAIN}: time zone {type_name(z)}")


def tz_of(v: object) -> datetime.tzinfo | None:
    """The time zone `tz` encoded: timezone or zoneinfo.ZoneInfo only."""
    if v is None:
        return None
    if type(v) is not list or len(v) != 2:
        raise WireError("malformed time zone")
    if v[0] == "off" and type(v[1]) is int and abs(v[1]) < 86400:
        return datetime.timezone(datetime.timedelta(seconds=v[1]))
    if v[0] == "zone" and type(v[1]) is str and len(v[1]) <= 64:
        if v[1] == "UTC":
            return datetime.timezone.utc
        import zoneinfo
        try:
            return zoneinfo.ZoneInfo(v[1])  # a key, never a path: ZoneInfo refuses those
        except (ValueError, OSError, zoneinfo.ZoneInfoNotFoundError):
            raise WireError("unknown time zone") from None
    raise WireError("malformed time zone")


def ints(v: object, n: int) -> list[int]:
    """n plain ints (the fields of a date or time)."""
    if type(v) is not list or len(v) != n or any(type(i) is not int for i in v):
        raise WireError("malformed value")
    return v


def decode(v: object, depth: int = 0, left: list[int] | None = None) -> object:  # noqa: C901 - the allowlist of what crosses the judge boundary, audited in one place
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
        if tag in ("d", "ctr", "od", "dd"):
            out: dict[object, object]
            if tag == "dd":
                if v[1] is not None and v[1] not in FACTORIES:
                    raise WireError("malformed defaultdict")
                out = collections.defaultdict(FACTORIES.get(v[1]))
            else:
                out = {"d": dict, "ctr": collections.Counter, "od": collections.OrderedDict}[tag]()
            for kv in _items(v[-1]):
                if type(kv) is not list or len(kv) != 2:
                    raise WireError("malformed dict item")
                out[decode(kv[0], depth + 1, left)] = decode(kv[1], depth + 1, left)
            return out
        if tag == "dq":
            if v[1] is not None and type(v[1]) is not int:
                raise WireError("malformed deque")
            return collections.deque((decode(e, depth + 1, left) for e in _items(v[2])), v[1])
        if tag == "obj":
            attrs = decode(["d", v[2]], depth, left)
            return test_object(v[1], attrs)  # type: ignore[arg-type]  # a "d" list decodes to a dict
        if tag == "arr":
            if v[1] not in ARRAY_CODES:
                raise WireError("malformed array.array")
            arr = array.array(v[1])
            arr.frombytes(base64.b64decode(_text(v[2]), validate=True))  # ValueError: not whole items
            return arr
        if tag == "frac":
            if max(len(_text(v[1]).lstrip("-")), len(_text(v[2]).lstrip("-"))) > MAX_FRACTION_BITS // 4:
                raise WireError("malformed value: a Fraction's parts over the size limit")
            return fractions.Fraction(int(_text(v[1]), 16), int(_text(v[2]), 16))
        if tag == "dec":
            return decimal.Decimal(_text(v[1]))
        if tag == "dt":
            return datetime.datetime(*ints(v[1], 7), tzinfo=tz_of(v[3]), fold=v[2])  # type: ignore[misc, arg-type]  # 7 ints: mypy cannot count a list
        if tag == "date":
            return datetime.date(*ints(v[1], 3))
        if tag == "time":
            return datetime.time(*ints(v[1], 4), tzinfo=tz_of(v[3]), fold=v[2])  # type: ignore[misc, arg-type]  # 4 ints: mypy cannot count a list
        if tag == "td":
            return datetime.timedelta(*ints(v[1], 3))
        if tag in RICH_TAGS:
            return rich_decode(v, depth, left)
    except (ValueError, TypeError, IndexError, OverflowError, ZeroDivisionError, decimal.InvalidOperation) as e:  # unhashable keys, bad numbers
        raise WireError(f"malformed value: {type(e).__name__}") from None
    raise WireError(f"unknown tag {tag!r}")


def rich():
    """wire_rich.py (numpy and pandas values), plugged into this codec: it calls back into this
    module for nested values and imports nothing of it."""
    import wire_rich
    wire_rich.wire = sys.modules[__name__]
    return wire_rich


def rich_decode(v: list, depth: int, left: list[int]) -> object:
    """numpy / pandas values (wire_rich.py), imported only when one crosses. Whatever numpy or
    pandas raise on a crafted payload is a malformed value, never the judge's own error."""
    try:
        return rich().decode(v, depth, left)
    except WireError:
        raise
    except Exception as e:  # noqa: BLE001 - numpy's and pandas' checks of a payload they refused
        raise WireError(f"malformed value: {type(e).__name__}") from None


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

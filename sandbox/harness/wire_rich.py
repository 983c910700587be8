"""numpy and pandas values on the judge's wire (wire.py): imported only when such a value crosses.

Arrays cross as their raw bytes (base64) with a dtype string matched against DTYPE before numpy
sees it, and a shape whose element count times the item size must equal the byte count: no
pickle, no object or structured dtype, nothing allocated beyond the frame's own bytes (a range
index is bounded by MAX_ROWS). An object-dtype array (pandas' string columns) crosses element by
element as plain wire values. pandas values cross as their parts (index, columns, each column's
values and dtype: categorical, tz-aware datetimes and the nullable dtypes in EXT included) and
are rebuilt from them; anything else is "cannot cross the judge boundary: <type>". Decoding builds
numpy and pandas objects only, so a comparison in the judge never calls the program's code.
docs/sandboxes.md "How assert-style tests are judged".
"""
from __future__ import annotations

import base64
import math
import re

import types
from typing import Any  # numpy has imported typing already: this module loads only when a numpy value crosses

import numpy as np

# The codec this module plugs into (wire.py), set by wire.rich() before any use: this module imports
# nothing of wire, so the two are no circle (wire imports it, lazily, when a numpy value crosses).
wire = types.ModuleType("wire")  # a stand-in with nothing in it until wire.rich() binds the real one

DTYPE = re.compile(r"[<>|=]?(b1|[iu][1248]|f[248]|c(8|16)|[Mm]8(\[(Y|M|W|D|h|m|s|ms|us|ns)\])?|[SU][1-9][0-9]{0,5})\Z")
MAX_DIMS = 32
MAX_ROWS = 1 << 24  # a RangeIndex is lazy: its length is not bounded by the frame's bytes
# pandas extension dtypes that cross element by element, rebuilt by name with pd.array
EXT = frozenset({"Int8", "Int16", "Int32", "Int64", "UInt8", "UInt16", "UInt32", "UInt64", "Float32", "Float64",
                 "boolean", "string", "str"})


def _pd():
    import pandas as pd  # only when a pandas value crosses
    return pd


def cannot(x: object, what: str = "") -> TypeError:
    return TypeError(f"{wire.NOT_PLAIN}: {what or wire.type_name(x)}")


# ---------------------------------------------------------------- encode (either side)

def encode(x: Any, depth: int, left: list[int]) -> list:
    """A numpy or pandas value as tagged lists; TypeError for any other (its type named). (x is Any
    to mypy: pandas is untyped here, so `type(x) is pd.DataFrame` narrows nothing.)"""
    t = type(x)
    if t is np.ndarray:
        return array(x, depth, left)
    if isinstance(x, np.generic):
        dt = x.dtype
        if not DTYPE.match(dt.str):
            raise cannot(x, f"numpy scalar of dtype {dt}")
        return ["n", dt.str, _b64(np.asarray(x).tobytes())]
    pd = _pd()
    if t is pd.DataFrame:
        left[0] -= x.shape[1]
        return ["D", index(x.index, depth, left), index(x.columns, depth, left),
                [values(x.iloc[:, i], depth + 1, left) for i in range(x.shape[1])]]
    if t is pd.Series:
        return ["R", wire.encode(x.name, depth + 1, left), index(x.index, depth, left), values(x, depth + 1, left)]
    if isinstance(x, pd.Index):
        return index(x, depth, left)
    if x is pd.NaT:
        return ["nat"]
    if x is pd.NA:
        return ["na"]
    if t is pd.Timestamp:
        return ["ts", wire.encode(int(x.value), depth + 1, left), wire.tz(x.tzinfo)]
    if t is pd.Timedelta:
        return ["tdp", wire.encode(int(x.value), depth + 1, left)]
    raise cannot(x)


def array(a, depth: int, left: list[int]) -> list:
    """An ndarray: raw bytes and dtype, or (object dtype) its elements as wire values."""
    if a.ndim > MAX_DIMS:
        raise cannot(a, f"numpy array of {a.ndim} dimensions")
    if a.dtype == object:
        left[0] -= a.size
        if left[0] < 0:
            raise cannot(a, f"more than {wire.MAX_VALUES} values")
        return ["ao", list(a.shape), [wire.encode(e, depth + 1, left) for e in a.ravel(order="C").tolist()]]
    if not DTYPE.match(a.dtype.str):
        raise cannot(a, f"numpy array of dtype {a.dtype}")
    return ["a", a.dtype.str, list(a.shape), _b64(np.ascontiguousarray(a).tobytes())]


def values(s, depth: int, left: list[int]) -> list:
    """The values of a Series or Index with their dtype: a numpy array, a categorical (categories
    and codes), tz-aware datetimes (UTC instants and the zone) or a nullable extension array."""
    pd = _pd()
    dt = s.dtype
    if isinstance(dt, np.dtype):
        return array(s.to_numpy(), depth, left)
    if isinstance(dt, pd.CategoricalDtype):
        cat = pd.Categorical(s)
        return ["cat", index(cat.categories, depth + 1, left), array(np.asarray(cat.codes), depth, left), bool(cat.ordered)]
    if isinstance(dt, pd.DatetimeTZDtype):
        utc = pd.DatetimeIndex(s).tz_convert("UTC").tz_localize(None)
        return ["tz", wire.tz(dt.tz), array(np.asarray(utc), depth, left)]
    if str(dt) in EXT:
        left[0] -= len(s)
        return ["ext", str(dt), [wire.encode(e, depth + 1, left) for e in list(s)]]
    raise cannot(s, f"pandas values of dtype {dt}")


def index(ix, depth: int, left: list[int]) -> list:
    """An Index: a RangeIndex by its bounds, a MultiIndex by levels and codes, any other by its
    values (and a DatetimeIndex's freq, which pandas' assert_*_equal compare)."""
    pd = _pd()
    depth += 1
    if depth > wire.MAX_DEPTH:
        raise cannot(ix, f"deeper than {wire.MAX_DEPTH}")
    if type(ix) is pd.RangeIndex:
        return ["P", "range", wire.encode(ix.name, depth, left), [ix.start, ix.stop, ix.step]]
    if type(ix) is pd.MultiIndex:
        return ["P", "multi", wire.encode(list(ix.names), depth, left), [index(lv, depth, left) for lv in ix.levels],
                [array(np.asarray(c), depth, left) for c in ix.codes]]
    freq = ix.freqstr if isinstance(ix, (pd.DatetimeIndex, pd.TimedeltaIndex)) else None
    return ["P", "plain", wire.encode(ix.name, depth, left), values(ix, depth, left), freq]


def _b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode("ascii")


# ---------------------------------------------------------------- decode (either side)

def decode(v: list, depth: int, left: list[int]) -> object:
    """The numpy or pandas value a tagged list stands for; wire.WireError for anything malformed
    (wire.decode maps numpy's and pandas' ValueError / TypeError to it as well)."""
    tag = v[0]
    if tag in ("a", "ao"):
        return unarray(v, depth, left)
    if tag == "n":
        dt = _dtype(v[1])
        raw = _unb64(v[2])
        if len(raw) != dt.itemsize:
            raise wire.WireError("malformed numpy scalar: byte count")
        return np.frombuffer(raw, dt)[0]
    pd = _pd()
    if tag == "D":
        _n(v, 4)
        ix, cols = unindex(v[1], depth, left), unindex(v[2], depth, left)
        data = [unvalues(c, depth + 1, left) for c in wire._items(v[3])]
        if len(data) != len(cols):
            raise wire.WireError("malformed DataFrame: columns")
        for d in data:
            if len(d) != len(ix):
                raise wire.WireError("malformed DataFrame: a column's length")
        df = pd.DataFrame(dict(enumerate(data)), index=ix) if data else pd.DataFrame(index=ix)
        df.columns = cols
        return df
    if tag == "R":
        _n(v, 4)
        name, ix, vals = wire.decode(v[1], depth + 1, left), unindex(v[2], depth, left), unvalues(v[3], depth + 1, left)
        if len(vals) != len(ix):
            raise wire.WireError("malformed Series: length")
        return pd.Series(vals, index=ix, name=name)
    if tag == "P":
        return unindex(v, depth, left)
    if tag == "nat":
        return pd.NaT
    if tag == "na":
        return pd.NA
    if tag == "ts":
        _n(v, 3)
        zone, ns = wire.tz_of(v[2]), _int(wire.decode(v[1], depth + 1, left))
        return pd.Timestamp(ns, tz="UTC").tz_convert(zone) if zone is not None else pd.Timestamp(ns)
    if tag == "tdp":
        _n(v, 2)
        return pd.Timedelta(_int(wire.decode(v[1], depth + 1, left)))
    raise wire.WireError(f"unknown tag {tag!r}")


def unarray(v: list, depth: int, left: list[int]):
    """An ndarray: the byte count must be the shape's element count times the item size."""
    if v[0] == "ao":
        _n(v, 3)
        shape, items = _shape(v[1]), wire._items(v[2])
        if math.prod(shape) != len(items):
            raise wire.WireError("malformed array: shape and element count differ")
        out = np.empty(len(items), dtype=object)
        for i, e in enumerate(items):
            out[i] = wire.decode(e, depth + 1, left)
        return out.reshape(shape)
    _n(v, 4)
    dt, shape, raw = _dtype(v[1]), _shape(v[2]), _unb64(v[3])
    if math.prod(shape) * dt.itemsize != len(raw):
        raise wire.WireError("malformed array: shape, dtype and byte count differ")
    return np.frombuffer(raw, dt).reshape(shape).copy()  # a copy: writable, as the program's was


def unvalues(v: object, depth: int, left: list[int]):
    """A column's values: an ndarray or a pandas extension array."""
    pd = _pd()
    if type(v) is not list or not v or depth > wire.MAX_DEPTH:
        raise wire.WireError("malformed values")
    tag = v[0]
    if tag in ("a", "ao"):
        a = unarray(v, depth, left)
        if a.ndim != 1:
            raise wire.WireError("malformed values: not one-dimensional")
        return a
    if tag == "cat":
        _n(v, 4)
        cats, codes = unindex(v[1], depth + 1, left), unarray(wire._items(v[2]), depth, left)
        if codes.dtype.kind != "i" or codes.ndim != 1 or type(v[3]) is not bool:
            raise wire.WireError("malformed categorical")
        return pd.Categorical.from_codes(codes, categories=cats, ordered=v[3])  # checks every code
    if tag == "tz":
        _n(v, 3)
        zone, utc = wire.tz_of(v[1]), unarray(wire._items(v[2]), depth, left)
        if utc.dtype.kind != "M" or utc.ndim != 1 or zone is None:
            raise wire.WireError("malformed datetimes")
        return pd.DatetimeIndex(utc).tz_localize("UTC").tz_convert(zone).array
    if tag == "ext":
        _n(v, 3)
        if v[1] not in EXT:
            raise wire.WireError("malformed values: dtype not allowed")
        items = [wire.decode(e, depth + 1, left) for e in wire._items(v[2])]
        return pd.array(items, dtype=v[1])
    raise wire.WireError(f"unknown values tag {tag!r}")


def unindex(v: object, depth: int, left: list[int]):
    pd = _pd()
    depth += 1
    left[0] -= 1
    if type(v) is not list or len(v) < 4 or v[0] != "P" or depth > wire.MAX_DEPTH or left[0] < 0:
        raise wire.WireError("malformed index")
    kind, name = v[1], wire.decode(v[2], depth, left)
    if kind == "range":
        b = v[3]
        if type(b) is not list or len(b) != 3 or any(type(i) is not int for i in b) or b[2] == 0 \
                or len(range(*b)) > MAX_ROWS:
            raise wire.WireError("malformed range index")
        return pd.RangeIndex(*b, name=name)
    if kind == "multi":
        _n(v, 5)
        levels = [unindex(lv, depth, left) for lv in wire._items(v[3])]
        codes = [unarray(wire._items(c), depth, left) for c in wire._items(v[4])]
        if any(c.dtype.kind != "i" or c.ndim != 1 for c in codes):
            raise wire.WireError("malformed MultiIndex")
        return pd.MultiIndex(levels=levels, codes=codes, names=name, verify_integrity=True)
    if kind == "plain":
        _n(v, 5)
        vals = unvalues(v[3], depth, left)
        freq = v[4]
        if freq is not None and (type(freq) is not str or len(freq) > 40):
            raise wire.WireError("malformed index freq")
        ix = pd.Index(vals, name=name, dtype=vals.dtype, copy=False)
        if freq is not None:
            ix = (pd.DatetimeIndex if ix.dtype.kind == "M" or hasattr(ix, "tz") else pd.TimedeltaIndex)(ix, freq=freq)
        return ix
    raise wire.WireError("malformed index")


def _dtype(s: object) -> np.dtype:
    if type(s) is not str or not DTYPE.match(s):
        raise wire.WireError(f"dtype not allowed: {str(s)[:40]!r}")
    return np.dtype(s)


def _shape(s: object) -> list[int]:
    if type(s) is not list or len(s) > MAX_DIMS or any(type(d) is not int or d < 0 for d in s):
        raise wire.WireError("malformed array shape")
    return s


def _unb64(s: object) -> bytes:
    try:
        return base64.b64decode(wire._text(s), validate=True)
    except ValueError:
        raise wire.WireError("malformed array bytes") from None


def _int(i: object) -> int:
    if type(i) is not int:
        raise wire.WireError("malformed value")
    return i


def _n(v: list, n: int) -> None:
    if len(v) != n:
        raise wire.WireError("malformed value")

"""The judge's typed channel for rich values (sandbox/harness/wire.py, wire_rich.py) and BigCodeBench-
style unittest files graded across it (README.md, "How assert-style tests are judged").

Host-side unit tests (no Docker, the host's numpy and pandas): each value type round-trips with its
exact type, dtype, index and names; crafted payloads (dtype strings, byte counts, shapes, depth)
are refused as malformed without running or allocating anything. Then real containers (the
image's numpy and pandas): right programs accepted, near misses (a cell, a dtype, an index)
rejected, values that cannot cross named in a never-paid verdict, and the attacks that beat the
shared judge (issue 16) tried against the process judge.
"""
from __future__ import annotations

import base64
import collections
import datetime
import decimal
import json
import sys
import zoneinfo

import numpy as np
import pandas as pd
import pytest

from sandbox.build import HARNESS

sys.path.insert(0, str(HARNESS))
import wire  # noqa: E402


def round_trip(x: object) -> object:
    """Through JSON, as a frame carries it."""
    return wire.decode(json.loads(json.dumps(wire.encode(x))))


ARRAYS = [np.arange(6, dtype=np.int32).reshape(2, 3), np.array([1.5, np.nan, -0.0]), np.array(["a", "bc"]),
          np.array([b"x"]), np.array([True, False]), np.array(["2020-01-01"], dtype="M8[ns]"),
          np.array([1, 2], dtype="m8[s]"), np.array([1 + 2j], dtype=np.complex64), np.zeros((0, 3)),
          np.array([1, 2], dtype=">u2"), np.array([1, "x", None, 2.5], dtype=object)]


@pytest.mark.parametrize("a", ARRAYS, ids=lambda a: str(a.dtype))
def test_arrays_round_trip_with_dtype_and_shape(a):
    back = round_trip(a)
    assert type(back) is np.ndarray and back.dtype == a.dtype and back.shape == a.shape
    assert back.tolist() == a.tolist() or np.array_equal(back, a, equal_nan=True)
    assert back.flags.writeable


SCALARS = [np.float64(1.5), np.float32(2.5), np.int64(-3), np.uint8(7), np.bool_(True), np.str_("hi"),
           np.datetime64("2020-01-02"), np.complex128(1j)]


@pytest.mark.parametrize("x", SCALARS, ids=lambda x: type(x).__name__)
def test_numpy_scalars_round_trip_as_numpy_scalars(x):
    back = round_trip(x)
    assert type(back) is type(x) and back == x


STDLIB = [datetime.datetime(2020, 1, 2, 3, 4, 5, 6), datetime.date(2021, 2, 3), datetime.time(4, 5, 6, 7),
          datetime.timedelta(days=-1, seconds=5), decimal.Decimal("1.10"), decimal.Decimal("NaN"),
          datetime.datetime(2020, 1, 1, tzinfo=datetime.timezone(datetime.timedelta(hours=-5))),
          datetime.datetime(2020, 1, 1, tzinfo=datetime.timezone.utc),
          {1, "a"}, frozenset({(1, 2)}), b"\x00\xff", collections.Counter("abca"), collections.OrderedDict(b=1, a=2),
          collections.defaultdict(list, {"k": [1]}), collections.deque([1, 2], maxlen=3),
          pd.Timestamp("2020-01-01 10:00"), pd.Timestamp("2020-01-01", tz="UTC"), pd.Timedelta("1h")]


@pytest.mark.parametrize("x", STDLIB, ids=lambda x: type(x).__name__)
def test_standard_library_and_pandas_scalars_round_trip_with_exact_types(x):
    back = round_trip(x)
    assert type(back) is type(x) and str(back) == str(x)
    if type(x) is decimal.Decimal and not x.is_nan():
        assert back == x
    if type(x) is collections.defaultdict:
        assert back.default_factory is list


def test_a_zone_crosses_by_its_key():
    try:
        zone = zoneinfo.ZoneInfo("Europe/Paris")
    except zoneinfo.ZoneInfoNotFoundError:
        pytest.skip("no time zone data on this host")
    back = round_trip(datetime.datetime(2020, 6, 1, 12, tzinfo=zone))
    assert back.tzinfo == zone and back.utcoffset() == datetime.timedelta(hours=2)


def frames() -> list[pd.DataFrame]:
    idx = pd.Index([10, 20, 30], name="k")
    return [
        pd.DataFrame({"a": [1, 2, 3], "b": ["x", "y", None], "c": [1.5, None, 3.0]}),
        pd.DataFrame({"cat": pd.Categorical(["u", "v", "u"], ordered=True), "n": pd.array([1, None, 3], dtype="Int64")},
                     index=idx),
        pd.DataFrame({"t": pd.to_datetime(["2020-01-01", "2020-01-02", "2020-01-03"]),
                      "tz": pd.to_datetime(["2020-01-01", "2020-01-02", "2020-01-03"]).tz_localize("UTC")}),
        pd.DataFrame(np.ones((2, 2)), columns=pd.MultiIndex.from_tuples([("a", "b"), ("a", "c")], names=["l0", "l1"])),
        pd.DataFrame({"v": [1, 2]}, index=pd.MultiIndex.from_tuples([("a", 1), ("b", 2)], names=["x", "y"])),
        pd.DataFrame({"v": [1.0, 2.0, 3.0]}, index=pd.date_range("2020-01-01", periods=3, freq="D", name="day")),
        pd.DataFrame({"a": [1, 2], "a2": [3, 4]}).rename(columns={"a2": "a"}),  # duplicate column names
        pd.DataFrame(),
        pd.DataFrame({"b": [True, False], "o": [[1], {"k": 2}]}),  # object cells of plain data
    ]


@pytest.mark.parametrize("df", frames(), ids=range(len(frames())))
def test_dataframes_round_trip_with_dtypes_index_and_names(df):
    back = round_trip(df)
    assert type(back) is pd.DataFrame
    pd.testing.assert_frame_equal(back, df, check_exact=True)  # dtypes, index (and freq), column names


def test_series_and_indexes_round_trip():
    s = pd.Series([1, 2, 3], index=pd.Index(["a", "b", "c"], name="i"), name="s")
    pd.testing.assert_series_equal(round_trip(s), s)
    for ix in (pd.RangeIndex(2, 10, 2, name="r"), pd.Index([1.5, 2.5]), pd.CategoricalIndex(["a", "b"]),
               pd.DatetimeIndex(["2020-01-01"], tz="UTC")):
        pd.testing.assert_index_equal(round_trip(ix), ix, exact=True)


def test_near_miss_frames_compare_unequal_after_crossing():
    """What crossed is what was sent: a changed cell, dtype or index survives the wire."""
    df = frames()[0]
    for other in (df.assign(a=[1, 2, 4]), df.astype({"a": "float64"}), df.set_axis([1, 2, 3])):
        with pytest.raises(AssertionError):
            pd.testing.assert_frame_equal(round_trip(other), df)


class Axes:  # stands for a matplotlib Axes, a model, any program-defined object
    pass


@pytest.mark.parametrize("x", [Axes(), open(__file__), [1, Axes()], pd.Series([Axes()]), np.array([Axes()]),
                               pd.Series(pd.period_range("2020", periods=2, freq="M")),
                               collections.defaultdict(lambda: 0), np.zeros(2, dtype=[("a", "i4")])],
                         ids=lambda x: type(x).__name__)
def test_values_that_cannot_cross_are_named(x):
    with pytest.raises(TypeError, match="cannot cross the judge boundary: "):
        wire.encode(x)


def test_the_refusal_names_the_type():
    with pytest.raises(TypeError, match=r"cannot cross the judge boundary: test_judge_channel\.Axes"):
        wire.encode((pd.DataFrame(), Axes()))


def b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode()


# crafted frames (what a program's process may send): each is a WireError, never run or allocated
CRAFTED = {
    "object dtype": ["a", "|O", [1], b64(b"\0" * 8)],
    "pickle-ish dtype": ["a", "V8", [1], b64(b"\0" * 8)],
    "structured dtype": ["a", "[('a', '<i4')]", [1], b64(b"\0" * 4)],
    "dtype with code": ["a", "__import__('os').system('x')", [1], ""],
    "byte count short": ["a", "<f8", [4], b64(b"\0" * 8)],
    "byte count long": ["a", "<f8", [1], b64(b"\0" * 16)],
    "huge shape": ["a", "<f8", [1 << 40, 1 << 40], b64(b"\0" * 8)],
    "huge zero shape": ["a", "<f8", [0, 1 << 62, 1 << 62], ""],
    "negative shape": ["a", "<i1", [-1], ""],
    "too many dims": ["a", "<i1", [1] * 40, b64(b"\0")],
    "huge string itemsize": ["a", "<U9999999", [1], ""],
    "bad base64": ["a", "<i1", [1], "!!"],
    "object shape mismatch": ["ao", [3], [["N"]]],
    "scalar byte count": ["n", "<f8", b64(b"\0" * 4)],
    "huge range index": ["R", ["N"], ["P", "range", ["N"], [0, 1 << 60, 1]], ["a", "<i1", [0], ""]],
    "series length": ["R", ["N"], ["P", "range", ["N"], [0, 3, 1]], ["a", "<i1", [2], b64(b"\0\0")]],
    "frame column count": ["D", ["P", "range", ["N"], [0, 1, 1]], ["P", "range", ["N"], [0, 2, 1]],
                           [["a", "<i1", [1], b64(b"\0")]]],
    "categorical code out of range": ["R", ["N"], ["P", "range", ["N"], [0, 1, 1]],
                                      ["cat", ["P", "plain", ["N"], ["ao", [1], [["s", "a"]]], None],
                                       ["a", "<i1", [1], b64(b"\x05")], False]],
    "extension dtype": ["R", ["N"], ["P", "range", ["N"], [0, 1, 1]], ["ext", "object", [["N"]]]],
    "time zone path": ["dt", [2020, 1, 1, 0, 0, 0, 0], 0, ["zone", "../../etc/passwd"]],
    "unhashable name": ["R", ["l", []], ["P", "range", ["N"], [0, 0, 1]], ["a", "<i1", [0], ""]],
    "defaultdict factory": ["dd", "eval", []],
}


@pytest.mark.parametrize("name", list(CRAFTED))
def test_crafted_payloads_are_malformed_values(name):
    with pytest.raises(wire.WireError):
        wire.decode(CRAFTED[name])


def test_deep_nesting_inside_a_frame_is_refused():
    deep: list = ["N"]
    for _ in range(wire.MAX_DEPTH + 5):
        deep = ["ao", [1], [deep]]
    with pytest.raises(wire.WireError):
        wire.decode(deep)
    ix: list = ["P", "range", ["N"], [0, 0, 1]]
    for _ in range(wire.MAX_DEPTH + 5):
        ix = ["P", "multi", ["l", [["N"]]], [ix], [["a", "<i1", [0], ""]]]
    with pytest.raises(wire.WireError):
        wire.decode(ix)


def test_the_judge_side_imports_numpy_and_pandas_only_when_such_a_value_crosses():
    """The judge of plain-data tasks pays nothing for rich values (wire.py imports neither)."""
    import subprocess
    code = (f"import sys; sys.path.insert(0, {str(HARNESS)!r}); import wire, json\n"
            "wire.decode(wire.encode([1, {'a': (2.5, b'x')}, {3}]))\n"
            "assert 'numpy' not in sys.modules and 'pandas' not in sys.modules, 'imported early'\n"
            "wire.decode(['a', '<i1', [1], 'AA=='])\nassert 'numpy' in sys.modules\n")
    subprocess.run([sys.executable, "-I", "-c", code], check=True)

"""The judge's typed channel for rich values (sandbox/harness/wire.py, wire_rich.py) and BigCodeBench-
style unittest files graded across it (docs/sandboxes.md "How assert-style tests are judged").

Host-side unit tests (no Docker, the host's numpy and pandas): each value type round-trips with its
exact type, dtype, index and names; crafted payloads (dtype strings, byte counts, shapes, depth)
are refused as malformed without running or allocating anything. Then real containers (the
image's numpy and pandas): right programs accepted, near misses (a cell, a dtype, an index)
rejected, values that cannot cross named in a never-paid verdict, and the attacks that beat the
shared judge (issue 16) tried against the process judge.
"""
from __future__ import annotations

import array
import base64
import collections
import datetime
import decimal
import fractions
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


STDLIB = [array.array("d", [1.5, -2.0]), array.array("u", "hé"), fractions.Fraction(-7, 3), datetime.datetime(2020, 1, 2, 3, 4, 5, 6), datetime.date(2021, 2, 3), datetime.time(4, 5, 6, 7),
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


class Node:  # a tests' class, as MBPP's setup code defines one
    def __init__(self, left=None, right=None):
        self.left, self.right = left, right


def test_the_tests_objects_cross_to_the_program_by_attributes_and_never_back(monkeypatch):
    tree = Node(Node(), None)
    with pytest.raises(TypeError, match="cannot cross the judge boundary"):  # the program's side: never
        wire.encode(tree)
    monkeypatch.setattr(wire, "TEST_MODULES", frozenset({__name__}))  # the judge's side
    sent = json.loads(json.dumps(wire.encode([tree])))
    with pytest.raises(wire.WireError):  # the judge never decodes one (CLASSES is None there)
        wire.decode(sent)

    class ProgramNode:
        def __init__(self):
            raise AssertionError("not run")
    monkeypatch.setattr(wire, "CLASSES", {"Node": ProgramNode})  # the program's side
    (back,) = wire.decode(sent)
    assert type(back) is ProgramNode and type(back.left) is ProgramNode and back.right is None
    monkeypatch.setattr(wire, "CLASSES", {})
    (back,) = wire.decode(sent)
    assert (back.left.left, back.right) == (None, None)  # a SimpleNamespace with the attributes


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
    "fraction over zero": ["frac", "1", "0"],
    "array.array typecode": ["arr", "O", ""],
    "array.array partial item": ["arr", "d", b64(b"\0" * 5)],
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


# ---------------------------------------------------------------- real containers: BigCodeBench style

# The sandboxed tests here run on every backend (tests/conftest.py `any_grader`): one Python sandbox, made by
# tests/helpers.py one_sandbox with these settings.
SANDBOX = {"pool_name": "pytest-judge-channel"}
# Values crossing the judge's channel are the harness's Python logic, the same bytes on every backend and kernel: the
# sandbox adds nothing to decode, and runs here cost 2-4 min each on a loaded 2-core machine (issue 30 budget).
BACKENDS_CUT = {"gvisor": "value decoding is the harness's logic, no kernel in it; 226 s measured",
                "runsc": "value decoding is the harness's logic, no kernel in it; 119 s measured"}


def bcb(program: str, test: str, prompt: str = "import pandas as pd\nimport numpy as np\n", **kw) -> dict:
    """A BigCodeBench row through its format adapter: the prompt's prelude, unittest, task_func."""
    from verifier.formats.bigcodebench import to_task
    row = {"task_id": "BigCodeBench/t", "entry_point": "task_func", "test": test,
           "complete_prompt": prompt + "\ndef task_func(*args):\n    \"\"\"Doc.\"\"\"\n", "instruct_prompt": "Write it."}
    return {**to_task(row, f"```python\n{program}\n```"), "time_limit_s": 10, "memory_limit_mb": 768, **kw}


FRAME_TESTS = """import unittest
class TestCases(unittest.TestCase):
    def test_frame(self):
        df = task_func(pd.DataFrame({'g': ['a', 'b', 'a'], 'v': [1, 2, 3]}))
        expect = pd.DataFrame({'v': [4, 2]}, index=pd.Index(['a', 'b'], name='g'))
        pd.testing.assert_frame_equal(df, expect)
    def test_series(self):
        s = task_func(pd.DataFrame({'g': ['x'], 'v': [5]}))['v']
        pd.testing.assert_series_equal(s, pd.Series([5], index=pd.Index(['x'], name='g'), name='v'))
"""
FRAME_RIGHT = "import pandas as pd\ndef task_func(df):\n    return df.groupby('g').sum()"


@pytest.mark.docker
@pytest.mark.parametrize("program, verdict", [
    (FRAME_RIGHT, "accepted"),
    ("import pandas as pd\ndef task_func(df):\n    return df.groupby('g', sort=True).agg({'v': 'sum'})", "accepted"),
    ("import pandas as pd\ndef task_func(df):\n    r = df.groupby('g').sum()\n    r.iloc[0, 0] += 1\n    return r",
     "wrong_answer"),  # one cell
    ("import pandas as pd\ndef task_func(df):\n    return df.groupby('g').sum().astype('float64')", "wrong_answer"),  # dtype
    ("import pandas as pd\ndef task_func(df):\n    return df.groupby('g').sum().reset_index(drop=True)", "wrong_answer"),
    ("import pandas as pd\ndef task_func(df):\n    return df.groupby('g').sum().rename_axis('G')", "wrong_answer"),  # index name
])
def test_dataframes_cross_and_compare_in_the_judge(any_grader, program, verdict):
    r = any_grader.grade(bcb(program, FRAME_TESTS))
    assert r["verdict"] == verdict, r
    assert r["score"] == (1.0 if verdict == "accepted" else 0.0), r


TYPES_TESTS = """import unittest, datetime, decimal
class TestCases(unittest.TestCase):
    def test_array(self):
        a = task_func('array')
        self.assertIsInstance(a, np.ndarray)
        self.assertEqual(a.dtype, np.float64)
        np.testing.assert_array_equal(a, np.array([[0.0, 0.5], [1.0, 1.5]]))
    def test_scalar(self):
        x = task_func('scalar')
        self.assertIsInstance(x, np.integer)
        self.assertEqual(x, 7)
    def test_set(self):
        self.assertEqual(task_func('set'), {1, 2, 3})
    def test_datetime(self):
        self.assertEqual(task_func('datetime'), datetime.datetime(2024, 2, 29, 12, 30))
    def test_decimal(self):
        d = task_func('decimal')
        self.assertIsInstance(d, decimal.Decimal)
        self.assertEqual(str(d), '1.10')
    def test_bytes(self):
        self.assertEqual(task_func('bytes'), b'\\x00\\xffab')
    def test_timestamps(self):
        s = task_func('timestamps')
        self.assertEqual(str(s.dtype), 'datetime64[ns, UTC]')
        self.assertEqual(s.iloc[1], pd.Timestamp('2024-01-02', tz='UTC'))
"""
TYPES_RIGHT = """import numpy as np, pandas as pd, datetime, decimal
def task_func(kind):
    return {'array': lambda: np.arange(4).reshape(2, 2) / 2, 'scalar': lambda: np.int64(7), 'set': lambda: {3, 2, 1},
            'datetime': lambda: datetime.datetime(2024, 2, 29, 12, 30), 'decimal': lambda: decimal.Decimal('1.10'),
            'bytes': lambda: bytes([0, 255]) + b'ab',
            'timestamps': lambda: pd.Series(pd.date_range('2024-01-01', periods=2, tz='UTC'))}[kind]()
"""
TYPES_NEAR = {  # one value of one kind changed: that test, and only it, fails
    "array": ("np.arange(4).reshape(2, 2) / 2", "np.arange(4).reshape(2, 2) // 2"),  # an int array
    "scalar": ("np.int64(7)", "7.0"),
    "set": ("{3, 2, 1}", "[1, 2, 3]"),
    "datetime": ("datetime.datetime(2024, 2, 29, 12, 30)", "datetime.datetime(2024, 2, 29, 12, 31)"),
    "decimal": ("decimal.Decimal('1.10')", "decimal.Decimal('1.1')"),
    "bytes": ("bytes([0, 255]) + b'ab'", "'\\\\x00\\\\xffab'"),
    "timestamps": ("tz='UTC'", "tz='Europe/London'"),
}


@pytest.mark.docker
def test_arrays_scalars_sets_datetimes_decimals_and_bytes_cross(any_grader):
    r = any_grader.grade(bcb(TYPES_RIGHT, TYPES_TESTS, scoring="fraction"))
    assert r["verdict"] == "accepted" and len(r["tests"]) == 7, r


@pytest.mark.docker
@pytest.mark.parametrize("kind", sorted(TYPES_NEAR))
def test_a_near_miss_of_each_type_fails_its_test(any_grader, kind):
    old, new = TYPES_NEAR[kind]
    r = any_grader.grade(bcb(TYPES_RIGHT.replace(old, new), TYPES_TESTS, scoring="fraction"))
    failed = [t["name"] for t in r["tests"] if t["verdict"] != "accepted"]
    assert failed == [f"TestCases.test_{kind}"], r
    assert r["verdict"] == "wrong_answer", r


AXES_TESTS = """import unittest
class TestCases(unittest.TestCase):
    def test_plot(self):
        df, ax = task_func([1, 2])
        self.assertEqual(list(df['x']), [1, 2])
        self.assertEqual(ax.get_title(), 'x')
"""


@pytest.mark.docker
@pytest.mark.parametrize("returned, type_name", [
    ("(pd.DataFrame({'x': xs}), Axes())", "solution.Axes"),
    ("(pd.DataFrame({'x': xs}), open('prog.py'))", "_io.TextIOWrapper"),
    ("(pd.DataFrame({'x': xs}), np.array([Axes()]))", "solution.Axes"),
])
def test_a_value_that_cannot_cross_is_a_wrong_answer_naming_its_type(any_grader, returned, type_name):
    """A matplotlib Axes (not in the image), an open file, a program-defined object: never accepted,
    never infra_error, not retried; the detail names the type."""
    program = f"import pandas as pd, numpy as np\nclass Axes:\n    def get_title(self):\n        return 'x'\n" \
              f"def task_func(xs):\n    return {returned}\n"
    r = any_grader.grade(bcb(program, AXES_TESTS))
    assert r["verdict"] == "wrong_answer" and not r["retryable"] and r["score"] == 0.0, r
    assert f"cannot cross the judge boundary: {type_name}" in r["tests"][0]["detail"], r


# ---------------------------------------------------------------- right programs the shared judge refused

RAISES_TESTS = """import unittest
class TestCases(unittest.TestCase):
    def test_value(self):
        np.testing.assert_allclose(task_func(np.array([0.0, 1.0])), [1.0, 0.7651976865579666])
    def test_type_error(self):
        with self.assertRaises(TypeError):
            task_func(None)
"""


@pytest.mark.docker
@pytest.mark.parametrize("program", [
    "from scipy import special\nimport numpy as np\ndef task_func(x):\n    if x is None:\n        raise TypeError('x')\n"
    "    return special.j0(x)",  # scipy.special while the tests import only numpy (marshal was blocked)
    "import numpy as np\nimport scipy.special\ndef task_func(x):\n    return scipy.special.j0(np.array(x) + 0.0)",
])
def test_right_programs_the_shared_judge_refused_are_accepted(any_grader, program):
    """scipy.special, numpy imported by the program, and `assertRaises(TypeError): task_func(None)`
    (np.array(None) + 0.0 raises TypeError in the program's process; it crosses as one)."""
    r = any_grader.grade(bcb(program, RAISES_TESTS))
    assert r["verdict"] == "accepted", r
    wrong = any_grader.grade(bcb(program.replace("j0", "j1"), RAISES_TESTS, scoring="fraction"))
    assert wrong["verdict"] == "wrong_answer" and wrong["score"] == 0.5, wrong


# ---------------------------------------------------------------- the shared judge's attacks (issue 16)

ATTACK_TESTS = """import unittest
class TestCases(unittest.TestCase):
    def test_sum(self):
        self.assertEqual(task_func([1, 2]), 3)
    def test_frame(self):
        pd.testing.assert_frame_equal(task_func(pd.DataFrame({'a': [1]})), pd.DataFrame({'a': [2]}))
"""
WRONG = "def task_func(x):\n    return _answer(x)\n"
ATTACKS = {
    # a pipe dup'ed over every fd at import, and a non-daemon thread and an atexit hook writing
    # result lines on all of them during shutdown
    "result_fd_rewrite": """import os, threading, atexit, json
r, w = os.pipe()
for fd in range(3, 64):
    if fd not in (r, w):
        try:
            os.dup2(w, fd)
        except OSError:
            pass
def _forge():
    for fd in range(0, 64):
        for word in ('ok', 'done'):
            try:
                os.write(fd, b'{"test": {"verdict": "accepted"}}\\n{"done": 2}\\n')
            except OSError:
                pass
threading.Thread(target=lambda: (__import__('time').sleep(0.2), _forge())).start()
atexit.register(_forge)
def _answer(x):
    _forge()
    return -99
""",
    "stoptest_clears_failures": """import unittest
_orig = unittest.TestResult.stopTest
def _stop(self, test):
    self.failures.clear(); self.errors.clear()
    unittest.TestResult.stopTest = _orig
    return _orig(self, test)
def _answer(x):
    unittest.TestResult.stopTest = _stop
    return -99
""",
    "noop_asserts_restored_from_docleanups": """import unittest
_saved = {k: v for k, v in vars(unittest.TestCase).items() if k.startswith('assert')}
def _answer(x):
    for k in _saved:
        setattr(unittest.TestCase, k, lambda *a, **k: None)
    _dc = unittest.TestCase.doCleanups
    def _restore(self):
        for k, v in _saved.items():
            setattr(unittest.TestCase, k, v)
        return _dc(self)
    unittest.TestCase.doCleanups = _restore
    return -99
""",
    "expected_literals_from_test_bytecode": """import unittest, pandas as pd
def _answer(x):
    for c in unittest.TestCase.__subclasses__():
        for f in vars(c).values():
            consts = getattr(getattr(f, '__code__', None), 'co_consts', ())
            ints = [k for k in consts if type(k) is int and k not in (1, 2)]
            if ints:
                return ints[0]
    return -99
""",
    "assert_frame_equal_replaced": """import pandas as pd, pandas.testing
pd.testing.assert_frame_equal = lambda *a, **k: None
pandas.testing.assert_frame_equal = lambda *a, **k: None
import unittest
unittest.TestCase.assertEqual = lambda *a, **k: None
def _answer(x):
    return pd.DataFrame({'a': [-99]}) if isinstance(x, pd.DataFrame) else -99
""",
}


@pytest.mark.docker
@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_the_shared_judges_attacks_score_zero_across_the_channel(any_grader, name):
    """Each scored 1.0 against the shared judge (issue 16). The tests run in the judge's process:
    what the program patches, forges or reads stays in its own."""
    r = any_grader.grade(bcb(ATTACKS[name] + WRONG, ATTACK_TESTS, scoring="fraction"))
    assert r["score"] == 0.0 and r["verdict"] not in ("accepted", "infra_error", "error"), r
    right = ATTACKS[name] + "def task_func(x):\n    _answer(x)\n    return x + 1 if isinstance(x, pd.DataFrame) else sum(x)\n"
    if name != "result_fd_rewrite":  # the attack's own patches do not break a right answer either
        r = any_grader.grade(bcb(right.replace("import unittest", "import unittest, pandas as pd"), ATTACK_TESTS))
        assert r["verdict"] == "accepted", r


SEED_TESTS = """import unittest, random
class TestCases(unittest.TestCase):
    def test_random(self):
        random.seed(42)
        self.assertEqual(task_func('random'), 0.6394267984578837)
    def test_numpy(self):
        np.random.seed(0)
        first = task_func('numpy')
        np.random.seed(0)
        self.assertEqual(task_func('numpy'), first)
        self.assertAlmostEqual(first, 0.5488135039273248)
"""


@pytest.mark.docker
@pytest.mark.parametrize("program, verdict", [
    ("import random\nimport numpy as np\ndef task_func(k):\n    return random.random() if k == 'random' else float(np.random.rand())",
     "accepted"),
    ("import random\nimport numpy as np\ndef task_func(k):\n    random.random()\n"
     "    return random.random() if k == 'random' else float(np.random.rand(2)[1])", "wrong_answer"),  # a later draw
])
def test_the_tests_seeds_reach_the_programs_rng(any_grader, program, verdict):
    """BigCodeBench seeds the global RNG in the test and compares what task_func draws."""
    r = any_grader.grade(bcb(program, SEED_TESTS, scoring="fraction"))
    assert r["verdict"] == verdict and r["score"] == (1.0 if verdict == "accepted" else 0.0), r


@pytest.mark.docker
def test_seeding_alone_is_not_reaching_the_program(any_grader):
    tests = "import unittest, random\nclass T(unittest.TestCase):\n    def test_a(self):\n        random.seed(1)\n" \
            "        self.assertTrue(True)\n"
    r = any_grader.grade(bcb("def task_func():\n    return 0", tests))
    assert r["verdict"] == "infra_error" and not r["retryable"] and "no function of the program" in r["detail"], r


def test_library_exceptions_come_back_as_their_class_framework_ones_never():
    import subprocess
    import unittest

    import judge
    e = judge.exception("ValueError", "Expecting value", ["json.decoder", "JSONDecodeError"])
    assert isinstance(e, json.JSONDecodeError) and str(e) == "Expecting value"
    e = judge.exception("Exception", "failed", ["subprocess", "CalledProcessError"])
    assert isinstance(e, subprocess.CalledProcessError) and str(e) == "failed"
    assert not isinstance(judge.exception("Exception", "x", ["unittest.case", "SkipTest"]), unittest.SkipTest)
    for cls in (["solution", "MyError"], ["os", "system"], ["not_loaded_module", "E"], "json.JSONDecodeError", None):
        assert type(judge.exception("ValueError", "x", cls)) is ValueError


RAISES_LIB_TESTS = """import unittest, json
class TestCases(unittest.TestCase):
    def test_json(self):
        with self.assertRaises(json.JSONDecodeError):
            task_func('json')
    def test_linalg(self):
        with self.assertRaises(np.linalg.LinAlgError):
            task_func('linalg')
    def test_value(self):
        self.assertEqual(task_func('ok'), 1)
"""


@pytest.mark.docker
@pytest.mark.parametrize("program, verdict, score", [
    ("import json\nimport numpy as np\ndef task_func(k):\n    if k == 'json':\n        return json.loads('x')\n"
     "    if k == 'linalg':\n        return np.linalg.inv(np.zeros((2, 2)))\n    return 1", "accepted", 1.0),
    ("def task_func(k):\n    if k != 'ok':\n        raise ValueError(k)\n    return 1", "runtime_error", 1 / 3),
    # unittest.SkipTest from the program never skips the judge's test (skipped tests do not count)
    ("import unittest\ndef task_func(k):\n    raise unittest.SkipTest('no')", "runtime_error", 0.0),
])
def test_library_exceptions_cross_by_class(any_grader, program, verdict, score):
    r = any_grader.grade(bcb(program, RAISES_LIB_TESTS, scoring="fraction"))
    assert r["verdict"] == verdict and abs(r["score"] - score) < 1e-9 and len(r["tests"]) == 3, r

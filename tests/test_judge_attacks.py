"""Red-team findings against the process judge (issue 16, item 5): each test is an attack a
reward-hacking program made, tried again with real containers (and the judge's own functions where
the attack is one call). docs/sandboxes.md "How assert-style tests are judged".
"""
from __future__ import annotations

import sys
import unittest

import pytest

from sandbox.build import HARNESS

sys.path.insert(0, str(HARNESS))
sys.path.insert(0, __file__.rpartition("/")[0])
from test_judge_channel import bcb  # noqa: E402

from tests.helpers import kernel_differs, on_backend  # noqa: E402


# The sandboxed tests here run on every backend (tests/conftest.py `any_grader`): one Python sandbox, made by
# tests/helpers.py one_sandbox with these settings.
SANDBOX = {"pool_name": "pytest-judge-attacks"}
# The attacks are the judge's decoding and unittest logic in the harness; where gVisor's kernel changes a verdict's
# timing (kernel_differs) the gvisor run has it, so Docker's runsc runtime adds only its CI time (issue 30 budget).
BACKENDS_CUT = {"runsc": "the judge's decoding and unittest logic; gVisor's kernel is the gvisor run's; 50 s measured"}


# ---------------------------------------------------------------- exceptions crossing by class

# unittest swallows _ShouldStop inside a test (testPartExecutor: `except _ShouldStop: pass`), so
# the test passes. numpy.testing's utils module imports unittest: a class named by a path through
# that module's attributes was found there although its home is unittest.case.
SHOULD_STOP = """import numpy as np
class _S(Exception):
    pass
_S.__module__ = "numpy"
_S.__qualname__ = "testing._private.utils.unittest.case._ShouldStop"
def task_func(x):
    raise _S("stop")
"""
TWO_TESTS = """import unittest
import numpy as np
class T(unittest.TestCase):
    def test_a(self):
        self.assertEqual(task_func([1, 2]), 3)
    def test_b(self):
        np.testing.assert_array_equal(task_func(np.array([1])), np.array([2]))
"""


def test_a_library_exception_is_found_only_at_its_own_home():
    import judge
    import numpy.testing  # noqa: F401 - loaded in the judge whenever the tests use it
    e = judge.exception("Exception", "stop", ["numpy", "testing._private.utils.unittest.case._ShouldStop"])
    assert not isinstance(e, unittest.case._ShouldStop) and type(e) is Exception
    e = judge.exception("Exception", "x", ["numpy.testing._private.utils", "SkipTest"])
    assert not isinstance(e, unittest.SkipTest)
    import numpy as np
    assert isinstance(judge.exception("Exception", "x", ["numpy.linalg", "LinAlgError"]), np.linalg.LinAlgError)


def test_naming_a_class_imports_nothing_in_the_judge():
    """numpy's (and scipy's) module __getattr__ imports submodules: a program naming
    ['numpy', 'testing.X'] or ['scipy', 'stats.X'] made the judge import them (seconds each, on
    the job's budget, and code the tests never asked for)."""
    import subprocess
    code = ("import sys; sys.path.insert(0, sys.argv[1]); import numpy, judge; "
            "judge.exception('Exception', 'x', ['numpy', 'testing.X']); assert 'numpy.testing' not in sys.modules")
    subprocess.run([sys.executable, "-I", "-c", code, str(HARNESS)], check=True)


@pytest.mark.docker
def test_a_program_raising_unittests_should_stop_fails_the_tests(any_grader):
    r = any_grader.grade(bcb(SHOULD_STOP, TWO_TESTS, scoring="fraction"))
    assert r["score"] == 0.0 and r["verdict"] == "runtime_error", r


# ---------------------------------------------------------------- decoding costs the judge's CPU

# The program's process encodes its replies: patching its own wire.encode, it sends any frame.
CRAFT = """import sys
_w = sys.modules["wire"]
_enc = _w.encode
M = 2**61 - 1  # ints k*M + 1 all hash to 1: a set of n of them costs n**2/2 comparisons to build
def _crafted(x, *a, **k):
    if type(x) is str and x == "SET":
        return ["S", [["i", format(k * M + 1, "x")] for k in range(200_000)]]
    if type(x) is str and x == "FRAC":
        n = 1 << (4 * 4_000_000)
        return ["frac", format(n * 3 + 1, "x"), format(n * 5 + 7, "x")]
    return _enc(x, *a, **k)
_w.encode = _crafted
"""
SET_TESTS = """import unittest
class T(unittest.TestCase):
    def test_a(self):
        self.assertEqual(task_func(1), {1})
"""


# gVisor's ptrace platform charges process starts and page faults to the program: importing pandas, the
# BigCodeBench prelude, took past 3 s of CPU there (docs/sandboxes.md "Sandbox backends").
PANDAS_UNDER_GVISOR = "gVisor's ptrace platform charges pandas' import to the program: seconds of CPU"


@pytest.mark.docker
def test_a_reply_that_costs_quadratic_time_to_decode_ends_at_the_calls_limit(any_grader, backend):
    """Decoding runs in the judge, where the program's CPU limit does not count it: the call's
    wall-clock limit covers the decoding too (before: the job's whole budget went on it)."""
    limit = on_backend(backend, 1, kernel_differs(8, PANDAS_UNDER_GVISOR))
    r = any_grader.grade(bcb(CRAFT + "def task_func(x):\n    return 'SET'\n", SET_TESTS, time_limit_s=limit))
    assert r["verdict"] == "time_limit" and r["score"] == 0.0, r
    said = on_backend(backend, ("decoding its reply",), kernel_differs(
        ("decoding its reply", "CPU time limit exceeded"),
        "the decode, slower there, can reach the CPU limit before the call's wall-clock one"))
    assert any(s in r["tests"][0]["detail"] for s in said), r


@pytest.mark.docker
def test_a_constant_that_costs_quadratic_time_to_decode_is_the_programs_time_limit(any_grader, backend):
    # (3 s: loading pandas, the BigCodeBench prelude, takes about 1 s under load)
    limit = on_backend(backend, 3, kernel_differs(8, PANDAS_UNDER_GVISOR))
    r = any_grader.grade(bcb(CRAFT + "S = 'SET'\ndef task_func(x):\n    return {1}\n", SET_TESTS, time_limit_s=limit))
    assert r["verdict"] == "time_limit" and r["score"] == 0.0, r
    said = on_backend(backend, ("constants did not decode",), kernel_differs(
        ("constants did not decode", "CPU time limit exceeded"),
        "the decode, slower there, can reach the program's CPU limit before the judge's decode deadline"))
    assert any(s in r["tests"][0]["detail"] for s in said), r


@pytest.mark.docker
def test_a_fraction_with_huge_parts_is_refused_not_reduced(any_grader, backend):
    limit = on_backend(backend, 1, kernel_differs(8, PANDAS_UNDER_GVISOR))
    r = any_grader.grade(bcb(CRAFT + "def task_func(x):\n    return 'FRAC'\n", SET_TESTS, time_limit_s=limit))
    assert r["verdict"] == "runtime_error" and "Fraction" in r["tests"][0]["detail"], r


def test_fraction_parts_are_bounded_both_ways():
    import fractions

    import wire
    big = fractions.Fraction(3 << wire.MAX_FRACTION_BITS, 7)
    with pytest.raises(TypeError, match="cannot cross"):
        wire.encode(big)
    with pytest.raises(wire.WireError, match="Fraction"):
        wire.decode(["frac", format(big.numerator, "x"), "7"])
    edge = fractions.Fraction(-(1 << wire.MAX_FRACTION_BITS) + 1, (1 << wire.MAX_FRACTION_BITS) - 2)
    assert wire.decode(wire.encode(edge)) == edge


# ---------------------------------------------------------------- tests that never reach the program

NOTHING = {"pytest": "def test_nothing():\n    assert 1 + 1 == 2\n",
           "unittest": "import unittest\nclass T(unittest.TestCase):\n    def test_nothing(self):\n        self.assertTrue(True)\n"}


@pytest.mark.docker
@pytest.mark.parametrize("kind, fixture", [
    ("unittest", "setUpModule"), ("unittest", "tearDownModule"), ("pytest", "setup_module"),
    ("pytest", "setup_function"), ("pytest", "teardown_module"), ("pytest", "setUpModule"), ("pytest", "setup"),
])
def test_a_fixture_the_program_defines_is_no_call_from_the_tests(any_grader, kind, fixture):
    """The frameworks call module-level fixtures by name: were they the program's proxies, the
    program was "reached" and tests any program passes (infra_error, unpaid) paid it 1.0."""
    program = f"def inc(x):\n    return -99\ndef {fixture}():\n    pass\n"
    r = any_grader.grade({"kind": "code", "language": "python", "completion": f"```python\n{program}\n```",
                      "test_framework": kind, "test_code": NOTHING[kind]})
    assert r["verdict"] == "infra_error" and not r["retryable"] and r["score"] == 0.0, r


def test_a_crafted_hello_sets_no_dunder_of_the_tests_module():
    """serve.describe sends no dunder, but the program's process writes its own hello: its
    `__builtins__` became the test module's builtins, its `__test__ = False` hid every pytest test."""
    import builtins

    import judge
    import kinds
    program = judge.Program(-1, -1)
    names = {"__builtins__": ["data", ["d", []]], "__test__": ["data", ["b", 0]], "f": ["call"]}
    g = kinds.framework_globals(names, program, "", judge.namespace)
    assert g["__builtins__"] is builtins and "__test__" not in g and callable(g["f"])
    assert "__test__" not in vars(sys.modules["solution"])


# pandas checks categories (and MultiIndex levels) for uniqueness in one C loop, quadratic when
# the values share a hash; no Python-level timer interrupts it
CRAFT_CAT = """import sys, base64
_w = sys.modules["wire"]
_enc = _w.encode
M = 2**61 - 1
def _crafted(x, *a, **k):
    if type(x) is str and x == "CAT":
        cats = ["P", "plain", ["N"], ["ao", [300_000], [["i", format(k * M + 1, "x")] for k in range(300_000)]], None]
        codes = ["a", "<i8", [1], base64.b64encode(bytes(8)).decode()]
        return ["R", ["N"], ["P", "range", ["N"], [0, 1, 1]], ["cat", cats, codes, False]]
    return _enc(x, *a, **k)
_w.encode = _crafted
def task_func(x):
    return "CAT"
"""


@pytest.mark.docker
def test_a_categorical_that_costs_quadratic_time_in_pandas_ends_the_judge_not_the_jobs_budget(any_grader):
    """Before: the judge sat in pandas' loop until the job's whole budget ran out (the job's
    wall-clock verdict); now its own CPU timer ends it, a failure of the program's."""
    tests = "import unittest\nclass T(unittest.TestCase):\n" + "".join(
        f"    def test_{i}(self):\n        self.assertEqual(task_func({i}), {i})\n" for i in range(12))
    r = any_grader.grade(bcb(CRAFT_CAT, tests, time_limit_s=1, scoring="fraction"))
    assert r["score"] == 0.0 and r["verdict"] in ("runtime_error", "time_limit"), r
    assert "wall-clock time limit exceeded" not in str(r["tests"]), r

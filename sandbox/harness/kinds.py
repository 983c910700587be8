"""Call-based tests and test files (pytest, unittest), run in the judge process (judge.py), never
in the program's interpreter. Standard library only, except pytest, imported when a task uses it.

Each test's result is one line on the result fd, `<nonce> {"test": {...}}`, written as soon as the
test ends (a job that runs out of time keeps the finished ones), then `<nonce> {"done": n}`. The host
(sandbox/job.py) reads only lines with the nonce and trusts no result without the "done" line.
docs/tasks.md "Task schema" and docs/sandboxes.md "How assert-style tests are judged" say what each kind means.
"""
from __future__ import annotations

import ast
import builtins
import importlib
import json
import os
import sys
import tempfile
import types

import wire

TYPE_CHECKING = False  # typing is not imported at run time: the judge's modules are the tests' too
if TYPE_CHECKING:
    from typing import Any

DETAIL = 300


class CallTimeout(BaseException):
    """A call ran past its time limit. A BaseException, so a test's `except Exception` (or
    `pytest.raises(Exception)`) cannot take a hung program for one that raised."""


class NotPlain(BaseException):
    """The program returned something that is not plain data: never equal to anything, and a
    wrong answer. A BaseException, so a test's `pytest.raises(Exception)` / `assertRaises`
    (or `except Exception:`) cannot take a returned iterator or object() for the error it expects."""


class Emitter:
    """The result lines, on an fd the program's process never holds."""

    def __init__(self, fd: int, nonce: bytes) -> None:
        self.fd, self.nonce, self.count, self.failed = fd, nonce, 0, 0

    def line(self, obj: dict) -> None:
        data = self.nonce + b" " + json.dumps(obj, separators=(",", ":")).encode() + b"\n"
        while data:
            data = data[os.write(self.fd, data):]

    def test(self, verdict: str, detail: str, time_s: float = 0.0, name: str = "") -> None:
        entry = {"verdict": verdict, "detail": detail[:DETAIL], "time_s": round(time_s, 4)}
        if name:
            entry["name"] = name[:200]
        self.count += 1
        self.failed += verdict != "accepted"
        self.line({"test": entry})

    def done(self) -> None:
        self.line({"done": self.count})


# ---------------------------------------------------------------- call-based tests

def short(x: object, n: int = 100) -> str:
    """repr, cut to n characters; never fails (an int of 10**5000 digits has no repr)."""
    try:
        text = repr(x)
    except ValueError:
        return f"<int of {x.bit_length()} bits>" if type(x) is int else "<value>"
    return text if len(text) <= n else text[:n] + "..."


def close(got: float, exp: float, tol: tuple[float, float]) -> bool:
    try:
        d = abs(float(got) - float(exp))
    except OverflowError:
        return False
    return d <= tol[0] or d <= tol[1] * abs(float(exp))


def same(got: Any, exp: Any, tol: tuple[float, float] | None) -> bool:
    """The expected JSON value against what the program returned (exact builtin types: wire.py).
    Tuples equal lists element-wise (JSON has no tuples); ints and floats compare by value, within
    `tol` (absolute, relative) when given, anywhere in nested values; bools are not numbers (True
    is not 1); dict keys must match exactly. (got and exp are Any to mypy: it does not narrow a value
    from `type(x) is ...` kept in a variable.)"""
    tg, te = type(got), type(exp)
    if tg is bool or te is bool:
        return tg is bool and te is bool and got == exp
    if te in (int, float):
        if tg not in (int, float):
            return False
        return close(got, exp, tol) if tol is not None and (tg is float or te is float) else got == exp
    if exp is None or te is str:
        return tg is te and got == exp
    if te is list:
        return tg in (list, tuple) and len(got) == len(exp) and all(same(a, b, tol) for a, b in zip(got, exp))
    if te is dict:
        return tg is dict and got.keys() == exp.keys() and all(same(got[k], exp[k], tol) for k in exp)
    return False


def run_calls(program, names: dict, spec: dict, emit: Emitter) -> None:
    """Each call test: entry_point(*args, **kwargs) against expected, a fresh Solution() per test
    for LeetCode-style programs, a fresh program process after one that timed out or died."""
    ep = spec["entry_point"]
    tol = (spec["abs_tol"], spec["rel_tol"]) if spec.get("compare") == "float" else None
    method = not _is_call(names.get(ep)) and _is_call(names.get("Solution"))
    missing = not _is_call(names.get(ep)) and not method
    for test in spec["calls"]:
        if missing:
            verdict, detail, secs = "runtime_error", f"the program defines no function {ep} (nor a class Solution with it)", 0.0
        else:
            verdict, detail, secs = one_call(program, ep, method, test, tol)
        emit.test(verdict, detail, secs)
        if verdict != "accepted" and spec.get("stop_first"):
            return  # scoring "all" (or stop_on_first_failure): the later calls cannot change the score


def _is_call(what: object) -> bool:
    return type(what) is list and bool(what) and what[0] == "call"


def one_call(program, ep: str, method: bool, test: dict, tol) -> tuple[str, str, float]:
    expected = test["expected"]
    try:
        got = program.call(ep, tuple(test["args"]), dict(test.get("kwargs") or {}), method=method)
    except CallTimeout as e:
        return "time_limit", str(e), program.last_s
    except wire.WireError as e:
        return "runtime_error", f"the program's process ended during the call ({e})", program.last_s
    except NotPlain as e:
        return "wrong_answer", str(e), program.last_s
    except Exception as e:  # noqa: BLE001 - the program's exception, by builtin type
        return "runtime_error", f"{type(e).__name__}: {e}", program.last_s
    if same(got, expected, tol):
        return "accepted", "", program.last_s
    return "wrong_answer", f"expected {short(expected)}, got {short(got)}", program.last_s


# ---------------------------------------------------------------- test files

def verdict_of(exc: BaseException | None) -> tuple[str, str]:
    """A failed test's verdict from its exception: an assert is a wrong answer, a call past its
    limit a time limit, anything else (the program's exception, its process ending) a runtime error."""
    if isinstance(exc, CallTimeout):
        return "time_limit", str(exc)
    if isinstance(exc, (AssertionError, NotPlain)):
        return "wrong_answer", f"{type(exc).__name__}: {exc}"
    if isinstance(exc, wire.WireError):
        return "runtime_error", f"the program's process ended ({exc})"
    return "runtime_error", f"{type(exc).__name__}: {exc}" if exc else "failed"


def solution_module(g: dict) -> types.ModuleType:
    """`solution` as the test file imports it: the program's names as the judge sees them
    (functions are proxies, constants plain data, standard-library modules imported again)."""
    mod = types.ModuleType("solution")
    mod.__dict__.update({k: v for k, v in g.items() if not k.startswith("__")})
    # `from solution import *` takes no builtin's name (see framework_globals); an explicit
    # `from solution import max` still gets the program's max
    mod.__all__ = [k for k in mod.__dict__ if not k.startswith("_") and not hasattr(builtins, k)]  # type: ignore[attr-defined]  # a module's own
    return mod


def run_unittest(test_code: bytes, g: dict, emit: Emitter, stop_first: bool = False) -> None:
    """The test file's TestCase classes, loaded from memory (never from a file the program could
    read or rewrite), one result per test method (and per failing subTest's test)."""
    import unittest

    mod = types.ModuleType("tests")
    mod.__dict__.update(g)
    mod.__name__ = "tests"  # not __main__: a file's own `unittest.main()` must not run (and exit) here
    sys.modules["tests"] = mod  # unittest finds setUpModule / tearDownModule there (else never run)
    try:
        exec(compile(test_code, "tests.py", "exec"), mod.__dict__)  # noqa: S102 - the task's tests: trusted
    except BaseException as e:  # noqa: BLE001 - importing solution failed, the program died, ...
        emit.line({"load_error": verdict_of(e)[1][:DETAIL]})
        return
    suite = unittest.TestLoader().loadTestsFromModule(mod)
    result = Results(emit)
    result.stop_first = stop_first
    result.covered = fixture_counts(suite)
    suite.run(result)


def fixture_counts(suite) -> dict[str, int]:
    """How many tests each class (and module) holds, by the name unittest gives a failed
    setUpClass (`setUpClass (tests.A)`): those tests never run, and each counts as failed. One
    line for all of them let a program fail a class of 10 tests for the price of 1 (fraction
    scoring)."""
    from unittest.util import strclass

    counts: dict[str, int] = {}
    todo = [suite]
    while todo:
        t = todo.pop()
        if hasattr(t, "_testMethodName"):
            for key in (strclass(type(t)), type(t).__module__):
                counts[key] = counts.get(key, 0) + 1
        elif hasattr(t, "__iter__"):
            todo.extend(t)
    return counts


def _unittest_name(test) -> str:
    tid = test.id()
    return tid.removeprefix("tests.")


def make_results() -> type:  # noqa: C901 - a class built here so only a judge of unittest files imports unittest; its methods are unittest's protocol
    """The unittest result class: outcomes per test (a failing subTest fails its test), one line each."""
    import time
    import unittest

    class Results(unittest.TestResult):
        failed: tuple[str, str] | None  # the current test's verdict; None while it passes

        def __init__(self, emit: Emitter) -> None:
            super().__init__()
            self.emit, self.failed, self.t0 = emit, None, 0.0

        def startTest(self, test) -> None:
            super().startTest(test)
            self.failed, self.t0 = None, time.monotonic()

        def _fail(self, err) -> None:
            if self.failed is None:
                self.failed = verdict_of(err[1] if err else None)

        def addFailure(self, test, err) -> None:
            self._fail(err)

        def addError(self, test, err) -> None:
            if not hasattr(test, "_testMethodName"):  # a class or module fixture failed
                what, _, parent = str(test).partition(" (")
                covered = getattr(self, "covered", {})
                n = covered.get(parent.rstrip(")"), 1) if what in ("setUpClass", "setUpModule") else 1
                for _ in range(max(1, n)):  # each test it kept from running counts as failed
                    self.emit.test(*verdict_of(err[1]), 0.0, name=str(test))
                return
            self._fail(err)

        def addSubTest(self, test, subtest, err) -> None:
            if err is not None:
                self._fail(err)

        def addUnexpectedSuccess(self, test) -> None:
            self.failed = ("wrong_answer", "unexpected success of a test marked expectedFailure")

        def addSkip(self, test, reason) -> None:
            self.failed = ("skipped", reason)

        def stopTest(self, test) -> None:
            super().stopTest(test)
            if self.failed is not None and self.failed[0] == "skipped":
                return  # not run: neither passed nor failed
            verdict, detail = self.failed or ("accepted", "")
            self.emit.test(verdict, detail, time.monotonic() - self.t0, name=_unittest_name(test))
            if verdict != "accepted" and getattr(self, "stop_first", False):
                self.stop()  # scoring "all": the later tests cannot change the score

    return Results


def Results(emit: Emitter):  # noqa: N802 - built on first use: unittest is imported only when needed
    return make_results()(emit)


def run_pytest(test_code: bytes, g: dict, emit: Emitter, stop_first: bool = False) -> None:
    """pytest in the judge: the test file is compiled from memory with pytest's assert rewriting
    and given to pytest as the module of this (read-only) file, so nothing the program can write
    (a file in /work or /tmp, a conftest.py, an ini file, a plugin) is ever read; one result per
    collected test from the report hooks."""
    os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    import pytest
    from _pytest.assertion.rewrite import rewrite_asserts

    class InMemory(pytest.Module):
        def _getobj(self):
            mod = types.ModuleType("test_solution")
            mod.__file__ = str(self.path)
            mod.__dict__.update(g)
            mod.__name__ = "test_solution"
            tree = ast.parse(test_code, "test_solution.py")
            rewrite_asserts(tree, test_code, str(self.path), self.config)
            exec(compile(tree, "test_solution.py", "exec"), mod.__dict__)  # noqa: S102 - trusted tests
            return mod

    class Plugin:
        def __init__(self) -> None:
            self.exc: dict[str, BaseException | None] = {}
            self.state: dict[str, tuple[str, str] | None] = {}
            self.time: dict[str, float] = {}
            self.order: list[str] = []

        @pytest.hookimpl(tryfirst=True)
        def pytest_pycollect_makemodule(self, module_path, parent):
            return InMemory.from_parent(parent, path=module_path)

        def pytest_collectreport(self, report) -> None:
            if report.failed:
                emit.line({"load_error": str(report.longrepr)[-DETAIL:]})

        @pytest.hookimpl(hookwrapper=True)
        def pytest_runtest_makereport(self, item, call):
            if call.excinfo is not None and item.nodeid not in self.exc:
                self.exc[item.nodeid] = call.excinfo.value
            yield

        def pytest_runtest_logreport(self, report) -> None:
            nid = report.nodeid
            if nid not in self.state:
                self.state[nid], self.time[nid] = None, 0.0
                self.order.append(nid)
            self.time[nid] += report.duration
            if report.skipped and report.when != "call" or report.skipped and self.state[nid] is None:
                self.state[nid] = ("skipped", "")
            elif report.failed and (self.state[nid] is None or self.state[nid][0] == "skipped"):  # type: ignore[index]  # not None: checked first
                self.state[nid] = verdict_of(self.exc.get(nid))
            if report.when == "teardown":
                self.finish(nid)

        def finish(self, nid: str) -> None:
            state = self.state.get(nid)
            if state is not None and state[0] == "skipped":
                return
            verdict, detail = state or ("accepted", "")
            emit.test(verdict, detail, self.time.get(nid, 0.0), name=nid.partition("::")[2] or nid)

    here = os.path.abspath(__file__)
    # tmp_path's root, given: pytest refuses the one it makes (/tmp/pytest-of-USER) when its owner,
    # the effective uid (the program's), is not the real uid (the judge's: judge.py keep_apart)
    basetemp = os.path.join(tempfile.mkdtemp(prefix="pytest-"), "tmp")
    pytest.main([here, "-q", "-s", "-p", "no:cacheprovider", "--noconftest", "--rootdir",
                 os.path.dirname(here), "-o", "python_files=*.py", "-W", "ignore", "--basetemp", basetemp,
                 *(["-x"] if stop_first else [])],
                plugins=[Plugin()])


def forward_seeds(program, tests: bytes) -> None:
    """BigCodeBench's tests seed the global RNG (`random.seed(42)`, `np.random.seed(0)`) and then
    compare what task_func draws: where the test runs in the program's module, that seed is the
    program's. Here the judge's random.seed and numpy.random.seed (wrapped when the test file names
    them) seed the program's process too (serve.SEEDS). Seeding alone never counts as the tests
    reaching the program."""
    for text, module in ((b"random.seed", "random"), (b"np.random.seed", "numpy.random"),
                         (b"numpy.random.seed", "numpy.random")):
        if text not in tests:
            continue
        try:
            mod = importlib.import_module(module)
        except ImportError:
            continue
        if getattr(mod.seed, "forwards", False):
            continue

        def seed(*args, _own=mod.seed, _name=f"{module}.seed", **kwargs):
            _own(*args, **kwargs)
            used = program.used
            program.call(_name, args, kwargs)
            program.used = used
        seed.forwards = True  # type: ignore[attr-defined]  # a function attribute: this seed forwards already
        mod.seed = seed  # type: ignore[attr-defined]  # mod is random or numpy.random, imported by name


# Module-level names unittest and pytest (7.x, with its nose plugin) call by themselves, with no
# test asking: never the program's. Red-team finding: a program defining `def setUpModule(): pass`
# was "reached" by the framework, so tests that never call it (any program passes them: infra_error,
# unpaid) accepted it and paid 1.0.
FRAMEWORK_NAMES = frozenset({"setUpModule", "tearDownModule", "load_tests", "setup_module", "teardown_module",
                             "setup_function", "teardown_function", "setup", "teardown", "pytest_generate_tests"})


def framework_globals(names: dict, program, entry_point: str, namespace) -> dict:
    """The test file's globals: the program's top-level names (BigCodeBench calls task_func without
    importing it), or only entry_point when the task gives one; `solution` is importable. Never a
    builtin's name: a program's `def abs(x): return 0` (or len, all, sorted) would answer for the
    builtin in the tests' `assert abs(f(1) - 2) < 1e-9` and any wrong program passed."""
    # nor a dunder (serve.describe sends none): a crafted hello set the tests' module's
    # __builtins__ or pytest's __test__ (red-team finding)
    names = {k: v for k, v in names.items() if k not in FRAMEWORK_NAMES and not k.startswith("__")}
    everything = set(names)
    g = namespace(program, names, (everything, everything))
    # only a call reaches the program here: its constants are handed over whether or not a test
    # reads them, and a wrong program defining `X = 1` passed tests that never call it (where any
    # other program got "tests that reach no function", infra_error)
    program.used = False
    sys.modules["solution"] = solution_module(g)
    if entry_point:
        return {k: v for k, v in g.items() if k == entry_point or k.startswith("__")}
    return {k: v for k, v in g.items() if k.startswith("__") or not hasattr(builtins, k)}

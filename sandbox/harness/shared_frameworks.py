"""Test files (pytest, unittest) in shared mode (judge="shared"): the program is the real module
`solution` in the judge's own interpreter, for tests that need its objects (BigCodeBench: DataFrames,
plots). Imported by shared.py before the program runs; residual risks: README.md ("How assert-style
tests are judged").

`prepare` runs before the program: it imports the framework and the modules the test file imports,
takes a snapshot of the framework's module and class dictionaries, and returns `run`, which shared.py
calls under its audit hook. Result lines are `<nonce> {...}` on the result fd, written with
functions saved in closures before the program ran, so patching json, os or this module changes
nothing; before each result the snapshot is checked, and a test during which the program changed the
framework (unittest.case._Outcome, TestCase.assertEqual, pytest's runner...) is not accepted. The
test file never exists on disk (pytest gets it as the module of this read-only file), and its
asserts are strict (shared.py's rewrite: plain data compared, pinned builtins). unittest's assert
methods refuse values whose class the program defined (an object whose __eq__ is always True).
"""
import ast
import builtins
import os
import sys
import time
import types

FRAMEWORK_PREFIXES = ("unittest", "_pytest", "pytest", "pluggy", "iniconfig", "json", "types", "time",
                      "shared_frameworks", "builtins")


def _test_imports(tests):
    """Top-level module names the test file imports (not `solution`)."""
    try:
        tree = ast.parse(tests)
    except SyntaxError:
        return []
    names = []
    for n in ast.walk(tree):
        if type(n) is ast.Import:
            names += [a.name for a in n.names]
        elif type(n) is ast.ImportFrom and n.level == 0 and n.module:
            names.append(n.module)
    return [m for m in names if m.partition(".")[0] != "solution"]


def prepare(kind, tests, nonce, fd, write, strict_compile):
    """Everything that must exist before the program runs; returns run(prog_code)."""
    import json
    import importlib
    dumps, ModuleType, modules, exec_, monotonic = json.dumps, types.ModuleType, sys.modules, exec, time.monotonic
    type_, id_, isinstance_, str_ = type, id, isinstance, str
    class_dict = type.__dict__["__dict__"].__get__
    BE, AE = BaseException, AssertionError
    if kind == "pytest":
        os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
        import pytest  # noqa: F401
        import _pytest.python  # noqa: F401
        import _pytest.runner  # noqa: F401
        import _pytest.reports  # noqa: F401
        import _pytest.main  # noqa: F401
    import unittest
    import unittest.case  # noqa: F401
    import unittest.loader  # noqa: F401
    import unittest.result  # noqa: F401
    issubclass_ = issubclass
    for name in _test_imports(tests):  # the test's own tools, genuine before the program runs
        try:
            importlib.import_module(name)
        except BaseException:  # noqa: BLE001 - not installed, or failing: the test file will say so
            pass
    known = {id_(t) for t in vars(builtins).values() if isinstance_(t, type)}
    for mod in list(modules.values()):
        for v in list(getattr(mod, "__dict__", {}).values()):
            if isinstance_(v, type):
                known.add(id_(v))
    state = {"count": 0, "changed": ""}
    pristine = dict(vars(builtins))  # the tests' builtins: the program may patch the module's

    def snapshot():
        out = []
        for name, mod in list(modules.items()):
            if not isinstance_(name, str_) or not name.startswith(FRAMEWORK_PREFIXES):
                continue
            d = getattr(mod, "__dict__", None)
            if type_(d) is not dict:
                continue
            out.append((name, d.get, dict(d)))
            for k, v in list(d.items()):
                if isinstance_(v, type):
                    cd = class_dict(v)
                    out.append((name + "." + k, cd.get, dict(cd)))
        return out

    VOLATILE = frozenset(("_reprcompare", "_assertion_pass", "_config", "__warningregistry__"))

    def changed():
        if state["changed"]:
            return state["changed"]
        for name, get, copy in snap:
            for k, v in copy.items():
                if get(k, MISSING) is not v and k not in VOLATILE:
                    state["changed"] = name + "." + str_(k)
                    return state["changed"]
        return ""

    MISSING = object()

    def line(obj):
        data = nonce + b" " + dumps(obj, separators=(",", ":")).encode() + b"\n"
        while data:
            data = data[write(fd, data):]

    def emit(verdict, detail, secs, name):
        bad = changed()
        if bad:
            verdict, detail = "runtime_error", "the program changed the test framework: " + bad
        state["count"] += 1
        line({"test": {"verdict": verdict, "detail": str_(detail)[:300], "time_s": round(secs, 4),
                       "name": str_(name)[:200]}})

    def program_defined(x, depth=0):
        # a value of a class the program defined (anything not known before it ran), anywhere in
        # builtin containers: its __eq__ or __bool__ would decide the assert
        if depth > 100:
            return True
        t = type_(x)
        if t in (list, tuple, set, frozenset):
            return any(program_defined(e, depth + 1) for e in x)
        if t is dict:
            return any(program_defined(k, depth + 1) or program_defined(v, depth + 1) for k, v in x.items())
        return id_(t) not in known

    def verdict_of(e):
        if isinstance_(e, AE):
            return "wrong_answer", type_(e).__name__ + ": " + str_(e)
        return "runtime_error", type_(e).__name__ + ": " + str_(e)

    def strict(method):
        def check(self, *args, **kwargs):
            for a in args + tuple(kwargs.values()):
                if program_defined(a):
                    raise AE("a value in the assert is of a class the program defined")
            return method(self, *args, **kwargs)
        return check

    TestCase = unittest.TestCase
    for attr in [a for a in vars(TestCase) if a.startswith("assert") and not a.startswith("assertRaises")
                 and not a.startswith("assertWarns") and not a.startswith("assertLogs")
                 and not a.startswith("assertNoLogs")]:
        setattr(TestCase, attr, strict(getattr(TestCase, attr)))
    TestLoader, TestResult, TestSuite = unittest.TestLoader, unittest.TestResult, unittest.TestSuite
    code = strict_compile(tests) if kind == "pytest" else compile(tests, "tests.py", "exec")

    class Results(TestResult):
        def startTest(self, test):
            TestResult.startTest(self, test)
            self.failed, self.t0 = None, monotonic()

        def _fail(self, err):
            if self.failed is None:
                self.failed = verdict_of(err[1])

        def addFailure(self, test, err):
            self._fail(err)

        def addError(self, test, err):
            if not hasattr(test, "_testMethodName"):
                emit(*verdict_of(err[1]), 0.0, str_(test))
                return
            self._fail(err)

        def addSubTest(self, test, subtest, err):
            if err is not None:
                self._fail(err)

        def addUnexpectedSuccess(self, test):
            self.failed = ("wrong_answer", "unexpected success")

        def addSkip(self, test, reason):
            self.failed = ("skipped", reason)

        def stopTest(self, test):
            TestResult.stopTest(self, test)
            if self.failed is not None and self.failed[0] == "skipped":
                return
            verdict, detail = self.failed or ("accepted", "")
            emit(verdict, detail, monotonic() - self.t0, test.id().removeprefix("tests."))

    snap = []

    def load(prog_code):
        # the framework as it is now (pytest has started: its own changes are done) is what the
        # program must leave alone
        snap[:] = snapshot()
        sol = ModuleType("solution")
        sol.__file__ = "prog.py"
        modules["solution"] = sol
        exec_(prog_code, sol.__dict__)  # the program, as the module `solution`
        return {k: v for k, v in sol.__dict__.items() if not k.startswith("__")}

    def run_unittest(g):
        mod = ModuleType("tests")
        mod.__dict__.update(g)
        mod.__name__, mod.__builtins__ = "tests", pristine
        exec_(code, mod.__dict__)
        loader, suite = TestLoader(), TestSuite()
        for name, obj in list(mod.__dict__.items()):  # the file's own TestCases, never the program's
            if isinstance_(obj, type) and issubclass_(obj, TestCase) and g.get(name, MISSING) is not obj:
                suite.addTests(loader.loadTestsFromTestCase(obj))
        suite.run(Results())

    def run_pytest(prog_code):
        import pytest
        here = os.path.abspath(__file__)
        got = {"ok": False}

        injected = {}

        class InMemory(pytest.Module):
            def _getobj(self):
                g = load(prog_code)
                injected.update(g)  # after pytest's own start-up: it imports nothing the program planted
                mod = ModuleType("test_solution")
                mod.__dict__.update(g)
                mod.__name__, mod.__file__, mod.__builtins__ = "test_solution", here, pristine
                exec_(code, mod.__dict__)
                got["ok"] = True
                return mod

        class Plugin:
            def __init__(self):
                self.exc, self.state, self.time = {}, {}, {}

            @pytest.hookimpl(tryfirst=True)
            def pytest_pycollect_makemodule(self, module_path, parent):
                return InMemory.from_parent(parent, path=module_path)

            @pytest.hookimpl(tryfirst=True)
            def pytest_pycollect_makeitem(self, collector, name, obj):
                if injected.get(name, MISSING) is obj:
                    return []  # the program's own test_* functions and Test* classes are not the file's tests
                return None

            def pytest_collectreport(self, report):
                if report.failed:
                    line({"load_error": str_(report.longrepr)[-300:]})

            @pytest.hookimpl(tryfirst=True)
            def pytest_runtest_makereport(self, item, call):
                # our own report: pytest's would render the traceback's frames, which the audit
                # hook refuses (the program must not reach a frame)
                from _pytest.reports import TestReport
                outcome, longrepr, exc = "passed", None, call.excinfo.value if call.excinfo else None
                if exc is not None:
                    if isinstance_(exc, pytest.skip.Exception):
                        outcome, longrepr = "skipped", ("", 0, str_(exc))
                    else:
                        outcome, longrepr = "failed", type_(exc).__name__ + ": " + str_(exc)[:300]
                        self.exc.setdefault(item.nodeid, exc)
                return TestReport(nodeid=item.nodeid, location=item.location, keywords={}, outcome=outcome,
                                  longrepr=longrepr, when=call.when, duration=call.duration)

            def pytest_runtest_logreport(self, report):
                nid = report.nodeid
                self.state.setdefault(nid, None)
                self.time[nid] = self.time.get(nid, 0.0) + report.duration
                if report.skipped and self.state[nid] is None:
                    self.state[nid] = ("skipped", "")
                elif report.failed and (self.state[nid] is None or self.state[nid][0] == "skipped"):
                    self.state[nid] = verdict_of(self.exc.get(nid) or AE("failed"))
                if report.when == "teardown" and (self.state[nid] or ("",))[0] != "skipped":
                    verdict, detail = self.state[nid] or ("accepted", "")
                    emit(verdict, detail, self.time[nid], nid.partition("::")[2] or nid)

        pytest.main([here, "-q", "-s", "-p", "no:cacheprovider", "--noconftest", "--rootdir",
                     os.path.dirname(here), "-W", "ignore", "--tb=no"], plugins=[Plugin()])

    def run(prog_code):
        try:
            if kind == "pytest":
                run_pytest(prog_code)
            else:
                run_unittest(load(prog_code))
        except BE as e:  # noqa: BLE001 - the program failed at import (or exited): its runtime error
            line({"load_error": type_(e).__name__ + ": " + str_(e)[:300]})
        line({"done": state["count"]})

    return run

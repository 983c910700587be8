"""unittest files in shared mode (judge="shared", test_framework="unittest"): the program is the real
module `solution` in the judge's own interpreter, for tests that need its objects (BigCodeBench:
DataFrames, plots). Used by shared.py before the program runs; residual risks: README.md ("How
assert-style tests are judged").

In one interpreter the program can reach any object that a class or module refers to (a class's
subclasses, a function's closure cells, a module's globals) and change it, so nothing that decides
a verdict may be reachable that way: the nonce, the result fd and the writing of result lines stay
in shared.py's frame (frames are refused by its audit hook); results are kept on a TestResult
instance only that frame holds; the framework (unittest's module and class dictionaries, the
closure cells of their functions, and the result class here) is compared with a snapshot taken
before the program ran, by functions only that frame holds, and if anything changed no test
passes. unittest's assert methods refuse values of classes the program defined (an always-true
__eq__), a skipped test counts as failed (the program could raise SkipTest), the tests get the
builtins as they were before the program ran, and only the test file's own TestCases run.

pytest files always run in the process judge (sandbox/spec.py refuses judge="shared" for them):
pytest keeps its configuration and plugins reachable from module globals, so a program sharing
its interpreter could reach the plugin that records outcomes.
"""
import ast
import builtins
import sys
import time
import types

# Modules whose dictionaries decide how unittest records an outcome: unittest itself, the context
# managers its test runs go through, and sys.exc_info / sys.exception (the only sys keys watched:
# programs legitimately rebind sys.stdout and the like).
WATCHED = ("unittest", "shared_frameworks", "contextlib")
SYS_KEYS = ("exc_info", "exception")


GUARD = "__verifier_guard__"  # a name no test file uses; the tests' globals are watched


class _GuardOperands(ast.NodeTransformer):
    """Every operand of an ==/!= comparison and every `assert` condition in the test file goes
    through GUARD, which refuses a value of a class the program defined: the program's always-true
    __eq__ (or __bool__) decided `self.assertTrue(f(x) == y)` and a plain `assert f(x) == y`, which
    the assert methods' own check never saw (they received True)."""

    def _wrap(self, node):
        return ast.copy_location(ast.Call(ast.Name(GUARD, ast.Load()), [node], []), node)

    def visit_Compare(self, node):
        self.generic_visit(node)
        if any(type(op) in (ast.Eq, ast.NotEq) for op in node.ops):
            node.left = self._wrap(node.left)
            node.comparators = [self._wrap(c) for c in node.comparators]
        return node

    def visit_Assert(self, node):
        self.generic_visit(node)
        node.test = self._wrap(node.test)
        return node


def _guarded(tests):
    """The test file compiled with its comparisons and assert conditions guarded."""
    tree = _GuardOperands().visit(ast.parse(tests, "tests.py"))
    return compile(ast.fix_missing_locations(tree), "tests.py", "exec")


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


def make_checker():
    """(snapshot, changed): what the watched modules and classes hold now, and the first thing that
    differs later. Closures over builtins read now; no state of their own (the caller holds it)."""
    isinstance_, type_, str_, list_, dict_, getattr_, id_ = isinstance, type, str, list, dict, getattr, id
    class_dict = type.__dict__["__dict__"].__get__
    mro_of = type.__dict__["__mro__"].__get__
    BUILTIN_NAMES = frozenset(vars(builtins))  # read before the program runs
    callable_, hasattr_, tuple_, len_, any_, zip_ = callable, hasattr, tuple, len, any, zip
    function, sm, cm = types.FunctionType, staticmethod, classmethod
    MISSING = object()

    def add_cells(label, f, cells, seen, depth=0):
        # a function's defaults and closure cells, and those of the functions in its cells
        if isinstance_(f, (sm, cm)):
            f = f.__func__
        if type_(f) is not function or id_(f) in seen or depth > 20:
            return
        seen.add(id_(f))
        cells.append((label + ".__defaults__", f, "d", f.__defaults__))
        cells.append((label + ".__kwdefaults__", f, "k", f.__kwdefaults__))
        for cell in f.__closure__ or ():
            try:
                v = cell.cell_contents
            except ValueError:
                continue
            cells.append((label + " (closure)", cell, "c", v))
            add_cells(label, v, cells, seen, depth + 1)

    def snapshot(modules, classes, extra=()):
        dicts, cells, seen, grown = [], [], set(), []
        for name, d in extra:
            dicts.append((name, d.get, dict_(d)))
            grown.append((name, None, d, dict_(d), ()))
        sys_ = modules.get("sys")
        dicts.append(("sys", sys_.__dict__.get, {k: sys_.__dict__[k] for k in SYS_KEYS if k in sys_.__dict__}))
        for name, mod in list_(modules.items()):
            if not isinstance_(name, str_) or not name.startswith(WATCHED):
                continue
            d = getattr_(mod, "__dict__", None)
            if type_(d) is not dict_:
                continue
            dicts.append((name, d.get, dict_(d)))
            grown.append((name, None, d, dict_(d), ()))  # `unittest.case.getattr = ...` hides the builtin
            for k, v in list_(d.items()):
                if isinstance_(v, type_):
                    classes = classes + (v,)
                else:
                    add_cells(name + "." + str_(k), v, cells, seen)
        for cls in classes:
            cd = class_dict(cls)
            label = getattr_(cls, "__qualname__", "class")
            dicts.append((label, cd.get, dict_(cd)))
            grown.append((label, cls, cd, dict_(cd), tuple_(mro_of(cls))))
            for k, v in list_(cd.items()):
                add_cells(label + "." + str_(k), v, cells, seen)
        return dicts, cells, grown

    def grew(grown):
        # A class whose bases were swapped (`T.__bases__ = (Fake,)`), or that gained a method
        # shadowing one it inherited (`T.run = ...` from inside task_func, through
        # TestCase.__subclasses__()): the later tests ran the program's run() and passed. Data
        # a setUpClass stores (cls.df = ...) is neither.
        for label, cls, cd, copy, mro in grown:
            if cls is None:  # a module's or the tests' globals: a new name hiding a builtin (`len`)
                for k in list_(cd.keys()):
                    if k not in copy and k in BUILTIN_NAMES:
                        return label + "." + str_(k) + " (added)"
                continue
            now = tuple_(mro_of(cls))
            if len_(now) != len_(mro) or any_(a is not b for a, b in zip_(now, mro)):
                return label + ".__bases__"
            for k in list_(cd.keys()):
                if k in copy:
                    continue
                v = cd.get(k)
                if not (callable_(v) or hasattr_(type_(v), "__get__")):
                    continue
                if any_(k in class_dict(base) for base in mro[1:]):
                    return label + "." + str_(k) + " (added)"
        return ""

    def changed(snap):
        dicts, cells, grown = snap
        added = grew(grown)
        if added:
            return added
        for name, get, copy in dicts:
            for k, v in copy.items():
                if get(k, MISSING) is not v:
                    return name + "." + str_(k)
        for label, obj, what, v in cells:
            if what == "c":
                try:
                    now = obj.cell_contents
                except ValueError:
                    now = MISSING
            else:
                now = obj.__defaults__ if what == "d" else obj.__kwdefaults__
            if now is not v:
                return label
        return ""

    return snapshot, changed


def prepare(tests):
    """Everything that must exist before the program runs; returns run(prog_code) -> (results,
    load_error, changed): results are (verdict, detail, seconds, name) tuples."""
    import importlib
    import unittest
    import unittest.case  # noqa: F401
    import unittest.loader  # noqa: F401
    import unittest.result  # noqa: F401
    import unittest.suite  # noqa: F401
    for name in _test_imports(tests):  # the test's own tools, genuine before the program runs
        try:
            importlib.import_module(name)
        except BaseException:  # noqa: BLE001 - not installed, or failing: the test file will say so
            pass
    isinstance_, issubclass_, type_, id_, str_, tuple_, any_ = isinstance, issubclass, type, id, str, tuple, any
    ModuleType, modules, exec_, monotonic = types.ModuleType, sys.modules, exec, time.monotonic
    dict_ = dict
    set_ = types.ModuleType.__setattr__
    BE, AE = BaseException, AssertionError
    known = {id_(t) for t in vars(builtins).values() if isinstance_(t, type_)}
    for mod in list(modules.values()):
        for v in list(getattr(mod, "__dict__", {}).values()):
            if isinstance_(v, type_):
                known.add(id_(v))
    known = frozenset(known)  # reachable through the assert methods' closures: must not grow
    pristine = dict(vars(builtins))  # the tests' builtins: the program may patch the module's

    def program_defined(x, depth=0):
        # a value of a class the program defined (anything not known before it ran), anywhere in
        # builtin containers: its __eq__ or __bool__ would decide the assert
        if depth > 100:
            return True
        t = type_(x)
        if t in (list, tuple, set, frozenset):
            return any_(program_defined(e, depth + 1) for e in x)
        if t is dict:
            return any_(program_defined(k, depth + 1) or program_defined(v, depth + 1) for k, v in x.items())
        if id_(t) not in known:
            return True
        return program_in_array(x, depth)

    def program_in_array(x, depth):
        # numpy / pandas values of object dtype hold arbitrary objects: `df == expected` on a frame
        # of the program's always-equal objects compared element-wise with their __eq__
        if not str_(getattr(type_(x), "__module__", "")).startswith(("numpy", "pandas")):
            return False
        vals = x.to_numpy() if hasattr(x, "to_numpy") else x
        if getattr(getattr(vals, "dtype", None), "kind", "") != "O":
            return False
        flat = vals.ravel() if hasattr(vals, "ravel") else ()
        return len(flat) > 10**6 or any_(program_defined(e, depth + 1) for e in flat)

    def strict(method):
        def check(self, *args, **kwargs):
            for a in args + tuple_(kwargs.values()):
                if program_defined(a):
                    raise AE("a value in the assert is of a class the program defined")
            return method(self, *args, **kwargs)
        return check

    TestCase, TestLoader, TestResult, TestSuite = unittest.TestCase, unittest.TestLoader, unittest.TestResult, unittest.TestSuite
    for attr in [a for a in vars(TestCase) if a.startswith("assert") and not a.startswith(
            ("assertRaises", "assertWarns", "assertLogs", "assertNoLogs"))]:
        setattr(TestCase, attr, strict(getattr(TestCase, attr)))
    # A test part that raises _ShouldStop ends "successfully" (unittest swallows it: it is how
    # subTest stops under failfast, which never applies here): a program raising it from the
    # function under test passed every test. `except ():` catches nothing, so the class (still
    # reachable through Exception.__subclasses__()) is now an error like any other; the module
    # dict is watched, so the program cannot put it back.
    unittest.case._ShouldStop = ()

    def verdict_of(e):
        kind = "wrong_answer" if isinstance_(e, AE) else "runtime_error"
        return kind, type_(e).__name__ + ": " + str_(e)[:300]

    class Results(TestResult):
        """Outcomes on the instance (which only the frame running the tests holds)."""

        def startTest(self, test):
            TestResult.startTest(self, test)
            self.failed, self.t0 = None, monotonic()

        def _fail(self, err):
            if self.failed is None:
                self.failed = verdict_of(err[1])

        def addFailure(self, test, err):
            self._fail(err)

        def addError(self, test, err):
            if not hasattr(test, "_testMethodName"):  # setUpClass / setUpModule failed: one line for it
                self.out.append((*verdict_of(err[1]), 0.0, str_(test)))
                return
            self._fail(err)

        def addSubTest(self, test, subtest, err):
            if err is not None:
                self._fail(err)

        def addUnexpectedSuccess(self, test):
            self.failed = ("wrong_answer", "unexpected success")

        def addSkip(self, test, reason):  # the program may raise SkipTest for a test it would fail
            self.failed = ("runtime_error", "skipped (the program shares the interpreter): " + str_(reason)[:200])

        def stopTest(self, test):
            TestResult.stopTest(self, test)
            verdict, detail = self.failed or ("accepted", "")
            self.out.append((verdict, detail, monotonic() - self.t0, test.id().removeprefix("tests.")))

    code = _guarded(tests)

    def guard(x):
        if program_defined(x):
            raise AE("a value compared or asserted is of a class the program defined")
        return x

    snapshot, changed = make_checker()
    # the builtins module too: unittest's own code reads getattr, isinstance... from it, and a
    # program's `builtins.getattr` returning a no-op for test_* names passed every test
    snap = snapshot(modules, (Results,), (("builtins", vars(builtins)),))

    def run(prog_code):
        sol = ModuleType("solution")
        sol.__file__ = "prog.py"
        modules["solution"] = sol
        loaded = dict_(modules)
        try:
            exec_(prog_code, sol.__dict__)  # the program, as the module `solution`
            modules["solution"] = sol  # the tests import this module, not one the program put there
            # nor a module the program swapped in (`sys.modules["unittest"] = fake` whose TestCase
            # has the program's run(): every test passed): each one loaded before it ran is put back
            for name, m in loaded.items():
                if modules.get(name) is not m:
                    modules[name] = m
            set_(sol, "__class__", ModuleType)  # nor a subclass of the program's (its own __setattr__)
            # never a builtin's name (a program's `def len(x): return 2` answering for the tests'
            # len); `from solution import *` neither: an explicit `from solution import max` still can
            g = {k: v for k, v in sol.__dict__.items() if not k.startswith("__") and k not in pristine}
            set_(sol, "__all__", [k for k in g if not k.startswith("_")])
            mod = ModuleType("tests")
            mod.__dict__.update(g)
            mod.__name__, mod.__builtins__ = "tests", pristine  # not __main__: its unittest.main() must not run
            mod.__dict__[GUARD] = guard
            exec_(code, mod.__dict__)
        except BE as e:  # noqa: BLE001 - the program failed at import (or exited): its runtime error
            return [], verdict_of(e)[1], changed(snap)
        loader, suite, result, own = TestLoader(), TestSuite(), Results(), ()
        result.out = []
        for name, obj in list(mod.__dict__.items()):  # the file's own TestCases, never the program's
            if isinstance_(obj, type_) and issubclass_(obj, TestCase) and g.get(name) is not obj:
                suite.addTests(loader.loadTestsFromTestCase(obj))
                own += (obj,)
        # the tests' globals, builtins and classes as the test file left them: the program reaches
        # them through a test method's __globals__ and must not change them either
        tests_snap = snapshot({"sys": modules["sys"]}, own, (("tests", mod.__dict__), ("builtins", pristine)))
        suite.run(result)
        return result.out, None, changed(snap) or changed(tests_snap)

    return run

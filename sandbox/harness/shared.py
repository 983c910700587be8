"""Shared-interpreter mode of assert-style tests (task field judge="shared"): the program and the
tests run in ONE interpreter, as HumanEval does, for tests that need the program's own objects.
Residual risks: README.md ("How assert-style tests are judged"). Runs as `python3 -I shared.py`.

Runs the program, then the task's asserts, in one interpreter (as HumanEval does). The nonce and
the tests come on stdin and are read before the program starts (never in env or on disk); the
verdict is "ok:<nonce>" on RESULT_FD, written with functions saved before the program ran, and
the tests run with a copy of builtins taken before it. While the program runs, an audit hook
(unreachable from Python once installed) blocks the ways to reach the nonce: frames (sys._getframe,
tb_frame, gi_frame...), tracing, gc, ctypes, code objects (marshal.loads of anything but the
image's own .pyc files), /proc, directory fds, symlinks, new processes and subinterpreters. It narrows, does not close, what one interpreter allows: see "Known limits" in
sandbox/__init__.py and README.md. The hook and everything it calls are locals (closure cells), so patching
builtins or modules cannot switch it off.

Strict asserts (compiled into the tests before the program runs): the program is untrusted, the
tests are not, and a model under RL learns to return an object whose __eq__ is always True (or a
subclass of int/str/list overriding it, __ne__, __lt__, __contains__, __sub__, __bool__...).
Inside assert statements the tests' AST is rewritten: every comparison (==, !=, <, <=, >, >=, in,
not in; chained ones lazily, as Python does), every arithmetic operator and the truth of a bare
value (`assert f(x)`, `assert not f(x)`, operands of and/or) call helpers that read both values as
plain data: exact int, float, complex, bool, str, bytes, None and lists, tuples, sets, frozensets,
dicts of them, at most 100 deep and 10**6 values ("..." % x is left alone: it formats). A subclass of int, float, str, list, tuple,
set, frozenset or dict counts as its builtin content, read from the builtin storage (int.__int__,
list.__iter__, dict.items...), so no method of the program runs and Counter, namedtuple or IntEnum
results compare as Python would. If one side is plain data and the other is not, the assert fails
(AssertionError, so `not` or != cannot turn it around); if neither is (tests comparing custom
objects), the original operator runs. A bare asserted value must be plain data (`assert f(x)`
with f returning a custom object or a re.Match fails). The helpers reach the code as constants
patched into the code objects (no name the program could rebind) and use only closure cells.
The tests run in the program's globals, so names they share are pinned the same way (everywhere
in the tests, not only in asserts): a builtin the tests load but never bind (abs, len, sorted,
isinstance...) is the builtin itself, and a module of PIN_MODULES the tests import (import math,
from math import isclose), and its attributes one level deep (math.isclose), are the objects read
before the program ran. Except the function under test, when it has a builtin's name: a builtin
whose every load is `f(literals)` as an asserted value or a comparison's left side, or a bare
name handed to a call statement (check(sum)), comes from the program.
"""
import ast
import builtins
import operator
import os
import sys
import types  # reads tb_frame when imported: before the hook
import warnings

# Stdlib extensions that run code outside this interpreter's audit hook (_xxsubinterpreters: a
# subinterpreter has no hook and shares the process's memory) or poke at the C API (_testcapi...).
BLOCKED_PREFIXES = ("_test", "_xx", "xxlimited", "xxsubtype", "_ctypes_test")


def _strict_asserts(tests, tag):
    """Compile the task's tests so that inside assert statements, comparisons, arithmetic and the
    truth of a bare value read plain data only: see this file's docstring."""
    type_, id_, issub, bool_, zip_, AE, TE = type, id, issubclass, bool, zip, AssertionError, TypeError
    int_, float_, str_, list_, dict_ = int, float, str, list, dict
    atoms = frozenset(map(id, (int, float, complex, bool, str, bytes, type(None))))
    as_int, as_float, as_str, items = int.__int__, float.__float__, str.__str__, dict.items
    seqs = ((list, list.__iter__), (tuple, tuple.__iter__), (set, set.__iter__), (frozenset, frozenset.__iter__))
    o = operator
    ops = {"==": o.eq, "!=": o.ne, "<": o.lt, "<=": o.le, ">": o.gt, ">=": o.ge, "is": o.is_, "is not": o.is_not,
           "in": lambda a, b: a in b, "not in": lambda a, b: a not in b, "+": o.add, "-": o.sub, "*": o.mul,
           "/": o.truediv, "//": o.floordiv, "%": o.mod, "**": o.pow, "@": o.matmul, "<<": o.lshift,
           ">>": o.rshift, "|": o.or_, "^": o.xor, "&": o.and_}
    NOT = object()
    PIN_MODULES = frozenset(("math", "cmath", "re", "collections", "itertools", "functools", "operator", "string",
                             "heapq", "bisect", "fractions", "decimal", "statistics", "random", "copy", "json"))
    LITERAL = frozenset((ast.Constant, ast.List, ast.Tuple, ast.Set, ast.Dict, ast.UnaryOp, ast.USub, ast.UAdd,
                         ast.Load))

    def data(x, depth, left):
        # x as exact builtin data, read from the builtin storage (no method of x runs); NOT if it is
        # anything else, deeper than 100 or over 10**6 values
        t = type_(x)
        left[0] -= 1
        if left[0] < 0 or depth > 100:
            return NOT
        if id_(t) in atoms:
            return x
        if issub(t, int_):  # bool has no subclasses: it is an atom
            return as_int(x)
        if issub(t, float_):
            return as_float(x)
        if issub(t, str_):
            return as_str(x)
        for base, raw_iter in seqs:
            if issub(t, base):
                out = []
                for e in raw_iter(x):
                    e = data(e, depth + 1, left)
                    if e is NOT:
                        return NOT
                    out.append(e)
                try:
                    return out if base is list_ else base(out)
                except TE:  # an unhashable element once plain
                    return NOT
        if issub(t, dict_):
            out = {}
            for k, v in items(x):
                k, v = data(k, depth + 1, left), data(v, depth + 1, left)
                if k is NOT or v is NOT:
                    return NOT
                try:
                    out[k] = v
                except TE:
                    return NOT
            return out
        return NOT

    def plain(a, b):
        # both as plain data; both unchanged if neither is; AssertionError if only one is
        da, db = data(a, 0, [1000000]), data(b, 0, [1000000])
        if da is NOT and db is NOT:
            return a, b
        if da is NOT or db is NOT:
            raise AE("a value in the assert is not plain data (exact int, float, str, list, dict...)")
        return da, db

    def cmp(op, a, b):
        a, b = plain(a, b)
        return ops[op](a, b)

    def chain(names, a, *thunks):
        for op, thunk in zip_(names, thunks):
            b = thunk()
            if op not in ("is", "is not"):
                a, b = plain(a, b)
            if not ops[op](a, b):
                return False
            a = b
        return True

    def truth(x):
        d = data(x, 0, [1000000])
        if d is NOT:
            raise AE("the asserted value is not plain data (exact bool, int, str, list...)")
        return bool_(d)

    helpers = {"<strict cmp " + tag: cmp, "<strict chain " + tag: chain, "<strict binop " + tag: cmp,
               "<strict truth " + tag: truth}
    CMP, CHAIN, BIN, TRUTH = helpers
    names = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=",
             ast.In: "in", ast.NotIn: "not in", ast.Is: "is", ast.IsNot: "is not", ast.Add: "+",
             ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%", ast.Pow: "**",
             ast.MatMult: "@", ast.LShift: "<<", ast.RShift: ">>", ast.BitOr: "|", ast.BitXor: "^",
             ast.BitAnd: "&"}

    def call(helper, *args):
        return ast.Call(func=ast.Constant(helper), args=list(args), keywords=[])

    class Ops(ast.NodeTransformer):
        def visit_Compare(self, node):
            self.generic_visit(node)
            ops_ = [names[type(op)] for op in node.ops]
            if all(op in ("is", "is not") for op in ops_):
                return node
            if len(ops_) == 1:
                return call(CMP, ast.Constant(ops_[0]), node.left, node.comparators[0])
            none = ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[], defaults=[])
            return call(CHAIN, ast.Constant(tuple(ops_)), node.left,
                        *[ast.Lambda(args=none, body=c) for c in node.comparators])

        def visit_BinOp(self, node):
            self.generic_visit(node)
            if (type(node.op) is ast.Mod and type(node.left) is ast.Constant and type(node.left.value) in (str, bytes)
                    and node.left.value not in helpers):
                return node  # "%s" % x formats, it does not compare
            return call(BIN, ast.Constant(names[type(node.op)]), node.left, node.right)

    def truth_of(e):
        if type(e) is ast.BoolOp:
            e.values = [truth_of(v) for v in e.values]
            return e
        if type(e) is ast.UnaryOp and type(e.op) is ast.Not:
            e.operand = truth_of(e.operand)
            return e
        if type(e) in (ast.Constant, ast.Compare) or (type(e) is ast.Call and type(e.func) is ast.Constant
                                                      and e.func.value in (CMP, CHAIN)):
            return e
        return call(TRUTH, e)

    class Asserts(ast.NodeTransformer):
        def visit_Assert(self, node):
            node.test = truth_of(Ops().visit(node.test))
            return node

    def literal(e):
        return all(type(x) in LITERAL for x in ast.walk(e))

    def entry_names(tree):
        # Name nodes that are the function under test: f(literals) as an asserted value or a
        # comparison's left side, or a bare name handed to a test's call statement (check(f))
        out = set()
        for n in ast.walk(tree):
            if type(n) is ast.Expr and type(n.value) is ast.Call:
                out.update(id(a) for a in n.value.args + [k.value for k in n.value.keywords] if type(a) is ast.Name)
            if type(n) is not ast.Assert:
                continue
            todo = [n.test]
            while todo:
                e = todo.pop()
                if type(e) is ast.BoolOp:
                    todo.extend(e.values)
                    continue
                if type(e) is ast.UnaryOp and type(e.op) is ast.Not:
                    todo.append(e.operand)
                    continue
                e = e.left if type(e) is ast.Compare else e
                if type(e) is ast.Call and type(e.func) is ast.Name and all(
                        literal(a) for a in e.args + [k.value for k in e.keywords]):
                    out.add(id(e.func))
        return out

    def pins(tree):
        # name -> the object every load of it in the tests must get: a builtin the tests do not bind
        # (unless it is the function under test), or a module / module attribute the tests import
        # from PIN_MODULES and bind to that name only; read now, before the program runs
        binds, loads, bi = {}, {}, builtins.__dict__
        for n in ast.walk(tree):
            t = type(n)
            if t is ast.Name:
                (loads if type(n.ctx) is ast.Load else binds).setdefault(n.id, []).append(n if type(n.ctx) is ast.Load else NOT)
            elif t in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
                binds.setdefault(n.name, []).append(NOT)
            elif t is ast.arg:
                binds.setdefault(n.arg, []).append(NOT)
            elif t in (ast.ExceptHandler, ast.MatchAs, ast.MatchStar) and n.name:
                binds.setdefault(n.name, []).append(NOT)
            elif t is ast.MatchMapping and n.rest:
                binds.setdefault(n.rest, []).append(NOT)
            elif t in (ast.Global, ast.Nonlocal):
                for name in n.names:
                    binds.setdefault(name, []).append(NOT)
            elif t is ast.Import:
                for a in n.names:
                    mod = __import__(a.name) if a.name in PIN_MODULES else NOT
                    binds.setdefault((a.asname or a.name).partition(".")[0], []).append(mod)
            elif t is ast.ImportFrom:
                mod = __import__(n.module) if n.level == 0 and n.module in PIN_MODULES else NOT
                for a in n.names:
                    binds.setdefault(a.asname or a.name, []).append(getattr(mod, a.name, NOT))
        out = {}
        for name, vals in binds.items():
            if vals[0] is not NOT and all(v is vals[0] for v in vals):
                out[name] = vals[0]
        entry = entry_names(tree)
        for name, nodes in loads.items():
            if (name in bi and name not in binds and not name.startswith("__")
                    and not all(id(n) in entry for n in nodes)):
                out[name] = bi[name]
        return out

    class Pin(ast.NodeTransformer):
        def __init__(self, pinned):
            self.pinned = pinned

        def const(self, value):
            key = "<strict pin " + tag + " " + str(len(helpers))
            helpers[key] = value
            return ast.Constant(key)

        def visit_Name(self, node):
            if type(node.ctx) is ast.Load and node.id in self.pinned:
                return ast.copy_location(self.const(self.pinned[node.id]), node)
            return node

        def visit_Attribute(self, node):
            v = node.value
            if (type(node.ctx) is ast.Load and type(v) is ast.Name and v.id in self.pinned
                    and type(self.pinned[v.id]) is types.ModuleType and hasattr(self.pinned[v.id], node.attr)):
                return ast.copy_location(self.const(getattr(self.pinned[v.id], node.attr)), node)
            self.generic_visit(node)
            return node

    def patch(code):
        return code.replace(co_consts=tuple(sub(c) for c in code.co_consts))

    def sub(c):
        # the compiler folds constants into tuples and frozensets: isinstance(x, (int, float))
        t = type(c)
        if t is types.CodeType:
            return patch(c)
        if t is str:
            return helpers.get(c, c)
        return t(sub(e) for e in c) if t in (tuple, frozenset) else c

    tree = ast.parse(tests, "tests.py")
    tree = ast.fix_missing_locations(Asserts().visit(Pin(pins(tree)).visit(tree)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "'str' object is not callable": the helpers are str constants until patched
        return patch(compile(tree, "tests.py", "exec"))


def no_signal_handlers(refused):
    """A Python signal handler receives the interrupted frame, and Python 3.11 audits neither
    f_back nor f_locals: from there a handler reaches _main's locals. So the program may install
    none. signal.signal is replaced in _signal (the wrapper in signal.py looks it up there at each
    call); a fresh _signal could come from a new import (blocked by the audit hook once _signal
    leaves sys.modules) or from _imp.create_builtin, which raises no "import" audit event (a fresh
    posix has memfd_create back, a _posixsubprocess starts processes). So every harmless built-in
    module is imported now and create_builtin then refuses everything: a wrapper that kept the
    names it refuses in a closure could be switched off (cell_contents is writable)."""
    import _imp
    import _signal
    import signal

    def refuse(*args, **kwargs):
        raise PermissionError("blocked in the test harness: signal handlers")

    def no_builtin(*args, **kwargs):
        raise PermissionError("blocked in the test harness: _imp.create_builtin")

    for name in sys.builtin_module_names:
        if name not in sys.modules and not refused(name):
            __import__(name)
    _signal.signal = signal.signal = refuse
    _imp.create_builtin = no_builtin


def no_foreign_extensions():
    """Native code reads frames without any audit event, so an extension may load only from the
    image's read-only stdlib and site-packages: /work and /tmp are noexec, but a memfd
    (os.memfd_create, then ExtensionFileLoader on /proc/self/fd/N) is not. _imp.create_dynamic
    (the dlopen behind every extension import, looked up on _imp at each call) is wrapped to refuse
    any other origin, memfd_create is removed, and a fresh _imp is refused (create_builtin)."""
    import _imp
    import importlib.machinery
    import posix
    import sysconfig

    paths = sysconfig.get_paths()
    allowed = tuple(os.path.realpath(paths[k]) + "/" for k in ("stdlib", "platstdlib", "purelib", "platlib"))
    create_dynamic, realpath, ModuleSpec = _imp.create_dynamic, os.path.realpath, importlib.machinery.ModuleSpec

    def create(spec, *args):
        name, origin = spec.name, spec.origin  # read once: a property could answer differently twice
        if type(name) is not str or type(origin) is not str or origin.startswith("/proc") \
                or not realpath(origin).startswith(allowed):
            raise PermissionError(f"blocked in the test harness: a native extension from {origin!r}")
        return create_dynamic(ModuleSpec(name, None, origin=origin), *args)

    _imp.create_dynamic = create
    for mod in (os, posix):
        if hasattr(mod, "memfd_create"):
            delattr(mod, "memfd_create")
    return allowed


def preload(tests):
    """Import what the tests import now, before the program runs (from the image only: -I keeps
    /work off sys.path), so that snapshot_modules covers it: a program could otherwise patch a
    module the tests use (`unittest.TestCase.assertEqual`, `pandas.testing.assert_frame_equal`)."""
    for node in ast.walk(ast.parse(tests, "tests.py")):
        if type(node) is ast.Import:
            names = [a.name for a in node.names]
        elif type(node) is ast.ImportFrom and node.level == 0 and node.module:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        else:
            continue
        for name in names:
            try:
                __import__(name)
            except Exception:  # noqa: BLE001, S110 - not a module (a name in one), or the tests' own error later
                pass


def snapshot_modules():
    """Return a function that puts back every module loaded now (the PIN_MODULES the tests import
    among them) as it is: its attributes, its Python classes' attributes and bases, and the defaults
    of its functions. A program could otherwise patch what the tests run, e.g.
    `fractions.Fraction.__eq__ = lambda a, b: True` or `collections.Counter.__init__`, and pass
    `assert f(x) == Fraction(1, 2)`. Attributes it added are removed, except submodules it imported.
    Only closure cells are used: the program may have patched builtins."""
    type_, vars_, setattr_, delattr_, list_, ModuleType, FunctionType = type, vars, setattr, delattr, list, \
        types.ModuleType, types.FunctionType
    immutable = 1 << 8  # Py_TPFLAGS_IMMUTABLETYPE: C types cannot be patched anyway
    sys_modules = sys.modules
    mods, classes, funcs, seen = [], [], [], set()

    def look(value):
        if id(value) in seen:
            return
        seen.add(id(value))
        if type_(value) is FunctionType:
            funcs.append((value, value.__defaults__, value.__kwdefaults__))
        elif isinstance(value, type) and not value.__flags__ & immutable:
            classes.append((value, dict(vars_(value)), value.__bases__))
            for v in list_(vars_(value).values()):
                if type_(v) in (staticmethod, classmethod):
                    v = v.__func__
                look(v)

    # the import system's state: a module swapped in sys.modules, or a finder the program added,
    # would answer the tests' own `import unittest`
    lists = [(x, list_(x)) for x in (sys.meta_path, sys.path, sys.path_hooks)]
    dicts = [(x, dict(x)) for x in (sys.modules, sys.path_importer_cache)]
    for mod in list(sys.modules.values()):
        if type(mod) is ModuleType:
            mods.append((mod, dict(vars_(mod))))
            for v in list_(vars_(mod).values()):
                look(v)

    def put_back(obj, now, before, cls):
        for k in list_(now):
            if k not in before and type_(now[k]) is not ModuleType:
                delattr_(obj, k)
        for k, v in before.items():
            if now.get(k, NOTHING) is not v:
                if cls:
                    setattr_(obj, k, v)
                else:
                    now[k] = v

    NOTHING = object()

    def restore():
        for x, before in lists:
            x[:] = before
        for x, before in dicts:
            for k in list_(x):
                if k not in before and x is not sys_modules:  # modules the program imported stay
                    del x[k]
            x.update(before)
        for mod, before in mods:
            put_back(mod, vars_(mod), before, False)
        for cls, before, bases in classes:
            if cls.__bases__ is not bases:
                cls.__bases__ = bases
            put_back(cls, vars_(cls), before, True)
        for f, defaults, kwdefaults in funcs:
            f.__defaults__, f.__kwdefaults__ = defaults, kwdefaults

    return restore


def undumpable():
    """PR_SET_DUMPABLE=0 before the secret is read: another process of the program's (one it
    starts by any path the hook misses) can then neither ptrace this one nor read /proc/<pid>/mem.
    ctypes leaves sys.modules again, so a later `import ctypes` still raises the blocked event."""
    import ctypes
    ctypes.CDLL(None, use_errno=True).prctl(4, 0, 0, 0, 0)
    for name in [m for m in sys.modules if m == "ctypes" or m.startswith(("ctypes.", "_ctypes"))]:
        del sys.modules[name]


def _main():
    undumpable()
    read, write, stat, type_, bytes_, str_, int_ = os.read, os.write, os.stat, type, bytes, str, int
    compile_, exec_, AE, PE, VE = compile, exec, AssertionError, PermissionError, ValueError
    chunks = []
    while True:
        chunk = read(0, 1 << 20)
        if not chunk:
            break
        chunks.append(chunk)
    nonce, _, tests = b"".join(chunks).partition(b"\n")
    del chunks, chunk
    null = os.open("/dev/null", os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    fd = int(os.environ.pop("RESULT_FD"))
    os.set_inheritable(fd, False)
    with open("prog.py", "rb") as f:
        src = f.read()
    prog_code, tests_code = compile_(src, "prog.py", "exec"), _strict_asserts(tests, os.urandom(8).hex())
    preload(tests)
    del src, tests
    pristine = dict(builtins.__dict__)
    proc_dev = stat("/proc").st_dev
    blocked = frozenset(("sys._current_frames", "sys._current_exceptions", "sys.settrace", "sys.setprofile",
                         "gc.get_objects", "gc.get_referrers", "gc.get_referents", "code.__new__",
                         "os.fork", "os.forkpty", "os.exec", "os.posix_spawn", "os.spawn", "os.system",
                         "subprocess.Popen", "os.symlink", "os.link", "function.__new__"))
    blocked_imports = frozenset(("_ctypes", "ctypes", "_posixsubprocess", "_testcapi", "_testinternalcapi", "_signal",
                                 "_imp", "posix"))
    prefixes, rpartition, startswith = BLOCKED_PREFIXES, str.rpartition, str.startswith  # locals: globals can be patched

    def refused(name):
        # `x._xxsubinterpreters` loads the same extension (its init function is named by the last part)
        if type_(name) is not str_:
            return True
        last = rpartition(name, ".")[2]
        return name in blocked_imports or last in blocked_imports or startswith(last, prefixes)

    no_signal_handlers(refused)
    allowed = no_foreign_extensions()
    realpath, open_, close, join = os.path.realpath, os.open, os.close, b"".join
    last_pyc = [None]

    def image_code(path, data):
        # marshal.loads builds code objects with any bytecode, and crafted bytecode reads and writes
        # memory (frames, the nonce). Imports need it for the image's own .pyc files only: the
        # data must be the code in the .pyc the importer just opened from the read-only image.
        fd, chunks = open_(path, 0), []
        try:
            while True:
                chunk = read(fd, 1 << 20)
                if not chunk:
                    break
                chunks.append(chunk)
        finally:
            close(fd)
        return join(chunks)[16:] == data

    frame_attrs = frozenset(("tb_frame", "gi_frame", "cr_frame", "ag_frame", "f_back", "gi_yieldfrom"))

    def guard(event, args):
        if event in blocked or event.startswith("ctypes."):
            raise PE("blocked in the test harness: " + event)
        if event == "sys._getframe":
            raise VE("sys._getframe is not available in the test harness")
        if event == "import":
            if refused(args[0]):
                raise PE("blocked in the test harness: import " + str_(args[0]))
            origin = args[1]  # _imp.create_dynamic's file: checked here too (the wrapper's cells are writable)
            if origin is not None and (type_(origin) is not str_ or startswith(origin, "/proc")
                                       or not startswith(realpath(origin), allowed)):
                raise PE("blocked in the test harness: a native extension from outside the image")
        if event == "object.__getattr__" and args[1] in frame_attrs:
            raise PE("blocked in the test harness: " + args[1])
        if event == "object.__setattr__" and args[1] == "__code__":
            raise PE("blocked in the test harness: __code__")
        if event == "open":
            path = args[0]
            if type_(path) is int_:
                return  # an fd already open: reaching /proc or a directory needed an open first
            if type_(path) not in (str_, bytes_):
                # bytearray, memoryview, PathLike (whose __fspath__ could answer differently to
                # this check and to open itself): every other path type is refused
                raise PE("blocked in the test harness: open() of a path that is not str or bytes")
            try:
                st = stat(path)
            except OSError:
                return
            if st.st_dev == proc_dev or (st.st_mode & 0o170000) == 0o040000:
                raise PE("blocked in the test harness: /proc and directories")
            if type_(path) is str_ and path.endswith(".pyc") and realpath(path).startswith(allowed):
                last_pyc[0] = path
        if event == "marshal.load":
            raise PE("blocked in the test harness: marshal.load")
        if event == "marshal.loads":
            path, last_pyc[0] = last_pyc[0], None
            if path is None or not image_code(path, bytes_(args[0])):
                raise PE("blocked in the test harness: marshal.loads of data that is not the image's own .pyc")

    g = {"__name__": "__main__", "__file__": "prog.py", "__builtins__": builtins}
    sys.argv = ["prog.py"]
    restore = snapshot_modules()
    sys.addaudithook(guard)
    del guard
    exec_(prog_code, g)
    restore()
    # The tests get a copy of the program's globals: the program's functions keep theirs, so one
    # the tests call cannot rebind a helper the tests defined (globals()['poly'] = lambda *a: 0).
    t = dict(g)
    t["__builtins__"] = pristine
    try:
        exec_(tests_code, t)
    except AE:
        write(fd, b"assert")
        raise
    write(fd, b"ok:" + nonce)
if __name__ == "__main__":
    _main()

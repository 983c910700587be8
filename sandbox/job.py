"""One job: one completion against all its tests, in one borrowed container.

`make_plan` turns a task dict into what to run (pure); `run_job` drives the runner through it
(blocking: call it in a thread). Compile once, then each test in its own process under its
limits; per-test verdicts come from sandbox.checks. Expected outputs never enter the container,
except for a special checker's answer file, which the checker gets after the program is dead.
"""
from __future__ import annotations

import math
import secrets
from dataclasses import dataclass, field

from . import checks
from .channel import ChannelError
from .config import SandboxConfig
from .languages import LANGUAGES, Language, fill, java_main_class

# Runs the program, then the task's asserts, in one interpreter (as HumanEval does). The nonce and
# the tests come on stdin and are read before the program starts (never in env or on disk); the
# verdict is "ok:<nonce>" on RESULT_FD, written with functions saved before the program ran, and
# the tests run with a copy of builtins taken before it. While the program runs, an audit hook
# (unreachable from Python once installed) blocks the ways to reach the nonce: frames (sys._getframe,
# tb_frame, gi_frame...), tracing, gc, ctypes, code objects, /proc, directory fds, symlinks and new
# processes. It narrows, does not close, what one interpreter allows: see "Known limits" in
# sandbox/__init__.py. The hook and everything it calls are locals (closure cells), so patching
# builtins or modules cannot switch it off.
#
# STRICT_ASSERTS (compiled into the tests before the program runs): the program is untrusted, the
# tests are not, and a model under RL learns to return an object whose __eq__ is always True (or a
# subclass of int/str/list overriding it, __ne__, __lt__, __contains__, __sub__, __bool__...).
# Inside assert statements the tests' AST is rewritten: every comparison (==, !=, <, <=, >, >=, in,
# not in; chained ones lazily, as Python does), every arithmetic operator and the truth of a bare
# value (`assert f(x)`, `assert not f(x)`, operands of and/or) call helpers that read both values as
# plain data: exact int, float, complex, bool, str, bytes, None and lists, tuples, sets, frozensets,
# dicts of them, at most 100 deep and 10**6 values ("..." % x is left alone: it formats). A subclass of int, float, str, list, tuple,
# set, frozenset or dict counts as its builtin content, read from the builtin storage (int.__int__,
# list.__iter__, dict.items...), so no method of the program runs and Counter, namedtuple or IntEnum
# results compare as Python would. If one side is plain data and the other is not, the assert fails
# (AssertionError, so `not` or != cannot turn it around); if neither is (tests comparing custom
# objects), the original operator runs. A bare asserted value must be plain data (`assert f(x)`
# with f returning a custom object or a re.Match fails). The helpers reach the code as constants
# patched into the code objects (no name the program could rebind) and use only closure cells.
# The tests run in the program's globals, so names they share are pinned the same way (everywhere
# in the tests, not only in asserts): a builtin the tests load but never bind (abs, len, sorted,
# isinstance...) is the builtin itself, and a module of PIN_MODULES the tests import (import math,
# from math import isclose), and its attributes one level deep (math.isclose), are the objects read
# before the program ran. Except the function under test, when it has a builtin's name: a builtin
# whose every load is `f(literals)` as an asserted value or a comparison's left side, or a bare
# name handed to a call statement (check(sum)), comes from the program.
STRICT_ASSERTS = b'''def _strict_asserts(tests, tag):
    """Compile the task's tests so that inside assert statements, comparisons, arithmetic and the
    truth of a bare value read plain data only: see STRICT_ASSERTS in sandbox/job.py."""
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
'''
HARNESS = b'''import ast, builtins, operator, os, sys, types, warnings  # types reads tb_frame when imported: before the hook
''' + STRICT_ASSERTS + b'''

def _main():
    read, write, stat, fsencode, type_, bytes_, str_ = os.read, os.write, os.stat, os.fsencode, type, bytes, str
    compile_, exec_, AE, PE, VE = compile, exec, AssertionError, PermissionError, ValueError
    chunks = []
    while True:
        chunk = read(0, 1 << 20)
        if not chunk:
            break
        chunks.append(chunk)
    nonce, _, tests = b"".join(chunks).partition(b"\\n")
    del chunks, chunk
    null = os.open("/dev/null", os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    fd = int(os.environ.pop("RESULT_FD"))
    os.set_inheritable(fd, False)
    with open("prog.py", "rb") as f:
        src = f.read()
    prog_code, tests_code = compile_(src, "prog.py", "exec"), _strict_asserts(tests, os.urandom(8).hex())
    del src, tests
    pristine = dict(builtins.__dict__)
    proc_dev = stat("/proc").st_dev
    blocked = frozenset(("sys._current_frames", "sys._current_exceptions", "sys.settrace", "sys.setprofile",
                         "gc.get_objects", "gc.get_referrers", "gc.get_referents", "code.__new__",
                         "os.fork", "os.forkpty", "os.exec", "os.posix_spawn", "os.spawn", "os.system",
                         "subprocess.Popen", "os.symlink", "os.link", "function.__new__"))
    blocked_imports = frozenset(("_ctypes", "ctypes", "_posixsubprocess", "_testcapi", "_testinternalcapi"))
    frame_attrs = frozenset(("tb_frame", "gi_frame", "cr_frame", "ag_frame", "f_back", "gi_yieldfrom"))

    def guard(event, args):
        if event in blocked or event.startswith("ctypes."):
            raise PE("blocked in the test harness: " + event)
        if event == "sys._getframe":
            raise VE("sys._getframe is not available in the test harness")
        if event == "import" and args[0] in blocked_imports:
            raise PE("blocked in the test harness: import " + args[0])
        if event == "object.__getattr__" and args[1] in frame_attrs:
            raise PE("blocked in the test harness: " + args[1])
        if event == "object.__setattr__" and args[1] == "__code__":
            raise PE("blocked in the test harness: __code__")
        if event == "open" and type_(args[0]) in (str_, bytes_):
            try:
                st = stat(args[0])
            except OSError:
                return
            if st.st_dev == proc_dev or (st.st_mode & 0o170000) == 0o040000:
                raise PE("blocked in the test harness: /proc and directories")

    g = {"__name__": "__main__", "__file__": "prog.py", "__builtins__": builtins}
    sys.argv = ["prog.py"]
    sys.addaudithook(guard)
    del guard
    exec_(prog_code, g)
    g["__builtins__"] = pristine
    try:
        exec_(tests_code, g)
    except AE:
        write(fd, b"assert")
        raise
    write(fd, b"ok:" + nonce)
_main()
'''
# Runs a special checker: an uncaught exception (not SystemExit) exits 3, the checker's own failure
# (infra_error, not retried), instead of Python's exit 1, which would read as "rejected".
CHECKER_WRAPPER = b'''import runpy, sys
sys.argv = sys.argv[1:]
try:
    runpy.run_path(sys.argv[0], run_name="__main__")
except SystemExit:
    raise
except BaseException:
    import traceback
    traceback.print_exc()
    sys.exit(3)
'''
COMPILE_CAP = 64 << 10
NAME_MAX = 255  # longest file name on Linux file systems


class InfraFailure(Exception):
    """The sandbox failed (not the program): retry elsewhere, then report infra_error."""

    def __init__(self, detail: str, retryable: bool = True) -> None:
        super().__init__(detail)
        self.retryable = retryable


@dataclass
class Plan:
    """Everything a job needs, decided before a container is borrowed."""

    lang: Language
    code: str
    extracted_from: str
    files: dict[str, bytes]
    compile_argv: list[str] | None
    run_argv: list[str]
    tests: list[tuple[bytes, bytes | None]]
    test_code: str | None
    checker: str | None
    compare: str
    abs_tol: float
    rel_tol: float
    scoring: str
    stop_first: bool
    time_limit_s: float
    memory_mb: int
    compile_time_s: float
    compile_memory_mb: int
    return_output: bool = False  # debugging (`verifier sandbox run`): heads of stdout/stderr per test
    output_head_bytes: int = 4096  # how much of each the heads keep (the HTTP port's /run_code: all of stdout)
    job_dir: str = field(default_factory=lambda: "j" + secrets.token_hex(8))
    ran: bool = False  # the program has run in this attempt: a later spawn failure is its doing
    done: list[dict] = field(default_factory=list)  # per-test entries so far (kept if the budget runs out)

    def wall(self, cpu_s: float, config: SandboxConfig) -> float:
        return cpu_s * config.wall_factor + config.wall_extra_s

    def budget_s(self, config: SandboxConfig) -> float:
        """Outer wall-clock budget for the whole job, from its own limits (plus slack)."""
        n = len(self.tests) + (1 if self.test_code else 0)
        per_test = self.wall(self.time_limit_s, config) + 0.5
        if self.checker:
            per_test += self.wall(config.checker_time_limit_s, config)
        compile_s = self.wall(self.compile_time_s, config) + 5 if self.compile_argv else 2.0
        return compile_s + n * per_test + 15.0


def make_plan(task: dict, config: SandboxConfig) -> Plan | dict:
    """Plan for a task, or a finished result dict when there is nothing to run (no code)."""
    lang_name = str(task.get("language") or "python").lower()
    lang = LANGUAGES.get(lang_name)
    if lang is None or lang_name not in config.languages:
        raise InfraFailure(f"language {lang_name!r} is not served (served: {', '.join(config.languages)})", retryable=False)
    code, how = checks.extract_code(str(task.get("completion") or ""), lang_name)
    if how == "none":
        return {"verdict": "no_code", "score": 0.0, "detail": "no code found in the completion",
                "extracted": "", "extracted_from": "none", "tests": [], "retryable": False}
    code_b = code.encode("utf-8", "surrogatepass")
    if len(code_b) > config.max_code_bytes:  # the program's size is the program's fault
        return _refused(code, how, f"program is {len(code_b)} bytes, over the limit of {config.max_code_bytes} bytes")
    limits = config.limits_for(lang_name)
    time_limit = min(float(task.get("time_limit_s") or limits.default_time_limit_s), limits.max_time_limit_s)
    memory = min(int(task.get("memory_limit_mb") or limits.default_memory_limit_mb), limits.max_memory_limit_mb)
    if not (time_limit > 0 and math.isfinite(time_limit)) or memory < 16:
        raise InfraFailure("time_limit_s must be > 0 and memory_limit_mb >= 16", retryable=False)
    main = java_main_class(code) if lang_name == "java" else ""
    source = lang.source.format(main=main)
    if len(source.encode()) > NAME_MAX:  # javac wants the file named after the class
        return _refused(code, how, f"class name of {len(main)} characters is too long for a file name")
    files = {source: code_b}
    test_code = task.get("test_code") or None
    if test_code is not None:
        if lang_name != "python":
            raise InfraFailure("test_code needs language python", retryable=False)
        files["harness.py"] = HARNESS
    tests = []
    for t in task.get("tests") or []:
        stdin = str(t.get("stdin") or "").encode("utf-8", "surrogatepass")
        exp = t.get("expected_stdout")
        tests.append((stdin, None if exp is None else str(exp).encode("utf-8", "surrogatepass")))
    if len(tests) > config.max_tests:
        raise InfraFailure(f"{len(tests)} tests, over max_tests={config.max_tests}", retryable=False)
    if any(len(s) > config.max_stdin_bytes for s, _ in tests):
        raise InfraFailure(f"a test's stdin is over max_stdin_bytes={config.max_stdin_bytes}", retryable=False)
    checker = task.get("checker") or None
    if checker and str(task.get("checker_language") or "python").lower() not in ("python", "py", "python3"):
        raise InfraFailure("checker_language must be python (every image has python3)", retryable=False)
    if not tests and test_code is None:
        tests = [(b"", None)]  # no tests: the program must run cleanly on empty input
    compile_argv = fill(lang.compile, main=main, mem=memory) if lang.compile else None
    compare_how = str(task.get("compare") or config.default_compare)
    if compare_how not in checks.COMPARATORS:
        raise InfraFailure(f"compare must be one of {checks.COMPARATORS}", retryable=False)
    return Plan(
        lang=lang, code=code, extracted_from=how, files=files, compile_argv=compile_argv,
        run_argv=fill(lang.run, main=main, mem=memory), tests=tests, test_code=test_code,
        checker=str(checker) if checker else None, compare=compare_how,
        abs_tol=float(task.get("float_abs_tol") if task.get("float_abs_tol") is not None else config.float_abs_tol),
        rel_tol=float(task.get("float_rel_tol") if task.get("float_rel_tol") is not None else config.float_rel_tol),
        scoring=str(task.get("scoring") or "all"), stop_first=bool(task.get("stop_on_first_failure", False)),
        time_limit_s=time_limit, memory_mb=memory,
        compile_time_s=limits.compile_time_limit_s,
        compile_memory_mb=max(limits.compile_memory_mb, memory) if lang.compile and lang.compile_memory else memory,
        return_output=bool(task.get("return_output", False)),
        output_head_bytes=min(int(task.get("output_head_bytes") or 4096), config.output_limit_bytes),
    )


def _refused(code: str, how: str, detail: str) -> dict:
    """A program the sandbox will not build: compile_error, its own fault (never infra_error)."""
    return {"verdict": "compile_error", "score": 0.0, "detail": detail, "extracted": code[: checks.EXTRACT_MAX],
            "extracted_from": how, "tests": [], "retryable": False}


def out_of_budget(plan: Plan) -> dict:
    """The job's wall-clock budget ran out while the host was healthy: the tests the program did not
    finish get time_limit, the finished ones keep their verdicts."""
    total = len(plan.tests) + (1 if plan.test_code else 0)
    tests = list(plan.done[:total])
    tests += [_test_entry("time_limit", None, "not finished within the job's wall-clock budget")] * (total - len(tests))
    verdicts = [t["verdict"] for t in tests]
    failed = next(i for i, v in enumerate(verdicts) if v != "accepted")
    return _finish(plan, checks.overall(verdicts), checks.score(verdicts, total, plan.scoring),
                   f"test {failed + 1}: {tests[failed]['detail']}", tests)


def run_job(pool, box, plan: Plan, config: SandboxConfig) -> tuple[dict, bool]:
    """Run the plan in `box`. Returns (result, healthy). Raises InfraFailure if the sandbox fails."""
    try:
        return _run_job(pool, box, plan, config)
    except ChannelError as e:
        raise InfraFailure(str(e)) from e
    except InfraFailure:
        raise
    except Exception as e:  # docker API errors and the like: the sandbox, not the program
        raise InfraFailure(f"sandbox failure: {type(e).__name__}: {e}") from e


def _exec(box, argv, plan: Plan, config: SandboxConfig, cpu_s: float, stdin: bytes = b"",
          cwd: str | None = None, stdout_max: int | None = None, env: dict | None = None,
          fd3: bool = False, rm_cwd: bool = False) -> dict:
    wall = plan.wall(cpu_s, config)
    head, blobs = box.channel.request(
        {"op": "exec", "argv": argv, "cwd": cwd or plan.job_dir, "cpu_s": cpu_s, "wall_s": wall,
         "stdout_max": stdout_max or config.output_limit_bytes, "stderr_max": config.stderr_limit_bytes,
         "fsize_max": config.file_size_limit_mb << 20, "env": env or {}, "fd3": fd3, "rm_cwd": rm_cwd},
        {"stdin": stdin} if stdin else None, timeout_s=wall + 10.0)
    if head.get("tampered"):  # the program's fault, not the sandbox's: its verdict, then recycle
        box.tainted = True
    elif head.get("error"):
        raise InfraFailure(f"runner: {head['error']}")
    head["stdout_b"], head["stderr_b"], head["fd3_b"] = blobs.get("stdout", b""), blobs.get("stderr", b""), blobs.get("fd3", b"")
    return head


def _files(box, name: str, files: dict[str, bytes], full_ok: bool = False) -> bool:
    """Write files into /work/name. With full_ok (after the program ran), a full /work is reported
    (False): what filled it is the program's leftovers, its verdict and not the sandbox's fault.
    The runner removes a half-written dir; if it could not, the container is not reused."""
    head, _ = box.channel.request({"op": "files", "dir": name, "files": [[k, 0o600] for k in files]}, files, timeout_s=30)
    if head.get("full") and not head.get("removed", True):
        box.tainted = True
    if head.get("full") and full_ok:
        return False
    if not head.get("ok"):
        raise InfraFailure(f"runner could not write files: {head.get('error')}")
    return True


def _test_entry(verdict: str, facts: dict | None, detail: str) -> dict:
    facts = facts or {}
    return {"verdict": verdict, "time_s": round(float(facts.get("cpu_s") or 0.0), 4),
            "detail": checks.clip(detail), "exit_code": facts.get("exit_code")}


def _run_job(pool, box, plan: Plan, config: SandboxConfig) -> tuple[dict, bool]:
    overhead = config.memory_overhead_mb + 2 * (config.output_limit_bytes >> 20)
    _files(box, plan.job_dir, plan.files)
    plan.ran, plan.done = False, []
    tests = plan.done
    if plan.lang.name == "python":  # syntax check inside the runner: no extra interpreter start
        head, _ = box.channel.request({"op": "pycheck", "dir": plan.job_dir, "file": plan.lang.source}, timeout_s=30)
        if head.get("error"):
            raise InfraFailure(f"runner: {head['error']}")
        if not head.get("ok"):
            return _finish(plan, "compile_error", 0.0, checks.clip(head.get("error_text", "").strip()), []), _reset(box)
    if plan.compile_argv:
        pool.set_memory(box, plan.compile_memory_mb + overhead)
        facts = _exec(box, plan.compile_argv, plan, config, plan.compile_time_s, stdout_max=COMPILE_CAP)
        v, d = checks.run_verdict(facts, plan.lang, plan.compile_time_s)
        if v == "infra_error":
            raise InfraFailure(d)
        if v is not None:
            detail = checks.compile_detail(facts) if v == "runtime_error" else f"compiler: {d}"
            return _finish(plan, "compile_error", 0.0, detail, []), _reset(box)
    pool.set_memory(box, plan.memory_mb + overhead)
    total = len(plan.tests) + (1 if plan.test_code else 0)
    alive = True
    for i, (stdin, expected) in enumerate(plan.tests):
        try:
            entry = _one_test(box, plan, config, stdin, expected)
        except ChannelError:
            if not pool.oom_killed(box):
                raise
            entry, alive = _test_entry("memory_limit", None, "memory limit exceeded (the sandbox was OOM-killed)"), False
        tests.append(entry)
        if not alive or box.tainted or (plan.stop_first and entry["verdict"] != "accepted"):
            break
    if alive and not box.tainted and plan.test_code and not (plan.stop_first and tests and tests[-1]["verdict"] != "accepted"):
        tests.append(_assert_test(box, plan, config))
    verdicts = [t["verdict"] for t in tests]
    if "infra_error" in verdicts:
        bad = tests[verdicts.index("infra_error")]
        raise InfraFailure(bad["detail"], retryable=not bad["detail"].startswith("checker"))
    verdict = checks.overall(verdicts) if len(tests) == total else next(v for v in verdicts if v != "accepted")
    score = checks.score(verdicts, total, plan.scoring)
    failed = next((i for i, t in enumerate(tests) if t["verdict"] != "accepted"), None)
    if failed is None:
        detail = f"{len(tests)} of {total} tests passed"
    else:
        detail = f"test {failed + 1}: {tests[failed]['detail']}"
        if len(tests) < total:
            detail += f" (stopped after {len(tests)} of {total} tests)"
    return _finish(plan, verdict, score, detail, tests), alive and not box.tainted and _reset(box)


def _one_test(box, plan: Plan, config: SandboxConfig, stdin: bytes, expected: bytes | None) -> dict:
    facts = _exec(box, plan.run_argv, plan, config, plan.time_limit_s, stdin=stdin)
    return _with_output(plan, _judge_test(box, plan, config, stdin, expected, _blame_spawn(plan, facts)), facts)


def _blame_spawn(plan: Plan, facts: dict) -> dict:
    """A program that cannot start after it already ran once removed or changed its own files
    (binary, job dir): its runtime_error, not the sandbox's infra_error. The runner gives /work and
    the job dir their modes back before each run, so chmod alone does not get here."""
    if facts.get("spawn_error") and plan.ran:
        facts = dict(facts, spawn_error=None, exit_code=127,
                     stderr_b=b"could not start the program after its earlier run changed its own files: "
                     + facts["spawn_error"].encode())
    plan.ran = True
    return facts


def _with_output(plan: Plan, entry: dict, facts: dict) -> dict:
    if plan.return_output:
        entry["stdout"] = facts["stdout_b"][:plan.output_head_bytes].decode("utf-8", "replace")
        entry["stderr"] = facts["stderr_b"][:plan.output_head_bytes].decode("utf-8", "replace")
    return entry


def _judge_test(box, plan: Plan, config: SandboxConfig, stdin: bytes, expected: bytes | None, facts: dict) -> dict:
    v, d = checks.run_verdict(facts, plan.lang, plan.time_limit_s)
    if v is not None:
        return _test_entry(v, facts, d)
    if plan.checker:
        return _checked(box, plan, config, stdin, facts, expected or b"")
    if expected is None:
        return _test_entry("accepted", facts, "ran cleanly")
    ok, why = checks.compare(facts["stdout_b"], expected, plan.compare, plan.abs_tol, plan.rel_tol)
    return _test_entry("accepted" if ok else "wrong_answer", facts, "" if ok else why)


def _checked(box, plan: Plan, config: SandboxConfig, stdin: bytes, facts: dict, expected: bytes) -> dict:
    """Run the task's checker (python3 checker.py input output answer) in a fresh directory, after
    the program's processes are gone: exit 0 accepts, 1 rejects, anything else (an uncaught exception
    included, via CHECKER_WRAPPER) is the checker's
    fault (infra_error, not retried)."""
    d = "c" + secrets.token_hex(8)
    if not _files(box, d, {"checker.py": plan.checker.encode("utf-8", "surrogatepass"), "input.txt": stdin,
                           "output.txt": facts["stdout_b"], "answer.txt": expected, "wrap.py": CHECKER_WRAPPER},
                  full_ok=True):
        return _test_entry("output_limit", facts, "the program's files filled the sandbox: no room left for the checker")
    cf = _exec(box, ["python3", "-I", "wrap.py", "checker.py", "input.txt", "output.txt", "answer.txt"], plan, config,
               config.checker_time_limit_s, cwd=d, stdout_max=64 << 10, rm_cwd=True)
    msg = (cf["stdout_b"] or cf["stderr_b"]).decode("utf-8", "replace").strip()
    if cf.get("exit_code") == 0 and not cf.get("stop"):
        return _test_entry("accepted", facts, msg)
    if cf.get("exit_code") == 1 and not cf.get("stop"):
        return _test_entry("wrong_answer", facts, f"checker: {msg}" if msg else "checker rejected the output")
    if not _is_utf8(facts["stdout_b"]):  # a checker reading text fails on it: the program's output is at fault
        return _test_entry("wrong_answer", facts, "output is not valid UTF-8 text (the checker failed on it)")
    v, why = checks.run_verdict(cf, LANGUAGES["python"], config.checker_time_limit_s)
    return _test_entry("infra_error", facts, f"checker failed: {why or msg}")


def _is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
        return True
    except UnicodeDecodeError:
        return False


def _assert_test(box, plan: Plan, config: SandboxConfig) -> dict:
    nonce = secrets.token_hex(16)
    stdin = nonce.encode() + b"\n" + str(plan.test_code).encode("utf-8", "surrogatepass")
    facts = _exec(box, ["python3", "-I", "harness.py"], plan, config, plan.time_limit_s, stdin=stdin, fd3=True)
    facts = _blame_spawn(plan, facts)
    return _with_output(plan, _judge_asserts(plan, facts, nonce), facts)


def _judge_asserts(plan: Plan, facts: dict, nonce: str) -> dict:
    v, d = checks.run_verdict(facts, plan.lang, plan.time_limit_s)
    signal_ = facts.get("fd3_b", b"")
    if v == "runtime_error" and signal_ == b"assert":
        return _test_entry("wrong_answer", facts, "assertion failed" + checks._tail(facts["stderr_b"]))
    if v is not None:
        return _test_entry(v, facts, d)
    if signal_ == b"ok:" + nonce.encode():
        return _test_entry("accepted", facts, "asserts passed")
    return _test_entry("wrong_answer", facts, "the program exited before its tests ran")


def _reset(box) -> bool:
    """Kill and wipe what the job left; False (recycle the container) if anything remains."""
    box.jobs += 1
    head, _ = box.channel.request({"op": "reset"}, timeout_s=15)
    return bool(head.get("clean"))


def _finish(plan: Plan, verdict: str, score: float, detail: str, tests: list[dict]) -> dict:
    return {"verdict": verdict, "score": float(score), "detail": checks.clip(detail),
            "extracted": plan.code[: checks.EXTRACT_MAX], "extracted_from": plan.extracted_from,
            "tests": tests, "retryable": False}

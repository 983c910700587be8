"""The judge of assert-style tests (test_code): trusted, in its own process (README.md, "How
assert-style tests are judged"). Standard library only; runs as `python3 -I judge.py` in the job dir.

Before it reads anything, the judge makes itself non-dumpable (the program, same uid, can then
neither ptrace it nor open /proc/<judge>/fd or mem) and forks the program's process. That child
closes the result fd, takes /dev/null as stdin, runs prog.py and then only answers calls on a pipe
(serve.py). Only then does the judge read the nonce and the tests from stdin: the tests, the
nonce and the result fd never exist in the program's process. The tests run here, in a fresh
namespace where each function of the program is a proxy: arguments and results cross as plain
data (wire.py), exceptions by builtin type, mutated arguments come back. "ok:<nonce>" on the
result fd when every assert passed, "assert" when one failed.
"""
from __future__ import annotations

import ast
import builtins
import ctypes
import importlib
import os
import sys
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # -I leaves our own (read-only) dir out
import serve
import wire


def undumpable() -> None:
    """PR_SET_DUMPABLE=0: a same-uid process can no longer ptrace us or open /proc/<pid>/*."""
    ctypes.CDLL(None, use_errno=True).prctl(4, 0, 0, 0, 0)


def start_program(result_fd: int) -> tuple[int, int, int]:
    """Fork the program's process; return (pid, fd to it, fd from it)."""
    to_r, to_w = os.pipe()
    from_r, from_w = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            for fd in (result_fd, to_w, from_r):
                os.close(fd)
            null = os.open("/dev/null", os.O_RDONLY)
            os.dup2(null, 0)
            os.close(null)
            serve.main(to_r, from_w)
        finally:
            os._exit(1)
    os.close(to_r)
    os.close(from_w)
    return pid, to_w, from_r


class Program:
    """The judge's side of the channel: calls by name, plain data both ways."""

    def __init__(self, to_fd: int, from_fd: int) -> None:
        self.to_fd, self.from_fd = to_fd, from_fd
        self.used = False  # the tests called a function of the program or read its data

    def call(self, name: str, args: tuple, kwargs: dict) -> object:
        self.used = True
        try:
            enc = {"call": name, "args": wire.encode(list(args)), "kwargs": wire.encode(kwargs)}
        except TypeError as e:
            raise TypeError(f"argument to {name}() must be plain data ({e})") from None
        wire.send(self.to_fd, enc)
        reply = wire.recv(self.from_fd)
        if "exc" in reply:
            raise exception(reply.get("exc"), reply.get("msg"))
        if "bad" in reply:
            raise AssertionError(f"{name}() returned {str(reply['bad'])[:200]}")
        if "ok" not in reply:
            raise wire.WireError("bad reply")
        after = wire.decode(reply.get("args", ["N"]))
        if type(after) is list and len(after) == len(args):
            for old, new in zip(args, after):
                update_in_place(old, new)
        return wire.decode(reply["ok"])


def exception(name: object, msg: object) -> BaseException:
    """The builtin exception the program raised (by name), never one of its own classes. A
    StopIteration (or StopAsyncIteration) becomes RuntimeError, as PEP 479 does for generators:
    raised through the tests' map() or next(), it would end their loop early, as if passed."""
    cls = getattr(builtins, name, None) if type(name) is str else None
    if not (isinstance(cls, type) and issubclass(cls, Exception)):
        cls = Exception
    if issubclass(cls, (StopIteration, StopAsyncIteration)):
        return RuntimeError(f"{name} raised by the program: {str(msg)[:1000]}")
    return cls(str(msg)[:1000])


def update_in_place(old: object, new: object) -> None:
    """An argument the program mutated (a list it sorted, a dict it filled) changes here too."""
    if type(old) is list and type(new) is list:
        old[:] = new
    elif type(old) is type(new) and type(old) in (dict, set):
        old.clear()
        old.update(new)


def proxy(program: Program, name: str):
    def call(*args, **kwargs):
        return program.call(name, args, kwargs)
    call.__name__ = call.__qualname__ = name
    return call


def entry_names(tree: ast.AST) -> set[str]:
    """The names the program must supply: those passed bare to a `check(...)` call (HumanEval:
    `check(find_zero)`); with no check call (MBPP: `assert f(1) == 2`), the names the tests call
    or pass bare to a call (`map(f, xs)`) that are not builtins (a program's `def abs(x): return 0` must not change the tests' abs).
    Nothing else is the program's: a helper the tests read (HumanEval's `poly`) that a program
    could redefine must come with the tests, or it is a NameError in the judge."""
    calls = [n for n in ast.walk(tree) if type(n) is ast.Call and type(n.func) is ast.Name]
    checked = {a.id for c in calls if c.func.id == "check" for a in c.args if type(a) is ast.Name}
    free = {c.func.id for c in calls} | {a.id for c in calls for a in c.args if type(a) is ast.Name}
    return checked or {name for name in free if not hasattr(builtins, name)} | builtins_under_test(tree)


LITERAL = (ast.Constant, ast.List, ast.Tuple, ast.Set, ast.Dict, ast.UnaryOp, ast.USub, ast.UAdd, ast.Load)


def builtins_under_test(tree: ast.AST) -> set[str]:
    """Builtin names the tests use only as the function under test: every load is `f(literals)`
    as an asserted value or a comparison's left side (MBPP's `assert max(1, 2) == 2` for a task
    whose function is named max). Left to the builtin, the tests passed without calling the
    program at all: any program was accepted. The same rule as sandbox/harness/shared.py."""
    shaped, loads = set(), {}
    for n in ast.walk(tree):
        if type(n) is ast.Name and type(n.ctx) is ast.Load:
            loads.setdefault(n.id, []).append(id(n))
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
                    type(x) in LITERAL for a in e.args + [k.value for k in e.keywords] for x in ast.walk(a)):
                shaped.add(id(e.func))
    return {name for name, ids in loads.items() if hasattr(builtins, name) and all(i in shaped for i in ids)}


def missing(name: str):
    """An entry name the program does not define: calling it fails as the program's error (a
    builtin of that name must not answer for it)."""
    def call(*args, **kwargs):
        raise NameError(f"name {name!r} is not defined (the program defines no {name})")
    return call


def loaded_names(tests: bytes) -> tuple[set[str], set[str]]:
    """(entry names, every non-builtin name the tests read): proxies only for the first; the
    second may take the standard-library modules the program imported."""
    tree = ast.parse(tests, "tests.py")
    entry = entry_names(tree)
    return entry, {n.id for n in ast.walk(tree) if type(n) is ast.Name
                   and (n.id in entry or not hasattr(builtins, n.id))}


def namespace(program: Program, names: dict, wanted: tuple[set[str], set[str]]) -> dict:
    """The tests' globals: the program's functions as proxies and its plain-data constants, only
    for the entry names (entry_names), and each standard-library module the tests read by its own
    name (`math`; imported here, from the image: -I keeps /work off sys.path). Nothing else comes
    from the program, not even its module aliases (`import datetime as dt`): a name the tests read
    that only the program's import supplied let a wrong program leave the import out and turn
    its failure into the tests' "undefined name" (infra_error, reward None)."""
    g = {"__name__": "__main__", "__builtins__": builtins}
    entry, read = wanted
    for name, what in names.items():
        if name not in read or type(what) is not list or not what:
            continue
        if what[0] in ("call", "data") and name not in entry:
            continue
        if what[0] == "call":
            g[name] = proxy(program, name)
        elif what[0] == "data":
            g[name] = wire.decode(what[1])
            program.used = True
    for name in entry - g.keys():
        if hasattr(builtins, name):
            g[name] = missing(name)
    for name in read - g.keys() - entry:
        if name in sys.stdlib_module_names:
            try:
                g[name] = importlib.import_module(name)
            except ImportError:
                continue
    return g


def main() -> None:
    result_fd = int(os.environ.pop("RESULT_FD"))
    undumpable()
    pid, to_fd, from_fd = start_program(result_fd)
    data = sys.stdin.buffer.read()
    nonce, _, tests = data.partition(b"\n")
    del data
    hello = wire.recv(from_fd)
    if "load_error" in hello:  # the program itself failed (exception, exit): its runtime error
        sys.stderr.write(str(hello["load_error"])[-4000:])
        sys.exit(1)
    names = hello.get("names")
    code = compile(tests, "tests.py", "exec")
    wanted = loaded_names(tests)
    program = Program(to_fd, from_fd)
    g = namespace(program, names if type(names) is dict else {}, wanted)
    try:
        exec(code, g)  # noqa: S102 - the task's tests: trusted code, in this trusted process
    except AssertionError:
        os.write(result_fd, b"assert")
        traceback.print_exc()
        sys.exit(1)
    except NameError as e:  # a name the tests read and nobody may supply: the dataset's bug
        # The program's own NameError crosses without .name; an entry name (the function under
        # test) is the program's to define: a program that lacks it fails (runtime error), or any
        # wrong program could delete its function and get infra_error (reward None) instead of 0.
        if not e.name or e.name in wanted[0]:
            raise
        os.write(result_fd, b"undefined:" + e.name.encode()[:200])
        traceback.print_exc()
        sys.exit(1)
    if not program.used:  # tests that never reach the program would accept any program
        os.write(result_fd, b"unused")
        sys.exit(1)
    os.write(result_fd, b"ok:" + nonce)
    os.close(to_fd)  # the program's process sees EOF and leaves
    os.waitpid(pid, 0)


if __name__ == "__main__":
    main()

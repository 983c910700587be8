"""The program's side of the judge's channel: a new interpreter (`serve.py IN_FD OUT_FD`) that
judge.py starts with the program's uid, never a fork of the judge (judge.py start_program). It
says it is ready before it reads prog.py (the interpreter's start is not the program's time), runs
prog.py as the module `solution`, as the datasets' graders import it (an `if __name__ ==
"__main__":` block, often a demo reading stdin, does not run), reports its top-level names, then
answers calls: {"call": name, "args": [...], "kwargs": {...}} -> {"ok": result, "args": [...]},
{"exc": builtin exception name, "msg": text} or {"bad": why}. With "method": true, the call is
`Solution().<name>(...)` on a fresh instance (LeetCode-style programs; docs/tasks.md "Task schema").
Everything here after "ready" is the program's to change; the judge trusts none of it beyond
plain data (wire.py).
"""
from __future__ import annotations

import builtins
import importlib
import os
import sys
import traceback
import types

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # run as a script under -I
import wire  # noqa: E402


def describe(g: dict) -> dict:
    """Top-level names the tests may use: functions and classes (called through the channel),
    modules (imported again by the judge) and plain-data constants."""
    out = {}
    for name, value in list(g.items()):
        if name.startswith("__"):
            continue
        if isinstance(value, types.ModuleType):
            out[name] = ["module", getattr(value, "__name__", name)]
        elif callable(value):
            out[name] = ["call"]
        else:
            try:
                out[name] = ["data", wire.encode(value)]
            except TypeError:
                pass
    return out


def builtin_name(e: BaseException) -> str:
    """The first builtin class in the exception's MRO (ValueError for a ValueError subclass)."""
    for cls in type(e).__mro__:
        if cls.__module__ == "builtins":
            return cls.__name__
    return "Exception"


SEEDS = ("random.seed", "numpy.random.seed")  # the tests seeded their RNG: seed ours too (kinds.forward_seeds)


def target(g: dict, name: object, method: bool):
    """The function to call: a top-level one, a method of a fresh Solution instance, or a global
    RNG's seed (SEEDS: not identifiers, so never one of the program's names)."""
    if type(name) is not str:
        return None
    if name in SEEDS:
        return importlib.import_module(name.rpartition(".")[0]).seed
    if not method:
        return g.get(name)
    cls = g.get("Solution")
    return getattr(cls(), name, None) if isinstance(cls, type) else None


def answer(g: dict, message: dict) -> dict:
    name = message.get("call")
    args = wire.decode(message.get("args"))
    kwargs = wire.decode(message.get("kwargs"))
    try:
        fn = target(g, name, message.get("method") is True)
        if fn is None:
            return {"exc": "NameError", "msg": f"name {name!r} is not defined"}
        result = fn(*args, **kwargs)
    except Exception as e:  # noqa: BLE001 - any exception of the program's goes back by builtin type
        cls = type(e)
        return {"exc": builtin_name(e), "msg": str(e)[:1000], "cls": [str(cls.__module__), str(cls.__qualname__)]}
    try:
        reply = {"ok": wire.encode(result)}
    except TypeError as e:
        return {"bad": str(e)}
    try:
        reply["args"] = wire.encode(args)
    except TypeError:
        pass
    return reply


def main(in_fd: int, out_fd: int) -> None:
    wire.send(out_fd, {"ready": True})
    try:
        with open("prog.py", "rb") as f:
            code = compile(f.read(), "prog.py", "exec")
        mod = types.ModuleType("solution")  # a real module: dataclasses, pickle, typing look it up
        mod.__file__, mod.__builtins__ = "prog.py", builtins  # type: ignore[attr-defined]  # as CPython sets a module's
        sys.modules["solution"] = mod
        g = mod.__dict__
        wire.CLASSES = g  # where a tests' object finds its class (wire.test_object)
        sys.argv = ["prog.py"]
        exec(code, g)  # noqa: S102 - the program, in its own process
        hello: dict[str, object] = {"names": describe(g)}
    except BaseException:  # noqa: BLE001 - SystemExit included: the program ended before its tests
        hello = {"load_error": traceback.format_exc()[-4000:]}
    sys.stdout.flush()
    wire.send(out_fd, hello)
    if "load_error" in hello:
        return
    while True:
        try:
            message = wire.recv(in_fd)
        except wire.WireError:  # the judge is done
            return
        wire.send(out_fd, answer(g, message))
        sys.stdout.flush()


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]))

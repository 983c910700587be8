"""The program's side of the judge's channel: runs in the forked child of judge.py, which holds
no secret (standard library only). It runs prog.py as __main__, reports its top-level names, then
answers calls: {"call": name, "args": [...], "kwargs": {...}} -> {"ok": result, "args": [...]},
{"exc": builtin exception name, "msg": text} or {"bad": why}. Everything here is the program's
to change; the judge trusts none of it beyond plain data (wire.py).
"""
from __future__ import annotations

import builtins
import sys
import traceback
import types

import wire


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


def answer(g: dict, message: dict) -> dict:
    name = message.get("call")
    fn = g.get(name) if type(name) is str else None
    if fn is None:
        return {"exc": "NameError", "msg": f"name {name!r} is not defined"}
    args = wire.decode(message.get("args"))
    kwargs = wire.decode(message.get("kwargs"))
    try:
        result = fn(*args, **kwargs)
    except Exception as e:  # noqa: BLE001 - any exception of the program's goes back by builtin type
        return {"exc": builtin_name(e), "msg": str(e)[:1000]}
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
    try:
        with open("prog.py", "rb") as f:
            code = compile(f.read(), "prog.py", "exec")
        g = {"__name__": "__main__", "__file__": "prog.py", "__builtins__": builtins}
        sys.argv = ["prog.py"]
        exec(code, g)  # noqa: S102 - the program, in its own process
        hello = {"names": describe(g)}
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

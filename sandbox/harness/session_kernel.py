"""The persistent interpreter of a session (docs/sessions.md "Sessions"): a child of session_box.py, which
holds no secret (standard library only). Everything here is the cells' to change; the supervisor
trusts none of it beyond one JSON result line per cell, and frames every reply itself.

fds: 0 is /dev/null (input() gets EOF), 1 and 2 are the cell's stdout and stderr pipes, the fd in
argv[1] brings requests ({"nonce", "code", "value_max"} lines), the one in argv[2] takes results ({"nonce", "ok",
"value", "error"} lines). IPython-like: the value of a last expression statement is returned as
its repr (None is not), bound to `_`; an exception comes back with its traceback, cell frames only.
"""
from __future__ import annotations

import ast
import builtins
import json
import linecache
import os
import sys
import traceback
import types

TRACEBACK_MAX = 16 << 10  # characters of each field of an error (ename, evalue, traceback)


def line_max(value_max: int) -> int:
    """The most bytes of one result line this interpreter writes for a value of at most `value_max` characters: JSON
    text (ensure_ascii) takes at most 12 bytes a character (an astral one as two \\u escapes), for the value and the
    error's three fields, plus the keys and the nonce. PID 1 reads at most this much of a cell's result channel
    (session_box.ResultLine): more is the cell's own doing."""
    return 12 * (value_max + 3 * TRACEBACK_MAX) + 1024


def _error(exc: BaseException) -> dict:
    """The exception as IPython shows it: name, message, traceback of the cell's frames only."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename == __file__:
        tb = tb.tb_next  # our own frames are not the cell's
    lines = "".join(traceback.format_exception(type(exc), exc, tb))
    return {"ename": type(exc).__name__[:TRACEBACK_MAX], "evalue": str(exc)[:TRACEBACK_MAX] if _str_ok(exc) else "",
            "traceback": lines[-TRACEBACK_MAX:]}


def _str_ok(exc: BaseException) -> bool:
    try:
        str(exc)
        return True
    except Exception:
        return False


# Bound here: a cell rebinding builtins.repr or json.dumps does not change how later values are shown.
_repr, _str, _len, _isinstance, _dumps, _loads = repr, str, len, isinstance, json.dumps, json.loads
# Defence in depth only: a cell can change anything in this process
# (docs/sessions.md "Sessions": a session's values and output are the policy's own, never a trusted check's).


def run_cell(ns: dict, code: str, name: str, value_max: int) -> dict:
    """Run one cell in the session's namespace; the last expression's value comes back as repr."""
    linecache.cache[name] = (len(code), None, code.splitlines(True), name)  # tracebacks show cell lines
    try:
        tree = ast.parse(code, name, "exec")
        last = None
        if tree.body and isinstance(tree.body[-1], ast.Expr):
            last = ast.Expression(tree.body.pop().value)  # type: ignore[attr-defined]  # an ast.Expr: checked above
        exec(compile(tree, name, "exec"), ns)
        value = eval(compile(last, name, "eval"), ns) if last is not None else None
        if value is None:
            return {"ok": True, "value": None}
        ns["_"] = value
        text = _repr(value)
        if not _isinstance(text, _str):  # a __repr__ returning a str subclass: its own str() could lie
            text = _str.__str__(text)
        return {"ok": True, "value": text[:value_max], "value_truncated": _len(text) > value_max}
    except BaseException as exc:  # SystemExit and KeyboardInterrupt too: IPython reports them, the session lives
        return {"ok": False, "error": _error(exc)}
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:
                pass


def main() -> None:
    module = types.ModuleType("__main__")  # cells run as __main__ (pickle and dataclasses look it up)
    module.__dict__["__builtins__"] = builtins
    sys.modules["__main__"] = module
    requests = os.fdopen(int(sys.argv[1]), "rb", buffering=0)
    results = os.fdopen(int(sys.argv[2]), "wb", buffering=0)
    count = 0
    buf = b""
    while True:
        while b"\n" not in buf:
            chunk = requests.read(1 << 16)
            if not chunk:
                return
            buf += chunk
        line, _, buf = buf.partition(b"\n")
        request = _loads(line)
        count += 1
        reply = run_cell(module.__dict__, request["code"], f"<cell-{count}>", int(request["value_max"]))
        reply["nonce"] = request["nonce"]
        results.write(_dumps(reply).encode() + b"\n")


if __name__ == "__main__":
    main()

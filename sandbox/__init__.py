"""Sandboxed code grading: hardened Docker warm pool, five languages, per-test verdicts.

Public API (everything else is private):

- `SandboxConfig`: every setting, documented field by field.
- `CodeGrader`: `await start()`, `available`, `unavailable_reason()`, `languages()`,
  `await grade(task, timeout_s=None)`, `await close()`.
- `build_images(languages=None, force=False, progress=print, prune=False) -> {language: tag}`.
- `extract_code`, `compare`: the pure rules, for callers that want them without Docker.
- `CodeTask`, `TaskError`: the task model (sandbox/spec.py); `grade` parses a dict through it, so an
  unknown key or a value the sandbox cannot honour is answered infra_error (retryable False) naming
  the field.

`grade(task)` result: {"verdict", "score", "detail", "extracted", "extracted_from", "tests":
[{"verdict", "time_s", "detail", "exit_code"}], "retryable"}. Verdicts: accepted, wrong_answer,
compile_error, runtime_error, time_limit, memory_limit, output_limit, no_code, infra_error.
This package imports nothing of the server.

Known limits (security review, issue 3):

- test_code tasks run in a separate judge process by default (README.md, "How assert-style tests
  are judged"): the program's functions are called over plain data, and no secret exists in the
  program's process. The rest of this list is about `judge: "shared"` (sandbox/harness/shared.py),
  where program and asserts share ONE interpreter (as HumanEval does) and the verdict rests on
  in-process defences: the nonce and tests arrive on stdin before the program starts, the tests
  run with saved exec/compile and a pristine builtins copy, and an audit hook blocks frames,
  tracing, gc, ctypes, code objects, /proc, directory fds, non-str/bytes paths, symlinks and new
  processes, and signal handlers (their frame argument). Not closed there: an interpreter
  memory-safety bug reachable from pure Python, and code objects built by marshal.loads.
- Asserts compare plain data (sandbox/harness/shared.py): inside assert statements,
  comparisons, arithmetic and a bare asserted value read exact builtin data (subclasses of
  int/float/str/list/tuple/set/dict by their builtin content, so an always-true __eq__, __ne__,
  __lt__, __contains__, __sub__ or __bool__ does not pass); a non-plain value facing a plain one
  fails the assert. Honest programs that return numpy integers or bools (np.float64 is a float),
  Fraction, Decimal, bytes or complex subclasses, or a re.Match to a bare `assert f(x)`, fail too.
- Names the tests share with the program are pinned (sandbox/harness/shared.py): every builtin the tests
  load but never bind is the real builtin (a program's `def abs(x): return 0`, or one rebinding
  `len`/`sorted` in globals() mid-test, changes nothing), and modules the tests import from a
  stdlib list (math, re, collections, itertools, functools, random, string, copy...) plus their
  attributes one level deep (`math.isclose`, `from math import isclose`) are the objects read
  before the program ran (monkeypatching or replacing sys.modules['math'] changes nothing). The
  function under test keeps the program's binding if it has a builtin's name: a builtin whose
  every load is `f(literals)` as an asserted value or a comparison's left side, or a bare name
  passed to a call statement (`check(sum)`); so a test computing an expected value that way
  (`assert sorted([2, 1]) == f(x)`) could be steered, and a test calling a builtin-named function
  under test on variables (`assert max(xs) == 3`) gets the builtin (an honest `max` fails).
- Still open: comparisons where neither side is plain data (tests comparing custom objects, or
  f(x) == f(y)) run the program's __eq__; a conversion the test applies runs the program's method
  (the real str, abs, len, sorted still call f(x)'s __str__, __abs__, __len__, __iter__/__lt__:
  str(f(x)) == "3", abs(f(x)) < 1e-6, len(f(x)) == 2); checks outside assert statements (`if f(x) != y:
  raise`, unittest's assertEqual); a builtin the tests bind anywhere (then never pinned), modules
  not on the list or reached deeper (`os.path.join`, `collections.Counter.__eq__`, re.match's own
  module globals such as re._compile), which the program can still patch; module names the tests
  use without importing them (then the program's); and helpers the prompt gave the program
  (they are the program's, and it may redefine them).
  Prefer stdin/stdout tests where reward hacking matters.
- A program may lower PID 1's CPU affinity, nice value or scheduling policy (Linux checks only the
  effective uid, which PID 1 shares with it; rlimits and I/O priority are out of its reach): it gets
  runtime_error, its later tests are not run, and the container is recycled.
"""
from __future__ import annotations

import importlib
from typing import Any

# Loaded on first use, so that `sandbox.config`, `sandbox.spec` and the task schema import
# without the docker package (a client-only install has none; README "Install").
_EXPORTS = {"build_images": ".build", "image_tag": ".build", "VERDICTS": ".checks", "compare": ".checks",
            "extract_code": ".checks", "LanguageLimits": ".config", "SandboxConfig": ".config",
            "CodeGrader": ".grader", "CodeTask": ".spec", "TaskError": ".spec"}


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'sandbox' has no attribute {name!r}")
    return getattr(importlib.import_module(_EXPORTS[name], __name__), name)


__all__ = ["CodeGrader", "SandboxConfig", "LanguageLimits", "build_images", "image_tag",
           "extract_code", "compare", "VERDICTS", "CodeTask", "TaskError"]

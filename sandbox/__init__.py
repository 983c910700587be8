"""Sandboxed code grading: a warm pool of hardened sandboxes (Docker, or without a daemon: gVisor, or Linux namespaces on the host's kernel), seven languages, per-test verdicts.

Public API (everything else is private):

- `SandboxConfig`: every setting, documented field by field.
- `CodeGrader`: `await start()`, `available`, `unavailable_reason()`, `languages()`,
  `await grade(task, timeout_s=None)`, `await close()`.
- `build_images(languages=None, force=False, progress=print, prune=False) -> {language: tag}`.
- `extract_code`, `compare`: the pure rules, for callers that want them without Docker.
- `CodeTask`, `TaskError`: the task model (sandbox/contract.py, the contract every part shares); `grade` parses a dict through it, so an
  unknown key or a value the sandbox cannot honour is answered infra_error (retryable False) naming
  the field.

`grade(task)` result: {"verdict", "score", "detail", "extracted", "extracted_from", "tests":
[{"verdict", "time_s", "detail", "exit_code"}], "retryable"}. Verdicts: accepted, wrong_answer,
compile_error, runtime_error, time_limit, memory_limit, output_limit, no_code, infra_error.
This package imports nothing of the server.

Known limits (security review, issue 3):

- test_code tasks (asserts, pytest and unittest files, BigCodeBench included) run in a judge
  process apart from the program's (docs/sandboxes.md "How assert-style tests are judged"): every call
  crosses a typed, data-only channel (sandbox/harness/wire.py, wire_rich.py: builtin, standard-
  library, numpy and pandas values, never pickle), and no secret exists in the program's process.
  A value that cannot cross (a matplotlib Axes, an open file, a program-defined object) is a
  wrong_answer naming its type. There is no shared-interpreter mode (`judge: "shared"` is refused).
- A program may lower PID 1's CPU affinity, nice value or scheduling policy (Linux checks only the
  effective uid, which PID 1 shares with it; rlimits and I/O priority are out of its reach): it gets
  runtime_error, its later tests are not run, and the container is recycled.
"""
from __future__ import annotations

import importlib
from typing import Any

# Loaded on first use, so that `sandbox.config`, `sandbox.contract` and the task schema import
# without the docker package (a client-only install has none; README "Install").
_EXPORTS = {"build_images": ".build", "image_tag": ".build", "VERDICTS": ".checks", "compare": ".checks",
            "extract_code": ".checks", "LanguageLimits": ".contract", "SandboxConfig": ".config",
            "CodeGrader": ".grader", "CodeTask": ".contract", "TaskError": ".contract"}


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'sandbox' has no attribute {name!r}")
    return getattr(importlib.import_module(_EXPORTS[name], __name__), name)


__all__ = ["CodeGrader", "SandboxConfig", "LanguageLimits", "build_images", "image_tag",
           "extract_code", "compare", "VERDICTS", "CodeTask", "TaskError"]

"""Sandboxed code grading: hardened Docker warm pool, five languages, per-test verdicts.

Public API (everything else is private):

- `SandboxConfig`: every setting, documented field by field.
- `CodeGrader`: `await start()`, `available`, `unavailable_reason()`, `languages()`,
  `await grade(task, timeout_s=None)`, `await close()`.
- `build_images(languages=None, force=False, progress=print) -> {language: tag}`.
- `extract_code`, `compare`: the pure rules, for callers that want them without Docker.

`grade(task)` result: {"verdict", "score", "detail", "extracted", "extracted_from", "tests":
[{"verdict", "time_s", "detail", "exit_code"}], "retryable"}. Verdicts: accepted, wrong_answer,
compile_error, runtime_error, time_limit, memory_limit, output_limit, no_code, infra_error.
This package imports nothing of the server.
"""
from .build import build_images, image_tag
from .checks import VERDICTS, compare, extract_code
from .config import LanguageLimits, SandboxConfig
from .grader import CodeGrader

__all__ = ["CodeGrader", "SandboxConfig", "LanguageLimits", "build_images", "image_tag",
           "extract_code", "compare", "VERDICTS"]

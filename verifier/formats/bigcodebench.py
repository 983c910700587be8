"""BigCodeBench: `test` (a unittest file with `class TestCases`), `entry_point` (`task_func`),
`complete_prompt` (imports, signature and docstring: the `complete` split continues it) and
`instruct_prompt`. The tests call `task_func` without importing it and read the prompt's imports
and constants (`pd`, `np`, `OUTPUT_DIR`), as BigCodeBench runs them in the solution's module: the
prompt's own prelude (the dataset's, never the program's) goes before the test file, which runs
with unittest in the process judge; every call of `task_func` crosses to the program's process
with its DataFrames, arrays and other values as typed data (docs/sandboxes.md "How assert-style tests are
judged"), with the libraries of the python image. BigCodeBench runs the test file in the
solution's own module, so the test's imports reach the program too (a canonical solution calls
`os.path.join` with only the test importing `os`, or `datetime.datetime` after the test's `import
datetime` rebound the prompt's `from datetime import datetime`): the test's top-level imports are
appended to the program, as they run after it there."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import ast

from .common import FormatError, continued, extract_code, rewrap
from .humaneval import prelude

NAME = "bigcodebench"
TIME_LIMIT_S = 20.0  # BigCodeBench's tests plot and fit models; its own harness allows far more


def detect(row: Mapping[str, Any]) -> bool:
    test = row.get("test")
    return isinstance(test, str) and isinstance(row.get("entry_point"), str) \
        and (row.get("complete_prompt") is not None or row.get("instruct_prompt") is not None or "unittest" in test)


def to_task(row: Mapping[str, Any], completion: str) -> dict:
    entry = row.get("entry_point") or "task_func"
    if not isinstance(row.get("test"), str) or not row["test"].strip():
        raise FormatError("test: expected the unittest file as a string")
    prompt = row.get("complete_prompt") or row.get("code_prompt") or ""
    if prompt and not isinstance(prompt, str):
        raise FormatError("complete_prompt: expected a string")
    try:
        helpers = prelude(prompt, entry) if prompt else ""
    except SyntaxError as e:
        raise FormatError(f"complete_prompt: not valid Python ({e.msg}, line {e.lineno})") from None
    test_code = f"{helpers}\n{row['test']}" if helpers.strip() else row["test"]
    program = continued(completion, prompt, entry, helpers) if prompt else completion
    return {"kind": "code", "language": "python", "entry_point": entry, "test_code": test_code,
            "test_framework": "unittest", "time_limit_s": TIME_LIMIT_S,
            "completion": with_test_imports(program, row["test"])}


def with_test_imports(completion: str, test: str) -> str:
    """The completion's program followed by the test file's top-level import statements (the
    dataset's; imports only, never its expected values); as is without code or imports."""
    try:
        imports = [ast.unparse(n) for n in ast.parse(test).body if isinstance(n, (ast.Import, ast.ImportFrom))]
    except (SyntaxError, ValueError, RecursionError):
        return completion
    code, how = extract_code(completion, "python")
    if how == "none" or not imports:
        return completion
    return rewrap(completion, code.rstrip("\n") + "\n\n" + "\n".join(imports) + "\n", how)

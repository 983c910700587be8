"""open-r1/codeforces: `official_tests` [{"input", "output"}], `time_limit` (s), `memory_limit` (MB),
`input_mode` ("stdio" | "file": input.txt / output.txt), `generated_checker` (Python, or null).

open-r1 runs the checker as `python checker.py input.txt correct_output.txt solution_output.txt`
and takes the test as passed when it prints "1". Our checker convention (docs/tasks.md "Task schema") is
`checker.py input output answer`, exit 0 accepts: the checker we send runs the generated one with
open-r1's argument order and turns its printed "1" into exit 0.

A row without a checker whose expected outputs are all yes/no words is compared with `tokens_ci`:
Codeforces judges such answers with testlib's case-insensitive yes/no checker ("you may print
each letter in any case"), so `Yes` is right for `YES`; a wrong word, a missing or an extra one
stays wrong (docs/datasets.md "Dataset formats").
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .common import FormatError, language_of, stdin_tests

NAME = "codeforces"
YES_NO = {b"yes", b"no"}

# Runs the dataset's checker source (embedded below as a string literal) with open-r1's arguments:
# input, correct output, the program's output. A crash propagates: our checker convention then
# re-checks the reference answer to tell the program's fault from the checker's.
CHECKER_WRAPPER = '''import contextlib, io, sys
SOURCE = {source!r}
inp, out, ans = sys.argv[1:4]
sys.argv = ["checker.py", inp, ans, out]
buf = io.StringIO()
code = 0
with contextlib.redirect_stdout(buf):
    try:
        exec(compile(SOURCE, "generated_checker.py", "exec"), {{"__name__": "__main__"}})
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
printed = buf.getvalue().strip()
print(f"generated checker printed {{printed[:80]!r}}" + (f", exit {{code}}" if code else ""))
sys.exit(0 if code == 0 and printed == "1" else 1)
'''


def detect(row: Mapping[str, Any]) -> bool:
    return row.get("official_tests") is not None \
        or (row.get("generated_checker") is not None and row.get("input_mode") is not None)


def to_task(row: Mapping[str, Any], completion: str) -> dict:
    tests = row.get("official_tests")
    if not isinstance(tests, list) or not tests:
        raise FormatError("official_tests: expected a non-empty list of {input, output}")
    for n, t in enumerate(tests):
        if not isinstance(t, Mapping) or "input" not in t or "output" not in t:
            raise FormatError(f"official_tests[{n}]: needs input and output")
    if isinstance(row.get("interaction_format"), str) and row["interaction_format"].strip():
        raise FormatError("interaction_format: interactive problems need an interactor, which we do not run")
    task: dict[str, Any] = {"kind": "code", "language": language_of(row, completion), "completion": completion,
                            "tests": stdin_tests([t["input"] for t in tests], [t["output"] for t in tests],
                                                 "official_tests")}
    if isinstance(row.get("time_limit"), (int, float)) and row["time_limit"] > 0:
        task["time_limit_s"] = float(row["time_limit"])
    if isinstance(row.get("memory_limit"), (int, float)) and row["memory_limit"] > 0:
        task["memory_limit_mb"] = int(row["memory_limit"])
    mode = row.get("input_mode") or "stdio"
    if mode == "file":
        task["input_file"], task["output_file"] = "input.txt", "output.txt"
    elif mode != "stdio":
        raise FormatError(f"input_mode: expected 'stdio' or 'file', got {mode!r}")
    checker = row.get("generated_checker")
    if isinstance(checker, str) and checker.strip():
        task["checker"] = CHECKER_WRAPPER.format(source=checker)
    elif yes_no_only([t["expected_stdout"] for t in task["tests"]]):
        task["compare"] = "tokens_ci"
    return task


def yes_no_only(outputs: list[str]) -> bool:
    """Every expected output is one or more yes/no tokens, in any ASCII case (split as the
    comparators split: sandbox/checks.py)."""
    def words(o: str) -> list[bytes]:
        return o.encode("utf-8", "surrogatepass").lower().split()
    return all(words(o) and all(w in YES_NO for w in words(o)) for o in outputs)

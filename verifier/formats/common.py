"""What the dataset formats share: the completion, JSON columns, stdin and call tests, programs
continued from a prompt, and a safe reader for LiveCodeBench's pickled test cases.

Every function is pure (no Docker, no network): the trainer and a client-only install import them.
"""
from __future__ import annotations

import ast
import base64
import io
import json
import pickle
import zlib
from collections.abc import Mapping, Sequence
from typing import Any

from sandbox.checks import extract_code, fenced_blocks
from sandbox.contract import MAX_PROBLEM_BYTES
from sandbox.languages import alias_map

# Names LiveCodeBench's and APPS's graders import before running a program, stdin or call-based
# (LeetCode's own environment has them too): a `def f(self, nums: List[int])` without
# `from typing import List` is accepted there, so it must not be a runtime_error here.
PREAMBLE = ("from typing import *\nfrom collections import *\nfrom heapq import *\nfrom bisect import *\n"
                 "from itertools import *\nfrom functools import *\nfrom math import *\nfrom builtins import *\n"
                 "import collections, heapq, bisect, itertools, functools, math, string, re, sys\n")


class FormatError(ValueError):
    """A row that cannot be read in the format asked for; the message names what is wrong."""


def columns_seen(row: Mapping[str, Any], most: int = 40) -> str:
    """The row's column names (the first `most`, sorted), for an error that says what was there."""
    names = sorted(str(k) for k in row)
    more = f", ... ({len(names) - most} more)" if len(names) > most else ""
    return ", ".join(names[:most]) + more if names else "(none)"


def completion_text(completion: Any) -> str:
    """The text to grade: a string as is; for a message list the last assistant message's content.

    Tool-using and multi-turn completions hold several messages; the answer is in the last
    assistant turn. Content given as parts ([{"type": "text", "text": ...}]) is joined.
    """
    if isinstance(completion, str):
        return completion
    if isinstance(completion, Mapping):
        return _content(completion.get("content"))
    if isinstance(completion, Sequence):
        messages = [m for m in completion if isinstance(m, Mapping)]
        for message in reversed(messages):
            if message.get("role", "assistant") == "assistant":
                return _content(message.get("content"))
        return _content(messages[-1].get("content")) if messages else ""
    return ""


def prompt_problem(prompt: Any) -> str:
    """The problem text of a trainer's prompt (MathTask.problem; TRL's `prompts`): a string as is; for a message list
    its user messages' contents, one a line (the question is the user's; a system prompt or a few-shot answer in an
    assistant turn is not the problem). Cut to its last MAX_PROBLEM_BYTES bytes (the question ends a prompt; a cut
    problem names fewer names, so the grammar admits less, never more)."""
    if isinstance(prompt, str):
        text = prompt
    elif isinstance(prompt, Sequence):
        text = "\n".join(_content(m.get("content")) for m in prompt if isinstance(m, Mapping) and m.get("role") == "user")
    else:
        return ""
    data = text.encode("utf-8", "surrogatepass")
    if len(data) <= MAX_PROBLEM_BYTES:
        return text
    return data[-MAX_PROBLEM_BYTES:].decode("utf-8", "ignore")


def _content(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, Sequence):
        parts = [p.get("text", "") for p in content if isinstance(p, Mapping) and p.get("type") == "text"]
        return "".join(p for p in parts if isinstance(p, str))
    return ""


def load_json(value: Any, column: str) -> Any:
    """A column stored as JSON text (most datasets) or already decoded (a parquet struct)."""
    if isinstance(value, (bytes, bytearray)):
        value = value.decode("utf-8", "replace")
    if isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError as e:
            raise FormatError(f"{column}: not valid JSON ({e})") from None
    return value


def language_of(row: Mapping[str, Any], completion: str, default: str = "python") -> str:
    """The row's `language` column, else the tag of the completion's last fenced block when it names
    a language we run (```cpp), else `default`: competitive-programming rows accept any language."""
    aliases = alias_map()
    stated = row.get("language")
    if isinstance(stated, str) and stated.strip().lower() in aliases:
        return aliases[stated.strip().lower()]
    blocks = fenced_blocks(completion)
    if blocks and blocks[-1][0] in aliases:
        return aliases[blocks[-1][0]]
    return default


def as_text(value: Any, where: str) -> str:
    """A test's input or output: a string, or a list of lines (some APPS rows store those)."""
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return "\n".join(value)
    raise FormatError(f"{where}: expected a string or a list of lines, got {type(value).__name__}")


def stdin_tests(inputs: Sequence[Any], outputs: Sequence[Any], where: str) -> list[dict]:
    """Our {"stdin", "expected_stdout"} tests from parallel input and output lists."""
    if len(inputs) != len(outputs):
        raise FormatError(f"{where}: {len(inputs)} inputs but {len(outputs)} outputs")
    return [{"stdin": as_text(i, f"{where}.inputs[{n}]"), "expected_stdout": as_text(o, f"{where}.outputs[{n}]")}
            for n, (i, o) in enumerate(zip(inputs, outputs))]


def apps_call_tests(inputs: Sequence[Any], outputs: Sequence[Any], where: str) -> list[dict]:
    """APPS/TACO call-based tests: inputs[i] is the argument list; outputs[i] is the value, usually
    wrapped in a one-element list. APPS's grader accepts the result equal to outputs[i] or to
    outputs[i][0]; we take outputs[i][0] for a one-element list (docs/datasets.md "Dataset formats")."""
    if len(inputs) != len(outputs):
        raise FormatError(f"{where}: {len(inputs)} inputs but {len(outputs)} outputs")
    tests = []
    for args, expected in zip(inputs, outputs):
        if isinstance(expected, list) and len(expected) == 1:
            expected = expected[0]
        tests.append({"args": args if isinstance(args, list) else [args], "expected": expected})
    return tests


def lcb_call_test(stdin: str, output: str, where: str) -> dict:
    """A LiveCodeBench functional test: one JSON value per input line (the arguments), the output
    one JSON value, as LiveCodeBench's grader reads them."""
    try:
        args = [json.loads(line) for line in stdin.split("\n")]
        expected = json.loads(output)
    except ValueError as e:
        raise FormatError(f"{where}: a functional test's input and output must be JSON lines ({e})") from None
    return {"args": args, "expected": expected}


class _DataOnly(pickle.Unpickler):
    """Unpickles str, list, dict, numbers and None only: find_class is where any other object
    (and so any code) would come from, and it refuses everything."""

    def find_class(self, module: str, name: str):  # noqa: D102
        raise pickle.UnpicklingError(f"refused: {module}.{name} (only plain data is read)")


def lcb_private_tests(value: Any, where: str) -> list:
    """LiveCodeBench's private_test_cases: JSON text, or base64 of zlib of a pickled JSON string.
    Read with an unpickler that builds no object other than plain data (never pickle.loads)."""
    if isinstance(value, list):
        return value
    if not isinstance(value, str) or not value.strip():
        return []
    try:
        decoded = json.loads(value)
    except ValueError:
        decoded = _unpickled(value, where)
    if not isinstance(decoded, list):
        raise FormatError(f"{where}: decoded to {type(decoded).__name__}, expected a list of tests")
    return decoded


def _unpickled(value: str, where: str) -> Any:
    """base64 of zlib of a pickle of plain data (a JSON string, as LiveCodeBench stores it), decoded."""
    try:
        raw = _inflate(base64.b64decode(value.encode("ascii"), validate=True), where)
        data = _DataOnly(io.BytesIO(raw)).load()
    except FormatError:
        raise
    except Exception as e:  # noqa: BLE001 -- any failure here is the row's: name it
        raise FormatError(f"{where}: not JSON and not base64(zlib(pickle)) of plain data ({e})") from None
    return load_json(data, where) if isinstance(data, (str, bytes)) else data


# The largest decompressed test set read from one row: a few kilobytes of zlib can inflate to
# gigabytes, which would take the CLI's or a trainer's memory, not a sandbox's.
MAX_INFLATED_BYTES = 256 << 20


def _inflate(data: bytes, where: str) -> bytes:
    """zlib-decompress at most MAX_INFLATED_BYTES; more is the row's error, never an allocation."""
    inflater = zlib.decompressobj()
    raw = inflater.decompress(data, MAX_INFLATED_BYTES)
    if inflater.unconsumed_tail:
        raise FormatError(f"{where}: decompresses to more than {MAX_INFLATED_BYTES >> 20} MB")
    return raw


def defines(code: str, name: str) -> bool:
    """Whether the code parses and defines `name` at top level (a function or a class)."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError):
        return False
    return any(isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and n.name == name
               for n in tree.body)


def rewrap(completion: str, code: str, how: str) -> str:
    """The completion with its program replaced by `code`, extracted the same way as before: a raw
    completion stays raw, a fenced one gets a python fence (longer than any run of backticks in it)."""
    if how == "raw":
        return code
    fence = "`" * max(3, _longest_backticks(code) + 1)
    return f"{fence}python\n{code}\n{fence}\n"


def _longest_backticks(text: str) -> int:
    best = run = 0
    for ch in text:
        run = run + 1 if ch == "`" else 0
        best = max(best, run)
    return best


def continued(completion: str, prompt: str, entry_point: str, prelude: str = "") -> str:
    """A completion that continues the prompt (a function body only, as HumanEval and BigCodeBench's
    `complete` split are sampled), made into the whole program: prompt + body. A completion that
    defines `entry_point` itself gets `prelude` (the prompt's imports and helpers) before it, as the
    dataset's harness runs prompt + completion; one that does not parse either way is left alone (it
    fails on its own merits, as compile_error)."""
    code, how = extract_code(completion, "python")
    if how == "none":
        return completion
    if defines(code, entry_point):
        return rewrap(completion, f"{prelude}\n\n{code}", how) if prelude.strip() else completion
    joined = prompt + code if prompt.endswith("\n") else f"{prompt}\n{code}"
    if not defines(joined, entry_point):
        return completion
    return rewrap(completion, joined, how)


def with_preamble(completion: str, preamble: str = PREAMBLE) -> str:
    """The completion's program with `preamble` before it (extraction as before; after the program's
    docstring and `from __future__` imports, which must come first); no code: as is."""
    code, how = extract_code(completion, "python")
    if how == "none":
        return completion
    lines = code.splitlines(keepends=True)
    at = _future_end(code)
    return rewrap(completion, "".join(lines[:at]) + ("\n" if at and not lines[at - 1].endswith("\n") else "")
                  + preamble + "".join(lines[at:]), how)


def _future_end(code: str) -> int:
    """How many leading lines hold the module docstring and `from __future__` imports (0 if none,
    or if the code does not parse: it fails on its own then)."""
    try:
        body = ast.parse(code).body
    except (SyntaxError, ValueError):
        return 0
    end = 0
    for i, node in enumerate(body):
        docstring = i == 0 and isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) \
            and isinstance(node.value.value, str)
        if not (docstring or (isinstance(node, ast.ImportFrom) and node.module == "__future__")):
            break
        end = node.end_lineno or end
    return end

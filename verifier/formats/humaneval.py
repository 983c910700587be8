"""HumanEval: `prompt` (signature and docstring), `test` (defines check(candidate)), `entry_point`.

A completion that continues the prompt (the body only, as HumanEval is sampled) is graded as
prompt + body; one that writes the whole function gets the prompt's imports and helpers before it,
as HumanEval's harness (prompt + completion) gives it.

A prompt can hold helpers the tests use (problem 32's `poly`, 38's `encode_cyclic`, 50's
`encode_shift`). The judge hands the tests only the entry function from the program (docs/sandboxes.md
"How assert-style tests are judged"): a program redefining `poly` must not change the tests' `poly`.
So the prompt, less the entry function, goes before the tests as a trusted prelude.
"""
from __future__ import annotations

import ast
from collections.abc import Mapping
from typing import Any

from .common import FormatError, continued

NAME = "humaneval"


def prelude(prompt: str, entry_point: str) -> str:
    """The prompt's imports and helpers, without the entry function (a stub with only a docstring)."""
    tree = ast.parse(prompt)
    tree.body = [n for n in tree.body
                 if not (isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == entry_point)]
    return ast.unparse(tree)


def test_code(problem: Mapping[str, Any]) -> str:
    """The task's test_code: the prompt's helpers, the problem's tests, then check(entry_point)."""
    return f"{prelude(problem['prompt'], problem['entry_point'])}\n{problem['test']}\ncheck({problem['entry_point']})\n"


def detect(row: Mapping[str, Any]) -> bool:
    return all(isinstance(row.get(c), str) for c in ("prompt", "test", "entry_point")) and "def check" in row["test"]


def to_task(row: Mapping[str, Any], completion: str) -> dict:
    for column in ("prompt", "test", "entry_point"):
        if not isinstance(row.get(column), str) or not row[column].strip():
            raise FormatError(f"{column}: expected a non-empty string")
    try:
        helpers = prelude(row["prompt"], row["entry_point"])
    except SyntaxError as e:
        raise FormatError(f"prompt: not valid Python ({e.msg}, line {e.lineno})") from None
    return {"kind": "code", "language": "python", "entry_point": row["entry_point"], "test_code": test_code(row),
            "completion": continued(completion, row["prompt"], row["entry_point"], helpers)}

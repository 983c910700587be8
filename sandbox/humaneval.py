"""HumanEval problems as test_code: the tests' helpers come with the tests, never from the program.

A HumanEval prompt can hold helpers the tests use (problem 32's `poly`, 38's `encode_cyclic`, 50's
`encode_shift`). The judge hands the tests only the entry function from the program (README.md,
"How assert-style tests are judged"): a program redefining `poly` must not change the tests' `poly`.
So the prompt, less the entry function, goes before the tests as a trusted prelude.
"""
from __future__ import annotations

import ast


def prelude(prompt: str, entry_point: str) -> str:
    """The prompt's imports and helpers, without the entry function (a stub with only a docstring)."""
    tree = ast.parse(prompt)
    tree.body = [n for n in tree.body
                 if not (isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == entry_point)]
    return ast.unparse(tree)


def test_code(problem: dict) -> str:
    """The task's test_code: the prompt's helpers, the problem's tests, then check(entry_point)."""
    return f"{prelude(problem['prompt'], problem['entry_point'])}\n{problem['test']}\ncheck({problem['entry_point']})\n"

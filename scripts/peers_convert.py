"""Convert peers' labelled math-equivalence test suites into tests/data/peers/<suite>.jsonl.

Reads local copies of the upstream files (nothing is fetched here) and writes only data: one case a
line, {"gold", "prediction", "label", "source", "prediction_is", "options"}. See
tests/data/peers/README.md for what each suite's fields mean and how tests/test_math_peers.py grades
them. Usage:

    python scripts/peers_convert.py --math-verify DIR --mario FILE --nemo FILE --hendrycks FILE

DIR is an unpacked math-verify 0.9.0 source distribution (its tests/ folder); each FILE is the
upstream test module as text. Test modules are read with `ast`, never imported or run.
"""

from __future__ import annotations

import argparse
import ast
import json
import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

OUT_DIR = Path(__file__).resolve().parent.parent / "tests" / "data" / "peers"

# math-verify 0.9.0: test modules whose parametrized cases are (gold, pred, label) pairs graded by
# `compare_strings` (parse both sides with extraction, then verify) or by `verify(parse(gold), parse(pred))`.
MV_FILES = ("test_all.py", "test_boxed.py", "test_numina_cases.py", "test_open_thoughts.py",
            "test_strict.py", "test_yujianll.py")
MV_REF = "huggingface/Math-Verify@0.9.0"
MARIO_REF = "MARIO-Math-Reasoning/MARIO_EVAL@13584f20b71ffc6e9873e86481054849ed015065"
NEMO_REF = "NVIDIA-NeMo/Skills@8b18f3992854bcb668095228a146e214c567b370"
HENDRYCKS_REF = "hendrycks/math@985bdc1696e88e8643f081a0ff4719da39f2ae2a"


def evaluate(node: ast.expr) -> Any:
    """A literal, allowing the f-strings/arithmetics peers use (math.sqrt(17) formatted, 5 / 2)."""
    try:
        return ast.literal_eval(node)
    except ValueError:
        code = compile(ast.Expression(node), "<case>", "eval")
        return eval(code, {"math": math, "__builtins__": {}})  # upstream literals only


def literal_or_none(node: ast.expr) -> Any:
    """`evaluate`, or None for what is not a literal (a call's result is not a case)."""
    try:
        return evaluate(node)
    except Exception:  # noqa: BLE001 - any non-literal
        return None


def parametrize_cases(path: Path) -> Iterator[tuple[str, dict[str, Any]]]:
    """(test name, params) for every case of every `@pytest.mark.parametrize` in a module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for fn in tree.body:
        if not isinstance(fn, ast.FunctionDef):
            continue
        for deco in fn.decorator_list:
            if not (isinstance(deco, ast.Call) and getattr(deco.func, "attr", "") == "parametrize"):
                continue
            names = [n.strip() for n in ast.literal_eval(deco.args[0]).split(",")]
            for row in deco.args[1].elts:
                values = evaluate(row)
                values = values if len(names) > 1 else (values,)
                yield fn.name, dict(zip(names, values))


def mv_call(fn: str, params: dict[str, Any]) -> dict[str, Any]:
    """The options math-verify's test passes to its grader, when not the defaults."""
    options = {}
    if fn == "test_number_extraction":
        options["match_types"] = ["expr"]
    if fn in ("test_latex_notation", "test_latex_notation_math", "test_relations_math",
              "test_matrix_extraction", "test_set_rel_assymetry"):
        options["match_types"] = ["latex"]
    if fn in ("test_float_precision", "test_sqrt_precision", "test_symbols"):
        options["precision"] = 5
    if "precision" in params and params["precision"] != 6:
        options["precision"] = params["precision"]
    if "strict" in params:
        options["strict"] = params["strict"]
    if "allow_set_relation_comp" in params:
        options["allow_set_relation_comp"] = params["allow_set_relation_comp"]
    return options


def math_verify_cases(tests_dir: Path) -> list[dict[str, Any]]:
    cases = []
    for name in MV_FILES:
        counts: dict[str, int] = {}
        for fn, params in parametrize_cases(tests_dir / name):
            counts[fn] = counts.get(fn, 0) + 1
            label = params.get("expected", params.get("result"))
            cases.append({
                "gold": params["gold"],
                "prediction": params["pred"],
                "label": bool(label),
                "source": f"{MV_REF}:tests/{name}::{fn}[{counts[fn] - 1}]",
                "prediction_is": "completion",
                "options": mv_call(fn, params),
            })
    return cases


def unittest_cases(path: Path, ref: str, rel: str) -> list[dict[str, Any]]:
    """Cases of a unittest module that sets test_in/test_out (or loops over test_pairs) and then
    asserts True/False on an equivalence call: label = which assert."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    cases = []
    for cls in (n for n in tree.body if isinstance(n, ast.ClassDef)):
        for fn in (n for n in cls.body if isinstance(n, ast.FunctionDef)):
            env: dict[str, Any] = {}
            index = 0
            for stmt in ast.walk(fn):
                if isinstance(stmt, ast.Assign) and isinstance(stmt.targets[0], ast.Name):
                    env[stmt.targets[0].id] = literal_or_none(stmt.value)
                if isinstance(stmt, ast.For) and isinstance(stmt.iter, ast.Name):
                    label, call = assertion(stmt.body[0])
                    for gold, pred in env[stmt.iter.id]:
                        cases.append(case(gold, pred, label, f"{ref}:{rel}::{cls.name}.{fn.name}[{index}]", call))
                        index += 1
                if isinstance(stmt, ast.Expr) and _is_assert(stmt) and not _in_loop(fn, stmt):
                    label, call = assertion(stmt)
                    cases.append(case(env["test_in"], env["test_out"], label,
                                      f"{ref}:{rel}::{cls.name}.{fn.name}[{index}]", call))
                    index += 1
    return cases


def _is_assert(stmt: ast.Expr) -> bool:
    return isinstance(stmt.value, ast.Call) and getattr(stmt.value.func, "attr", "") in ("assertTrue", "assertFalse")


def _in_loop(fn: ast.FunctionDef, target: ast.stmt) -> bool:
    return any(isinstance(n, ast.For) and target in n.body for n in ast.walk(fn))


def assertion(stmt: ast.stmt) -> tuple[bool, str]:
    """(label, grader function) of `self.assertTrue(f(a, b))` / `self.assertFalse(...)`.

    MARIO's `_test_is_equiv`/`_test_is_not_equiv` both return `is_equiv`'s result (they differ only
    in what they print), so the label is the assert alone.
    """
    call = stmt.value
    return call.func.attr == "assertTrue", call.args[0].func.id


def case(gold: str, pred: str, label: bool, source: str, call: str) -> dict[str, Any]:
    return {"gold": gold, "prediction": pred, "label": label, "source": source,
            "prediction_is": "answer", "options": {"grader": call}}


def mario_cases(path: Path) -> list[dict[str, Any]]:
    return unittest_cases(path, MARIO_REF, "math_evaluation/tests/test_is_equiv.py")


def hendrycks_cases(path: Path) -> list[dict[str, Any]]:
    """hendrycks/math calls `is_equiv(model_output, answer)`: test_in is the prediction."""
    cases = unittest_cases(path, HENDRYCKS_REF, "modeling/math_equivalence_test.py")
    for c in cases:
        c["gold"], c["prediction"] = c["prediction"], c["gold"]
    return cases


def nemo_cases(path: Path) -> list[dict[str, Any]]:
    """NeMo-Skills asserts `math_equal` both ways round: one case per direction. Values are str()-ed
    as `math_equal` does; a None prediction stays None (no answer)."""
    cases = []
    for fn, params in parametrize_cases(path):
        a, b = params["output_pair"]
        label = fn == "test_correct_examples"
        for direction, (gold, pred) in (("forward", (a, b)), ("reverse", (b, a))):
            if gold is None:
                continue  # math_equal(None, x) is not a grading case (a missing gold)
            cases.append({
                "gold": str(gold), "prediction": None if pred is None else str(pred), "label": label,
                "source": f"{NEMO_REF}:tests/test_math_equal.py::{fn}[{(a, b)}]::{direction}",
                "prediction_is": "answer", "options": {},
            })
    return cases


def write(suite: str, cases: list[dict[str, Any]]) -> None:
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    with (OUT_DIR / f"{suite}.jsonl").open("w", encoding="utf-8") as f:
        for c in cases:
            f.write(json.dumps(c, ensure_ascii=False) + "\n")
    print(f"{suite}: {len(cases)} cases")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--math-verify", type=Path, required=True, help="unpacked math-verify 0.9.0 sdist")
    ap.add_argument("--mario", type=Path, required=True)
    ap.add_argument("--nemo", type=Path, required=True)
    ap.add_argument("--hendrycks", type=Path, required=True)
    args = ap.parse_args()
    write("math_verify", math_verify_cases(args.math_verify / "tests"))
    write("mario_eval", mario_cases(args.mario))
    write("nemo_skills", nemo_cases(args.nemo))
    write("hendrycks_math", hendrycks_cases(args.hendrycks))


if __name__ == "__main__":
    main()

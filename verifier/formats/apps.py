"""APPS and TACO: `input_output`, a JSON string {"inputs", "outputs", "fn_name"?}. Without fn_name
the inputs are stdin texts; with it, argument lists of a call (`starter_code` holds the signature,
often a `class Solution` method)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .common import FormatError, apps_call_tests, load_json, stdin_tests, with_preamble

NAME = "apps"


def detect(row: Mapping[str, Any]) -> bool:
    return row.get("input_output") not in (None, "")


def io_task(spec: Any, completion: str, where: str) -> dict:
    """A task from APPS's {"inputs", "outputs", "fn_name"?} (also verl's and DeepCoder's TACO rows)."""
    if not isinstance(spec, Mapping) or not isinstance(spec.get("inputs"), list) \
            or not isinstance(spec.get("outputs"), list):
        raise FormatError(f"{where}: expected an object with inputs and outputs lists")
    if not spec["inputs"]:
        raise FormatError(f"{where}: no tests")
    fn_name = spec.get("fn_name")
    if fn_name:
        if not isinstance(fn_name, str):
            raise FormatError(f"{where}.fn_name: must be a string")
        return {"kind": "code", "language": "python", "completion": with_preamble(completion),
                "entry_point": fn_name, "call_tests": apps_call_tests(spec["inputs"], spec["outputs"], where)}
    # APPS compares stdout leniently (floats with a tolerance among other rules): float, which is
    # exact for integer tokens (docs/datasets.md "Dataset formats")
    return {"kind": "code", "language": "python", "completion": with_preamble(completion), "compare": "float",
            "tests": stdin_tests(spec["inputs"], spec["outputs"], where)}


def to_task(row: Mapping[str, Any], completion: str) -> dict:
    return io_task(load_json(row["input_output"], "input_output"), completion, "input_output")

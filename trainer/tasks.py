"""TRL batch -> verifier tasks, and verifier results -> per-component rewards. Pure logic, no I/O.

TRL hands reward functions one list per dataset column, aligned with `completions`. Each row is
turned into a task of the README's task schema (verifier/schema.py checks it), or into `None` when it cannot be graded
(no ground truth, too many tests): such rows get reward None, never 0.0.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence
from typing import Any

from trainer.config import RewardConfig
from verifier.schema import TaskError, parse_task

log = logging.getLogger(__name__)

CODE_COLUMNS = ("verification_info", "tests", "test_code")
NOT_EXTRACTED = {"no_answer", "no_code"}
NO_COMPILE = {"compile_error", "no_code"}
UNGRADED = {"infra_error", "error"}  # not graded (infra) or not gradable (malformed row, grader fault): None, never 0.0
# Extraction sites that are a deliberate answer format (vs. lenient fallbacks "last"/"raw").
FORMAT_SITES = ("boxed", "anchor", "choice", "fenced")


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


def _content(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, Sequence):
        parts = [p.get("text", "") for p in content if isinstance(p, Mapping) and p.get("type") == "text"]
        return "".join(p for p in parts if isinstance(p, str))
    return ""


def row_kind(row: Mapping[str, Any], cfg: RewardConfig) -> str:
    """'math' or 'code' for one row: forced by cfg.kind, else code when a code column is filled."""
    if cfg.kind != "auto":
        return cfg.kind
    return "code" if any(row.get(c) not in (None, "", [], {}) for c in CODE_COLUMNS) else "math"


def math_gold(row: Mapping[str, Any], cfg: RewardConfig) -> str | None:
    """The first non-empty ground-truth column (numbers become strings), or None."""
    for column in cfg.gold_columns:
        value = row.get(column)
        if isinstance(value, bool):
            continue
        if isinstance(value, (int, float)):
            return str(value)
        if isinstance(value, str) and value.strip():
            return value
    return None


def _load_json(value: Any) -> Any:
    """verification_info is a dict, or a JSON string in datasets that store it as text."""
    if isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError:
            return None
    return value


def code_spec(row: Mapping[str, Any], cfg: RewardConfig) -> dict | None:
    """Language and tests of a code row, from open-r1's `verification_info` or our own columns.

    open-r1: {"language": ..., "test_cases": [{"input": ..., "output": ...}]}. Ours: `tests`
    ([{"stdin", "expected_stdout"}]) and/or `test_code`, at top level or inside verification_info.
    """
    info = _load_json(row.get("verification_info"))
    source = info if isinstance(info, Mapping) else row
    tests: list[dict] = []
    for case in source.get("test_cases") or []:
        if isinstance(case, Mapping) and isinstance(case.get("input"), str) and isinstance(case.get("output"), str):
            tests.append({"stdin": case["input"], "expected_stdout": case["output"]})
    raw_tests = _load_json(source.get("tests")) or []
    # As given: the schema (verifier/schema.py) rejects a case that is not {"stdin", "expected_stdout"},
    # naming its keys, so an {"input", "output"} row is an error, never a test run with empty stdin.
    tests.extend(raw_tests if isinstance(raw_tests, list) else [raw_tests])
    test_code = source.get("test_code") if isinstance(source.get("test_code"), str) else None
    if (not tests and not test_code) or len(tests) > cfg.max_tests_per_task:
        return None
    language = source.get("language") or row.get("language") or cfg.code_language
    spec = {"language": str(language), "tests": tests, "test_code": test_code,
            "compare": cfg.code_compare, "scoring": cfg.code_scoring}
    for key in ("checker", "checker_language", "compare", "time_limit_s", "memory_limit_mb", "files", "input_file",
                "output_file"):
        if source.get(key) not in (None, ""):
            spec[key] = source[key]
    return spec


def build_tasks(completions: Sequence[Any], columns: Mapping[str, Sequence[Any]],
                cfg: RewardConfig) -> list[dict | None]:
    """One task dict per completion, or None where the row cannot be graded.

    `columns` are TRL's per-column lists (already aligned with completions). Task ids are the
    row index, unique within the call as the server requires.
    """
    tasks: list[dict | None] = []
    for i, completion in enumerate(completions):
        row = {k: v[i] for k, v in columns.items() if isinstance(v, (list, tuple)) and i < len(v)}
        text = completion_text(completion)[-cfg.max_completion_chars:]
        tasks.append(_checked(_task(str(i), text, row, cfg)))
    return tasks


def _checked(task: dict | None) -> dict | None:
    """The task as the schema (verifier/schema.py) normalises it, or None with a warning when the row
    is malformed: the same rules as the server's, so a bad row costs one reward, not a batch."""
    if task is None:
        return None
    try:
        return parse_task(task).to_dict(wire=True)
    except TaskError as exc:
        log.warning("row %s cannot be graded: %s", task["id"], exc)
        return None


def _task(task_id: str, text: str, row: Mapping[str, Any], cfg: RewardConfig) -> dict | None:
    base: dict[str, Any] = {"id": task_id, "completion": text}
    if cfg.task_timeout_s:
        base["timeout_s"] = cfg.task_timeout_s
    if row_kind(row, cfg) == "code":
        spec = code_spec(row, cfg)
        return None if spec is None else {**base, "kind": "code", **spec}
    gold = math_gold(row, cfg)
    if gold is None:
        return None
    profile = row.get("profile") if row.get("profile") in ("strict", "lenient") else cfg.math_profile
    task = {**base, "kind": "math", "gold": gold, "profile": profile}
    choices = row.get("choices")
    if isinstance(choices, (list, tuple)) and choices and all(isinstance(c, str) for c in choices):
        task["choices"] = list(choices)
    return task


def component_value(component: str, result: Mapping[str, Any] | None, kind: str | None,
                    task: Mapping[str, Any] | None = None) -> float | None:
    """The reward of one component for one graded item; None = not graded or not applicable.
    `task` (the dict sent) gives pass_rate its denominator: under scoring "all" the sandbox stops
    at the first failing test and lists only the tests it ran (README "Results and verdicts").

    A wrong answer is 0.0; infra_error (could not grade) and invalid_gold (the dataset's fault,
    not the model's) are None, as TRL's own accuracy_reward does for unparsable golds.
    """
    if result is None or result.get("verdict") in UNGRADED:
        return None
    verdict = result.get("verdict")
    if component == "accuracy":
        return None if verdict == "invalid_gold" else _clip(result.get("score"))
    if component == "format":
        site = str(result.get("extracted_from") or "")
        return 1.0 if verdict not in NOT_EXTRACTED and site.startswith(FORMAT_SITES) else 0.0
    if kind != "code":
        return None
    if component == "compiles":
        return 0.0 if verdict in NO_COMPILE else 1.0
    if component == "pass_rate":
        tests = result.get("tests") or []
        total = max(len(tests), _declared_tests(task))  # tests not run (after the first failure) count as failed
        if not total:
            return 1.0 if verdict == "accepted" else 0.0
        return sum(1 for t in tests if t.get("verdict") == "accepted") / total
    raise ValueError(f"unknown component {component!r}")


def _declared_tests(task: Mapping[str, Any] | None) -> int:
    """How many tests a code task declares (stdin tests, call tests, one for test_code); 0 unknown."""
    if not task:
        return 0
    return len(task.get("tests") or ()) + len(task.get("call_tests") or ()) + (1 if task.get("test_code") else 0)


def _clip(score: Any) -> float:
    try:
        value = float(score)
    except (TypeError, ValueError):
        return 0.0
    return min(1.0, max(0.0, value)) if value == value else 0.0

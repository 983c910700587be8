"""The task schema of DESIGN.md section 3, and its conversion to and from the wire contract.

A task is a plain dict; the proto mirrors it. Everything that accepts tasks (server, CLI, client,
trainer) goes through this module, so a rule about what a valid task is lives here only.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from verifier.v1 import verifier_pb2 as pb

MATH_VERDICTS = ("correct", "incorrect", "no_answer", "invalid_gold", "timeout", "error")
CODE_VERDICTS = (
    "accepted", "wrong_answer", "compile_error", "runtime_error",
    "time_limit", "memory_limit", "output_limit", "no_code",
)
VERDICTS = MATH_VERDICTS + CODE_VERDICTS + ("infra_error",)
PROFILES = ("strict", "lenient")
COMPARES = ("exact", "lines", "tokens", "float")
SCORINGS = ("all", "fraction")
MAX_ID_BYTES = 256


class TaskError(ValueError):
    """A task that cannot be graded as given; `field` names the offending field."""

    def __init__(self, field: str, message: str):
        super().__init__(f"{field}: {message}")
        self.field = field


def verdict_to_proto(name: str) -> int:
    return pb.Verdict.Value("VERDICT_" + name.upper())


def verdict_from_proto(value: int) -> str:
    return pb.Verdict.Name(value).removeprefix("VERDICT_").lower()


# ---------------------------------------------------------------- dict -> proto (client side)

def _str(task: Mapping, key: str, where: str, default: str = "") -> str:
    value = task.get(key, default)
    if value is None:
        return default
    if not isinstance(value, str):
        raise TaskError(f"{where}.{key}", f"must be a string, got {type(value).__name__}")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise TaskError(f"{where}.{key}", "is not valid UTF-8 (lone surrogate)") from None
    return value


def _num(task: Mapping, key: str, where: str) -> float:
    value = task.get(key) or 0
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TaskError(f"{where}.{key}", f"must be a number, got {type(value).__name__}")
    if not math.isfinite(value) or abs(value) > 1e9:
        raise TaskError(f"{where}.{key}", f"must be a finite number of sensible size, got {value!r}")
    return value


def _list(task: Mapping, key: str, where: str) -> list:
    value = task.get(key) or []
    if not isinstance(value, (list, tuple)):
        raise TaskError(f"{where}.{key}", f"must be a list, got {type(value).__name__}")
    return list(value)


def task_to_proto(task: Mapping[str, Any], where: str = "task") -> pb.Task:
    """A task dict as a proto message; raises TaskError naming the field when a type is wrong."""
    if not isinstance(task, Mapping):
        raise TaskError(where, f"must be an object, got {type(task).__name__}")
    task_id = task.get("id")
    if isinstance(task_id, int) and not isinstance(task_id, bool):
        task_id = str(task_id)
    if not isinstance(task_id, str) or not task_id:
        raise TaskError(f"{where}.id", "must be a non-empty string")
    kind = task.get("kind")
    out = pb.Task(id=task_id, timeout_s=_num(task, "timeout_s", where))
    if kind == "math":
        choices = _list(task, "choices", where)
        if not all(isinstance(c, str) for c in choices):
            raise TaskError(f"{where}.choices", "must be a list of strings")
        choices = [_str({"choices": c}, "choices", where) for c in choices]
        gold = task.get("gold")
        if isinstance(gold, (int, float)) and not isinstance(gold, bool):
            gold = str(gold)  # datasets often store numeric golds as numbers
        out.math.CopyFrom(pb.MathTask(
            completion=_str(task, "completion", where), gold=_str({"gold": gold}, "gold", where),
            profile=_str(task, "profile", where), choices=choices))
    elif kind == "code":
        tests = []
        for i, t in enumerate(_list(task, "tests", where)):
            if not isinstance(t, Mapping):
                raise TaskError(f"{where}.tests[{i}]", "must be an object with stdin and expected_stdout")
            tw = f"{where}.tests[{i}]"
            tests.append(pb.CodeTest(stdin=_str(t, "stdin", tw), expected_stdout=_str(t, "expected_stdout", tw)))
        out.code.CopyFrom(pb.CodeTask(
            language=_str(task, "language", where), completion=_str(task, "completion", where),
            tests=tests, test_code=_str(task, "test_code", where), checker=_str(task, "checker", where),
            checker_language=_str(task, "checker_language", where), compare=_str(task, "compare", where),
            float_abs_tol=_num(task, "float_abs_tol", where), float_rel_tol=_num(task, "float_rel_tol", where),
            scoring=_str(task, "scoring", where), stop_on_first_failure=bool(task.get("stop_on_first_failure")),
            time_limit_s=_num(task, "time_limit_s", where), memory_limit_mb=int(_num(task, "memory_limit_mb", where))))
    else:
        raise TaskError(f"{where}.kind", f"must be 'math' or 'code', got {kind!r}")
    return out


# ---------------------------------------------------------------- validation (server side)

def validate_tasks(tasks: Sequence[pb.Task], limits: pb.Limits, languages: Mapping[str, Mapping]) -> None:
    """Raises TaskError for the first task that breaks a limit the server advertises."""
    if not tasks:
        raise TaskError("tasks", "must not be empty")
    if len(tasks) > limits.max_tasks_per_call:
        raise TaskError("tasks", f"{len(tasks)} tasks exceed the limit of {limits.max_tasks_per_call} per call")
    seen: set[str] = set()
    for i, task in enumerate(tasks):
        where = f"tasks[{i}]"
        if not task.id:
            raise TaskError(f"{where}.id", "is missing")
        if len(task.id.encode()) > MAX_ID_BYTES:
            raise TaskError(f"{where}.id", f"exceeds {MAX_ID_BYTES} bytes")
        if task.id in seen:
            raise TaskError(f"{where}.id", f"duplicate id {task.id!r}")
        seen.add(task.id)
        kind = task.WhichOneof("payload")
        if kind is None:
            raise TaskError(f"{where}.kind", "neither math nor code is set")
        max_timeout = limits.max_math_timeout_s if kind == "math" else limits.max_code_timeout_s
        if not 0 <= task.timeout_s <= max_timeout:
            raise TaskError(f"{where}.timeout_s", f"must be in [0, {max_timeout}]")
        if kind == "math":
            _validate_math(task.math, f"{where}.math", limits)
        else:
            _validate_code(task.code, f"{where}.code", limits, languages)


def _check_bytes(value: str, where: str, limit: int) -> None:
    if len(value) > limit or len(value.encode("utf-8", "surrogatepass")) > limit:
        raise TaskError(where, f"exceeds {limit} bytes")


def _validate_math(m: pb.MathTask, where: str, limits: pb.Limits) -> None:
    _check_bytes(m.completion, f"{where}.completion", limits.max_field_bytes)
    _check_bytes(m.gold, f"{where}.gold", limits.max_field_bytes)
    if m.profile and m.profile not in PROFILES:
        raise TaskError(f"{where}.profile", f"must be one of {PROFILES}, got {m.profile!r}")
    if len(m.choices) > limits.max_choices:
        raise TaskError(f"{where}.choices", f"more than {limits.max_choices} choices")
    for j, choice in enumerate(m.choices):
        _check_bytes(choice, f"{where}.choices[{j}]", 4096)


def _validate_code(c: pb.CodeTask, where: str, limits: pb.Limits, languages: Mapping[str, Mapping]) -> None:
    if c.language not in languages:
        raise TaskError(f"{where}.language", f"must be one of {sorted(languages)}, got {c.language!r}")
    lang = languages[c.language]
    for name in ("completion", "test_code", "checker"):
        _check_bytes(getattr(c, name), f"{where}.{name}", limits.max_field_bytes)
    if c.checker_language and c.checker_language not in languages:
        raise TaskError(f"{where}.checker_language", f"must be one of {sorted(languages)}")
    if len(c.tests) > limits.max_tests_per_task:
        raise TaskError(f"{where}.tests", f"more than {limits.max_tests_per_task} tests")
    if not c.tests and not c.test_code:
        raise TaskError(f"{where}.tests", "a code task needs tests or test_code")
    for j, t in enumerate(c.tests):
        _check_bytes(t.stdin, f"{where}.tests[{j}].stdin", limits.max_field_bytes)
        _check_bytes(t.expected_stdout, f"{where}.tests[{j}].expected_stdout", limits.max_field_bytes)
    if c.compare and c.compare not in COMPARES:
        raise TaskError(f"{where}.compare", f"must be one of {COMPARES}, got {c.compare!r}")
    if c.scoring and c.scoring not in SCORINGS:
        raise TaskError(f"{where}.scoring", f"must be one of {SCORINGS}, got {c.scoring!r}")
    if c.float_abs_tol < 0 or c.float_rel_tol < 0:
        raise TaskError(f"{where}.float_abs_tol", "tolerances must not be negative")
    if not 0 <= c.time_limit_s <= lang["max_time_limit_s"]:
        raise TaskError(f"{where}.time_limit_s", f"must be in [0, {lang['max_time_limit_s']}]")
    if not 0 <= c.memory_limit_mb <= lang["max_memory_limit_mb"]:
        raise TaskError(f"{where}.memory_limit_mb", f"must be in [0, {lang['max_memory_limit_mb']}]")


def limits_from_config(c) -> pb.Limits:
    """The limits a server with ServerConfig `c` advertises and enforces."""
    return pb.Limits(
        max_tasks_per_call=c.max_tasks_per_call, max_field_bytes=c.max_field_bytes,
        max_request_bytes=c.max_request_bytes, default_math_timeout_s=c.default_math_timeout_s,
        max_math_timeout_s=c.max_math_timeout_s, default_code_timeout_s=c.default_code_timeout_s,
        max_code_timeout_s=c.max_code_timeout_s, max_tests_per_task=c.max_tests_per_task,
        max_queued_items=c.max_queued_items, max_choices=c.max_choices)


def languages_from_info(info: pb.ServerInfo) -> dict[str, dict]:
    """A server's advertised languages in the shape validate_tasks takes."""
    return {lang.name: {"max_time_limit_s": lang.max_time_limit_s, "max_memory_limit_mb": lang.max_memory_limit_mb}
            for lang in info.languages}


# ---------------------------------------------------------------- proto -> dict (server side)

def task_from_proto(task: pb.Task) -> dict:
    """A validated proto task as the plain dict the graders take, defaults filled in."""
    if task.WhichOneof("payload") == "math":
        m = task.math
        return {"id": task.id, "kind": "math", "completion": m.completion, "gold": m.gold,
                "profile": m.profile or "strict", "choices": list(m.choices), "timeout_s": task.timeout_s}
    c = task.code
    return {
        "id": task.id, "kind": "code", "language": c.language, "completion": c.completion,
        "tests": [{"stdin": t.stdin, "expected_stdout": t.expected_stdout} for t in c.tests],
        "test_code": c.test_code or None, "checker": c.checker or None,
        "checker_language": c.checker_language or "python", "compare": c.compare or "tokens",
        "float_abs_tol": c.float_abs_tol, "float_rel_tol": c.float_rel_tol,
        "scoring": c.scoring or "all", "stop_on_first_failure": c.stop_on_first_failure,
        "time_limit_s": c.time_limit_s or None, "memory_limit_mb": c.memory_limit_mb or None,
        "timeout_s": task.timeout_s,
    }


# ---------------------------------------------------------------- results

RESULT_FIELDS = ("id", "verdict", "score", "detail", "extracted", "extracted_from",
                 "queue_s", "exec_s", "tests", "retryable")


def result_to_proto(result: Mapping[str, Any]) -> pb.GradeResult:
    tests = [pb.TestResult(verdict=verdict_to_proto(t["verdict"]), time_s=float(t.get("time_s") or 0),
                           detail=str(t.get("detail") or ""), exit_code=int(t.get("exit_code") or 0))
             for t in result.get("tests") or ()]
    return pb.GradeResult(
        id=result["id"], verdict=verdict_to_proto(result["verdict"]), score=float(result.get("score") or 0),
        detail=str(result.get("detail") or ""), extracted=str(result.get("extracted") or ""),
        extracted_from=str(result.get("extracted_from") or ""), queue_s=float(result.get("queue_s") or 0),
        exec_s=float(result.get("exec_s") or 0), tests=tests, retryable=bool(result.get("retryable")))


def result_from_proto(r: pb.GradeResult) -> dict:
    return {
        "id": r.id, "verdict": verdict_from_proto(r.verdict), "score": r.score, "detail": r.detail,
        "extracted": r.extracted, "extracted_from": r.extracted_from, "queue_s": r.queue_s,
        "exec_s": r.exec_s, "retryable": r.retryable,
        "tests": [{"verdict": verdict_from_proto(t.verdict), "time_s": t.time_s, "detail": t.detail,
                   "exit_code": t.exit_code} for t in r.tests],
    }


def infra_error(task_id: str, detail: str) -> dict:
    """The result for an item the grader could not grade: retryable, never a wrong answer."""
    return {"id": task_id, "verdict": "infra_error", "score": 0.0, "detail": detail[:300],
            "extracted": "", "extracted_from": "", "queue_s": 0.0, "exec_s": 0.0, "tests": [],
            "retryable": True}

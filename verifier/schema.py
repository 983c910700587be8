"""The wire side of the task schema: tasks and results to and from protobuf, and the limits a server
advertises and enforces (docs/tasks.md "Task schema").

The task models (`MathTask`, `CodeTask`), their defaults and validation rules, the field readers
and `TaskError` are the contract's (sandbox/contract.py), with verdicts, the `Result` type and its
builders: the bottom layer every part shares, usable without protobuf. Each edge decodes a task once
into its model and the engine grades the model (docs/architecture.md "The data path"):
`contract.parse_task` for JSON (a JSONL line, an HTTP task or label, a client item, a trainer row),
which holds it to a server's `contract.Limits` in the same pass; `validate_tasks` for the wire;
CodeTask.from_dict for the sandbox's own API. What this module adds to the contract is the wire's:
its encoding (call tests as JSON text, test sets) and the limits as `pb.Limits` (server_limits,
limits_from_info, limits_to_proto). Field errors name the field under the prefix the edge passes
(`tasks[3].code.gold` on the wire, `tasks[3].gold` in JSON, `gold` on a JSONL line).
`result_json` and `result_to_proto` are a result's two encodings out.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

from sandbox.contract import (BY_NAME, BY_PROTO, DEFAULT_CHECKER_LANGUAGE, DEFAULT_COMPARE, DEFAULT_FLOAT_TOL,
                              DEFAULT_LANGUAGE, DEFAULT_PROFILE, DEFAULT_REPO_REPORT, DEFAULT_SCORING, REPO_MAX_EDITABLE,
                              REPO_MAX_TEST_IDS,
                              VERDICTS, CallTest, CodeTask, CodeTest, LanguageLimits, Limits, MathTask, RepoTask, Result,
                              Task, TaskError, TestResult, check_bytes,
                              default_limits, load_json, parse_task)
from sandbox.keys import reuse_key
from verifier.v1 import verifier_pb2 as pb

if TYPE_CHECKING:
    from verifier.config import ServerConfig

__all__ = ["Parsed", "WireTestSets", "default_languages", "languages_from_info", "limits_from_info", "limits_to_proto",
           "parsed", "protos_with_test_sets", "result_from_proto", "result_json", "result_to_proto",
           "task_to_proto", "task_from_proto", "server_limits", "validate_tasks", "verdict_from_proto", "verdict_to_proto", "with_id"]


def verdict_to_proto(name: str) -> pb.Verdict:
    """A verdict's wire number (the contract's table); an unknown name is a bug (ValueError), never sent."""
    if name not in BY_NAME:
        raise ValueError(f"unknown verdict {name!r}")
    return cast("pb.Verdict", BY_NAME[name].proto)  # the enum's values are ints (verifier_pb2.pyi)


def verdict_from_proto(value: int) -> str:
    """A wire number's verdict; one the table lacks (a newer server's) keeps the proto's own name."""
    known = BY_PROTO.get(value)
    return known.name if known else pb.Verdict.Name(value).removeprefix("VERDICT_").lower()


# ---------------------------------------------------------------- model <-> proto

def tests_to_proto(tests: Sequence[CodeTest]) -> list[pb.CodeTest]:
    return [pb.CodeTest(stdin=t.stdin, expected_stdout=t.expected_stdout or "") for t in tests]


def task_to_proto(task: Mapping[str, Any] | Task, where: str = "task", test_set: str = "") -> pb.Task:
    """A task (dict or model) as a proto message; raises TaskError naming the field. `test_set`: the
    id of the request's TestSet that carries the task's tests, which are then left out here."""
    model = task if isinstance(task, (MathTask, CodeTask, RepoTask)) else parse_task(task, where)
    out = pb.Task(id=model.id, timeout_s=model.timeout_s)
    if isinstance(model, MathTask):
        out.math.CopyFrom(pb.MathTask(completion=model.completion, gold=model.gold, profile=model.profile,
                                      choices=model.choices, problem=model.problem))
        return out
    if isinstance(model, RepoTask):
        out.repo.CopyFrom(pb.RepoTask(
            environment=model.environment, completion=model.completion, test_patch=model.test_patch,
            test_cmd=model.test_cmd, fail_to_pass=model.fail_to_pass, pass_to_pass=model.pass_to_pass,
            report=model.report, time_limit_s=model.time_limit_s, memory_limit_mb=model.memory_limit_mb,
            editable=model.editable))
        return out
    out.code.CopyFrom(pb.CodeTask(
        language=model.language, completion=model.completion,
        tests=[] if test_set else tests_to_proto(model.tests), test_set=test_set,
        test_code=model.test_code or "", checker=model.checker or "", checker_language=model.checker_language,
        compare=model.compare, float_abs_tol=model.float_abs_tol, float_rel_tol=model.float_rel_tol,
        scoring=model.scoring, stop_on_first_failure=model.stop_on_first_failure,
        time_limit_s=model.time_limit_s or 0.0, memory_limit_mb=model.memory_limit_mb or 0,
        entry_point=model.entry_point, call_tests=[_call_to_proto(t) for t in model.call_tests],
        test_framework=model.test_framework, judge=model.judge,
        files=dict(model.files), input_file=model.input_file, output_file=model.output_file))
    return out


def protos_with_test_sets(models: Sequence[Task]) -> tuple[list[pb.Task], dict[str, pb.TestSet]]:
    """Wire tasks, with each list of tests that two or more tasks share sent once as a TestSet they
    name (a GRPO group: 8-64 completions of one problem, megabytes of the same tests each). The set's
    id is a hash of its contents; a task whose tests nobody shares keeps them inline."""
    sets: dict[str, pb.TestSet] = {}
    names: dict[int, str] = {}  # position of a model -> its set
    for tests, members in _equal_test_lists(models):
        if len(members) > 1:
            test_set = pb.TestSet(tests=tests_to_proto(tests))
            # a reuse key of the tests' own typed values (docs/service.md "Reuse keys"), not of protobuf's
            # serialization, which its docs call deterministic for one build, never canonical
            name = reuse_key("test-set", [(t.stdin, t.expected_stdout) for t in tests]).hex()[:32]
            sets[name] = test_set
            names.update(dict.fromkeys(members, name))
    return [task_to_proto(m, test_set=names.get(i, "")) for i, m in enumerate(models)], sets


def _equal_test_lists(models: Sequence[Task]) -> list[tuple[tuple[CodeTest, ...], list[int]]]:
    """The code tasks' tests, each with the positions of the tasks that have them. Candidates are found
    by a cheap signature (lengths and ends of every string) and confirmed by comparing the strings
    (memcmp), not by hashing megabytes per task: the rows of a group are equal copies, not the same objects.
    Only tests of plain str fields are grouped: their `==` is equality of code points, exact as a reuse
    key must be (docs/service.md "Reuse keys"); a task with anything else keeps its tests inline."""
    buckets: dict[tuple[Any, ...], list[tuple[tuple[CodeTest, ...], list[int]]]] = {}
    for i, m in enumerate(models):
        if not isinstance(m, CodeTask) or not m.tests or not all(
                type(t) is CodeTest and type(t.stdin) is str and type(t.expected_stdout) is str for t in m.tests):
            continue
        sig = tuple((len(t.stdin), t.stdin[:16], t.stdin[-16:], len(t.expected_stdout or ""),
                     (t.expected_stdout or "")[-16:]) for t in m.tests)
        bucket = buckets.setdefault(sig, [])
        group = next((members for tests, members in bucket if tests == m.tests), None)
        if group is None:
            bucket.append((m.tests, [i]))
        else:
            group.append(i)
    return [group for bucket in buckets.values() for group in bucket]


def inline_test_sets(protos: Sequence[pb.Task], sets: Mapping[str, pb.TestSet]) -> None:
    """Put each set's tests back into the tasks that name it: for a server that predates test sets
    (its Limits.max_test_set_bytes is 0)."""
    for p in protos:
        if p.WhichOneof("payload") == "code" and p.code.test_set:
            p.code.tests.extend(sets[p.code.test_set].tests)
            p.code.test_set = ""


def _json(value: Any) -> str:
    return json.dumps(value, allow_nan=False, separators=(",", ":"))


def _call_to_proto(t: CallTest) -> pb.CallTest:
    return pb.CallTest(args_json=_json(list(t.args)), expected_json=_json(t.expected),
                       kwargs_json=_json(dict(t.kwargs)) if t.kwargs else "")


def _call_from_proto(t: pb.CallTest, where: str) -> CallTest:
    """A wire call test as a model; JSON that does not parse (or is not an array / object where one
    is needed) is an error naming the field."""
    args = load_json(t.args_json or "[]", f"{where}.args_json")
    if type(args) is not list:
        raise TaskError(f"{where}.args_json", f"must be a JSON array, got {type(args).__name__}")
    if not t.expected_json:
        raise TaskError(f"{where}.expected_json", "is missing (null for a function that returns None)")
    kwargs = load_json(t.kwargs_json, f"{where}.kwargs_json") if t.kwargs_json else {}
    if type(kwargs) is not dict:
        raise TaskError(f"{where}.kwargs_json", f"must be a JSON object, got {type(kwargs).__name__}")
    return CallTest.from_dict({"args": args, "kwargs": kwargs,
                               "expected": load_json(t.expected_json, f"{where}.expected_json")}, where)


def model_from_proto(task: pb.Task, where: str = "task") -> Task:
    """A proto task as a model, defaults filled in (not yet validated: see validate_tasks). Raises
    TaskError for call tests whose JSON does not parse."""
    if task.WhichOneof("payload") == "math":
        return math_from_proto(task)
    if task.WhichOneof("payload") == "repo":
        return repo_from_proto(task)
    return code_from_proto(task, None, where)


def math_from_proto(task: pb.Task) -> MathTask:
    """A proto math task as a model (model_from_proto)."""
    m = task.math
    return MathTask(id=task.id, completion=m.completion, gold=m.gold, profile=m.profile or DEFAULT_PROFILE,
                    choices=tuple(m.choices), timeout_s=task.timeout_s, problem=m.problem)


def repo_from_proto(task: pb.Task) -> RepoTask:
    """A proto repo task as a model (model_from_proto; validated by validate_tasks)."""
    r = task.repo
    return RepoTask(id=task.id, environment=r.environment, test_cmd=r.test_cmd, fail_to_pass=tuple(r.fail_to_pass),
                    pass_to_pass=tuple(r.pass_to_pass), completion=r.completion, test_patch=r.test_patch,
                    report=r.report or DEFAULT_REPO_REPORT, time_limit_s=r.time_limit_s,
                    memory_limit_mb=r.memory_limit_mb, timeout_s=task.timeout_s, editable=tuple(r.editable))


def code_from_proto(task: pb.Task, tests: tuple[CodeTest, ...] | None, where: str) -> CodeTask:
    """A proto code task as a model (model_from_proto). `tests`: its test set's tests, one tuple
    shared by every task that names the set (never copied per task); None: its own."""
    c = task.code
    return CodeTask(
        id=task.id, language=c.language or DEFAULT_LANGUAGE, completion=c.completion,
        tests=tests_from_proto(c.tests) if tests is None else tests,
        test_code=c.test_code or None, checker=c.checker or None,
        checker_language=c.checker_language or DEFAULT_CHECKER_LANGUAGE, compare=c.compare or DEFAULT_COMPARE,
        float_abs_tol=c.float_abs_tol if c.HasField("float_abs_tol") else DEFAULT_FLOAT_TOL,
        float_rel_tol=c.float_rel_tol if c.HasField("float_rel_tol") else DEFAULT_FLOAT_TOL,
        scoring=c.scoring or DEFAULT_SCORING, stop_on_first_failure=c.stop_on_first_failure,
        time_limit_s=c.time_limit_s or None, memory_limit_mb=c.memory_limit_mb or None, timeout_s=task.timeout_s,
        entry_point=c.entry_point, test_framework=c.test_framework or "assert", judge=c.judge or "process",
        call_tests=tuple(_call_from_proto(t, f"{where}.code.call_tests[{j}]") for j, t in enumerate(c.call_tests)),
        files=dict(c.files), input_file=c.input_file, output_file=c.output_file)


def tests_from_proto(tests: Sequence[pb.CodeTest]) -> tuple[CodeTest, ...]:
    return tuple(CodeTest(t.stdin, t.expected_stdout) for t in tests)


def task_from_proto(task: pb.Task) -> dict[str, Any]:
    """A proto task as the plain dict the graders take, defaults filled in."""
    return model_from_proto(task).to_dict()


class Parsed(dict[str, Any]):
    """A task dict that comes with the model it was encoded from (`parsed`): the trainer decodes a row
    once and hands its client plain dicts (a client factory's contract), and the client reads
    `.model` instead of decoding the dict a second time (docs/architecture.md "The data path")."""

    model: Task


def parsed(model: Task) -> Parsed:
    """`model` as its wire dict (to_dict(wire=True)), carrying the model."""
    out = Parsed(model.to_dict(wire=True))
    out.model = model
    return out


def with_id(task: Mapping[str, Any], task_id: str) -> dict[str, Any]:
    """`task` under another id (a batcher numbering its call's tasks); a Parsed dict keeps its model,
    renamed rather than decoded again."""
    if not isinstance(task, Parsed):
        return {**task, "id": task_id}
    out = Parsed({**task, "id": task_id})
    out.model = dataclasses.replace(task.model, id=task_id)
    return out


# ---------------------------------------------------------------- validation against a server's limits
# The limits themselves and every check of a task against them are the contract's (sandbox/contract.py
# Limits); what is here is the wire's own: its encoding of call tests (JSON text), its test sets, and
# the conversion of a server's limits to and from verifier.v1.Limits.

class WireTestSets:
    """The test sets of one request (docs/service.md "The service": test sets), each expanded and checked
    against the limits once, however many tasks name it; the tasks share its tuple of tests."""

    def __init__(self, sets: Mapping[str, pb.TestSet], limits: Limits):
        self.sets, self.limits = sets, limits
        self._done: dict[str, tuple[CodeTest, ...] | TaskError] = {}

    def tests(self, name: str, where: str) -> tuple[CodeTest, ...]:
        """The tests of set `name`; TaskError naming `where` (the task's test_set field) if it is
        unknown or over a limit."""
        if name not in self._done:
            if name not in self.sets:
                raise TaskError(where, f"unknown test set {name!r} (not in the request's test_sets)")
            try:
                tests = tests_from_proto(self.sets[name].tests)
                self.limits.check_tests(tests, "tests")
                self._done[name] = tests
            except TaskError as exc:
                self._done[name] = exc
        found = self._done[name]
        if isinstance(found, TaskError):
            raise TaskError(where, f"test set {name!r}: {found}")
        return found


def validate_tasks(tasks: Sequence[pb.Task], limits: Limits,
                   test_sets: WireTestSets | Mapping[str, pb.TestSet] | None = None) -> list[Task]:
    """The models of wire tasks that fit a server's limits (their languages included); raises TaskError
    for the first one that does not. `test_sets`: the request's (GradeRequest.test_sets), or a
    WireTestSets to share the checks of each set over several calls."""
    sets = test_sets if isinstance(test_sets, WireTestSets) else WireTestSets(test_sets or {}, limits)
    limits.check_count(len(tasks))
    seen: set[str] = set()
    models: list[Task] = []
    for i, task in enumerate(tasks):
        where = f"tasks[{i}]"
        if not task.id:
            raise TaskError(f"{where}.id", "is missing")
        limits.check_id(task.id, where)
        if task.id in seen:
            raise TaskError(f"{where}.id", f"duplicate id {task.id!r}")
        seen.add(task.id)
        kind = task.WhichOneof("payload")
        if kind is None:
            raise TaskError(f"{where}.kind", "none of math, code or repo is set")
        limits.check_timeout(task.timeout_s, kind == "math", where)
        model: Task
        if kind == "math":
            model = math_from_proto(task)
            limits.check_math(model, f"{where}.math")
        elif kind == "repo":
            if len(task.repo.fail_to_pass) + len(task.repo.pass_to_pass) > REPO_MAX_TEST_IDS:  # before copying them
                raise TaskError(f"{where}.repo.pass_to_pass", f"more than {REPO_MAX_TEST_IDS} test ids in all")
            if len(task.repo.editable) > REPO_MAX_EDITABLE:  # before copying them
                raise TaskError(f"{where}.repo.editable", f"more than {REPO_MAX_EDITABLE} paths")
            model = repo_from_proto(task)
            limits.check_repo(model, f"{where}.repo")
        else:
            _check_call_sizes(task.code, f"{where}.code", limits)  # before any of their JSON is parsed
            shared: tuple[CodeTest, ...] | None = None
            if task.code.test_set:
                if task.code.tests:
                    raise TaskError(f"{where}.code.test_set", "a task has inline tests or a test_set, not both")
                shared = sets.tests(task.code.test_set, f"{where}.code.test_set")
            model = code_from_proto(task, shared, where)
            model.validate(f"{where}.code", limits.languages)
            limits.check_code(model, f"{where}.code", tests_checked=shared is not None)
        models.append(model)
    return models


def _check_call_sizes(c: pb.CodeTask, where: str, limits: Limits) -> None:
    """Call tests are bounded like stdin tests, as the JSON text they are on the wire, before any of it is parsed."""
    if len(c.call_tests) > limits.max_tests_per_task:
        raise TaskError(f"{where}.call_tests", f"more than {limits.max_tests_per_task} tests")
    for j, t in enumerate(c.call_tests):
        for name in ("args_json", "expected_json", "kwargs_json"):
            check_bytes(getattr(t, name), f"{where}.call_tests[{j}].{name}", limits.max_field_bytes)


def server_limits(c: ServerConfig, languages: Mapping[str, Mapping[str, Any]]) -> Limits:
    """The limits a server with ServerConfig `c` advertises and enforces, for the languages it serves
    (Engine.languages(): their advertised maxima)."""
    return Limits(
        max_tasks_per_call=c.max_tasks_per_call, max_field_bytes=c.max_field_bytes,
        max_request_bytes=c.max_request_bytes, default_math_timeout_s=c.default_math_timeout_s,
        max_math_timeout_s=c.max_math_timeout_s, max_code_timeout_s=c.max_code_timeout_s,
        max_tests_per_task=c.sandbox.max_tests, max_queued_items=c.max_queued_items, max_choices=c.max_choices,
        max_test_set_bytes=c.max_test_set_bytes, max_test_field_bytes=c.max_test_field_bytes,
        languages=_language_maxima(languages))


def limits_to_proto(limits: Limits) -> pb.Limits:
    """A server's limits as ServerInfo advertises them (the languages go in ServerInfo.languages)."""
    return pb.Limits(**{f.name: getattr(limits, f.name) for f in dataclasses.fields(limits) if f.name != "languages"})


def limits_from_info(info: pb.ServerInfo) -> Limits:
    """The limits a server advertises (GetServerInfo), its languages' maxima included."""
    lim = info.limits
    return Limits(languages=_language_maxima(languages_from_info(info)),
                  **{f.name: getattr(lim, f.name) for f in dataclasses.fields(Limits) if f.name != "languages"})


def _language_maxima(languages: Mapping[str, Mapping[str, Any]]) -> dict[str, LanguageLimits]:
    """What a task is validated against of each advertised language: its maxima (the defaults are the sandbox's)."""
    return {name: LanguageLimits(max_time_limit_s=lang["max_time_limit_s"], max_memory_limit_mb=lang["max_memory_limit_mb"])
            for name, lang in languages.items()}


def default_languages() -> dict[str, dict[str, Any]]:
    """The languages and limits a server advertises when no sandbox runs (sandbox/config.py's)."""
    return {name: {"name": name, **dataclasses.asdict(lim), "image": ""} for name, lim in default_limits().items()}


def languages_from_info(info: pb.ServerInfo) -> dict[str, dict[str, Any]]:
    """A server's advertised languages, by name, with their maxima."""
    return {lang.name: {"max_time_limit_s": lang.max_time_limit_s, "max_memory_limit_mb": lang.max_memory_limit_mb}
            for lang in info.languages}


# ---------------------------------------------------------------- results

def result_json(result: Mapping[str, Any]) -> Result:
    """A result dict (the engine's, which may carry sandbox-only keys such as output heads) as the
    Result every front end returns: the fields and defaults of result_to_proto, without protobuf.
    An unknown verdict is a bug here, not something to send."""
    for verdict in (result["verdict"], *(t["verdict"] for t in result.get("tests") or ())):
        if verdict not in VERDICTS:
            raise ValueError(f"unknown verdict {verdict!r}")
    return {
        "id": str(result["id"]), "verdict": result["verdict"], "score": float(result.get("score") or 0),
        "detail": str(result.get("detail") or ""), "extracted": str(result.get("extracted") or ""),
        "extracted_from": str(result.get("extracted_from") or ""), "queue_s": float(result.get("queue_s") or 0),
        "exec_s": float(result.get("exec_s") or 0), "retryable": bool(result.get("retryable")),
        "tests": [_test_json(t) for t in result.get("tests") or ()],
    }


def _test_json(t: Mapping[str, Any]) -> TestResult:
    out: TestResult = {"verdict": t["verdict"], "time_s": float(t.get("time_s") or 0),
                       "detail": str(t.get("detail") or ""), "exit_code": int(t.get("exit_code") or 0)}
    if t.get("name"):
        out["name"] = str(t["name"])
    return out


def result_to_proto(result: Mapping[str, Any]) -> pb.GradeResult:
    """A result dict on the wire; an unknown verdict is a bug here, not something to send."""
    tests = [pb.TestResult(verdict=verdict_to_proto(t["verdict"]), time_s=float(t.get("time_s") or 0),
                           detail=str(t.get("detail") or ""), exit_code=int(t.get("exit_code") or 0),
                           name=str(t.get("name") or ""))
             for t in result.get("tests") or ()]
    return pb.GradeResult(
        id=result["id"], verdict=verdict_to_proto(result["verdict"]), score=float(result.get("score") or 0),
        detail=str(result.get("detail") or ""), extracted=str(result.get("extracted") or ""),
        extracted_from=str(result.get("extracted_from") or ""), queue_s=float(result.get("queue_s") or 0),
        exec_s=float(result.get("exec_s") or 0), tests=tests, retryable=bool(result.get("retryable")))


def result_from_proto(r: pb.GradeResult) -> Result:
    return {
        "id": r.id, "verdict": verdict_from_proto(r.verdict), "score": r.score, "detail": r.detail,
        "extracted": r.extracted, "extracted_from": r.extracted_from, "queue_s": r.queue_s,
        "exec_s": r.exec_s, "retryable": r.retryable,
        "tests": [_test_from_proto(t) for t in r.tests],
    }


def _test_from_proto(t: pb.TestResult) -> TestResult:
    out: TestResult = {"verdict": verdict_from_proto(t.verdict), "time_s": t.time_s, "detail": t.detail,
                       "exit_code": t.exit_code}
    if t.name:
        out["name"] = t.name
    return out



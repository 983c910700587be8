"""The schema of the code test kinds (docs/tasks.md "Task schema"): call_tests with entry_point,
test_framework, and judge on the wire. Conversions both ways and validation naming the field, on
the wire, from a dict and through the sandbox's own API."""

import json

import pytest

from sandbox.config import SandboxConfig
from sandbox.plan import make_plan
from sandbox.contract import Limits, TaskError, parse_task
from verifier.schema import (result_from_proto, result_to_proto, task_from_proto, task_to_proto,
                             validate_tasks)
from verifier.v1 import verifier_pb2 as pb

LIMITS = Limits(max_tasks_per_call=4, max_field_bytes=200, max_request_bytes=1 << 20, max_math_timeout_s=30,
                max_code_timeout_s=60, max_tests_per_task=3, max_choices=5)


def call(**kw) -> dict:
    return {"id": "c", "kind": "code", "language": "python", "completion": "def f(a, b=0):\n    return a + b",
            "entry_point": "f", "call_tests": [{"args": [1, 2], "expected": 3}], **kw}


def wire_validate(task: dict) -> list:
    return validate_tasks([task_to_proto(task)], LIMITS)


def test_call_tests_round_trip_through_the_wire():
    task = call(call_tests=[{"args": [[1, 2], {"k": None}], "kwargs": {"b": 1.5}, "expected": [True, "x"]},
                            {"args": [], "expected": None}])
    proto = task_to_proto(task)
    assert json.loads(proto.code.call_tests[0].args_json) == [[1, 2], {"k": None}]
    assert proto.code.call_tests[1].kwargs_json == ""  # no kwargs: the field stays empty
    d = task_from_proto(proto)
    assert d["entry_point"] == "f" and d["test_framework"] == "assert" and d["judge"] == "process"
    assert d["call_tests"] == [{"args": [[1, 2], {"k": None}], "kwargs": {"b": 1.5}, "expected": [True, "x"]},
                               {"args": [], "kwargs": {}, "expected": None}]
    assert d == parse_task(task).to_dict()  # the dict path fills in the same


def test_tuples_in_a_python_dict_are_lists_and_types_stay_exact():
    d = parse_task(call(call_tests=[{"args": (1, (2.0, True)), "expected": (1,)}])).to_dict()
    assert d["call_tests"][0]["args"] == [1, [2.0, True]] and d["call_tests"][0]["expected"] == [1]
    assert [type(x) for x in d["call_tests"][0]["args"][1]] == [float, bool]


def test_judge_and_framework_are_on_the_wire():
    task = {"id": "p", "kind": "code", "completion": "def f():\n    return 1", "test_framework": "unittest",
            "judge": "process", "test_code": "import unittest\nclass T(unittest.TestCase):\n    def test_f(self):\n"
                                             "        self.assertEqual(f(), 1)\n"}
    d = task_from_proto(task_to_proto(task))
    assert (d["test_framework"], d["judge"]) == ("unittest", "process")
    assert wire_validate(task)[0].judge == "process"


def test_the_shared_judge_is_refused_by_name():
    """No judge shares the program's interpreter (issue 16): a task asking for one is refused,
    never graded another way."""
    task = {"id": "s", "kind": "code", "completion": "def f():\n    return 1", "test_code": "assert f() == 1", "judge": "shared"}
    with pytest.raises(TaskError, match="'shared' was removed") as e:
        parse_task(task)
    assert e.value.field.endswith("judge")


def deep(n: int):
    v: list = []
    for _ in range(n):
        v = [v]
    return v


@pytest.mark.parametrize("task, field", [
    (call(entry_point=""), "entry_point"),
    (call(entry_point="not a name"), "entry_point"),
    (call(entry_point="class"), "entry_point"),
    (call(language="cpp", completion="int main(){}"), "call_tests"),
    (call(tests=[{"stdin": "", "expected_stdout": ""}]), "call_tests"),
    (call(test_code="assert f(1) == 1"), "call_tests"),
    (call(checker="print(1)"), "checker"),
    (call(judge="shared"), "judge"),
    (call(judge="thread"), "judge"),
    (call(test_framework="nose"), "test_framework"),
    (call(call_tests=[], test_framework="pytest"), "test_framework"),  # a framework needs its test file
    (call(call_tests=[{"args": [1]}]), "call_tests[0].expected"),
    (call(call_tests=[{"args": [1], "expected": 1, "output": 2}]), "call_tests[0]"),
    (call(call_tests=[{"args": 1, "expected": 1}]), "call_tests[0].args"),
    (call(call_tests=[{"args": [], "kwargs": [1], "expected": 1}]), "call_tests[0].kwargs"),
    (call(call_tests=[{"args": [], "kwargs": {"a b": 1}, "expected": 1}]), "call_tests[0].kwargs"),
    (call(call_tests=[{"args": [float("nan")], "expected": 1}]), "call_tests[0].args[0]"),
    (call(call_tests=[{"args": [], "expected": float("inf")}]), "call_tests[0].expected"),
    (call(call_tests=[{"args": [{1: 2}], "expected": 1}]), "call_tests[0].args[0]"),
    (call(call_tests=[{"args": [{1, 2}], "expected": 1}]), "call_tests[0].args[0]"),
    (call(call_tests=[{"args": [b"x"], "expected": 1}]), "call_tests[0].args[0]"),
    (call(call_tests=[{"args": [deep(200)], "expected": 1}]), "call_tests[0].args"),
    (call(call_tests="[]"), "call_tests"),
    (call(call_tests=[[1, 2]]), "call_tests[0]"),
])
def test_bad_kinds_name_the_field_on_every_path(task, field):
    with pytest.raises(TaskError) as err:
        parse_task(task)
    assert err.value.field.startswith(f"task.{field}"), err.value
    with pytest.raises(TaskError) as err:  # the sandbox's own API: the same rule
        make_plan(task, SandboxConfig())
    assert err.value.field.startswith(f"task.{field}"), err.value


def raw_wire(code: dict, calls: list[dict]) -> pb.Task:
    """A task as another client may put it on the wire: JSON texts unchecked."""
    fields = {"language": "python", "completion": "x", "entry_point": "f", **code}
    return pb.Task(id="w", code=pb.CodeTask(call_tests=[pb.CallTest(**c) for c in calls], **fields))


@pytest.mark.parametrize("calls, field", [
    ([{"args_json": "[1,", "expected_json": "1"}], "call_tests[0].args_json"),
    ([{"args_json": "{}", "expected_json": "1"}], "call_tests[0].args_json"),
    ([{"args_json": "[NaN]", "expected_json": "1"}], "call_tests[0].args_json"),
    ([{"args_json": "[1]"}], "call_tests[0].expected_json"),
    ([{"args_json": "[1]", "expected_json": "Infinity"}], "call_tests[0].expected_json"),
    ([{"args_json": "[1]", "expected_json": "1", "kwargs_json": "[]"}], "call_tests[0].kwargs_json"),
    ([{"args_json": "[" * 300 + "]" * 300, "expected_json": "1"}], "call_tests[0].args_json"),
    ([{"args_json": "[" + "1" * 300 + "]", "expected_json": "1"}], "call_tests[0].args_json"),  # over the field limit
    ([{"args_json": "[]", "expected_json": "1"}] * 4, "call_tests"),  # more than max_tests_per_task
])
def test_malformed_wire_call_tests_are_invalid_argument_naming_the_field(calls, field):
    with pytest.raises(TaskError) as err:
        validate_tasks([raw_wire({}, calls)], LIMITS)
    assert err.value.field == f"tasks[0].code.{field}"


def test_a_code_task_needs_some_tests_on_the_wire():
    with pytest.raises(TaskError, match="call_tests"):
        validate_tasks([raw_wire({"entry_point": ""}, [])], LIMITS)


def test_test_name_survives_the_wire_and_is_absent_when_empty():
    result = {"id": "x", "verdict": "wrong_answer", "score": 0.5,
              "tests": [{"verdict": "accepted", "time_s": 0.1, "detail": "", "exit_code": 0, "name": "test_a"},
                        {"verdict": "wrong_answer", "time_s": 0.1, "detail": "d", "exit_code": 1}]}
    tests = result_from_proto(result_to_proto(result))["tests"]
    assert tests[0]["name"] == "test_a" and "name" not in tests[1]


def _request(**code) -> pb.GradeRequest:
    fields = {"language": "python", "completion": "def f(x):\n    return x", "entry_point": "f", **code}
    return pb.GradeRequest(tasks=[pb.Task(id="k", code=pb.CodeTask(**fields))])


@pytest.mark.parametrize("req, field", [
    (_request(call_tests=[pb.CallTest(args_json="[1,", expected_json="1")]), "tasks[0].code.call_tests[0].args_json"),
    (_request(call_tests=[pb.CallTest(args_json="[1]")]), "tasks[0].code.call_tests[0].expected_json"),
    (_request(call_tests=[pb.CallTest(args_json="[1]", expected_json="1")], judge="shared"), "tasks[0].code.judge"),
    (_request(test_code="assert f(1) == 1", judge="thread"), "tasks[0].code.judge"),
    (_request(test_code="def test_f():\n    pass", test_framework="nose"), "tasks[0].code.test_framework"),
    (_request(test_framework="pytest", tests=[pb.CodeTest(stdin="", expected_stdout="")]),
     "tasks[0].code.test_framework"),
    (_request(entry_point="1f", call_tests=[pb.CallTest(args_json="[]", expected_json="1")]),
     "tasks[0].code.entry_point"),
])
def test_a_real_server_answers_invalid_argument_naming_the_field(verifier_server, req, field):
    import grpc

    from verifier.v1 import verifier_pb2_grpc as pbg

    with grpc.insecure_channel(verifier_server.target) as channel:
        with pytest.raises(grpc.RpcError) as err:
            pbg.VerifierStub(channel).Grade(req, timeout=10)
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert err.value.details().startswith(field + ":"), err.value.details()

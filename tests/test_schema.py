"""Unit tests of the task schema: conversions both ways and validation naming the field."""

import dataclasses
import subprocess
import sys
from pathlib import Path

import pytest

from sandbox.plan import make_plan
from sandbox.config import SandboxConfig
from sandbox.contract import VERDICTS, LanguageLimits, Limits, TaskError, parse_task
from verifier.schema import (default_languages, result_from_proto, result_to_proto, task_from_proto, task_to_proto,
                             validate_tasks)
from verifier.v1 import verifier_pb2 as pb

DEFAULT_LANGUAGES = default_languages()

LIMITS = Limits(max_tasks_per_call=4, max_field_bytes=100, max_request_bytes=1 << 20, max_math_timeout_s=30,
                max_code_timeout_s=60, max_tests_per_task=3, max_choices=5)


def math(**kw):
    return {"id": "a", "kind": "math", "completion": "\\boxed{1}", "gold": "1", **kw}


def code(**kw):
    return {"id": "c", "kind": "code", "language": "python", "completion": "print(1)",
            "tests": [{"stdin": "", "expected_stdout": "1\n"}], **kw}


def test_math_round_trip_fills_defaults():
    d = task_from_proto(task_to_proto(math(choices=["x", "y"])))
    assert d == {"id": "a", "kind": "math", "completion": "\\boxed{1}", "gold": "1", "profile": "strict",
                 "choices": ["x", "y"], "timeout_s": 0.0, "problem": ""}


def test_numeric_gold_and_id_are_accepted_as_strings():
    d = task_from_proto(task_to_proto(math(id=7, gold=0.5)))
    assert d["id"] == "7" and d["gold"] == "0.5"


def test_files_and_file_io_round_trip():
    t = code(files={"testlib.h": "// header\n", "grader.txt": "é"}, input_file="input.txt", output_file="output.txt",
             checker="int main() { return 0; }", checker_language="cpp", compare="tokens_ci", language="cpp",
             completion="int main() {}")
    sent = task_to_proto(t)
    assert dict(sent.code.files) == t["files"]
    for d in (task_from_proto(sent), task_from_proto(wire(t)), parse_task(t).to_dict()):
        assert (d["files"], d["input_file"], d["output_file"], d["checker_language"], d["compare"]) == (
            t["files"], "input.txt", "output.txt", "cpp", "tokens_ci")
    validate_tasks([sent], Limits(max_tasks_per_call=1, max_field_bytes=100, max_tests_per_task=3,
                                  max_code_timeout_s=60, max_math_timeout_s=0, max_choices=0))
    plain = task_from_proto(task_to_proto(code()))
    assert (plain["files"], plain["input_file"], plain["output_file"]) == ({}, "", "")


@pytest.mark.parametrize("language", ["rust", "go"])
def test_rust_and_go_are_languages_on_every_path(language):
    t = code(language=language, completion="fn main() {}")
    assert task_from_proto(task_to_proto(t))["language"] == parse_task(t).language == language
    validate_tasks([wire(t)], LIMITS)


def test_code_round_trip():
    d = task_from_proto(task_to_proto(code(compare="lines", time_limit_s=1.5)))
    assert d["tests"] == [{"stdin": "", "expected_stdout": "1\n"}]
    assert d["compare"] == "lines" and d["scoring"] == "all" and d["time_limit_s"] == 1.5


@pytest.mark.parametrize("task, field", [
    ({"kind": "math"}, "task.id"),
    (math(kind="poem"), "task.kind"),
    (math(completion=3), "task.completion"),
    (math(choices="AB"), "task.choices"),
    (code(tests=[1]), "task.tests[0]"),
    (code(time_limit_s="2"), "task.time_limit_s"),
    (math(completion="\ud800"), "task.completion"),  # a lone surrogate cannot go on the wire
    (math(choices=["A", "\udfff"]), "task.choices"),
    (code(memory_limit_mb=float("inf")), "task.memory_limit_mb"),
    (code(files=["testlib.h"]), "task.files"),
    (code(files={"testlib.h": 3}), "task.files['testlib.h']"),
    (code(files={"a.h": "\ud800"}), "task.files['a.h']"),
    (code(input_file=1), "task.input_file"),
    (math(timeout_s=float("nan")), "task.timeout_s"),
])
def test_wrong_types_name_the_field(task, field):
    with pytest.raises(TaskError) as err:
        task_to_proto(task)
    assert err.value.field == field


@pytest.mark.parametrize("tasks, field", [
    ([], "tasks"),
    ([math(id=str(i)) for i in range(5)], "tasks"),
    ([math(), math()], "tasks[1].id"),
    ([math(completion="x" * 101)], "tasks[0].math.completion"),
    ([math(completion="é" * 60)], "tasks[0].math.completion"),  # 120 bytes
    ([math(profile="loose")], "tasks[0].math.profile"),
    ([math(timeout_s=31)], "tasks[0].timeout_s"),
    ([math(choices=list("abcdef"))], "tasks[0].math.choices"),
    ([code(language="cobol")], "tasks[0].code.language"),
    ([code(tests=[{"stdin": "", "expected_stdout": ""}] * 4)], "tasks[0].code.tests"),
    ([code(tests=[], test_code="")], "tasks[0].code.tests"),
    ([code(compare="fuzzy")], "tasks[0].code.compare"),
    ([code(scoring="best")], "tasks[0].code.scoring"),
    ([code(time_limit_s=31)], "tasks[0].code.time_limit_s"),
    ([code(memory_limit_mb=4096)], "tasks[0].code.memory_limit_mb"),
    ([code(files={"big.txt": "x" * 101})], "tasks[0].code.files['big.txt']"),  # each file within max_field_bytes
])
def test_limits_name_the_field(tasks, field):
    protos = [wire(t) for t in tasks]
    with pytest.raises(TaskError) as err:
        validate_tasks(protos, LIMITS)
    assert err.value.field == field


def wire(task: dict) -> pb.Task:
    """A task as another client (any language) may put it on the wire: no client-side checks."""
    out = pb.Task(id=str(task.get("id", "")), timeout_s=task.get("timeout_s", 0))
    if task["kind"] == "math":
        out.math.CopyFrom(pb.MathTask(**{k: v for k, v in task.items() if k in ("completion", "gold", "profile", "choices")}))
    else:
        fields = set(pb.CodeTask.DESCRIPTOR.fields_by_name) - {"tests"}
        out.code.CopyFrom(pb.CodeTask(tests=[pb.CodeTest(**t) for t in task.get("tests", [])],
                                      **{k: v for k, v in task.items() if k in fields}))
    return out


# Values the sandbox cannot honour are refused up front, on the wire and from a dict, naming the
# field (they used to pass the server and come back infra_error), and the float comparator has one
# default tolerance on every path.
BAD_CODE = [
    (code(compare="float", float_abs_tol=float("inf")), "float_abs_tol"),
    (code(compare="float", float_rel_tol=float("nan")), "float_rel_tol"),
    (code(compare="float", float_abs_tol=-1e-9), "float_abs_tol"),
    (code(checker="print(1)", checker_language="c"), "checker_language"),
    (code(checker_language="java"), "checker_language"),
    (code(language="c", completion="int main(){}", tests=[], test_code="assert True"), "test_code"),
    (code(memory_limit_mb=8), "memory_limit_mb"),
    (code(time_limit_s=-1), "time_limit_s"),
    # support files and file I/O (docs/tasks.md "Task schema"): flat names, never the sandbox's own files
    (code(files={"a/b.h": "x"}), "files['a/b.h']"),
    (code(files={"..": "x"}), "files['..']"),
    (code(files={"/etc/passwd": "x"}), "files['/etc/passwd']"),
    (code(files={".hidden": "x"}), "files['.hidden']"),
    (code(files={"prog.py": "print(2)"}), "files['prog.py']"),
    (code(files={"prog": "x"}), "files['prog']"),
    (code(files={"answer.txt": "1"}), "files['answer.txt']"),
    (code(files={"checker.py": "x"}), "files['checker.py']"),
    (code(files={f"f{i}.txt": "" for i in range(17)}), "files"),
    (code(files={f"f{i}.txt": "x" * (1 << 20) for i in range(5)}), "files"),
    (code(language="java", completion="class Main {}", files={"Main.java": "x"}), "files['Main.java']"),
    (code(files={"in.txt": "x"}, input_file="in.txt"), "files['in.txt']"),
    (code(input_file="../input.txt"), "input_file"),
    (code(output_file="/tmp/out"), "output_file"),
    (code(output_file="prog.py"), "output_file"),
    (code(input_file="io.txt", output_file="io.txt"), "output_file"),
    (code(tests=[], test_code="assert True", input_file="input.txt"), "input_file"),
    (code(language="java", completion="class Main {}", checker="int main(){}", checker_language="cpp"),
     "checker_language"),
    (code(checker="int main(){}", checker_language="rust"), "checker_language"),
]


@pytest.mark.parametrize("task, field", BAD_CODE)
def test_unhonourable_values_are_refused_on_the_wire(task, field):
    with pytest.raises(TaskError) as err:
        validate_tasks([wire(task)], LIMITS)
    assert err.value.field == f"tasks[0].code.{field}"


@pytest.mark.parametrize("task, field", BAD_CODE)
def test_unhonourable_values_are_refused_from_a_dict(task, field):
    with pytest.raises(TaskError) as err:
        parse_task(task)
    assert err.value.field == f"task.{field}"
    with pytest.raises(TaskError) as err:  # the sandbox's own API: the same rule, the same field
        make_plan(task, SandboxConfig())
    assert err.value.field == f"task.{field}"


@pytest.mark.parametrize("task, where, named", [
    (code(tests=[{"input": "1\n", "output": "2\n"}]), "task.tests[0]", "['input', 'output']"),  # APPS / open-r1
    (code(expected_output="3"), "task", "['expected_output']"),
    (code(float_tol=1e-3), "task", "['float_tol']"),
    (math(answer="2"), "task", "['answer']"),
    (code(return_output=True), "task", "['return_output']"),  # a sandbox debugging option, not on the wire
])
def test_unknown_keys_are_refused_naming_them(task, where, named):
    with pytest.raises(TaskError) as err:
        task_to_proto(task)
    assert err.value.field == where and f"unknown keys {named}" in str(err.value)


def test_input_output_tests_never_reach_the_sandbox_empty():
    with pytest.raises(TaskError, match=r"tests\[0\]: unknown keys \['input', 'output'\]"):
        make_plan(code(tests=[{"input": "1\n", "output": "2\n"}]), SandboxConfig())


def test_float_tolerance_defaults_to_1e6_on_every_path():
    t = code(compare="float")
    sent = task_to_proto(t)
    bare = wire(t)  # a client that never set the optional tolerance fields
    assert not bare.code.HasField("float_abs_tol")
    for d in (task_from_proto(sent), task_from_proto(bare), parse_task(t).to_dict()):
        assert d["float_abs_tol"] == d["float_rel_tol"] == 1e-6
    plan = make_plan(t, SandboxConfig())
    assert plan.abs_tol == plan.rel_tol == 1e-6
    zero = task_from_proto(task_to_proto(code(compare="float", float_abs_tol=0.0, float_rel_tol=0.0)))
    assert zero["float_abs_tol"] == zero["float_rel_tol"] == 0.0  # an explicit 0 stays 0


def test_language_limits_are_the_sandboxes():
    from sandbox.config import default_limits
    assert {n: (d["max_time_limit_s"], d["max_memory_limit_mb"]) for n, d in DEFAULT_LANGUAGES.items()} == \
        {n: (lim.max_time_limit_s, lim.max_memory_limit_mb) for n, lim in default_limits().items()}


def test_valid_batch_passes():
    validate_tasks([task_to_proto(math()), task_to_proto(code())], LIMITS)


@pytest.mark.parametrize("verdict", VERDICTS)
def test_every_verdict_survives_the_wire(verdict):
    r = {"id": "x", "verdict": verdict, "score": 0.5, "detail": "d", "extracted": "e", "extracted_from": "boxed",
         "queue_s": 0.1, "exec_s": 0.2, "retryable": verdict == "infra_error",
         "tests": [{"verdict": verdict, "time_s": 0.3, "detail": "t", "exit_code": 1}]}
    assert result_from_proto(result_to_proto(r)) == r


def test_generated_code_is_fresh(tmp_path):
    """The committed *_pb2 files must match what protoc makes of the .proto today."""
    root = Path(__file__).resolve().parent.parent
    subprocess.run([sys.executable, "-m", "grpc_tools.protoc", "-I", str(root / "proto"), f"--python_out={tmp_path}",
                    f"--grpc_python_out={tmp_path}", f"--pyi_out={tmp_path}", "verifier/v1/verifier.proto"],
                   check=True, cwd=root)
    for name in ("verifier_pb2.py", "verifier_pb2_grpc.py", "verifier_pb2.pyi"):
        fresh = (tmp_path / "verifier" / "v1" / name).read_text()
        assert fresh == (root / "verifier" / "v1" / name).read_text(), f"{name} is stale: run `make proto`"


def test_a_missing_language_means_python_on_the_wire_and_from_a_dict():
    bare = {k: v for k, v in code().items() if k != "language"}
    assert task_from_proto(wire(bare))["language"] == parse_task(bare).language == "python"


def test_limits_are_the_protos_fields_both_ways():
    """contract.Limits is the wire's verifier.v1.Limits as a plain value: a field added to the proto and not
    to the dataclass (or the other way) fails here, not as a limit a server silently stops advertising."""
    from verifier.schema import limits_from_info, limits_to_proto
    assert {f.name for f in dataclasses.fields(Limits)} - {"languages"} == set(pb.Limits.DESCRIPTOR.fields_by_name)
    limits = Limits(max_tasks_per_call=7, max_field_bytes=11, max_request_bytes=13, default_math_timeout_s=2.5,
                    max_math_timeout_s=3.5, max_code_timeout_s=4.5, max_tests_per_task=17, max_queued_items=19,
                    max_choices=23, max_test_set_bytes=29, max_test_field_bytes=31,
                    languages={"c": LanguageLimits(max_time_limit_s=1.5, max_memory_limit_mb=64)})
    info = pb.ServerInfo(limits=limits_to_proto(limits),
                         languages=[pb.LanguageInfo(name="c", max_time_limit_s=1.5, max_memory_limit_mb=64)])
    assert limits_from_info(info) == limits


@pytest.mark.parametrize("task, field", [
    (code(completion="x" * 101), "tasks[0].completion"),  # a server's field limit
    (code(tests=[{"stdin": "y" * 101, "expected_stdout": ""}]), "tasks[0].tests[0].stdin"),
    (code(tests=[{"stdin": "", "expected_stdout": ""}] * 4), "tasks[0].tests"),  # more than max_tests_per_task
    (code(time_limit_s=5.0), "tasks[0].time_limit_s"),  # over this server's python maximum, under the default's
    (code(language="c"), "tasks[0].language"),  # a language this server does not serve
    (math(timeout_s=31), "tasks[0].timeout_s"),
    (math(choices=["a"] * 6), "tasks[0].choices"),
])
def test_parse_task_holds_a_json_task_to_a_servers_limits_in_one_pass(task, field):
    """parse_task(obj, where, limits) decodes and checks the server's limits (its languages' maxima
    included) at once, naming the field in JSON terms: the HTTP port's and `verifier grade`'s one pass."""
    from sandbox.contract import parse_tasks
    limits = dataclasses.replace(LIMITS, languages={"python": LanguageLimits(max_time_limit_s=4.0)})
    with pytest.raises(TaskError) as e:
        parse_tasks([task], limits)
    assert e.value.field == field
    ok = {k: v for k, v in task.items() if k not in ("completion", "tests", "time_limit_s", "language", "timeout_s",
                                                      "choices")}
    assert parse_task({**(code() if task["kind"] == "code" else math()), **ok}, "tasks[0]", limits)


def test_parse_tasks_counts_before_decoding_and_refuses_a_repeated_id():
    from sandbox.contract import parse_tasks
    with pytest.raises(TaskError, match="must not be empty"):
        parse_tasks([], LIMITS)
    with pytest.raises(TaskError, match="exceed the limit of 4") as e:
        parse_tasks([None] * 5, LIMITS)  # refused by count, not by the first item's type
    assert e.value.field == "tasks"
    with pytest.raises(TaskError, match="duplicate id") as e:
        parse_tasks([math(), math()], LIMITS)
    assert e.value.field == "tasks[1].id"

"""Test sets sent once per call (docs/service.md "The service", "Python client"): the client's dedup, the
server's checks naming the field, the one test-count limit, and a GRPO group graded in real sandboxes."""

from __future__ import annotations

import asyncio

import grpc
import pytest

from trainer.config import RewardConfig
from trainer.rewards import VerifierRewards
from sandbox.contract import MAX_TESTS, LanguageLimits, Limits
from helpers import math_task
from verifier.client import ClientConfig, VerifierClient
from sandbox.contract import parse_task
from verifier.schema import WireTestSets, protos_with_test_sets, validate_tasks
from verifier.v1 import verifier_pb2 as pb
from verifier.v1 import verifier_pb2_grpc as pb_grpc

LIMITS = Limits(max_tasks_per_call=64, max_field_bytes=1000, max_request_bytes=1 << 20, max_code_timeout_s=60,
                max_tests_per_task=5, max_choices=5, max_test_set_bytes=3000, max_math_timeout_s=0,
                languages={"python": LanguageLimits(max_time_limit_s=20.0, max_memory_limit_mb=1024)})


def code(task_id: str, tests: list[dict], completion: str = "```python\nprint(input())\n```") -> dict:
    return {"id": task_id, "kind": "code", "language": "python", "completion": completion, "tests": tests}


def cases(*pairs: tuple[str, str]) -> list[dict]:
    return [{"stdin": i, "expected_stdout": o} for i, o in pairs]


def stub(target: str) -> pb_grpc.VerifierStub:
    return pb_grpc.VerifierStub(grpc.insecure_channel(target, options=[("grpc.max_send_message_length", 64 << 20)]))


# ---------------------------------------------------------------- client side: dedup

def test_identical_test_lists_are_sent_once_and_near_misses_are_not_merged():
    a = cases(("1\n", "1\n"), ("2\n", "2\n"))
    a_copy = cases(("1\n", "1\n"), ("2\n", "2\n"))  # equal, distinct objects (rows loaded one by one)
    b = cases(("1\n", "1\n"), ("2\n", "3\n"))  # one expected output differs
    long = "1 " * 100 + "\n"
    c = cases((long, "x\n"))
    c_mid = cases((long[:100] + "2" + long[101:], "x\n"))  # same length and ends, one character apart
    models = [parse_task(code(str(i), t)) for i, t in enumerate([a, a_copy, b, b, cases(("x", "x")), c, c_mid, c_mid])]
    protos, sets = protos_with_test_sets(models)
    assert len(sets) == 3
    names = [p.code.test_set for p in protos]
    assert names[0] == names[1] != names[2] == names[3] and names[4] == names[5] == ""
    assert names[6] == names[7] not in ("", names[0], names[2])
    assert [len(p.code.tests) for p in protos] == [0, 0, 0, 0, 1, 1, 0, 0]  # shared tests are not inline
    assert sets[names[6]].tests[0].stdin[100] == "2"
    assert [t.expected_stdout for t in sets[names[2]].tests] == ["1\n", "3\n"]
    back = validate_tasks(protos, LIMITS, sets)
    assert [m.tests for m in back] == [m.tests for m in models]
    assert back[0].tests is back[1].tests  # one tuple for every task naming the set, not a copy each


def test_test_set_limits_are_checked_once_and_name_the_task_field():
    big = cases(*[("1" * 900, "")] * 4)  # 3600 bytes > max_test_set_bytes=3000, each field fits
    protos, sets = protos_with_test_sets([parse_task(code(str(i), big)) for i in range(3)])
    with pytest.raises(ValueError, match=r"^tasks\[0\]\.code\.test_set: test set '\w+': tests: 3600 bytes of tests exceed"):
        validate_tasks(protos, LIMITS, sets)
    inline = pb.Task(id="x", code=pb.CodeTask(language="python", completion="x",
                                              tests=[pb.CodeTest(stdin="1" * 900)] * 4))
    with pytest.raises(ValueError, match=r"^tasks\[0\]\.code\.tests: 3600 bytes"):
        validate_tasks([inline], LIMITS)
    shared = WireTestSets(sets, LIMITS)
    for p in protos:  # the client's per-task check: the set's error each time, computed once
        with pytest.raises(ValueError, match="test_set"):
            validate_tasks([p], LIMITS, shared)
    assert len(shared._done) == 1


# ---------------------------------------------------------------- server side: refusals naming the field

def _request(n_tests: int = 2, inline: int = 0, name: str = "s", ref: str = "s") -> pb.GradeRequest:
    test_set = pb.TestSet(tests=[pb.CodeTest(stdin=f"{i}\n", expected_stdout=f"{i}\n") for i in range(n_tests)])
    task = pb.CodeTask(language="python", completion="print(input())", test_set=ref,
                       tests=[pb.CodeTest(stdin="1\n", expected_stdout="1\n")] * inline)
    return pb.GradeRequest(tasks=[pb.Task(id="a", code=pb.CodeTask(language="python", completion="x",
                                                                    tests=[pb.CodeTest()])),
                                  pb.Task(id="b", code=task)], test_sets={name: test_set})


@pytest.mark.parametrize("method", ["Grade", "GradeStream"])
@pytest.mark.parametrize("request_, field, says", [
    (_request(ref="nope"), "tasks[1].code.test_set", "unknown test set 'nope'"),
    (_request(inline=1), "tasks[1].code.test_set", "inline tests or a test_set, not both"),
    (_request(n_tests=MAX_TESTS + 1), "tasks[1].code.test_set", f"{MAX_TESTS + 1} tests, more than {MAX_TESTS}"),
])
def test_bad_test_sets_get_invalid_argument_naming_the_field(verifier_server, request_, field, says, method):
    call = getattr(stub(verifier_server.target), method)
    with pytest.raises(grpc.RpcError) as err:
        reply = call(request_, timeout=30)
        list(reply) if method == "GradeStream" else reply
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert err.value.details().startswith(field) and says in err.value.details()


@pytest.mark.parametrize("method", ["Grade", "GradeStream"])
def test_grade_and_grade_stream_take_a_request_with_test_sets(verifier_server, method):
    """Both methods accept tasks that name a set (no sandbox here: each is answered, infra_error)."""
    call = getattr(stub(verifier_server.target), method)
    reply = call(_request(), timeout=30)
    results = list(reply) if method == "GradeStream" else list(reply.results)
    assert sorted(r.id for r in results) == ["a", "b"]
    assert {r.verdict for r in results} == {pb.VERDICT_INFRA_ERROR}


def test_too_many_inline_tests_and_too_big_a_set_are_refused_naming_the_field(server_factory):
    server = server_factory("--workers", "1", "--no-code", "--max-test-set-bytes", "100000",
                            "--max-test-field-bytes", "70000")
    with VerifierClient(server.target) as client:
        info = client.server_info()
        assert info.limits.max_tests_per_task == MAX_TESTS == 1000 and info.limits.max_test_set_bytes == 100000
        over = code("over", cases(*[("1\n", "1\n")] * (MAX_TESTS + 1)))
        with pytest.raises(Exception, match=r"tasks\[0\]\.code\.tests: 1001 tests, more than 1000"):
            client.grade([over])
        big = cases(("x" * 60000, ""), ("y" * 60000, ""))
        with pytest.raises(Exception, match=r"tasks\[0\]\.code\.tests: 120000 bytes of tests exceed"):
            client.grade([code("g0", big), code("g1", big)])  # the client names the tests the user wrote
    with VerifierClient(server.target, ClientConfig(on_invalid="result")) as client:
        results = client.grade([code("g0", big), math_task("m", "\\boxed{2}", "2"), code("g1", big)])
    assert [r["verdict"] for r in results] == ["error", "correct", "error"]
    assert results[2]["detail"].startswith("tasks[2].code.tests: 120000 bytes")
    raw = stub(server.target)
    with pytest.raises(grpc.RpcError) as err:
        raw.Grade(pb.GradeRequest(tasks=[pb.Task(id="a", code=pb.CodeTask(
            language="python", completion="x", tests=[pb.CodeTest(stdin="x" * 60000)] * 2))]), timeout=30)
    assert err.value.details().startswith("tasks[0].code.tests: 120000 bytes of tests exceed")
    with pytest.raises(grpc.RpcError) as err:
        raw.Grade(pb.GradeRequest(tasks=[pb.Task(id="a", code=pb.CodeTask(
            language="python", completion="x", tests=[pb.CodeTest(stdin="1", expected_stdout="x" * 70001)]))]), timeout=30)
    assert err.value.details() == "tasks[0].code.tests[0].expected_stdout: exceeds 70000 bytes"
    # the test count goes through the server's check unchanged at exactly the limit (no code: infra_error)
    exactly = [code(f"k{i}", cases(*[(f"{j}\n", f"{j}\n") for j in range(MAX_TESTS)])) for i in range(2)]
    before = server.metric("verifier_request_bytes_count")
    with VerifierClient(server.target) as client:
        assert [r["verdict"] for r in client.grade(exactly)] == ["infra_error"] * 2
    sent = server.metric("verifier_request_bytes_count") - before  # infra_error is retried: one set per request
    assert sent >= 1 and server.metric("verifier_test_sets_total") == sent


def test_trainer_reward_path_sends_each_test_set_once(server_factory):
    """The reward function (trainer/rewards.py) goes through the client: a group's tests go once."""
    server = server_factory("--workers", "1", "--no-code")  # code items: infra_error, reward None
    tests = cases(*[(f"{j} " * 20000 + "\n", f"{j}\n") for j in range(8)])  # ~0.9 MB of stdin
    rows = 16
    funcs = VerifierRewards(RewardConfig(target=server.target, breaker_patience=0,
                                         components=("pass_rate",))).reward_funcs()
    rewards = asyncio.run(funcs[0](prompts=["q"] * rows, completion_ids=[[0]] * rows,
                                   completions=["```python\nprint(1)\n```"] * rows,
                                   tests=[[dict(t) for t in tests] for _ in range(rows)]))  # equal, not the same lists
    assert rewards == [None] * rows
    requests = server.metric("verifier_request_bytes_count")  # infra_error is retried: each carries the set once
    assert requests >= 1 and server.metric("verifier_test_sets_total") == requests
    per_request = server.metric("verifier_request_bytes_sum") / requests
    one_copy = sum(len(t["stdin"]) + len(t["expected_stdout"]) for t in tests)
    assert one_copy < per_request < 1.2 * one_copy  # inline it would be rows x one_copy


# ---------------------------------------------------------------- real sandboxes

SUM_OR_ECHO = ("```python\nimport sys\nw = sys.stdin.read().split()\n"
               "if w[0] == 'big':\n    sys.stdout.write('a' * int(w[1]) + '\\n')\n"
               "else:\n    print(sum(map(int, w)){off})\n```")


@pytest.mark.docker
def test_a_grpo_group_sharing_a_multi_mb_test_set_is_graded_right_in_one_small_request(server_factory):
    """64 completions (2 problems x 32) of right, near-miss and crashing programs; each problem's
    ~2.6 MB of tests (a 1.5 MB expected output among them) goes on the wire once."""
    server = server_factory("--workers", "1")
    numbers = " ".join(str(i % 97) for i in range(250_000))  # ~1 MB of stdin
    total = sum(i % 97 for i in range(250_000))
    problem_a = cases((numbers, f"{total}\n"), ("big 1500000\n", "a" * 1_500_000 + "\n"))
    problem_b = cases((numbers, f"{total + 1}\n"), ("big 1500000\n", "a" * 1_500_000 + "\n"))  # near miss of A
    right, plus_one = SUM_OR_ECHO.format(off=""), SUM_OR_ECHO.format(off=" + 1")
    crash = "```python\nraise SystemExit(3)\n```"
    tasks, expected = [], []
    for i in range(64):
        tests, program = (problem_a, problem_b)[i % 2], (right, plus_one, crash)[i % 3]
        tasks.append(code(f"t{i}", tests, program) | {"scoring": "fraction"})
        ok = (program == right) == (tests is problem_a) if program != crash else False
        expected.append("accepted" if ok else "runtime_error" if program == crash else "wrong_answer")
    with VerifierClient(server.target) as client:
        results = client.grade(tasks)
    assert [r["verdict"] for r in results] == expected
    assert {r["score"] for r, e in zip(results, expected) if e == "wrong_answer"} == {0.5}  # the big output matched
    assert server.metric("verifier_test_sets_total") == 2
    assert server.metric("verifier_request_bytes_count") == 1
    one_set = len(numbers) + 1_500_000 + 40
    assert server.metric("verifier_request_bytes_sum") < 2 * one_set + 64 * 1000  # not 64 copies


@pytest.mark.docker
@pytest.mark.slow
def test_1000_tests_are_graded_within_the_scaled_budget(server_factory):
    """The job budget scales with tests x time limit: 1,000 tests of a C program finish accepted,
    and a near miss on the last test is caught."""
    server = server_factory("--workers", "1")
    tests = cases(*[(f"{j}\n", f"{2 * j}\n") for j in range(MAX_TESTS)])
    double = "```c\n#include <stdio.h>\nint main(){long x; scanf(\"%ld\",&x); printf(\"%ld\\n\", 2*x); return 0;}\n```"
    near = double.replace("2*x", "x == 999 ? 0 : 2*x")
    with VerifierClient(server.target) as client:
        ok, miss = client.grade([code("ok", tests, double) | {"language": "c"},
                                 code("miss", tests, near) | {"language": "c", "scoring": "fraction"}],
                                timeout_s=600)
    assert ok["verdict"] == "accepted" and len(ok["tests"]) == MAX_TESTS
    assert miss["verdict"] == "wrong_answer" and miss["score"] == pytest.approx(999 / 1000)


def test_trainer_batch_fingerprint_hashes_shared_tests_once_and_sees_a_one_character_change():
    """Components share one RPC per batch by content hash (trainer/rewards.py): equal copies of a
    group's tests give the same hash, a change in one expected output anywhere gives another."""
    from trainer.rewards import _fingerprint

    def batch(last: str = "9\n") -> list[dict]:
        return [code(str(i), cases(*[(f"{j}\n", f"{j}\n") for j in range(9)], ("9\n", last))) for i in range(8)]

    changed = batch()
    changed[5]["tests"][-1]["expected_stdout"] = "8\n"
    assert _fingerprint(batch()) == _fingerprint(batch())
    assert len({_fingerprint(batch()), _fingerprint(changed), _fingerprint(batch("8\n"))}) == 3


def test_an_expected_output_no_program_could_print_is_the_datasets_error_not_the_programs():
    """An expected output over the sandbox's stdout cap could only ever get output_limit: answered
    infra_error (retryable False) naming the limit, never a verdict against the program."""
    from sandbox.config import SandboxConfig
    from sandbox.plan import InfraFailure, make_plan

    task = code("big", cases(("1\n", "a" * 101 + "\n")), "```python\nprint('a' * 101)\n```")
    with pytest.raises(InfraFailure, match="expected output is over output_limit_bytes=100") as err:
        make_plan(task, SandboxConfig(output_limit_bytes=100))
    assert not err.value.retryable
    assert make_plan(task, SandboxConfig(output_limit_bytes=102)).tests  # at the cap: graded


def test_grpc_receive_limit_follows_max_request_bytes_and_the_client_fits_sets_under_it(server_factory):
    server = server_factory("--workers", "1", "--no-code", "--max-request-bytes", "200000")
    raw = stub(server.target)
    with pytest.raises(grpc.RpcError) as err:
        raw.Grade(pb.GradeRequest(tasks=[pb.Task(id="a", math=pb.MathTask(gold="1", completion="x" * 300_000))]),
                  timeout=30)
    assert err.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    shared = cases(*[("7" * 30_000, "") for _ in range(4)])  # 120 KB: once fits, twice would not
    tasks = [code(f"g{i}", shared) for i in range(6)] + [code(f"h{i}", cases(("1" * 30_000, "1"))) for i in range(2)]
    count, total = server.metric("verifier_request_bytes_count"), server.metric("verifier_request_bytes_sum")
    with VerifierClient(server.target) as client:
        results = client.grade(tasks)
    assert [r["verdict"] for r in results] == ["infra_error"] * 8  # answered (no sandbox), none lost
    requests = server.metric("verifier_request_bytes_count") - count
    sent = server.metric("verifier_request_bytes_sum") - total
    assert requests >= 2 and sent / requests < 200_000  # split, each under the limit with its set once

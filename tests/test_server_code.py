"""Code tasks through the service: real server, real Docker sandboxes (and none)."""

from __future__ import annotations

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from helpers import math_task, request, stub
from verifier.client import VerifierClient

PY_SUM = {"id": "sum", "kind": "code", "language": "python",
          "completion": "Here:\n```python\na, b = map(int, input().split())\nprint(a + b)\n```",
          "tests": [{"stdin": "1 2\n", "expected_stdout": "3\n"}, {"stdin": "5 5\n", "expected_stdout": "10\n"}]}


def _health(target: str, name: str) -> int:
    stub = health_pb2_grpc.HealthStub(grpc.insecure_channel(target))
    return stub.Check(health_pb2.HealthCheckRequest(service=name), timeout=5).status


@pytest.mark.docker
def test_code_and_math_in_one_call(server_factory):
    server = server_factory("--workers", "1")
    wrong = {**PY_SUM, "id": "wrong", "completion": "```python\nprint(3)\n```", "scoring": "fraction"}
    with VerifierClient(server.target) as client:
        info = client.server_info()
        results = client.grade([PY_SUM, wrong, math_task("m", "\\boxed{4}", "4")])
    assert info.code_available
    assert [r["verdict"] for r in results] == ["accepted", "wrong_answer", "correct"]
    assert [t["verdict"] for t in results[0]["tests"]] == ["accepted", "accepted"]
    assert [t["verdict"] for t in results[1]["tests"]] == ["accepted", "wrong_answer"]
    assert results[1]["score"] == 0.5
    assert results[0]["extracted_from"].startswith("fenced")
    assert _health(server.target, "verifier.v1.Verifier/code") == health_pb2.HealthCheckResponse.SERVING
    assert server.metric("verifier_items_total", kind="code", verdict="accepted") == 1


@pytest.mark.docker
def test_identical_programs_of_a_call_run_once_and_near_misses_do_not(server_factory):
    """Issue 20: the same extracted program in other prose (a rewrite) runs once and shares the
    verdict, each item keeping where its code came from; a program one character away, or the same
    program on other tests, runs on its own and gets its own verdict."""
    server = server_factory("--workers", "1")
    code = "a, b = map(int, input().split())\nprint(a + b)\n"
    tasks = [
        {**PY_SUM, "id": "fenced"},
        {**PY_SUM, "id": "prose", "completion": f"Let me add them.\n\n```python\n{code}```\nThis is right."},
        {**PY_SUM, "id": "raw", "completion": code},
        {**PY_SUM, "id": "near", "completion": f"```python\n{code.replace('a + b', 'a * b')}```"},
        {**PY_SUM, "id": "other-tests", "tests": [PY_SUM["tests"][0], {"stdin": "5 5\n", "expected_stdout": "11\n"}]},
    ]
    runs = server.metric("verifier_item_exec_seconds_count", kind="code")
    hits = server.metric("verifier_dedup_hits_total", kind="code")
    with VerifierClient(server.target) as client:
        results = {r["id"]: r for r in client.grade(tasks)}
    assert {k: r["verdict"] for k, r in results.items()} == {
        "fenced": "accepted", "prose": "accepted", "raw": "accepted", "near": "wrong_answer", "other-tests": "wrong_answer"}
    assert results["fenced"]["tests"] == results["prose"]["tests"] == results["raw"]["tests"]
    assert results["fenced"]["extracted_from"].startswith("fenced") and results["raw"]["extracted_from"] != results["fenced"]["extracted_from"]
    assert server.metric("verifier_dedup_hits_total", kind="code") == hits + 2
    assert server.metric("verifier_item_exec_seconds_count", kind="code") == runs + 3  # fenced, near, other-tests


def test_no_docker_daemon_means_infra_error_for_code_and_math_keeps_working(server_factory):
    server = server_factory("--workers", "1", env={"DOCKER_HOST": "unix:///nonexistent/docker.sock"})
    with VerifierClient(server.target) as client:
        info = client.server_info()
        code, math = client.grade([PY_SUM, math_task("m", "\\boxed{4}", "4")])
    assert not info.code_available
    assert code["verdict"] == "infra_error" and code["retryable"]
    assert "docker" in code["detail"].lower()
    assert math["verdict"] == "correct"
    assert _health(server.target, "verifier.v1.Verifier/code") == health_pb2.HealthCheckResponse.NOT_SERVING
    assert _health(server.target, "verifier.v1.Verifier/math") == health_pb2.HealthCheckResponse.SERVING


@pytest.mark.docker
@pytest.mark.slow
def test_a_hung_program_on_21_tests_gets_time_limit_through_the_server(server_factory):
    """Issue 9: 21 tests x 3 s of wall clock each ran past the server's fixed 60 s job budget and
    came back infra_error (retried, containers destroyed). The budget now scales with the task."""
    server = server_factory("--workers", "1")
    hang = {"id": "hang", "kind": "code", "language": "python", "time_limit_s": 1, "scoring": "fraction",
            "completion": "```python\nimport time\na, b = map(int, input().split())\nif a != 1:\n"
                          "    time.sleep(100)\nprint(a + b)\n```",
            "tests": [{"stdin": "1 2\n", "expected_stdout": "3\n"}] + [{"stdin": "5 5\n", "expected_stdout": "10\n"}] * 20}
    with VerifierClient(server.target) as client:
        (r,) = client.grade([hang], timeout_s=300)
    assert r["verdict"] == "time_limit" and not r["retryable"], r
    assert [t["verdict"] for t in r["tests"]] == ["accepted"] + ["time_limit"] * 20
    assert abs(r["score"] - 1 / 21) < 1e-9


@pytest.mark.docker
def test_slow_jobs_of_one_language_do_not_hold_the_server_from_another(server_factory):
    """Issue 9, starvation: the server capped code items at max_concurrent_jobs before the sandbox's
    per-language queue, so Python jobs waiting for the one Python container held every server slot
    and a C job waited behind all of them while its own container sat idle. Streamed results come in
    the order they finish: the C job must not be behind the queued Python jobs."""
    server = server_factory("--workers", "1", "--sandbox-pool-size", "1", "--sandbox-max-concurrent-jobs", "2",
                            "--sandbox-languages", "python,c")
    slow = {"kind": "code", "language": "python", "time_limit_s": 5, "scoring": "fraction",
            "completion": "```python\nimport time\ntime.sleep(1.5)\nprint(int(input()) * 2)\n```",
            "tests": [{"stdin": "2\n", "expected_stdout": "4\n"}]}
    c_sum = {"id": "c", "kind": "code", "language": "c",
             "completion": "```c\n#include <stdio.h>\nint main(){int a,b;scanf(\"%d %d\",&a,&b);"
                           "printf(\"%d\\n\",a+b);}\n```",
             "tests": [{"stdin": "1 2\n", "expected_stdout": "3\n"}]}
    tasks = [{**slow, "id": f"py{i}"} for i in range(4)] + [c_sum]
    order = [r.id for r in stub(server.target).GradeStream(request(tasks), timeout=120)]
    assert sorted(order) == sorted(t["id"] for t in tasks)
    assert order.index("c") < 2, order  # before the second Python job: it never queued behind them

"""VerifierClient against real servers: splitting, retries, resubmission, pickling, balancing."""

from __future__ import annotations

import asyncio
import pickle
import threading
import time

import grpc
import pytest

from helpers import math_task, unique_batch
from verifier.client import AsyncVerifierClient, ClientConfig, VerifierClient, VerifierError, normalize_target


def test_batches_are_split_by_the_server_limits(server_factory):
    server = server_factory("--workers", "1", "--no-code", "--max-tasks-per-call", "5")
    tasks = [math_task(f"t{i}", f"\\boxed{{{i}}}", str(i if i % 3 else i + 1)) for i in range(23)]
    with VerifierClient(server.target) as client:
        results = client.grade(tasks)
    assert [r["id"] for r in results] == [t["id"] for t in tasks]
    assert [r["verdict"] for r in results] == ["incorrect" if i % 3 == 0 else "correct" for i in range(23)]
    assert server.metric("verifier_rpcs_total", method="GradeStream", code="OK") == 5


def test_bad_request_raises_naming_the_field(verifier_server):
    with VerifierClient(verifier_server.target) as client:
        with pytest.raises(VerifierError) as err:
            client.grade([math_task("a", "x", "1", profile="loose")])
    assert err.value.code == grpc.StatusCode.INVALID_ARGUMENT and "tasks[0].profile" in err.value.message
    with pytest.raises(VerifierError, match="tasks\\[0\\].kind"):
        VerifierClient(verifier_server.target).grade([{"id": "x", "kind": "poem"}])


def test_no_server_gives_infra_error_results_not_exceptions():
    client = VerifierClient("127.0.0.1:1", ClientConfig(timeout_s=2, backoff_initial_s=0.05))
    report = client.grade_detailed([math_task("a", "\\boxed{1}", "1"), math_task("b", "\\boxed{2}", "2")])
    client.close()
    assert [r["verdict"] for r in report.results] == ["infra_error", "infra_error"]
    assert all(r["retryable"] for r in report.results)
    assert report.ungraded == 2 and report.retries >= 1


def test_server_restarted_mid_call_loses_nothing(server_factory):
    server = server_factory("--workers", "2", "--no-code")
    tasks = unique_batch(1000, "r")
    box: dict = {}
    client = VerifierClient(server.target, ClientConfig(timeout_s=180, backoff_initial_s=0.2))
    thread = threading.Thread(target=lambda: box.update(report=client.grade_detailed(tasks)))
    thread.start()
    while server.metric("verifier_items_total", kind="math") < 20:  # mid-call
        time.sleep(0.01)
    server.kill()  # SIGKILL: the stream breaks mid-call
    server.start()
    thread.join(200)
    client.close()
    report = box["report"]
    assert [r["id"] for r in report.results] == [t["id"] for t in tasks]
    assert {r["verdict"] for r in report.results} == {"correct"}
    assert report.retries >= 1 and report.ungraded == 0


def test_a_server_down_longer_than_five_retries_is_waited_for_until_the_deadline(server_factory):
    """The retry budget is time, not a count: five quick rounds of backoff (about 1.5 s here) used
    to give up on a server that came back a few seconds later (flaky under load)."""
    server = server_factory("--workers", "1", "--no-code")
    server.kill()
    box: dict = {}
    client = VerifierClient(server.target, ClientConfig(timeout_s=120, backoff_initial_s=0.05, backoff_max_s=0.3))
    thread = threading.Thread(target=lambda: box.update(report=client.grade_detailed([math_task("a", "\\boxed{1}", "1")])))
    thread.start()
    time.sleep(3.0)  # down through more than max_retries (5) rounds of backoff
    server.start()
    thread.join(150)
    client.close()
    report = box["report"]
    assert report.results[0]["verdict"] == "correct" and report.ungraded == 0, report.results
    assert report.retries > ClientConfig().max_retries


def test_items_a_live_server_answers_infra_error_are_resubmitted_max_retries_times(server_factory):
    """A server that answers (here: code disabled, infra_error retryable) is not hammered until the
    deadline: its answers are resubmitted max_retries times, then returned."""
    server = server_factory("--workers", "1", "--no-code")
    code = {"id": "c", "kind": "code", "language": "python", "completion": "```python\nprint(1)\n```",
            "tests": [{"stdin": "", "expected_stdout": "1\n"}]}
    with VerifierClient(server.target, ClientConfig(timeout_s=120, max_retries=2, backoff_initial_s=0.01)) as client:
        report = client.grade_detailed([code])
    assert report.results[0]["verdict"] == "infra_error" and report.results[0]["retryable"], report.results
    assert report.retries == 2


def test_async_client_pickles_and_works_across_event_loops(verifier_server):
    client = pickle.loads(pickle.dumps(AsyncVerifierClient(verifier_server.target)))
    for _ in range(2):  # two asyncio.run calls: the channel is rebuilt for the new loop
        [r] = asyncio.run(client.grade([math_task("a", "\\boxed{3}", "3")]))
        assert r["verdict"] == "correct"
    sync = pickle.loads(pickle.dumps(VerifierClient(verifier_server.target)))
    assert sync.grade([math_task("b", "\\boxed{3}", "4")])[0]["verdict"] == "incorrect"
    sync.close()


def test_multi_address_target_spreads_calls_over_replicas(server_factory):
    a = server_factory("--workers", "1", "--no-code")
    b = server_factory("--workers", "1", "--no-code")
    assert normalize_target(f"{a.target},{b.target}") == f"ipv4:{a.target},{b.target}"
    with VerifierClient(f"{a.target},{b.target}") as client:
        for i in range(6):
            assert client.grade([math_task(f"x{i}", "\\boxed{1}", "1")])[0]["verdict"] == "correct"
    assert a.metric("verifier_items_total", kind="math") >= 1
    assert b.metric("verifier_items_total", kind="math") >= 1


def test_on_invalid_result_answers_bad_tasks_alone(verifier_server):
    tasks = [math_task("ok", "\\boxed{2}", "2"),
             {"id": "lang", "kind": "code", "language": "cobol", "completion": "x", "tests": [{"stdin": "", "expected_stdout": ""}]},
             math_task("big", "\\boxed{2}", "2" * (2 << 20)),
             math_task("type", 5, "2"),
             math_task("ok2", "\\boxed{3}", "2")]
    with VerifierClient(verifier_server.target, ClientConfig(on_invalid="result")) as client:
        results = client.grade(tasks)
    assert [r["id"] for r in results] == ["ok", "lang", "big", "type", "ok2"]
    assert [r["verdict"] for r in results] == ["correct", "error", "error", "error", "incorrect"]
    assert results[1]["detail"].startswith("tasks[1].language")
    assert results[2]["detail"].startswith("tasks[2].math.gold: exceeds")
    assert results[3]["detail"].startswith("tasks[3].completion")
    assert not any(r["retryable"] for r in results)
    with VerifierClient(verifier_server.target) as client:  # the default still refuses the call
        with pytest.raises(VerifierError, match="tasks\\[1\\].language"):
            client.grade(tasks[:2])


def test_limits_that_could_never_admit_a_full_call_refuse_to_start():
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-m", "verifier.tools.cli", "serve", "--port", "0", "--metrics-port", "0",
                           "--workers", "1", "--no-code", "--max-tasks-per-call", "500", "--max-queued-items", "100"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode != 0 and "must not exceed --max-queued-items" in proc.stderr

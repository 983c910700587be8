"""The HTTP/JSON port over a real `verifier serve` on loopback, with a real HTTP client (urllib)."""

from __future__ import annotations

import base64
import json
import signal
import ssl
import subprocess
import time
import urllib.error
import urllib.request

import pytest
from helpers import math_task, request, stub, unique_batch

FEW_SHOT = "Example: 1+1 = \\boxed{2}.\nNow: what is 3-1?\n"


def call(url: str, body=None, headers: dict | None = None, context: ssl.SSLContext | None = None,
         raw: bytes | None = None) -> tuple[int, dict, object]:
    """(status, headers, parsed JSON body) of one request; errors are answers too, not exceptions."""
    data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
    req = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(req, timeout=60, context=context) as resp:
            return resp.status, dict(resp.headers), json.loads(resp.read())
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), json.loads(e.read())


def grade(server, tasks, **kw):
    return call(server.http_url + "/v1/grade", {"tasks": tasks}, **kw)


def test_grade_math_right_wrong_and_rewritten_in_order(verifier_server):
    tasks = [math_task("right", "so the answer is \\boxed{\\frac{1}{2}}", "0.5"),
             math_task("near-miss", "so the answer is \\boxed{\\frac{1}{3}}", "0.5"),
             math_task("rewrite", "Final Answer: $\\frac{2}{4}$", "\\frac{1}{2}"),
             {"kind": "math", "completion": "no answer here", "gold": "7"}]  # no id: its index
    status, _, body = grade(verifier_server, tasks)
    assert status == 200
    results = body["results"]
    assert [r["id"] for r in results] == ["right", "near-miss", "rewrite", "3"]
    assert [r["verdict"] for r in results] == ["correct", "incorrect", "correct", "no_answer"]
    assert [r["score"] for r in results] == [1.0, 0.0, 1.0, 0.0]
    assert results[0]["extracted"] == "\\frac{1}{2}" and results[0]["extracted_from"] == "boxed"
    assert set(results[0]) >= {"detail", "queue_s", "exec_s", "tests", "retryable"}


@pytest.mark.parametrize("tasks,field", [
    ([math_task("a", "\\boxed{1}", "1"), math_task("b", 42, "1")], "tasks[1].completion"),
    ([math_task("a", "\\boxed{1}", "1"), {"id": "b", "kind": "poetry"}], "tasks[1].kind"),
    ([{"id": "b", "kind": ["math"]}], "tasks[0].kind"),  # not a string (unhashable): named, not a crash
    ([math_task("a", "\\boxed{1}", "1"), math_task("a", "\\boxed{1}", "1")], "tasks[1].id"),
    ([math_task("a", "\\boxed{1}", "1", profile="sloppy")], "tasks[0]"),
    ([math_task("a", "\\boxed{1}", "1", glod="1")], "tasks[0].glod"),  # a typo'd key is refused, not ignored
    ([{"id": "c", "kind": "code", "language": "python", "completion": "print(1)", "as_given": True,
       "tests": [{"stdin": "", "expected_stdout": "1"}]}], "tasks[0].as_given"),  # Execute's, not a grading option
    ([{"id": "c", "kind": "code", "language": "python", "completion": "print(1)",
       "tests": [{"stdin": "", "expected": "1"}]}], "tasks[0].tests[0].expected"),
    ([], "tasks"),
])
def test_bad_task_is_400_naming_the_field(verifier_server, tasks, field):
    status, _, body = grade(verifier_server, tasks)
    assert status == 400
    assert body["field"].startswith(field) and body["error"].startswith(body["field"]), body


CODE = {"id": "c", "kind": "code", "language": "python", "completion": "def f(x):\n    return x", "entry_point": "f"}


@pytest.mark.parametrize("task,field", [
    (math_task("a", "\\boxed{1}", "1", glod="1"), "tasks[0].glod"),
    ({**CODE, "tests": [{"stdin": "", "expected_stdout": "1"}, {"stdin": "", "expected": "1"}]}, "tasks[0].tests[1].expected"),
    ({**CODE, "call_tests": [{"args": [1], "expectd": 2}]}, "tasks[0].call_tests[0].expectd"),
    ({**CODE, "call_tests": [{"args": [1], "expected": 1, "kwarg": {}}]}, "tasks[0].call_tests[0].kwarg"),
])
def test_an_unknown_key_is_400_naming_exactly_that_key(verifier_server, task, field):
    """The HTTP pre-scan (verifier/api/transport.py check_task_keys) names the misspelt key itself, at any depth."""
    status, _, body = grade(verifier_server, [task])
    assert status == 400 and body["field"] == field and body["error"].startswith(f"{field}: unknown field"), body


def test_bad_body_is_400(verifier_server):
    status, _, body = call(verifier_server.http_url + "/v1/grade", {"task": []})
    assert status == 400 and body["field"] == "tasks"
    status, _, body = call(verifier_server.http_url + "/v1/grade", {"tasks": [], "extra": 1})
    assert status == 400
    status, _, body = call(verifier_server.http_url + "/v1/grade", raw=b'{"tasks": [')
    assert status == 400 and "not valid JSON" in body["error"]


def test_oversized_body_is_413_and_limits_match_grpc(server_factory):
    server = server_factory("--workers", "1", "--no-code", "--max-request-bytes", "4096", "--max-field-bytes", "1000",
                            "--max-tasks-per-call", "3", "--max-queued-items", "100")
    status, _, body = grade(server, [math_task("big", "x" * 5000, "1")])
    assert status == 413 and "4096" in body["error"]
    status, _, body = grade(server, [math_task("f", "x" * 2000 + "\\boxed{1}", "1")])
    assert status == 400 and body["field"].startswith("tasks[0]") and "completion" in body["field"]
    status, _, body = grade(server, unique_batch(4))
    assert status == 400 and body["field"] == "tasks"
    status, _, body = grade(server, unique_batch(3))
    assert status == 200 and len(body["results"]) == 3


def test_token_is_required_and_health_stays_open(server_factory):
    server = server_factory("--workers", "1", "--no-code", "--token", "s3cret")
    task = [math_task("a", "\\boxed{1}", "1")]
    assert grade(server, task)[0] == 401
    status, headers, _ = grade(server, task, headers={"Authorization": "Bearer wrong"})
    assert status == 401 and headers["www-authenticate"].startswith("Bearer")
    assert grade(server, task, headers={"Authorization": "Bearer s3cret"})[0] == 200
    # what OpenRLHF's and slime's clients send for http://verifier:s3cret@host/... URLs
    basic = base64.b64encode(b"verifier:s3cret").decode()
    status, _, body = call(server.http_url + "/get_reward", {"query": ["\\boxed{1}"], "labels": ["1"]},
                           headers={"Authorization": f"Basic {basic}"})
    assert status == 200 and body["rewards"] == [1.0]
    wrong_basic = base64.b64encode(b"s3cret:nope").decode()
    assert call(server.http_url + "/get_reward", {"query": ["\\boxed{1}"], "labels": ["1"]},
                headers={"Authorization": f"Basic {wrong_basic}"})[0] == 401
    assert call(server.http_url + "/readyz")[0] == 200


def test_get_reward_openrlhf_shape_and_ungraded_policy(verifier_server):
    prompts = [FEW_SHOT, FEW_SHOT, FEW_SHOT, FEW_SHOT, FEW_SHOT, "not in the query"]
    responses = ["So \\boxed{2}.", "So \\boxed{3}.", "I am not sure.", "It is \\boxed{2}", "So \\boxed{2}.", "\\boxed{2}"]
    labels = ["2", json.dumps({"answer": "2"}), "2", {"kind": "math", "gold": "2", "profile": "strict"}, None, "2"]
    queries = ["<s>" + prompts[0] + responses[0], *(p + r for p, r in zip(prompts[1:5], responses[1:5])), responses[5]]
    status, _, body = call(verifier_server.http_url + "/get_reward",
                           {"query": queries, "prompts": prompts, "labels": labels})
    assert status == 200
    assert body["rewards"] == [1.0, 0.0, 0.0, 1.0, 0.0, 0.0]
    assert body["scores"] == body["rewards"]
    # the prompt's own \boxed{2} never scores a response without an answer (item 2)
    assert body["verdicts"][:4] == ["correct", "incorrect", "no_answer", "correct"]
    # no label, and a prompt that is not in its query: 0.0, flagged per sample for OpenRLHF's logs
    assert body["extra_logs"] == {"verifier_ungraded": [0.0, 0.0, 0.0, 0.0, 1.0, 1.0]}


def test_get_reward_bad_shape_is_400(verifier_server):
    status, _, body = call(verifier_server.http_url + "/get_reward", {"query": ["a", "b"], "labels": ["1"]})
    assert status == 400 and body["field"] == "labels"
    status, _, body = call(verifier_server.http_url + "/get_reward", {"queries": ["a"]})
    assert status == 400 and body["field"] == "query"


def test_slime_remote_rm_shape(verifier_server):
    url = verifier_server.http_url + "/slime/remote_rm"
    assert call(url, {"prompt": FEW_SHOT, "response": "So \\boxed{2}.", "label": "2"})[2] == 1.0
    assert call(url, {"prompt": FEW_SHOT, "response": "So \\boxed{2.5}.", "label": "2"})[2] == 0.0
    lenient = call(url + "?profile=lenient", {"prompt": [{"role": "user", "content": "3-1?"}], "response": "it is 2",
                                              "label": "2"})[2]
    assert lenient == 1.0
    status, _, body = call(url + "?detail=1", {"prompt": "", "response": "\\boxed{2}", "label": None})
    assert status == 200 and {**body, "detail": ""} == {"reward": 0.0, "verdict": "error", "ungraded": True, "detail": ""}
    assert body["detail"].startswith("label: no code format, and no math gold answer"), body
    assert call(url, {"prompt": "", "response": 7, "label": "2"})[0] == 400


def test_health_and_unknown_routes(verifier_server):
    status, _, body = call(verifier_server.http_url + "/healthz")
    assert status == 200 and body == {"status": "SERVING"}
    status, _, body = call(verifier_server.http_url + "/readyz")
    assert status == 200 and body == {"status": "SERVING", "math": "SERVING", "code": "NOT_SERVING"}  # --no-code
    assert call(verifier_server.http_url + "/nope")[0] == 404
    assert call(verifier_server.http_url + "/healthz", {})[0] == 405


def test_http_requests_are_counted(verifier_server):
    before = verifier_server.metric("verifier_http_requests_total", route="/v1/grade", code="200")
    before_bad = verifier_server.metric("verifier_http_requests_total", route="/v1/grade", code="400")
    before_other = verifier_server.metric("verifier_http_requests_total", route="other", code="404")
    grade(verifier_server, [math_task("m", "\\boxed{1}", "1")])
    grade(verifier_server, [math_task("m", 1, "1")])
    call(verifier_server.http_url + "/missing")
    assert verifier_server.metric("verifier_http_requests_total", route="/v1/grade", code="200") == before + 1
    assert verifier_server.metric("verifier_http_requests_total", route="/v1/grade", code="400") == before_bad + 1
    assert verifier_server.metric("verifier_http_requests_total", route="other", code="404") == before_other + 1


def test_full_queue_is_429_with_retry_after_shared_with_grpc(server_factory):
    from test_server import SLOW_COMPLETION, SLOW_GOLD

    server = server_factory("--workers", "1", "--no-code", "--max-queued-items", "50", "--max-tasks-per-call", "50")
    hang = math_task("hang", SLOW_COMPLETION, SLOW_GOLD, timeout_s=30)  # holds the only worker
    big = stub(server.target).GradeStream(request([hang, *unique_batch(49, "big")]), timeout=120)
    for _ in range(300):  # bounded: until the gRPC call is admitted and its items queue behind the hang
        if server.metric("verifier_queue_items", kind="math") == 49:
            break
        time.sleep(0.05)
    # the HTTP port meets the same admission bound as gRPC
    status, headers, body = grade(server, unique_batch(10, "more"))
    assert status == 429 and int(headers["retry-after"]) >= 1 and "capacity" in body["error"]
    # the trainer dialects wait for admission instead (their clients cannot chunk), up to the client's deadline:
    # then 504, which OpenRLHF retries (issue 18; tests/test_framework_clients.py)
    status, headers, body = call(server.http_url + "/get_reward?client_timeout_s=2",
                                 {"query": ["\\boxed{1}"] * 10, "labels": ["1"] * 10})
    assert status == 504 and headers["retry-after"] == "1" and "same request" in body["error"]
    assert server.metric("verifier_rejections_total", reason="queue_full") >= 2
    assert server.metric("verifier_rejections_total", reason="client_deadline") == 1
    big.cancel()  # frees the queue (the stuck worker is killed)
    for _ in range(300):
        status, _, body = grade(server, unique_batch(10, "after"))
        if status != 429:
            break
        time.sleep(0.1)
    assert status == 200 and {r["verdict"] for r in body["results"]} == {"correct"}


def test_draining_is_503(server_factory):
    server = server_factory("--workers", "1", "--no-code", "--drain-delay-s", "60", "--grace-s", "5")
    assert grade(server, [math_task("a", "\\boxed{1}", "1")])[0] == 200
    server.proc.send_signal(signal.SIGTERM)
    for _ in range(100):  # bounded: the signal is handled within moments
        if call(server.http_url + "/healthz")[0] == 503:
            break
        time.sleep(0.1)
    assert call(server.http_url + "/healthz")[0] == 503
    assert call(server.http_url + "/readyz")[2]["status"] == "NOT_SERVING"
    status, headers, body = grade(server, [math_task("late", "\\boxed{1}", "1")])
    assert status == 503 and "draining" in body["error"] and "retry-after" in headers


def test_tls_serves_https_only(server_factory, tmp_path):
    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
                    "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True)
    server = server_factory("--workers", "1", "--no-code", "--tls-cert", str(cert), "--tls-key", str(key))
    assert "HTTP/JSON on https://" in "".join(server.output)
    https = server.http_url.replace("http://", "https://")
    status, _, body = call(https + "/v1/grade", {"tasks": [math_task("a", "\\boxed{1}", "1")]},
                           context=ssl.create_default_context(cafile=str(cert)))
    assert status == 200 and body["results"][0]["verdict"] == "correct"
    with pytest.raises(OSError):  # no plaintext (URLError or a dropped connection)
        call(server.http_url + "/healthz")


def test_taken_http_port_is_one_line(server_factory):
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(RuntimeError) as err:
            server_factory("--workers", "1", "--no-code", "--http-port", str(port))
    assert f"cannot serve HTTP on 127.0.0.1:{port}" in str(err.value) and "--http-port" in str(err.value)
    assert "Traceback" not in str(err.value)


PY_SUM = {"kind": "code", "language": "python",
          "completion": "Here:\n```python\na, b = map(int, input().split())\nprint(a + b)\n```",
          "tests": [{"stdin": "1 2\n", "expected_stdout": "3\n"}, {"stdin": "5 5\n", "expected_stdout": "10\n"}]}


@pytest.mark.docker
def test_code_through_http(server_factory):
    server = server_factory("--workers", "1")
    wrong = {**PY_SUM, "completion": "```python\nprint(3)\n```", "scoring": "fraction"}
    status, _, body = grade(server, [PY_SUM, wrong])
    assert status == 200
    assert [r["verdict"] for r in body["results"]] == ["accepted", "wrong_answer"]
    assert [t["verdict"] for t in body["results"][1]["tests"]] == ["accepted", "wrong_answer"]
    assert body["results"][1]["score"] == 0.5
    # a code task as an OpenRLHF label: the response is the completion
    label = json.dumps({k: v for k, v in PY_SUM.items() if k != "completion"})
    status, _, body = call(server.http_url + "/get_reward",
                           {"query": ["Q" + PY_SUM["completion"], "Q```python\nprint(0)\n```"],
                            "prompts": ["Q", "Q"], "labels": [label, label]})
    assert status == 200 and body["rewards"] == [1.0, 0.0] and body["verdicts"] == ["accepted", "wrong_answer"]


def test_client_hangup_cancels_its_items(server_factory):
    import socket

    from test_server import SLOW_COMPLETION, SLOW_GOLD

    server = server_factory("--workers", "2", "--no-code")
    hang = math_task("hang", SLOW_COMPLETION, SLOW_GOLD, timeout_s=30)  # never finishes on its own in time
    body = json.dumps({"tasks": [hang, *unique_batch(500, "c")]}).encode()
    with socket.create_connection(("127.0.0.1", server.http_port)) as conn:
        conn.sendall(b"POST /v1/grade HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Content-Length: %d\r\n\r\n" % len(body) + body)
        for _ in range(300):  # bounded: wait until grading is under way
            if server.metric("verifier_items_total", kind="math") >= 1:
                break
            time.sleep(0.05)
    for _ in range(300):  # the hang-up reaches the engine: everything still queued or running is cancelled
        if server.metric("verifier_inflight_items", kind="math") == 0 and server.metric("verifier_queue_items", kind="math") == 0:
            break
        time.sleep(0.1)
    assert server.metric("verifier_inflight_items", kind="math") == 0
    assert server.metric("verifier_queue_items", kind="math") == 0
    assert server.metric("verifier_worker_restarts_total", reason="cancel") >= 1  # the stuck item's worker was killed
    assert server.metric("verifier_items_total", kind="math") < 501
    assert server.metric("verifier_http_requests_total", route="/v1/grade", code="499") == 1
    assert grade(server, [math_task("after", "\\boxed{2}", "2")])[2]["results"][0]["verdict"] == "correct"


def test_get_reward_non_string_query_is_400(verifier_server):
    status, _, body = call(verifier_server.http_url + "/get_reward", {"query": ["\\boxed{1}", 5], "labels": ["1", "1"]})
    assert status == 400 and body["field"] == "query[1]"


def test_listening_socket_is_tcp_so_asyncio_disables_nagle():
    """asyncio sets TCP_NODELAY only on sockets whose proto is IPPROTO_TCP; without it each kept-alive
    request stalls on Nagle vs delayed ACK (bench/http_overhead.py shows the per-call cost)."""
    import socket

    from verifier.api.transport import _listen

    with _listen("127.0.0.1", 0) as sock:
        assert sock.proto == socket.IPPROTO_TCP and sock.type == socket.SOCK_STREAM


def test_run_code_bad_requests_and_no_sandbox(verifier_server):
    url = verifier_server.http_url + "/run_code"
    assert call(url, {"code": "print(1)", "language": "cobol"})[2]["field"] == "language"
    assert call(url, {"code": "  "})[2]["field"] == "code"
    assert call(url, {"code": "print(1)", "run_timeout": "5"})[2]["field"] == "run_timeout"
    assert call(url, {"code": "print(1)", "files": {"a.txt": "eA=="}})[2]["field"] == "files"
    status, _, body = call(url, {"code": "print(1)", "language": "python"})  # --no-code: no sandbox to run it
    assert status == 200 and body["status"] == "SandboxError" and body["run_result"] is None


@pytest.mark.docker
def test_run_code_sandbox_fusion_shape(server_factory):
    """What verl's sandbox_fusion reward reads: status, then compile_result or run_result."""
    server = server_factory("--workers", "1")
    url = server.http_url + "/run_code"
    verl = {"compile_timeout": 10, "run_timeout": 5, "memory_limit_MB": 1024, "language": "python",
            "files": {}, "fetch_files": []}
    status, _, body = call(url, {**verl, "code": "print(input()[::-1])", "stdin": "abc\n"})
    assert status == 200 and body["status"] == "Success"
    assert body["run_result"]["status"] == "Finished" and body["run_result"]["return_code"] == 0
    assert body["run_result"]["stdout"] == "cba\n"
    big = call(url, {**verl, "code": "import sys\nprint('x' * 20000)\nsys.exit(3)"})[2]
    assert big["status"] == "Failed" and big["run_result"]["return_code"] == 3
    assert big["run_result"]["stdout"] == "x" * 20000 + "\n"  # all of it: verl compares it to the expected output
    slow = call(url, {**verl, "code": "while True:\n    pass", "run_timeout": 1})[2]
    assert slow["status"] == "Failed" and slow["run_result"]["status"] == "TimeLimitExceeded"
    broken = call(url, {**verl, "language": "cpp", "code": "int main( { return 0; }"})[2]
    assert broken["status"] == "Failed" and broken["run_result"] is None
    assert broken["compile_result"]["return_code"] != 0 and "error" in broken["compile_result"]["stderr"]
    node = call(url, {**verl, "language": "nodejs", "code": "console.log(1 + 1)"})[2]
    assert node["status"] == "Success" and node["run_result"]["stdout"] == "2\n"


def test_get_reward_with_special_tokens_left_in_by_the_decode(verifier_server):
    """OpenRLHF decodes with skip_special_tokens=False: the end-of-turn token trails the answer."""
    prompt = "<|im_start|>user\nWhat is 3-1?<|im_end|>\n<|im_start|>assistant\n"
    responses = ["The answer is 2<|im_end|>", "The answer is 3<|im_end|>", "\\boxed{2}<|endoftext|>",
                 "\\boxed{12}<|endoftext|>"]
    status, _, body = call(verifier_server.http_url + "/get_reward",
                           {"query": [prompt + r for r in responses], "prompts": [prompt] * 4, "labels": ["2"] * 4})
    assert status == 200 and body["rewards"] == [1.0, 0.0, 1.0, 0.0]


def test_a_port_taken_between_its_pick_and_the_bind_is_picked_again(monkeypatch):
    """A clean CI run lost a test to another process taking a picked port before the server bound it
    (verifier/local_server.py): the race, forced here by picking a taken port first, costs a retry."""
    import socket

    import verifier.local_server as local_server

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        picks = iter([None, None, taken.getsockname()[1]])  # gRPC, metrics, then HTTP: the one taken
        pick = local_server.free_port
        monkeypatch.setattr(local_server, "free_port", lambda host="127.0.0.1": next(picks, None) or pick(host))
        with local_server.LocalServer("--workers", "1", "--no-code") as server:
            assert taken.getsockname()[1] not in (server.port, server.metrics_port, server.http_port)
            assert urllib.request.urlopen(server.http_url + "/healthz", timeout=10).status == 200

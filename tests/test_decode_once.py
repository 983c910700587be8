"""Each edge decodes a task once (issue 21): one HTTP request, one gRPC request, one JSONL line, one
trainer row, one Execute request build each task model (MathTask, CodeTask) exactly once in this
process, from the edge to the verdict: no protobuf round trip as a normaliser, no re-decoding of a
dict the edge already decoded (the engine and sandbox/job.py make_plan take the model).

The count is of model constructions (`__init__` calls), so any second decoder on a path (a
model_from_proto, a parse_task, a CodeTask.from_dict in make_plan) makes it fail. Real parts:
a real engine with its sandbox, the real HTTP port on loopback, a real server for the client.
"""
from __future__ import annotations

import asyncio
import io
import json
import urllib.request
from collections import Counter

import pytest

from sandbox import SandboxConfig
from sandbox.contract import CodeTask, MathTask
from verifier.config import ServerConfig

MATH = {"id": "m", "kind": "math", "completion": "so \\boxed{4}", "gold": "4"}
DOUBLE = "print(int(input()) * 2)"
CODE = {"id": "c", "kind": "code", "language": "python", "completion": f"```python\n{DOUBLE}\n```",
        "tests": [{"stdin": "2\n", "expected_stdout": "4\n"}, {"stdin": "5\n", "expected_stdout": "10\n"}]}
ONE_EACH = {"MathTask": 1, "CodeTask": 1}


@pytest.fixture
def built(monkeypatch) -> Counter:
    """Counts MathTask and CodeTask constructions from here on."""
    counts: Counter = Counter()
    for cls in (MathTask, CodeTask):
        def counting(self, *args, _init=cls.__init__, _name=cls.__name__, **kwargs):
            counts[_name] += 1
            _init(self, *args, **kwargs)
        monkeypatch.setattr(cls, "__init__", counting)
    return counts


def _config() -> ServerConfig:
    sandbox = SandboxConfig(pool_size=1, languages=("python",), pool_name="pytest-decode-once")
    return ServerConfig(workers=1, sandbox=sandbox, http_port=0)


def _post(url: str, body: dict) -> dict:
    request = urllib.request.Request(url, json.dumps(body).encode(), {"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=120) as reply:
        return json.loads(reply.read())


@pytest.mark.docker
def test_http_grpc_and_execute_decode_each_task_once(built):
    """One engine behind both front ends, in this process."""
    from verifier.engine import Engine
    from verifier.api.http import HttpFrontEnd
    from verifier.schema import task_to_proto
    from verifier.api.server import VerifierService
    from verifier.v1 import verifier_pb2 as pb

    config = _config()
    engine = Engine(config)
    engine.start_workers()
    request = pb.GradeRequest(tasks=[task_to_proto(MATH), task_to_proto(CODE)])  # the client's work, not counted
    seen: dict[str, Counter] = {}

    async def main() -> None:
        await engine.start()
        front = HttpFrontEnd(engine, config)
        await front.start()
        base = f"http://127.0.0.1:{front.port}"
        try:
            assert engine.code_available, engine.code_unavailable_reason()
            built.clear()
            body = await asyncio.to_thread(_post, f"{base}/v1/grade", {"tasks": [MATH, CODE]})
            assert [r["verdict"] for r in body["results"]] == ["correct", "accepted"], body
            seen["http"] = Counter(built)

            built.clear()
            reply = await VerifierService(engine).Grade(request, None)
            assert [(r.id, r.score) for r in reply.results] == [("m", 1.0), ("c", 1.0)], reply
            seen["grpc"] = Counter(built)

            built.clear()
            body = await asyncio.to_thread(_post, f"{base}/get_reward", {"query": ["\\boxed{4}"], "labels": ["4"]})
            assert body["rewards"] == [1.0], body
            seen["labels"] = Counter(built)

            built.clear()
            body = await asyncio.to_thread(_post, f"{base}/v1/execute", {"code": DOUBLE, "stdin": "21\n"})
            assert body["stdout"] == "42\n", body
            seen["execute"] = Counter(built)

            built.clear()
            body = await asyncio.to_thread(_post, f"{base}/run_code", {"code": DOUBLE, "stdin": "3\n", "language": "python"})
            assert body["run_result"]["stdout"] == "6\n", body
            seen["run_code"] = Counter(built)
        finally:
            await front.stop()
            await engine.close()

    asyncio.run(main())
    assert seen == {"http": ONE_EACH, "grpc": ONE_EACH, "labels": {"MathTask": 1},
                    "execute": {"CodeTask": 1}, "run_code": {"CodeTask": 1}}, seen


@pytest.mark.docker
def test_a_jsonl_line_is_decoded_once_in_process(built, tmp_path):
    """`verifier grade` without a server: the line's model is what the engine grades."""
    from verifier.tools.grade_file import grade_file

    path = tmp_path / "tasks.jsonl"
    path.write_text(json.dumps(MATH) + "\n" + json.dumps(CODE) + "\n")
    out, errors = io.StringIO(), io.StringIO()
    built.clear()
    assert grade_file(str(path), out, None, _config(), errors=errors) == 0, errors.getvalue()
    assert [json.loads(line)["verdict"] for line in out.getvalue().splitlines()] == ["correct", "accepted"]
    assert built == ONE_EACH, built


@pytest.mark.docker
def test_jsonl_through_a_server_and_the_client_decode_once(built, tmp_path, verifier_server):
    """Through a server: read_lines decodes the line, the client sends that model (the server, another
    process, decodes the wire once more: its own edge). A plain dict given to the client: one decode."""
    from verifier.client import VerifierClient
    from verifier.tools.grade_file import grade_file

    path = tmp_path / "tasks.jsonl"
    path.write_text(json.dumps(MATH) + "\n")
    out, errors = io.StringIO(), io.StringIO()
    built.clear()
    assert grade_file(str(path), out, verifier_server.target, ServerConfig(), errors=errors) == 0, errors.getvalue()
    assert json.loads(out.getvalue())["verdict"] == "correct"
    assert built == {"MathTask": 1}, built

    built.clear()
    with VerifierClient(verifier_server.target) as client:
        assert [r["verdict"] for r in client.grade([MATH, CODE])] == ["correct", "infra_error"]  # --no-code server
    assert built == ONE_EACH, built


@pytest.mark.docker
def test_a_trainer_row_is_decoded_once(built, verifier_server):
    """A TRL batch: the row reader decodes each row once; its client sends that model."""
    from trainer.config import RewardConfig
    from trainer.rewards import VerifierRewards

    group = VerifierRewards(RewardConfig(target=verifier_server.target, components=("accuracy",)))
    (accuracy,) = group.reward_funcs()

    async def run() -> list:
        try:
            return await accuracy(prompts=["p", "q"], completions=["\\boxed{4}", CODE["completion"]],
                                  solution=["4", None], tests=[None, CODE["tests"]])
        finally:
            await group.aclose()

    built.clear()
    rewards = asyncio.run(run())
    assert rewards == [1.0, None], rewards  # the code row: not graded by a --no-code server
    assert built == ONE_EACH, built


RESULTS = [
    {"id": "a", "verdict": "correct", "score": 1, "detail": None, "extracted": "4", "extracted_from": "boxed",
     "queue_s": 0.25, "exec_s": 1e-9, "tests": [], "retryable": False},
    {"id": "b", "verdict": "wrong_answer", "score": 0.5, "detail": "test 2", "tests": [
        {"verdict": "accepted", "time_s": 0.01, "detail": "", "exit_code": 0, "stdout": "4\n", "max_rss_kb": 9000},
        {"verdict": "runtime_error", "time_s": 0.02, "detail": "Traceback", "exit_code": 1, "name": "test_x"}]},
    {"id": "c", "verdict": "infra_error", "score": 0.0, "detail": "x" * 300, "retryable": True, "exec_s": None},
]


@pytest.mark.parametrize("result", RESULTS, ids=[r["id"] for r in RESULTS])
def test_result_json_is_what_the_wire_round_trip_made(result):
    """The HTTP port answered result_from_proto(result_to_proto(r)); result_json gives the same Result
    (fields, defaults, types; sandbox-only keys dropped) without protobuf."""
    from verifier.schema import result_from_proto, result_json, result_to_proto

    out = result_json(result)
    assert out == result_from_proto(result_to_proto(result))
    assert [type(out[k]) for k in ("score", "queue_s", "exec_s")] == [float] * 3


def test_result_json_refuses_an_unknown_verdict_as_the_wire_does():
    from verifier.schema import result_json, result_to_proto

    for bad in ({"id": "a", "verdict": "correctish"},
                {"id": "a", "verdict": "accepted", "tests": [{"verdict": "fine"}]}):
        with pytest.raises(ValueError):
            result_to_proto(bad)
        with pytest.raises(ValueError, match="unknown verdict"):
            result_json(bad)


def test_a_renumbered_trainer_task_keeps_its_model(monkeypatch):
    """verl's micro-batcher renumbers each task (trainer/verl.py): with_id keeps the decoded model, so
    the client sends it without decoding the dict again; a plain dict is still decoded, once."""
    from verifier import client as client_module
    from sandbox.contract import parse_task
    from verifier.schema import Parsed, parsed, with_id

    task = with_id(parsed(parse_task(CODE)), "7")
    assert isinstance(task, Parsed) and task["id"] == "7" and task.model.id == "7"
    assert task.model.tests == parse_task(CODE).tests and dict(task) == {**parse_task(CODE).to_dict(wire=True), "id": "7"}
    calls = []
    monkeypatch.setattr(client_module, "parse_task", lambda *a, **k: calls.append(a) or parse_task(*a, **k))
    assert client_module._model(task, "tasks[0]") is task.model and not calls
    assert client_module._model(with_id(CODE, "8"), "tasks[0]").id == "8" and len(calls) == 1

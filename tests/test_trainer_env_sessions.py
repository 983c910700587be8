"""Trainer integrations for sessions on an environment (trainer/env_sessions.py, trainer/slime_agent.py;
docs/sessions.md "Trainers on an environment"): verl's shell, write_file and submit tools driven by the
agent-loop example, TRL's environment class, and slime's custom-generate hook, each against a real
server on loopback with real containers and the small `calc` environment of tests/test_session_env.py.
Each adapter's scripted policy is graded for real: the right edit scores 1, a near miss (the visible
test passes, the hidden one not) and no edit score 0."""
from __future__ import annotations

import asyncio
import importlib.util
import inspect
import json
import sys
import types
from collections.abc import Iterator
from enum import Enum
from pathlib import Path
from typing import Any

import pytest
import yaml

from conftest import ServerProcess
from test_repo_service import CALC_FILES, calc_recipe
from test_session_env import FIXED, GRADE, HIDDEN, NEAR_MISS, TEST_PATCH
from trainer.env_sessions import (
    SHELL_SCHEMA,
    SUBMIT_SCHEMA,
    WRITE_FILE_SCHEMA,
    RepoSessionEnv,
    ShellTool,
    SubmitTool,
    row_task,
)
from verifier.tools.cli import main as verifier_cli

pytestmark = pytest.mark.docker
ROOT = Path(__file__).resolve().parent.parent
ROW = {"task": {"kind": "repo", "environment": "calc", **GRADE}}
# The same hidden task as a SWE-bench row (FAIL_TO_PASS as JSON text, as SWE-bench stores it).
SWE_ROW = {"instance_id": "calc", "test_patch": TEST_PATCH, "test_cmd": GRADE["test_cmd"], "editable": ["calc/__init__.py"],
           "FAIL_TO_PASS": json.dumps(GRADE["fail_to_pass"]), "PASS_TO_PASS": GRADE["pass_to_pass"],
           "prompt": [{"role": "user", "content": "make quad quadruple"}]}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    recipes, root = tmp_path_factory.mktemp("recipes"), tmp_path_factory.mktemp("environments")
    assert verifier_cli(["env", "build", calc_recipe(recipes), "--environments", str(root)]) == 0
    with ServerProcess("--workers", "1", "--sandbox-languages", "python", "--sandbox-pool-size", "1",
                       "--sandbox-repo-environments", str(root)) as s:
        yield s


def test_row_task_reads_a_task_column_or_a_swebench_row() -> None:
    name, task = row_task(ROW)
    assert name == "calc" and task == {"environment": "calc", **GRADE}
    assert row_task({"task": json.dumps(ROW["task"])}) == (name, task)
    name, swe = row_task(SWE_ROW)
    assert name == "calc" and swe["fail_to_pass"] == GRADE["fail_to_pass"] and swe["test_patch"] == TEST_PATCH
    assert swe["editable"] == ["calc/__init__.py"]  # the row names the files a fix may change (it has no gold patch)
    for row, word in [({}, "task"), ({"task": "{"}, "task"), ({"task": {"kind": "math"}}, "task.kind"),
                      ({"task": {"test_cmd": "x"}}, "environment")]:
        with pytest.raises(ValueError, match=word):
            row_task(row)


def test_the_yaml_declares_the_tools_schemas() -> None:
    """examples/verl_env_tools.yaml is what verl reads: its schemas are the tools' own."""
    entries = yaml.safe_load((ROOT / "examples" / "verl_env_tools.yaml").read_text())["tools"]
    assert [(e["class_name"], e["tool_schema"]) for e in entries] == [
        ("trainer.env_sessions.ShellTool", SHELL_SCHEMA), ("trainer.env_sessions.WriteFileTool", WRITE_FILE_SCHEMA),
        ("trainer.env_sessions.SubmitTool", SUBMIT_SCHEMA)]
    assert all(e["config"]["type"] == "native" for e in entries)


def _example() -> Any:
    spec = importlib.util.spec_from_file_location("verl_agent_loop", ROOT / "examples" / "verl_agent_loop.py")
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = example  # its dataclass looks its module up
    spec.loader.exec_module(example)
    return example


def test_verl_agent_loop_example_grades_each_trajectory(server: ServerProcess) -> None:
    """examples/verl_agent_loop.py: four scripted trajectories at once, each on its own session."""
    out = asyncio.run(_example().main(ROW, server.target))
    sed = out["fix-with-sed"]["responses"]
    assert "def quad(x):" in sed[0] and sed[0].startswith("calc\n") and sed[0].endswith("[exit 0]"), sed[0]
    assert "1 failed, 1 passed" in sed[1] and sed[1].endswith("[exit 1]"), sed[1]  # the visible test fails first
    assert "2 passed" in sed[3] and sed[3].endswith("[exit 0]"), sed[3]
    assert sed[4] == "[submitted] accepted, score 1" and out["fix-with-sed"]["reward"] == 1.0
    near = out["near-miss"]["responses"]
    assert "2 passed" in near[1] and near[2] == "[submitted] wrong_answer, score 0", near  # visible passes, hidden not
    assert out["near-miss"]["reward"] == 0.0
    assert out["no-edit"]["responses"][1] == "[submitted] wrong_answer, score 0" and out["no-edit"]["reward"] == 0.0
    twice = out["write-submit-twice"]
    assert twice["responses"] == [f"wrote {len(FIXED)} bytes to calc/__init__.py", "[submitted] accepted, score 1",
                                  "[submitted] already submitted", "[submitted] the session has ended"]
    assert twice["tool_rewards"] == [0.0, 1.0, 0.0, 0.0]


def test_verl_tools_without_agent_data_share_the_request_id(server: ServerProcess) -> None:
    """verl's older rollout: every tool's instance id is the request id, with no agent_data; a SWE-bench
    row's columns as create_kwargs; calc_reward is the submitted score; release ends the session."""
    async def main() -> tuple[list[str], float, float]:
        shell, submit = ShellTool({"target": server.target}), SubmitTool({"target": server.target})
        texts = []
        try:
            for tool in (shell, submit):
                await tool.create("req-1", create_kwargs=SWE_ROW)
            texts.append((await shell.execute("req-1", {"command": "ls tests"}))[0].text)
            texts.append((await shell.execute("req-1", {"cmd": "ls"}))[0].text)
            texts.append((await shell.execute("req-1", {"command": f"cat {HIDDEN}"}))[0].text)
            await shell.execute("req-1", {"command": "sed -i 's/return double(x)/return double(double(x))/' calc/__init__.py"})
            before = await submit.calc_reward("req-1")
            texts.append((await submit.execute("req-1", {}))[0].text)
            after = await submit.calc_reward("req-1")
            await submit.release("req-1")
            await shell.release("req-1")
            bad, _ = await shell.create(create_kwargs={"prompt": "no task here"})
            texts.append((await shell.execute(bad, {"command": "true"}))[0].text)
            await shell.release(bad)
        finally:
            await shell._client.close()
            await submit._client.close()
        return texts, before, after

    texts, before, after = asyncio.run(main())
    assert texts[0] == "test_calc.py\n[exit 0]"  # the hidden test is not in the tree
    assert texts[1] == "[tool error] shell: needs a string argument 'command'"
    assert "No such file" in texts[2] and texts[2].endswith("[exit 1]"), texts[2]
    assert texts[3] == "[submitted] accepted, score 1" and (before, after) == (0.0, 1.0)
    assert texts[4].startswith("[tool error] task: the row carries no repo task")


def test_trl_environment_tools_and_reward(server: ServerProcess) -> None:
    """RepoSessionEnv as TRL's GRPOTrainer sees it (its tool discovery and schemas), then three rollouts:
    the right edit scores 1, a near miss 0, a rollout that touched nothing 0 (without a session)."""
    from transformers.utils import get_json_schema

    env = RepoSessionEnv({"target": server.target})
    tools = [name for name, _ in inspect.getmembers(RepoSessionEnv, predicate=inspect.isfunction)
             if name not in ("reset", "get_reward") and not name.startswith("_")]  # TRL's rule
    assert tools == ["list_dir", "read_file", "shell", "write_file"]
    schema = get_json_schema(env.write_file)["function"]
    assert schema["parameters"]["required"] == ["path", "content"]
    assert env.reset(**SWE_ROW) is None
    assert env.list_dir("") == "calc/\ntests/\nvendor/"
    assert env.read_file("calc/__init__.py") == CALC_FILES["calc/__init__.py"]
    assert env.read_file("../etc/passwd").startswith("[tool error] read_file: ")
    assert env.write_file("calc/__init__.py", FIXED) == f"wrote {len(FIXED)} bytes to calc/__init__.py"
    assert env.get_reward() == 1.0
    env.reset(**ROW)
    assert env.read_file("calc/__init__.py") != FIXED  # a fresh tree
    env.write_file("calc/__init__.py", NEAR_MISS)
    assert env.shell(GRADE["test_cmd"]).endswith("[exit 0]")  # the visible tests pass
    assert env.get_reward() == 0.0
    env.reset(**ROW)
    assert env.get_reward() == 0.0 and env._session is None


class _FakeTokenizer:
    """A character tokenizer with a Qwen-like chat template (a message without a role renders nothing)."""

    def encode(self, text: str, add_special_tokens: bool = False) -> list[int]:
        return [ord(c) for c in text]

    def decode(self, ids: list[int]) -> str:
        return "".join(map(chr, ids))

    def apply_chat_template(self, messages: list[dict], add_generation_prompt: bool = False, tokenize: bool = True) -> Any:
        text = "<|im_start|>system\nYou are helpful.<|im_end|>\n" + "".join(
            f"<|im_start|>{m['role']}\n{m['content']}<|im_end|>\n" for m in messages if m.get("role"))
        text += "<|im_start|>assistant\n" if add_generation_prompt else ""
        return self.encode(text) if tokenize else text


def _call(name: str, **arguments: Any) -> str:
    return "<tool_call>" + json.dumps({"name": name, "arguments": arguments}) + "</tool_call><|im_end|>"


SLIME_POLICIES = {
    "right": [_call("list_dir", path="calc"), _call("write_file", path="calc/__init__.py", content=FIXED),
              _call("shell", command="cat calc/__init__.py"), _call("submit")],
    "wrong": [_call("write_file", path="calc/__init__.py", content=NEAR_MISS), "I am done.<|im_end|>"],
    "none": ["Nothing to do.<|im_end|>"],
}


@pytest.fixture
def fake_slime(monkeypatch: pytest.MonkeyPatch) -> list[dict]:
    """slime's modules the hook imports, its router answering from SLIME_POLICIES (the prompt names the
    policy; the tool messages so far say which turn it is). Returns the router's requests."""
    tokenizer, requests = _FakeTokenizer(), []

    async def post(url: str, payload: dict) -> dict:
        requests.append(payload)
        text = tokenizer.decode(payload["input_ids"])
        policy = SLIME_POLICIES[text.split("policy=", 1)[1].split("<", 1)[0]]
        turn = policy[text.count("<|im_start|>tool\n")]
        return {"text": turn, "meta_info": {"output_token_logprobs": [[-0.5, t] for t in tokenizer.encode(turn)],
                                            "finish_reason": {"type": "stop"}}}

    class Sample:
        class Status(Enum):
            PENDING, COMPLETED, TRUNCATED, ABORTED = "pending", "completed", "truncated", "aborted"

    modules = {"slime": types.ModuleType("slime"), "slime.rollout": types.ModuleType("slime.rollout"),
               "slime.rollout.sglang_rollout": types.SimpleNamespace(GenerateState=lambda args: types.SimpleNamespace(
                   tokenizer=tokenizer)),
               "slime.utils": types.ModuleType("slime.utils"), "slime.utils.http_utils": types.SimpleNamespace(post=post),
               "slime.utils.types": types.SimpleNamespace(Sample=Sample)}
    for name, module in modules.items():
        monkeypatch.setitem(sys.modules, name, module)
    return requests


def test_slime_custom_generate_drives_a_session_per_sample(server: ServerProcess, fake_slime: list[dict],
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    from trainer import slime_agent

    monkeypatch.setenv("VERIFIER_TARGET", server.target)
    tokenizer = _FakeTokenizer()
    args = types.SimpleNamespace(sglang_router_ip="127.0.0.1", sglang_router_port=1)

    async def one(policy: str) -> Any:
        prompt = tokenizer.apply_chat_template([{"role": "user", "content": f"policy={policy}"}],
                                               add_generation_prompt=True, tokenize=False)
        sample = types.SimpleNamespace(prompt=prompt, metadata=dict(SWE_ROW), reward=None, tokens=[])
        return await slime_agent.generate(args, sample, {"max_new_tokens": 4000, "temperature": 1.0})

    async def main() -> list[Any]:
        return list(await asyncio.gather(*(one(p) for p in SLIME_POLICIES)))

    right, wrong, none = asyncio.run(main())
    assert (right.reward, wrong.reward, none.reward) == (1.0, 0.0, 0.0)
    assert right.metadata["verifier_session"]["verdict"] == "accepted" and "double(double(x))" in \
        right.metadata["verifier_session"]["patch"]
    assert wrong.metadata["verifier_session"]["verdict"] == "wrong_answer"
    assert asyncio.run(slime_agent.reward_func(args, [right, wrong])) == [1.0, 0.0]
    for sample in (right, wrong, none):
        assert sample.status.name == "COMPLETED"
        prompt_len = len(tokenizer.encode(sample.prompt))
        assert len(sample.tokens) == prompt_len + sample.response_length == prompt_len + len(sample.loss_mask)
        assert len(sample.rollout_log_probs) == sample.response_length
        assert tokenizer.decode(sample.tokens[prompt_len:]) == sample.response
        trained = tokenizer.decode([t for t, m in zip(sample.tokens[prompt_len:], sample.loss_mask) if m])
        assert trained == "".join(SLIME_POLICIES[sample.prompt.split("policy=")[1].split("<")[0]])  # the policy's own
    tool_messages = right.response.split("<|im_start|>tool\n")[1:]
    assert tool_messages[0].startswith("__init__.py (") and "return double(double(x))" in tool_messages[2]
    assert len(tool_messages) == 3  # submit ended the rollout: no tool message after it


class _StubSession:
    """A session whose replies are set: the cases a real server gives rarely on demand."""

    def __init__(self, shell: Any = None, grade_error: Exception | None = None) -> None:
        self.shell_result, self.grade_error, self.graded = shell, grade_error, 0

    async def shell(self, command: str, timeout_s: float | None = None) -> Any:
        return self.shell_result

    async def grade(self, task: dict, timeout_s: float | None = None) -> dict:
        self.graded += 1
        if self.grade_error is not None:
            raise self.grade_error
        return {"verdict": "accepted", "score": 1.0, "patch": "x"}


def test_a_session_the_policy_ended_scores_0_and_a_service_fault_is_ungraded() -> None:
    """A command that ended its own session (memory_limit) is the policy's failure: 0, without a grade
    call; a grade the service could not give (UNAVAILABLE, a lost replica) is ungraded, never 0 or 1."""
    import grpc

    from trainer.env_sessions import call_tool, grade_session
    from verifier.client import SessionLost, ShellResult

    async def main() -> list[Any]:
        ended = _StubSession(ShellResult(status="memory_limit", session_lost=True, detail="over 512 MiB"))
        text = await call_tool(ended, "shell", {"command": "python3 -c 'b\"x\" * (1 << 34)'"})
        alive = _StubSession(ShellResult(status="ok", exit_code=0))
        await call_tool(alive, "shell", {"command": "true"})
        down = _StubSession(ShellResult(status="ok", exit_code=0),
                            SessionLost(grpc.StatusCode.UNAVAILABLE, "replica gone"))
        await call_tool(down, "shell", {"command": "true"})
        return [text, await grade_session(ended, GRADE), ended.graded, await grade_session(alive, GRADE),
                await grade_session(down, GRADE)]

    text, ended, calls, alive, down = asyncio.run(main())
    assert text == "[memory_limit] over 512 MiB The session ended: its files are gone."
    assert (ended, calls) == ((0.0, None), 0)
    assert alive[0] == 1.0 and down == (None, None)

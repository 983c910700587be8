"""Multi-turn tool use over sessions (trainer/sessions.py): verl's tool flow with a scripted policy,
TRL's environment, and the final-value reward, against a real server and real containers."""

from __future__ import annotations

import asyncio
import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from conftest import ServerProcess
from trainer.sessions import PythonSessionEnv, PythonSessionTool, answer_text, final_value_reward
from verifier.client import AsyncVerifierClient

pytestmark = pytest.mark.docker
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def server() -> Iterator[ServerProcess]:
    with ServerProcess("--workers", "1", "--sandbox-languages", "python", "--sandbox-pool-size", "1") as s:
        yield s


def test_scripted_verl_multiturn_rollout_example(server):
    """examples/verl_multiturn_rollout.py: per-call tool instances share the trajectory's interpreter."""
    spec = importlib.util.spec_from_file_location("verl_rollout", ROOT / "examples" / "verl_multiturn_rollout.py")
    example = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = example  # its dataclass looks its module up
    spec.loader.exec_module(example)
    out = asyncio.run(example.main(server.target))
    assert out["sum-of-squares"]["responses"][2] == "10" and out["sum-of-squares"]["reward"] == 1.0
    assert out["fraction"]["responses"][-1] == "0.5" and out["fraction"]["reward"] == 1.0  # 0.5 == 1/2
    assert out["near-miss"]["responses"][-1] == "56" and out["near-miss"]["reward"] == 0.0
    hang = out["hang-then-lost"]["responses"]
    assert "[time_limit]" in hang[1] and "[session lost]" in hang[2] and out["hang-then-lost"]["reward"] == 0.0


def test_verl_tool_without_a_trajectory_id_owns_its_session(server):
    async def main() -> tuple[str, str, float]:
        tool = PythonSessionTool({"target": server.target})
        assert tool.name == "run_python"
        iid, _ = await tool.create(create_kwargs={"ground_truth": "12"})
        first, _, _ = await tool.execute(iid, {"code": "a = 3"})
        second, _, metrics = await tool.execute(iid, {"code": "a * 4"})
        bad, _, _ = await tool.execute(iid, {"cmd": "1"})
        reward = await tool.calc_reward(iid)
        await tool.release(iid)  # closes the session it opened
        assert tool._trajectories == {}
        await tool._sessions.client.close()
        return second.text, bad.text, reward
    second, bad, reward = asyncio.run(main())
    assert second == "12" and "needs a string argument 'code'" in bad and reward == 1.0


def test_trl_environment_runs_tools_and_grades_the_last_value(server):
    from transformers.utils import get_json_schema

    env = PythonSessionEnv({"target": server.target})
    schema = get_json_schema(env.run_python)["function"]  # what TRL renders into the prompt
    assert schema["name"] == "run_python" and schema["parameters"]["required"] == ["code"]
    env.reset(prompt="what is 6*7?", answer="42")
    assert env.run_python("x = 6") == ""
    assert env.run_python("print('x is', x); x * 7") == "x is 6\n42"
    assert env.get_reward() == 1.0
    env.reset(prompt="what is 6*7?", answer="42")  # a new rollout: a new interpreter
    assert "NameError" in env.run_python("x")
    assert env.get_reward() == 0.0  # the last cell raised: no answer
    env.reset()


@pytest.mark.parametrize("value,text", [("42", "42"), ("'1/2'", "1/2"), ("None", "None"), ("'a}'", None),
                                        ("'\\\\boxed{1}'", None), ("[1, 2]", "[1, 2]"), (None, None),
                                        ("'" + "9" * 2000 + "'", None), ("'}{'", None), ("''", None)])
def test_answer_text_keeps_the_value_inside_its_box(value, text):
    assert answer_text(value) == text


@pytest.mark.parametrize("value,gold,score", [("42", "42", 1.0), ("'42'", "42", 1.0), ("42.0", "42", 1.0),
                                              ("Fraction(1, 2)", "1/2", 0.0), ("0.5", "1/2", 1.0),
                                              ("41", "42", 0.0), ("43", "42", 0.0), ("None", "42", 0.0),
                                              ("'41} \\\\boxed{42'", "42", 0.0), ("[41, 42]", "42", 0.0)])
def test_final_value_reward_near_misses_fail_and_rewrites_pass(server, value, gold, score):
    async def main() -> float:
        client = AsyncVerifierClient(server.target)
        try:
            return await final_value_reward(client, value, gold)
        finally:
            await client.close()
    assert asyncio.run(main()) == score


def test_trl_grpo_step_calls_the_session_tool_and_grades_its_last_value(server, tmp_path, monkeypatch):
    """A real GRPOTrainer.train() step with TRL's tool loop (environment_factory): a tiny policy
    overfit to call run_python with `a*b` or the near miss `a+b` (trainer/tiny.py build_tool_policy);
    TRL parses the call, runs it as a session cell on the real server, appends the output as a tool
    message and generates again; get_reward grades the last cell's value against the row's answer."""
    import torch
    from trl import GRPOConfig, GRPOTrainer

    from trainer import tiny

    torch.set_num_threads(1)
    monkeypatch.setenv("VERIFIER_TARGET", server.target)
    monkeypatch.setenv("TRL_EXPERIMENTAL_SILENCE", "1")
    model, tok = tiny.build_tool_policy([PythonSessionEnv.run_python], steps=300)
    seen: list[list[dict]] = []

    def record(completions: list, **kwargs) -> list[float]:
        """Records the multi-turn completions TRL built (a constant: no effect on advantages)."""
        seen.extend(completions)
        return [0.0] * len(completions)

    cells_before = server.metric("verifier_session_cells_total", status="ok")
    args = GRPOConfig(output_dir=str(tmp_path), use_cpu=True, max_steps=1, per_device_train_batch_size=8,
                      num_generations=4, max_completion_length=48, learning_rate=1e-3, beta=0.0, temperature=1.0,
                      logging_steps=1, save_strategy="no", report_to="none", max_tool_calling_iterations=2, seed=0)
    trainer = GRPOTrainer(model=model, reward_funcs=[record], args=args, processing_class=tok,
                          train_dataset=tiny.product_dataset(repeat=2), environment_factory=PythonSessionEnv)
    trainer.train()
    for env in trainer._environment_pool[None]:
        env.reset()  # ends each rollout's session now (else the idle TTL does)
    cells = server.metric("verifier_session_cells_total", status="ok") - cells_before

    calls = []  # (code, tool output) per rollout that called the tool
    for completion in seen:
        tool_calls = completion[0].get("tool_calls") or []
        outputs = [m["content"] for m in completion if m["role"] == "tool"]
        if tool_calls:
            calls.append((tool_calls[0]["function"]["arguments"]["code"], outputs[0]))
    assert len(seen) == 8 and len(calls) >= 4, seen  # most rollouts called the tool
    assert cells == len(calls)  # each parsed call ran as one cell on the server
    for code, output in calls:  # the cell's value came back into the conversation
        assert output == str(eval(code)), (code, output)  # noqa: S307 - `d*d` or `d+d` (checked below)
        assert len(code) == 3 and code[0].isdigit() and code[1] in "*+" and code[2].isdigit()
    [log] = [r for r in trainer.state.log_history if "rewards/PythonSessionEnv/mean" in r]
    right = sum(code[1] == "*" for code, _ in calls)  # a*b is the answer; a+b (a near miss, a,b >= 3) is not
    assert log["rewards/PythonSessionEnv/mean"] == pytest.approx(right / 8)
    assert log["tools/call_frequency"] == pytest.approx(len(calls) / 8)

"""Multi-turn tool use over sessions (trainer/sessions.py): verl's tool flow with a scripted policy,
TRL's environment, and the final-value reward, against a real server and real containers."""

from __future__ import annotations

import asyncio
import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from trainer.sessions import PythonSessionEnv, PythonSessionTool, answer_text, final_value_reward
from verifier.client import AsyncVerifierClient
from verifier.local_server import LocalServer

pytestmark = pytest.mark.docker
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def server() -> Iterator[LocalServer]:
    with LocalServer("--workers", "1", "--sandbox-languages", "python", "--sandbox-pool-size", "1") as s:
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

"""A verl-style multi-turn rollout with a scripted policy against a real server (docs/sessions.md "Sessions").

It drives trainer.sessions.PythonSessionTool the way verl's ToolAgentLoop does: for every tool
call a fresh instance (create -> execute -> release) with the trajectory's request_id in
agent_data, so the interpreter persists across the calls of one trajectory; at the end, the
trajectory's final value is graded (calc_reward) and its session closed. `make test` runs it
(tests/test_trainer_sessions.py); by hand:

    verifier serve &   # then
    VERIFIER_TARGET=127.0.0.1:50051 python examples/verl_multiturn_rollout.py
"""

from __future__ import annotations

import asyncio
import json
import sys
from dataclasses import dataclass

from trainer.sessions import PythonSessionTool

# Each "policy" is the list of tool calls a model would emit, then the gold answer of its problem.
POLICIES = {
    "sum-of-squares": (["n = 10", "squares = [i * i for i in range(1, n + 1)]", "print(len(squares))",
                        "total = sum(squares)", "total"], "385"),
    "fraction": (["from fractions import Fraction", "x = Fraction(1, 3) + Fraction(1, 6)",
                          "x.numerator / x.denominator"], "1/2"),
    "near-miss": (["total = sum(range(1, 11))", "total + 1"], "55"),
    "hang-then-lost": (["x = 7", "while True:\n    pass", "x"], "7"),
}


@dataclass
class AgentData:  # the part of verl's AgentData a tool reads
    request_id: str


async def rollout(tool: PythonSessionTool, request_id: str, calls: list[str], gold: str) -> tuple[float, list[str]]:
    """One trajectory: one tool instance per call, as verl's ToolAgentLoop does, then the final reward."""
    seen = []
    for code in calls:
        instance_id, _ = await tool.create(create_kwargs={"ground_truth": gold})
        try:
            response, _, _ = await tool.execute(instance_id, {"code": code}, agent_data=AgentData(request_id))
        finally:
            await tool.release(instance_id)
        seen.append(response.text)
    instance_id, _ = await tool.create(create_kwargs={"ground_truth": gold})
    reward = await tool.calc_reward(instance_id, agent_data=AgentData(request_id))
    await tool.release(instance_id)
    await tool.close_trajectory(request_id)
    return reward, seen


async def main(target: str = "") -> dict[str, dict]:
    tool = PythonSessionTool({"target": target, "time_limit_s": 2} if target else {"time_limit_s": 2})
    names = list(POLICIES)
    outcomes = await asyncio.gather(*(rollout(tool, f"req-{name}", *POLICIES[name]) for name in names))
    await tool._sessions.client.close()
    return {name: {"reward": reward, "responses": seen} for name, (reward, seen) in zip(names, outcomes)}


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main(sys.argv[1] if len(sys.argv) > 1 else "")), indent=1))

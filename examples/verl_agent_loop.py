"""A verl agent loop in a repository, with a scripted policy, against a real server (docs/sessions.md
"Trainers on an environment").

The tools are made from examples/verl_env_tools.yaml as verl's initialize_tools_from_config makes
them (class by dotted name, its config, its schema), and each tool call goes through them as verl's
ToolAgentLoop sends it: a fresh instance per call (create with the row's
`tools_kwargs.<tool>.create_kwargs`, execute with `agent_data`, release). The "policy" is a script of
tool calls a model would emit: it explores, edits with the shell or write_file, runs the visible
tests and submits; `submit` grades the trajectory's tree with the row's hidden tests, and its score is
the call's tool reward (verl's `tool_rewards`). `make test` runs it on the tests' `calc` environment
(tests/test_trainer_env_sessions.py); by hand, on an environment built with `verifier env build`:

    VERIFIER_TARGET=127.0.0.1:50051 python examples/verl_agent_loop.py ROW.json   # {"task": {...}}
"""

from __future__ import annotations

import asyncio
import importlib
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from uuid import uuid4

import yaml

CONFIG = Path(__file__).with_name("verl_env_tools.yaml")
FIXED = "from tinydep import double\n\n\ndef quad(x):\n    return double(double(x))\n"
NEAR_MISS = "from tinydep import double\n\n\ndef quad(x):\n    return 8 if x == 2 else double(x)\n"
TESTS = "PYTHONPATH=vendor/site-packages python3 -m pytest -q -p no:cacheprovider tests"
# Each policy: the tool calls a model would emit, in order (for the calc project of tests/test_repo_service.py).
POLICIES: dict[str, list[tuple[str, dict[str, Any]]]] = {
    "fix-with-sed": [("shell", {"command": "ls; cat calc/__init__.py"}), ("shell", {"command": TESTS}),
                     ("shell", {"command": "sed -i 's/return double(x)/return double(double(x))/' calc/__init__.py"}),
                     ("shell", {"command": TESTS}), ("submit", {})],
    "near-miss": [("write_file", {"path": "calc/__init__.py", "content": NEAR_MISS}),
                  ("shell", {"command": TESTS}), ("submit", {})],  # the visible test passes, the hidden one not
    "no-edit": [("shell", {"command": "cat calc/__init__.py"}), ("submit", {})],
    "write-submit-twice": [("write_file", {"path": "calc/__init__.py", "content": FIXED}), ("submit", {}),
                           ("submit", {}), ("shell", {"command": "true"})],
}


@dataclass
class AgentData:  # the part of verl's AgentData a tool reads
    request_id: str
    tools_kwargs: dict[str, Any]
    tool_rewards: list[float] = field(default_factory=list)


def load_tools(target: str = "") -> dict[str, Any]:
    """The tools of the YAML, made as verl's initialize_tools_from_config makes native tools."""
    tools = {}
    for entry in yaml.safe_load(CONFIG.read_text())["tools"]:
        module, _, name = entry["class_name"].rpartition(".")
        config = {**entry["config"], **({"target": target} if target else {})}
        tool = getattr(importlib.import_module(module), name)(config=config, tool_schema=entry["tool_schema"])
        tools[tool.name] = tool
    return tools


async def call_tool(tools: dict[str, Any], name: str, args: dict[str, Any], agent_data: AgentData) -> str:
    """One call as ToolAgentLoop._call_tool makes it; the tool reward goes to agent_data.tool_rewards."""
    tool = tools[name]
    instance_id, _ = await tool.create(create_kwargs=agent_data.tools_kwargs.get(name, {}).get("create_kwargs", {}))
    try:
        response, reward, _ = await tool.execute(instance_id, args, agent_data=agent_data)
    finally:
        await tool.release(instance_id)
    if reward is not None:
        agent_data.tool_rewards.append(reward)
    return str(response.text)


async def rollout(tools: dict[str, Any], row: dict[str, Any], calls: list[tuple[str, dict[str, Any]]]) -> dict[str, Any]:
    """One trajectory of scripted calls: what the policy read back, and the tool rewards."""
    agent_data = AgentData(uuid4().hex, {name: {"create_kwargs": row} for name in tools})
    seen = [await call_tool(tools, name, args, agent_data) for name, args in calls]
    return {"responses": seen, "tool_rewards": agent_data.tool_rewards, "reward": sum(agent_data.tool_rewards)}


async def main(row: dict[str, Any], target: str = "") -> dict[str, dict[str, Any]]:
    tools = load_tools(target)
    names = list(POLICIES)
    try:
        outcomes = await asyncio.gather(*(rollout(tools, row, POLICIES[name]) for name in names))
    finally:
        for tool in tools.values():
            await tool._client.close()
    return dict(zip(names, outcomes))


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main(json.loads(Path(sys.argv[1]).read_text()))), indent=1))

"""Multi-turn tool use over the service's sessions (docs/sessions.md "Sessions"): a verl tool, a TRL
environment, and a final reward read from the session's last value.

- `PythonSessionTool`: verl's `BaseTool` shape (create / execute / calc_reward / release), a
  subclass of verl's BaseTool when verl is installed, and importable without it. verl's
  ToolAgentLoop creates and releases a tool instance around every single call, so the tool keys
  its session by the trajectory (`agent_data.request_id` when verl passes it) and keeps it across
  calls; the session ends at `release` of an instance that owned it (the older per-trajectory
  flow), at `close_trajectory`, or by the server's idle TTL. Config (examples/verl_session_tool.yaml):
  `target`, `time_limit_s`, `memory_limit_mb`, `idle_ttl_s`, `replay`, `max_response_chars`.
- `PythonSessionEnv`: TRL's GRPOTrainer `environment_factory` class (trl >= 1.x): `reset(**row)`
  starts a fresh session per rollout, `run_python(code)` is the tool the model calls, and
  `get_reward()` grades the last cell's value against the row's answer.
- `final_value_reward`: the reward from a session's final state: the last cell's value graded as
  a math answer by the service (math-verify + sympy, strict profile).

Settings come from VERIFIER_* variables as for every adapter (trainer/remote.py).
"""

from __future__ import annotations

import ast
import logging
from collections.abc import Coroutine
from dataclasses import dataclass
from typing import Any, TypeVar
from uuid import uuid4

from sandbox.contract import UNJUDGED
from trainer.remote import GOLD_COLUMNS, env_config

log = logging.getLogger(__name__)
T = TypeVar("T")
# What trainer/env_sessions.py builds on too (verl's base and response types, or their stand-ins).
__all__ = ["PythonSessionEnv", "PythonSessionTool", "SyncEnv", "ToolResponse", "VerlBaseTool", "answer_text",
           "final_value_reward", "format_cell", "session_client"]

try:  # verl is optional: the tool works (and is tested) without it
    from verl.tools.base_tool import BaseTool as VerlBaseTool
    from verl.tools.schemas import ToolResponse
except ImportError:  # pragma: no cover - depends on the environment
    VerlBaseTool = object

    @dataclass
    class ToolResponse:  # type: ignore[no-redef]
        """verl's ToolResponse, as far as a text tool uses it."""

        text: str | None = None


MAX_VALUE_CHARS = 1000  # a longer "answer" is not an answer
TOOL_SCHEMA = {
    "type": "function",
    "function": {
        "name": "run_python",
        "description": "Run Python code in a persistent interpreter: variables, imports and files stay between "
                       "calls. Returns stdout, stderr, the value of the last expression, or the error.",
        "parameters": {"type": "object", "properties": {"code": {"type": "string", "description": "Python code"}},
                       "required": ["code"]},
    },
}


def format_cell(result: Any, max_chars: int = 4000) -> str:
    """What the model reads back after a cell: stdout, stderr, the value or the error, and whether
    the session ended (a policy must learn that its state is gone)."""
    parts = []
    if result.stdout:
        parts.append(result.stdout.rstrip("\n") + (" [truncated]" if result.stdout_truncated else ""))
    if result.stderr:
        parts.append("[stderr] " + result.stderr.rstrip("\n"))
    if result.status == "ok" and result.value is not None:
        parts.append(result.value)
    elif result.status == "error" and result.error:
        parts.append(result.error.get("traceback") or f"{result.error.get('ename')}: {result.error.get('evalue')}")
    elif result.status not in ("ok", "error"):
        parts.append(f"[{result.status}] {result.detail}" + ("" if result.restored else " The interpreter was reset: "
                                                                 "earlier variables are gone."))
    text = "\n".join(parts)
    return text if len(text) <= max_chars else text[:max_chars] + "\n...[truncated]"


def answer_text(value: str | None) -> str | None:
    """The last value's repr as answer text: a str's quotes removed; None when it cannot be an
    answer (no value, too long, or braces that would step out of the \\boxed{} it is graded in)."""
    if value is None or len(value) > MAX_VALUE_CHARS:
        return None
    text = value
    if value[:1] in "'\"":
        try:
            parsed = ast.literal_eval(value)
        except (ValueError, SyntaxError):
            return None
        if not isinstance(parsed, str):
            return None
        text = parsed
    depth = 0
    for ch in text:
        depth += {"{": 1, "}": -1}.get(ch, 0)
        if depth < 0:
            return None
    if depth or "\\boxed" in text or not text.strip():
        return None
    return text.strip()


async def final_value_reward(client: Any, value: str | None, gold: str) -> float:
    """1.0 when the session's last value equals the gold answer (the service's math grading),
    else 0.0; `client` is an AsyncVerifierClient. An ungraded item raises (never a silent 0)."""
    text = answer_text(value)
    if text is None or not gold:
        return 0.0
    [result] = await client.grade([{"id": "0", "kind": "math", "completion": f"\\boxed{{{text}}}", "gold": str(gold)}])
    if result["verdict"] in UNJUDGED:
        raise RuntimeError(f"the final value could not be graded: {result['verdict']}: {result['detail']}")
    return float(result["score"])


def _gold(row: dict[str, Any]) -> str:
    for column in GOLD_COLUMNS:
        if row.get(column) not in (None, ""):
            return str(row[column])
    return ""


def session_client(config: dict[str, Any]) -> Any:
    """An AsyncVerifierClient for a tool's or environment's config: `target`, else VERIFIER_TARGET and the
    other VERIFIER_* settings (trainer/remote.py)."""
    from verifier.client import AsyncVerifierClient

    cfg = env_config(**({"target": config["target"]} if config.get("target") else {}))
    return AsyncVerifierClient(cfg.target, cfg.client_config())


class _Sessions:
    """The sessions of one tool or environment: an async client and the session options."""

    def __init__(self, config: dict[str, Any]) -> None:
        self.client = session_client(config)
        self.options = {k: config[k] for k in ("time_limit_s", "memory_limit_mb", "idle_ttl_s", "replay") if k in config}
        self.max_chars = int(config.get("max_response_chars", 4000))

    async def open(self) -> Any:
        return await self.client.session("python", **self.options)

    async def run(self, session: Any, code: str) -> tuple[str, Any]:
        """(text for the model, CellResult or None when the session is gone)."""
        from verifier.client import SessionLost

        try:
            result = await session.run(code)
        except SessionLost as exc:
            return f"[session lost] {exc.message} Start over: earlier variables are gone.", None
        return format_cell(result, self.max_chars), result


class PythonSessionTool(VerlBaseTool):  # type: ignore[misc]  # verl's BaseTool is untyped (object without verl)
    """verl multi-turn tool `run_python` backed by one server session per trajectory (module docstring)."""

    def __init__(self, config: dict[str, Any] | None = None, tool_schema: Any = None) -> None:
        self.config = dict(config or {})
        self.tool_schema = tool_schema or self._schema()
        self.name = self.tool_schema.function.name if hasattr(self.tool_schema, "function") else self.tool_schema["function"]["name"]
        self._sessions = _Sessions(self.config)
        self._instances: dict[str, dict[str, Any]] = {}  # instance id -> {"gold", "key"}
        self._trajectories: dict[str, dict[str, Any]] = {}  # key -> {"session", "last", "owner"}

    @staticmethod
    def _schema() -> Any:
        try:
            from verl.tools.schemas import OpenAIFunctionToolSchema
        except ImportError:
            return TOOL_SCHEMA
        return OpenAIFunctionToolSchema.model_validate(TOOL_SCHEMA)

    def get_openai_tool_schema(self) -> Any:
        return self.tool_schema

    async def create(self, instance_id: str | None = None, **kwargs: Any) -> tuple[str, ToolResponse]:
        """A tool instance; `ground_truth` (from create_kwargs) is the gold answer calc_reward grades against."""
        instance_id = instance_id or str(uuid4())
        create_kwargs = kwargs.get("create_kwargs") or kwargs
        self._instances[instance_id] = {"gold": _gold(create_kwargs), "key": instance_id}
        return instance_id, ToolResponse()

    async def execute(self, instance_id: str, parameters: dict[str, Any], **kwargs: Any) -> tuple[ToolResponse, float, dict[str, Any]]:
        """Run `parameters["code"]` in the trajectory's session; the text is what the model reads."""
        instance = self._instances.setdefault(instance_id, {"gold": "", "key": instance_id})
        agent_data = kwargs.get("agent_data")
        key = str(getattr(agent_data, "request_id", "") or instance_id)
        instance["key"] = key
        code = parameters.get("code") if isinstance(parameters, dict) else None
        if not isinstance(code, str):
            return ToolResponse(text="[tool error] run_python needs a string argument 'code'"), 0.0, {"ok": False}
        trajectory = self._trajectories.get(key)
        if trajectory is None:
            trajectory = self._trajectories[key] = {"session": await self._sessions.open(), "last": None,
                                                    "owner": instance_id}
        text, result = await self._sessions.run(trajectory["session"], code)
        trajectory["last"] = result
        metrics = {"status": result.status if result else "lost", "cpu_s": result.cpu_s if result else 0.0}
        return ToolResponse(text=text), 0.0, metrics

    async def calc_reward(self, instance_id: str, **kwargs: Any) -> float:
        """The final reward: the trajectory's last cell value graded against the instance's gold
        (the trajectory is agent_data.request_id when given, else the instance's own)."""
        instance = self._instances.get(instance_id) or {}
        key = str(getattr(kwargs.get("agent_data"), "request_id", "") or instance.get("key", instance_id))
        trajectory = self._trajectories.get(key) or {}
        last = trajectory.get("last")
        value = last.value if last is not None and last.status == "ok" else None
        return await final_value_reward(self._sessions.client, value, instance.get("gold", ""))

    async def release(self, instance_id: str, **kwargs: Any) -> None:
        """Forget the instance; close its session when the instance opened it for itself (no
        trajectory id: the per-trajectory flow). Per-call instances leave it to close_trajectory/TTL."""
        instance = self._instances.pop(instance_id, None) or {}
        key = instance.get("key", instance_id)
        if key == instance_id:
            await self.close_trajectory(key)

    async def close_trajectory(self, key: str) -> None:
        """End a trajectory's session now (rollout finished)."""
        trajectory = self._trajectories.pop(key, None)
        if trajectory is not None:
            await trajectory["session"].close()


class SyncEnv:
    """The base of TRL environment classes: TRL calls their tools synchronously from its own threads and
    loops, so each instance runs its async client on a loop of its own. TRL offers every public method
    but `reset` and `get_reward` as a tool: this base has none."""

    def __init__(self) -> None:
        import asyncio
        import threading

        self._loop = asyncio.new_event_loop()
        threading.Thread(target=self._loop.run_forever, daemon=True, name="session-env").start()

    def _call(self, coro: Coroutine[Any, Any, T]) -> T:
        import asyncio

        return asyncio.run_coroutine_threadsafe(coro, self._loop).result()


class PythonSessionEnv(SyncEnv):
    """TRL GRPOTrainer `environment_factory` class: one session per rollout, tool `run_python`."""

    def __init__(self, config: dict[str, Any] | None = None) -> None:
        super().__init__()
        self._sessions = _Sessions(dict(config or {}))
        self._session: Any = None
        self._last: Any = None
        self._gold = ""

    def reset(self, **row: Any) -> None:
        """A new rollout: the previous session ends; the row's answer is the gold get_reward uses."""
        if self._session is not None:
            self._call(self._session.close())
        self._session, self._last, self._gold = None, None, _gold(row)

    def run_python(self, code: str) -> str:
        """Run Python code in a persistent interpreter; variables and imports stay between calls.

        Args:
            code: Python source to run. The value of a last expression is shown.

        Returns:
            The printed output, the last expression's value, or the error with its traceback.
        """
        if self._session is None:
            self._session = self._call(self._sessions.open())
        text, self._last = self._call(self._sessions.run(self._session, code))
        return text

    def get_reward(self) -> float:
        """The last cell's value graded against the row's answer (final_value_reward)."""
        last = self._last
        value = last.value if last is not None and last.status == "ok" else None
        return self._call(final_value_reward(self._sessions.client, value, self._gold))

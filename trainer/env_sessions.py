"""Agentic rollouts in a repository, for trainers (docs/sessions.md "Trainers on an environment"): each
rollout drives one session opened on a built environment (`client.session(environment=NAME)`) with
its shell and file tools, and is graded by `session.grade(task)`: the row's hidden tests run against
the tree the rollout left (docs/sessions.md "Grading a session").

- verl: `ShellTool` (`shell`), `WriteFileTool` (`write_file`) and `SubmitTool` (`submit`), in verl's
  BaseTool shape (create / execute / calc_reward / release; subclasses of verl's BaseTool when verl is
  installed, importable without it). verl's ToolAgentLoop makes and releases an instance around every
  single call and hands each tool its own `create_kwargs`, so the tools share one session per
  trajectory, keyed by `agent_data.request_id` (the instance id where verl passes none: its older
  rollout used the request id as every tool's instance id). `submit` grades the trajectory's tree,
  returns the score as the call's tool reward (verl keeps it in `tool_rewards`) and as `calc_reward`,
  and ends the session. Config: examples/verl_env_tools.yaml.
- TRL: `RepoSessionEnv`, a GRPOTrainer `environment_factory` class: `reset(**row)` starts a rollout,
  its tools are `shell`, `read_file`, `write_file` and `list_dir`, and `get_reward` grades the tree.
- slime: trainer/slime_agent.py, a `--custom-generate-function-path` hook on the same tools.

The hidden task comes from the row (`row_task`): a `task` column (a repo task, or its JSON text) or a
SWE-bench row's columns, as the reward adapters read them; it never enters the policy's view. A
rollout that never touched the tree scores 0 without a session (an unchanged tree is `wrong_answer`,
"no change to grade"). An ungraded grade (`infra_error`) is VERIFIER_UNGRADED_REWARD in verl and
slime and None in TRL, as for every adapter (README "Plug it into your trainer").
"""

from __future__ import annotations

import asyncio
import json
import time
import weakref
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from uuid import uuid4

from sandbox.contract import UNJUDGED
from trainer.remote import ungraded_reward
from trainer.sessions import SyncEnv, ToolResponse, VerlBaseTool, session_client

MAX_RESPONSE_CHARS = 4000
GRADE_TIMEOUT_S = 900.0  # a repo task's tests may run for minutes: longer than the client's default deadline
SESSION_OPTIONS = ("time_limit_s", "memory_limit_mb", "idle_ttl_s")


def row_task(row: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    """(environment, the hidden task's fields) of a row: its `task` column (a repo task, or its JSON
    text) or a SWE-bench row's columns (verifier/formats/swebench.py). The fields are what
    `session.grade` takes: a repo task less its completion. ValueError names the column."""
    task = row.get("task")
    if isinstance(task, str):
        try:
            task = json.loads(task)
        except ValueError:
            raise ValueError("task: not JSON") from None
    if isinstance(task, Mapping):
        if task.get("kind", "repo") != "repo":
            raise ValueError(f"task.kind: a session is graded as a repo task, not {task.get('kind')!r}")
        fields = {k: v for k, v in task.items() if k not in ("kind", "id", "completion")}
        name = fields.get("environment") or row.get("environment")
    else:
        from verifier.formats import swebench

        if not swebench.detect(row):
            raise ValueError("task: the row carries no repo task (a `task` column, or a SWE-bench row's "
                             "instance_id and FAIL_TO_PASS)")
        fields = {k: v for k, v in swebench.to_task(row, "").items() if k not in ("kind", "completion")}
        name = fields["environment"]
    if not isinstance(name, str) or not name:
        raise ValueError("environment: the row's task names no environment")
    fields["environment"] = name
    return name, fields


def format_shell(result: Any, max_chars: int = MAX_RESPONSE_CHARS) -> str:
    """What the policy reads after a command: stdout, stderr and how it ended (a policy must learn that
    a lost session's files are gone)."""
    parts = []
    if result.stdout:
        parts.append(result.stdout.rstrip("\n") + (" [truncated]" if result.stdout_truncated else ""))
    if result.stderr:
        parts.append("[stderr] " + result.stderr.rstrip("\n") + (" [truncated]" if result.stderr_truncated else ""))
    if result.status == "ok":
        parts.append(f"[exit {result.exit_code}]")
    else:
        parts.append(f"[{result.status}] {result.detail}".rstrip()
                     + (" The session ended: its files are gone." if result.session_lost else ""))
    return _cap("\n".join(parts), max_chars)


def _cap(text: str, max_chars: int) -> str:
    return text if len(text) <= max_chars else text[:max_chars] + "\n...[truncated]"


async def call_tool(session: Any, name: str, args: Mapping[str, Any], max_chars: int = MAX_RESPONSE_CHARS) -> str:
    """Run one of the session's tools (shell, read_file, write_file, list_dir) for the policy: the text
    it reads back. The policy's own mistakes (a bad path, a missing argument, a lost session) are text
    it can read; a fault of the service raises (VerifierError), never passing for the policy's."""
    import grpc

    from verifier.client import SessionLost, VerifierError

    try:
        if name == "shell":
            result = await session.shell(_arg(args, "command"), timeout_s=_shell_deadline(session))
            if result.session_lost:
                _ENDED.add(session)
            return format_shell(result, max_chars)
        if name == "read_file":
            data = await session.read_file(_arg(args, "path"), max_bytes=max_chars + 1)
            return _cap(data.decode("utf-8", "replace"), max_chars)
        if name == "write_file":
            size = await session.write_file(_arg(args, "path"), _arg(args, "content", empty=True))
            return f"wrote {size} bytes to {args['path']}"
        if name == "list_dir":
            listing = await session.list_dir(str(args.get("path") or ""))
            lines = [e["name"] + ("/" if e["kind"] == "dir" else f" ({e['size']} bytes)" if e["kind"] == "file"
                                  else f" ({e['kind']})") for e in listing["entries"]]
            return _cap("\n".join(lines + (["...[truncated]"] if listing["truncated"] else [])), max_chars)
    except _BadCall as exc:
        return f"[tool error] {name}: {exc}"
    except SessionLost as exc:
        return f"[session lost] {exc.message} Its files are gone."
    except VerifierError as exc:
        if exc.code == grpc.StatusCode.INVALID_ARGUMENT:
            return f"[tool error] {name}: {exc.message}"
        raise
    return f"[tool error] no tool named {name!r}"


def _shell_deadline(session: Any) -> float | None:
    """A command's deadline: its wall clock limit (docs/sessions.md "Sessions on an environment": 2x the
    CPU limit + 1 s) and room for the reply; the client's default deadline may be shorter."""
    limit = float(getattr(getattr(session, "info", None), "time_limit_s", 0) or 0)
    return 2 * limit + 31 if limit else None


class _BadCall(ValueError):
    """A tool call whose arguments are not the tool's (the policy's mistake)."""


def _arg(args: Mapping[str, Any], key: str, empty: bool = False) -> str:
    value = args.get(key) if isinstance(args, Mapping) else None
    if not isinstance(value, str) or not (value or empty):
        raise _BadCall(f"needs a string argument {key!r}")
    return value


_ENDED: weakref.WeakSet[Any] = weakref.WeakSet()  # sessions a command of the policy ended (memory_limit, crashed)


def grade_reward(result: Mapping[str, Any] | None) -> float | None:
    """The reward of a session's grade: its score; None when it was not graded (UNJUDGED verdicts)."""
    if result is None:
        return 0.0
    return None if result["verdict"] in UNJUDGED else float(result["score"])


async def grade_session(session: Any, task: Mapping[str, Any]) -> tuple[float | None, dict[str, Any] | None]:
    """(reward, result) of the session's tree graded with the hidden task. Without a call, (0.0, None):
    a rollout with no session (it never touched the tree: an unchanged tree is `wrong_answer`) or one
    whose own command ended its session (a limit it hit: its tree is gone, the policy's failure). A
    grade the service could not give (an error, a session gone for another reason) is ungraded,
    (None, None): never a 0 that is not the policy's."""
    from verifier.client import VerifierError

    if session is None or session in _ENDED:
        return 0.0, None
    try:
        result = await session.grade(dict(task), timeout_s=GRADE_TIMEOUT_S)
    except VerifierError:
        return None, None
    return grade_reward(result), result


# --- verl -------------------------------------------------------------------------------------------

SHELL_SCHEMA = {"type": "function", "function": {
    "name": "shell",
    "description": "Run a shell command (sh -c) in the repository's working tree. Returns stdout, stderr and "
                   "the exit status. Files and edits persist between calls; the network is off.",
    "parameters": {"type": "object", "properties": {"command": {"type": "string", "description": "the command"}},
                   "required": ["command"]}}}
WRITE_FILE_SCHEMA = {"type": "function", "function": {
    "name": "write_file",
    "description": "Write a file of the repository whole (its directories are made). A path relative to the "
                   "repository's root.",
    "parameters": {"type": "object", "properties": {"path": {"type": "string", "description": "relative path"},
                                                    "content": {"type": "string", "description": "the new text"}},
                   "required": ["path", "content"]}}}
SUBMIT_SCHEMA = {"type": "function", "function": {
    "name": "submit",
    "description": "Submit the repository as it is now: its hidden tests are run against it. Call it once, "
                   "when done; the session ends.",
    "parameters": {"type": "object", "properties": {}, "required": []}}}


@dataclass
class _Trajectory:
    """One trajectory's session, shared by every tool of the process (verl makes one object per tool)."""

    environment: str
    task: dict[str, Any]
    session: Any = None
    result: dict[str, Any] | None = None
    reward: float | None = None
    submitted: bool = False
    used: float = field(default_factory=time.monotonic)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


_TRAJECTORIES: dict[str, _Trajectory] = {}
FORGET_AFTER_S = 3600.0  # a trajectory untouched this long is forgotten (the server reaped its session long ago)


_SWEPT = [0.0]  # when _forget_stale last looked (a minute apart at most: the table may be large)


def _forget_stale(now: float) -> None:
    if now - _SWEPT[0] < 60:
        return
    _SWEPT[0] = now
    for key in [k for k, t in _TRAJECTORIES.items() if now - t.used > FORGET_AFTER_S]:
        del _TRAJECTORIES[key]


class _EnvTool(VerlBaseTool):  # type: ignore[misc]  # verl's BaseTool is untyped (object without verl)
    """The verl tools' common part: the trajectory's session, opened on the row's environment at its
    first call. Config: `target`, `time_limit_s`, `memory_limit_mb`, `idle_ttl_s`, `max_response_chars`."""

    SCHEMA: dict[str, Any] = {}

    def __init__(self, config: dict[str, Any] | None = None, tool_schema: Any = None) -> None:
        self.config = dict(config or {})
        self.tool_schema = tool_schema or self._schema()
        function = getattr(self.tool_schema, "function", None)
        self.name = function.name if function is not None else self.tool_schema["function"]["name"]
        self._client = session_client(self.config)
        self._options = {k: self.config[k] for k in SESSION_OPTIONS if k in self.config}
        self._max_chars = int(self.config.get("max_response_chars", MAX_RESPONSE_CHARS))
        self._instances: dict[str, dict[str, Any]] = {}  # instance id -> {"row", "key"}

    def _schema(self) -> Any:
        try:
            from verl.tools.schemas import OpenAIFunctionToolSchema
        except ImportError:
            return self.SCHEMA
        return OpenAIFunctionToolSchema.model_validate(self.SCHEMA)

    def get_openai_tool_schema(self) -> Any:
        return self.tool_schema

    async def create(self, instance_id: str | None = None, **kwargs: Any) -> tuple[str, ToolResponse]:
        """An instance; `create_kwargs` (the dataset's tools_kwargs.<tool>.create_kwargs) is the row whose
        task names the environment and the hidden tests (row_task)."""
        instance_id = instance_id or str(uuid4())
        row = kwargs.get("create_kwargs", kwargs)
        self._instances[instance_id] = {"row": dict(row or {}), "key": instance_id}
        return instance_id, ToolResponse()

    def _trajectory(self, instance_id: str, agent_data: Any) -> _Trajectory:
        """The trajectory of a call: agent_data.request_id, else the instance id (verl's older rollout
        gave every tool of a request the request id as instance id)."""
        instance = self._instances.setdefault(instance_id, {"row": {}, "key": instance_id})
        key = str(getattr(agent_data, "request_id", "") or instance_id)
        instance["key"] = key
        now = time.monotonic()
        _forget_stale(now)
        trajectory = _TRAJECTORIES.get(key)
        if trajectory is None:
            name, task = row_task(instance["row"])
            trajectory = _TRAJECTORIES[key] = _Trajectory(name, task)
        trajectory.used = now
        return trajectory

    async def _open(self, trajectory: _Trajectory) -> Any:
        """The trajectory's session, opened once; None once it submitted. Under the trajectory's lock:
        verl runs a turn's calls at once, and a submit among them must not leave a session behind."""
        async with trajectory.lock:
            if trajectory.session is None and not trajectory.submitted:
                trajectory.session = await self._client.session(environment=trajectory.environment, **self._options)
        return trajectory.session

    async def execute(self, instance_id: str, parameters: dict[str, Any], **kwargs: Any) -> tuple[ToolResponse, float, dict[str, Any]]:
        """Run the tool in the trajectory's session; the text is what the model reads."""
        try:
            trajectory = self._trajectory(instance_id, kwargs.get("agent_data"))
        except ValueError as exc:  # the dataset's row, not the policy: say it in the log and the text
            return ToolResponse(text=f"[tool error] {exc}"), 0.0, {"ok": False}
        session = await self._open(trajectory)
        if session is None:
            return ToolResponse(text="[submitted] the session has ended"), 0.0, {"ok": False}
        text = await call_tool(session, self.name, parameters if isinstance(parameters, dict) else {}, self._max_chars)
        return ToolResponse(text=text), 0.0, {"ok": not text.startswith("[")}

    async def calc_reward(self, instance_id: str, **kwargs: Any) -> float:
        """The trajectory's submitted grade; 0.0 when it never submitted (no answer)."""
        key = str(getattr(kwargs.get("agent_data"), "request_id", "")
                  or (self._instances.get(instance_id) or {}).get("key", instance_id))
        trajectory = _TRAJECTORIES.get(key)
        if trajectory is None or not trajectory.submitted:
            return 0.0
        return ungraded_reward() if trajectory.reward is None else trajectory.reward

    async def release(self, instance_id: str, **kwargs: Any) -> None:
        """Forget the instance. One verl made for the whole trajectory (no request id) ends it; verl's
        per-call instances leave that to submit, close_trajectory or the server's idle TTL."""
        instance = self._instances.pop(instance_id, None) or {}
        if instance.get("key", instance_id) == instance_id:
            await close_trajectory(instance_id)


async def close_trajectory(key: str) -> None:
    """End a trajectory's session now and forget it (the rollout is over)."""
    trajectory = _TRAJECTORIES.pop(key, None)
    if trajectory is not None and trajectory.session is not None:
        await trajectory.session.close()


class ShellTool(_EnvTool):
    """verl tool `shell`: `sh -c command` in the trajectory's repository session."""

    SCHEMA = SHELL_SCHEMA


class WriteFileTool(_EnvTool):
    """verl tool `write_file`: replace a file of the trajectory's tree (an edit without quoting)."""

    SCHEMA = WRITE_FILE_SCHEMA


class SubmitTool(_EnvTool):
    """verl tool `submit`: grade the trajectory's tree with the row's hidden task (session.grade), once."""

    SCHEMA = SUBMIT_SCHEMA

    async def execute(self, instance_id: str, parameters: dict[str, Any], **kwargs: Any) -> tuple[ToolResponse, float, dict[str, Any]]:
        """The grade's score is the call's tool reward; the session ends. A second submit scores nothing."""
        try:
            trajectory = self._trajectory(instance_id, kwargs.get("agent_data"))
        except ValueError as exc:
            return ToolResponse(text=f"[tool error] {exc}"), 0.0, {"ok": False}
        async with trajectory.lock:
            if trajectory.submitted:
                return ToolResponse(text="[submitted] already submitted"), 0.0, {"ok": False}
            trajectory.submitted = True
            session, trajectory.session = trajectory.session, None
        try:
            trajectory.reward, trajectory.result = await grade_session(session, trajectory.task)
        finally:
            if session is not None:
                await session.close()
        ungraded = trajectory.reward is None
        verdict = trajectory.result["verdict"] if trajectory.result else "ungraded" if ungraded else "wrong_answer"
        reward = ungraded_reward() if ungraded else float(trajectory.reward or 0.0)
        text = f"[submitted] {verdict}" + (": it could not be graded" if ungraded else f", score {reward:g}")
        return ToolResponse(text=text), reward, {"verdict": verdict, "verifier_ungraded": float(ungraded)}


# --- TRL --------------------------------------------------------------------------------------------

class RepoSessionEnv(SyncEnv):
    """TRL GRPOTrainer `environment_factory` class: one repository session per rollout; the tools are
    every public method but reset and get_reward (TRL's rule), so helpers here are private."""

    def __init__(self, config: dict[str, Any] | None = None) -> None:
        super().__init__()
        self._config = dict(config or {})
        self._client = session_client(self._config)
        self._options = {k: self._config[k] for k in SESSION_OPTIONS if k in self._config}
        self._max_chars = int(self._config.get("max_response_chars", MAX_RESPONSE_CHARS))
        self._session: Any = None
        self._environment = ""
        self._task: dict[str, Any] = {}

    def reset(self, **row: Any) -> None:
        """A new rollout on the row's environment (row_task); the previous session ends."""
        self._close()
        self._environment, self._task = row_task(row)

    def _close(self) -> None:
        session, self._session = self._session, None
        if session is not None:
            self._call(session.close())

    def _tool(self, name: str, **args: Any) -> str:
        if not self._environment:
            return "[tool error] no rollout: reset() first"
        if self._session is None:
            self._session = self._call(self._client.session(environment=self._environment, **self._options).open())
        return self._call(call_tool(self._session, name, args, self._max_chars))

    def shell(self, command: str) -> str:
        """Run a shell command (sh -c) in the repository's working tree; files and edits persist.

        Args:
            command: The command line.

        Returns:
            Its stdout, stderr and exit status.
        """
        return self._tool("shell", command=command)

    def read_file(self, path: str) -> str:
        """Read a file of the repository.

        Args:
            path: A path relative to the repository's root.

        Returns:
            The file's text.
        """
        return self._tool("read_file", path=path)

    def write_file(self, path: str, content: str) -> str:
        """Write a file of the repository whole (its directories are made).

        Args:
            path: A path relative to the repository's root.
            content: The file's new text.

        Returns:
            How many bytes were written.
        """
        return self._tool("write_file", path=path, content=content)

    def list_dir(self, path: str) -> str:
        """List a directory of the repository.

        Args:
            path: A path relative to the repository's root ("" for the root).

        Returns:
            One entry a line; directories end with a slash.
        """
        return self._tool("list_dir", path=path)

    def get_reward(self) -> float | None:
        """The rollout's tree graded with the row's hidden tests (1.0 when resolved); None when it could
        not be graded (TRL leaves it out of the means). The session ends."""
        session, self._session = self._session, None
        try:
            reward, _ = self._call(grade_session(session, self._task))
        finally:
            if session is not None:
                self._call(session.close())
        return reward

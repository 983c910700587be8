"""Python client of the verification service: `grade(tasks) -> results`, in input order.

It splits batches by the server's advertised limits, streams results, retries transient failures
with capped jittered backoff inside one deadline, and resubmits only the items a broken stream did
not answer, so every task gets exactly one result. Items it could not get graded come back as
`infra_error` (retryable), never as wrong answers and never missing.

    from verifier.client import VerifierClient
    with VerifierClient("127.0.0.1:50051") as client:
        results = client.grade([{"id": "1", "kind": "math", "completion": "\\\\boxed{2}", "gold": "2"}])
"""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import threading
import time
from collections.abc import Coroutine, Generator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar, cast

import grpc

from sandbox.contract import HOST_FAULTS, CodeTask, MathTask, RepoTask, Task, TaskError, infra_error, parse_task, task_error
from verifier.client_config import ClientConfig as ClientConfig  # re-exported: `from verifier.client import ClientConfig`
from verifier.execute_wire import response_from_proto
from verifier.session_wire import cell_from_proto, shell_from_proto
from verifier.schema import Parsed, inline_test_sets, limits_from_info, protos_with_test_sets, result_from_proto
from verifier.v1 import verifier_pb2 as pb
from verifier.v1 import verifier_pb2_grpc as pb_grpc

# Codes after which the same items may be sent again: the server did not (fully) grade them.
TRANSIENT = {
    grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.RESOURCE_EXHAUSTED, grpc.StatusCode.ABORTED,
    grpc.StatusCode.INTERNAL, grpc.StatusCode.UNKNOWN, grpc.StatusCode.CANCELLED,
    grpc.StatusCode.DEADLINE_EXCEEDED,
}
T = TypeVar("T")
_FALLBACK_LIMITS = pb.Limits(max_tasks_per_call=256, max_request_bytes=4 << 20)


@dataclass
class GradeReport:
    """Results in input order, with what it took to get them."""

    results: list[dict[str, Any]]
    retries: int = 0
    rpc_s: float = 0.0
    ungraded: int = 0


class VerifierError(Exception):
    """A call the server refused for good (bad request, auth): retrying would not help."""

    def __init__(self, code: grpc.StatusCode, message: str):
        super().__init__(f"{code.name}: {message}")
        self.code = code
        self.message = message


def normalize_target(target: str) -> str:
    """'h:p' stays; 'h1:p1,h2:p2' becomes one ipv4:/ipv6: target that round_robin spreads over."""
    if "," not in target or "://" in target or target.startswith(("ipv4:", "ipv6:")):
        return target
    scheme = "ipv6" if "[" in target else "ipv4"
    return f"{scheme}:" + ",".join(part.strip() for part in target.split(","))


def _channel_options(config: ClientConfig) -> list[tuple[str, Any]]:
    service_config: dict[str, Any] = {"loadBalancingConfig": [{"round_robin": {}}]}
    return [
        ("grpc.service_config", json.dumps(service_config)),
        ("grpc.max_send_message_length", config.max_message_bytes),
        ("grpc.max_receive_message_length", config.max_message_bytes),
        ("grpc.keepalive_time_ms", 30_000),
        ("grpc.keepalive_timeout_ms", 10_000),
        ("grpc.keepalive_permit_without_calls", 1),
        ("grpc.http2.max_pings_without_data", 0),
        ("grpc.enable_retries", 0),  # retries are ours: we resubmit only the missing items
    ]


def _model(task: Task | Mapping[str, Any], where: str) -> Task:
    """A task of grade()'s input as a model: models (and dicts that carry theirs: schema.Parsed, the
    trainer's) as they are; a plain dict decoded here, once."""
    if isinstance(task, (MathTask, CodeTask, RepoTask)):
        return task
    if isinstance(task, Parsed):
        return task.model
    return parse_task(task, where)


class AsyncVerifierClient:
    """asyncio client. Picklable: the channel is created lazily in each process and event loop."""

    def __init__(self, target: str = "127.0.0.1:50051", config: ClientConfig | None = None):
        self.target = target
        self.config = config or ClientConfig()
        self._channel: grpc.aio.Channel | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._info: pb.ServerInfo | None = None
        self._replicas: dict[str, AsyncVerifierClient] = {}  # session owners (docs/sessions.md "Sessions")

    def __getstate__(self) -> dict[str, Any]:
        return {"target": self.target, "config": self.config}

    def __setstate__(self, state: dict[str, Any]) -> None:
        type(self).__init__(self, state["target"], state["config"])

    def _stub(self) -> pb_grpc.VerifierStub:
        loop = asyncio.get_running_loop()
        if self._channel is None or self._loop is not loop:
            options = _channel_options(self.config)
            target = normalize_target(self.target)
            if self.config.tls:
                root = open(self.config.root_cert, "rb").read() if self.config.root_cert else None
                self._channel = grpc.aio.secure_channel(target, grpc.ssl_channel_credentials(root), options=options)
            else:
                self._channel = grpc.aio.insecure_channel(target, options=options)
            self._loop, self._info = loop, None
        return pb_grpc.VerifierStub(self._channel)  # type: ignore[no-untyped-call]  # grpc's generated stub is untyped

    def _metadata(self) -> tuple[tuple[str, str], ...]:
        return (("authorization", f"Bearer {self.config.token}"),) if self.config.token else ()

    async def server_info(self, timeout_s: float = 10.0, wait_for_ready: bool = True) -> pb.ServerInfo:
        info = await self._stub().GetServerInfo(pb.GetServerInfoRequest(), timeout=timeout_s,
                                                metadata=self._metadata(), wait_for_ready=wait_for_ready)
        return cast(pb.ServerInfo, info)  # grpc's generated stub is untyped

    async def _info_or_none(self, timeout_s: float) -> pb.ServerInfo | None:
        """The server's limits and languages (cached per channel); None while it cannot be reached."""
        if self._info is None:
            try:
                self._info = await self.server_info(timeout_s, wait_for_ready=False)
            except grpc.aio.AioRpcError as exc:
                if exc.code() not in TRANSIENT:
                    raise VerifierError(exc.code(), exc.details() or "") from exc
        return self._info

    def _refuse(self, task_id: str, exc: TaskError, results: dict[str, Any]) -> None:
        """A task the server would refuse: raise, or answer it alone (config.on_invalid)."""
        message = str(exc)
        if self.config.on_invalid != "result":
            raise VerifierError(grpc.StatusCode.INVALID_ARGUMENT, message)
        results[task_id] = task_error(task_id, message)

    async def grade(self, tasks: Sequence[Task | Mapping[str, Any]], timeout_s: float | None = None) -> list[dict[str, Any]]:
        """One result per task, in input order."""
        return (await self.grade_detailed(tasks, timeout_s)).results

    async def grade_detailed(self, tasks: Sequence[Task | Mapping[str, Any]], timeout_s: float | None = None) -> GradeReport:
        """Like grade(), with retry and timing figures for logs. Raises VerifierError on a bad request."""
        started = time.monotonic()
        deadline = started + (timeout_s or self.config.timeout_s)
        results: dict[str, dict[str, Any]] = {}  # final answers
        models: list[Task] = []
        for i, t in enumerate(tasks):
            try:
                models.append(_model(t, f"tasks[{i}]"))
            except TaskError as exc:
                if self.config.on_invalid != "result" or not isinstance(t, Mapping) or not t.get("id"):
                    raise VerifierError(grpc.StatusCode.INVALID_ARGUMENT, str(exc)) from exc
                self._refuse(str(t["id"]), exc, results)
        protos, test_sets = protos_with_test_sets(models)  # identical test lists: sent once per call
        ids = [str(t.id if isinstance(t, (MathTask, CodeTask, RepoTask)) else t["id"]) for t in tasks]
        if len(set(ids)) != len(ids):
            raise VerifierError(grpc.StatusCode.INVALID_ARGUMENT, "tasks: ids must be unique within one call")
        positions = {task_id: i for i, task_id in enumerate(ids)}
        checked = False
        retryable: dict[str, dict[str, Any]] = {}  # infra_error answers, kept in case nothing better comes
        last_error = "deadline passed before the first attempt"
        retries = answered_rounds = 0
        broken = False  # the last round lost items to the transport (server down, restarting, stream cut)
        for attempt in itertools.count():
            missing = [p for p in protos if p.id not in results]
            if not missing or time.monotonic() >= deadline:
                break
            if attempt:
                # A server that cannot be reached is retried until the deadline (a restart takes
                # as long as it takes); one that answered infra_error, max_retries times.
                if not broken:
                    if answered_rounds >= self.config.max_retries:
                        break
                    answered_rounds += 1
                retries += 1
                await asyncio.sleep(min(self._backoff(attempt), max(0.0, deadline - time.monotonic())))
            info = await self._info_or_none(max(0.1, min(10.0, deadline - time.monotonic())))
            if info is not None and not checked:  # the server's own limits, checked per task
                if not info.limits.max_test_set_bytes:  # a server that predates test sets
                    inline_test_sets(protos, test_sets)
                protos, checked = self._check(protos, models, positions, info, results), True
                missing = [p for p in protos if p.id not in results]
                if not missing:
                    break
            limits = info.limits if info is not None else _FALLBACK_LIMITS
            got: dict[str, dict[str, Any]] = {}
            transport_error = await self._round(missing, test_sets, limits, deadline, got)
            broken = transport_error is not None
            last_error = transport_error or "retryable result"
            for task_id, r in got.items():
                (retryable if r["retryable"] else results)[task_id] = r
                if r["retryable"]:
                    last_error = r["detail"]
        ordered = [results.get(i) or retryable.get(i) or dict(infra_error(i, f"not graded: {last_error}")) for i in ids]
        ungraded = sum(r["verdict"] in HOST_FAULTS for r in ordered)
        return GradeReport(ordered, retries=retries, rpc_s=time.monotonic() - started, ungraded=ungraded)

    def _check(self, protos: list[pb.Task], models: list[Task], positions: dict[str, int], info: pb.ServerInfo,
               results: dict[str, Any]) -> list[pb.Task]:
        """The tasks that fit the server's limits, checked on the models they were encoded from (never
        decoded back from the protos); the others are refused one by one, named as on the wire."""
        limits = limits_from_info(info)
        set_errors: dict[str, TaskError | None] = {}  # a shared test set's tests are checked once, not per task
        refused = set()
        for model, p in zip(models, protos):
            where = f"tasks[{positions[model.id]}]"
            shared = p.code.test_set if p.WhichOneof("payload") == "code" else ""
            try:
                limits.check(model, where, wire=True, tests_checked=bool(shared), revalidate=True)
                if shared and isinstance(model, CodeTask):
                    if shared not in set_errors:
                        try:
                            limits.check_tests(model.tests, "tests")
                            set_errors[shared] = None
                        except TaskError as exc:
                            set_errors[shared] = exc
                    found = set_errors[shared]
                    if found is not None:  # named as the task's own tests: its user never saw a set
                        raise TaskError(f"{where}.code.{found.field}", str(found).removeprefix(f"{found.field}: "))
            except TaskError as exc:
                self._refuse(model.id, exc, results)
                refused.add(model.id)
        return [p for p in protos if p.id not in refused]

    def _backoff(self, attempt: int) -> float:
        base = min(self.config.backoff_max_s, self.config.backoff_initial_s * 2 ** min(attempt - 1, 30))
        return cast(float, base * (0.5 + random.random() / 2))

    async def _round(self, missing: list[pb.Task], test_sets: Mapping[str, pb.TestSet], limits: pb.Limits,
                     deadline: float, results: dict[str, Any]) -> str | None:
        """Send the missing tasks in sub-batches; record what comes back. Returns the last transport
        error seen (a sub-batch lost to it), None when every call completed."""
        errors: list[str] = []
        gate = asyncio.Semaphore(self.config.max_inflight_calls)

        async def one(batch: list[pb.Task]) -> None:
            async with gate:
                try:
                    await self._stream(batch, test_sets, deadline, results)
                except grpc.aio.AioRpcError as exc:
                    if exc.code() not in TRANSIENT:
                        raise VerifierError(exc.code(), exc.details() or "") from exc
                    errors.append(f"{exc.code().name}: {exc.details()}")
                    await self._pushback(exc, deadline)

        max_bytes = min(limits.max_request_bytes or 4 << 20, self.config.max_message_bytes)
        calls = [asyncio.ensure_future(one(b)) for b in _split(missing, test_sets, limits, max_bytes)]
        try:
            await asyncio.gather(*calls)
        finally:  # a permanent failure of one sub-batch must not leave the others running
            for call in calls:
                call.cancel()
        return errors[-1] if errors else None

    async def _stream(self, batch: list[pb.Task], test_sets: Mapping[str, pb.TestSet], deadline: float,
                      results: dict[str, Any]) -> None:
        request = pb.GradeRequest(tasks=batch)
        for name in dict.fromkeys(p.code.test_set for p in batch if p.WhichOneof("payload") == "code" and p.code.test_set):
            request.test_sets[name].CopyFrom(test_sets[name])  # each set once per call, however many tasks name it
        call = self._stub().GradeStream(request, timeout=max(0.05, deadline - time.monotonic()), metadata=self._metadata())
        async for r in call:
            results[r.id] = result_from_proto(r)

    async def _pushback(self, exc: grpc.aio.AioRpcError, deadline: float) -> None:
        """Honour the server's retry-after hint (RESOURCE_EXHAUSTED), leaving time for a retry."""
        for key, value in exc.trailing_metadata() or ():
            if key == "grpc-retry-pushback-ms":
                left = max(0.0, deadline - time.monotonic())
                await asyncio.sleep(min(int(value) / 1000, self.config.backoff_max_s, left / 2))

    async def execute(self, code: str, language: str = "python", stdin: str = "", files: Mapping[str, str] | None = None,
                      time_limit_s: float = 0.0, memory_limit_mb: int = 0, max_output_bytes: int = 0,
                      timeout_s: float | None = None) -> dict[str, Any]:
        """Run one program in the server's sandbox (docs/service.md "Execute"): stdout, stderr, status, exit_code,
        signal, cpu_s, wall_s, peak_memory_kb. A full or draining server is retried with backoff until
        the deadline (running a program twice is harmless: it has no effect outside its sandbox);
        a refused request raises VerifierError."""
        request = pb.ExecuteRequest(language=language, code=code, stdin=stdin, files=dict(files or {}),
                                    time_limit_s=time_limit_s, memory_limit_mb=memory_limit_mb,
                                    max_output_bytes=max_output_bytes)
        deadline = time.monotonic() + (timeout_s or self.config.timeout_s)
        attempt = 0
        while True:
            attempt += 1
            try:
                reply = await self._stub().Execute(request, timeout=max(0.05, deadline - time.monotonic()),
                                                   metadata=self._metadata())
                return response_from_proto(reply)
            except grpc.aio.AioRpcError as exc:
                if exc.code() not in TRANSIENT or time.monotonic() >= deadline:
                    raise VerifierError(exc.code(), exc.details() or "") from exc
                await self._pushback(exc, deadline)
                await asyncio.sleep(min(self._backoff(attempt), max(0.0, deadline - time.monotonic())))

    def session(self, language: str = "python", files: Mapping[str, str] | None = None, time_limit_s: float = 0.0,
                memory_limit_mb: int = 0, max_output_bytes: int = 0, idle_ttl_s: float = 0.0, replay: bool = False,
                timeout_s: float | None = None, environment: str = "", snapshot: str = "") -> AsyncSession:
        """A persistent interpreter on the server (docs/sessions.md "Sessions"): ``async with client.session() as s:
        r = await s.run("x = 1")``, or ``s = await client.session()`` ... ``await s.close()``. Limits of 0
        are the server's defaults. With `environment` (a built repository environment), the session's
        working directory is its tree, in its language, with the shell, file and grade tools
        (docs/sessions.md "Sessions on an environment"). With `snapshot` (an id of `AsyncSession.snapshot`),
        the session starts from that snapshot's files on its environment (docs/sessions.md "Fork and snapshot")."""
        request = pb.CreateSessionRequest(language="" if environment or snapshot else language, files=dict(files or {}),
                                          time_limit_s=time_limit_s, memory_limit_mb=memory_limit_mb,
                                          max_output_bytes=max_output_bytes, idle_ttl_s=idle_ttl_s, replay=replay,
                                          environment=environment, snapshot=snapshot)
        return AsyncSession(self, request, timeout_s)

    async def _create_session(self, request: pb.CreateSessionRequest, timeout_s: float | None) -> pb.CreateSessionResponse:
        """CreateSession, retried with backoff while the server is full or draining (nothing ran yet)."""
        deadline = time.monotonic() + (timeout_s or self.config.timeout_s)
        attempt = 0
        while True:
            attempt += 1
            try:
                created = await self._stub().CreateSession(request, timeout=max(0.05, deadline - time.monotonic()),
                                                           metadata=self._metadata())
                return cast(pb.CreateSessionResponse, created)
            except grpc.aio.AioRpcError as exc:
                if exc.code() not in TRANSIENT or time.monotonic() >= deadline:
                    raise VerifierError(exc.code(), exc.details() or "") from exc
                await self._pushback(exc, deadline)
                await asyncio.sleep(min(self._backoff(attempt), max(0.0, deadline - time.monotonic())))

    def _replica(self, address: str) -> AsyncVerifierClient:
        """The client for the replica that owns a session (CreateSessionResponse.replica), one per address."""
        if not address or address == self.target:
            return self
        if address not in self._replicas:
            self._replicas[address] = AsyncVerifierClient(address, self.config)
        return self._replicas[address]

    async def close(self) -> None:
        replicas, self._replicas = self._replicas, {}
        for replica in replicas.values():
            await replica.close()
        if self._channel is not None:
            await self._channel.close()
            self._channel = None


class SessionLost(VerifierError):
    """The session is gone: an earlier cell ended it, it was closed or reaped, or its replica died.
    Sessions are never recreated empty behind the caller's back: open a new one (docs/sessions.md "Sessions")."""


@dataclass
class CellResult:
    """One cell's reply (RunCellResponse): ``status`` is ok | error | time_limit | memory_limit | crashed."""

    status: str
    stdout: str = ""
    stderr: str = ""
    value: str | None = None
    error: dict[str, Any] | None = None
    session_lost: bool = False
    restored: bool = False
    detail: str = ""
    cpu_s: float = 0.0
    wall_s: float = 0.0
    stdout_truncated: bool = False
    stderr_truncated: bool = False
    value_truncated: bool = False

    @property
    def ok(self) -> bool:
        return self.status == "ok"


@dataclass
class ShellResult:
    """One shell command's reply (RunShellResponse): ``status`` is ok (see ``exit_code``) | time_limit
    (the command was killed; the session lives) | memory_limit | crashed (these end the session)."""

    status: str
    exit_code: int | None = None
    stdout: str = ""
    stderr: str = ""
    stdout_truncated: bool = False
    stderr_truncated: bool = False
    session_lost: bool = False
    detail: str = ""
    cpu_s: float = 0.0
    wall_s: float = 0.0

    @property
    def ok(self) -> bool:
        return self.status == "ok" and self.exit_code == 0


def _grade_request(session_id: str, task: Mapping[str, Any]) -> pb.GradeSessionRequest:
    """A session's grade: the repo task's fields (docs/repo-tasks.md "The task schema") less the patch."""
    fields = set(pb.RepoTask.DESCRIPTOR.fields_by_name) - {"completion"}
    body = {k: v for k, v in task.items() if k not in ("id", "kind")}
    if task.get("kind", "repo") != "repo":
        raise ValueError("task.kind: a session is graded as a repo task")
    for key in body:
        if key not in fields:
            raise ValueError(f"task.{key}: not a field of a session's grade (a repo task's less completion)")
    return pb.GradeSessionRequest(session_id=session_id, id=str(task.get("id") or ""), task=pb.RepoTask(**body))


class AsyncSession:
    """A session of AsyncVerifierClient.session: one interpreter on one replica; cells run in order."""

    def __init__(self, client: AsyncVerifierClient, request: pb.CreateSessionRequest, timeout_s: float | None):
        self._client, self._request, self._timeout_s = client, request, timeout_s
        self.id = ""
        self.info: pb.CreateSessionResponse | None = None

    async def open(self) -> AsyncSession:
        if not self.id:
            self.info = await self._client._create_session(self._request, self._timeout_s)
            self.id = self.info.session_id
            self._client = self._client._replica(self.info.replica)
        return self

    def __await__(self) -> Generator[Any, None, AsyncSession]:
        return self.open().__await__()

    async def __aenter__(self) -> AsyncSession:
        return await self.open()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def _call(self, method: str, request: Any, timeout_s: float | None) -> Any:
        """One session call, never retried (a cell's side effects must not run twice). A session the
        server no longer has, or a replica that is gone, raises SessionLost."""
        if not self.id:
            await self.open()
        try:
            return await getattr(self._client._stub(), method)(request, timeout=timeout_s or self._client.config.timeout_s,
                                                               metadata=self._client._metadata())
        except grpc.aio.AioRpcError as exc:
            code = exc.code()
            if code in (grpc.StatusCode.NOT_FOUND, grpc.StatusCode.FAILED_PRECONDITION, grpc.StatusCode.UNAVAILABLE):
                raise SessionLost(code, exc.details() or "") from exc
            raise VerifierError(code, exc.details() or "") from exc

    async def run(self, code: str, timeout_s: float | None = None) -> CellResult:
        """Run one cell. A cell that ends the session returns normally (session_lost, or restored);
        the next call raises SessionLost."""
        reply = await self._call("RunCell", pb.RunCellRequest(session_id=self.id, code=code), timeout_s)
        return CellResult(**cell_from_proto(reply))

    async def read_file(self, path: str, max_bytes: int = 0) -> bytes:
        """A file below the session's working directory (at most max_bytes; 0: 1 MiB)."""
        reply = await self._call("ReadSessionFile", pb.ReadSessionFileRequest(session_id=self.id, path=path,
                                                                             max_bytes=max_bytes), None)
        return cast(bytes, reply.data)

    async def shell(self, command: str, time_limit_s: float = 0.0, max_output_bytes: int = 0,
                    timeout_s: float | None = None) -> ShellResult:
        """Run `sh -c command` in the session's tree (a session on an environment): its own CPU limit
        (0: the session's), output cap and exit status. Never retried."""
        reply = await self._call("RunShell", pb.RunShellRequest(session_id=self.id, command=command, time_limit_s=time_limit_s,
                                                               max_output_bytes=max_output_bytes), timeout_s)
        return ShellResult(**shell_from_proto(reply))

    async def write_file(self, path: str, data: bytes | str) -> int:
        """Write a file below the session's working directory (its directories made); the bytes written."""
        raw = data.encode() if isinstance(data, str) else bytes(data)
        reply = await self._call("WriteSessionFile", pb.WriteSessionFileRequest(session_id=self.id, path=path, data=raw), None)
        return int(reply.size)

    async def list_dir(self, path: str = "", max_entries: int = 0) -> dict[str, Any]:
        """``{"entries": [{"name", "kind", "size"}], "truncated"}`` of a directory below the working directory."""
        reply = await self._call("ListSessionDir", pb.ListSessionDirRequest(session_id=self.id, path=path,
                                                                           max_entries=max_entries), None)
        return {"entries": [{"name": e.name, "kind": e.kind, "size": e.size} for e in reply.entries],
                "truncated": reply.truncated}

    async def grade(self, task: Mapping[str, Any], timeout_s: float | None = None) -> dict[str, Any]:
        """Grade the session's current tree as a repo task (its hidden tests: test_patch, test_cmd,
        fail_to_pass, pass_to_pass): the result dict, with ``patch``, the session's diff that was graded
        (docs/sessions.md "Grading a session")."""
        reply = await self._call("GradeSession", _grade_request(self.id, task), timeout_s)
        return {**result_from_proto(reply.result), "patch": reply.patch}

    async def fork(self, n: int, timeout_s: float | None = None) -> list[AsyncSession]:
        """n new sessions that start from this session's files (docs/sessions.md "Fork and snapshot"),
        each open, on this session's replica. Not retried: RESOURCE_EXHAUSTED (a bound, named) raises."""
        reply = await self._call("ForkSession", pb.ForkSessionRequest(session_id=self.id, n=n), timeout_s)
        return [AsyncSession.opened(self._client, info, self._timeout_s) for info in reply.sessions]

    async def snapshot(self, ttl_s: float = 0.0) -> str:
        """Keep this session's files for ttl_s (0: the server's session_snapshot_ttl_s); the id that
        ``client.session(snapshot=ID)`` starts a session from."""
        reply = await self._call("SnapshotSession", pb.SnapshotSessionRequest(session_id=self.id, ttl_s=ttl_s), None)
        return cast(str, reply.snapshot_id)

    @classmethod
    def opened(cls, client: AsyncVerifierClient, info: pb.CreateSessionResponse, timeout_s: float | None) -> AsyncSession:
        """A session the server already made (a fork)."""
        session = cls(client, pb.CreateSessionRequest(), timeout_s)
        session.info, session.id = info, info.session_id
        session._client = client._replica(info.replica)
        return session

    async def close(self) -> None:
        """End the session (idempotent; a session already lost is fine)."""
        if not self.id:
            return
        try:
            await self._call("CloseSession", pb.CloseSessionRequest(session_id=self.id), 30.0)
        except SessionLost:
            pass


def _split(tasks: list[pb.Task], test_sets: Mapping[str, pb.TestSet], limits: pb.Limits,
           max_request_bytes: int) -> list[list[pb.Task]]:
    """Sub-batches that respect the server's task-count and request-size limits; a sub-batch's size
    counts each test set it names once (it is sent once per call)."""
    max_n = max(1, min(limits.max_tasks_per_call or 256, limits.max_queued_items or 1 << 30))
    max_bytes = max(1 << 16, int(max_request_bytes * 0.9))
    set_bytes = {name: s.ByteSize() + len(name) + 16 for name, s in test_sets.items()}
    batches: list[list[pb.Task]] = [[]]
    size = 0
    names: set[str] = set()
    if not tasks:
        return []
    for task in tasks:
        name = task.code.test_set if task.WhichOneof("payload") == "code" else ""
        n = task.ByteSize() + 8 + (set_bytes[name] if name and name not in names else 0)
        if batches[-1] and (len(batches[-1]) >= max_n or size + n > max_bytes):
            batches.append([])
            size, names = 0, set()
            n = task.ByteSize() + 8 + (set_bytes[name] if name else 0)
        batches[-1].append(task)
        size += n
        if name:
            names.add(name)
    return batches


class VerifierClient:
    """Synchronous client: runs an AsyncVerifierClient on a private event-loop thread, so it also
    works when the caller is itself inside a running event loop."""

    def __init__(self, target: str = "127.0.0.1:50051", config: ClientConfig | None = None):
        self._async = AsyncVerifierClient(target, config)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    @property
    def target(self) -> str:
        return self._async.target

    @property
    def config(self) -> ClientConfig:
        return self._async.config

    def __getstate__(self) -> dict[str, Any]:
        return {"target": self._async.target, "config": self._async.config}

    def __setstate__(self, state: dict[str, Any]) -> None:
        type(self).__init__(self, state["target"], state["config"])

    def _run(self, coro: Coroutine[Any, Any, T]) -> T:
        with self._lock:
            if self._loop is None:
                self._loop = asyncio.new_event_loop()
                self._thread = threading.Thread(target=self._loop.run_forever, name="verifier-client", daemon=True)
                self._thread.start()
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result()

    def grade(self, tasks: Sequence[Task | Mapping[str, Any]], timeout_s: float | None = None) -> list[dict[str, Any]]:
        return self._run(self._async.grade(tasks, timeout_s))

    def grade_detailed(self, tasks: Sequence[Task | Mapping[str, Any]], timeout_s: float | None = None) -> GradeReport:
        return self._run(self._async.grade_detailed(tasks, timeout_s))

    def server_info(self, timeout_s: float = 10.0) -> pb.ServerInfo:
        return self._run(self._async.server_info(timeout_s))

    def execute(self, code: str, language: str = "python", stdin: str = "", files: Mapping[str, str] | None = None,
                time_limit_s: float = 0.0, memory_limit_mb: int = 0, max_output_bytes: int = 0,
                timeout_s: float | None = None) -> dict[str, Any]:
        """See AsyncVerifierClient.execute."""
        return self._run(self._async.execute(code, language, stdin, files, time_limit_s, memory_limit_mb,
                                             max_output_bytes, timeout_s))

    def session(self, language: str = "python", files: Mapping[str, str] | None = None, time_limit_s: float = 0.0,
                memory_limit_mb: int = 0, max_output_bytes: int = 0, idle_ttl_s: float = 0.0, replay: bool = False,
                timeout_s: float | None = None, environment: str = "", snapshot: str = "") -> Session:
        """See AsyncVerifierClient.session: ``with client.session("python") as s: s.run("x = 41")``."""
        inner = self._async.session(language, files, time_limit_s, memory_limit_mb, max_output_bytes, idle_ttl_s,
                                    replay, timeout_s, environment, snapshot)
        return Session(self, inner)

    def close(self) -> None:
        if self._loop is not None:
            self._run(self._async.close())
            self._loop.call_soon_threadsafe(self._loop.stop)
            if self._thread is not None:
                self._thread.join(timeout=5)
            self._loop.close()
            self._loop = None

    def __enter__(self) -> "VerifierClient":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Session:
    """The synchronous form of AsyncSession, on its VerifierClient's event-loop thread."""

    def __init__(self, client: VerifierClient, inner: AsyncSession):
        self._client, self._inner = client, inner
        client._run(inner.open())

    @property
    def id(self) -> str:
        return self._inner.id

    def run(self, code: str, timeout_s: float | None = None) -> CellResult:
        return self._client._run(self._inner.run(code, timeout_s))

    def read_file(self, path: str, max_bytes: int = 0) -> bytes:
        return self._client._run(self._inner.read_file(path, max_bytes))

    def shell(self, command: str, time_limit_s: float = 0.0, max_output_bytes: int = 0,
              timeout_s: float | None = None) -> ShellResult:
        return self._client._run(self._inner.shell(command, time_limit_s, max_output_bytes, timeout_s))

    def write_file(self, path: str, data: bytes | str) -> int:
        return self._client._run(self._inner.write_file(path, data))

    def list_dir(self, path: str = "", max_entries: int = 0) -> dict[str, Any]:
        return self._client._run(self._inner.list_dir(path, max_entries))

    def grade(self, task: Mapping[str, Any], timeout_s: float | None = None) -> dict[str, Any]:
        return self._client._run(self._inner.grade(task, timeout_s))

    def fork(self, n: int, timeout_s: float | None = None) -> list[Session]:
        """See AsyncSession.fork; close each (or use each in a ``with``)."""
        return [Session(self._client, inner) for inner in self._client._run(self._inner.fork(n, timeout_s))]

    def snapshot(self, ttl_s: float = 0.0) -> str:
        return self._client._run(self._inner.snapshot(ttl_s))

    def close(self) -> None:
        self._client._run(self._inner.close())

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

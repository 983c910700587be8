"""The gRPC front end: validation, admission, streaming, health, reflection, auth, drain on SIGTERM.

One asyncio event loop holds every call; it never runs sympy or blocks on Docker (the engine hands
math to worker processes and code to sandboxes).
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import importlib.metadata
import ipaddress
import logging
import os
import signal
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import grpc
from grpc_health.v1 import _async as health_aio
from grpc_health.v1 import health_pb2, health_pb2_grpc
from google.protobuf.message import DecodeError, Message
from grpc_reflection.v1alpha import reflection

from verifier.config import ServerConfig
from verifier.engine import Draining, Engine, Overloaded
from verifier.api.execute import execute_response, execute_task
from verifier.execute_wire import request_from_proto, response_to_proto
from verifier.metrics import Metrics
from verifier.session_wire import cell_to_proto, grade_task_from_proto, shell_to_proto
from verifier.sessions import (FORWARD_TIMEOUT_S, FORWARDED_KEY, ChangesTooLarge, ReplyTooLarge, SessionLost,
                               SessionNotFound, SessionRegistry, check_reply, check_routing, peer_tls_name,
                               reply_max_bytes)
from sandbox.contract import Task, TaskError
from verifier.schema import limits_to_proto, result_to_proto, validate_tasks
from verifier.v1 import verifier_pb2 as pb
from verifier.v1 import verifier_pb2_grpc as pb_grpc

if TYPE_CHECKING:
    from verifier.api.http import HttpFrontEnd

log = logging.getLogger("verifier.api.server")

SERVICE = "verifier.v1.Verifier"
HEALTH_MATH = SERVICE + "/math"
HEALTH_CODE = SERVICE + "/code"


def _version(dist: str) -> str:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


class Malformed:
    """A request whose bytes are not a valid message (bad UTF-8, corrupt wire format)."""

    def __init__(self, reason: str):
        self.reason = reason


def _lenient(message_type, observe_size=None):
    """A request deserializer that never raises: gRPC would answer UNKNOWN and log a traceback for a
    client's malformed bytes, where the client deserves INVALID_ARGUMENT saying what is wrong.
    `observe_size` gets the request's byte count (free here; ByteSize() on a parsed 64 MiB request
    would serialize it again on the event loop)."""
    def parse(data: bytes):
        if observe_size is not None:
            observe_size(len(data))
        try:
            return message_type.FromString(data)
        except DecodeError as exc:
            return Malformed(str(exc).split(": ", 1)[-1][:200])
    return parse


def add_service(servicer: pb_grpc.VerifierServicer, server: grpc.aio.Server) -> None:
    """verifier_pb2_grpc.add_VerifierServicer_to_server with lenient request deserializers."""
    engine = getattr(servicer, "engine", None)
    sizes = engine.metrics.request_bytes.observe if engine is not None else None
    handlers = {
        "Grade": grpc.unary_unary_rpc_method_handler(
            servicer.Grade, request_deserializer=_lenient(pb.GradeRequest, sizes),
            response_serializer=pb.GradeResponse.SerializeToString),
        "GradeStream": grpc.unary_stream_rpc_method_handler(
            servicer.GradeStream, request_deserializer=_lenient(pb.GradeRequest, sizes),
            response_serializer=pb.GradeResult.SerializeToString),
        "GetServerInfo": grpc.unary_unary_rpc_method_handler(
            servicer.GetServerInfo, request_deserializer=_lenient(pb.GetServerInfoRequest),
            response_serializer=pb.ServerInfo.SerializeToString),
        "Execute": grpc.unary_unary_rpc_method_handler(
            servicer.Execute, request_deserializer=_lenient(pb.ExecuteRequest),
            response_serializer=pb.ExecuteResponse.SerializeToString),
    }
    for name, request, response in (("CreateSession", pb.CreateSessionRequest, pb.CreateSessionResponse),
                                    ("RunCell", pb.RunCellRequest, pb.RunCellResponse),
                                    ("ReadSessionFile", pb.ReadSessionFileRequest, pb.ReadSessionFileResponse),
                                    ("CloseSession", pb.CloseSessionRequest, pb.CloseSessionResponse),
                                    ("RunShell", pb.RunShellRequest, pb.RunShellResponse),
                                    ("WriteSessionFile", pb.WriteSessionFileRequest, pb.WriteSessionFileResponse),
                                    ("ListSessionDir", pb.ListSessionDirRequest, pb.ListSessionDirResponse),
                                    ("GradeSession", pb.GradeSessionRequest, pb.GradeSessionResponse),
                                    ("ForkSession", pb.ForkSessionRequest, pb.ForkSessionResponse),
                                    ("SnapshotSession", pb.SnapshotSessionRequest, pb.SnapshotSessionResponse)):
        handlers[name] = grpc.unary_unary_rpc_method_handler(
            getattr(servicer, name), request_deserializer=_lenient(request), response_serializer=response.SerializeToString)
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(SERVICE, handlers),))
    server.add_registered_method_handlers(SERVICE, handlers)


MAX_PEERS = 64  # channels to other replicas kept open at once


class VerifierService(pb_grpc.VerifierServicer):
    """Implements verifier.v1.Verifier on top of the engine."""

    def __init__(self, engine: Engine, sessions: SessionRegistry | None = None):
        self.engine = engine
        self.sessions = sessions
        # Other replicas, for forwarded session calls: address -> (channel, stub), closed at shutdown.
        self._peers: dict[str, tuple[grpc.aio.Channel, pb_grpc.VerifierStub]] = {}
        self._closing: set[asyncio.Task] = set()  # evicted peer channels finishing their calls

    async def _tasks(self, request: pb.GradeRequest, context, method: str) -> list[Task]:
        """The request's tasks as models, each decoded once (validate_tasks), or the call aborted with
        the status that says why."""
        m = self.engine.metrics
        if isinstance(request, Malformed):
            m.rejections.labels("invalid").inc()
            await self._abort(context, method, grpc.StatusCode.INVALID_ARGUMENT, f"request: malformed message: {request.reason}")
        m.batch_items.observe(len(request.tasks))
        if self.engine.draining:
            m.rejections.labels("draining").inc()
            await self._abort(context, method, grpc.StatusCode.UNAVAILABLE, "server is draining; retry on another replica")
        try:
            models = validate_tasks(request.tasks, self.engine.limits(), request.test_sets)
        except TaskError as exc:
            m.rejections.labels("invalid").inc()
            await self._abort(context, method, grpc.StatusCode.INVALID_ARGUMENT, str(exc))
        m.test_sets.inc(len(request.test_sets))
        return models

    async def _abort(self, context, method: str, code: grpc.StatusCode, details: str, retry_after_s: float = 0.0):
        self.engine.metrics.rpcs.labels(method, code.name).inc()
        if retry_after_s:
            ms = str(int(retry_after_s * 1000))
            context.set_trailing_metadata((("grpc-retry-pushback-ms", ms), ("retry-after-ms", ms)))
        await context.abort(code, details)

    async def _overload(self, exc: Exception, context, method: str):
        if isinstance(exc, Overloaded):
            await self._abort(context, method, grpc.StatusCode.RESOURCE_EXHAUSTED, str(exc), exc.retry_after_s)
        await self._abort(context, method, grpc.StatusCode.UNAVAILABLE, "server is draining; retry on another replica")

    async def Grade(self, request, context):
        tasks = await self._tasks(request, context, "Grade")
        try:
            results = await self.engine.grade(tasks)
        except (Overloaded, Draining) as exc:
            await self._overload(exc, context, "Grade")
        self.engine.metrics.rpcs.labels("Grade", "OK").inc()
        return pb.GradeResponse(results=[result_to_proto(r) for r in results])

    async def GradeStream(self, request, context):
        tasks = await self._tasks(request, context, "GradeStream")
        try:
            async with contextlib.aclosing(self.engine.grade_stream(tasks)) as stream:
                async for result in stream:
                    yield result_to_proto(result)
        except (Overloaded, Draining) as exc:
            await self._overload(exc, context, "GradeStream")
        self.engine.metrics.rpcs.labels("GradeStream", "OK").inc()

    async def Execute(self, request, context):
        """Run one program (docs/service.md "Execute"); a bad field is INVALID_ARGUMENT naming it."""
        m = self.engine.metrics
        if isinstance(request, Malformed):
            m.rejections.labels("invalid").inc()
            await self._abort(context, "Execute", grpc.StatusCode.INVALID_ARGUMENT, f"request: malformed message: {request.reason}")
        if self.engine.draining:
            m.rejections.labels("draining").inc()
            await self._abort(context, "Execute", grpc.StatusCode.UNAVAILABLE, "server is draining; retry on another replica")
        try:
            task, files = execute_task(request_from_proto(request), self.engine.limits())
        except TaskError as exc:
            m.rejections.labels("invalid").inc()
            await self._abort(context, "Execute", grpc.StatusCode.INVALID_ARGUMENT, str(exc))
        try:
            result = await self.engine.execute(task, files)
        except (Overloaded, Draining) as exc:
            await self._overload(exc, context, "Execute")
        m.rpcs.labels("Execute", "OK").inc()
        return response_to_proto(execute_response(result))

    # ------------------------------------------------------------ sessions (docs/sessions.md "Sessions")

    async def _session_call(self, method: str, context, request, work, build: Callable[[Any], Message]) -> Message:
        """Run a session call and `build` its reply message, held to the reply bound (verifier/sessions.py
        `reply_max_bytes`, where the reply is encoded); map its failures to status codes
        (verifier/sessions.py says which)."""
        m = self.engine.metrics
        if isinstance(request, Malformed):
            m.rejections.labels("invalid").inc()
            await self._abort(context, method, grpc.StatusCode.INVALID_ARGUMENT, f"request: malformed message: {request.reason}")
        if self.sessions is None:
            await self._abort(context, method, grpc.StatusCode.UNIMPLEMENTED, "sessions are not served here")
        try:
            reply = build(await work(self._caller(context, method)))
            check_reply(reply.ByteSize(), self.engine.config)
        except TaskError as exc:
            m.rejections.labels("invalid").inc()
            await self._abort(context, method, grpc.StatusCode.INVALID_ARGUMENT, str(exc))
        except (Overloaded, Draining) as exc:
            await self._overload(exc, context, method)
        except SessionNotFound as exc:
            await self._abort(context, method, grpc.StatusCode.NOT_FOUND, str(exc))
        except SessionLost as exc:
            await self._abort(context, method, grpc.StatusCode.FAILED_PRECONDITION, str(exc))
        except (ChangesTooLarge, ReplyTooLarge) as exc:  # the session's own files or output: no retry hint
            await self._abort(context, method, grpc.StatusCode.RESOURCE_EXHAUSTED, str(exc))
        except RuntimeError as exc:
            await self._abort(context, method, grpc.StatusCode.UNAVAILABLE, str(exc))
        m.rpcs.labels(method, "OK").inc()
        return reply

    async def CreateSession(self, request, context):
        def body() -> dict:
            fields = {f.name: getattr(request, f.name) for f in pb.CreateSessionRequest.DESCRIPTOR.fields}
            return {**fields, "files": dict(request.files)}
        return await self._session_call("CreateSession", context, request,
                                        lambda token: self.sessions.create(token, body()),
                                        lambda created: pb.CreateSessionResponse(**created))

    def _caller(self, context, method: str) -> str | bytes:
        """Whose session calls these are: the owner digest a verified forward carries (`_TokenAuth` let
        it in on that proof), on a call replicas forward (FORWARDED_CALLS); else the caller's token.
        CreateSession is never forwarded, so a proof means nothing there, as on HTTP (red-team
        finding: a session created with a proof belonged to that proof's owner, not the caller)."""
        if method not in FORWARDED_CALLS:
            return _caller_token(context)
        proof = dict(context.invocation_metadata() or ()).get(FORWARDED_KEY)
        forwarded = self.sessions.forwarded_owner(proof) if self.sessions else None
        return _caller_token(context) if forwarded is None else forwarded

    async def _forward(self, method: str, request, context, check: Callable[[SessionRegistry], None]):
        """The owner's answer when the session lives on another replica; None when this replica
        answers (docs/architecture.md "Sessions": a plain stub behind a Service keeps affinity).
        Before any connection the call is checked as its owner checks it (`check`), so what the
        owner would refuse is refused here, never relayed (as verifier/api/session_routes.py `_forward`).
        With TLS on, the call to the owner is TLS too (`_peer_channel`)."""
        if self.sessions is None or isinstance(request, Malformed):
            return None
        metadata = tuple(context.invocation_metadata() or ())
        try:
            owner = await self.sessions.owner(request.session_id)
        except SessionNotFound as exc:
            await self._abort(context, method, grpc.StatusCode.NOT_FOUND, str(exc))
        if owner is None or any(k == FORWARDED_KEY for k, _ in metadata):
            return None
        try:
            check(self.sessions)
        except TaskError as exc:
            self.engine.metrics.rejections.labels("invalid").inc()
            await self._abort(context, method, grpc.StatusCode.INVALID_ARGUMENT, str(exc))
        remaining = context.time_remaining()
        try:
            reply = await getattr(self.peer(owner.grpc_address), method)(
                request, timeout=min(FORWARD_TIMEOUT_S, remaining or FORWARD_TIMEOUT_S),
                metadata=[(FORWARDED_KEY, self.sessions.forward_proof(_caller_token(context), owner))])  # never the token
        except grpc.aio.AioRpcError as exc:
            if exc.code() == grpc.StatusCode.RESOURCE_EXHAUSTED and "larger than max" in (exc.details() or ""):
                # gRPC's own receive (or the owner's send) limit: an owner's reply over the bound a reply
                # has here, its one home; never "session lost" (the session goes on)
                await self._abort(context, method, grpc.StatusCode.RESOURCE_EXHAUSTED,
                                  f"the reply of the replica that owns this session ({owner.grpc_address}) is over the "
                                  f"{reply_max_bytes(self.engine.config)} bytes a session call's reply may be "
                                  f"(--max-request-bytes) ({exc.details()}); ask for less (max_output_bytes, "
                                  "max_bytes, max_entries)")
            if exc.code() == grpc.StatusCode.UNAVAILABLE:
                await self._abort(context, method, grpc.StatusCode.FAILED_PRECONDITION,
                                  f"session lost: the replica that owned it ({owner.grpc_address}) cannot be reached; "
                                  "sessions are never recreated")
            await self._abort(context, method, exc.code(), exc.details() or "")
        self.engine.metrics.rpcs.labels(method, "OK").inc()
        return reply

    def peer(self, address: str) -> pb_grpc.VerifierStub:
        """A stub on the channel to another replica, made on first use and kept for later calls."""
        if address not in self._peers:
            if len(self._peers) >= MAX_PEERS:  # replicas come and go over a server's life; ids name only real ones
                old, _ = self._peers.pop(next(iter(self._peers)))
                task = asyncio.get_running_loop().create_task(old.close(FORWARD_TIMEOUT_S))  # its calls finish
                self._closing.add(task)
                task.add_done_callback(self._closing.discard)
            channel = self._peer_channel(address)
            self._peers[address] = (channel, pb_grpc.VerifierStub(channel))
        return self._peers[address][1]

    def _peer_channel(self, address: str) -> grpc.aio.Channel:
        """A channel to another replica: TLS when this server serves TLS, trusting the deployment's
        own certificate (every replica serves it). A peer is reached by pod IP, which a certificate
        rarely names, so the name checked is `peer_tls_name`'s (--peer-tls-name, else the
        certificate's own), as for HTTP forwarding (verifier/api/session_routes.py `_peer_tls`)."""
        cfg = self.engine.config
        # An owner's reply is read up to what the owner may send (verifier/sessions.py reply_max_bytes),
        # not gRPC's default 4 MiB (red team rt30r: a bigger reply was RESOURCE_EXHAUSTED here only).
        sizes = [("grpc.max_receive_message_length", reply_max_bytes(cfg)),
                 ("grpc.max_send_message_length", cfg.max_request_bytes)]
        if not (cfg.tls_cert and cfg.tls_key):
            return grpc.aio.insecure_channel(address, options=sizes)
        with open(cfg.tls_cert, "rb") as f:
            creds = grpc.ssl_channel_credentials(root_certificates=f.read())
        return grpc.aio.secure_channel(address, creds, options=[*sizes, ("grpc.ssl_target_name_override",
                                                                          peer_tls_name(cfg))])

    async def close_peers(self) -> None:
        """Close every channel to another replica (server shutdown, after in-flight calls ended)."""
        peers, self._peers = list(self._peers.values()), {}
        await asyncio.gather(*(channel.close() for channel, _ in peers), *self._closing, return_exceptions=True)

    async def RunCell(self, request, context):
        if (forwarded := await self._forward("RunCell", request, context,
                                                lambda s: s.check_cell(request.code))) is not None:
            return forwarded
        return await self._session_call("RunCell", context, request,
                                        lambda token: self.sessions.run(token, request.session_id, request.code),
                                        cell_to_proto)

    async def ReadSessionFile(self, request, context):
        if (forwarded := await self._forward(
                "ReadSessionFile", request, context, lambda s: s.check_read(request.path, request.max_bytes))) is not None:
            return forwarded
        return await self._session_call("ReadSessionFile", context, request, lambda token: self.sessions.read(
            token, request.session_id, request.path, request.max_bytes),
            lambda reply: pb.ReadSessionFileResponse(data=reply["data"], truncated=reply["truncated"]))

    async def CloseSession(self, request, context):
        if (forwarded := await self._forward("CloseSession", request, context, lambda s: None)) is not None:
            return forwarded
        return await self._session_call("CloseSession", context, request,
                                        lambda token: self.sessions.close(token, request.session_id),
                                        lambda closed: pb.CloseSessionResponse(closed=closed))

    # Sessions on a repository environment (docs/sessions.md "Sessions on an environment").

    async def RunShell(self, request, context):
        def check(s: SessionRegistry) -> None:
            s.check_shell(request.command, request.time_limit_s, request.max_output_bytes)
        if (forwarded := await self._forward("RunShell", request, context, check)) is not None:
            return forwarded
        return await self._session_call("RunShell", context, request, lambda token: self.sessions.shell(
            token, request.session_id, request.command, request.time_limit_s, request.max_output_bytes), shell_to_proto)

    async def WriteSessionFile(self, request, context):
        if (forwarded := await self._forward("WriteSessionFile", request, context,
                                                lambda s: s.check_write(request.path, request.data))) is not None:
            return forwarded
        return await self._session_call("WriteSessionFile", context, request, lambda token: self.sessions.write(
            token, request.session_id, request.path, request.data),
            lambda reply: pb.WriteSessionFileResponse(size=reply["size"]))

    async def ListSessionDir(self, request, context):
        if (forwarded := await self._forward("ListSessionDir", request, context,
                                                lambda s: s.check_list(request.path, request.max_entries))) is not None:
            return forwarded
        return await self._session_call("ListSessionDir", context, request, lambda token: self.sessions.listdir(
            token, request.session_id, request.path, request.max_entries),
            lambda reply: pb.ListSessionDirResponse(entries=[pb.SessionDirEntry(**e) for e in reply["entries"]],
                                                    truncated=reply["truncated"]))

    async def GradeSession(self, request, context):
        task = {**grade_task_from_proto(request.task), **({"id": request.id} if request.id else {})} \
            if not isinstance(request, Malformed) else {}
        if (forwarded := await self._forward("GradeSession", request, context,
                                                lambda s: s.check_grade(task))) is not None:
            return forwarded
        return await self._session_call("GradeSession", context, request, lambda token: self.sessions.grade(
            token, request.session_id, task), lambda reply: pb.GradeSessionResponse(
                result=result_to_proto({k: v for k, v in reply.items() if k != "patch"}), patch=reply.get("patch", "")))

    async def ForkSession(self, request, context):
        """docs/sessions.md "Fork and snapshot": n sessions from this one's files."""
        if (forwarded := await self._forward("ForkSession", request, context,
                                                lambda s: s.check_fork(request.n))) is not None:
            return forwarded
        return await self._session_call("ForkSession", context, request, lambda token: self.sessions.fork(
            token, request.session_id, request.n),
            lambda made: pb.ForkSessionResponse(sessions=[pb.CreateSessionResponse(**m) for m in made]))

    async def SnapshotSession(self, request, context):
        if (forwarded := await self._forward("SnapshotSession", request, context,
                                                lambda s: s.check_snapshot(request.ttl_s))) is not None:
            return forwarded
        return await self._session_call("SnapshotSession", context, request, lambda token: self.sessions.snapshot(
            token, request.session_id, request.ttl_s), lambda kept: pb.SnapshotSessionResponse(**kept))

    async def GetServerInfo(self, request, context):
        fields = set(pb.LanguageInfo.DESCRIPTOR.fields_by_name)
        langs = [pb.LanguageInfo(**{k: v for k, v in lang.items() if k in fields}) for lang in self.engine.languages().values()]
        return pb.ServerInfo(
            version=_version("grpo-verifier"), math_verify_version=_version("math-verify"),
            sympy_version=_version("sympy"), limits=limits_to_proto(self.engine.limits()), kinds=["math", "code"],
            languages=langs, code_available=self.engine.code_available)


def _caller_token(context) -> str:
    """The caller's bearer token (sessions are bound to it); empty when it sent none."""
    sent = dict(context.invocation_metadata() or ()).get("authorization", "")
    return sent.partition(" ")[2] if sent.lower().startswith("bearer ") else ""


# The session calls a replica forwards to their owner (docs/sessions.md "Sessions").
FORWARDED_CALLS = ("RunCell", "ReadSessionFile", "CloseSession", "RunShell", "WriteSessionFile", "ListSessionDir",
                   "GradeSession", "ForkSession", "SnapshotSession")
FORWARDED_METHODS = frozenset(f"/{SERVICE}/{m}" for m in FORWARDED_CALLS)


class _TokenAuth(grpc.aio.ServerInterceptor):
    """Bearer-token check; health checks stay open so orchestrators can probe without the secret, and
    a session call another replica forwarded is let in on that replica's proof (it carries no token)."""

    def __init__(self, token: str, sessions: SessionRegistry | None = None):
        self._expected = f"Bearer {token}".encode()
        self._sessions = sessions

        async def deny(request, context):
            await context.abort(grpc.StatusCode.UNAUTHENTICATED, "missing or wrong bearer token")

        self._deny_unary = grpc.unary_unary_rpc_method_handler(deny)
        self._deny_stream = grpc.unary_stream_rpc_method_handler(deny)

    async def intercept_service(self, continuation, details):
        if details.method.startswith("/grpc.health.v1.Health/"):
            return await continuation(details)
        metadata = dict(details.invocation_metadata or ())
        if hmac.compare_digest(metadata.get("authorization", "").encode(), self._expected):
            return await continuation(details)
        if (details.method in FORWARDED_METHODS and self._sessions is not None
                and self._sessions.forwarded_owner(metadata.get(FORWARDED_KEY)) is not None):
            return await continuation(details)
        return self._deny_stream if details.method.endswith("/GradeStream") else self._deny_unary



def _is_loopback(host: str) -> bool:
    if host in ("localhost", ""):
        return host == "localhost"
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_bind_safety(config: ServerConfig) -> None:
    """Refuse to expose an unauthenticated, unencrypted grader beyond this machine by accident."""
    if _is_loopback(config.host) or config.allow_insecure_bind:
        return
    if config.resolved_token() or (config.tls_cert and config.tls_key):
        return
    raise SystemExit(f"refusing to bind {config.host}: set --token/--token-file or --tls-cert/--tls-key, "
                     "or pass --allow-insecure-bind if the network is trusted")


def _server_options(config: ServerConfig) -> list[tuple[str, int]]:
    return [
        ("grpc.max_receive_message_length", config.max_request_bytes),
        ("grpc.max_send_message_length", config.max_request_bytes),
        ("grpc.so_reuseport", 0),
        ("grpc.keepalive_permit_without_calls", 1),
        ("grpc.http2.min_recv_ping_interval_without_data_ms", 10_000),
        ("grpc.http2.max_ping_strikes", 2),
        ("grpc.max_connection_age_ms", int(config.max_connection_age_s * 1000)),
        ("grpc.max_connection_age_grace_ms", int(config.grace_s * 1000)),
    ]


class Server:
    """The running service: gRPC port, health, metrics, and the engine behind them."""

    def __init__(self, config: ServerConfig):
        check_bind_safety(config)
        if config.max_tasks_per_call > config.max_queued_items:
            raise SystemExit(f"--max-tasks-per-call ({config.max_tasks_per_call}) must not exceed --max-queued-items "
                             f"({config.max_queued_items}): a full-size call could never be admitted")
        self.config = config
        self.metrics = Metrics()
        self.engine = Engine(config, self.metrics)
        self.health = health_aio.HealthServicer()
        self.port = 0
        self._grpc: grpc.aio.Server | None = None
        self._metrics_http = None
        self.http: HttpFrontEnd | None = None  # when --http-port is set
        self.sessions: SessionRegistry | None = None
        self._stopping: asyncio.Event | None = None
        self.service: VerifierService | None = None

    async def start(self) -> None:
        try:
            check_routing(self.config)
        except ValueError as e:
            raise SystemExit(f"verifier: {e}") from None
        await self.engine.start()
        token = self.config.resolved_token()
        if self.config.code:
            self.sessions = SessionRegistry(self.engine, self.config)
        server = self._grpc = grpc.aio.server(options=_server_options(self.config),
                                              interceptors=[_TokenAuth(token, self.sessions)] if token else [])
        self.service = VerifierService(self.engine, self.sessions)
        add_service(self.service, server)
        health_pb2_grpc.add_HealthServicer_to_server(self.health, server)
        reflection.enable_server_reflection(
            (pb.DESCRIPTOR.services_by_name["Verifier"].full_name, health_pb2.DESCRIPTOR.services_by_name["Health"].full_name,
             reflection.SERVICE_NAME), server)
        try:
            if self.config.tls_cert and self.config.tls_key and self.config.advertise_address:
                peer_tls_name(self.config)  # a deployment that cannot forward says so at start, not at its first forward
            self._bind_ports(server)
            if self.config.http_port:
                from verifier.api.http import HttpFrontEnd

                self.http = http = HttpFrontEnd(self.engine, self.config, token)
                http.sessions = self.sessions
                await http.start()
        except (OSError, RuntimeError, ValueError) as e:
            await self.engine.close()
            raise SystemExit(f"verifier: {e}") from None
        self.metrics.build_info.labels(_version("grpo-verifier"), _version("math-verify"), _version("sympy")).set(1)
        await server.start()
        await self._update_health()
        self._stopping = asyncio.Event()
        asyncio.get_running_loop().create_task(self._watch_health())

    def _started(self) -> tuple[grpc.aio.Server, asyncio.Event]:
        """The gRPC server and the stop event that start() made."""
        if self._grpc is None or self._stopping is None:
            raise RuntimeError("Server.start() was not awaited")
        return self._grpc, self._stopping

    def _bind_ports(self, server: grpc.aio.Server) -> None:
        """Bind gRPC and metrics; a port that is taken is one line naming it, not a traceback."""
        address = f"{self.config.host}:{self.config.port}"
        try:
            if self.config.tls_cert and self.config.tls_key:
                with open(self.config.tls_key, "rb") as k, open(self.config.tls_cert, "rb") as c:
                    creds = grpc.ssl_server_credentials([(k.read(), c.read())])
                self.port = server.add_secure_port(address, creds)
            else:
                self.port = server.add_insecure_port(address)
        except RuntimeError:
            raise RuntimeError(f"cannot listen on {address} (port taken or address not local); pass --port") from None
        if self.config.metrics_port:
            where = f"{self.config.metrics_host}:{self.config.metrics_port}"
            try:
                self._metrics_http = self.metrics.serve(self.config.metrics_host, self.config.metrics_port)
            except OSError as e:
                raise OSError(f"cannot serve metrics on {where} ({e.strerror}); pass --metrics-port "
                              "with a free port, or 0 to disable metrics") from None

    async def _update_health(self) -> None:
        serving, not_serving = health_pb2.HealthCheckResponse.SERVING, health_pb2.HealthCheckResponse.NOT_SERVING
        draining = self.engine.draining
        math_ok = self.engine.math.alive and not draining
        await self.health.set(HEALTH_MATH, serving if math_ok else not_serving)
        await self.health.set(HEALTH_CODE, serving if self.engine.code_available and not draining else not_serving)
        await self.health.set(SERVICE, serving if math_ok else not_serving)
        await self.health.set("", not_serving if draining else serving)

    async def _watch_health(self) -> None:
        stopping = self._started()[1]
        while not stopping.is_set():
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(stopping.wait(), timeout=2.0)
            if not stopping.is_set():
                self.engine.math.heal()
                await self._update_health()

    async def drain_and_stop(self) -> None:
        """SIGTERM: report NOT_SERVING, refuse new calls, let in-flight calls finish (up to grace_s)."""
        log.info("draining: new calls are refused, in-flight calls get up to %.0f s", self.config.grace_s)
        server, stopping = self._started()
        self.engine.draining = True
        stopping.set()
        await self._update_health()
        await asyncio.sleep(self.config.drain_delay_s)  # still listening: new calls get UNAVAILABLE from us
        await asyncio.gather(server.stop(self.config.grace_s), *([self.http.stop()] if self.http else []))
        if self.sessions is not None:  # after in-flight cells finished: end every session, containers removed
            await self.sessions.close_all()
        if self.service is not None:
            await self.service.close_peers()
        await self.engine.close()
        if self._metrics_http is not None:
            self._metrics_http.shutdown()

    async def wait(self) -> None:
        await self._started()[0].wait_for_termination()


async def _run(config: ServerConfig, server: Server) -> None:
    await server.start()
    print(f"verifier listening on {config.host}:{server.port}"
          + (f", metrics on http://{config.metrics_host}:{config.metrics_port}/metrics" if config.metrics_port else "")
          + (f", HTTP/JSON on {server.http.scheme}://{config.host}:{server.http.port}" if server.http else "")
          + (", code grading on" if server.engine.code_available else f", code grading off: {server.engine.code_unavailable_reason()}"),
          flush=True)
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    if config.stop_on_stdin_eof:
        _stop_on_eof(loop, sys.stdin.fileno(), stop)
    await stop.wait()
    await server.drain_and_stop()


def _stop_on_eof(loop: asyncio.AbstractEventLoop, fd: int, stop: asyncio.Event) -> None:
    """Set `stop` once `fd` reads end of file: the parent holding the pipe's other end is gone
    (its death closes it, however it died), so the server drains as on SIGTERM, sessions and
    sandboxes removed, instead of outliving it. Whatever the parent writes is read and dropped."""

    def readable() -> None:
        try:
            data = os.read(fd, 4096)
        except OSError:
            data = b""
        if not data:
            loop.remove_reader(fd)
            log.info("standard input closed: draining (stop_on_stdin_eof)")
            stop.set()

    loop.add_reader(fd, readable)


def serve(config: ServerConfig) -> None:
    """Start workers (before any gRPC thread exists), then serve until SIGTERM or SIGINT."""
    logging.basicConfig(level=config.log_level, stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    server = Server(config)
    server.engine.start_workers()
    asyncio.run(_run(config, server))

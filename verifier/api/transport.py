"""The HTTP/JSON transport: the app, auth, JSON bodies, admission, parking and health (docs/service.md "HTTP/JSON").

Every route group (verifier/api/http.py's /v1 routes, verifier/api/trainer_routes.py's trainer
dialects, verifier/api/session_routes.py's sessions) sits over one `HttpTransport`: the bearer token
(also as HTTP Basic auth's password), a body bounded by --max-request-bytes before it is read, the
engine's one admission (429 full, 503 draining, 499 on hang-up), a client's own deadline (a 504 the
client retries, its work parked for the retry: `Parking`, keyed by sandbox/keys.py `reuse_key`),
and the gRPC health statuses as HTTP codes.

Runs in the gRPC server's own asyncio loop (uvicorn driven by hand, so it installs no signal
handlers of its own), so both ports share one engine: one admission bound, one result cache, one
set of workers and sandboxes.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import hmac
import json
import logging
import math
import socket
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, TypeVar

import uvicorn
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from sandbox.contract import CALL_TEST_KEYS, CodeTask, Task, TaskError, parse_tasks
from sandbox.keys import reuse_key
from verifier.config import ServerConfig
from verifier.engine import Draining, Engine, Overloaded
from verifier.sessions import FORWARDED_KEY, SessionRegistry
from verifier.schema import result_json
from verifier.v1 import verifier_pb2 as pb

log = logging.getLogger("verifier.api.http")

# Keys a JSON task may carry: the proto's fields, so the two front ends accept the same tasks.
_COMMON_KEYS = {"id", "kind", "timeout_s"}
TASK_KEYS = {"math": _COMMON_KEYS | set(pb.MathTask.DESCRIPTOR.fields_by_name),
             "code": _COMMON_KEYS | set(pb.CodeTask.DESCRIPTOR.fields_by_name)}
TEST_KEYS = set(pb.CodeTest.DESCRIPTOR.fields_by_name)
_LARGE_BODY = 1 << 20  # parse bodies beyond this off the event loop
_ADMISSION_PATIENCE = 3  # client deadlines a parked batch waits for admission (verl retries a 504 twice)
T = TypeVar("T")
# One route: (path, method, handler, whether it needs the token).
RouteSpec = tuple[str, str, Callable[[Request], Awaitable[Response]], bool]


class HttpError(Exception):
    """An error answer: status code, message, and the field it is about (when one is)."""

    def __init__(self, status: int, message: str, field: str = "", headers: Mapping[str, str] | None = None):
        super().__init__(message)
        self.status, self.message, self.field, self.headers = status, message, field, dict(headers or {})

    def response(self) -> JSONResponse:
        body: dict[str, Any] = {"error": self.message}
        if self.field:
            body["field"] = self.field
        return JSONResponse(body, status_code=self.status, headers=self.headers)


def check_task_keys(task: Any, where: str) -> None:
    """A typo'd key (``glod``) would otherwise grade against an empty gold: refuse it, naming it exactly
    (``tasks[0].glod``, ``tasks[0].call_tests[1].expectd``). The contract's own check (parse_tasks) then
    names only the object that holds it, listing every unknown key."""
    if not isinstance(task, Mapping):
        return  # parse_task names the type error
    kind = task.get("kind")
    allowed = TASK_KEYS.get(kind) if isinstance(kind, str) else None
    if allowed is None:
        return  # parse_task names the bad kind
    for key in task:
        if key not in allowed:
            raise TaskError(f"{where}.{key}", f"unknown field for a {task['kind']} task")
    if task["kind"] != "code":
        return
    for name, keys, what in (("tests", TEST_KEYS, "a test"), ("call_tests", CALL_TEST_KEYS, "a call test")):
        items = task.get(name)
        for j, item in enumerate(items if isinstance(items, list) else ()):
            for key in item if isinstance(item, Mapping) else ():
                if key not in keys:
                    raise TaskError(f"{where}.{name}[{j}].{key}", f"unknown field of {what}")


class HttpTransport:
    """The Starlette app over an engine, and the uvicorn server that serves it; the route groups call
    its helpers (read_json, admitted, grade_tasks, run_program) and add their routes (`serve`)."""

    def __init__(self, engine: Engine, config: ServerConfig, token: str = ""):
        self.engine = engine
        self.config = config
        self._token = token.encode()
        self.port = 0
        self._server: uvicorn.Server | None = None
        self._socket: socket.socket | None = None
        self._loop_task: asyncio.Task | None = None
        self.parking = Parking()
        self.sessions: SessionRegistry | None = None  # set by the server when it serves sessions
        self.app = Starlette(routes=[], exception_handlers={HTTPException: self._http_exception})

    def serve(self, routes: Sequence[RouteSpec]) -> None:
        """Add routes to the app, each behind the token check, the error answers and the request counter."""
        for path, method, fn, auth in routes:
            self.app.router.routes.append(Route(path, self._endpoint(path, fn, auth), methods=[method]))

    def health_routes(self) -> list[RouteSpec]:
        return [("/healthz", "GET", self.healthz, False), ("/readyz", "GET", self.readyz, False)]

    # ------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        """Bind (a taken port is one line naming it) and serve in the running loop."""
        where = f"{self.config.host}:{self.config.http_port}"
        try:
            self._socket = _listen(self.config.host.strip("[]") or None, self.config.http_port)
        except OSError as e:
            raise OSError(f"cannot serve HTTP on {where} ({e.strerror or e}); pass --http-port with a free port, "
                          "or 0 to disable the HTTP/JSON port") from None
        self.port = self._socket.getsockname()[1]
        tls = bool(self.config.tls_cert and self.config.tls_key)
        uv_config = uvicorn.Config(
            self.app, lifespan="off", log_config=None, access_log=False, server_header=False,
            timeout_graceful_shutdown=max(1, math.ceil(self.config.grace_s)),
            ssl_certfile=self.config.tls_cert if tls else None, ssl_keyfile=self.config.tls_key if tls else None)
        uv_config.load()
        self._server = uvicorn.Server(uv_config)
        self._server.lifespan = uv_config.lifespan_class(uv_config)
        await self._server.startup(sockets=[self._socket])
        self._loop_task = asyncio.get_running_loop().create_task(self._server.main_loop())

    @property
    def scheme(self) -> str:
        return "https" if self.config.tls_cert and self.config.tls_key else "http"

    async def stop(self) -> None:
        """Stop accepting; in-flight requests get up to grace_s (draining answers new ones 503 before)."""
        if self._server is None or self._socket is None:
            return
        self._server.should_exit = True
        if self._loop_task is not None:
            await self._loop_task
        await self._server.shutdown(sockets=[self._socket])

    def _endpoint(self, route: str, fn: Callable[[Request], Awaitable[Response]], auth: bool):
        """Auth, error answers and the per-route request counter around one handler."""
        async def endpoint(request: Request) -> Response:
            try:
                if auth and not (route.startswith("/v1/sessions/") and self.forwarded_owner(request)):
                    self._authorize(request)  # a verified forward was authorized by the replica it came through
                response = await fn(request)
            except HttpError as e:
                response = e.response()
            except Exception:  # a bug must not drop the connection without an answer
                log.exception("HTTP %s failed", route)
                response = HttpError(500, "internal error; see the server log").response()
            self.engine.metrics.http_requests.labels(route, str(response.status_code)).inc()
            return response
        return endpoint

    async def _http_exception(self, request: Request, exc: Exception) -> Response:
        """Unknown paths and methods (Starlette's HTTPException, the one exception registered for this
        handler): counted under one label, so the label set stays bounded."""
        status, detail = (exc.status_code, exc.detail) if isinstance(exc, HTTPException) else (500, "internal error")
        self.engine.metrics.http_requests.labels("other", str(status)).inc()
        return JSONResponse({"error": detail}, status_code=status)

    def _authorize(self, request: Request) -> None:
        """The gRPC port's bearer token. Also as the password of HTTP Basic auth, because OpenRLHF's and
        slime's clients send no headers but do send ``http://user:TOKEN@host/...`` URL credentials."""
        if not self._token:
            return
        value = presented_token(request)
        if not (value and hmac.compare_digest(value.encode(), self._token)):
            raise HttpError(401, "missing or wrong bearer token", headers={"WWW-Authenticate": 'Bearer realm="verifier"'})

    def forwarded_owner(self, request: Request) -> bytes | None:
        """The owner digest of a session call another replica of this deployment forwarded (its proof
        checks under the route secret: verifier/sessions.py `forwarded_owner`); None for a caller's own call."""
        return self.sessions.forwarded_owner(request.headers.get(FORWARDED_KEY)) if self.sessions else None

    async def read_json(self, request: Request) -> Any:
        """The request body as JSON, bounded by max_request_bytes before it is all read."""
        cap = self.config.max_request_bytes
        too_big = HttpError(413, f"request body exceeds {cap} bytes (--max-request-bytes); split the batch")
        declared = request.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > cap:
            raise too_big
        body = bytearray()
        try:
            async for chunk in request.stream():
                body += chunk
                if len(body) > cap:
                    raise too_big
        except ClientDisconnect:
            raise HttpError(499, "client closed the request") from None
        head = (request.url.path, request.url.query)
        request.state.body = raw = bytes(body)  # what a forwarded session call relays (`_forward`)
        try:
            if len(raw) > _LARGE_BODY:
                request.state.digest, parsed = await asyncio.to_thread(_digest_and_parse, *head, raw)
                return parsed
            request.state.digest, parsed = _digest_and_parse(*head, raw)
            return parsed
        except (ValueError, RecursionError) as e:
            raise HttpError(400, f"request body is not valid JSON: {e}", "body") from None

    def check_serving(self) -> None:
        if self.engine.draining:
            self.engine.metrics.rejections.labels("draining").inc()
            raise HttpError(503, "server is draining; retry on another replica", headers={"Retry-After": "1"})

    def invalid(self, exc: TaskError) -> HttpError:
        self.engine.metrics.rejections.labels("invalid").inc()
        return HttpError(400, str(exc), exc.field)

    def task_models(self, tasks: Sequence[Any]) -> list[Task]:
        """The tasks as models, each decoded once and held to the gRPC port's limits in the same pass
        (sandbox/contract.py parse_tasks); raises TaskError naming the field in the JSON's own terms."""
        limits = self.engine.limits()
        limits.check_count(len(tasks))  # before looking at a huge list
        for i, task in enumerate(tasks):
            check_task_keys(task, f"tasks[{i}]")
        return parse_tasks(tasks, limits)

    async def admitted(self, request: Request, work: Callable[[], Awaitable[Any]], deadline_s: float | None = None) -> Any:
        """Await engine work through the shared admission (429 full, 503 draining); cancelled (items freed) if
        the client hangs up. With `deadline_s` (the client's own deadline, client_deadline_s), an answer not
        ready before it is a 504, which every trainer client retries, and the work goes on, parked: the retry
        (the same request) joins it instead of queueing again (docs/service.md "HTTP/JSON"; README "Plug it into your trainer")."""
        key = getattr(request.state, "digest", None) if deadline_s else None
        job = self.parking.get(key) if key else None
        if job is None:
            job = asyncio.ensure_future(work())
        hangup = asyncio.ensure_future(_disconnected(request))
        answer_in = None if deadline_s is None else max(0.5, deadline_s - _deadline_margin(deadline_s))
        hung_up = False
        try:
            await asyncio.wait({job, hangup}, timeout=answer_in, return_when=asyncio.FIRST_COMPLETED)
            hung_up = hangup.done()
        finally:
            hangup.cancel()
            parked = bool(key and self.parking.holds(key, job))  # others may wait on it: it goes on
            if not job.done() and not parked and (hung_up or not (key and self.parking.park(key, job))):
                job.cancel()
        if hung_up and not job.done():
            raise HttpError(499, "client closed the request")
        if not job.done():
            self.engine.metrics.rejections.labels("client_deadline").inc()
            raise HttpError(504, f"not done within this client's deadline ({deadline_s:.0f} s); the work goes on: "
                                 "send the same request again to collect it", headers={"Retry-After": "1"})
        try:
            return await job
        except asyncio.CancelledError:
            raise HttpError(499, "client closed the request") from None
        except Overloaded as e:
            raise HttpError(429, str(e), headers={"Retry-After": str(max(1, math.ceil(e.retry_after_s)))}) from None
        except Draining:
            raise HttpError(503, "server is draining; retry on another replica", headers={"Retry-After": "1"}) from None

    async def grade_tasks(self, request: Request, tasks: list[Task],
                          deadline_s: float | None = None) -> Sequence[Mapping[str, Any]]:
        """Grade through the shared admission (results as JSON: result_json); cancelled (items freed) if the client hangs up. With a
        client deadline (the trainer dialects), any number of tasks: they go in chunks of max_tasks_per_call,
        each waiting for admission rather than refused, for up to `_ADMISSION_PATIENCE` client deadlines."""
        if deadline_s is None:
            self.engine.metrics.batch_items.observe(len(tasks))
            results = await self.admitted(request, lambda: self.engine.grade(tasks))
        else:
            results = await self.admitted(request, lambda: self._grade_chunks(tasks, deadline_s * _ADMISSION_PATIENCE),
                                          deadline_s)
        return [result_json(r) for r in results]

    async def _grade_chunks(self, tasks: list[Task], patience_s: float) -> list[dict]:
        """All results in order, the tasks admitted in chunks of max_tasks_per_call (the engine's per-call
        bound), each chunk waiting out Overloaded for up to `patience_s` rather than failing the call."""
        loop = asyncio.get_running_loop()
        until = loop.time() + patience_s
        size = self.config.max_tasks_per_call

        async def chunk(part: list[Task]) -> list[dict]:
            self.engine.metrics.batch_items.observe(len(part))
            return await self._patiently(lambda: self.engine.grade(part), until)

        async with asyncio.TaskGroup() as group:  # one chunk failing cancels the rest
            parts = [group.create_task(chunk(tasks[i:i + size])) for i in range(0, len(tasks), size)]
        return [r for part in parts for r in part.result()]

    async def _patiently(self, work: Callable[[], Awaitable[T]], until: float) -> T:
        """`work`'s answer, waiting out Overloaded (a full server) until the loop time `until` rather than
        failing the call: a trainer client retries a 504, never a 429."""
        loop = asyncio.get_running_loop()
        while True:
            try:
                return await work()
            except Overloaded as e:
                if loop.time() + e.retry_after_s > until:
                    raise
                await asyncio.sleep(e.retry_after_s)

    async def run_program(self, request: Request, task: CodeTask, files: dict[str, bytes],
                          deadline_s: float | None = None) -> dict:
        """Run one program (verifier/api/execute.py built `task`) through the shared admission; its result
        (Engine.execute), for the route to map. With a client deadline, as grade_tasks: it waits for
        admission for up to `_ADMISSION_PATIENCE` deadlines, and past the deadline it is a 504, parked."""
        if deadline_s is None:
            return await self.admitted(request, lambda: self.engine.execute(task, files))
        until = asyncio.get_running_loop().time() + deadline_s * _ADMISSION_PATIENCE
        return await self.admitted(request, lambda: self._patiently(lambda: self.engine.execute(task, files), until),
                                   deadline_s)

    # ------------------------------------------------------------ health

    async def healthz(self, request: Request) -> Response:
        """Liveness, as gRPC health's overall ("") status: 503 only while draining."""
        serving = not self.engine.draining
        return JSONResponse({"status": "SERVING" if serving else "NOT_SERVING"}, status_code=200 if serving else 503)

    async def readyz(self, request: Request) -> Response:
        """Readiness, as gRPC health's per-service statuses: 200 while math can be graded."""
        draining = self.engine.draining
        math_ok = self.engine.math.alive and not draining
        code_ok = self.engine.code_available and not draining
        body = {"status": _status(math_ok), "math": _status(math_ok), "code": _status(code_ok)}
        return JSONResponse(body, status_code=200 if math_ok else 503)


def presented_token(request: Request) -> str:
    """The bearer token a request carries: ``Authorization: Bearer T``, or T as HTTP Basic auth's password
    (OpenRLHF and slime send ``http://user:TOKEN@host/...`` URL credentials); "" when none."""
    scheme, _, value = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() == "basic":
        try:
            return base64.b64decode(value, validate=True).decode("utf-8").partition(":")[2]
        except (binascii.Error, UnicodeDecodeError):
            return ""
    return value if scheme.lower() == "bearer" else ""


def _digest_and_parse(path: str, query: str, body: bytes) -> tuple[bytes, Any]:
    """(the request's identity for Parking, a reuse key of its route, query and body bytes as sent:
    docs/service.md "Reuse keys"; the body as JSON)."""
    return reuse_key("http-parking", path, query, body), json.loads(body)


def client_deadline_s(request: Request, default: float | None) -> float | None:
    """The calling client's own deadline: `?client_timeout_s=` when the client was configured otherwise,
    else the route's default (README "Plug it into your trainer", its table)."""
    raw = request.query_params.get("client_timeout_s")
    if raw is None:
        return default
    try:
        value = float(raw)
    except ValueError:
        value = math.nan
    if not 1 <= value <= 86_400:
        raise HttpError(400, "must be a number of seconds in [1, 86400]", "client_timeout_s")
    return value


def _deadline_margin(deadline_s: float) -> float:
    """How long before the client's deadline the 504 leaves: enough for the answer to arrive first."""
    return min(5.0, max(1.0, deadline_s / 10))


class Parking:
    """Work whose client got a 504 at its deadline, kept running so the client's retry (the same request)
    collects it in its place instead of queueing again behind everything. Identical requests (the same
    route, query and body: one program on one stdin) share one parked job and its answer, kept `keep_s`
    after it finishes. Bounded: at most `most` jobs; a job that does not fit is cancelled (the 504 still
    goes out, and the retry queues again)."""

    def __init__(self, most: int = 256, keep_s: float = 30.0):
        self.most, self.keep_s = most, keep_s
        self._jobs: dict[bytes, asyncio.Future] = {}

    def __len__(self) -> int:
        return len(self._jobs)

    def get(self, key: bytes) -> asyncio.Future | None:
        """The parked job (running, or finished with an answer) for this request, or None."""
        job = self._jobs.get(key)
        if job is not None and job.done() and (job.cancelled() or job.exception() is not None):
            del self._jobs[key]  # a refusal (full, draining) is not an answer to hand out again
            return None
        return job

    def holds(self, key: bytes, job: asyncio.Future) -> bool:
        return self._jobs.get(key) is job

    def park(self, key: bytes, job: asyncio.Future) -> bool:
        """Keep `job` for a retry of `key`; False when it cannot be (full, or an identical job is already
        parked and running: the retry joins that one), and the caller cancels it."""
        held = self._jobs.get(key)
        if held is job:
            return True
        if (held is not None and not held.done()) or (held is None and len(self._jobs) >= self.most):
            return False
        self._jobs[key] = job
        job.add_done_callback(lambda done: self._expire_later(key, done))
        return True

    def _expire_later(self, key: bytes, job: asyncio.Future) -> None:
        if not job.cancelled():
            job.exception()  # retrieved: an unclaimed failure is not logged as "never retrieved"
        asyncio.get_running_loop().call_later(self.keep_s, self._expire, key, job)

    def _expire(self, key: bytes, job: asyncio.Future) -> None:
        if self._jobs.get(key) is job:
            del self._jobs[key]


def _listen(host: str | None, port: int) -> socket.socket:
    """A listening TCP socket. Made with proto=IPPROTO_TCP on purpose: asyncio sets TCP_NODELAY only
    on sockets that say so, and without it every kept-alive request waits ~40 ms (Nagle vs delayed ACK)."""
    family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP,
                                                         flags=socket.AI_PASSIVE)[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(1024)
    except OSError:
        sock.close()
        raise
    return sock


def _status(ok: bool) -> str:
    return "SERVING" if ok else "NOT_SERVING"


async def _disconnected(request: Request) -> None:
    """Returns when the client hangs up (the body is read by then, so only a disconnect can arrive)."""
    while (await request.receive())["type"] != "http.disconnect":
        pass

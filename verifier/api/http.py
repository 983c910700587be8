"""The HTTP/JSON front end: the same engine, admission, limits, token and TLS as the gRPC port.

Runs in the gRPC server's own asyncio loop (uvicorn driven by hand, so it installs no signal
handlers of its own), so both ports share one engine: one admission bound, one result cache, one
set of workers and sandboxes. Routes (docs/service.md "HTTP/JSON"):

- ``POST /v1/grade``: ``{"tasks": [...]}`` -> ``{"results": [...]}``, in order.
- ``POST /get_reward``: OpenRLHF's ``--remote_rm_url`` shape.
- ``POST /slime/remote_rm``: slime's ``--rm-type remote_rm`` shape.
- ``POST /v1/execute``: run one program with stdin and files (docs/service.md "Execute").
- ``POST /run_code``: the subset of SandboxFusion's API that verl's ``sandbox_fusion`` reward uses.
- ``GET /healthz``, ``GET /readyz``: the gRPC health statuses, as HTTP codes.
- ``POST /v1/sessions``, ``POST /v1/sessions/{id}/cells``, ``GET /v1/sessions/{id}/files?path=``,
  ``DELETE /v1/sessions/{id}``: sessions (docs/sessions.md "Sessions"), the gRPC session calls as JSON. A
  session call that reaches a replica other than the session's owner is forwarded to the owner, a
  peer this replica found itself (verifier/sessions.py `SessionRegistry.owner`), with the server's
  proof in place of the caller's token, so a Service that balances per request keeps affinity; an
  owner that cannot be reached is 410 "session lost".

Trainer-facing routes (``/get_reward``, ``/slime/remote_rm``) need one float per item, so an item
that cannot be graded (no usable label, ``infra_error``, ``error``, ``invalid_gold``) gets reward
0.0 and is flagged (``verifier_ungraded`` = 1.0 in OpenRLHF's ``extra_logs``), never dropped.
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
import ssl
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from sandbox.contract import DEFAULT_SCORING, MAX_COMPLETION_CHARS, PROFILES, UNJUDGED, CodeTask, Task, TaskError
from sandbox.keys import reuse_key
from verifier.config import ServerConfig
from verifier.engine import Draining, Engine, Overloaded
from verifier.execute import execute_task
from verifier.formats.rows import RowRules, label_task
from verifier.session_wire import cell_json
from verifier.sessions import (FORWARD_TIMEOUT_S, FORWARDED_KEY, SessionLost, SessionNotFound, SessionRegistry,
                               peer_tls_name)
from verifier.schema import _language_limits, decode_task, decode_tasks, limits_from_config, result_json
from verifier.v1 import verifier_pb2 as pb

log = logging.getLogger("verifier.api.http")

# Keys a JSON task may carry: the proto's fields, so the two front ends accept the same tasks.
_COMMON_KEYS = {"id", "kind", "timeout_s"}
TASK_KEYS = {"math": _COMMON_KEYS | set(pb.MathTask.DESCRIPTOR.fields_by_name),
             "code": _COMMON_KEYS | set(pb.CodeTask.DESCRIPTOR.fields_by_name)}
TEST_KEYS = set(pb.CodeTest.DESCRIPTOR.fields_by_name)
_LARGE_BODY = 1 << 20  # parse bodies beyond this off the event loop
# The trainer clients' own deadlines per request (README "Plug it into your trainer", its table): OpenRLHF's aiohttp and requests
# clients (total=180; OpenRLHF/OpenRLHF 3c3be623 openrlhf/utils/agent.py, v0.8.0 remote_rm_utils.py),
# slime's shared session (total=120; THUDM/slime 624b824a slime/rollout/rm_hub/__init__.py), verl: 2 x timeout + 10.
OPENRLHF_DEADLINE_S = 180.0
SLIME_DEADLINE_S = 120.0
VERL_API_TIMEOUT_S = 10.0
_ADMISSION_PATIENCE = 3  # client deadlines a parked batch waits for admission (verl retries a 504 twice)
# SandboxFusion language names (as verl sends them) -> ours.
RUN_CODE_LANGUAGES = {"python": "python", "python3": "python", "cpp": "cpp", "c": "c", "nodejs": "javascript",
                      "javascript": "javascript", "java": "java", "rust": "rust", "go": "go"}


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


# ---------------------------------------------------------------- requests -> tasks

def check_task_keys(task: Any, where: str) -> None:
    """A typo'd key (``glod``) would otherwise grade against an empty gold: refuse it, naming it."""
    if not isinstance(task, Mapping):
        return  # parse_task names the type error
    kind = task.get("kind")
    allowed = TASK_KEYS.get(kind) if isinstance(kind, str) else None
    if allowed is None:
        return  # parse_task names the bad kind
    for key in task:
        if key not in allowed:
            raise TaskError(f"{where}.{key}", f"unknown field for a {task['kind']} task")
    if task["kind"] == "code" and isinstance(task.get("tests"), list):
        for j, test in enumerate(task["tests"]):
            for key in test if isinstance(test, Mapping) else ():
                if key not in TEST_KEYS:
                    raise TaskError(f"{where}.tests[{j}].{key}", "unknown field of a test")


def strip_prompt(query: str, prompt: Any) -> str | None:
    """The response part of an OpenRLHF query (prompt + response), or None when the prompt is not in it.

    The prompt is never graded: a few-shot prompt's own ``\\boxed{}`` answers would otherwise be
    extracted from a response that has none. A prefix (BOS) that the tokenizer's decode adds before
    the prompt is tolerated by taking the text after the prompt's first occurrence.
    """
    if prompt is None:
        return query
    if not isinstance(prompt, str):
        return None
    if query.startswith(prompt):
        return query[len(prompt):]
    at = query.find(prompt) if prompt else 0
    return None if at < 0 else query[at + len(prompt):]


# ---------------------------------------------------------------- the app

class HttpFrontEnd:
    """The Starlette app over an engine, and the uvicorn server that serves it."""

    def __init__(self, engine: Engine, config: ServerConfig, token: str = ""):
        self.engine = engine
        self.config = config
        self.limits = limits_from_config(config)
        self._token = token.encode()
        self.port = 0
        self._server: uvicorn.Server | None = None
        self._socket: socket.socket | None = None
        self._loop_task: asyncio.Task | None = None
        self.parking = Parking()
        routes = [("/v1/grade", "POST", self.grade, True), ("/get_reward", "POST", self.get_reward, True),
                  ("/slime/remote_rm", "POST", self.slime_remote_rm, True), ("/run_code", "POST", self.run_code, True),
                  ("/v1/execute", "POST", self.execute, True),
                  ("/healthz", "GET", self.healthz, False), ("/readyz", "GET", self.readyz, False),
                  ("/v1/sessions", "POST", self.session_create, True),
                  ("/v1/sessions/{session_id}/cells", "POST", self.session_run, True),
                  ("/v1/sessions/{session_id}/files", "GET", self.session_read, True),
                  ("/v1/sessions/{session_id}", "DELETE", self.session_close, True)]
        self.sessions: SessionRegistry | None = None  # set by the server when it serves sessions
        self.app = Starlette(
            routes=[Route(path, self._endpoint(path, fn, auth), methods=[method]) for path, method, fn, auth in routes],
            exception_handlers={HTTPException: self._http_exception})

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

    # ------------------------------------------------------------ plumbing

    def _endpoint(self, route: str, fn: Callable[[Request], Awaitable[Response]], auth: bool):
        """Auth, error answers and the per-route request counter around one handler."""
        async def endpoint(request: Request) -> Response:
            try:
                if auth and not (route.startswith("/v1/sessions/") and self._forwarded(request)):
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
        value = _presented_token(request)
        if not (value and hmac.compare_digest(value.encode(), self._token)):
            raise HttpError(401, "missing or wrong bearer token", headers={"WWW-Authenticate": 'Bearer realm="verifier"'})

    async def _json(self, request: Request) -> Any:
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

    def _check_serving(self) -> None:
        if self.engine.draining:
            self.engine.metrics.rejections.labels("draining").inc()
            raise HttpError(503, "server is draining; retry on another replica", headers={"Retry-After": "1"})

    def _invalid(self, exc: TaskError) -> HttpError:
        self.engine.metrics.rejections.labels("invalid").inc()
        return HttpError(400, str(exc), exc.field)

    def _models(self, tasks: Sequence[Any]) -> list[Task]:
        """The tasks as models, each decoded once and held to the gRPC port's limits (verifier/schema.py
        decode_tasks); raises TaskError naming the field in the JSON's own terms."""
        if len(tasks) > self.limits.max_tasks_per_call:  # before looking at a huge list
            raise TaskError("tasks", f"{len(tasks)} tasks exceed the limit of {self.limits.max_tasks_per_call} per call")
        for i, task in enumerate(tasks):
            check_task_keys(task, f"tasks[{i}]")
        return decode_tasks(tasks, self.limits, self.engine.languages())

    async def _admitted(self, request: Request, work: Callable[[], Awaitable[Any]], deadline_s: float | None = None) -> Any:
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

    async def _grade(self, request: Request, tasks: list[Task], raw: bool = False,
                     deadline_s: float | None = None) -> Sequence[Mapping[str, Any]]:
        """Grade through the shared admission; cancelled (items freed) if the client hangs up. With a
        client deadline (the trainer dialects), any number of tasks: they go in chunks of max_tasks_per_call,
        each waiting for admission rather than refused, for up to `_ADMISSION_PATIENCE` client deadlines."""
        if deadline_s is None:
            self.engine.metrics.batch_items.observe(len(tasks))
            results = await self._admitted(request, lambda: self.engine.grade(tasks))
        else:
            results = await self._admitted(request, lambda: self._grade_chunks(tasks, deadline_s * _ADMISSION_PATIENCE),
                                           deadline_s)
        return results if raw else [result_json(r) for r in results]

    async def _grade_chunks(self, tasks: list[Task], patience_s: float) -> list[dict]:
        """All results in order, the tasks admitted in chunks of max_tasks_per_call (the engine's per-call
        bound), each chunk waiting out Overloaded for up to `patience_s` rather than failing the call."""
        loop = asyncio.get_running_loop()
        until = loop.time() + patience_s
        size = self.limits.max_tasks_per_call

        async def chunk(part: list[Task]) -> list[dict]:
            self.engine.metrics.batch_items.observe(len(part))
            while True:
                try:
                    return await self.engine.grade(part)
                except Overloaded as e:
                    if loop.time() + e.retry_after_s > until:
                        raise
                    await asyncio.sleep(e.retry_after_s)

        async with asyncio.TaskGroup() as group:  # one chunk failing cancels the rest
            parts = [group.create_task(chunk(tasks[i:i + size])) for i in range(0, len(tasks), size)]
        return [r for part in parts for r in part.result()]

    # ------------------------------------------------------------ routes

    async def grade(self, request: Request) -> Response:
        """``{"tasks": [...]}`` -> ``{"results": [...]}``; a missing task id defaults to its index."""
        self._check_serving()
        body = await self._json(request)
        if not isinstance(body, dict) or not isinstance(body.get("tasks"), list):
            raise HttpError(400, 'body must be a JSON object {"tasks": [...]}', "tasks")
        for key in body:
            if key != "tasks":
                raise HttpError(400, "unknown field", key)
        tasks = [{"id": str(i), **t} if isinstance(t, dict) and "id" not in t else t for i, t in enumerate(body["tasks"])]
        try:
            models = self._models(tasks)
        except TaskError as e:
            raise self._invalid(e) from None
        return JSONResponse({"results": await self._grade(request, models)})

    async def get_reward(self, request: Request) -> Response:
        """OpenRLHF: ``{"query", "prompts", "labels"}`` -> ``{"rewards", "scores", "extra_logs"}``."""
        self._check_serving()
        body = await self._json(request)
        if not isinstance(body, dict) or not isinstance(body.get("query"), list):
            raise HttpError(400, 'body must be a JSON object with "query": [...] (and "prompts", "labels")', "query")
        queries = body["query"]
        columns = {}
        for key in ("prompts", "labels"):
            column = body.get(key)
            if column is None:
                column = [None] * len(queries)
            if not isinstance(column, list) or len(column) != len(queries):
                raise HttpError(400, f"must be a list as long as query ({len(queries)})", key)
            columns[key] = column
        for i, query in enumerate(queries):
            if not isinstance(query, str):
                raise HttpError(400, f"must be a string, got {type(query).__name__}", f"query[{i}]")
        responses = [strip_prompt(q, p) for q, p in zip(queries, columns["prompts"])]
        graded = await self._grade_labels(request, responses, columns["labels"], "query",
                                          client_deadline_s(request, OPENRLHF_DEADLINE_S))
        rewards = [reward for reward, _, _ in graded]
        return JSONResponse({
            "rewards": rewards, "scores": rewards,
            # per-sample values: OpenRLHF concatenates extra_logs per sample and logs their mean
            "extra_logs": {"verifier_ungraded": [1.0 if ungraded else 0.0 for _, ungraded, _ in graded]},
            "verdicts": [verdict for _, _, verdict in graded],
        })

    async def slime_remote_rm(self, request: Request) -> Response:
        """slime: ``{"prompt", "response", "label"}`` -> the reward as a bare JSON number (what
        ``sample.reward`` becomes), or with ``?detail=1`` an object for ``--reward-key reward``."""
        self._check_serving()
        body = await self._json(request)
        if not isinstance(body, dict) or not isinstance(body.get("response"), str):
            raise HttpError(400, 'body must be a JSON object with "response": "..." (and "label")', "response")
        (reward, ungraded, verdict), = await self._grade_labels(request, [body["response"]], [body.get("label")], "response",
                                                                client_deadline_s(request, SLIME_DEADLINE_S))
        if request.query_params.get("detail") in ("1", "true"):
            return JSONResponse({"reward": reward, "verdict": verdict, "ungraded": ungraded})
        return JSONResponse(reward)

    async def _grade_labels(self, request: Request, responses: Sequence[str | None], labels: Sequence[Any],
                            field: str, deadline_s: float | None) -> list[tuple[float, bool, str]]:
        """(reward, ungraded, verdict) per item; an item that cannot become a valid task is ungraded, not an error.
        As many items as the client sends in one body (bounded by --max-request-bytes, not by a count the
        client cannot know: OpenRLHF v0.8 posts a whole rollout batch); chunked through admission (_grade)."""
        profile = request.query_params.get("profile", "strict")
        if profile not in PROFILES:
            raise HttpError(400, f"must be one of {PROFILES}, got {profile!r}", "profile")
        rules = RowRules(math_profile=profile)  # the trainer adapters' defaults (verifier/formats/rows.py)
        out: list[tuple[float, bool, str]] = [(0.0, True, "error")] * len(responses)
        tasks: list[Task] = []
        slots, skipped = [], []
        languages = _language_limits(self.engine.languages())
        for i, (response, label) in enumerate(zip(responses, labels)):
            task = label_task(str(i), response[-MAX_COMPLETION_CHARS:], label, rules)[0] if response is not None \
                else "the prompt is not in the query"
            if isinstance(task, dict):
                try:
                    check_task_keys(task, "label")
                    tasks.append(decode_task(task, "label", self.limits, languages))  # the one decode of this item
                    slots.append(i)
                    continue
                except ValueError as e:  # TaskError
                    task = str(e)
            skipped.append(f"{field}[{i}]: {task}")
        if skipped:  # one line per request, not per item: a dataset without labels would flood the log
            log.warning("%d of %d items not graded (reward 0.0), first: %s", len(skipped), len(responses), skipped[0])
        if tasks:
            for i, result in zip(slots, await self._grade(request, tasks, deadline_s=deadline_s)):
                ungraded = result["verdict"] in UNJUDGED  # not judged, not wrong: 0.0 and a flag
                out[i] = (0.0 if ungraded else float(result["score"]), ungraded, result["verdict"])
        return out

    async def run_code(self, request: Request) -> Response:
        """SandboxFusion ``/run_code`` as verl's sandbox_fusion reward calls it (one program, one stdin) -> its
        ``status`` / ``compile_result`` / ``run_result`` shape. Runs in the same hardened sandboxes and admission
        as code grading; run_timeout and memory_limit_MB are capped at the language's limits (GetServerInfo)."""
        self._check_serving()
        body = await self._json(request)
        if not isinstance(body, dict):
            raise HttpError(400, "body must be a JSON object", "body")
        try:
            task = self._run_code_task(body)
        except TaskError as e:  # a value the sandbox cannot honour (memory_limit_MB under its minimum)
            return JSONResponse(sandbox_fusion_answer({"verdict": "infra_error", "detail": f"bad task: TaskError: {e}"}))
        [result] = await self._grade(request, [task], raw=True, deadline_s=client_deadline_s(request, verl_deadline_s(body)))
        return JSONResponse(sandbox_fusion_answer(result))

    async def execute(self, request: Request) -> Response:
        """docs/service.md "Execute": one program, stdin and files -> stdout, stderr, exit status, time, memory.
        The gRPC Execute's request and response as JSON (verifier/execute.py), on the same admission."""
        self._check_serving()
        body = await self._json(request)
        try:
            task, files = execute_task(body, self.engine.languages(), self.config.max_field_bytes)
        except TaskError as e:
            raise self._invalid(e) from None
        return JSONResponse(await self._admitted(request, lambda: self.engine.execute(task, files)))

    def _run_code_task(self, body: Mapping[str, Any]) -> CodeTask:
        """verl's request as a code task, decoded once here (sandbox-only options: return_output,
        as_given); raises HttpError for a malformed field, TaskError for a value the sandbox refuses."""
        code, stdin = body.get("code"), body.get("stdin") or ""
        if not isinstance(code, str) or not code.strip():
            raise HttpError(400, "must be a non-empty string", "code")
        if not isinstance(stdin, str):
            raise HttpError(400, "must be a string", "stdin")
        for name, value in (("code", code), ("stdin", stdin)):
            if len(value.encode("utf-8", "surrogatepass")) > self.config.max_field_bytes:
                raise HttpError(413, f"exceeds {self.config.max_field_bytes} bytes (--max-field-bytes)", name)
        if body.get("files") or body.get("fetch_files"):
            raise HttpError(400, "files are not supported", "files")
        language = RUN_CODE_LANGUAGES.get(str(body.get("language") or "python"))
        limits = self.engine.languages().get(language or "")
        if limits is None:
            raise HttpError(400, f"must be one of {sorted(RUN_CODE_LANGUAGES)}", "language")
        numbers: dict[str, float] = {}
        for name in ("run_timeout", "memory_limit_MB"):
            number = body.get(name) or 0
            if isinstance(number, bool) or not isinstance(number, (int, float)) or not 0 <= number < 1e6:
                raise HttpError(400, "must be a non-negative number", name)
            numbers[name] = number
        return CodeTask.from_dict({"id": "0", "kind": "code", "language": language, "completion": code,
                "tests": [{"stdin": stdin, "expected_stdout": None}], "test_code": None, "checker": None,
                "checker_language": "python", "compare": "exact", "float_abs_tol": 0.0, "float_rel_tol": 0.0,
                "scoring": DEFAULT_SCORING, "stop_on_first_failure": True, "timeout_s": 0.0,
                "time_limit_s": min(float(numbers["run_timeout"]), limits["max_time_limit_s"]) or None,
                "memory_limit_mb": int(min(numbers["memory_limit_MB"], limits["max_memory_limit_mb"])) or None,
                "return_output": True, "as_given": True,
                # all of stdout, up to the sandbox's output limit (more is output_limit): verl compares it whole,
                # so a 1 MiB head (SandboxFusion's) would score a right program wrong (docs/service.md "HTTP/JSON")
                "output_head_bytes": self.config.sandbox.output_limit_bytes}, "task", limits=_language_limits(self.engine.languages()))

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


    # ------------------------------------------------------------ sessions (docs/sessions.md "Sessions")

    async def _session(self, work: Awaitable[Any]) -> Any:
        """A session call's failures as HTTP answers (the gRPC port's codes: verifier/api/server.py)."""
        try:
            return await work
        except TaskError as e:
            raise self._invalid(e) from None
        except Overloaded as e:
            raise HttpError(429, str(e), headers={"Retry-After": str(max(1, math.ceil(e.retry_after_s)))}) from None
        except Draining:
            raise HttpError(503, "server is draining; retry on another replica", headers={"Retry-After": "1"}) from None
        except SessionNotFound as e:
            raise HttpError(404, str(e), "session_id") from None
        except SessionLost as e:
            raise HttpError(410, str(e), "session_id") from None
        except RuntimeError as e:
            raise HttpError(503, str(e), headers={"Retry-After": "1"}) from None

    def _forwarded(self, request: Request) -> bytes | None:
        """The owner digest of a session call another replica of this deployment forwarded (its proof
        checks under the route secret: verifier/sessions.py `forwarded_owner`); None for a caller's own call."""
        return self.sessions.forwarded_owner(request.headers.get(FORWARDED_KEY)) if self.sessions else None

    def _caller(self, request: Request) -> str | bytes:
        """Whose session calls these are: the owner digest a verified forward carries, else the caller's token."""
        forwarded = self._forwarded(request)
        return _presented_token(request) if forwarded is None else forwarded

    def _sessions(self) -> SessionRegistry:
        if self.sessions is None:
            raise HttpError(501, "sessions are not served here (code execution is off)")
        return self.sessions

    async def _forward(self, request: Request, check: Callable[[SessionRegistry], None]) -> Response | None:
        """The owner's answer when the session lives on another replica; None when this replica
        answers (docs/architecture.md "Sessions": HTTP affinity behind a per-request balancer).
        Before any connection the call is checked as its owner checks it (`check`: what the owner
        would refuse is refused here), and the owner gets the caller's body bytes as sent, never a
        re-encoding (red-team finding: a 64 MB cell the owner refuses was re-encoded with json.dumps
        on this replica's event loop, about 1 s and 192 MB, then relayed)."""
        sessions = self._sessions()
        try:
            owner = await sessions.owner(request.path_params["session_id"])
        except SessionNotFound as e:
            raise HttpError(404, str(e), "session_id") from None
        if owner is None or request.headers.get(FORWARDED_KEY):
            return None
        try:
            check(sessions)
        except TaskError as e:
            raise self._invalid(e) from None
        data = getattr(request.state, "body", b"")
        target = request.url.path + (f"?{request.url.query}" if request.url.query else "")
        # The server's own proof stands in for the caller's token, which never leaves this replica
        # (docs/architecture.md "Sessions").
        headers = {FORWARDED_KEY: self._sessions().forward_proof(_presented_token(request), owner),
                   "content-type": "application/json"}
        try:
            status, reply_headers, reply = await asyncio.wait_for(forward_http(
                owner.http_host, owner.http_port, request.method, target, headers, data,
                self._peer_tls(), 4 * self.config.max_field_bytes + (1 << 20)), FORWARD_TIMEOUT_S)
        except asyncio.TimeoutError:
            raise HttpError(504, f"the replica that owns this session ({owner.grpc_address}) did not answer "
                                 f"within {FORWARD_TIMEOUT_S:g} s", "session_id") from None
        except (OSError, ValueError, asyncio.IncompleteReadError, asyncio.LimitOverrunError) as e:
            raise HttpError(410, f"session lost: the replica that owned it ({owner.grpc_address}) cannot be reached "
                                 f"({type(e).__name__}); sessions are never recreated", "session_id") from None
        keep = {k: v for k, v in reply_headers.items() if k in ("content-type", "retry-after")}
        return Response(reply, status_code=status, headers=keep)

    def _peer_tls(self) -> tuple[ssl.SSLContext, str] | None:
        """TLS to another replica and the name its certificate must be valid for: the deployment's own
        certificate chain is the trust root, and peers are reached by pod IP, which a certificate
        rarely names, so the name checked is `peer_tls_name`'s, as for gRPC forwarding
        (verifier/api/server.py `_peer_channel`)."""
        if not (self.config.tls_cert and self.config.tls_key):
            return None
        return ssl.create_default_context(cafile=self.config.tls_cert), peer_tls_name(self.config)

    async def session_create(self, request: Request) -> Response:
        """``{"language", "files", "time_limit_s", ...}`` (the CreateSessionRequest fields) -> ``{"session_id", ...}``."""
        body = await self._json(request)
        if not isinstance(body, dict):
            raise HttpError(400, "body must be a JSON object", "body")
        return JSONResponse(await self._session(self._sessions().create(_presented_token(request), body)))

    async def session_run(self, request: Request) -> Response:
        """``{"code": "..."}`` -> the RunCellResponse fields; 410 once the session is lost, 404 for an unknown id."""
        body = await self._json(request)
        if not isinstance(body, dict) or set(body) - {"code"}:
            raise HttpError(400, 'body must be a JSON object {"code": "..."}', "code")
        if (forwarded := await self._forward(request, lambda s: s.check_cell(body.get("code")))) is not None:
            return forwarded
        reply = await self._session(self._sessions().run(self._caller(request), request.path_params["session_id"],
                                                         body.get("code")))
        return JSONResponse(cell_json(reply))

    async def session_read(self, request: Request) -> Response:
        """``?path=NAME[&max_bytes=N]`` -> ``{"data": base64, "truncated"}`` (protobuf's JSON form of bytes)."""
        raw = request.query_params.get("max_bytes", "0")
        if not (raw.isascii() and raw.isdigit()):  # '²'.isdigit() is True, int('²') raises (red-team finding)
            raise HttpError(400, "must be a whole number", "max_bytes")
        path, max_bytes = request.query_params.get("path", ""), int(raw[:12])
        if (forwarded := await self._forward(request, lambda s: s.check_read(path, max_bytes))) is not None:
            return forwarded
        reply = await self._session(self._sessions().read(self._caller(request), request.path_params["session_id"],
                                                          path, max_bytes))
        return JSONResponse({"data": base64.b64encode(reply["data"]).decode(), "truncated": reply["truncated"]})

    async def session_close(self, request: Request) -> Response:
        if (forwarded := await self._forward(request, lambda s: None)) is not None:
            return forwarded
        closed = await self._session(self._sessions().close(self._caller(request), request.path_params["session_id"]))
        return JSONResponse({"closed": closed})


async def forward_http(host: str, port: int, method: str, target: str, headers: Mapping[str, str], body: bytes,
                       tls: tuple[ssl.SSLContext, str] | None, max_reply: int) -> tuple[int, dict[str, str], bytes]:
    """One HTTP/1.1 call to a peer replica (uvicorn answers with Content-Length): (status, lower-cased
    headers, body); over TLS when `tls` gives a context and the name the peer's certificate must be
    valid for. Raises OSError when the peer cannot be reached (ssl.SSLError, a certificate not valid
    for the name, is one), ValueError on a reply that is not HTTP or is over max_reply bytes. The
    standard library only: the server has no HTTP client."""
    context, name = tls if tls else (None, None)
    reader, writer = await asyncio.open_connection(host, port, ssl=context, server_hostname=name, limit=1 << 16)
    try:
        lines = [f"{method} {target} HTTP/1.1", f"host: {host}:{port}", f"content-length: {len(body)}",
                 "connection: close", *(f"{k}: {v}" for k, v in headers.items() if v)]
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body)
        await writer.drain()
        status_line = (await reader.readuntil(b"\r\n")).decode("latin-1").split(" ", 2)
        if len(status_line) < 2 or not status_line[0].startswith("HTTP/1.") or not status_line[1].isdigit():
            raise ValueError(f"not an HTTP answer: {status_line!r:.80}")
        reply_headers: dict[str, str] = {}
        while (line := await reader.readuntil(b"\r\n")) != b"\r\n":
            if len(reply_headers) > 100:
                raise ValueError("too many headers")
            name, _, value = line.decode("latin-1").partition(":")
            reply_headers[name.strip().lower()] = value.strip()
        if method == "HEAD":  # its content-length is the GET's, with no body (red-team: read as "session lost")
            return int(status_line[1]), reply_headers, b""
        length = reply_headers.get("content-length", "")
        if not length.isdigit() or int(length) > max_reply:
            raise ValueError(f"reply length {length!r:.20} (at most {max_reply})")
        return int(status_line[1]), reply_headers, await reader.readexactly(int(length))
    finally:
        writer.close()


def _presented_token(request: Request) -> str:
    """The bearer token a request carries: ``Authorization: Bearer T``, or T as HTTP Basic auth's password
    (OpenRLHF and slime send ``http://user:TOKEN@host/...`` URL credentials); "" when none."""
    scheme, _, value = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() == "basic":
        try:
            return base64.b64decode(value, validate=True).decode("utf-8").partition(":")[2]
        except (binascii.Error, UnicodeDecodeError):
            return ""
    return value if scheme.lower() == "bearer" else ""


def sandbox_fusion_answer(result: Mapping[str, Any]) -> dict:
    """One run's result in SandboxFusion's shape: verl reads ``status`` (Success / Failed / SandboxError),
    then ``compile_result`` or ``run_result`` (``status`` Finished / TimeLimitExceeded, ``return_code``, ...)."""
    answer: dict[str, Any] = {"status": "Failed", "message": "", "compile_result": None, "run_result": None,
                              "executor_pod_name": None, "files": {}}
    verdict = result["verdict"]
    if verdict == "infra_error" or (verdict != "compile_error" and not result.get("tests")):
        return {**answer, "status": "SandboxError", "message": str(result.get("detail") or verdict)}
    if verdict == "compile_error":
        answer["compile_result"] = {"status": "Finished", "execution_time": result.get("exec_s", 0.0), "return_code": 1,
                                    "stdout": "", "stderr": str(result.get("detail") or "")}
        return answer
    test = result["tests"][0]
    exit_code = test.get("exit_code")
    if test["verdict"] != "accepted" and not exit_code:
        exit_code = 1  # killed for memory or output: not a clean exit, whatever the kernel reported
    answer["run_result"] = {"status": "TimeLimitExceeded" if test["verdict"] == "time_limit" else "Finished",
                            "execution_time": test.get("time_s", 0.0), "return_code": exit_code or 0,
                            "stdout": test.get("stdout", ""), "stderr": test.get("stderr", "")}
    answer["status"] = "Success" if test["verdict"] == "accepted" else "Failed"
    return answer


def _digest_and_parse(path: str, query: str, body: bytes) -> tuple[bytes, Any]:
    """(the request's identity for Parking, a reuse key of its route, query and body bytes as sent:
    docs/service.md "Reuse keys"; the body as JSON)."""
    return reuse_key("http-parking", path, query, body), json.loads(body)


def verl_deadline_s(body: Mapping[str, Any]) -> float | None:
    """How long verl's call_sandbox_api waits for one /run_code answer: compile_timeout + run_timeout + 10 s
    (its API_TIMEOUT; volcengine/verl b178a3cd verl/utils/reward_score/sandbox_fusion/utils.py). It retries a
    504 (3 attempts, 1 s then 2 s apart) and nothing else. None when the body names neither timeout."""
    values = [body.get(k) for k in ("compile_timeout", "run_timeout")]
    numbers = [v for v in values if isinstance(v, (int, float)) and not isinstance(v, bool) and 0 <= v < 1e6]
    return sum(numbers) + VERL_API_TIMEOUT_S if numbers else None


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

"""The session routes of the HTTP/JSON port, and their forwarding (docs/sessions.md "Sessions").

``POST /v1/sessions``, ``POST /v1/sessions/{id}/cells``, ``GET /v1/sessions/{id}/files?path=``,
``DELETE /v1/sessions/{id}``: the gRPC session calls as JSON. A session call that reaches a replica
other than the session's owner is forwarded to the owner, a peer this replica found itself
(verifier/sessions.py `SessionRegistry.owner`), with the server's proof in place of the caller's
token, so a Service that balances per request keeps affinity; an owner that cannot be reached is
410 "session lost". A verified forward is authorized by the replica it came through (the token
check: verifier/api/transport.py `HttpTransport._endpoint`).
"""

from __future__ import annotations

import asyncio
import base64
import json
import math
import ssl
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from sandbox.contract import TaskError
from verifier.api.transport import HttpError, HttpTransport, RouteSpec, presented_token
from verifier.engine import Draining, Overloaded
from verifier.session_wire import cell_json, shell_json
from verifier.sessions import (FORWARD_TIMEOUT_S, FORWARDED_KEY, ChangesTooLarge, ReplyTooLarge, SessionLost,
                               SessionNotFound, SessionRegistry, b64_max_chars, check_reply, peer_tls_name,
                               reply_max_bytes)

# A reply body past this is rendered as JSON off the event loop (as a request body is parsed:
# verifier/api/transport.py _LARGE_BODY); a cell's or a command's output may be megabytes.
_LARGE_REPLY = 64 << 10


class SessionRoutes:
    """The session calls over the transport; a call for a session another replica owns is relayed to it."""

    def __init__(self, http: HttpTransport):
        self.http = http

    def routes(self) -> list[RouteSpec]:
        return [("/v1/sessions", "POST", self.session_create, True),
                ("/v1/sessions/{session_id}/cells", "POST", self.session_run, True),
                ("/v1/sessions/{session_id}/files", "GET", self.session_read, True),
                ("/v1/sessions/{session_id}", "DELETE", self.session_close, True),
                ("/v1/sessions/{session_id}/shell", "POST", self.session_shell, True),
                ("/v1/sessions/{session_id}/files", "PUT", self.session_write, True),
                ("/v1/sessions/{session_id}/dir", "GET", self.session_list, True),
                ("/v1/sessions/{session_id}/grade", "POST", self.session_grade, True),
                ("/v1/sessions/{session_id}/fork", "POST", self.session_fork, True),
                ("/v1/sessions/{session_id}/snapshot", "POST", self.session_snapshot, True)]

    async def _session(self, work: Awaitable[Any]) -> Any:
        """A session call's failures as HTTP answers (the gRPC port's codes: verifier/api/server.py)."""
        try:
            return await work
        except TaskError as e:
            raise self.http.invalid(e) from None
        except Overloaded as e:
            raise HttpError(429, str(e), headers={"Retry-After": str(max(1, math.ceil(e.retry_after_s)))}) from None
        except Draining:
            raise HttpError(503, "server is draining; retry on another replica", headers={"Retry-After": "1"}) from None
        except SessionNotFound as e:
            raise HttpError(404, str(e), e.field) from None
        except SessionLost as e:
            raise HttpError(410, str(e), "session_id") from None
        except (ChangesTooLarge, ReplyTooLarge) as e:  # the session's own files or output: no Retry-After
            raise HttpError(409, str(e), "session_id") from None
        except RuntimeError as e:
            raise HttpError(503, str(e), headers={"Retry-After": "1"}) from None

    async def _reply(self, content: Any) -> Response:
        """A session call's JSON reply, held to the reply bound where it is encoded (verifier/sessions.py
        `reply_max_bytes`: 409 naming it past that, the same answer a replica that forwards relays);
        rendered off the event loop when it may be large."""
        if _rough_size(content) > _LARGE_REPLY:
            body = await asyncio.to_thread(_render, content)
        else:
            body = _render(content)
        try:
            check_reply(len(body), self.http.config)
        except ReplyTooLarge as e:
            raise HttpError(409, str(e), "session_id") from None
        return Response(body, media_type="application/json")

    def _caller(self, request: Request) -> str | bytes:
        """Whose session calls these are: the owner digest a verified forward carries, else the caller's token."""
        forwarded = self.http.forwarded_owner(request)
        return presented_token(request) if forwarded is None else forwarded

    def _sessions(self) -> SessionRegistry:
        if self.http.sessions is None:
            raise HttpError(501, "sessions are not served here (code execution is off)")
        return self.http.sessions

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
            raise self.http.invalid(e) from None
        data = getattr(request.state, "body", b"")
        target = request.url.path + (f"?{request.url.query}" if request.url.query else "")
        # The server's own proof stands in for the caller's token, which never leaves this replica
        # (docs/architecture.md "Sessions").
        headers = {FORWARDED_KEY: self._sessions().forward_proof(presented_token(request), owner),
                   "content-type": "application/json"}
        most = reply_max_bytes(self.http.config)  # what the owner may send (its one home), read whole
        try:
            status, reply_headers, reply = await asyncio.wait_for(forward_http(
                owner.http_host, owner.http_port, request.method, target, headers, data,
                self._peer_tls(), most), FORWARD_TIMEOUT_S)
        except asyncio.TimeoutError:
            raise HttpError(504, f"the replica that owns this session ({owner.grpc_address}) did not answer "
                                 f"within {FORWARD_TIMEOUT_S:g} s", "session_id") from None
        except ReplyTooLarge as e:  # an owner whose bound is not this replica's: named, never "session lost"
            raise HttpError(409, f"the reply of the replica that owns this session ({owner.grpc_address}) is over the "
                                 f"{most} bytes a session call's reply may be (--max-request-bytes) ({e}); ask for "
                                 "less (max_output_bytes, max_bytes, max_entries)", "session_id") from None
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
        if not (self.http.config.tls_cert and self.http.config.tls_key):
            return None
        return ssl.create_default_context(cafile=self.http.config.tls_cert), peer_tls_name(self.http.config)

    async def session_create(self, request: Request) -> Response:
        """``{"language", "files", "time_limit_s", ...}`` (the CreateSessionRequest fields) -> ``{"session_id", ...}``."""
        body = await self.http.read_json(request)
        if not isinstance(body, dict):
            raise HttpError(400, "body must be a JSON object", "body")
        return await self._reply(await self._session(self._sessions().create(presented_token(request), body)))

    async def session_run(self, request: Request) -> Response:
        """``{"code": "..."}`` -> the RunCellResponse fields; 410 once the session is lost, 404 for an unknown id."""
        body = await self.http.read_json(request)
        if not isinstance(body, dict) or set(body) - {"code"}:
            raise HttpError(400, 'body must be a JSON object {"code": "..."}', "code")
        if (forwarded := await self._forward(request, lambda s: s.check_cell(body.get("code")))) is not None:
            return forwarded
        reply = await self._session(self._sessions().run(self._caller(request), request.path_params["session_id"],
                                                         body.get("code")))
        return await self._reply(cell_json(reply))

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
        return await self._reply({"data": base64.b64encode(reply["data"]).decode(), "truncated": reply["truncated"]})

    async def session_close(self, request: Request) -> Response:
        if (forwarded := await self._forward(request, lambda s: None)) is not None:
            return forwarded
        closed = await self._session(self._sessions().close(self._caller(request), request.path_params["session_id"]))
        return await self._reply({"closed": closed})

    # Sessions on a repository environment (docs/sessions.md "Sessions on an environment").

    async def _object(self, request: Request, keys: frozenset[str], field: str) -> dict:
        body = await self.http.read_json(request)
        if not isinstance(body, dict):
            raise HttpError(400, "body must be a JSON object", field)
        for key in body:
            if key not in keys:
                raise HttpError(400, "unknown field", str(key)[:100])
        return body

    async def session_shell(self, request: Request) -> Response:
        """``{"command", "time_limit_s"?, "max_output_bytes"?}`` -> the RunShellResponse fields."""
        body = await self._object(request, frozenset({"command", "time_limit_s", "max_output_bytes"}), "command")
        args = (body.get("command"), body.get("time_limit_s", 0), body.get("max_output_bytes", 0))
        if (forwarded := await self._forward(request, lambda s: s.check_shell(*args))) is not None:
            return forwarded
        reply = await self._session(self._sessions().shell(self._caller(request), request.path_params["session_id"], *args))
        return await self._reply(shell_json(reply))

    async def session_write(self, request: Request) -> Response:
        """``{"path", "data": base64}`` -> ``{"size"}``."""
        body = await self._object(request, frozenset({"path", "data"}), "path")
        encoded, most = body.get("data", ""), self.http.config.max_field_bytes
        if not isinstance(encoded, str):
            raise HttpError(400, "must be a string of base64", "data")
        if len(encoded) > b64_max_chars(most):  # the bound first, on the encoded form: nothing decoded past it
            raise HttpError(400, f"must be at most {most} bytes (--max-field-bytes): {len(encoded)} characters "
                                 f"encode more than that", "data")
        try:
            data = await asyncio.to_thread(_b64decode, encoded) if len(encoded) > _LARGE_REPLY else _b64decode(encoded)
        except (ValueError, TypeError):
            raise HttpError(400, "must be base64", "data") from None
        path = body.get("path")
        if (forwarded := await self._forward(request, lambda s: s.check_write(path, data))) is not None:
            return forwarded
        return await self._reply(await self._session(self._sessions().write(self._caller(request),
                                                                       request.path_params["session_id"], path, data)))

    async def session_list(self, request: Request) -> Response:
        """``?path=DIR[&max_entries=N]`` -> ``{"entries": [{"name", "kind", "size"}], "truncated"}``."""
        raw = request.query_params.get("max_entries", "0")
        if not (raw.isascii() and raw.isdigit()):
            raise HttpError(400, "must be a whole number", "max_entries")
        path, max_entries = request.query_params.get("path", ""), int(raw[:12])
        if (forwarded := await self._forward(request, lambda s: s.check_list(path, max_entries))) is not None:
            return forwarded
        return await self._reply(await self._session(self._sessions().listdir(
            self._caller(request), request.path_params["session_id"], path, max_entries)))

    async def session_grade(self, request: Request) -> Response:
        """``{"task": {repo task's fields less completion}, "id"?}`` -> ``{"result": GradeResult's fields, "patch"}``."""
        body = await self._object(request, frozenset({"task", "id"}), "task")
        task = body.get("task")
        if isinstance(task, dict) and body.get("id") is not None:
            task = {**task, "id": body["id"]}
        if (forwarded := await self._forward(request, lambda s: s.check_grade(task))) is not None:
            return forwarded
        reply = await self._session(self._sessions().grade(self._caller(request), request.path_params["session_id"], task))
        return await self._reply({"result": {k: v for k, v in reply.items() if k != "patch"}, "patch": reply.get("patch", "")})

    # Fork and snapshot (docs/sessions.md "Fork and snapshot").

    async def session_fork(self, request: Request) -> Response:
        """``{"n"}`` -> ``{"sessions": [CreateSession's reply, ...]}``."""
        body = await self._object(request, frozenset({"n"}), "n")
        n = body.get("n", 0)
        if (forwarded := await self._forward(request, lambda s: s.check_fork(n))) is not None:
            return forwarded
        made = await self._session(self._sessions().fork(self._caller(request), request.path_params["session_id"], n))
        return await self._reply({"sessions": made})

    async def session_snapshot(self, request: Request) -> Response:
        """``{"ttl_s"?}`` -> ``{"snapshot_id", "ttl_s", "bytes"}``; ``POST /v1/sessions {"snapshot"}`` restores it."""
        body = await self._object(request, frozenset({"ttl_s"}), "ttl_s")
        ttl = body.get("ttl_s", 0)
        if (forwarded := await self._forward(request, lambda s: s.check_snapshot(ttl))) is not None:
            return forwarded
        return await self._reply(await self._session(self._sessions().snapshot(self._caller(request),
                                                                          request.path_params["session_id"], ttl)))


def _b64decode(encoded: str) -> bytes:
    return base64.b64decode(encoded, validate=True)


def _render(content: Any) -> bytes:
    """JSON as starlette's JSONResponse renders it."""
    return json.dumps(content, ensure_ascii=False, allow_nan=False, indent=None, separators=(",", ":")).encode("utf-8")


def _rough_size(content: Any) -> int:
    """About how many characters `content`'s strings hold (a reply's output, data, patch, names): enough to
    tell a small reply from one worth rendering off the loop; a listing counts its entries' names."""
    if isinstance(content, str):
        return len(content)
    if isinstance(content, dict):
        return sum(_rough_size(v) for v in content.values())
    if isinstance(content, list):
        return sum(_rough_size(v) + 8 for v in content)
    return 8


async def forward_http(host: str, port: int, method: str, target: str, headers: Mapping[str, str], body: bytes,
                       tls: tuple[ssl.SSLContext, str] | None, max_reply: int) -> tuple[int, dict[str, str], bytes]:
    """One HTTP/1.1 call to a peer replica (uvicorn answers with Content-Length): (status, lower-cased
    headers, body); over TLS when `tls` gives a context and the name the peer's certificate must be
    valid for. Raises OSError when the peer cannot be reached (ssl.SSLError, a certificate not valid
    for the name, is one), ValueError on a reply that is not HTTP, ReplyTooLarge on one over max_reply
    bytes (read no further; the owner answered, so it is no lost session). The standard library only:
    the server has no HTTP client."""
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
        if not length.isdigit():
            raise ValueError(f"reply length {length!r:.20}")
        if int(length) > max_reply:  # not a lost session: the owner answered, over this replica's bound
            raise ReplyTooLarge(f"{length[:20]} bytes")
        return int(status_line[1]), reply_headers, await reader.readexactly(int(length))
    finally:
        writer.close()

"""The service's sessions (docs/sessions.md "Sessions"): ids, owners, admission, idle TTL, drain.

Both front ends (gRPC CreateSession/RunCell/ReadSessionFile/CloseSession and the HTTP
``/v1/sessions`` routes) call one `SessionRegistry`, so a request means the same thing on each;
the sandbox side (containers, cells, replay) is sandbox/session.py.

- Ids are `secrets.token_urlsafe(24)` (192 random bits) and bound to the caller's credential (a
  digest of its bearer token): an id used with another token is answered exactly as an unknown id.
- With `--route-secret` and `--advertise-address`, an id also names the replica that owns it:
  ``RANDOM.REPLICA.MAC``, REPLICA an opaque tag of that replica (an HMAC of its address), MAC an
  HMAC of both, under the route secret only servers hold (never the bearer token, which every client
  holds). Another replica forwards the call (verifier/api/session_routes.py, verifier/api/server.py) only to
  the replica whose tag it is among the peers it found itself (`--peers`, `--peer-service`'s
  addresses): no value a client sends names a network destination (docs/architecture.md
  "Sessions"). A forwarded call carries the caller's owner digest and a MAC of it and of the
  owner's tag under the same secret (valid at that replica only), never the caller's token.
- A live session is one admitted item of the engine (`Engine.admit`), within `max_sessions`;
  beyond either, CreateSession raises Overloaded with a retry hint from how long sessions last.
- A session with no call for its idle TTL is closed by a reaper; draining refuses new sessions and
  `close()` ends every session (its containers removed: no process survives).
- A session that a cell ended (time, memory, crash) frees its admission slot at once; its id keeps
  answering "session lost" until its idle TTL from a small tombstone (owner digest, reason, expiry).
"""

from __future__ import annotations

import asyncio
import base64
import dataclasses
import hashlib
import hmac
import ipaddress
import logging
import math
import os
import re
import secrets
import socket
import ssl
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sandbox.contract import ENVIRONMENT_NAME, EXECUTE_DEFAULT_OUTPUT_BYTES, RepoTask, TaskError
from sandbox.plan import InfraFailure
from sandbox.repo.apply import View, view_listing
from sandbox.repo.patch import PATCH_MAX, PatchError
from sandbox.repo.tree_diff import DiffTooLarge, read_snapshot, session_patch
from sandbox.repo_job import environment_language
from sandbox.session import (LANGUAGES, SNAPSHOT_ENTRIES_MAX_BYTES, Session, SessionEnvironment, SessionHost,
                             SessionLimits, SessionState, StateTooLarge, StateUnusable)
from verifier.config import ServerConfig
from verifier.engine import Draining, Engine, Overloaded
from verifier.execute_wire import check_files
from verifier.session_wire import CREATE_KEYS

log = logging.getLogger("verifier.sessions")

REAP_INTERVAL_S = 1.0
MAX_READ_BYTES = 1 << 20
# Sessions on an environment (docs/sessions.md "Sessions on an environment"): the bounds of their tools.
MAX_LIST_ENTRIES = 10_000  # entries one directory listing returns at most (default 1,000)
PATH_PARTS_MAX = 128  # a session tool's path's parts at most: the box's session_tools.DEPTH_MAX (red team 12)
# A tool's path's characters at most: PATH_PARTS_MAX names of NAME_MAX (255) and their slashes; checked before the path is
# split, so a path of millions of slashes (0 parts) costs the event loop nothing (red team 13): session_tools.PATH_MAX.
PATH_MAX_CHARS = PATH_PARTS_MAX * 256
# A shell command's bytes at most: exec takes one argument (`sh -c COMMAND`) of under MAX_ARG_STRLEN with its NUL, so a
# longer one could never start; refused here, naming `command`, not lost in the box (session_tools.ARG_STRLEN_MAX).
SHELL_COMMAND_MAX_BYTES = 32 * 4096 - 1


def shell_bytes(command: str) -> bytes:
    """A shell command's bytes as the box runs them, which SHELL_COMMAND_MAX_BYTES bounds: sent as UTF-8 with a lone
    surrogate passed through (an HTTP client's JSON "\\ud800"), decoded there with 'replace' (session_tools.run_shell),
    so a lone surrogate is three U+FFFD, 9 bytes; counted as sent (3), a command admitted here never started (red
    team 15)."""
    return command.encode("utf-8", "surrogatepass").decode("utf-8", "replace").encode()
SNAPSHOT_MAX_BYTES = 256 << 20  # the session's tree read back to be graded (sandbox/repo/apply.py TREE_MAX_BYTES)
SNAPSHOT_MAX_FILES = 100_000
# Of a fork's memory limit, what its interpreter and PID 1 keep beside its files and the changes it
# takes (session_tools.delta `mem`; an idle session holds about 15 MiB: docs/sessions.md "Sessions").
FORK_PROCESSES_MB = 32
GRADE_KEYS = RepoTask.KEYS - {"completion", "kind"}  # a session's grade: a repo task whose patch is the session's
# Lost sessions remembered for their "session lost" answer; past this the oldest answer "not found"
# instead (still never a new session): a flood of lost sessions must not grow the server's memory.
TOMBSTONES_MAX = 10_000
ROUTE_KEY_LABEL = b"grpo-verifier session route v2"
# A forwarded session call carries this HTTP header / gRPC metadata key, valued the caller's owner
# digest and its MAC, with the owner's tag, under the route secret (`SessionRegistry.forward_proof`;
# valid at that replica only): the owner takes it in
# place of the caller's token, answers the call itself and never forwards it again, so two replicas
# cannot bounce a call between them.
FORWARDED_KEY = "x-verifier-forwarded"
TAG_BYTES = 9  # a replica's tag in an id: 72 bits tell a deployment's replicas apart
# Bounds only an owner that hangs: the owner bounds every session call itself (cells by their wall
# time, a replay by its cells), so this is the longest of those plus margin, not a cell limit.
FORWARD_TIMEOUT_S = 900.0
MAC_BYTES = 18  # 144 bits: a forged route must guess it
PEER_DNS_TTL_S = 5.0  # how long --peer-service's addresses are reused before resolving it again
MIN_ROUTE_SECRET_BYTES = 32  # 256 bits: an issued id is an offline oracle for a guess of the secret
RAND_BYTES = 24  # an id's random part: 192 bits


def _b64_chars(size: int) -> int:
    return math.ceil(size * 4 / 3)


# Every id this service issues (`SessionRegistry._new_id`), with a route or without: any other value is
# no id of ours, answered "not found" before any digest of it (red-team finding: any string with two
# dots was split, encoded and MAC'd on the event loop, about 0.25 s for a 64 MB id).
ISSUED_ID = re.compile(rf"[A-Za-z0-9_-]{{{_b64_chars(RAND_BYTES)}}}"
                       rf"(\.[A-Za-z0-9_-]{{{_b64_chars(TAG_BYTES)}}}\.[A-Za-z0-9_-]{{{_b64_chars(MAC_BYTES)}}})?")
ISSUED_ID_MAX = _b64_chars(RAND_BYTES) + _b64_chars(TAG_BYTES) + _b64_chars(MAC_BYTES) + 2


class SessionNotFound(Exception):
    """No session with this id for this caller (never existed, closed, reaped, other replica, other token)."""

    field = "session_id"  # the request's field that named it


class SnapshotNotFound(SessionNotFound):
    """No snapshot with this id for this caller (expired past its TTL, never issued, another's)."""

    field = "snapshot"


class SessionLost(Exception):
    """The session exists but an earlier cell ended it (time, memory, crash) and it was not restored."""


class ChangesTooLarge(Exception):
    """A fork or snapshot whose files would not fit a new session's /work (docs/sessions.md "Fork and
    snapshot"): the session's own doing, answered RESOURCE_EXHAUSTED / HTTP 409 with no retry hint
    (the same session asking again gets the same answer); the session goes on."""


class ReplyTooLarge(Exception):
    """A session call's reply over `reply_max_bytes` as its port encodes it (docs/sessions.md "Sessions",
    bounds of a reply): answered RESOURCE_EXHAUSTED / HTTP 409 with no retry hint, the same through a
    replica that forwards (never "session lost": the session goes on); ask for less output."""


def reply_max_bytes(config: ServerConfig) -> int:
    """The largest reply a session call may send, as its port encodes it (a gRPC message's bytes, an
    HTTP body's JSON): the server's own message bound, `--max-request-bytes`, which gRPC's send and
    receive limits follow (verifier/api/server.py). The one home of this bound: the owner holds every
    reply to it where the reply is encoded (`check_reply`), and a replica that forwards reads an owner's
    reply up to it (the HTTP relay's read, the peer channel's receive limit), so whatever the owner may
    send is relayed whole. Every field of a reply is bounded where it is made (output by
    max_output_bytes, a read by max_bytes, a listing by MAX_LIST_ENTRIES, a grade's patch by
    `grade_patch_max`), so at the defaults no reply comes near it."""
    return config.max_request_bytes


def check_reply(size: int, config: ServerConfig) -> None:
    """ReplyTooLarge when an encoded reply of `size` bytes is over `reply_max_bytes`."""
    if size > (most := reply_max_bytes(config)):
        raise ReplyTooLarge(f"the reply is {size} bytes, over the {most} bytes a session call's reply may be "
                            "(--max-request-bytes); ask for less (max_output_bytes, max_bytes, max_entries)")


def grade_patch_max(config: ServerConfig) -> int:
    """The most bytes of diff a session's grade takes and its reply carries: a patch's bound
    (sandbox/repo/patch.py PATCH_MAX) and a completion's (--max-field-bytes), as a repo task's."""
    return min(PATCH_MAX, config.max_field_bytes)


def b64_max_chars(size: int) -> int:
    """Characters of padded base64 for `size` bytes: a field of at most `size` bytes is refused on its
    encoded length first, before any decoding (docs/sessions.md "Sessions on an environment")."""
    return 4 * math.ceil(size / 3)


@dataclass
class Entry:
    session: Session
    owner: bytes
    ttl_s: float
    created: float = field(default_factory=time.monotonic)
    last_used: float = field(default_factory=time.monotonic)
    busy: int = 0  # calls in progress: a running cell is never idle


@dataclass(frozen=True)
class Tombstone:
    """What is left of a lost session: enough to answer its id with "session lost" until expiry."""

    owner: bytes
    why: str
    expires: float


@dataclass(frozen=True)
class Snapshot:
    """A kept snapshot (docs/sessions.md "Fork and snapshot"): whose it is, the session's files as
    changes to its environment, the session's limits, and when it expires."""

    owner: bytes
    state: SessionState
    limits: SessionLimits
    expires: float


@dataclass(frozen=True)
class Route:
    """A replica this one found itself (`--peers`, `--peer-service`): where a session call is forwarded."""

    grpc_address: str  # its --advertise-address, host:port
    http_port: int

    @property
    def http_host(self) -> str:
        return self.grpc_address.rpartition(":")[0].strip("[]")


def route_key(secret: str) -> bytes:
    """The key of route tags, id MACs and forward proofs: derived from the route secret alone."""
    return hmac.new(secret.encode("utf-8", "surrogatepass"), ROUTE_KEY_LABEL, hashlib.sha256).digest()


def sign(key: bytes, kind: str, data: bytes, size: int = MAC_BYTES) -> str:
    """An HMAC-SHA256 of `kind` and `data` under `key`, cut to `size` bytes, in base64url."""
    return _b64(hmac.new(key, kind.encode() + b"|" + data, hashlib.sha256).digest()[:size])


def replica_tag(key: bytes, replica: Route) -> str:
    """What an id says of its owner: opaque (no address in it) and only servers can compute it."""
    return sign(key, "replica", f"{replica.grpc_address}|{replica.http_port}".encode(), TAG_BYTES)


def check_routing(config: ServerConfig) -> None:
    """Peers named with no way to sign for them are a deployment that believes it forwards and does
    not: say so at start. Raises ValueError naming the flags (and a bad --peers entry, a route secret
    file that cannot be read)."""
    parse_peers(config)
    secret = config.resolved_route_secret()
    if (config.peers or config.peer_service) and not (secret and config.advertise_address):
        raise ValueError("--peers and --peer-service forward session calls only with a route secret only servers "
                         "hold (--route-secret or --route-secret-file) and --advertise-address; set both, or "
                         "drop them to have each replica answer only its own sessions (docs/sessions.md)")
    if secret and len(secret.encode("utf-8", "surrogatepass")) < MIN_ROUTE_SECRET_BYTES:
        raise ValueError(f"the route secret: at least {MIN_ROUTE_SECRET_BYTES} bytes (every issued id lets a client "
                         "try guesses of it offline), e.g. `openssl rand -hex 32`")
    if config.peer_service and config.advertise_address != _ip_address(config.advertise_address):
        raise ValueError(f"--advertise-address {config.advertise_address!r}: with --peer-service it is this replica's "
                         "IP:PORT as the Service's addresses are written (an IPv6 address in brackets), or no peer "
                         "would ever name this replica")


def _ip_address(address: str) -> str:
    """`address` (HOST:PORT) as _discovered writes a peer's: the IP in its canonical form, an IPv6 one in
    brackets; "" when HOST is no IP literal or PORT no number."""
    host, _, port = address.rpartition(":")
    try:
        ip = ipaddress.ip_address(host[1:-1] if host.startswith("[") and host.endswith("]") else host)
    except ValueError:
        return ""
    return f"[{ip}]:{port}" if ip.version == 6 else f"{ip}:{port}" if port.isdigit() else ""


def parse_peers(config: ServerConfig) -> tuple[Route, ...]:
    """--peers as Routes: HOST:PORT (this replica's HTTP port) or HOST:PORT/HTTP_PORT. ValueError names the flag."""
    routes = []
    for peer in config.peers:
        address, _, http_port = peer.partition("/")
        host, _, port = address.rpartition(":")
        if not (host and port.isdigit() and (http_port.isdigit() or not http_port)):
            raise ValueError(f"--peers: {peer!r} is not HOST:PORT or HOST:PORT/HTTP_PORT")
        routes.append(Route(address, int(http_port or config.http_port)))
    return tuple(routes)


def certificate_name(path: str) -> str:
    """A host name the first certificate in a PEM file is valid for: its first DNS subjectAltName (a
    wildcard's `*` filled in), else its common name. The standard library decodes a certificate
    file only through this private helper of its own test suite (no `cryptography` in the image),
    hence --peer-tls-name (peer_tls_name). Raises ValueError when it cannot name one."""
    decode = getattr(getattr(ssl, "_ssl", None), "_test_decode_cert", None)
    if decode is None:
        raise ValueError("this Python cannot read a certificate's name")
    try:
        cert = decode(path)
    except (OSError, ssl.SSLError) as e:
        raise ValueError(f"{path}: cannot read the certificate ({e})") from None
    for kind, name in cert.get("subjectAltName", ()):
        if kind == "DNS":
            return "peer" + name[1:] if name.startswith("*.") else name
    for rdn in cert.get("subject", ()):
        for key, value in rdn:
            if key == "commonName":
                return value
    raise ValueError(f"{path}: the certificate names no host (no DNS subjectAltName, no commonName)")


def peer_tls_name(config: ServerConfig) -> str:
    """The host name a peer replica's certificate must be valid for when a session call is forwarded
    over TLS (gRPC and HTTP alike): --peer-tls-name, else the name of this replica's own certificate,
    which every replica serves (docs/sessions.md "Sessions"). Raises ValueError naming the flag."""
    if config.peer_tls_name:
        return config.peer_tls_name
    try:
        return certificate_name(config.tls_cert)
    except ValueError as e:
        raise ValueError(f"TLS forwarding between replicas needs a name to check: {e}; "
                         "set --peer-tls-name (VERIFIER_PEER_TLS_NAME)") from None


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _owner(caller: str | bytes) -> bytes:
    """Whose a session is: a digest of the caller's bearer token, or that digest itself as a verified
    forwarded call carries it (`SessionRegistry.forwarded_owner`)."""
    if isinstance(caller, bytes):
        return caller
    return hashlib.blake2b(caller.encode("utf-8", "surrogatepass"), digest_size=16).digest()


def _diff(tree: str, entries: Any, data: bytes, max_bytes: int) -> str:
    """The snapshot's diff against the environment's tree (sandbox/repo/tree_diff.py), built up to
    `max_bytes` (past it DiffTooLarge, a PatchError); a snapshot that does not read is the session's
    failure (PatchError), never the server's."""
    try:
        files, links = read_snapshot(entries if isinstance(entries, list) else [], data)
    except ValueError as e:
        if isinstance(e, PatchError):
            raise
        raise PatchError(f"the session's tree cannot be graded: {e}") from None
    return session_patch(tree, files, links, max_bytes)


def _utf8(name: str) -> str:
    """A file name as a reply can carry it (UTF-8 on both ports): a name that is not UTF-8 (its bytes as
    surrogates) gets U+FFFD for each byte that is not, never a reply that cannot be encoded."""
    try:
        return name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    except UnicodeEncodeError:
        return name.encode("utf-8", "surrogatepass").decode("utf-8", "replace")


def _check_parts(path: str) -> None:
    """A tool's path of over PATH_PARTS_MAX parts (or PATH_MAX_CHARS characters) is refused before the box walks (or,
    writing, makes) its folders."""
    if len(path) > PATH_MAX_CHARS:
        raise TaskError("path", f"must be at most {PATH_MAX_CHARS} characters")
    if sum(1 for p in path.split("/") if p not in ("", ".")) > PATH_PARTS_MAX:
        raise TaskError("path", f"must have at most {PATH_PARTS_MAX} parts (folders and the file)")


def _number(body: Mapping, key: str, kind: type, low: float, high: float) -> Any:
    """A bounded number from a request (0 / missing: the server default); TaskError names the field."""
    value = body.get(key) or 0
    if isinstance(value, bool) or not isinstance(value, (int, float)) or (kind is int and not float(value).is_integer()):
        raise TaskError(key, f"must be a {'whole ' if kind is int else ''}number")
    if not math.isfinite(value) or value < 0 or (value and not low <= value <= high):
        raise TaskError(key, f"must be between {low:g} and {high:g} (0: the default)")
    return kind(value)


class SessionRegistry:
    """Every session of this replica."""

    def __init__(self, engine: Engine, config: ServerConfig) -> None:
        self.engine, self.config = engine, config
        # Routing ids (module docstring) need an address to name and a secret only servers hold.
        secret = config.resolved_route_secret()
        self._route_key = route_key(secret) if secret and config.advertise_address else None
        self._static_peers = parse_peers(config)
        self._peers: dict[str, Route] = {}  # tag -> replica, from --peers and --peer-service
        self._peers_at = -math.inf
        self._peer_lock = asyncio.Lock()
        self._route = replica_tag(self._route_key, Route(config.advertise_address, config.http_port)) \
            if self._route_key else ""
        grader = getattr(engine, "code", None)
        self.host = SessionHost(config.sandbox, config.max_sessions, backend=getattr(grader, "backend", None),
                                tree=config.session_tree)
        self._sessions: dict[str, Entry] = {}
        self._lost: dict[str, Tombstone] = {}  # insertion order: oldest first
        self._creating = 0
        self._creating_mb = 0  # memory limits of the sessions being started (admission by memory)
        self._snapshots: dict[str, Snapshot] = {}
        self._lifetime = 60.0  # seconds a session lasts, EWMA, for retry hints
        self._reaper: asyncio.Task | None = None

    # ------------------------------------------------------------ requests

    def limits(self, body: Mapping[str, Any]) -> tuple[str, SessionLimits, dict[str, bytes], float, bool]:
        """A create request (gRPC fields or HTTP JSON, the same names) checked; TaskError names the field."""
        for key in body:
            if key not in CREATE_KEYS:
                raise TaskError(key, "unknown field")
        language = body.get("language") or "python"
        if not isinstance(language, str) or language not in LANGUAGES or language not in self.engine.languages():
            raise TaskError("language", f"sessions support {', '.join(LANGUAGES)}")
        files = check_files(body.get("files"), language, self.config.max_field_bytes)
        c, d = self.config, SessionLimits()
        limits = SessionLimits(
            time_limit_s=_number(body, "time_limit_s", float, 0.1, c.session_max_time_limit_s) or d.time_limit_s,
            memory_limit_mb=_number(body, "memory_limit_mb", int, 64, c.session_max_memory_limit_mb) or d.memory_limit_mb,
            max_output_bytes=_number(body, "max_output_bytes", int, 1, c.max_field_bytes) or EXECUTE_DEFAULT_OUTPUT_BYTES,
            pids_limit=min(d.pids_limit, c.sandbox.pids_limit))
        ttl = _number(body, "idle_ttl_s", float, 1.0, c.session_max_idle_ttl_s) or c.session_idle_ttl_s
        replay = body.get("replay", False)
        if not isinstance(replay, bool):
            raise TaskError("replay", "must be true or false")
        return language, limits, files, ttl, replay

    # ------------------------------------------------------------ lifecycle of sessions

    async def create(self, token: str, body: Mapping[str, Any]) -> dict:
        """A new session: {"session_id", limits, "replica"}. Raises TaskError, Overloaded, Draining,
        or RuntimeError when its container cannot start (the host's fault: UNAVAILABLE)."""
        state = None
        if body.get("snapshot"):
            body, state = self._restoring(token, body)
        language, limits, files, ttl, replay = self.limits(body)
        environment = None
        if state is not None:
            language, limits, environment = self._on(state.environment, limits)
        elif body.get("environment"):
            language, limits, environment = await self._environment(body, limits)
        return await self._open(token, language, limits, files, ttl, replay, environment, state)

    def _admissible(self, n: int, memory_mb: int) -> None:
        """Whether n more sessions of memory_mb each fit the server's bounds (docs/sessions.md
        "Fork and snapshot"): Draining, RuntimeError, or Overloaded naming the bound; never a wait."""
        if self.engine.draining:
            raise Draining()
        if not self.engine.code_available:
            raise RuntimeError(f"sessions are unavailable: {self.engine.code_unavailable_reason()}")
        if len(self._sessions) + self._creating + n > self.config.max_sessions:
            self.engine.metrics.rejections.labels("queue_full").inc()
            raise Overloaded(self._retry_after(), f"{n} more session(s) would pass max_sessions "
                                                  f"({self.config.max_sessions}; {len(self._sessions) + self._creating} open)")
        held = self.memory_mb
        if held + n * memory_mb > self.config.session_max_total_memory_mb:
            self.engine.metrics.rejections.labels("queue_full").inc()
            raise Overloaded(self._retry_after(), f"{n} more session(s) of {memory_mb} MB would pass "
                                                  f"session_max_total_memory_mb ({self.config.session_max_total_memory_mb} MB; "
                                                  f"{held} MB held)")

    def _claim(self, memory_mb: int) -> None:
        """Admit one session of memory_mb and hold its place (`_release_slot` frees it), in one step with no
        await between the check and the hold, in `_open` itself: a fork's sessions start as tasks, and forks
        racing from two sessions each passed a check made before their tasks ran, holding more than
        session_max_total_memory_mb (CI: 804 MB of 700)."""
        self._admissible(1, memory_mb)
        self.engine.admit(1)  # a session is one item of the shared admission bound
        self._creating += 1
        self._creating_mb += memory_mb

    @property
    def memory_mb(self) -> int:
        """The memory limits of the open sessions and of those being started, together."""
        return self._creating_mb + sum(e.session.limits.memory_limit_mb for e in self._sessions.values())

    async def _open(self, token: str | bytes, language: str, limits: SessionLimits, files: dict[str, bytes], ttl: float,
                    replay: bool, environment: SessionEnvironment | None, state: SessionState | None = None) -> dict:
        """Admit one session (`_claim`), start it and register it: {"session_id", limits, "replica"}."""
        self._claim(limits.memory_limit_mb)
        job = asyncio.ensure_future(self.host.open(language, limits, files, replay, environment, state))
        try:
            session = await asyncio.shield(job)
        except asyncio.CancelledError:  # the caller hung up: the slot is held until its container is back
            job.add_done_callback(lambda _: asyncio.ensure_future(self._orphaned(job, limits.memory_limit_mb)))
            raise
        except StateTooLarge as exc:  # a fork's or snapshot's files over what the box holds: theirs
            self._release_slot(limits.memory_limit_mb)
            raise ChangesTooLarge(self._too_large(str(exc))) from None
        except StateUnusable as exc:  # a name or link of the session's own tree the new box refused: theirs
            self._release_slot(limits.memory_limit_mb)
            raise TaskError("session_id", f"the session's files cannot be carried into a new session: {exc}") from None
        except Exception as exc:
            self._release_slot(limits.memory_limit_mb)
            log.warning("session: container did not start: %s", exc)
            why = f": {str(exc)[:300]}" if type(exc) is RuntimeError else ""  # our own words (sandbox/backend.py)
            raise RuntimeError(f"the session's sandbox did not start ({type(exc).__name__}{why}); retry") from None
        self._creating -= 1
        self._creating_mb -= limits.memory_limit_mb
        sid = self._new_id()
        self._sessions[sid] = Entry(session, _owner(token), ttl)
        self.engine.metrics.sessions.set(len(self._sessions))
        self._ensure_reaper()
        return {"session_id": sid, "time_limit_s": limits.time_limit_s, "memory_limit_mb": limits.memory_limit_mb,
                "idle_ttl_s": ttl, "replica": self.config.advertise_address}

    # ------------------------------------------------------------ fork and snapshot

    def check_fork(self, n: Any) -> None:
        """A fork's n as the owner takes it; TaskError names the field."""
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= self.config.session_max_fork:
            raise TaskError("n", f"must be a whole number from 1 to {self.config.session_max_fork} (session_max_fork)")

    def check_snapshot(self, ttl_s: Any) -> None:
        _number({"ttl_s": ttl_s}, "ttl_s", float, 1.0, self.config.session_snapshot_ttl_s)

    async def _state(self, token: str | bytes, sid: Any) -> tuple[Entry, SessionState]:
        """The session's files as changes to its environment, read in order with its other calls."""
        entry = self._env_entry(token, sid)
        env = entry.session.environment
        assert env is not None
        limits = entry.session.limits
        reply = await self._tool(token, sid, "delta", self.config.sandbox.work_tmpfs_mb << 20, SNAPSHOT_MAX_FILES,
                                 SNAPSHOT_MAX_BYTES, max(0, limits.memory_limit_mb - FORK_PROCESSES_MB) << 20)
        if reply.get("lost"):
            raise SessionLost(f"session lost: {reply.get('detail', '')}")
        if reply.get("too_large"):
            bound = {"data": f"{SNAPSHOT_MAX_BYTES >> 20} MiB",
                     "memory": f"memory_limit_mb {limits.memory_limit_mb} less {FORK_PROCESSES_MB} MiB for its processes",
                     "depth": "folders nested deeper are not forked or kept",
                     "entries": f"{SNAPSHOT_MAX_FILES} entries", "names": f"{SNAPSHOT_ENTRIES_MAX_BYTES >> 20} MiB of names",
                     "time": "the walk's budget: fewer files and folders read faster"}
            raise ChangesTooLarge(self._too_large(str(reply.get("detail")), bound.get(str(reply["too_large"]), "")))
        if not reply.get("ok"):
            raise TaskError("session_id", f"the session's files cannot be kept: {reply.get('detail') or reply.get('error')}")
        return entry, SessionState(env, reply["entries"], reply["data"])

    def _too_large(self, detail: str, bound: str = "") -> str:
        """ChangesTooLarge's message: what the box said (session_tools.delta: its files written out in a
        new session's /work, summed from their stats before any is read; docs/sessions.md "Fork and
        snapshot"), and the server's bound it is over (by default /work's size)."""
        bound = bound or f"{self.config.sandbox.work_tmpfs_mb} MiB: --sandbox-work-tmpfs-mb"
        return (f"the session's files do not fit a new session: {detail} ({bound}); remove or shrink files (a "
                f"sparse file counts in full) to fork or keep a snapshot; this session goes on")

    async def fork(self, token: str | bytes, sid: Any, n: Any) -> list[dict]:
        """n new sessions, each starting from this session's files (its environment's tree and the
        changes read once: session_tools.delta), with its limits and idle TTL, admitted by the
        server's bounds before anything is read. Its processes are not carried (docs/sessions.md
        "Fork and snapshot")."""
        self.check_fork(n)
        entry = self._env_entry(token, sid)
        limits = entry.session.limits
        self._admissible(n, limits.memory_limit_mb)
        entry, state = await self._state(token, sid)
        self._admissible(n, limits.memory_limit_mb)  # sessions may have opened while the changes were read
        env = state.environment  # each _open admits its own session again (_claim): forks may race from here
        opened = await asyncio.gather(*(self._open(token, env.language, limits, {}, entry.ttl_s, False, env, state) for _ in range(n)),
                                      return_exceptions=True)
        failed = [r for r in opened if isinstance(r, BaseException)]
        if failed:
            await asyncio.gather(*(self.close(token, r["session_id"]) for r in opened if isinstance(r, dict)))
            raise failed[0]
        return [r for r in opened if isinstance(r, dict)]

    async def snapshot(self, token: str | bytes, sid: Any, ttl_s: Any = 0) -> dict:
        """Keep the session's files (as changes to its environment) for `ttl_s`: {"snapshot_id",
        "ttl_s", "bytes"}; CreateSession's `snapshot` restores them. Bounded together by
        session_snapshots_max_mb (Overloaded naming it)."""
        self.check_snapshot(ttl_s)
        ttl = float(ttl_s or self.config.session_snapshot_ttl_s)
        entry, state = await self._state(token, sid)
        self._expire_snapshots()
        held = sum(s.state.size for s in self._snapshots.values())
        if held + state.size > self.config.session_snapshots_max_mb << 20:
            self.engine.metrics.rejections.labels("queue_full").inc()
            raise Overloaded(min(60.0, ttl), f"a snapshot of {state.size} bytes would pass session_snapshots_max_mb "
                                             f"({self.config.session_snapshots_max_mb} MB; {held} bytes held)")
        snap_id = self._new_id()
        self._snapshots[snap_id] = Snapshot(entry.owner, state, entry.session.limits, time.monotonic() + ttl)
        self._ensure_reaper()
        return {"snapshot_id": snap_id, "ttl_s": ttl, "bytes": state.size}

    def _restoring(self, token: str | bytes, body: Mapping[str, Any]) -> tuple[dict, SessionState]:
        """A create request naming a snapshot: the request with the snapshot's limits where the caller
        left them unset, and the kept state. SessionNotFound for an unknown, expired or other caller's id."""
        for key in ("environment", "language", "files", "replay"):
            if body.get(key):
                raise TaskError(key, "not with a snapshot: the session is on the snapshot's environment")
        snap_id = body.get("snapshot")
        snap = self._snapshots.get(snap_id) if isinstance(snap_id, str) else None
        if snap is None or snap.expires <= time.monotonic() or not secrets.compare_digest(snap.owner, _owner(token)):
            raise SnapshotNotFound("no such snapshot: it expired (its TTL), was never issued, or is another caller's "
                                  "or another replica's")
        kept = {"time_limit_s": snap.limits.time_limit_s,  # _on raises the memory by the tree's again
                "memory_limit_mb": snap.limits.memory_limit_mb - snap.state.environment.tree_mb,
                "max_output_bytes": snap.limits.max_output_bytes}
        rest = {k: v for k, v in body.items() if k not in ("snapshot", "environment", "language", "files", "replay")}
        return {**{k: v for k, v in kept.items() if not rest.get(k)}, **{k: v for k, v in rest.items() if v}}, snap.state

    def _expire_snapshots(self) -> None:
        now = time.monotonic()
        for snap_id in [k for k, v in self._snapshots.items() if v.expires <= now]:
            del self._snapshots[snap_id]

    async def _environment(self, body: Mapping[str, Any], limits: SessionLimits) -> tuple[str, SessionLimits, SessionEnvironment]:
        """A session on a built repository environment (docs/sessions.md "Sessions on an environment"):
        its language, its limits and its build's tree, checked sealed (the lower layer of the session's
        /work: "Fork and snapshot"). TaskError names the field."""
        name = body.get("environment")
        if not isinstance(name, str) or not ENVIRONMENT_NAME.match(name):
            raise TaskError("environment", "must be an environment's name (letters, digits, _ . + -; not starting with '.')")
        if body.get("files"):
            raise TaskError("files", "not with an environment: write files with the session's write_file")
        if body.get("replay"):
            raise TaskError("replay", "not with an environment (a replay re-runs Python cells only)")
        if body.get("language") not in (None, ""):
            raise TaskError("language", "not with an environment: the session is in the environment's language")
        try:
            env = environment_language(self.config.sandbox.repo_environments, name)
        except InfraFailure as e:
            raise TaskError("environment", str(e)) from None
        if env.lang.name not in self.engine.languages():
            raise TaskError("environment", f"its language {env.lang.name} is not served here")
        try:  # sealed: no file of it writable by the session through its permissions (sandbox/repo/apply.py)
            view = await self.host.call(view_listing, env.tree, {})
        except OSError as e:
            raise RuntimeError(f"environment {name!r}: {e}") from None
        return self._on(SessionEnvironment(name, env.tree, env.lang.name, self._tree_mb(view)), limits)

    def _tree_mb(self, view: View) -> int:
        """The memory the tree takes in the session's /work, a tmpfs of its memory (docs/sessions.md
        "The layers"): with session_tree "copy", its files' bytes, each rounded up to a 4 KiB page;
        with "layers", none (a link per file; only what the session writes counts)."""
        if self.config.session_tree != "copy":
            return 0
        return math.ceil((view.size + 4096 * len(view.files)) / (1 << 20))

    @staticmethod
    def _on(env: SessionEnvironment, limits: SessionLimits) -> tuple[str, SessionLimits, SessionEnvironment]:
        """A session on `env`: its language, and its limits with the memory raised by what its tree takes
        in /work (SessionEnvironment.tree_mb: 0 with layered trees, docs/sessions.md "The layers")."""
        return env.language, dataclasses.replace(limits, memory_limit_mb=limits.memory_limit_mb + env.tree_mb), env

    def _mac(self, head: str) -> str:
        assert self._route_key is not None
        return sign(self._route_key, "id", head.encode())

    def _new_id(self) -> str:
        """192 random bits; with routing on, followed by this replica's tag and their MAC."""
        rand = secrets.token_urlsafe(RAND_BYTES)
        if self._route_key is None:
            return rand
        return f"{rand}.{self._route}.{self._mac(f'{rand}.{self._route}')}"

    async def owner(self, sid: Any) -> Route | None:
        """The other replica a session id names, for a front end to forward the call to; None when
        this replica answers it (its own id, an id without a route, routing off). An id whose MAC
        does not check (forged, or signed by another deployment's secret), or whose tag is none of
        the peers this replica found itself, is SessionNotFound, before any connection: forwarding
        to whatever an id names would let a caller make this replica connect where it chooses (SSRF)."""
        if not (isinstance(sid, str) and len(sid) <= ISSUED_ID_MAX and ISSUED_ID.fullmatch(sid)):
            raise SessionNotFound("no such session: its id does not check (not of the shape this service issues)")
        if self._route_key is None or sid.count(".") != 2:
            return None
        rand, tag, mac = sid.split(".")
        if not hmac.compare_digest(mac.encode(), self._mac(f"{rand}.{tag}").encode()):
            raise SessionNotFound("no such session: its id does not check (not issued by this deployment)")
        if tag == self._route:
            return None
        replica = (await self._discovered()).get(tag)
        if replica is None:
            raise SessionNotFound("no such session: the replica its id names is none of this replica's peers "
                                  "(--peers, --peer-service: gone, or never of this deployment); "
                                  "sessions are never recreated")
        return replica

    async def _discovered(self) -> dict[str, Route]:
        """Tag -> replica for --peers and the IPs --peer-service resolves to (on this replica's own
        ports), resolved at most every PEER_DNS_TTL_S (a failed lookup: none of its peers)."""
        assert self._route_key is not None
        async with self._peer_lock:
            if time.monotonic() - self._peers_at > PEER_DNS_TTL_S:
                routes = list(self._static_peers)
                if self.config.peer_service:
                    port = self.config.advertise_address.rpartition(":")[2]
                    try:
                        infos = await asyncio.get_running_loop().getaddrinfo(self.config.peer_service, None,
                                                                             type=socket.SOCK_STREAM)
                    except OSError as exc:
                        log.warning("session forwarding: cannot resolve %s: %s", self.config.peer_service, exc)
                        infos = []
                    for info in infos:
                        ip = ipaddress.ip_address(str(info[4][0]).partition("%")[0])
                        host = f"[{ip}]" if ip.version == 6 else str(ip)
                        routes.append(Route(f"{host}:{port}", self.config.http_port))
                self._peers = {replica_tag(self._route_key, r): r for r in routes}
                self._peers_at = time.monotonic()
            return self._peers

    def forward_proof(self, caller: str, to: Route) -> str:
        """The FORWARDED_KEY value of a call forwarded for this caller to the replica `to`: its owner
        digest and their MAC, with `to`'s tag, under the route secret. It stands in for the caller's
        token at the owner, so the token itself never leaves this replica; and it is valid only at
        `to` (red-team finding: a proof was valid at every replica, so whatever sat at a peer's
        address, a stale or wrong entry, could drive that caller's sessions on all of them)."""
        assert self._route_key is not None
        owner = _owner(caller).hex()
        return f"{owner}.{self._proof_mac(owner, replica_tag(self._route_key, to))}"

    def _proof_mac(self, owner: str, tag: str) -> str:
        assert self._route_key is not None
        return sign(self._route_key, "forwarded", f"{owner}|{tag}".encode())

    def forwarded_owner(self, proof: Any) -> bytes | None:
        """The owner digest a forwarded call carries, when its MAC checks under this deployment's
        route secret for this replica's own tag; None otherwise (routing off, absent, forged, made
        for another replica: the call is then a caller's own)."""
        if self._route_key is None or not isinstance(proof, str) or proof.count(".") != 1:
            return None
        owner, mac = proof.split(".")
        if not hmac.compare_digest(mac.encode(), self._proof_mac(owner, self._route).encode()):
            return None
        return bytes.fromhex(owner)

    def _release_slot(self, memory_mb: int) -> None:
        self._creating -= 1
        self._creating_mb -= memory_mb
        self.engine.unadmit(1)

    async def _orphaned(self, job: asyncio.Future, memory_mb: int) -> None:
        """A session started for a caller that hung up: close it (its container reset into a spare or
        removed), then free its admission slot (red-team finding: the container ran on outside
        admission, and a flood of hung-up creates queued container starts without bound)."""
        try:
            if not job.cancelled() and job.exception() is None:
                await job.result().close()
        except Exception as e:  # shutting down: the host's remove_all takes the container
            log.info("session: closing a session nobody waited for failed: %s", e)
        finally:
            self._release_slot(memory_mb)

    def _entry(self, token: str | bytes, sid: Any) -> Entry:
        entry = self._sessions.get(sid) if isinstance(sid, str) else None
        if entry is None and isinstance(sid, str) and (stone := self._lost.get(sid)) is not None:
            if stone.expires > time.monotonic() and secrets.compare_digest(stone.owner, _owner(token)):
                raise SessionLost(f"session lost: {stone.why}")
        if entry is None or not secrets.compare_digest(entry.owner, _owner(token)):
            raise SessionNotFound("no such session: it was closed, reaped after its idle TTL, belongs to "
                                  "another caller, or lived on a replica that restarted (sessions are never recreated)")
        return entry

    def check_cell(self, code: Any) -> None:
        """A cell's code as the owner takes it; TaskError names the field. A replica that forwards a
        call checks it first (the front ends' `_forward`), so it relays only what its owner takes."""
        if not isinstance(code, str):
            raise TaskError("code", "must be a string")
        if len(code.encode("utf-8", "surrogatepass")) > self.config.max_field_bytes:
            raise TaskError("code", f"exceeds {self.config.max_field_bytes} bytes (--max-field-bytes)")

    def check_read(self, path: Any, max_bytes: Any) -> None:
        """A file read's fields as the owner takes them (as `check_cell`); TaskError names the field."""
        if not isinstance(path, str) or not path:
            raise TaskError("path", "must be a non-empty string")
        _check_parts(path)
        if isinstance(max_bytes, bool) or not isinstance(max_bytes, int) or not 0 <= max_bytes <= self.config.max_field_bytes:
            raise TaskError("max_bytes", f"must be a whole number from 0 to {self.config.max_field_bytes}")

    async def run(self, token: str | bytes, sid: Any, code: Any) -> dict:
        """One cell's reply (sandbox/session.py); SessionLost when an earlier cell ended the session."""
        self.check_cell(code)
        entry = self._entry(token, sid)
        if entry.session.lost:
            await self._lose(sid, entry)
            raise SessionLost(f"session lost: {entry.session.lost}")
        entry.busy += 1
        started = time.monotonic()
        try:
            reply = await entry.session.run(code)
        finally:
            entry.busy -= 1
            entry.last_used = time.monotonic()
        self.engine.metrics.cells.labels(reply["status"]).inc()
        self.engine.metrics.cell_seconds.observe(entry.last_used - started)
        if reply.get("lost") and not reply.get("restored"):
            await self._lose(sid, entry)
        if reply["status"] == "lost" and not reply.get("restored"):  # restored: the reply says the cell did not run
            raise SessionLost(f"session lost: {reply.get('detail', '')}")
        return reply

    async def read(self, token: str | bytes, sid: Any, path: Any, max_bytes: Any) -> dict:
        self.check_read(path, max_bytes)
        entry = self._entry(token, sid)
        entry.busy += 1
        try:
            reply = await entry.session.read(path, max_bytes or min(MAX_READ_BYTES, self.config.max_field_bytes))
        finally:
            entry.busy -= 1
            entry.last_used = time.monotonic()
        if reply.get("lost"):
            await self._lose(sid, entry)
            raise SessionLost(f"session lost: {reply.get('detail', '')}")
        if not reply["ok"]:
            raise TaskError("path", reply["detail"])
        return reply

    # ------------------------------------------------------------ sessions on an environment

    def check_shell(self, command: Any, time_limit_s: Any, max_output_bytes: Any) -> None:
        """A shell command's fields as the owner takes them (as `check_cell`); TaskError names the field."""
        if not isinstance(command, str) or not command.strip() or "\0" in command:
            raise TaskError("command", "must be a non-empty string without NUL")
        size = len(shell_bytes(command))
        if size > self.config.max_field_bytes:
            raise TaskError("command", f"exceeds {self.config.max_field_bytes} bytes (--max-field-bytes)")
        if size > SHELL_COMMAND_MAX_BYTES:
            raise TaskError("command", f"exceeds {SHELL_COMMAND_MAX_BYTES} bytes, the most one exec argument holds: "
                                       "write a longer script with the write tool and run it")
        _number({"time_limit_s": time_limit_s}, "time_limit_s", float, 0.1, self.config.session_max_time_limit_s)
        _number({"max_output_bytes": max_output_bytes}, "max_output_bytes", int, 1, self.config.max_field_bytes)

    def check_write(self, path: Any, data: Any) -> None:
        if not isinstance(path, str) or not path:
            raise TaskError("path", "must be a non-empty string")
        _check_parts(path)
        if not isinstance(data, (bytes, bytearray)) or len(data) > self.config.max_field_bytes:
            raise TaskError("data", f"must be at most {self.config.max_field_bytes} bytes (--max-field-bytes)")

    def check_list(self, path: Any, max_entries: Any) -> None:
        if not isinstance(path, str):
            raise TaskError("path", "must be a string ('' or '.': the working directory)")
        _check_parts(path)
        _number({"max_entries": max_entries}, "max_entries", int, 1, MAX_LIST_ENTRIES)

    def check_grade(self, task: Any) -> None:
        """A session's grade: a repo task's fields but the patch (the session's tree is the patch)."""
        if not isinstance(task, Mapping):
            raise TaskError("task", "must be an object: a repo task's fields less completion")
        for key in task:
            if key not in GRADE_KEYS:
                raise TaskError(f"task.{key}", "unknown field" if key not in RepoTask.KEYS else
                                "not in a session's grade: the session's tree is the patch")

    def _env_entry(self, token: str | bytes, sid: Any) -> Entry:
        entry = self._entry(token, sid)
        if entry.session.environment is None:
            raise TaskError("session_id", "not a session on an environment (open it with `environment`)")
        return entry

    async def _tool(self, token: str | bytes, sid: Any, name: str, *args: Any) -> dict:
        """One tool call of a session on an environment; SessionLost when the session is (or becomes) lost."""
        entry = self._env_entry(token, sid)
        if entry.session.lost:
            await self._lose(sid, entry)
            raise SessionLost(f"session lost: {entry.session.lost}")
        entry.busy += 1
        try:
            reply = await entry.session.tool(name, *args)
        finally:
            entry.busy -= 1
            entry.last_used = time.monotonic()
        if reply.get("lost"):
            await self._lose(sid, entry)
            if reply.get("status") == "lost":
                raise SessionLost(f"session lost: {reply.get('detail', '')}")
        return reply

    async def shell(self, token: str | bytes, sid: Any, command: Any, time_limit_s: Any = 0,
                    max_output_bytes: Any = 0) -> dict:
        """One shell command in the session's tree: its own CPU limit (default and maximum the
        session's time_limit_s), output cap (default the session's) and exit status."""
        self.check_shell(command, time_limit_s, max_output_bytes)
        entry = self._env_entry(token, sid)
        lim = entry.session.limits
        cpu = min(float(time_limit_s or lim.time_limit_s), lim.time_limit_s)
        return await self._tool(token, sid, "shell", command, cpu, int(max_output_bytes or lim.max_output_bytes))

    async def write(self, token: str | bytes, sid: Any, path: Any, data: Any) -> dict:
        self.check_write(path, data)
        reply = await self._tool(token, sid, "write", path, bytes(data))
        if not reply.get("ok"):
            raise TaskError("path", str(reply.get("detail") or reply.get("error") or "cannot write"))
        return {"size": int(reply.get("size", 0))}

    async def listdir(self, token: str | bytes, sid: Any, path: Any, max_entries: Any = 0) -> dict:
        self.check_list(path, max_entries)
        reply = await self._tool(token, sid, "listdir", path, int(max_entries or 1000))
        if not reply.get("ok"):
            raise TaskError("path", str(reply.get("detail") or reply.get("error") or "cannot list"))
        return {"entries": [{"name": _utf8(str(n)), "kind": str(k), "size": int(z)} for n, k, z in reply.get("entries", [])],
                "truncated": bool(reply.get("truncated"))}

    async def grade(self, token: str | bytes, sid: Any, task: Any) -> dict:
        """The session's tree graded as a `repo` task whose patch is its diff against the environment
        (docs/sessions.md "Grading a session"): the snapshot is read back into the server, so nothing
        the session does afterwards changes it; the hidden tests run in a grading box of their own,
        never in the session's. The result carries the diff (`patch`)."""
        self.check_grade(task)
        entry = self._env_entry(token, sid)
        env = entry.session.environment
        assert env is not None
        if task.get("environment") not in (None, "", env.name):
            raise TaskError("task.environment", f"must be the session's environment ({env.name}) or empty")
        fields = {**task, "kind": "repo", "environment": env.name}
        if fields.get("id") is None:
            fields["id"] = "session"
        snap = await self._tool(token, sid, "snapshot", SNAPSHOT_MAX_BYTES, SNAPSHOT_MAX_FILES)
        repo_task = RepoTask.from_dict({k: v for k, v in fields.items() if k != "id"}, "task", str(fields["id"]))
        if snap.get("lost"):
            raise SessionLost(f"session lost: {snap.get('detail', '')}")
        if not await self.host.call(os.path.isdir, env.tree):  # the lower layer ("The layers") pruned under it
            raise RuntimeError(f"environment {env.name!r}: its build was removed while the session ran; not graded")
        try:
            if not snap.get("ok"):
                raise PatchError(f"the session's tree cannot be graded: {snap.get('detail') or snap.get('error')}")
            patch = await self.host.call(_diff, env.tree, snap.get("entries", []), snap.get("data", b""),
                                         grade_patch_max(self.config))
        except PatchError as e:  # DiffTooLarge: its start, cut and marked, in the reply's patch
            return {"id": repo_task.id, "verdict": "wrong_answer", "score": 0.0, "detail": str(e),
                    "patch": e.head if isinstance(e, DiffTooLarge) else "", "tests": [], "retryable": False}
        if not patch:
            return {"id": repo_task.id, "verdict": "wrong_answer", "score": 0.0, "patch": "", "tests": [],
                    "retryable": False, "detail": "the session's tree is the environment's: no change to grade"}
        result = (await self.engine.grade([dataclasses.replace(repo_task, completion=patch)]))[0]
        return {**result, "patch": patch}

    async def close(self, token: str | bytes, sid: Any) -> bool:
        """End a session now (even mid-cell); False when the id is unknown to this caller (idempotent)."""
        try:
            self._entry(token, sid)
        except SessionNotFound:
            return False
        except SessionLost:  # a lost session's id: closing forgets it
            self._lost.pop(sid, None)
            return True
        await self._end(sid)
        return True

    async def _lose(self, sid: str, entry: Entry) -> None:
        """A cell ended the session: free its admission slot now and leave a tombstone that answers
        its id with "session lost" until its idle TTL (a lost session holds no container: nothing
        else to wait for)."""
        if self._sessions.get(sid) is not entry:  # already ended (closed, reaped, lost by a parallel call)
            return
        self._lost[sid] = Tombstone(entry.owner, entry.session.lost or "an earlier cell ended the session",
                                    time.monotonic() + entry.ttl_s)
        while len(self._lost) > TOMBSTONES_MAX:
            del self._lost[next(iter(self._lost))]
        await self._end(sid)

    async def _end(self, sid: str) -> None:
        entry = self._sessions.pop(sid, None)
        if entry is None:
            return
        self.engine.unadmit(1)
        self.engine.metrics.sessions.set(len(self._sessions))
        self._lifetime = 0.8 * self._lifetime + 0.2 * (time.monotonic() - entry.created)
        await entry.session.close()

    def _retry_after(self) -> float:
        """Sessions end one by one: roughly a session's lifetime over how many there are."""
        return min(60.0, max(1.0, self._lifetime / max(1, self.config.max_sessions)))

    @property
    def count(self) -> int:
        return len(self._sessions)

    # ------------------------------------------------------------ reaping and shutdown

    def _ensure_reaper(self) -> None:
        if self._reaper is None or self._reaper.done():
            self._reaper = asyncio.ensure_future(self._reap_loop())

    async def _reap_loop(self) -> None:
        while self._sessions or self._lost or self._snapshots:
            await asyncio.sleep(REAP_INTERVAL_S)
            await self.reap()

    async def reap(self) -> int:
        """Close sessions idle past their TTL; how many."""
        now = time.monotonic()
        for sid in [sid for sid, stone in self._lost.items() if stone.expires <= now]:
            del self._lost[sid]
        self._expire_snapshots()
        idle = [sid for sid, e in self._sessions.items() if not e.busy and now - e.last_used > e.ttl_s]
        for sid in idle:
            log.info("session: closed after %.0f s idle", self._sessions[sid].ttl_s)
            await self._end(sid)
        return len(idle)

    async def close_all(self) -> None:
        """Drain: end every session (containers removed), then stop the reaper and the host."""
        await asyncio.gather(*(self._end(sid) for sid in list(self._sessions)), return_exceptions=True)
        if self._reaper is not None:
            self._reaper.cancel()
        await self.host.close()


"""Configuration of the verification service: one dataclass, every field documented.

Every field can also be set from the environment as ``VERIFIER_<FIELD>`` (upper case), so the same
settings work from the command line, from compose files and from Kubernetes manifests. Nested
dataclasses (``sandbox``) are flattened: ``sandbox.pool_size`` is ``--sandbox-pool-size`` and
``VERIFIER_SANDBOX_POOL_SIZE``; `flat_fields` is the one list the CLI and the environment both read.
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from sandbox.config import SandboxConfig
from sandbox.contract import LanguageLimits


class ConfigError(ValueError):
    """A setting that cannot be used as given; the message names it (shown as one line by the CLI)."""


SESSION_TREES = ("copy", "layers")  # sandbox/harness/session_tools.py TREES; docs/sessions.md "The layers"


def _cores() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)


@dataclass
class ServerConfig:
    """Settings of `verifier serve` (and of in-process grading, which uses the same engine).

    Limits are advertised by `GetServerInfo` so clients split their batches to fit. Fields marked
    ``server_only`` (ports, listeners, shutdown, server TLS) mean nothing to in-process grading, so
    `verifier grade` does not offer them.
    """

    host: str = field(default="127.0.0.1", metadata={"server_only": True, "help": "Address to bind the gRPC port to."})
    port: int = field(default=50051, metadata={"server_only": True, "help": "gRPC port (0 picks a free one)."})
    workers: int = field(default_factory=_cores, metadata={"help": "Math worker processes (default: one per core)."})
    metrics_host: str = field(default="127.0.0.1", metadata={"server_only": True, "help": "Address of the Prometheus metrics endpoint."})
    metrics_port: int = field(default=9090, metadata={"server_only": True, "help": "Prometheus metrics port; 0 disables metrics."})
    http_port: int = field(default=8080, metadata={"server_only": True, "help": "HTTP/JSON port on --host (same engine, token and TLS as gRPC); 0 disables it."})

    max_tasks_per_call: int = field(default=1024, metadata={"server_only": True, "help": "Most tasks in one Grade/GradeStream call."})
    max_field_bytes: int = field(default=1 << 20, metadata={"help": "Most bytes in any one string field but a test's (completion, gold, test_code, checker, ...)."})
    max_test_field_bytes: int = field(default=16 << 20, metadata={"help": "Most bytes in one test's stdin or expected output (CodeContests-size inputs)."})
    max_test_set_bytes: int = field(default=32 << 20, metadata={"help": "Most bytes of all tests of one code task (stdin and expected output; inline or its test set). The count of tests is --sandbox-max-tests."})
    max_request_bytes: int = field(default=64 << 20, metadata={"server_only": True, "help": "Most bytes in one request message (gRPC's receive limit follows it; the HTTP body too)."})
    max_choices: int = field(default=26, metadata={"help": "Most choices in one multiple-choice task."})
    max_queued_items: int = field(default=8192, metadata={"server_only": True, "help": "Admission bound: items queued or running; beyond it calls get RESOURCE_EXHAUSTED."})

    default_math_timeout_s: float = field(default=5.0, metadata={"help": "Deadline of one math item from the moment a worker takes it."})
    max_math_timeout_s: float = field(default=30.0, metadata={"help": "Largest per-task math deadline a client may ask for."})
    # No default code budget: a code task without timeout_s gets one from its own tests x time
    # limit (docs/sandboxes.md "Code sandboxes"); a fixed default let a slow program on many tests run it out.
    max_code_timeout_s: float = field(default=300.0, metadata={"help": "Largest per-task code budget a client may ask for."})
    worker_max_tasks: int = field(default=1000, metadata={"help": "Recycle a math worker after this many items (bounds memory growth)."})
    math_retries: int = field(default=1, metadata={"help": "Times an item whose worker died is retried before it is answered infra_error."})

    code: bool = field(default=True, metadata={"help": "Grade code tasks in Docker sandboxes; False answers them infra_error."})
    sandbox: SandboxConfig = field(default_factory=SandboxConfig, metadata={
        "help": "The code sandbox (sandbox/config.py), every field a flag --sandbox-<name> and VERIFIER_SANDBOX_<NAME>; "
                "sandbox.max_concurrent_jobs is the one limit of code jobs running at once."})

    max_sessions: int = field(default=64, metadata={"server_only": True, "help": "Most sessions open at once (docs/sessions.md \"Sessions\"); each holds a container and counts as one item of admission. Beyond it CreateSession gets RESOURCE_EXHAUSTED (HTTP 429) with a retry hint."})
    session_idle_ttl_s: float = field(default=300.0, metadata={"server_only": True, "help": "A session with no call for this long is closed (its default; a session may ask for less or more, up to session_max_idle_ttl_s)."})
    session_max_idle_ttl_s: float = field(default=3600.0, metadata={"server_only": True, "help": "Largest idle TTL a session may ask for."})
    session_max_time_limit_s: float = field(default=60.0, metadata={"server_only": True, "help": "Largest CPU time per cell a session may ask for (a session that asks none gets SessionLimits.time_limit_s, 10 s)."})
    session_max_memory_limit_mb: int = field(default=2048, metadata={"server_only": True, "help": "Largest memory a session may ask for (default 512 MB)."})
    session_max_total_memory_mb: int = field(default=32768, metadata={"server_only": True, "help": "Most memory the open sessions may hold together: the sum of their memory limits (each session's /work, its disk, is a tmpfs inside that limit: docs/sessions.md \"Fork and snapshot\"). A new session or fork beyond it gets RESOURCE_EXHAUSTED (HTTP 429) naming this bound."})
    session_max_fork: int = field(default=16, metadata={"server_only": True, "help": "Most sessions one ForkSession may make (n from 1 to this; beyond it INVALID_ARGUMENT naming n)."})
    session_snapshot_ttl_s: float = field(default=600.0, metadata={"server_only": True, "help": "How long a session snapshot is kept (its default and its most); after it the snapshot id is NOT_FOUND (HTTP 404)."})
    session_snapshots_max_mb: int = field(default=1024, metadata={"server_only": True, "help": "Most bytes the server holds for snapshots together (each: its session's changes to its environment's tree, in the server's memory). A snapshot beyond it gets RESOURCE_EXHAUSTED (HTTP 429) naming this bound."})
    session_tree: str = field(default="copy", metadata={"server_only": True, "help": "How a session on a repository environment gets its /work (docs/sessions.md \"The layers\"), one of: copy | layers. 'copy': the session's own copy of every file, made by its box from the environment's read-only build (a spare box does it ahead), counted in its memory and in /work's size (sandbox.work_tmpfs_mb); a write in place (open(p, 'w'), cat > f, >>, chmod, truncate) works as in a real repository, and a fork sends and writes only the changes when a spare box was ready. 'layers': a link per file into the read-only build, no copy and no memory for the tree, a faster fork; a file the session has not replaced is refused a write in place (EACCES/EROFS): only for tools that replace files whole (write_file, a new file renamed over), else a correct agent fails."})
    advertise_address: str = field(default="", metadata={"server_only": True, "help": "host:port clients reach this replica at (e.g. the pod IP): sent with each new session so the client sends its calls to the replica that owns it; with route_secret, also how peers and peer_service name this replica. Empty: one replica, or a balancer with affinity."})
    route_secret: str = field(default="", metadata={"server_only": True, "help": "Secret only the replicas hold (never the bearer token), the same on every replica: it signs the route in each session id and authenticates a forwarded session call to its owner (docs/sessions.md \"Sessions\"). Empty (and no route_secret_file): ids name no replica, nothing is forwarded, each replica answers only its own sessions."})
    route_secret_file: str = field(default="", metadata={"server_only": True, "help": "File holding route_secret (a mounted Kubernetes Secret: deploy/k8s)."})
    peers: tuple[str, ...] = field(default=(), metadata={"server_only": True, "help": "The replicas a session call may be forwarded to, as a list the operator writes: each HOST:PORT, its advertise_address, or HOST:PORT/HTTP_PORT when its HTTP port is not this replica's. Listing this replica too is fine. Needs route_secret and advertise_address."})
    peer_service: str = field(default="", metadata={"server_only": True, "help": "A headless Service name resolving to every replica's IP (deploy/k8s/service-headless.yaml): each IP, on this replica's own ports, is a peer (as in peers; re-resolved every 5 s). Needs route_secret and advertise_address (IP:PORT)."})

    token: str = field(default="", metadata={"help": "Bearer token clients must send; empty disables auth."})
    token_file: str = field(default="", metadata={"help": "File holding the bearer token (a mounted secret)."})
    tls_cert: str = field(default="", metadata={"server_only": True, "help": "PEM certificate chain for TLS; with tls_key enables TLS."})
    tls_key: str = field(default="", metadata={"server_only": True, "help": "PEM private key for TLS."})
    peer_tls_name: str = field(default="", metadata={"server_only": True, "help": "With TLS and advertise_address: the host name every replica's certificate must be valid for when a session call is forwarded to its owner (replicas are reached by pod IP, which certificates rarely name), e.g. the Service's DNS name. Empty: the certificate's own first DNS subjectAltName, else its CN; a certificate naming neither needs this (docs/sessions.md \"Sessions\")."})
    allow_insecure_bind: bool = field(default=False, metadata={"server_only": True, "help": "Allow a non-loopback bind without token or TLS."})

    drain_delay_s: float = field(default=2.0, metadata={"server_only": True, "help": "After SIGTERM, how long health says NOT_SERVING and new calls get UNAVAILABLE before the port closes (lets balancers notice)."})
    grace_s: float = field(default=30.0, metadata={"server_only": True, "help": "After SIGTERM, how long in-flight calls may run before exit."})
    stop_on_stdin_eof: bool = field(default=False, metadata={"server_only": True, "help": "Drain and stop (as on SIGTERM) when standard input reaches end of file: a parent that starts the server with a pipe on its stdin (verifier/local_server.py) takes it down with itself even when killed."})
    max_connection_age_s: float = field(default=300.0, metadata={"server_only": True, "help": "Close connections after this age so clients rebalance over replicas."})
    log_level: str = field(default="INFO", metadata={"help": "Python logging level."})

    def __post_init__(self) -> None:
        if self.session_tree not in SESSION_TREES:
            raise ConfigError(f"session_tree {self.session_tree!r}: expected one of {', '.join(SESSION_TREES)}")

    def resolved_token(self) -> str:
        """The token from `token` or, failing that, the contents of `token_file`."""
        return _secret(self.token, self.token_file, "token")

    def resolved_route_secret(self) -> str:
        """The route secret from `route_secret` or, failing that, the contents of `route_secret_file`."""
        return _secret(self.route_secret, self.route_secret_file, "route secret")

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None, **overrides) -> "ServerConfig":
        """Defaults, then VERIFIER_* environment variables, then explicit overrides (flat names, as the
        CLI's flags: workers=3, sandbox_pool_size=4)."""
        env = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        for flat in flat_fields():
            raw = env.get(flat.env)
            if raw is not None:
                try:
                    values[flat.name] = parse(raw, flat.type)
                except ValueError as e:
                    raise ConfigError(f"{flat.env}={raw!r} is not a valid {flat.type}{_why(e)}") from None
        values.update({k: v for k, v in overrides.items() if v is not None})
        unknown = sorted(set(values) - {flat.name for flat in flat_fields()})
        if unknown:
            raise ConfigError(f"unknown setting(s) {unknown}")
        sandbox = {f.name: values.pop(f"sandbox_{f.name}") for f in dataclasses.fields(SandboxConfig)
                   if f"sandbox_{f.name}" in values}
        if "limits" in sandbox:  # a partial table: only the languages and fields it names change
            sandbox["limits"] = _merge_limits(SandboxConfig().limits, sandbox["limits"])
        return cls(**values, sandbox=SandboxConfig(**sandbox))


def _secret(value: str, path: str, what: str) -> str:
    """A secret given inline or, failing that, as a file (a mounted Kubernetes Secret)."""
    if value or not path:
        return value
    try:
        with open(path, encoding="utf-8") as fh:
            return fh.read().strip()
    except OSError as e:
        raise ConfigError(f"{what} file {path!r} cannot be read ({e.strerror})") from None


@dataclass(frozen=True)
class FlatField:
    """One setting as the CLI and the environment see it: `sandbox.pool_size` is name `sandbox_pool_size`."""

    name: str
    type: str
    help: str
    server_only: bool

    @property
    def env(self) -> str:
        return f"VERIFIER_{self.name.upper()}"

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")


def flat_fields(cls: type = ServerConfig, prefix: str = "") -> Iterator[FlatField]:
    """Every leaf setting of `cls`, nested dataclasses flattened with their field name as prefix."""
    nested = {"SandboxConfig": SandboxConfig}
    for f in dataclasses.fields(cls):
        if f.type in nested:
            yield from flat_fields(nested[f.type], f"{prefix}{f.name}_")
        else:
            yield FlatField(prefix + f.name, str(f.type), f.metadata.get("help", ""), bool(f.metadata.get("server_only")))


def _why(exc: ValueError) -> str:
    return f" ({exc})" if str(exc) and not str(exc).startswith(("invalid literal", "could not convert")) else ""


def _merge_limits(base: dict[str, LanguageLimits], table: dict) -> dict[str, LanguageLimits]:
    """`{"python": {"max_time_limit_s": 30}}` over the default per-language limits."""
    merged = dict(base)
    for language, changes in table.items():
        names = {f.name for f in dataclasses.fields(LanguageLimits)}
        if not isinstance(changes, dict) or set(changes) - names:
            raise ConfigError(f"sandbox limits for {language!r}: expected an object with keys from {sorted(names)}")
        merged[language] = dataclasses.replace(merged.get(language, LanguageLimits()), **changes)
    return merged


def parse(raw: str, type_name: str) -> Any:
    """A setting's text (a flag or an environment value) as its field's type."""
    if type_name == "bool":
        value = raw.strip().lower()
        if value not in {"1", "true", "yes", "on", "0", "false", "no", "off", ""}:
            raise ValueError(raw)
        return value in {"1", "true", "yes", "on"}
    if type_name == "int":
        return int(raw)
    if type_name == "float":
        return float(raw)
    if type_name == "str | None":  # empty: None (the library's default, e.g. the daemon's runtime)
        return raw or None
    if type_name == "tuple[str, ...]":  # a comma list
        return tuple(item.strip() for item in raw.split(",") if item.strip())
    if type_name.startswith("dict["):  # JSON object
        try:
            value = json.loads(raw)
        except json.JSONDecodeError as e:
            raise ValueError(f"not JSON: {e.msg}") from None
        if not isinstance(value, dict):
            raise ValueError("expected a JSON object")
        return value
    return raw

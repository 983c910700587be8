"""TRL reward functions backed by the verifier service: one RPC per batch, several named rewards.

Swap local rewards for ours in one line:

    reward_funcs = verifier_rewards("127.0.0.1:50051", components=("accuracy", "format"))
    GRPOTrainer(..., reward_funcs=reward_funcs, args=GRPOConfig(reward_weights=[1.0, 0.2]))

Each returned callable is an instance of `RewardComponent`: async `__call__` (TRL >= 1.14 detects
it through `is_async_callable`), a real `__name__` (TRL logs `rewards/<name>/mean`), picklable
(AsyncGRPOTrainer pickles reward functions into a spawned process). The components of one group
share the RPC: the first to see a batch sends it, the others await the same future. The gRPC
client is created lazily per process and event loop, because a grpc.aio channel is bound to the
loop it was made on and TRL runs async rewards on its own daemon loop.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from sandbox.contract import HOST_FAULTS
from sandbox.keys import reuse_key
from trainer.config import RewardConfig
from trainer.tasks import build_tasks, component_value

log = logging.getLogger(__name__)

# TRL's own keyword arguments: never dataset columns, never sent to the server.
TRL_KWARGS = ("prompts", "completions", "completion_ids", "trainer_state", "log_extra", "log_metric", "environments")
MAX_PENDING_BATCHES = 64
DEADLINE_GRACE_S = 5.0


class RewardServiceError(RuntimeError):
    """The verifier failed most of several consecutive batches: stop rather than train on nothing."""


@dataclass
class BatchOutcome:
    """What one RPC produced, shared by every component of the group."""

    tasks: list[dict[str, Any] | None]
    results: list[dict[str, Any] | None]
    rpc_s: float = 0.0
    retries: int = 0
    ungraded: int = 0
    sent: int = 0
    error: str = ""


@dataclass(eq=False)  # entries are compared by identity
class _Pending:
    future: asyncio.Future[BatchOutcome]
    consumed: set[str] = field(default_factory=set)


@dataclass
class GroupStats:
    """Running totals of this process, for callbacks that report reward wait time."""

    batches: int = 0
    items: int = 0
    ungraded: int = 0
    retries: int = 0
    wait_s: float = 0.0


def default_client_factory(cfg: RewardConfig) -> Any:
    """An AsyncVerifierClient for cfg; imported here so unpickling needs no gRPC until first use."""
    from verifier.client import AsyncVerifierClient

    return AsyncVerifierClient(cfg.target, cfg.client_config())


class Breaker:
    """The circuit breaker of every reward path (the TRL functions here, the verl, OpenRLHF and slime
    adapters in trainer/remote.py): counts batches in a row that came back mostly ungraded and raises
    RewardServiceError at `breaker_patience`, so a run never trains on zeros from a service that is down."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.streak = 0

    def record(self, sent: int, ungraded: int, cfg: RewardConfig, error: str = "") -> None:
        """Count one batch of `sent` items, `ungraded` of them not graded; raise at the patience."""
        with self._lock:
            failed = sent > 0 and ungraded / sent >= cfg.breaker_threshold
            self.streak = self.streak + 1 if failed else 0
            if not (cfg.breaker_patience and self.streak >= cfg.breaker_patience):
                return
            self.streak = 0
        raise RewardServiceError(
            f"verifier at {cfg.target}: {ungraded}/{sent} items ungraded, >= {cfg.breaker_threshold:.0%} of the "
            f"batch for {cfg.breaker_patience} batches in a row (last error: {error or 'items answered infra_error'}). "
            f"Training stopped rather than learn from missing rewards; check the service (metrics, logs) and resume "
            f"from the last checkpoint. Tune RewardConfig.breaker_patience/breaker_threshold, or 0 to disable.")


class VerifierRewards:
    """A group of named reward components over one verifier RPC per batch.

    Pickling keeps only the config and the client factory; clients, in-flight batches and the
    circuit breaker's streak start afresh in the receiving process.
    """

    def __init__(self, config: RewardConfig | None = None,
                 client_factory: Callable[[RewardConfig], Any] | None = None):
        self.config = config or RewardConfig()
        self.client_factory = client_factory
        self._reset_runtime()

    def _reset_runtime(self) -> None:
        self._pid = os.getpid()
        self._clients: dict[int, tuple[weakref.ref[Any], Any]] = {}
        self._pending: OrderedDict[tuple[Any, ...], list[_Pending]] = OrderedDict()
        self._breaker = Breaker()
        self.stats = GroupStats()
        self.last_outcome: BatchOutcome | None = None

    def __getstate__(self) -> dict[str, Any]:
        return {"config": asdict(self.config), "client_factory": self.client_factory}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.config = RewardConfig(**state["config"])
        self.client_factory = state["client_factory"]
        self._reset_runtime()

    def reward_funcs(self) -> list[RewardComponent]:
        """One callable per configured component, in order (match reward_weights to it)."""
        return [RewardComponent(self, c) for c in self.config.components]

    # ------------------------------------------------------------------ shared RPC

    async def rewards(self, component: str, completions: Sequence[Any], kwargs: dict[str, Any]) -> list[float | None]:
        """This component's rewards for the batch, sending the RPC only if no sibling has."""
        if os.getpid() != self._pid:  # forked: the parent's channels and futures are not ours
            self._reset_runtime()
        columns = {k: v for k, v in kwargs.items() if k not in TRL_KWARGS}
        tasks = build_tasks(completions, columns, self.config, kwargs.get("prompts"))
        loop = asyncio.get_running_loop()
        key = (id(loop), _fingerprint(tasks))
        pending, owner = self._claim(key, component, loop)
        outcome = await (self._run_owner(pending, tasks, kwargs) if owner else asyncio.shield(pending.future))
        return [component_value(component, r, t["kind"] if t else None, t)
                for r, t in zip(outcome.results, outcome.tasks, strict=True)]

    def _claim(self, key: tuple[Any, ...], component: str, loop: asyncio.AbstractEventLoop) -> tuple[_Pending, bool]:
        """The pending batch this component should read, and whether it must send it itself.

        A batch is shared with the first entry under the same key that this component has not
        read yet; it is dropped once every component has read it.
        """
        entries = self._pending.setdefault(key, [])
        for entry in entries:
            if component not in entry.consumed:
                self._consume(key, entry, component)
                return entry, False
        entry = _Pending(loop.create_future())
        entries.append(entry)
        self._consume(key, entry, component)
        while sum(len(v) for v in self._pending.values()) > MAX_PENDING_BATCHES:
            oldest = next(iter(self._pending))
            self._pending[oldest].pop(0)
            if not self._pending[oldest]:
                del self._pending[oldest]
        return entry, True

    def _consume(self, key: tuple[Any, ...], entry: _Pending, component: str) -> None:
        entry.consumed.add(component)
        if entry.consumed >= set(self.config.components):
            entries = self._pending.get(key, [])
            if entry in entries:
                entries.remove(entry)
            if not entries:
                self._pending.pop(key, None)

    async def _run_owner(self, pending: _Pending, tasks: list[dict[str, Any] | None], kwargs: dict[str, Any]) -> BatchOutcome:
        """Send the batch, log it, update the breaker; siblings get the outcome or the error."""
        try:
            outcome = await self._grade(tasks)
            self._record(outcome, kwargs)
        except asyncio.CancelledError:
            pending.future.cancel()
            raise
        except BaseException as exc:
            if not pending.future.done():
                pending.future.set_exception(exc)
                pending.future.exception()  # siblings may not be waiting: no "never retrieved" noise
            raise
        pending.future.set_result(outcome)
        return outcome

    async def _grade(self, tasks: list[dict[str, Any] | None]) -> BatchOutcome:
        """One RPC for every gradable row; any failure becomes ungraded items, never an exception."""
        sendable = [t for t in tasks if t is not None]
        outcome = BatchOutcome(tasks=tasks, results=[None] * len(tasks), sent=len(sendable))
        if not sendable:
            return outcome
        start = time.monotonic()
        try:
            client = self._client()
            report = await asyncio.wait_for(client.grade_detailed(sendable),
                                            self.config.client.timeout_s + DEADLINE_GRACE_S)
            by_id = {str(r.get("id")): r for r in report.results}
            outcome.results = [by_id.get(t["id"]) if t is not None else None for t in tasks]
            outcome.retries = int(getattr(report, "retries", 0))
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # server down past the deadline, bad request, broken client
            outcome.error = f"{type(exc).__name__}: {exc}"[:500]
            log.warning("verifier batch of %d items not graded: %s", len(sendable), outcome.error)
        outcome.rpc_s = time.monotonic() - start
        outcome.ungraded = sum(1 for t, r in zip(tasks, outcome.results)
                               if t is not None and (r is None or r.get("verdict") in HOST_FAULTS))
        return outcome

    def _client(self) -> Any:
        """The client of the running loop, made on first use in this process and loop."""
        loop = asyncio.get_running_loop()
        entry = self._clients.get(id(loop))
        if entry is not None and entry[0]() is loop:
            return entry[1]
        factory = self.client_factory or default_client_factory
        client = factory(self.config)
        self._clients[id(loop)] = (weakref.ref(loop), client)
        return client

    # ------------------------------------------------------------------ policy and logging

    def _record(self, outcome: BatchOutcome, kwargs: dict[str, Any]) -> None:
        """Totals, TRL logging hooks, then the circuit breaker (which may raise)."""
        self.last_outcome = outcome
        s = self.stats
        s.batches += 1
        s.items += outcome.sent
        s.ungraded += outcome.ungraded
        s.retries += outcome.retries
        s.wait_s += outcome.rpc_s
        _log_batch(outcome, kwargs.get("log_extra"), kwargs.get("log_metric"), self.config.log_samples)
        self._breaker.record(outcome.sent, outcome.ungraded, self.config, outcome.error)

    async def aclose(self) -> None:
        """Close this loop's client (others belong to loops we cannot await on)."""
        entry = self._clients.pop(id(asyncio.get_running_loop()), None)
        if entry is not None:
            close = getattr(entry[1], "close", None)
            result = close() if close else None
            if asyncio.iscoroutine(result):
                await result


def _log_batch(outcome: BatchOutcome, log_extra: Callable[..., Any] | None, log_metric: Callable[..., Any] | None,
               samples: bool) -> None:
    """Per-sample columns through log_extra and batch scalars through log_metric, when TRL passes them."""
    if log_extra is not None and samples:
        rows = [r or {} for r in outcome.results]
        log_extra("verifier_verdict", [r.get("verdict", "not_sent" if t is None else "ungraded")
                                       for r, t in zip(rows, outcome.tasks)])
        log_extra("verifier_extracted", [str(r.get("extracted", ""))[:200] for r in rows])
        log_extra("verifier_grade_s", [round(float(r.get("queue_s") or 0) + float(r.get("exec_s") or 0), 4)
                                       for r in rows])
    if log_metric is not None:
        log_metric("verifier/rpc_s", outcome.rpc_s)
        log_metric("verifier/retries", float(outcome.retries))
        log_metric("verifier/ungraded", float(outcome.ungraded))
        log_metric("verifier/ungraded_frac", outcome.ungraded / outcome.sent if outcome.sent else 0.0)
        # rows no format reads (trainer/tasks.py UNREADABLE logs the first of each set of columns)
        log_metric("verifier/unreadable", float(sum(t is None for t in outcome.tasks)))


def _fingerprint(tasks: list[dict[str, Any] | None]) -> bytes:
    """Content key of a batch, a reuse key (docs/service.md "Reuse keys": exact typed bytes, so call
    tests with `1` and `True`, or a dict in another order, are another batch): the same completions and
    golds are the same batch for every component. Each distinct test list is hashed once: a GRPO group
    repeats megabytes of the same tests per completion (bench/wire_size.py)."""
    seen: list[tuple[list[Any], bytes]] = []
    parts: list[Any] = []
    for task in tasks:
        tests = task.get("tests") if isinstance(task, dict) else None
        if isinstance(task, dict) and isinstance(tests, list) and tests:
            task = {**task, "tests": _tests_digest(tests, seen)}
        parts.append(task)
    return reuse_key("trainer-batch", parts)


def _tests_digest(tests: list[Any], seen: list[tuple[list[Any], bytes]]) -> bytes:
    """The reuse key of a task's stdin tests; an equal copy already hashed is found by `==`, which is
    exact only for dicts of plain str values (equality of code points) with their keys in the same
    order: anything else is hashed."""
    exact = all(type(t) is dict and all(type(v) is str for v in t.values()) for t in tests)
    for other, digest in seen:
        if exact and other == tests and all(list(a) == list(b) for a, b in zip(other, tests)):
            return digest  # an equal copy, compared at memory speed
    digest = reuse_key("trainer-tests", tests)
    if exact:
        seen.append((tests, digest))
    return digest


class RewardComponent:
    """One named reward function of a `VerifierRewards` group, in TRL's reward-function contract.

    Called with keyword arguments only: prompts, completions, completion_ids, every dataset
    column, trainer_state, log_extra, log_metric (the last three absent under AsyncGRPOTrainer).
    Returns exactly one float or None per completion.
    """

    def __init__(self, group: VerifierRewards, component: str):
        self.group = group
        self.component = component
        self.__name__ = self.__qualname__ = f"{group.config.name_prefix}{component}"

    async def __call__(self, prompts: Sequence[Any] | None = None, completions: Sequence[Any] | None = None,
                       completion_ids: Sequence[Any] | None = None, **kwargs: Any) -> list[float | None]:
        if not completions:
            return []
        return await self.group.rewards(self.component, completions, {**kwargs, "prompts": prompts})

    def __repr__(self) -> str:
        return f"RewardComponent({self.__name__!r}, target={self.group.config.target!r})"


def verifier_rewards(target: str = "127.0.0.1:50051", components: Sequence[str] = ("accuracy", "format"),
                     **config: Any) -> list[RewardComponent]:
    """The one-line swap: TRL reward functions for `components`, sharing one RPC per batch."""
    return VerifierRewards(RewardConfig(target=target, components=tuple(components), **config)).reward_funcs()

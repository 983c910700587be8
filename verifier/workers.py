"""Supervised math worker processes with a hard deadline per item.

math-verify's own timeouts use `signal.alarm` (main thread only, whole seconds, cannot stop C
code), so the parent enforces deadlines instead: a worker that overruns is killed and replaced.
Workers fork from a forkserver started before the gRPC server exists (forking a process that
runs gRPC threads is unsafe), with verifier.math preloaded so a replacement is ready quickly.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import multiprocessing
import os
import threading
import time
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, Callable

import pebble
from pebble.common import CONSTS

# A worker stuck in C code ignores SIGTERM until it returns: escalate to SIGKILL quickly.
CONSTS.term_timeout = 0.2
CONSTS.sleep_unit = 0.05


BACKSTOP_S = 5.0
"""How long past an item's timeout the server waits for pebble to kill its worker before it stops waiting."""
START_WAIT_S = 120.0
POOL_BREAKS_MAX = 3  # an item's attempts a broken pool may abort before it counts as a crash (MathPool.grade)
"""How long an item may wait for a worker to take it (workers restarting) before it is a crash, retried."""


START_POLL_S = 0.25
"""How often an item not yet taken by a worker is looked at: its start is known to within this."""
LATE_S = 1.0
"""How long past an item's timeout pebble may report it before the report is a stall (pebble's loop runs
every `CONSTS.sleep_unit`, and escalates to SIGKILL after `CONSTS.term_timeout`)."""


class _NotStarted(Exception):
    """No worker took the item within START_WAIT_S."""


class _Stalled(Exception):
    """pebble reported no end to a started item in time: its manager thread was stalled."""


async def _started(wrapped: asyncio.Future, future: concurrent.futures.Future) -> float:
    """When (monotonic) a worker took the item, as seen at most START_POLL_S later, which only shortens the
    time charged to it; an item done before it is seen running started now. Raises `_NotStarted`."""
    deadline = time.monotonic() + START_WAIT_S
    while not future.running():
        done, _ = await asyncio.wait({wrapped}, timeout=START_POLL_S)
        if done:
            break
        if time.monotonic() >= deadline:
            raise _NotStarted
    return time.monotonic()


@dataclass
class Outcome:
    """What became of one job: `status` is ok, timeout, crash or error; `value` is the return."""

    status: str
    value: Any = None
    detail: str = ""
    seconds: float = 0.0
    overran: bool = False
    """A crash whose item was seen running past its deadline (`_Stalled`): `MathPool.grade` counts these."""
    broken: bool = False
    """A crash of the whole pool (pebble aborts every item in it, innocent ones too): `MathPool.grade` retries these
    apart from the item's own `retries`, at most POOL_BREAKS_MAX times, each on a fresh pool."""


def _whoami() -> int:
    time.sleep(0.05)  # long enough that warm-up jobs land on different workers
    return os.getpid()


class MathPool:
    """A fixed number of worker processes; `run` returns an Outcome and never raises but for cancellation."""

    def __init__(self, workers: int, max_tasks: int = 1000, on_restart: Callable[[str], None] | None = None):
        self.workers = workers
        self._max_tasks = max_tasks
        self._on_restart = on_restart or (lambda reason: None)
        self._pool: pebble.ProcessPool | None = None

    def start(self, warm: bool = True) -> None:
        """Start the workers and, with `warm`, wait until each answers."""
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(["verifier.worker_preload"])
        self._pool = pebble.ProcessPool(max_workers=self.workers, max_tasks=self._max_tasks, context=ctx)
        if warm:
            futures = [self._pool.schedule(_whoami) for _ in range(self.workers)]
            concurrent.futures.wait(futures, timeout=120)

    @property
    def alive(self) -> bool:
        return self._pool is not None and self._pool.active

    def heal(self) -> None:
        """Replace a broken pool (pebble gives up on the whole pool when an idle worker dies).

        Safe while gRPC runs: new workers fork from the forkserver started before it.
        """
        if self._pool is None or self._pool.active:
            return
        self._replace(self._pool)

    def _replace(self, broken: pebble.ProcessPool) -> None:
        """Replace `broken` if it is still the pool (an item that saw it break says so before pebble's state may)."""
        if self._pool is not broken:
            return
        self._pool = None
        threading.Thread(target=broken.stop, daemon=True).start()
        self._on_restart("pool_broken")
        self.start(warm=False)

    async def grade(self, fn: Callable, args: tuple, timeout_s: float, retries: int) -> Outcome:
        """`run`, with a crash retried `retries` + 1 times; an attempt a broken pool aborted (pebble aborts every item
        in it: never the item's doing) is retried apart from those, on a fresh pool, at most POOL_BREAKS_MAX times
        (stop 52's CI: all three attempts of one item met pool breaks after both workers were killed).

        An item seen running past its deadline on two attempts is its own `timeout`, however late pebble reported
        it: a worker that died while pebble's loop stalled is reported late once (the retry runs on a fresh
        worker), but an answer that really overruns on a starved server overruns every time, and retrying it
        until it is `infra_error` would turn the answer's failure into the server's (docs/service.md)."""
        overruns = breaks = 0
        outcome = Outcome("crash", detail="not run")
        attempts = 0
        while attempts < retries + 2:
            outcome = await self.run(fn, args, timeout_s)
            overruns += outcome.overran
            if overruns >= 2:
                return Outcome("timeout", detail=f"grading took longer than {timeout_s:g} s on two workers",
                               seconds=outcome.seconds)
            if outcome.status != "crash":
                break
            if outcome.broken and breaks < POOL_BREAKS_MAX:  # not the item's: every item in the pool was aborted
                breaks += 1
                continue
            attempts += 1
        return outcome

    async def run(self, fn: Callable, args: tuple, timeout_s: float) -> Outcome:
        """Run fn(*args) in a worker once; kill the worker if it takes longer than timeout_s."""
        assert self._pool is not None, "MathPool.start() was not called"
        started = time.monotonic()
        self.heal()
        pool = self._pool
        try:
            future = pool.schedule(fn, args=args, timeout=timeout_s)
        except RuntimeError:  # the pool broke since heal(): report a crash, the engine retries
            self._replace(pool)
            return Outcome("crash", detail="worker pool was broken; replaced", broken=True)
        try:
            value = await self._wait(future, timeout_s)
        except asyncio.CancelledError:
            running = future.running()
            future.cancel()  # pebble stops the worker that is running it
            if running:
                self._on_restart("cancel")
            raise
        except _NotStarted:
            future.cancel()
            return Outcome("crash", detail=f"no worker started the item within {START_WAIT_S:g} s; retried",
                           seconds=time.monotonic() - started)
        except _Stalled:
            if future.cancel():  # its worker, if alive, is stopped
                self._on_restart("stall")
            return Outcome("crash", detail="the worker pool reported the item late (server stalled); retried",
                           seconds=time.monotonic() - started, overran=True)
        except (TimeoutError, asyncio.TimeoutError):
            future.cancel()
            self._on_restart("timeout")
            return Outcome("timeout", detail=f"grading took longer than {timeout_s:g} s; worker replaced",
                           seconds=time.monotonic() - started)
        except pebble.ProcessExpired as exc:
            self._on_restart("crash")
            return Outcome("crash", detail=f"worker died (exit code {exc.exitcode})",
                           seconds=time.monotonic() - started)
        except BrokenProcessPool:
            self._replace(pool)
            return Outcome("crash", detail="worker pool broke", seconds=time.monotonic() - started, broken=True)
        except Exception as exc:  # a bug in the grader: report it per item, keep serving
            return Outcome("error", detail=f"{type(exc).__name__}: {exc}"[:200], seconds=time.monotonic() - started)
        return Outcome("ok", value=value, seconds=time.monotonic() - started)

    @staticmethod
    async def _wait(future: concurrent.futures.Future, timeout_s: float) -> Any:
        """The item's value, or pebble's TimeoutError when the item itself overran. pebble kills a worker
        `timeout_s` after it STARTED the item, and reports it within a fraction of a second; a report much
        later, or none, means pebble's manager thread was stalled (it starts replacement workers in the same
        loop that reports deaths and timeouts: a worker killed while that loop waited on a slow restart had
        its item reported `timeout` 12 s later, tests/test_server.py). That is the server's delay, never the
        answer's: `_Stalled`, a crash the engine retries. So is an item no worker took within START_WAIT_S
        (`_NotStarted`)."""
        wrapped = asyncio.shield(asyncio.wrap_future(future))  # shielded: on cancellation the caller sees whether it ran
        started = await _started(wrapped, future)
        done, _ = await asyncio.wait({wrapped}, timeout=max(0.0, started + timeout_s + BACKSTOP_S - time.monotonic()))
        if not done:
            raise _Stalled
        try:
            return wrapped.result()
        except TimeoutError:
            if time.monotonic() - started > timeout_s + LATE_S:
                raise _Stalled from None
            raise

    def close(self) -> None:
        if self._pool is not None:
            self._pool.stop()
            self._pool.join(timeout=5)
            self._pool = None

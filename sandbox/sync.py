"""A blocking facade over CodeGrader, for scripts, benchmarks and tests without an event loop.

The grader lives on its own event loop in a daemon thread; `grade_many` submits tasks
concurrently (the pool's own limits decide how many run at once).
"""
from __future__ import annotations

import asyncio
import threading
from typing import Iterable

from .config import SandboxConfig
from .grader import CodeGrader


class SyncGrader:
    """`with SyncGrader(config) as g: g.grade(task)`; start waits until warm containers exist."""

    def __init__(self, config: SandboxConfig | None = None, warm: bool = True) -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, name="sandbox-loop", daemon=True)
        self._thread.start()
        self.grader = self.call(self._make(config))
        if warm and self.grader.available:
            self.call(self._warm())

    async def _make(self, config: SandboxConfig | None) -> CodeGrader:
        g = CodeGrader(config)
        await g.start()
        return g

    async def _warm(self, timeout_s: float = 60.0) -> None:
        """Wait until every language's pool is full, so timings exclude container starts."""
        pool = self.grader._pool
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout_s
        while loop.time() < end and any(q.qsize() < self.grader.config.pool_size for q in pool._idle.values()):
            await asyncio.sleep(0.05)

    def call(self, coro, timeout: float | None = None):
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def grade(self, task: dict, timeout_s: float | None = None) -> dict:
        async def one() -> dict:
            result = await self.grader.grade(task, timeout_s)
            await self.grader.settled()
            return result
        return self.call(one())

    def grade_many(self, tasks: Iterable[dict]) -> list[dict]:
        """Results in task order, returned once the pool has settled (each box reset or replaced:
        CodeGrader.settled), so stats() and the next call see what these jobs left."""
        async def all_of() -> list[dict]:
            results = list(await asyncio.gather(*(self.grader.grade(t) for t in tasks)))
            await self.grader.settled()
            return results
        return self.call(all_of())

    def close(self) -> None:
        try:
            self.call(self.grader.close(), timeout=60)
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self._thread.join(10)

    def __enter__(self) -> "SyncGrader":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

"""The grading engine: admission, de-duplication and fan-out of tasks to math workers and sandboxes.

The gRPC server and in-process `verifier grade` both drive this one class, so a file graded locally
gets the same workers, deadlines and verdicts as one graded through the service.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from collections.abc import AsyncGenerator, Awaitable, Mapping, Sequence
from typing import Any

from sandbox.contract import (BY_NAME, CACHEABLE, MATH_SHOWN_CHARS, CodeTask, Limits, MathTask, RepoTask, Task, infra_error,
                              parse_task)
from sandbox.contract import outcome as math_outcome
from sandbox.keys import reuse_key
from verifier import math as vmath
from verifier.config import ServerConfig
from verifier.metrics import Metrics
from verifier.schema import default_languages, server_limits
from verifier.workers import MathPool, Outcome

log = logging.getLogger("verifier.engine")

_RESULT_CACHE_SIZE = 65536


_READ_INLINE_CHARS = 16 << 10  # a completion up to this is read on the event loop: at most about 10 ms (_read)


def _math_key(task: MathTask, extraction: vmath.Extraction) -> bytes:
    """What a math verdict depends on, as a reuse key (sandbox/keys.py; docs/service.md "Reuse keys"):
    exact typed bytes of the gold, the choices, the answer read (None is not "") and where it was
    read, the deadline and the problem's text (its names decide what the grammar reads: fx29ay), hashed:
    golds and answers may be a megabyte each, and the cross-call cache must stay small in bytes, not
    just in entries."""
    return reuse_key("math", task.gold, task.choices, extraction.text, extraction.source, task.timeout_s, task.problem)


def _model(task: Task | Mapping[str, Any]) -> Task:
    """The task models every front end decodes into (sandbox/contract.py) pass as they
    are; a dict (this class's Python API, used directly) is decoded here, once."""
    return task if isinstance(task, (MathTask, CodeTask, RepoTask)) else parse_task(task)


class Overloaded(Exception):
    """The admission bound is reached; retry after `retry_after_s`."""

    def __init__(self, retry_after_s: float, why: str = "server is at capacity"):
        super().__init__(f"{why}; retry in {retry_after_s:.1f} s")
        self.retry_after_s = retry_after_s


class Draining(Exception):
    """The server is shutting down and takes no new work."""


class Engine:
    """Grades task models (sandbox/contract.py MathTask, CodeTask), decoded once by the
    front end that received them (docs/architecture.md "The data path")."""

    def __init__(self, config: ServerConfig, metrics: Metrics | None = None):
        self.config = config
        self.metrics = metrics or Metrics()
        self.math = MathPool(config.workers, config.worker_max_tasks,
                             on_restart=lambda reason: self.metrics.worker_restarts.labels(reason).inc())
        self.code: Any = None  # sandbox.CodeGrader once started
        self._code_reason = "code grading is disabled (--no-code)"
        self._math_slots: asyncio.Semaphore | None = None
        self._pending = 0
        self._throughput = 0.0  # items per second, EWMA, for retry-after hints
        self._last_done = time.monotonic()
        self._cache: OrderedDict[bytes, dict] = OrderedDict()
        self._reader = ThreadPoolExecutor(1, thread_name_prefix="math-read")  # long completions' answers: _read
        self.draining = False

    # ------------------------------------------------------------ lifecycle

    def start_workers(self) -> None:
        """Start math workers. Call before any gRPC server exists: they fork."""
        self.math.start()

    async def start(self) -> None:
        """Start the sandbox pool (when enabled); Docker being down is not fatal."""
        self._math_slots = asyncio.Semaphore(self.config.workers)
        if self.config.code:
            try:
                from sandbox import CodeGrader
            except ImportError as exc:
                self._code_reason = f"sandbox package unavailable: {exc}"
            else:
                sandbox = self.config.sandbox
                self.code = CodeGrader(sandbox)
                await self.code.start()

    async def close(self) -> None:
        if self.code is not None:
            await self.code.close()
        self.math.close()
        self._reader.shutdown(wait=False, cancel_futures=True)

    # ------------------------------------------------------------ introspection

    @property
    def code_available(self) -> bool:
        return self.code is not None and self.code.available

    def code_unavailable_reason(self) -> str:
        if self.code is not None:
            return self.code.unavailable_reason()
        return self._code_reason

    def languages(self) -> dict[str, dict]:
        if self.code is not None:
            return {lang["name"]: lang for lang in self.code.languages()}
        return default_languages()

    def limits(self) -> Limits:
        """The limits this server advertises and enforces, for the languages it serves: every front end
        validates against this one value (verifier/schema.py server_limits)."""
        return server_limits(self.config, self.languages())

    # ------------------------------------------------------------ admission

    def admit(self, n: int) -> None:
        """Count n items in, or refuse the whole call: batches are admitted all or nothing."""
        if self.draining:
            self.metrics.rejections.labels("draining").inc()
            raise Draining()
        if self._pending + n > self.config.max_queued_items:
            self.metrics.rejections.labels("queue_full").inc()
            rate = max(self._throughput, 10.0 * self.config.workers)  # no history yet: a modest guess
            raise Overloaded(min(60.0, max(0.5, (self._pending + n - self.config.max_queued_items) / rate)))
        self._pending += n

    def unadmit(self, n: int) -> None:
        """Give back n items admitted by `admit` that ended outside grading (a closed session)."""
        self._release(n)

    def _release(self, n: int) -> None:
        if n <= 0:
            return
        self._pending -= n
        now = time.monotonic()
        dt = max(now - self._last_done, 1e-3)
        self._last_done = now
        self._throughput = 0.9 * self._throughput + 0.1 * min(n / dt, 10000.0)

    # ------------------------------------------------------------ grading

    async def grade_stream(self, tasks: Sequence[Task | Mapping[str, Any]]) -> AsyncGenerator[dict[str, Any], None]:
        """Yield each task's result as it finishes; raises Overloaded or Draining before the first.

        Closing the iterator early (client cancelled) cancels every unfinished item: workers running
        them are killed and sandboxes reset.
        """
        models = [_model(t) for t in tasks]
        self.admit(len(models))
        released = 0
        groups: dict[bytes, asyncio.Task] = {}
        runs = self.code.shared_runs() if self.code is not None else None  # identical programs run once
        jobs = [asyncio.ensure_future(self._grade_one(task, groups, runs)) for task in models]
        try:
            for next_done in asyncio.as_completed(jobs):
                result = await next_done
                released += 1
                self._release(1)
                yield result
        finally:
            self._release(len(models) - released)
            for job in (*jobs, *groups.values()):
                job.cancel()
            shared = runs.futures() if runs is not None else []
            for run in shared:
                run.cancel()
            await asyncio.gather(*jobs, *groups.values(), *shared, return_exceptions=True)
            if runs is not None and runs.hits:
                self.metrics.dedup_hits.labels("code").inc(runs.hits)

    async def grade(self, tasks: Sequence[Task | Mapping[str, Any]]) -> list[dict]:
        """All results, in task order."""
        models = [_model(t) for t in tasks]
        async with contextlib.aclosing(self.grade_stream(models)) as stream:
            by_id = {r["id"]: r async for r in stream}
        return [by_id[t.id] for t in models]

    async def _grade_one(self, task: Task, groups: dict[bytes, asyncio.Task], runs: Any) -> dict:
        kind = "math" if isinstance(task, MathTask) else "repo" if isinstance(task, RepoTask) else "code"
        work = (self._grade_math(task, groups) if isinstance(task, MathTask)
                else self._grade_repo(task) if isinstance(task, RepoTask)
                else self._grade_code(task, task.timeout_s or None, runs))
        result = await _answered(task.id, work)
        self.metrics.items.labels(kind, result["verdict"]).inc()
        return result

    async def _grade_math(self, task: MathTask, groups: dict[bytes, asyncio.Task]) -> dict:
        extraction = await self._read(task)
        key = _math_key(task, extraction)
        cached = self._cache.get(key)
        if cached is not None:
            self._cache.move_to_end(key)
            self.metrics.dedup_hits.labels("math").inc()
            return {**cached, "id": task.id, "queue_s": 0.0, "exec_s": 0.0}
        shared = groups.get(key)
        if shared is None:
            shared = groups[key] = asyncio.ensure_future(self._run_math(task, extraction, key))
        else:
            self.metrics.dedup_hits.labels("math").inc()
        result = await asyncio.shield(shared)
        return {**result, "id": task.id}

    async def _read(self, task: MathTask) -> vmath.Extraction:
        """The answer a completion states. Reading is linear, but a 1 MiB completion takes up to about 0.5 s
        (English prose with many grouped numbers) and a call may hold 64 of them, so a long one is read in a thread, off the event loop, as code is planned
        (docs/architecture.md "Process model"); a short one is read here, so that it never queues behind
        long ones (bench/event_loop_probe.py measures both)."""
        args = (task.completion, task.profile, list(task.choices) or None, task.problem)
        if len(task.completion) <= _READ_INLINE_CHARS:
            return vmath.extract_answer(*args)
        return await asyncio.get_running_loop().run_in_executor(self._reader, vmath.extract_answer, *args)

    async def _run_math(self, task: MathTask, extraction: vmath.Extraction, key: bytes) -> dict:
        timeout = task.timeout_s or self.config.default_math_timeout_s
        choices = list(task.choices) or None
        started = time.monotonic()
        simple = vmath.grade_simple(task.gold, extraction, choices)
        if simple is not None:  # bounded work (verifier/math/fast.py): no worker round trip
            queue_s, outcome = 0.0, Outcome("ok", simple, seconds=time.monotonic() - started)
        else:
            async with self._slot("math", self._math_slots) as queue_s:
                outcome = await self.math.grade(vmath.grade_extracted, (task.gold, extraction, choices), timeout,
                                                self.config.math_retries)
        self.metrics.exec_seconds.labels("math").observe(outcome.seconds)
        if outcome.status == "ok":
            result = dict(outcome.value)
        elif outcome.status == "crash":
            result = dict(infra_error(task.id, outcome.detail))
        else:
            result = math_outcome(outcome.status, outcome.detail, (extraction.text or "")[:MATH_SHOWN_CHARS],
                                  extraction.source)
        result.update(queue_s=queue_s, exec_s=outcome.seconds, tests=[], retryable=BY_NAME[result["verdict"]].retryable)
        result.setdefault("id", task.id)
        if result["verdict"] in CACHEABLE:  # a pure function of (gold, answer, choices): reused across calls
            self._cache[key] = result
            if len(self._cache) > _RESULT_CACHE_SIZE:
                self._cache.popitem(last=False)
        return result

    @contextlib.asynccontextmanager
    async def _slot(self, kind: str, slots: asyncio.Semaphore | None) -> AsyncGenerator[float, None]:
        """Wait for a worker or sandbox slot; yields the seconds waited. Keeps the gauges honest on cancel."""
        if slots is None:
            raise RuntimeError("Engine.start() was not awaited")
        enqueued = time.monotonic()
        self.metrics.queue_items.labels(kind).inc()
        try:
            await slots.acquire()
        finally:
            self.metrics.queue_items.labels(kind).dec()
        queue_s = time.monotonic() - enqueued
        self.metrics.queue_seconds.labels(kind).observe(queue_s)
        self.metrics.inflight_items.labels(kind).inc()
        try:
            yield queue_s
        finally:
            self.metrics.inflight_items.labels(kind).dec()
            slots.release()

    async def execute(self, task: CodeTask, files: dict[str, bytes]) -> dict:
        """Run one program (verifier/api/execute.py builds it) as one code item: the same admission, slots and
        sandboxes. Raises Overloaded or Draining before it starts; the answer is the code result with queue_s
        and exec_s, which each front end maps to its own reply (verifier/api/execute.py execute_response)."""
        self.admit(1)
        try:
            result = await _answered(task.id, self._grade_code(task, None, files=files))  # None: its own limits
            self.metrics.items.labels("code", result["verdict"]).inc()  # one execution is one code item
            return result
        finally:
            self._release(1)

    async def _grade_repo(self, task: RepoTask) -> dict:
        """One repository task in the sandboxes (docs/repo-tasks.md "Running a task")."""
        if not self.code_available:
            return dict(infra_error(task.id, self.code_unavailable_reason()))
        with _CodeStart(self.metrics) as started:
            result = await self.code.grade_repo(task, task.timeout_s or None, on_start=started)
        queue_s, exec_s = started.waited()
        return {**result, "id": task.id, "queue_s": queue_s, "exec_s": exec_s}

    async def _grade_code(self, task: CodeTask, timeout: float | None, runs: Any = None,
                          files: dict[str, bytes] | None = None) -> dict:
        """One code item in the sandboxes; `timeout` None: the sandbox's budget scales with tests x time limit."""
        if not self.code_available:
            return dict(infra_error(task.id, self.code_unavailable_reason()))
        with _CodeStart(self.metrics) as started:
            result = await self.code.grade(task, timeout, files=files, on_start=started, shared=runs)
        queue_s, exec_s = started.waited()
        return {**result, "id": task.id, "queue_s": queue_s, "exec_s": exec_s}


async def _answered(task_id: str, work: Awaitable[dict]) -> dict:
    """The result of `work`, or infra_error naming the exception: never lose an item to a bug (a graded
    item and an Execute run alike; docs/tasks.md "Results and verdicts")."""
    try:
        return await work
    except asyncio.CancelledError:
        raise
    except Exception as exc:
        log.exception("grading %s failed", task_id)
        return dict(infra_error(task_id, f"internal error: {type(exc).__name__}"))


class _CodeStart:
    """Queue metrics of one code item (`with _CodeStart(metrics) as started`; pass `started` to
    CodeGrader.grade as on_start): it moves from the queue gauge to the in-flight gauge when the
    sandbox starts it. The queue itself is the sandbox's, per language, until the caller's deadline
    (docs/sandboxes.md "Code sandboxes"); a server-wide slot in front of it would let slow jobs of one language
    hold every slot while another language's containers sit idle."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics
        self.enqueued = time.monotonic()
        self.started: float | None = None
        self.ended: float | None = None
        metrics.queue_items.labels("code").inc()

    def __call__(self) -> None:
        if self.started is not None:  # a retried attempt: still one item
            return
        self.started = time.monotonic()
        self.metrics.queue_items.labels("code").dec()
        self.metrics.queue_seconds.labels("code").observe(self.started - self.enqueued)
        self.metrics.inflight_items.labels("code").inc()

    def __enter__(self) -> _CodeStart:
        return self

    def __exit__(self, *exc: object) -> None:
        self.ended = time.monotonic()
        if self.started is None:
            self.metrics.queue_items.labels("code").dec()
        else:
            self.metrics.inflight_items.labels("code").dec()
            self.metrics.exec_seconds.labels("code").observe(self.ended - self.started)

    def waited(self) -> tuple[float, float]:
        """(seconds queued, seconds running); an item answered before it started only queued."""
        end = self.ended or time.monotonic()
        if self.started is None:
            return end - self.enqueued, 0.0
        return self.started - self.enqueued, end - self.started

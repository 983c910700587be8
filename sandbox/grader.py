"""CodeGrader: the asyncio-facing API of the sandbox (what the server, CLI and trainer use).

`grade(task)` never raises (except CancelledError) and never blocks the event loop: Docker calls
and the job itself run in threads. Sandbox failures are retried once on a fresh container and
then reported as `infra_error` (retryable), never as a wrong answer. Jobs queue for a container of
their language (Pool.acquire), then for a CPU slot, until their caller's deadline: waiting behind a
slow program is never the waiting job's infra_error. A cancelled grade kills the container its
job ran in; the pool replaces it.
"""
from __future__ import annotations

import asyncio
import logging
import math
import time
from dataclasses import replace
from collections.abc import Awaitable, Callable
from typing import Any
from concurrent.futures import ThreadPoolExecutor

from .backend import Backend, DockerBackend
from .config import SandboxConfig
from .contract import HOST_FAULTS, CodeTask, RepoTask, sandbox_infra_error
from .gvisor import GvisorBackend
from .userns import UsernsBackend
from .keys import reuse_key
from .job import merge_parts, out_of_budget, reset_box, run_job
from .plan import EncodedTests, InfraFailure, Plan, make_plan, new_job_dir, split_plan
from .pool import Pool, WarmEnvironments, arrival
from .repo_job import RepoPlan, make_repo_plan, repo_out_of_budget, run_repo_job

log = logging.getLogger(__name__)


def make_backend(config: SandboxConfig) -> Backend:
    """The backend `config.backend` names (chosen here, above both, so neither imports the other)."""
    if config.backend == "userns":
        return UsernsBackend(config)
    return GvisorBackend(config) if config.backend == "gvisor" else DockerBackend(config)


class SharedRuns:
    """The jobs of one call by what decides their verdict (Plan.share_key): identical programs in a
    call, whatever prose surrounds them in the completions, are compiled and run once (issue 20; a
    GRPO group's completions often repeat one program). Per-item fields stay per item. The caller
    makes one per call (CodeGrader.shared_runs) and cancels its futures when the call ends."""

    def __init__(self) -> None:
        self._runs: dict[bytes, asyncio.Future] = {}
        self.hits = 0  # items answered by another item's run
        self.order = arrival()  # the call's place in the container queues (pool.IdleBoxes)

    def run(self, key: bytes, timeout_s: float | None, start: Callable[[], Awaitable[dict]]) -> asyncio.Future:
        """The run of an identical plan (`key`: Plan.share_key) already started in this call, or a new
        one from `start()`. A shorter deadline can end a run sooner: it is part of the key."""
        key = reuse_key("code-call", key, timeout_s)
        fut = self._runs.get(key)
        if fut is not None:
            self.hits += 1
            return fut
        fut = self._runs[key] = asyncio.ensure_future(start())
        return fut

    def futures(self) -> list[asyncio.Future]:
        return list(self._runs.values())



def _planned(task: dict | CodeTask, config: SandboxConfig, keyed: bool) -> tuple[Plan | dict, bytes | None]:
    """make_plan, and its share key when the call shares runs (both hash: off the event loop)."""
    plan = make_plan(task, config)
    return plan, plan.share_key() if keyed and isinstance(plan, Plan) else None


class CodeGrader:
    """Grades code tasks in a warm pool of hardened containers.

    Usage: `g = CodeGrader(config); await g.start(); r = await g.grade(task); await g.close()`.
    """

    def __init__(self, config: SandboxConfig | None = None) -> None:
        self.config = config or SandboxConfig()
        self._backend: Backend = make_backend(self.config)
        self._pool: Pool | None = None
        self._envs: WarmEnvironments | None = None  # repository tasks' warm environments (WarmEnvironments)
        self._images: dict[str, str] = {}
        self._available = False
        self._reason = "not started: call `await CodeGrader.start()`"
        self._ctl = ThreadPoolExecutor(max_workers=2, thread_name_prefix="sandbox-health")
        n_jobs = max(1, self.config.pool_size * len(self.config.languages))
        if self.config.repo_environments:  # the warm environments' boxes run jobs too (WarmEnvironments)
            n_jobs += self.config.repo_warm_environments * self.config.repo_pool_size
        self._plan = ThreadPoolExecutor(max_workers=2, thread_name_prefix="sandbox-plan")
        self._jobs = ThreadPoolExecutor(max_workers=n_jobs, thread_name_prefix="sandbox-job")
        self._slots = asyncio.Semaphore(max(1, self.config.max_concurrent_jobs))
        self._health: asyncio.Task | None = None
        self._resets: set[asyncio.Task] = set()  # boxes being reset after their job's answer
        self._closed = False
        self.reaped = 0

    @property
    def backend(self) -> Backend:
        """The backend the pool starts sandboxes with; sessions start theirs with it too (sandbox/session.py)."""
        return self._backend

    # ------------------------------------------------------------------ lifecycle
    async def _call(self, fn, *args):
        return await asyncio.get_running_loop().run_in_executor(self._ctl, fn, *args)

    def _probe(self) -> tuple[dict[str, str], list[str]]:
        """Connect, ping, reap leftovers, find each language's image (sync, in a thread)."""
        self._backend.probe()
        self.reaped += self._backend.reap()
        return self._backend.find_images(self.config.languages)

    async def start(self) -> None:
        """Connect to Docker, remove containers a crashed server left, warm the pool.
        Never raises: when Docker or the images are missing, `available` is False and
        `unavailable_reason()` says what to do. A health loop keeps checking."""
        await self._try_start()
        if self._health is None:
            self._health = asyncio.ensure_future(self._health_loop())

    async def _try_start(self) -> None:
        try:
            found, missing = await self._call(self._probe)
        except Exception as e:
            self._set_down(e)
            return
        self._images = found
        if missing:
            log.warning("sandbox: no image for %s", ", ".join(missing))
        if not found:
            self._available = False
            self._reason = f"sandbox images missing for {', '.join(missing)}: {self._backend.build_hint()}"
            return
        if self._pool is None:
            self._pool = Pool(self.config, self._backend, found)
            self._pool.fill()
            self._envs = WarmEnvironments(self.config, self._backend, found)
        self._available = True
        self._reason = ""

    def _set_down(self, e: BaseException) -> None:
        self._available = False
        self._reason = self._backend.down_reason(e)[:300]

    async def _health_loop(self) -> None:
        while not self._closed:
            await asyncio.sleep(self.config.health_interval_s)
            if self._pool is None or not self._available:
                await self._try_start()
                continue
            try:
                await self._call(self._backend.probe)
            except Exception as e:
                self._set_down(e)

    async def close(self) -> None:
        self._closed = True
        if self._health:
            self._health.cancel()
        await self.settled()
        if self._envs:
            await self._envs.close()
        if self._pool:
            await self._pool.close()
        self._backend.close()
        self._ctl.shutdown(wait=False)
        self._jobs.shutdown(wait=False)
        self._plan.shutdown(wait=False)

    # ------------------------------------------------------------------ info
    @property
    def available(self) -> bool:
        """True when the daemon answered recently and at least one language's image exists."""
        return self._available

    def unavailable_reason(self) -> str:
        """What is wrong and what to do about it ('' when available)."""
        return "" if self._available else self._reason

    def languages(self) -> list[dict]:
        """Served languages with their limits and image tags (for GetServerInfo)."""
        out = []
        for lang in self.config.languages:
            lim = self.config.limits_for(lang)
            out.append({"name": lang, "default_time_limit_s": lim.default_time_limit_s,
                        "max_time_limit_s": lim.max_time_limit_s,
                        "default_memory_limit_mb": lim.default_memory_limit_mb,
                        "max_memory_limit_mb": lim.max_memory_limit_mb,
                        "image": self._images.get(lang, ""), "available": self._available and lang in self._images})
        return out

    async def settled(self) -> None:
        """Wait until the boxes of finished jobs are reset and back in the pool (or replaced): the
        resets run after each job's answer (_run), so stats() right after an answer may not count
        a recycle yet. The boxes replaced are removed too (Pool.removals): until then a backend
        still lists them, dying. For tests and scripts; the server never waits for it."""
        while self._resets or (self._pool and self._pool.removals()) or (self._envs and self._envs.removals()):
            await asyncio.gather(*self._resets, *(self._pool.removals() if self._pool else ()),
                                 *(self._envs.removals() if self._envs else ()), return_exceptions=True)

    def stats(self) -> dict:
        p = self._pool
        return {"containers_created": p.created if p else 0, "containers_recycled": p.recycled if p else 0,
                "containers_reaped": self.reaped}

    def environments(self) -> dict:
        """The repository environments warm now (their trees, least recently used first), how many
        were retired for the bound, and the boxes started for them (WarmEnvironments)."""
        e = self._envs
        return {"warm": e.warm() if e else [], "evicted": e.evicted if e else 0,
                "boxes_created": e.boxes_created() if e else 0}

    # ------------------------------------------------------------------ grading
    def shared_runs(self) -> SharedRuns:
        """A new registry for one call's tasks (pass it to every `grade` of the call)."""
        return SharedRuns()

    async def grade(self, task: dict | CodeTask, timeout_s: float | None = None, files: dict[str, bytes] | None = None,
                    on_start: Callable[[], None] | None = None, shared: SharedRuns | None = None) -> dict:
        """Grade one code task (sandbox/contract.py CodeTask, docs/architecture.md). Returns a result dict; see
        sandbox/__init__.py. An invalid task is answered infra_error (retryable False) naming the field.
        `files` (Execute, docs/service.md "Execute"): more plain-named files in the job dir; the program's own win.
        `on_start` is called when the job leaves the queue (has its container and a CPU slot): the
        server's queue metrics, since the queueing itself happens here, per language.
        `shared`: the call's SharedRuns; an identical program already run or running in the call
        answers this task too (its own `extracted_from` kept)."""
        keyed = shared is not None and not files
        try:  # in a thread: extraction and parsing of a large completion (and hashing its tests) must not stall the loop
            plan, key = await asyncio.get_running_loop().run_in_executor(self._plan, _planned, task, self.config, keyed)
        except InfraFailure as e:
            return sandbox_infra_error(str(e), retryable=e.retryable)
        except Exception as e:  # malformed task the server did not catch: answer, do not crash
            return sandbox_infra_error(f"bad task: {type(e).__name__}: {e}", retryable=False)
        if isinstance(plan, dict):
            return plan
        plan.files = {**(files or {}), **plan.files}
        if not self._available or self._pool is None:
            return sandbox_infra_error(self.unavailable_reason(), extracted=plan.code, how=plan.extracted_from)
        if plan.lang.name not in self._images:
            return sandbox_infra_error(f"no image for {plan.lang.name}: run `verifier sandbox build {plan.lang.name}`",
                          extracted=plan.code, how=plan.extracted_from)
        if shared is None or key is None:
            return await self._grade_plan(plan, timeout_s, on_start, arrival())
        result = await asyncio.shield(shared.run(key, timeout_s, lambda: self._grade_plan(plan, timeout_s, on_start, shared.order)))
        return {**result, "extracted_from": plan.extracted_from, "tests": [dict(t) for t in result["tests"]]}

    async def _grade_plan(self, plan: Plan, timeout_s: float | None, on_start: Callable[[], None] | None,
                          order: int, split: bool = True) -> dict:
        """Run a checked plan in a container, with one retry on a fresh one (see `grade`). `order`:
        its call's place in the queue; within a call, the job owed the most time goes first. A job
        scored "fraction" on several stdin tests runs in parts, one per container (plan.split_plan)."""
        parts = split_plan(plan, self.config.pool_size) if split else [plan]
        if len(parts) > 1:
            runs = [asyncio.ensure_future(self._grade_plan(p, timeout_s, on_start, order, split=False)) for p in parts]
            try:
                return merge_parts(plan, list(await asyncio.gather(*runs)))
            finally:
                for run in runs:
                    run.cancel()
        caller_end = time.monotonic() + (timeout_s or math.inf)
        result = await self._retried(plan, timeout_s, on_start, order, extracted=plan.code, how=plan.extracted_from)
        return await self._rest(plan, result, caller_end, on_start, order)

    async def _rest(self, plan: Plan, result: dict, caller_end: float, on_start: Callable[[], None] | None,
                    order: int) -> dict:
        """A job scored "fraction" whose sandbox ended in a test (under Docker's runsc a test past its
        memory limit ends the whole box: Backend.over_limit_ends_sandbox; the host's watchdog) runs its
        later tests in a fresh sandbox, as every other backend runs them in the same one: a score is the
        same on every backend (docs/sandboxes.md). The rest is owed its own tests' time, counted from when
        it has its box (_retried: a wait in the queue is never the program's), so a program that ends each
        box costs no more time than its tests were owed; never past the caller's deadline, and where that
        deadline came while the rest waited or ran, its unfinished tests are time_limit as in one box
        (out_of_budget), never the whole job's infra_error (red team rt30aa)."""
        n, done = len(plan.tests), len(result["tests"])
        if not (plan.ended and plan.scoring == "fraction" and not plan.stop_first and 0 < done < n
                and isinstance(plan.tests, EncodedTests) and not plan.test_code and not plan.call_tests
                and result["verdict"] not in HOST_FAULTS and caller_end - time.monotonic() > 0):
            return result
        rest = replace(plan, tests=plan.tests.part(done, n), job_dir=new_job_dir(), done=[], ended=False)
        left = None if math.isinf(caller_end) else caller_end - time.monotonic()
        later = await self._grade_plan(rest, left, on_start, order, split=False)
        if later["verdict"] in HOST_FAULTS and time.monotonic() >= caller_end:
            return out_of_budget(replace(plan, done=list(result["tests"])))  # its tests so far, the ended one too
        if later["verdict"] not in HOST_FAULTS and not later["tests"]:
            return result  # the rest ran no test (its compile failed this time): the job as it stopped
        return merge_parts(plan, [result, later])

    async def grade_repo(self, task: RepoTask, timeout_s: float | None = None,
                         on_start: Callable[[], None] | None = None) -> dict:
        """Grade one repository task (docs/repo-tasks.md "Running a task"): its plan on the host (the
        patch applied, the test patch after it), then its test command in a warm box of its environment
        (WarmEnvironments: the tree read-only inside, the task's view links to it), with one retry on a fresh box as for a code job. A patch that decides the verdict
        before a run (unread, refused, not applying) is answered without a container."""
        try:
            plan = await asyncio.get_running_loop().run_in_executor(self._plan, make_repo_plan, task, self.config)
        except InfraFailure as e:
            return sandbox_infra_error(str(e), retryable=e.retryable)
        if isinstance(plan, dict):
            return plan
        if not self._available or self._pool is None:
            return sandbox_infra_error(self.unavailable_reason())
        if plan.lang.name not in self._images:
            return sandbox_infra_error(f"no image for {plan.lang.name}: run `verifier sandbox build {plan.lang.name}`")
        return await self._retried(plan, timeout_s, on_start, arrival(), job=run_repo_job)

    async def _retried(self, plan: Any, timeout_s: float | None, on_start: Callable[[], None] | None,
                       order: int, job: Callable = run_job, **found: Any) -> dict:
        """Run a plan in a container with one retry on a fresh one: the one home of the retry and the
        budget for code jobs and repository tasks alike. `found`: what an infra_error result says of the
        code it was given (`extracted`, `how`)."""
        # The run time a job is owed: its own tests x time limit (a fixed budget would let a slow
        # program on many tests run it out), or less when the caller gives a deadline. It counts
        # from when the job has its container: waiting in the queue is never the program's time.
        owed = min(timeout_s, plan.budget_s(self.config)) if timeout_s else plan.budget_s(self.config)
        deadline = time.monotonic() + timeout_s if timeout_s else math.inf
        last = ""
        for _attempt in range(2):
            if deadline - time.monotonic() <= 0:
                break
            try:
                return await self._attempt(plan, owed, deadline, on_start, (order, -owed), job=job)
            except InfraFailure as e:
                last = str(e)
                if not e.retryable:
                    return sandbox_infra_error(last, retryable=False, **found)
                log.warning("sandbox: %s", last)
                plan.job_dir = new_job_dir()
        return sandbox_infra_error(last or "the job's wall-clock budget ran out", **found)

    async def _attempt(self, plan: Any, owed_s: float, deadline: float,
                       on_start: Callable[[], None] | None = None, key: tuple = (), job: Callable = run_job) -> dict:
        pool = self._pool
        assert pool is not None  # grade() answers infra_error before a job when no pool runs
        if isinstance(plan, RepoPlan) and self._envs is not None and plan.env is not None:  # its build's own warm boxes
            try:
                pool = await self._envs.pool(plan.env.identity, plan.env.tree, plan.env.inode, plan.lang.name, deadline)
            except TimeoutError as e:
                raise InfraFailure(str(e)) from e
            except (LookupError, OSError) as e:  # its build removed or made again since the plan: a retry plans nothing new
                raise InfraFailure(f"environment {plan.task.environment!r}: {e}", retryable=False) from None
        # A container of the job's language first (its queue: docs/sandboxes.md "Code sandboxes"), then a CPU
        # slot: a job queued for a busy language must not hold a slot another language could use.
        try:
            box = await pool.acquire(plan.lang.name, deadline, ok=lambda: self._available, key=key)
        except TimeoutError as e:
            raise InfraFailure(str(e) if self._available else self.unavailable_reason()) from e
        try:
            await asyncio.wait_for(self._slots.acquire(), None if math.isinf(deadline) else max(0.0, deadline - time.monotonic()))
        except BaseException as e:  # the deadline, or the caller went away: the box was not used
            await pool.release(box, True)
            if isinstance(e, asyncio.TimeoutError):
                raise InfraFailure("the caller's deadline ran out while the job waited for a CPU slot") from None
            raise
        try:
            if on_start is not None:
                on_start()
            return await self._run(pool, box, plan, owed_s, deadline, job)
        finally:
            self._slots.release()

    async def _run(self, pool: Pool, box, plan: Any, owed_s: float, deadline: float, job: Callable = run_job) -> dict:
        """Run the job in its container within what it is owed; release the container after."""
        started = time.monotonic()
        t_end = min(started + owed_s, deadline)
        loop = asyncio.get_running_loop()
        fut = loop.run_in_executor(self._jobs, job, pool, box, plan, self.config)
        try:
            result, healthy = await asyncio.wait_for(asyncio.shield(fut), max(0.1, t_end - time.monotonic()))
        except asyncio.TimeoutError:
            ran = time.monotonic() - started
            await loop.run_in_executor(pool.control, pool.kill, box)
            await asyncio.wait([fut], timeout=5)
            if fut.done() and not fut.cancelled():
                fut.exception()  # retrieved: the killed job's ChannelError is expected here
            await pool.release(box, False)
            if ran < owed_s - 1.0:  # the caller's deadline, shortened by queueing
                raise InfraFailure("the caller's deadline ran out: the job waited for a container") from None
            try:  # the host answers: the time went to the program (its tests x its time limit)
                await self._call(self._backend.probe)
            except Exception as e:
                self._set_down(e)
                raise InfraFailure(f"the job ran past its wall-clock budget and {self._backend.describe()} does not answer") from None
            return out_of_budget(plan) if isinstance(plan, Plan) else repo_out_of_budget(plan)
        except asyncio.CancelledError:
            # The caller went away: stop the job now; the replacement starts in the background.
            loop.run_in_executor(pool.control, pool.kill, box)

            def _after(f: asyncio.Future) -> None:
                if not f.cancelled():
                    f.exception()  # retrieved: the job's ChannelError is expected here
                asyncio.ensure_future(pool.release(box, False))

            fut.add_done_callback(_after)
            raise
        except InfraFailure:
            await pool.release(box, False)
            raise
        if not healthy:
            await pool.release(box, False)
            return result
        task = asyncio.ensure_future(self._reset_then_release(pool, box))
        self._resets.add(task)
        task.add_done_callback(self._resets.discard)
        return result

    def _reset_box(self, box) -> bool:
        """The runner's reset (job.reset_box), then the host's look at what gVisor's kernel kept (Backend.at_rest)."""
        return reset_box(box) and self._backend.at_rest(box)

    async def _reset_then_release(self, pool: Pool, box) -> None:
        """The box back to the pool once the runner has killed and wiped what the job left (clean), or
        replaced (anything left, or the runner failed): after the job's answer, not before it. The
        box takes no job until this is done, so no program sees another's leftovers."""
        try:
            clean = await asyncio.get_running_loop().run_in_executor(self._jobs, self._reset_box, box)
        except Exception as e:  # the runner failed to reset: the verdict stands, the box goes
            log.warning("sandbox: reset failed: %s: %s", type(e).__name__, e)
            clean = False
        await pool.release(box, clean)

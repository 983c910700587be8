"""Warm pool of hardened sandboxes, one queue per language, over a backend (sandbox/backend.py).

Each sandbox runs sandbox/harness/runner.py as its PID 1 and is talked to over one channel
(sandbox/channel.py). A job borrows a sandbox, the sandbox is reset (every process killed, every
work dir wiped) after the job and recycled after `jobs_per_container` jobs or any anomaly;
replacements start in the background. A sandbox near its last job has its successor started ahead
and held in standby, and a retired one is removed after its job's answer, not before: a recycle
costs no request a container start or a removal (issue 20's p99 stall at concurrency 2). Sandboxes carry their owner, so the ones a crashed server
left behind are found and removed at start (Backend.reap).

Blocking backend calls run in a thread pool; nothing here blocks the event loop.
"""
from __future__ import annotations

import asyncio
import dataclasses
import heapq
import itertools
import logging
import math
import os
import time
from collections import OrderedDict, deque
from concurrent.futures import ThreadPoolExecutor

from .backend import (CONTAINER_ENV, LABEL, LABEL_LANG, LABEL_OWNER, LABEL_POOL, OWNER, Backend, Box,
                      box_memory_mb, connect, container_kwargs)
from .config import SandboxConfig

log = logging.getLogger(__name__)

__all__ = ["CONTAINER_ENV", "LABEL", "LABEL_LANG", "LABEL_OWNER", "LABEL_POOL", "OWNER", "Box", "Pool",
           "connect", "container_kwargs"]


EVICT_POLL_S = 0.05  # how often a job whose environment waits for a warm slot looks again (WarmEnvironments.pool)
_ARRIVALS = itertools.count()  # tie-break: equal keys are served in arrival order


def arrival() -> int:
    """The next arrival number: a call's place in the queues (IdleBoxes keys start with it)."""
    return next(_ARRIVALS)


class IdleBoxes:
    """The idle boxes of one language and the jobs waiting for one, the lowest key served first.
    Keys are (call order, -job budget): calls first come first served, and within a call the
    longest job first (issue 20: a batch is done when its slowest item is; a long job started last
    is the batch's tail). A job with no key waits in arrival order."""

    def __init__(self) -> None:
        self._boxes: deque[Box] = deque()
        self._waiters: list[tuple[tuple, int, asyncio.Future]] = []

    def qsize(self) -> int:
        return len(self._boxes)

    def empty(self) -> bool:
        return not self._boxes

    def get_nowait(self) -> Box:
        return self._boxes.popleft()

    def put_nowait(self, box: Box) -> None:
        """A box to the best waiting job still waiting, or to the idle boxes."""
        while self._waiters:
            fut = heapq.heappop(self._waiters)[2]
            if not fut.done():
                fut.set_result(box)
                return
        self._boxes.append(box)

    def waiting(self) -> bool:
        """Whether a job still waits for a box here."""
        return any(not w[2].done() for w in self._waiters)

    def get(self, key: tuple = ()) -> asyncio.Future:
        """A future for a box: done at once when one is idle (then nobody waits), else in key order.
        Cancel it to stop waiting; a box it got meanwhile must be put back (Pool.acquire does)."""
        fut = asyncio.get_running_loop().create_future()
        if self._boxes:
            fut.set_result(self._boxes.popleft())
        else:
            n = arrival()
            heapq.heappush(self._waiters, (key or (n, 0.0), n, fut))
        return fut


class Pool:
    """Warm sandboxes per language; `acquire` queues for a free one, `release` recycles."""

    def __init__(self, config: SandboxConfig, backend: Backend | None, images: dict[str, str], env: str = "",
                 control: ThreadPoolExecutor | None = None) -> None:
        self.config = config
        self.backend = backend
        self.images = images
        self.env = env  # a repository environment's tree, read-only in each box (WarmEnvironments); "" for none
        self.lent = 0  # boxes lent to jobs now (acquire .. release)
        self.control = control or ThreadPoolExecutor(max_workers=4, thread_name_prefix="sandbox-ctl")
        self._idle: dict[str, IdleBoxes] = {lang: IdleBoxes() for lang in images}
        self._count: dict[str, int] = {lang: 0 for lang in images}  # slots: alive or starting
        self._alive: dict[str, int] = {lang: 0 for lang in images}  # started and not yet given up
        self._failing: dict[str, bool] = {lang: False for lang in images}  # the last start failed
        # successors started ahead (Pool.release): boxes wait in standby while their predecessors serve,
        # so no more than pool_size boxes of a language take jobs at once
        self._standby: dict[str, list[Box]] = {lang: [] for lang in images}
        self._ahead: dict[str, int] = {lang: 0 for lang in images}  # predecessors serving with a successor started
        self._tasks: set[asyncio.Task] = set()
        self._removing: set[asyncio.Task] = set()  # retired boxes being removed (not cancelled at close)
        self._closed = False
        self.last_error = ""
        self.created = 0
        self.recycled = 0

    # -- sync parts (threads): the backend's
    def _backend(self) -> Backend:
        """The backend; None only where a subclass replaces every method that needs one (tests/test_sandbox_pool.py)."""
        if self.backend is None:
            raise RuntimeError("this pool has no sandbox backend")
        return self.backend

    def create(self, language: str) -> Box:
        """Start one sandbox whose runner answered a ping. Raises on any failure."""
        backend = self._backend()
        box = (backend.start(language, self.images[language], box_memory_mb(self.config, language), env=self.env)
               if self.env else backend.start(language, self.images[language], box_memory_mb(self.config, language)))
        box.sentry_mb = backend.sentry_mb(box)  # Backend.at_rest compares with it after each job
        self.created += 1
        return box

    def destroy(self, box: Box) -> None:
        self._backend().remove(box)

    def kill(self, box: Box) -> None:
        """Stop a box at once (a cancelled job): the job thread then sees its channel close."""
        self._backend().kill(box)

    def death_note(self, box: Box) -> str:
        """How a box that died mid-job ended (Backend.death_note)."""
        return self._backend().death_note(box)

    def oom_killed(self, box: Box, wait_s: float = 3.0) -> bool:
        """Whether the box died of its memory limit: the program's verdict (Backend.oom_killed)."""
        return self._backend().oom_killed(box, wait_s)

    def mark_start(self, box: Box) -> None:
        """A job begins in the box (Backend.begins: what its gVisor kernel, its cgroup hold now is not the job's)."""
        self._backend().begins(box)

    def overhead_mb(self, box: Box, language: str) -> int:
        """Backend.overhead_mb: what a step's limit adds for the runner and the warm interpreter."""
        return self._backend().overhead_mb(box, language)

    def set_memory(self, box: Box, mb: int) -> None:
        """The box's memory limit (= memory+swap: no swap) for the next step."""
        self._backend().set_memory(box, mb)

    @property
    def over_limit_ends_sandbox(self) -> bool:
        """Backend.over_limit_ends_sandbox."""
        return self._backend().over_limit_ends_sandbox

    # -- async parts
    async def _run(self, fn, *args):
        try:
            return await asyncio.get_running_loop().run_in_executor(self.control, fn, *args)
        except RuntimeError:  # executor shut down: we are closing, do it inline
            return fn(*args)

    def fill(self) -> None:
        """Start containers up to pool_size for every language, in the background."""
        for lang in self.images:
            while self._count[lang] < self.config.pool_size and not self._closed:
                self._count[lang] += 1
                self._spawn(lang)

    def _spawn(self, lang: str, delay: float = 0.0) -> None:
        task = asyncio.ensure_future(self._add(lang, delay))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _add(self, lang: str, delay: float) -> None:
        if delay:
            await asyncio.sleep(delay)
        if self._closed:
            self._count[lang] -= 1
            return
        try:
            box = await self._run(self.create, lang)
        except Exception as e:  # daemon down, image gone: retry later, say why meanwhile
            self.last_error = f"starting a {lang} container failed: {type(e).__name__}: {e}"[:300]
            self._failing[lang] = True
            log.warning("sandbox: %s", self.last_error)
            self._spawn(lang, delay=min(30.0, max(1.0, delay * 2)))
            return
        if self._closed:
            await self._run(self.destroy, box)
            return
        self.last_error = ""
        self._failing[lang] = False
        self._alive[lang] += 1
        if len(self._standby[lang]) < self._ahead[lang]:
            self._standby[lang].append(box)  # its predecessor still serves
        else:
            self._idle[lang].put_nowait(box)

    async def acquire(self, lang: str, deadline: float = math.inf, ok=lambda: True, key: tuple = ()) -> Box:
        """A warm container of `lang`. Jobs of one language queue for its containers in `key` order,
        arrival order among equal keys (IdleBoxes; the idle boxes are the per-language semaphore,
        sized pool_size), so a slow program
        delays later jobs but never turns them into infra_error: the wait ends only at the
        caller's `deadline` (time.monotonic(); inf: none). It ends early, raising TimeoutError,
        when the host is at fault: `ok()` false (the daemon is down), or no container of the
        language is alive and starting one failed, or none has been alive for
        `acquire_timeout_s` (starts keep failing or hang)."""
        getter = self._idle[lang].get(key)
        taken = False
        empty_since: float | None = None
        try:
            while True:
                now = time.monotonic()
                await asyncio.wait({getter}, timeout=max(0.0, min(0.5, deadline - now)))
                if getter.done():
                    box = getter.result()
                    if not box.dead:
                        taken = True
                        self.lent += 1
                        return box
                    getter = self._idle[lang].get(key)
                    continue
                now = time.monotonic()
                if self._closed:
                    raise TimeoutError("the sandbox pool is closing")
                if not ok():
                    raise TimeoutError(self.last_error or "the Docker daemon does not answer")
                if now >= deadline:
                    raise TimeoutError(f"the caller's deadline ran out while the job waited for a {lang} container")
                if self._alive[lang] > 0:
                    empty_since = None
                    continue
                empty_since = empty_since or now
                if self._failing[lang] or now - empty_since > self.config.acquire_timeout_s:
                    raise TimeoutError(self.last_error or f"no {lang} container started in {self.config.acquire_timeout_s:.0f}s")
        finally:
            if not getter.done():
                getter.cancel()
            elif not taken and not getter.cancelled() and getter.exception() is None:
                self._idle[lang].put_nowait(getter.result())  # won in a race with our exit: give it back

    def prewarm_at(self) -> int:
        """Jobs after which a box's successor starts: half its life, so the start (1-2 s on a loaded
        2-core machine; a fifth of the life, about 0.5 s of trivial jobs, was too short) is done
        before the box retires. The cost: one idle container per box for its second half."""
        return max(1, self.config.jobs_per_container // 2)

    async def release(self, box: Box, healthy: bool) -> None:
        """Return a container after its job: reuse when clean and young, else replace it. Never
        waits for the removal: the job's answer must not (the removal runs in the background)."""
        self.lent -= 1
        lang = box.language
        if healthy and not box.dead and not self._closed and box.jobs < self.config.jobs_per_container:
            if box.jobs >= self.prewarm_at() and not box.successor:
                box.successor = True
                self._ahead[lang] += 1
                self._count[lang] += 1
                self._spawn(lang)
            self._idle[lang].put_nowait(box)
            return
        self._alive[lang] -= 1
        self.recycled += 1
        if box.successor:  # started ahead: in standby now, or sent straight to work when it is up
            self._ahead[lang] -= 1
            self._count[lang] -= 1
            if self._standby[lang]:
                self._idle[lang].put_nowait(self._standby[lang].pop())
        else:
            self._spawn(lang)  # the replacement counts in the same slot
        task = asyncio.ensure_future(self._run(self.destroy, box))
        self._removing.add(task)
        task.add_done_callback(self._removing.discard)

    def removals(self) -> list[asyncio.Future]:
        """The removals of replaced boxes still under way (release: never awaited by a job)."""
        return list(self._removing)

    def busy(self) -> bool:
        """Whether a job holds one of its boxes or waits for one."""
        return self.lent > 0 or any(q.waiting() for q in self._idle.values())

    def cancel_starts(self) -> None:
        """Stop the starts and replacements under way (closing: remove_own finds a box one left)."""
        for t in list(self._tasks):
            t.cancel()

    async def close(self) -> None:
        self.cancel_starts()
        await self.retire()
        await self._run(self._remove_own)  # boxes still lent to jobs: those jobs end as infra_error
        self.control.shutdown(wait=False)

    async def retire(self) -> None:
        """Take no more jobs and remove every box that is not lent (a lent one goes at its release,
        one still starting when its start ends: Pool._add); other pools' boxes are left alone."""
        self._closed = True
        boxes = []
        for q in self._idle.values():
            while not q.empty():
                boxes.append(q.get_nowait())
        for standby in self._standby.values():
            boxes += standby
            standby.clear()
        for b in boxes:
            await self._run(self.destroy, b)
        if self._removing:
            await asyncio.gather(*self._removing, return_exceptions=True)

    def _remove_own(self) -> None:
        self._backend().remove_own()


class WarmEnvironments:
    """Warm boxes per repository environment build (docs/repo-tasks.md "Warm environments"): a Pool
    each, whose boxes are started with the build's tree read-only at ENV_MOUNT (Backend.start `env`),
    so a task's tree is links to it and its own files, never a copy; the reset between tasks is the
    pool's. Pools are keyed by the build's identity (sandbox/repo_job.py `build_identity`: its
    environment.json and its tree folder's inode), never by the path: a build removed and made again at
    the same path gets fresh boxes, and the boxes that have the removed tree bound are retired. Each
    pool holds its tree folder open, so that inode is never reused for another folder while its boxes
    live. At most `repo_warm_environments` are warm: a new one retires the least recently used that no
    job holds or waits for, and waits (until its caller's deadline) while every one is busy."""

    def __init__(self, config: SandboxConfig, backend: Backend, images: dict[str, str]) -> None:
        self.config = dataclasses.replace(config, pool_size=config.repo_pool_size)
        self.backend = backend
        self.images = images
        self.control = ThreadPoolExecutor(max_workers=4, thread_name_prefix="sandbox-env")
        self._pools: OrderedDict[bytes, Pool] = OrderedDict()  # build identity -> its pool, least recently used first
        self._pins: dict[bytes, int] = {}  # build identity -> its tree folder, held open (the pool's life)
        self._retiring: set[asyncio.Task] = set()
        self.evicted = 0
        self.created = 0  # boxes started, over every pool this held

    def warm(self) -> list[str]:
        """The trees warm now, least recently used first."""
        return [p.env for p in self._pools.values()]

    async def pool(self, key: bytes, tree: str, inode: tuple[int, int], language: str, deadline: float = math.inf) -> Pool:
        """The warm pool of the build `key` whose tree is `tree` (its folder's (device, inode)), started
        when it is not warm, most recently used now. LookupError when the folder at `tree` is no longer
        that build's (removed, or made again, since the task was planned)."""
        self._retire_stale()
        while key not in self._pools and len(self._pools) >= self.config.repo_warm_environments:
            if not self._evict_one():
                if time.monotonic() >= deadline:
                    raise TimeoutError("the caller's deadline ran out while every warm environment was busy")
                await asyncio.sleep(EVICT_POLL_S)
        pool = self._pools.get(key)
        if pool is None:
            self._pins[key] = _pin(tree, inode)
            pool = self._pools[key] = Pool(self.config, self.backend, {language: self.images[language]}, env=tree,
                                           control=self.control)
            pool.fill()
        self._pools.move_to_end(key)
        return pool

    def _retire_stale(self) -> None:
        """Retire the pools, not busy, whose tree folder was removed or is no longer the one at its path."""
        for key in [k for k, p in self._pools.items() if not p.busy() and not _pinned(self._pins[k], p.env)]:
            self._retire(key)

    def _evict_one(self) -> bool:
        """Retire the least recently used pool that is not busy; whether there was one."""
        for key, pool in self._pools.items():
            if not pool.busy():
                self._retire(key)
                return True
        return False

    def _retire(self, key: bytes) -> None:
        pool, fd = self._pools.pop(key), self._pins.pop(key)
        self.evicted += 1
        self.created += pool.created
        task = asyncio.ensure_future(pool.retire())
        self._retiring.add(task)
        task.add_done_callback(self._retiring.discard)
        task.add_done_callback(lambda _: os.close(fd))  # its boxes gone: the folder may go too

    def removals(self) -> list[asyncio.Future]:
        """Retirements and box removals still under way."""
        return [*self._retiring, *(r for p in self._pools.values() for r in p.removals())]

    def boxes_created(self) -> int:
        return self.created + sum(p.created for p in self._pools.values())

    async def close(self) -> None:
        """Retire every pool (the grader's main Pool.close then removes what a start left: remove_own)."""
        pools = list(self._pools.values())
        self._pools.clear()
        for pool in pools:
            pool.cancel_starts()
        await asyncio.gather(*(pool.retire() for pool in pools), return_exceptions=True)  # at once: a server's stop is timed
        if self._retiring:
            await asyncio.gather(*self._retiring, return_exceptions=True)
        for fd in self._pins.values():
            os.close(fd)
        self._pins.clear()
        self.control.shutdown(wait=False)


def _pin(tree: str, inode: tuple[int, int]) -> int:
    """The tree folder, open (O_PATH: no read needed), checked to be the planned one's inode; LookupError if not."""
    fd = os.open(tree, os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC)
    st = os.fstat(fd)
    if (st.st_dev, st.st_ino) != inode:
        os.close(fd)
        raise LookupError(f"the environment's build at {tree} was made again after the task was planned")
    return fd


def _pinned(fd: int, tree: str) -> bool:
    """Whether the pinned folder is still the one at `tree` (a removed folder has no links left)."""
    try:
        st = os.fstat(fd)
        return st.st_nlink > 0 and os.path.samestat(st, os.stat(tree))
    except OSError:
        return False

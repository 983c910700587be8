"""Warm pool of hardened sandbox containers, driven through the Docker Engine API.

Each container runs sandbox/runner.py as its PID 1 and is talked to over one attach socket
(sandbox/channel.py). A job borrows a container, the container is reset (every process killed,
every work dir wiped) after the job and recycled after `jobs_per_container` jobs or any anomaly;
replacements start in the background. Containers carry labels, so the ones a crashed server left
behind are found and removed at start.

Blocking Docker calls run in a thread pool; nothing here blocks the event loop.
"""
from __future__ import annotations

import asyncio
import logging
import math
import os
import socket
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import docker
from docker.types import Ulimit

from .channel import Channel, ChannelError
from .config import SandboxConfig
from .languages import LANGUAGES

log = logging.getLogger(__name__)

LABEL = "grpo-verifier.sandbox"
LABEL_POOL = "grpo-verifier.pool"
LABEL_OWNER = "grpo-verifier.owner"
LABEL_LANG = "grpo-verifier.language"
OWNER = f"{socket.gethostname()}:{os.getpid()}"
CONTAINER_ENV = {
    "PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": "/tmp", "LANG": "C.UTF-8",
    "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
    "NUMEXPR_NUM_THREADS": "1", "PYTHONDONTWRITEBYTECODE": "1",
}


@dataclass
class Box:
    """One warm container and its runner channel."""

    language: str
    container: object  # docker.models.containers.Container
    channel: Channel
    mem_mb: int
    jobs: int = 0
    dead: bool = False
    tainted: bool = False  # a program changed PID 1's limits: finish the job's verdict, then recycle
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def id(self) -> str:
        return self.container.id[:12]


def container_kwargs(config: SandboxConfig, image: str, language: str, mem_mb: int) -> dict:
    """The hardening, in one place: no network, read-only root, capped tmpfs (/work noexec unless
    the language's program is a binary there), no capabilities once the runner runs, two uids,
    no-new-privileges, default seccomp, non-root, pids/memory(=memory+swap)/CPU limits,
    single-threaded math libraries, no host mounts, a clean environment."""
    tmpfs_opts = f"nosuid,nodev,nr_inodes={config.tmpfs_inodes}"
    kwargs = dict(
        image=image, detach=True, stdin_open=True, tty=False,
        network_mode="none", read_only=True, ipc_mode="none",
        tmpfs={
            "/work": f"rw,{'exec' if LANGUAGES[language].exec_work else 'noexec'},{tmpfs_opts},size={config.work_tmpfs_mb}m,mode=0700,uid={config.user.split(':')[0]},gid={config.user.split(':')[-1]}",
            "/tmp": f"rw,noexec,{tmpfs_opts},size={config.tmp_tmpfs_mb}m,mode=1777",
        },
        # root with CAP_SETUID and CAP_SETGID only until the runner's first lines: it takes two
        # non-root uids (the judge's and the program's) and drops both (sandbox/runner.py)
        cap_drop=["ALL"], cap_add=["SETUID", "SETGID"], security_opt=["no-new-privileges"], user="0:0",
        pids_limit=config.pids_limit, mem_limit=f"{mem_mb}m", memswap_limit=f"{mem_mb}m",
        nano_cpus=int(config.container_cpus * 1e9), oom_score_adj=500,
        ulimits=[Ulimit(name="nofile", soft=config.nofile_limit, hard=config.nofile_limit),
                 Ulimit(name="core", soft=0, hard=0)],
        environment={**CONTAINER_ENV, "SANDBOX_IDS": f"{config.user}:{config.judge_uid}"}, hostname="sandbox", working_dir="/work",
        labels={LABEL: "1", LABEL_POOL: config.pool_name, LABEL_OWNER: OWNER, LABEL_LANG: language},
        init=False, auto_remove=False, log_config={"type": "none"},
    )
    if config.runtime:
        kwargs["runtime"] = config.runtime
    return kwargs


def connect(config: SandboxConfig) -> docker.DockerClient:
    """A client with a short timeout: a hung daemon must not hang grading."""
    if config.docker_url:
        return docker.DockerClient(base_url=config.docker_url, timeout=30)
    return docker.from_env(timeout=30)


def reap(client: docker.DockerClient, pool_name: str) -> int:
    """Remove containers of this pool whose owning server is gone (crashed or restarted)."""
    removed = 0
    host = socket.gethostname()
    for c in client.containers.list(all=True, filters={"label": [LABEL, f"{LABEL_POOL}={pool_name}"]}):
        owner = c.labels.get(LABEL_OWNER, "")
        o_host, _, o_pid = owner.rpartition(":")
        if owner == OWNER or (o_host == host and o_pid.isdigit() and _pid_alive(int(o_pid))):
            continue
        try:
            c.remove(force=True)
            removed += 1
        except docker.errors.APIError:
            pass
    return removed


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
        return True
    except ProcessLookupError:
        return False
    except PermissionError:
        return True


class Pool:
    """Warm containers per language; `acquire` queues for a free one, `release` recycles."""

    def __init__(self, config: SandboxConfig, client: docker.DockerClient, images: dict[str, str]) -> None:
        self.config = config
        self.client = client
        self.images = images
        self.control = ThreadPoolExecutor(max_workers=4, thread_name_prefix="sandbox-ctl")
        self._idle: dict[str, asyncio.Queue[Box]] = {lang: asyncio.Queue() for lang in images}
        self._count: dict[str, int] = {lang: 0 for lang in images}  # slots: alive or starting
        self._alive: dict[str, int] = {lang: 0 for lang in images}  # started and not yet given up
        self._failing: dict[str, bool] = {lang: False for lang in images}  # the last start failed
        self._tasks: set[asyncio.Task] = set()
        self._closed = False
        self.last_error = ""
        self.created = 0
        self.recycled = 0

    # -- sync parts (threads)
    def create(self, language: str) -> Box:
        """Create, attach, start, and ping one container. Raises on any failure."""
        limits = self.config.limits_for(language)
        mem = limits.default_memory_limit_mb + self.config.memory_overhead_mb + 2 * (self.config.output_limit_bytes >> 20)
        c = self.client.containers.create(**container_kwargs(self.config, self.images[language], language, mem))
        try:
            sock = self.client.api.attach_socket(c.id, params={"stdin": 1, "stdout": 1, "stream": 1})
            ch = Channel(sock)
            c.start()
            head, _ = ch.request({"op": "ping"}, timeout_s=self.config.start_timeout_s)
            if not head.get("ok") or head.get("pid") != 1 or head.get("apart") is not True:
                raise ChannelError(f"runner answered {head!r}")
        except BaseException:
            self._remove(c)
            raise
        self.created += 1
        return Box(language=language, container=c, channel=ch, mem_mb=mem)

    def destroy(self, box: Box) -> None:
        box.dead = True
        box.channel.close()
        self._remove(box.container)

    def kill(self, box: Box) -> None:
        """Stop a box at once (a cancelled job): the job thread then sees its channel close."""
        box.dead = True
        try:
            box.container.kill()
        except docker.errors.APIError:
            pass
        box.channel.close()

    def oom_killed(self, box: Box, wait_s: float = 3.0) -> bool:
        """Whether the OOM killer ended the whole container. Under gVisor (runsc) a program over its
        memory limit takes the sandbox's kernel with it, so its death is the program's verdict."""
        try:
            self.client.api.wait(box.container.id, timeout=wait_s)
            return bool(self.client.api.inspect_container(box.container.id)["State"].get("OOMKilled"))
        except Exception:  # still running, gone, or the daemon is down: not a known OOM
            return False

    def set_memory(self, box: Box, mb: int) -> None:
        """Set the container's memory limit (= memory+swap: no swap) for the next step."""
        if box.mem_mb == mb:
            return
        self.client.api.update_container(box.container.id, mem_limit=f"{mb}m", memswap_limit=f"{mb}m")
        box.mem_mb = mb

    def _remove(self, c) -> None:
        try:
            c.remove(force=True)
        except docker.errors.NotFound:
            pass
        except docker.errors.APIError as e:
            log.warning("sandbox: could not remove %s: %s", c.id[:12], e)

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
        self._idle[lang].put_nowait(box)

    async def acquire(self, lang: str, deadline: float = math.inf, ok=lambda: True) -> Box:
        """A warm container of `lang`. Jobs of one language queue for its containers in arrival
        order (the idle queue is the per-language semaphore, sized pool_size), so a slow program
        delays later jobs but never turns them into infra_error: the wait ends only at the
        caller's `deadline` (time.monotonic(); inf: none). It ends early, raising TimeoutError,
        when the host is at fault: `ok()` false (the daemon is down), or no container of the
        language is alive and starting one failed, or none has been alive for
        `acquire_timeout_s` (starts keep failing or hang)."""
        getter = asyncio.ensure_future(self._idle[lang].get())
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
                        return box
                    getter = asyncio.ensure_future(self._idle[lang].get())
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

    async def release(self, box: Box, healthy: bool) -> None:
        """Return a container after its job: reuse when clean and young, else replace it."""
        if healthy and not box.dead and not self._closed and box.jobs < self.config.jobs_per_container:
            self._idle[box.language].put_nowait(box)
            return
        self._alive[box.language] -= 1
        self.recycled += 1
        self._spawn(box.language)  # the replacement counts in the same slot
        await self._run(self.destroy, box)

    async def close(self) -> None:
        self._closed = True
        for t in list(self._tasks):
            t.cancel()
        boxes = []
        for q in self._idle.values():
            while not q.empty():
                boxes.append(q.get_nowait())
        for b in boxes:
            await self._run(self.destroy, b)
        await self._run(self._remove_own)  # boxes still lent to jobs: those jobs end as infra_error
        self.control.shutdown(wait=False)

    def _remove_own(self) -> None:
        try:
            for c in self.client.containers.list(all=True, filters={"label": [f"{LABEL_OWNER}={OWNER}", f"{LABEL_POOL}={self.config.pool_name}"]}):
                self._remove(c)
        except docker.errors.DockerException as e:
            log.warning("sandbox: listing own containers failed: %s", e)

"""One warm sandbox as the host holds it: its runner channel, its limits now and what the host
knows of it. Its own module so that the backends and the host's watchdog (sandbox/watchdog.py)
both name it without depending on each other."""
from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from .channel import Channel

H = TypeVar("H")  # a backend's handle of its sandbox: a Docker container, a gVisor or userns Sandbox


@dataclass
class Box(Generic[H]):
    """One warm sandbox and its runner channel. `container` is the backend's handle: `Box[Sandbox]`
    where a backend names it, a bare `Box` (any handle) where the code serves every backend."""

    language: str
    container: H
    channel: Channel
    mem_mb: int
    jobs: int = 0
    dead: bool = False
    tainted: bool = False  # a program changed PID 1's limits: finish the job's verdict, then recycle
    session: bool = False  # a session's sandbox: its processes run between requests too
    successor: bool = False  # its replacement was started ahead (Pool.release)
    killing: bool = False  # the host's watchdog is killing its program (sandbox/watchdog.py)
    sentry_mb: int = -1  # gVisor's kernel's anonymous memory on the host at start (Backend.at_rest); -1: none
    sentry_base: int = -1  # the same when its job (or session) began: the gVisor backend's watchdog counts its growth
    killed: str = ""  # the watchdog killed the whole sandbox, and why (watchdog.MEMORY, THREADS): the program's verdict
    limit_unset: bool = False  # under Docker's runsc: its cgroup could not be lowered to a step's limit (EBUSY): replaced after its job
    gvisor_rest_mb: int = -1  # under Docker's runsc: what gVisor held besides the sandbox's memory when its job began (its cgroup's limit is mem_mb plus it)
    sandbox_rest_mb: int = -1  # Backend.sandbox_mb right after its start (Backend.at_rest); -1: none
    oom_base: int = -1  # runc and userns: its cgroup's OOM kills when its job or session began (Backend.begins; -1: unread)
    rest_mb: int = -1  # runc and userns: what its cgroup held that is no page cache when its job began, less its stash, never more than rest_birth_mb (Backend.begins, overhead_mb); -1: not read
    rest_read: tuple[int, float] | None = None  # its last settled rest and when it was read (Backend.begins: watchdog.settled's prior)
    rest_birth_mb: int = -1  # the same when its first job or session began (Backend.begins; at_rest replaces it past REST_GROWTH_MB over)
    heap_over_since: float = 0.0  # when the watchdog first read it over its limit by gVisor's heap alone (Watchdog._check)
    lock: threading.Lock = field(default_factory=threading.Lock)
    # what its runner holds of tasks' test sets (sandbox/job.py _stash): sha256 -> bytes, least recently used first
    stash: OrderedDict[str, int] = field(default_factory=OrderedDict)

    @property
    def id(self) -> str:
        return str(getattr(self.container, "id", ""))[:12]

"""The server's own cgroups for its sandboxes, where the host lets it make them: the userns backend's
(memory, pids, CPU: its limits) and the gVisor backend's (CPU accounting alone: the host's figure of
a sandbox's CPU, docs/sandboxes.md "CPU time without a cgroup"). One home for finding the folders the
server may make them in, writing them, and removing them with whatever is still inside.
Standard library only."""
from __future__ import annotations

import logging
import os
import signal
import time
from collections.abc import Callable
from pathlib import Path

log = logging.getLogger(__name__)

CGROUP_V1 = ("memory", "pids", "cpu", "cpuacct")  # the userns backend's hierarchies
V2_CONTROLLERS = frozenset({"memory", "pids", "cpu"})  # what it needs enabled for its children on cgroup v2
RMDIR_TRIES = 50  # tries (20 ms apart) to remove a sandbox's cgroup folder before killing what is in it, then as many after


def own_cgroups(v1: tuple[str, ...] = CGROUP_V1, v2: frozenset[str] = V2_CONTROLLERS) -> dict[str, str]:
    """This process's cgroup folders the sandboxes' cgroups go under, by controller (v1: the `v1`
    hierarchies, all of them; v2: '', where its cgroup enables the `v2` controllers for its
    children), where the server may make folders there; {} where it may not."""
    dirs: dict[str, str] = {}
    try:
        with open("/proc/self/cgroup") as f:
            lines = f.read().splitlines()
    except OSError:
        return {}
    for line in lines:
        _, controllers, path = line.split(":", 2)
        for c in controllers.split(",") if controllers else [""]:
            folder = f"/sys/fs/cgroup/{c}{path}" if c else f"/sys/fs/cgroup{path}"
            if c in v1 and os.path.isdir(folder):
                dirs[c] = folder
    if set(v1) <= set(dirs):
        dirs = {c: dirs[c] for c in v1}
    elif "" in [line.split(":", 2)[1] for line in lines] and os.path.isfile("/sys/fs/cgroup/cgroup.controllers"):
        folder = "/sys/fs/cgroup" + next(line.split(":", 2)[2] for line in lines if line.split(":", 2)[1] == "")
        try:  # delegated: the controllers we need are enabled for our children
            with open(os.path.join(folder, "cgroup.subtree_control")) as f:
                dirs = {"": folder} if v2 <= set(f.read().split()) else {}
        except OSError:
            dirs = {}
    else:
        dirs = {}
    return dirs if all(os.access(d, os.W_OK) for d in dirs.values()) else {}


def write(folder: str, name: str, value: str | int) -> None:
    with open(os.path.join(folder, name), "w") as f:
        f.write(str(value))


def read(folder: str, name: str) -> str:
    with open(os.path.join(folder, name)) as f:
        return f.read()


def oom_kills(dirs: dict[str, str]) -> int:
    """How many processes the cgroup's OOM killer took (v1 `memory.oom_control`, v2 `memory.events`); -1 where
    it cannot be read (no memory folder, or gone)."""
    try:
        text = read(dirs.get("memory") or dirs[""], "memory.oom_control" if "memory" in dirs else "memory.events")
    except (OSError, KeyError):
        return -1
    return next((int(line.split()[1]) for line in text.splitlines() if line.startswith("oom_kill ")), 0)


def unreclaimable_mb(dirs: dict[str, str]) -> int:
    """A cgroup's memory usage less its page cache (v1 or v2), MB: what the host's kernel cannot reclaim before an OOM
    kill under a limit without dropping it (anonymous and shared memory, kernel memory: slab, page tables). The page
    cache (active and inactive file pages) is reclaimed first, so a limit set above the rest leaves the sandbox the
    room the cache held. Raises OSError (or ValueError) where it cannot be read."""
    v1 = "memory" in dirs
    folder = dirs["memory"] if v1 else dirs[""]
    used = int(read(folder, "memory.usage_in_bytes" if v1 else "memory.current"))
    keys = ("total_active_file", "total_inactive_file") if v1 else ("active_file", "inactive_file")
    cache = 0
    for line in read(folder, "memory.stat").splitlines():
        key, _, value = line.partition(" ")
        if key in keys:
            cache += int(value)
    return max(0, used - cache) >> 20


def make(bases: dict[str, str], name: str) -> dict[str, str]:
    """A sandbox's folder `name` under each base folder (made, with the bases, where missing: cpu
    and cpuacct may be one hierarchy), by controller; nothing left made where one fails."""
    made: dict[str, str] = {}
    try:
        for c, base in bases.items():
            os.makedirs(base, exist_ok=True)
            made[c] = os.path.join(base, name)
            if not os.path.isdir(made[c]):
                os.mkdir(made[c])
    except BaseException:
        for d in made.values():
            rmdir(d)
        raise
    return made


def rmdir(folder: str) -> bool:
    """Remove a sandbox's cgroup folder once its processes are gone: True when it is gone. RMDIR_TRIES
    tries first (they exit async), then as many again each after SIGKILL to whatever is still in it
    (kill); False when it stays busy even so (UsernsBackend.remove quarantines its uid)."""
    for attempt in range(2 * RMDIR_TRIES):
        try:
            os.rmdir(folder)
            return True
        except FileNotFoundError:
            return True
        except OSError:
            if attempt >= RMDIR_TRIES:
                kill(folder)
            time.sleep(0.02)
    log.warning("sandbox: cgroup %s still busy after SIGKILL to its processes", folder)
    return False


def kill(folder: str) -> None:
    """SIGKILL every process in a cgroup folder: cgroup v2's cgroup.kill where the kernel has one
    (5.14+), and each pid its cgroup.procs lists, through a pidfd opened while the folder still lists
    it, so a pid that ended and was reused by another process between the read and the kill is
    never signalled."""
    if os.path.exists(os.path.join(folder, "cgroup.kill")):
        try:
            write(folder, "cgroup.kill", 1)
        except OSError:
            pass
    try:
        pids = [int(p) for p in read(folder, "cgroup.procs").split()]
    except (OSError, ValueError):
        return
    for pid in pids:
        try:
            fd = os.pidfd_open(pid)
        except OSError:
            continue
        try:
            if str(pid) in read(folder, "cgroup.procs").split():
                signal.pidfd_send_signal(fd, signal.SIGKILL)
        except OSError:
            pass
        finally:
            os.close(fd)


def reap(parents: dict[str, str], prefix: str, own: set[str], dead: Callable[[str], bool]) -> int:
    """Remove the folders `prefix`<name> under `parents` that are not `own` and whose server is
    `dead` (by the name after the prefix: '<pid>-<start ticks>-<count>'), with every sandbox folder
    in them: a dead server's sandboxes died with it. How many servers' folders went."""
    removed = 0
    for parent in parents.values():
        for d in Path(parent).glob(f"{prefix}*"):
            if str(d) in own or not dead(d.name.removeprefix(prefix)):
                continue
            for sub in d.iterdir():
                if sub.is_dir():
                    rmdir(str(sub))
            rmdir(str(d))
            removed += 1
    return removed

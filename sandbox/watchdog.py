"""The host's watch over gVisor sandboxes: memory and host threads, bounded from outside.

Under gVisor neither backend can lean on a cgroup for what a sandbox may take of the host: the
gVisor backend runs rootless with no cgroups at all, and Docker's runsc runtime cannot change a
container's memory limit (Debian's runsc 20221219 has no `update`) while its pids cgroup counts
gVisor's own host threads, which grow with the program's processes x the Sentry's threads under the
ptrace platform (docs/sandboxes.md "Sandbox backends"). So one watchdog, shared by both backends,
reads each busy sandbox's (memory, host threads) every WATCH_S through its backend's reader and,
over a limit, has the backend kill the program's processes (or the whole sandbox). The job then
gets the program's own verdict (memory_limit, or runtime_error naming the host threads), never
infra_error: the kill's reason is recorded on the channel (this request) and on the box (a
sandbox killed whole) before anything dies.
"""
from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from .box import Box
from .channel import Channel

log = logging.getLogger(__name__)

WATCH_S = 0.02  # period while a request runs (or a session lives): a program overshoots by one period at most
THREADS_S = 0.1  # how old the gVisor backend's host-thread count may be (ProcessTable)
MEMORY, THREADS = "memory", "threads"  # why the watchdog killed (Channel.over, Box.killed)
# The requests whose runner may ask for the sandbox's host CPU since they began (_read_reply): a job's run, a
# session's cell and shell command (docs/sandboxes.md "CPU time without a cgroup")
HOST_CPU_OPS = frozenset(("exec", "cell", "shell"))


@dataclass(frozen=True)
class Usage:
    """What a sandbox takes of the host now. `firm_mb`: the part of mem_mb read exactly (gVisor's
    memory file, committed pages); the rest is gVisor's heap as its processes' resident memory
    shows it, which moves on its own (Go's collector and scavenger). -1: all of it is firm (a cgroup)."""

    mem_mb: int
    threads: int
    firm_mb: int = -1


SETTLE_READS, SETTLE_GAP_S, SETTLE_MB = 5, 0.02, 8  # settled(): how often, how far apart, how close


def settled(read: Callable[[], int], unsettled: Callable[[list[int]], int] = max,
            prior: tuple[int, float] | None = None) -> int:
    """A reading the host acts on, once it holds still: two readings SETTLE_GAP_S apart within
    SETTLE_MB of each other give the later; -1 (gone) at once. One that never settles in
    SETTLE_READS readings gives `unsettled` of them (the caller's safe side). A single reading can
    catch a transient: a box's kernel read 347 MB, then 0 MB when read again (issue 30).
    `prior`: the caller's last reading of the same thing and when (time.monotonic()) it returned;
    taken SETTLE_GAP_S or more before a first reading within SETTLE_MB of it, the two are that pair
    and the first reading is settled with no wait (issue 32: the wait for a second reading was 20 ms
    of every job's start, a third of a HumanEval job's time in its box, the box and its core idle)."""
    seen = [read()]
    if (prior is not None and seen[-1] >= 0 and prior[0] >= 0 and abs(seen[-1] - prior[0]) <= SETTLE_MB
            and time.monotonic() - prior[1] >= SETTLE_GAP_S):
        return seen[-1]
    while seen[-1] >= 0 and len(seen) < SETTLE_READS:
        time.sleep(SETTLE_GAP_S)
        seen.append(read())
        if seen[-1] < 0 or abs(seen[-1] - seen[-2]) <= SETTLE_MB:
            return seen[-1]
    return seen[-1] if seen[-1] < 0 else unsettled(seen)


def verdict(reason: str, threads_max: int) -> tuple[str, str]:
    """The program's verdict and detail for a watchdog kill (sandbox/contract.py's verdict table)."""
    if reason == THREADS:
        return "runtime_error", (f"the program's processes used more than {threads_max} host threads "
                                 "(host_threads_per_sandbox, docs/sandboxes.md \"Sandbox backends\")")
    return "memory_limit", "memory limit exceeded"


class ProcessTable:
    """The host's processes, their parents and thread counts, from one pass over /proc/*/stat
    taken at most every THREADS_S and shared by every sandbox of the backend: one pass per box
    per WATCH_S cost 1.6 ms on a host of 79 processes (8% of a core per busy box, and every
    session is watched), where host threads grow ~1k/s at worst (measured), so a tenth of a
    second late stays far under the pids backstop (RUNSC_HOST_PIDS_MARGIN)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._at = float("-inf")
        self._children: dict[int, list[int]] = {}
        self._threads: dict[int, int] = {}
        self._anon: dict[int, tuple[float, int]] = {}  # root -> (when read, MB)

    def threads_below(self, root: int, fresh: bool = False) -> int:
        """Host threads of process `root` and every process below it (`fresh`: scanned now)."""
        with self._lock:
            return sum(self._threads.get(pid, 0) for pid in self._tree(root, fresh))

    def pids_below(self, root: int, fresh: bool) -> list[int]:
        """`root` and every process below it, from a scan at most THREADS_S old (`fresh`: now). Not
        fresh, a process newer than the scan is missed: fine at a job's start only (its time then
        counts whole: host_cpu_since), never for the reading that decides."""
        with self._lock:
            return self._tree(root, fresh)

    def anon_mb_below(self, root: int, fresh: bool = False) -> int:
        """Anonymous memory (resident less file and shared pages, /proc/PID/statm) of `root` and every
        process below it, MB: gVisor's kernel's Go heap, where it keeps socket and pipe buffers and
        tmpfs xattrs outside its memory file. Read at most every THREADS_S per root (`fresh`: now)."""
        with self._lock:
            at, mb = self._anon.get(root, (float("-inf"), 0))
            if fresh or time.monotonic() - at >= THREADS_S:
                pages = 0
                for pid in self._tree(root, fresh):
                    try:
                        with open(f"/proc/{pid}/statm", "rb") as f:
                            fields = f.read().split()
                        pages += int(fields[1]) - int(fields[2])  # resident - shared
                    except (OSError, IndexError, ValueError):
                        continue  # exited meanwhile
                mb = pages * os.sysconf("SC_PAGE_SIZE") >> 20
                self._anon[root] = (time.monotonic(), mb)
            return mb

    def _tree(self, root: int, fresh: bool) -> list[int]:
        """`root` and every process below it, from a scan at most THREADS_S old (`fresh`: now); call locked."""
        if fresh or time.monotonic() - self._at >= THREADS_S:
            self._scan()
        out, todo = [], [root]
        while todo:
            pid = todo.pop()
            out.append(pid)
            todo.extend(self._children.get(pid, ()))
        return out

    def _scan(self) -> None:
        children: dict[int, list[int]] = {}
        threads: dict[int, int] = {}
        for name in os.listdir("/proc"):
            if name.isdigit():
                try:
                    with open(f"/proc/{name}/stat", "rb") as f:
                        fields = f.read().rsplit(b")", 1)[1].split()
                    children.setdefault(int(fields[1]), []).append(int(name))  # field 4: ppid
                    threads[int(name)] = int(fields[17])  # field 20: num_threads
                except (OSError, IndexError, ValueError):
                    continue  # exited meanwhile
        self._children, self._threads, self._at = children, threads, time.monotonic()
        self._anon = {root: v for root, v in self._anon.items() if root in threads}  # sandboxes gone


def memory_file(pids: Iterable[int]) -> str:
    """/proc/<pid>/fd/N of gVisor's memory file (a memfd named runsc-memory: every page the
    sandbox's processes and tmpfs committed, as its blocks) held by one of these host processes or
    a child of theirs; "" where none is found or readable (another user's processes)."""
    for pid in pids:
        for p in [pid, *_children(pid)]:
            try:
                for fd in os.listdir(f"/proc/{p}/fd"):
                    if os.readlink(f"/proc/{p}/fd/{fd}").startswith("/memfd:runsc-memory"):
                        return f"/proc/{p}/fd/{fd}"
            except OSError:
                continue
    return ""


def _children(pid: int) -> list[int]:
    """The children of process `pid`, started by any of its threads: each task's own `children`
    file lists only what that thread started (proc(5)), and runsc starts its gofer and the
    platform's stubs from threads other than its first (issue 30)."""
    out: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return out
    for tid in tasks:
        try:
            with open(f"/proc/{pid}/task/{tid}/children") as f:
                out.extend(int(c) for c in f.read().split())
        except (OSError, ValueError):
            continue  # the thread ended meanwhile
    return out


def cgroup_dirs(pid: int) -> dict[str, str]:
    """The cgroup folders of a host process, by controller ('memory', 'pids'; '' for cgroup v2),
    from /proc/<pid>/cgroup: where Docker put the container, whatever its cgroup driver."""
    out: dict[str, str] = {}
    with open(f"/proc/{pid}/cgroup") as f:
        for line in f:
            _, controllers, path = line.rstrip("\n").split(":", 2)
            for c in controllers.split(",") if controllers else [""]:
                base = "/sys/fs/cgroup" + (f"/{c}" if c else "")
                if c in ("memory", "pids", "cpuacct", "") and os.path.isdir(base + path):
                    out[c] = base + path
    return out


def cgroup_usage(dirs: dict[str, str]) -> Usage:
    """A container's memory and tasks (its host threads) from its cgroup files (v1 or v2). Memory
    is what `docker stats` shows: usage less the inactive file cache, which a cgroup limit would
    reclaim before any OOM kill (the watchdog must not kill for it)."""
    v1 = "memory" in dirs
    mem_dir = dirs["memory"] if v1 else dirs[""]
    used = _read_int(mem_dir, "memory.usage_in_bytes" if v1 else "memory.current")
    inactive = 0
    with open(os.path.join(mem_dir, "memory.stat")) as f:
        for line in f:
            key, _, value = line.partition(" ")
            if key == ("total_inactive_file" if v1 else "inactive_file"):
                inactive = int(value)
                break
    return Usage(mem_mb=max(0, used - inactive) >> 20, threads=_read_int(dirs.get("pids", dirs.get("", "")), "pids.current"))


def unheld_mb(dirs: dict[str, str]) -> int:
    """Memory of a container's cgroup that outlives every process (v1 or v2), MB: shared memory
    (tmpfs, SysV and POSIX segments, memfds) and socket buffers (v2's `sock`; v1 names none). After
    a reset, more of it than at the box's start is what a job left in the kernel (Backend.at_rest),
    counted whatever kind of object holds it, named or not."""
    v1 = "memory" in dirs
    keys = ("total_shmem",) if v1 else ("shmem", "sock")
    held = 0
    with open(os.path.join(dirs["memory"] if v1 else dirs[""], "memory.stat")) as f:
        for line in f:
            key, _, value = line.partition(" ")
            if key in keys:
                held += int(value)
    return held >> 20


def set_cgroup_memory(dirs: dict[str, str], mb: int) -> None:
    """Set a container's memory cgroup limit to mb, memory and swap alike (v1 or v2): the kernel then
    stops a burst no sampling period sees. v1 keeps memsw >= limit at every step, so the order
    follows the direction; a limit under what the kernel cannot reclaim raises (EBUSY)."""
    n = str(mb << 20)
    if "memory" not in dirs:
        with open(os.path.join(dirs[""], "memory.max"), "w") as f:
            f.write(n)
        return
    d = dirs["memory"]
    files = ["memory.limit_in_bytes", "memory.memsw.limit_in_bytes"]
    if not os.path.exists(os.path.join(d, files[1])):
        files.pop()
    elif (mb << 20) > _read_int(d, files[0]):
        files.reverse()
    for name in files:
        with open(os.path.join(d, name), "w") as f:
            f.write(n)


CLK_TCK = os.sysconf("SC_CLK_TCK")


def cgroup_cpu(dirs: dict[str, str]) -> dict[object, float] | None:
    """A container's host CPU seconds, every task it ever ran (exited ones too), from its cgroup
    (v1 cpuacct.usage or v2 cpu.stat): under Docker's runsc, gVisor's kernel, its gofer and the
    platform's stubs (host_cpu_since). None where unreadable."""
    try:
        if "cpuacct" in dirs:
            return {"cgroup": _read_int(dirs["cpuacct"], "cpuacct.usage") / 1e9}
        if "" in dirs:
            with open(os.path.join(dirs[""], "cpu.stat")) as f:
                for line in f:
                    if line.startswith("usage_usec "):
                        return {"cgroup": int(line.split()[1]) / 1e6}
    except (OSError, ValueError):
        pass
    return None


def tree_cpu(pids: Iterable[int]) -> dict[object, float] | None:
    """Host CPU seconds of each of these processes, by (pid, start time): its threads' (live and
    exited) and its waited-for children's (/proc/PID/stat utime, stime, cutime, cstime). Not used
    for the gVisor backend's runsc tree: it read under the limit for 200 sub-tick vfork children
    past it (docs/sandboxes.md "CPU time without a cgroup"). None where none is readable."""
    out: dict[object, float] = {}
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
            out[(pid, int(fields[19]))] = sum(int(x) for x in fields[11:15]) / CLK_TCK  # fields 14-17, 22
        except (OSError, IndexError, ValueError):
            continue  # exited meanwhile: host_cpu_since sees it gone
    return out or None


def host_cpu_since(base: dict[object, float] | None, now: dict[object, float] | None) -> float | None:
    """What a sandbox's host processes used between two readings (cgroup_cpu, tree_cpu), an upper
    bound of its programs' CPU (it adds gVisor's own work); None where either is missing or a
    process of the first reading is gone (its time may have left the tree with it: gVisor's own
    clock decides alone then, docs/sandboxes.md "CPU time without a cgroup"). A process new since
    the first counts whole."""
    if base is None or now is None or any(k not in now for k in base):
        return None
    return sum(max(0.0, v - base.get(k, 0.0)) for k, v in now.items())


def _read_int(folder: str, name: str) -> int:
    with open(os.path.join(folder, name)) as f:
        return int(f.read())


class WatchedChannel(Channel):
    """A channel the watchdog watches: its requests are numbered, and a kill lands only while the
    request it read runs (or, in a session, before its next request), never on a later one (red
    team: under Docker's runsc a program that went over its limit and ended before the kill was
    accepted, and the kill landed on the next job, an innocent program's memory_limit). A run the
    watchdog killed answers as the program's own end: `oom` for memory (as the cgroup's counter
    does under runc), `host_threads` (its verdict's detail) for host threads."""

    threads_max = 0  # the watchdog's budget, for the detail (the backend sets it)

    def __init__(self, sock) -> None:
        super().__init__(sock)
        self.seq = 0  # requests begun
        self.turn = threading.Lock()  # a request's start and end against a kill (Watchdog._kill)
        self.idle_over = ""  # a session's kill between requests: the next request's `over`
        # the sandbox's host CPU (host_cpu_reading); the backend sets it where it can read it
        self.host_cpu: Callable[[bool], dict[object, float] | None] | None = None  # (fresh)
        self._cpu_base: dict[object, float] | None = None  # its reading as the request began

    def request(self, head: dict, blobs: dict[str, bytes] | None = None, timeout_s: float = 30.0
                ) -> tuple[dict, dict[str, bytes]]:
        self._cpu_base = None
        if self.host_cpu is not None and head.get("op") in HOST_CPU_OPS:  # the runner may ask (_read_reply)
            self._cpu_base = self.host_cpu(False)
            head = dict(head, host_cpu=self._cpu_base is not None)
        with self.turn:
            self.seq += 1
            self.over, self.idle_over, self.busy = self.idle_over, "", True
        try:
            reply, out = self._request(head, blobs, timeout_s)
        finally:
            with self.turn:  # a kill of this request (it holds the turn) ends before the next begins
                self.busy = False
        if self.over and head.get("op") == "exec":
            if self.over == MEMORY:
                reply["oom"] = True
            else:
                reply["host_threads"] = verdict(self.over, self.threads_max)[1]
        return reply, out

    def _read_reply(self) -> tuple[dict, dict[str, bytes]]:
        """The request's answer, answering meanwhile the runner's asks for the sandbox's host CPU
        since the request began (job_protocol.ask_host_cpu: gVisor's clock said time_limit)."""
        while True:
            head, blobs = self._read_message()
            if head.get("ask") != "host_cpu" or self._cpu_base is None:
                return head, blobs
            now = self.host_cpu(True) if self.host_cpu is not None else None
            self._send_line({"host_cpu_s": host_cpu_since(self._cpu_base, now), "cores": os.cpu_count() or 1})


class Watchdog:
    """One thread that watches the boxes a backend names; `over(box, reason)` runs in its own thread
    (a kill takes runsc calls: the watch goes on meanwhile), once per box at a time."""

    def __init__(self, name: str, boxes: Callable[[], Iterable[Box]], usage: Callable[[Box], Usage],
                 over: Callable[[Box, str], None], threads_max: int) -> None:
        self.boxes, self.usage, self.over, self.threads_max = boxes, usage, over, threads_max
        self._stop = threading.Event()
        self._start_lock = threading.Lock()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)

    def start(self) -> None:
        """Start watching (idempotent): at the backend's probe, and at each box it starts (a
        session host may start boxes on a backend it never probed)."""
        with self._start_lock:
            if not self._thread.is_alive() and not self._stop.is_set():
                self._thread.start()

    def stop(self) -> None:
        self._stop.set()

    def _run(self) -> None:
        """Every WATCH_S, each busy box (a request runs) and each session's box (its processes run
        between requests) against its memory limit (Box.mem_mb) and the host-thread budget."""
        while not self._stop.wait(WATCH_S):
            try:
                boxes = list(self.boxes())
            except Exception as e:  # noqa: BLE001 - one period lost, never the watch
                log.warning("sandbox: the watchdog could not list its sandboxes: %s", e)
                continue
            for box in boxes:
                try:
                    self._check(box)
                except Exception as e:  # noqa: BLE001 - e.g. no thread to spare for the kill: next period
                    box.killing = False
                    log.warning("sandbox: the watchdog's check of %s failed: %s", box.id, e)

    def _check(self, box: Box) -> None:
        """One reading of one box; over a limit, its kill (in its own thread), tied to the request
        read (WatchedChannel.seq): a reading whose request has ended kills nothing."""
        ch: WatchedChannel = box.channel  # type: ignore[assignment]
        if box.dead or box.killing or not (ch.busy or box.session):
            return
        seq = ch.seq
        try:
            use = self.usage(box)
        except Exception as e:  # gone (its channel says so): next period
            log.debug("sandbox: watch of %s: %s", box.id, e)
            return
        reason = MEMORY if use.mem_mb > box.mem_mb else THREADS if use.threads > self.threads_max else ""
        if reason == MEMORY and 0 <= use.firm_mb <= box.mem_mb and not self._heap_settled(box):
            return  # over by gVisor's heap alone: a fresh reading of it first (never a transient's kill)
        if reason != MEMORY:
            box.heap_over_since = 0.0
        if not reason:
            return
        with ch.turn:
            if ch.seq != seq or not (ch.busy or box.session):
                return  # the request read has ended: its reply is out, the next must not pay
            box.killing = True
            if ch.busy:
                ch.over = ch.over or reason
            else:
                ch.idle_over = ch.idle_over or reason
        threading.Thread(target=self._kill, args=(box, reason, seq), daemon=True).start()

    @staticmethod
    def _heap_settled(box: Box) -> bool:
        """Whether the box has read over its limit by gVisor's heap alone for 2 x THREADS_S: past
        the heap's cached reading (ProcessTable), so a second, fresh one said it too."""
        now = time.monotonic()
        if not box.heap_over_since:
            box.heap_over_since = now
        return now - box.heap_over_since >= 2 * THREADS_S

    def _kill(self, box: Box, reason: str, seq: int) -> None:
        ch: WatchedChannel = box.channel  # type: ignore[assignment]
        try:
            with ch.turn:  # the request read goes on until the kill is done; a later one never sees it
                if ch.seq == seq and (ch.busy or box.session):
                    log.info("sandbox: %s over its %s limit: killing", box.id, reason)
                    self.over(box, reason)
        except Exception as e:  # noqa: BLE001 - the backend's kill failed: say so, the watch goes on
            log.warning("sandbox: the watchdog's kill of %s failed: %s", box.id, e)
        finally:
            box.killing = False

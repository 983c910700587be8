"""CPU and memory accounting of a whole sandbox, read by PID 1: the cgroup's CPU clock and OOM-kill
counter where they are readable; under gVisor, which mounts no cgroup files, its own cgroupfs mounted
by PID 1 (mount_cpu_clock; docs/sandboxes.md "CPU time without a cgroup"). Standard library only."""
from __future__ import annotations

import ctypes
import os
import resource
import time
from collections.abc import Callable

POLL_S = 0.01

# What the host answers a runner's ask for its sandbox's host CPU (job_protocol.ask_host_cpu):
# (host CPU seconds of the sandbox's host processes since the request began, the host's cores),
# or None where the host cannot read it (docs/sandboxes.md "CPU time without a cgroup").
HostAsk = Callable[[], tuple[float, int] | None]


def _first_readable(paths: tuple[str, ...]) -> str | None:
    for p in paths:
        try:
            with open(p, "rb"):
                return p
        except OSError:
            continue
    return None


CPU_V1 = _first_readable(("/sys/fs/cgroup/cpuacct/cpuacct.usage", "/sys/fs/cgroup/cpu,cpuacct/cpuacct.usage"))
CPU_V2 = None if CPU_V1 else _first_readable(("/sys/fs/cgroup/cpu.stat",))
OOM_FILE = _first_readable(("/sys/fs/cgroup/memory/memory.oom_control", "/sys/fs/cgroup/memory.events"))


def cgroup_cpu_s() -> float | None:
    """CPU seconds used by the whole container (every process and thread), or None."""
    try:
        if CPU_V1:
            with open(CPU_V1, "rb") as f:
                return int(f.read()) / 1e9
        if CPU_V2:
            with open(CPU_V2, "rb") as f:
                for line in f:
                    if line.startswith(b"usage_usec"):
                        return int(line.split()[1]) / 1e6
    except (OSError, ValueError):
        pass
    return None


def oom_kills() -> int:
    """The memory cgroup's OOM-kill counter: the only reliable memory-limit signal."""
    if not OOM_FILE:
        return 0
    try:
        with open(OOM_FILE, "rb") as f:
            for line in f:
                if line.startswith(b"oom_kill "):
                    return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return 0


def self_cpu_s() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def children_cpu_s() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


CLK_TCK = os.sysconf("SC_CLK_TCK")
CPUS = len(os.sched_getaffinity(0)) or 1  # the cores the sandbox's tasks may run on (SandboxClock's cap under gVisor)

# Where PID 1 mounts gVisor's own cgroupfs, cpuacct controller (mount_cpu_clock): gVisor mounts no
# cgroup files on either gVisor path (docs/sandboxes.md "CPU time without a cgroup").
CPU_MOUNT = "/dev/cpuacct"
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 1, 2, 4, 8
CAP_SETPCAP, CAP_SYS_ADMIN = 8, 21
PR_CAPBSET_DROP = 24


def mount_cpu_clock() -> bool:
    """Where no cgroup CPU clock is readable and PID 1 starts as root (both gVisor paths: the spec
    and Docker's runsc runtime give it CAP_SYS_ADMIN of gVisor's kernel for this alone), mount
    gVisor's cgroupfs cpuacct controller read-only at CPU_MOUNT and read its root `cpuacct.usage`:
    every task's CPU, exited and kernel-reaped ones included, exact (docs/sandboxes.md "CPU time
    without a cgroup"; the /proc sampling it replaces missed children shorter than a reading).
    Then CAP_SYS_ADMIN and CAP_SETPCAP leave the bounding set, before any other process exists.
    True when mounted here; SystemExit where a root start has no clock and cannot mount one (a
    sandbox without an exact CPU clock never serves)."""
    global CPU_V1
    if CPU_V1 or CPU_V2 or os.geteuid() != 0:
        return False
    libc = ctypes.CDLL(None, use_errno=True)
    os.makedirs(CPU_MOUNT, mode=0o755, exist_ok=True)
    flags = MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC
    if libc.mount(b"cgroup", CPU_MOUNT.encode(), b"cgroup", flags, b"cpuacct") != 0:
        raise SystemExit(f"no CPU clock: mounting cgroupfs cpuacct at {CPU_MOUNT}: {os.strerror(ctypes.get_errno())}")
    CPU_V1 = _first_readable((f"{CPU_MOUNT}/cpuacct.usage",))
    for cap in (CAP_SYS_ADMIN, CAP_SETPCAP):
        libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0)
    if _cap_bounding() & (1 << CAP_SYS_ADMIN | 1 << CAP_SETPCAP):
        raise SystemExit("CAP_SYS_ADMIN or CAP_SETPCAP still in the bounding set after the CPU clock's mount")
    if CPU_V1 is None:
        raise SystemExit(f"no CPU clock: {CPU_MOUNT}/cpuacct.usage unreadable")
    return True


def _cap_bounding() -> int:
    """This process's bounding set (/proc/self/status CapBnd); all bits where it cannot be read."""
    try:
        with open("/proc/self/status", "rb") as f:
            for line in f:
                if line.startswith(b"CapBnd:"):
                    return int(line.split()[1], 16)
    except (OSError, ValueError, IndexError):
        pass
    return -1


def task_cpu_s(pids: set[int]) -> float:
    """CPU seconds the live processes `pids` used themselves (all their threads; /proc/PID/stat
    utime + stime, whole clock ticks), not their reaped children: the runner's idle helpers (the
    warm interpreter and the syntax checker), whose own time the sandbox's clock has too but the
    program did not spend (gVisor charged the zygote 0.24-0.30 s while a program slept for 1 s;
    measured). A program's process the zygote forked and reaped is in its cutime, so it counts."""
    ticks = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
            ticks += int(fields[11]) + int(fields[12])  # fields 14-15: utime stime
        except (OSError, IndexError, ValueError):
            continue  # gone: a spared helper that died ends its box (warm_keeper)
    return ticks / CLK_TCK


class SandboxClock:
    """The CPU seconds every task of the sandbox but this runner and the `spared` helpers used since
    the clock was made: the cgroup clock (Docker's, or under gVisor its own cgroupfs mounted by
    mount_cpu_clock), less the runner's own and the spared helpers' own. A job runs alone in its
    sandbox, so this is the job's CPU whatever its processes do (orphans, fork chains, children
    the kernel reaps itself). Under gVisor also at most CPUS x the wall clock since the start:
    gVisor charges a task by the wall clock while it is in the application or its kernel, also
    while the host runs something else, so on a contended host many runnable tasks add up past
    what the host's cores can have run (200 forked sleepers: 11-13.6 s in 3.8-4.5 s of wall on 2
    cores at load 16; measured). Where no cgroup clock is readable (a runner not started as root
    by our pool, so mount_cpu_clock had nothing to do) only the waited children's (RUSAGE_CHILDREN):
    orphans and kernel-reaped children are missed there.

    Under gVisor with `ask` (the host answers it: job_protocol.ask_host_cpu), a reading past a
    limit is also checked against the host's CPU of the sandbox's own host processes (`over`): the
    charge is the least of the two, each an upper bound of the program's CPU, so a loaded host
    never makes an innocent program's time_limit (docs/sandboxes.md "CPU time without a cgroup")."""

    def __init__(self, spared: set[int], ask: HostAsk | None = None) -> None:
        self.spared = spared
        self.t0 = time.monotonic()
        self.capped = CPU_V1 == f"{CPU_MOUNT}/cpuacct.usage"
        self.ask = ask if self.capped else None
        self.host: tuple[float, float, int] | None = None  # (when asked, host CPU s, host cores): host_bound
        self.cg0, self.me0, self.sp0, self.ch0 = cgroup_cpu_s(), self_cpu_s(), task_cpu_s(spared), children_cpu_s()
        self.reaped_s = 0.0  # what the zygote said the programs it reaped used (add_reaped)
        self.own_max: float | None = None  # the most of the runner's own CPU subtracted, once charged (charge_own)

    def charge_own(self) -> None:
        """From now on the runner's own CPU is the program's too: the runner reads and drops what the program writes
        past what is kept (Capture: a cell's or a command's output, a job's stderr), and that reading is work the
        program made it do. Subtracted as the runner's own, a cell flooding stdout in 1 MiB writes was charged
        0.03-0.78 s while its sandbox's host CPU rose 2.1-2.6 s under a 1 s limit (red team rt30aa,
        tests/test_redteam_backends_8.py)."""
        if self.own_max is None:
            self.own_max = self_cpu_s() - self.me0

    def add_reaped(self, cpu_s: float) -> None:
        """A program the warm interpreter's zygote reaped (its own child under gVisor: harness/zygote.py
        fork_watched) and what it said it used, with the children it reaped. The cgroup clock has it
        already (the spared zygote's cutime is not subtracted: task_cpu_s); only the fallback without a
        cgroup clock, which counts our own waited children, needs to be told."""
        self.reaped_s += cpu_s

    def used(self) -> float:
        cg = cgroup_cpu_s()
        if cg is None or self.cg0 is None:
            return max(0.0, children_cpu_s() - self.ch0 + self.reaped_s)
        own = self_cpu_s() - self.me0
        if self.own_max is not None:
            own = min(own, self.own_max)
        spent = (cg - self.cg0) - own - (task_cpu_s(self.spared) - self.sp0)
        if self.capped:
            spent = min(spent, CPUS * (time.monotonic() - self.t0), self.host_bound())
        return max(0.0, spent)

    def _with_reading(self) -> float:
        """Right after an answer: the least of gVisor's clock and the host's reading itself (a
        runner the loaded host did not run for a while must not add that while to the reading)."""
        used = self.used()
        return used if self.host is None else min(used, self.host[1])

    def host_bound(self) -> float:
        """The host's last reading plus its cores times the wall clock since its answer came: when
        to ask again (over). Lower than the host's CPU by at most what the answer's trip took, so
        the run's last word is `settle`'s, a reading taken after the program ended; infinite before
        any answer."""
        if self.host is None:
            return float("inf")
        at, cpu_s, cores = self.host
        return cpu_s + cores * (time.monotonic() - at)

    def _ask(self) -> None:
        got = self.ask() if self.ask is not None else None
        if got is None:  # the host cannot read it: gVisor's clock alone, as before
            self.ask, self.host = None, None
        else:
            self.host = (time.monotonic(), got[0], max(1, got[1]))

    def over(self, limit: float) -> bool:
        """Whether the sandbox used more than `limit`: past it by gVisor's clock, the host is asked
        (once, and again only once its last answer's bound passes the limit: an innocent program
        on a loaded host costs a few asks a run) and the least of the two decides."""
        if self.used() <= limit:
            return False
        if self.ask is None:
            return True
        self._ask()
        return self._with_reading() > limit

    def settle(self, limit: float) -> float:
        """The run's charge, read once its program ended (or was stopped): where the host was asked
        during the run, or gVisor's clock is past the limit, the host is asked again, so the least
        is taken against a host reading from after the program's last instruction."""
        if self.ask is not None and (self.host is not None or self.used() > limit):
            self._ask()
        return self._with_reading()


class Capture:
    """What PID 1 keeps of a stream a program writes (a cell's or a command's stdout and stderr, a cell's result
    channel, a job's stderr): its first `cap` bytes and, with `tail`, its last `tail` bytes; the rest read and counted
    (`total`), never kept. Past what is kept the reading is the program's CPU (`clock`: SandboxClock.charge_own), not
    the runner's own: every stream of a program PID 1 reads is kept here, or bounded by a stop (a job's stdout past
    its cap ends the job; a cell's result channel past one result's most ends the cell: session_box.ResultLine)."""

    def __init__(self, cap: int, clock: SandboxClock | None = None, tail: int = 0) -> None:
        self.cap, self.tail_max, self.clock = cap, tail, clock
        self.data, self.tail, self.total = bytearray(), b"", 0

    def add(self, chunk: bytes) -> None:
        self.total += len(chunk)
        room = self.cap - len(self.data)
        if room > 0:
            self.data += chunk[:room]
            chunk = chunk[room:]
        if chunk and self.tail_max:  # at most tail + one chunk copied per read, however big the read
            self.tail = chunk[-self.tail_max:] if len(chunk) >= self.tail_max else (self.tail + chunk)[-self.tail_max:]
        if self.total > self.cap + self.tail_max and self.clock is not None:
            self.clock.charge_own()

    def dropped(self) -> int:
        """Bytes read and not kept."""
        return self.total - len(self.data) - len(self.tail)

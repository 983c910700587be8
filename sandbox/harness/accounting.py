"""CPU and memory accounting of a whole sandbox, read by PID 1: the cgroup's CPU clock and OOM-kill
counter where they are readable, and where there is no cgroup clock (gVisor) every task's CPU from
/proc (TaskClock; docs/sandboxes.md "CPU time without a cgroup"). Standard library only."""
from __future__ import annotations

import os
import resource
import time

POLL_S = 0.01


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


CLK_TCK = os.sysconf("SC_CLK_TCK")
CPUS = len(os.sched_getaffinity(0)) or 1  # the cores the sandbox's tasks may run on (TaskClock)


class TaskClock:
    """The CPU seconds every task of the sandbox but this runner used since the clock was made,
    from the kernel's own accounting, where no cgroup clock is readable (gVisor; docs/sandboxes.md
    "CPU time without a cgroup"). A job runs alone in its sandbox, so this is the job's CPU,
    whatever its processes do: never only the waited process's rusage, which left out every
    orphan (a program whose children exit leaving grandchildren running used 3 s under a 1 s limit
    and was accepted). Two readings, each never above the truth, of which the larger counts:
    - the sum: what the tasks alive now used (/proc/PID/stat utime + stime, all their threads) and
      their reaped children (cutime + cstime), plus what the children this process reaped used
      (RUSAGE_CHILDREN: orphans end as ours). Read in this order, a task reaped during a reading
      is missed once (the next reading has it), never counted twice: RUSAGE_CHILDREN first, then
      by pid, and a parent's pid is below its children's (gVisor's pids only grow);
    - the ledger: every task ever seen, at the most it was seen using itself. It keeps what a
      child whose parent ignores SIGCHLD used: the kernel reaps it itself and adds its time to no
      one (Linux and gVisor alike), so it leaves the sum when it exits; the ledger misses at most
      what such a task used after its last reading (one POLL_S).
    Not the `spared` (the warm interpreter and the syntax checker: ours, idle while a program
    runs, yet gVisor charged the zygote 0.24-0.30 s while a program slept for 1 s; measured): the
    cgroup clock less the runner's leaves out nothing else.
    At most CPUS x the wall clock since the start: gVisor charges a task for its time in the
    application or its kernel by the wall clock, also while the host runs something else, so on a
    contended host many runnable tasks add up past what the host's cores can have run (200 forked
    sleepers: 11-13.6 s in 3.8-4.5 s of wall on 2 cores at load 16; measured). No process's real
    CPU is above either reading."""

    def __init__(self, spared: set[int]) -> None:
        self.spared = spared
        self.t0 = time.monotonic()
        self.reaped_s = 0.0  # what the zygote said the programs it reaped used (add_reaped)
        self.seen: dict[tuple[int, bytes], int] = {}  # (pid, start time) -> most ticks it was seen using
        self.base: dict[tuple[int, bytes], int] = {}  # the same at the start: not the run's
        self.sum0 = self._read()
        self.base = dict(self.seen)

    def _read(self) -> float:
        ru = resource.getrusage(resource.RUSAGE_CHILDREN)
        ticks, me = 0, os.getpid()
        for pid in sorted(int(p) for p in os.listdir("/proc") if p.isdigit()):
            if pid == me or pid in self.spared:
                continue
            try:
                with open(f"/proc/{pid}/stat", "rb") as f:
                    fields = f.read().rsplit(b")", 1)[1].split()
                own = int(fields[11]) + int(fields[12])  # fields 14-15: utime stime
                ticks += own + int(fields[13]) + int(fields[14])  # 16-17: cutime cstime
                key = (pid, fields[19])  # 22: start time (a pid used again is another task)
                if own > self.seen.get(key, -1):
                    self.seen[key] = own
            except (OSError, IndexError, ValueError):
                continue  # gone meanwhile: its parent's cutime or our RUSAGE_CHILDREN has it next time
        return ru.ru_utime + ru.ru_stime + self.reaped_s + ticks / CLK_TCK

    def add_reaped(self, cpu_s: float) -> None:
        """A program the warm interpreter's zygote reaped (its own child under gVisor: harness/zygote.py
        fork_watched) and what it said it used, with the children it reaped: counted as RUSAGE_CHILDREN
        counts ours, since the zygote's own times are spared. Said after the reap, so a reading never
        has it twice (before: in /proc; after: here)."""
        self.reaped_s += cpu_s

    def used(self) -> float:
        total = self._read() - self.sum0
        ledger = sum(t - self.base.get(k, 0) for k, t in self.seen.items()) / CLK_TCK
        return min(max(0.0, total, ledger), CPUS * (time.monotonic() - self.t0))

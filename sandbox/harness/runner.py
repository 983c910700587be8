"""The supervisor that runs INSIDE a sandbox container, as its PID 1. Standard library only.

Why PID 1: the kernel ignores SIGKILL sent to a PID namespace's init from inside the namespace,
so the untrusted program cannot kill its supervisor, and `kill(-1, SIGKILL)` from here ends every
other process of the container at once. The runner also marks itself non-dumpable, so the program
cannot ptrace it or open its pipes via /proc/1/fd. gVisor ignores that mark in /proc, so every channel the
runner or a judge holds that carries tests, nonces or results is a socket, never a pipe (channel()).

Two uids (docs/architecture.md, "Trust boundaries"): the container starts as root with only
CAP_SETUID and CAP_SETGID, and before reading anything the runner becomes real uid JUDGE, effective
uid PROGRAM (SANDBOX_IDS="PROGRAM:GID:JUDGE", set by sandbox/pool.py), which leaves it no
capability at all. Every process it starts drops to PROGRAM for all three uids, except a judge
(harness/judge.py, started as a fork of the runner: fork_judge), which keeps real and saved uid JUDGE: the kernel lets a process signal,
prlimit or ptrace another only when its uids match the other's real or saved uid, so a program can
reach neither the judge nor this runner, while both can still kill every process of the program
(kill(-1)) and own its files (effective uid PROGRAM).

Protocol (host <-> runner over the container's attached stdin/stdout): every message is one JSON
header line, followed by the raw bytes of the blobs the header names in "blobs" ([name, length]
pairs, in order). Raw blobs avoid base64 for multi-megabyte outputs. Requests:

    {"op": "ping"}
    {"op": "files", "dir": NAME, "files": [[RELPATH, MODE]...], "pycheck": RELPATH, "blobs": [...]}
        create /work/NAME (must not exist) and write the files (O_NOFOLLOW, O_EXCL). pycheck
        (optional): then check that Python file's syntax (pycheck) and answer it as "pycheck":
        {"ok", "error_text"} in the same reply, one round trip fewer per job.
    {"op": "exec", "argv": [...], "cwd": NAME, "cpu_s": F, "wall_s": F, "stdout_max": N,
     "stderr_max": N, "fsize_max": N, "env": {...}, "fd3": bool, "fd3_max": N, "rm_cwd": bool, "scrub": bool,
     "put": [RELPATH...], "fresh": [RELPATH...], "collect": [RELPATH, N], "judge": bool, "warm": bool,
     "warm_program": bool, "blobs": [["stdin", N], ["exe", N], ["put:RELPATH", N]...]}
        run one process in its own session; drain stdout/stderr while it runs; stop it on CPU time
        (cgroup accounting, all its processes), wall time, or stdout over its cap (stderr is read
        to the end but only its head and tail, stderr_max bytes in all, are kept: never a stop);
        then kill every process but this one. Reply with measured facts; the host decides verdicts.
        put: write these files into cwd first (a test's input file); fresh: remove these first (an
        output file must be written by this run); collect: after the run, return this file of
        cwd (at most N+1 bytes, a regular file only); exe: run this binary (a compiled checker)
        from memory, as argv[0]: it needs no exec-mounted dir and nothing on disk can replace it.
        judge: the process is harness/judge.py and keeps the judge's uid (see above).
        warm: a `python3 -I NAME.py` program or the judge starts as a fork of the warm interpreter
        (harness/zygote.py; docs/sandboxes.md, "The warm interpreter") instead of an exec, where there is one.
        warm_program: a warm judge's program processes are forked from the warm interpreter too, on
        the judge's request through its keeper socket (keep_program; harness/judge.py start_program).
    {"op": "reset"}
        kill everything, wipe /work /tmp /dev/shm /dev/mqueue, remove SysV IPC objects, and report
        whether the container is clean (PID 1's limits included; no socket left bound, no kind of
        object it cannot list: docs/sandboxes.md "What a job leaves behind"). The stash stays.
    {"op": "stash", "drop": [SHA256...], "blobs": [[SHA256, N]...]}
        keep these blobs of a task's test set (inputs, a checker's answers, support files, the
        compiled checker) in this process's memory, under their sha256, for later requests of
        this container (docs/sandboxes.md "Test sets kept in the container"); forget `drop` first.
    Any request may carry "refs": {BLOBNAME: SHA256}: that blob is the stash's, not sent again.
    The stash lives in PID 1's memory, which no program can read or write (the uids and the
    non-dumpable mark above): every file a program or checker sees is still written per run.

The runner never judges output. It holds expected answers only for a special checker (its
answer file, written for the checker once the program is dead): the others stay on the host.
"""
from __future__ import annotations

import ctypes
import errno
import fcntl
import json
import math
import os
import resource
import select
import selectors
import signal
import socket
import stat
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # -I leaves our own (read-only) dir out
import confine  # noqa: E402 - the one-uid mode's confinement of programs (harness/confine.py)

sys.path.pop(0)

WORK = "/work"
IDS_ENV = "SANDBOX_IDS"  # "PROGRAM_UID:GID:JUDGE_UID" (sandbox/pool.py)
WARM_ENV = "SANDBOX_WARM"  # "1": start the warm interpreter (Warm; sandbox/backend.py sandbox_env)
WIPE_DIRS = ("/work", "/tmp", "/dev/shm", "/dev/mqueue")
CHUNK = 1 << 20
F_SETPIPE_SZ = 1031
POLL_S = 0.01
HANDLED_SIGNALS = (signal.SIGINT, signal.SIGPIPE)  # every signal Python would handle or we ignore
EXIT_GRACE_S = 0.05  # after the main process exits, how long background holders of its pipes may write

BASE_ENV = {
    "PATH": "/usr/local/bin:/usr/bin:/bin",
    "HOME": "/tmp",
    "LANG": "C.UTF-8",
    "TMPDIR": "/tmp",
    "OMP_NUM_THREADS": "1",
    "OPENBLAS_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
    "NUMEXPR_NUM_THREADS": "1",
    "PYTHONDONTWRITEBYTECODE": "1",
}


# ----------------------------------------------------------------------------- cgroup accounting
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
        return ru.ru_utime + ru.ru_stime + ticks / CLK_TCK

    def used(self) -> float:
        total = self._read() - self.sum0
        ledger = sum(t - self.base.get(k, 0) for k, t in self.seen.items()) / CLK_TCK
        return min(max(0.0, total, ledger), CPUS * (time.monotonic() - self.t0))


# ----------------------------------------------------------------------------- process control
def kill_all_others() -> bool:
    """SIGKILL every process but this one (and the warm interpreter's two: Warm.spared), reap them;
    True when none is left (bounded wait)."""
    if os.getpid() != 1:  # kill(-1) outside a container's PID namespace reaches every process of the uid
        raise RuntimeError("the runner kills every other process: it only runs as a container's PID 1")
    spared = WARM.spared() | CHECKER.spared()
    if spared:
        return kill_sparing(spared)
    try:
        os.kill(-1, signal.SIGKILL)
    except ProcessLookupError:
        pass
    deadline = time.monotonic() + 2.0
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return True
        if pid == 0:
            if time.monotonic() > deadline:
                return False
            time.sleep(0.002)
            try:
                os.kill(-1, signal.SIGKILL)
            except ProcessLookupError:
                pass


def kill_sparing(spared: set[int]) -> bool:
    """kill_all_others with the warm interpreter alive: kill(-1) with our real uid set to the
    program's reaches exactly the processes whose real or saved uid is the program's (kill(2)),
    not the mother and the zygote (real and saved uid the judge's); a judge, and anything else
    /proc shows, is then killed by pid. Repeated until /proc shows only the spared."""
    deadline = time.monotonic() + 2.0
    judge_uid = os.getuid()
    while True:
        if not confine.ON[0]:  # with one uid (confine.py) kill(-1) would end the spared too: by pid alone
            os.setresuid(os.geteuid(), -1, -1)
            try:
                os.kill(-1, signal.SIGKILL)
            except ProcessLookupError:
                pass
            finally:
                os.setresuid(judge_uid, -1, -1)
        left = [p for p in other_pids() if p not in spared]
        for pid in left:
            kill_quietly(pid)
        reap_children(spared)
        if not left:
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.001)


def reap_children(spared: set[int]) -> None:
    """Wait for every dead child of ours (the mother is one: never waited for while alive)."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        if pid in spared:
            WARM.lost(pid)
            CHECKER.lost(pid)


def other_pids() -> list[int]:
    me = os.getpid()
    return [int(p) for p in os.listdir("/proc") if p.isdigit() and int(p) != me]


IOPRIO_GET = {"x86_64": 252, "aarch64": 31}.get(os.uname().machine)  # ioprio_get(2) syscall number
RSS_GROWTH_MAX_KB = 64 << 10  # the runner grew this much since it started: recycle (a later job's memory)


def io_priority() -> int:
    """PID 1's I/O priority (ioprio_get(IOPRIO_WHO_PROCESS, 0)); -1 where it cannot be read."""
    if IOPRIO_GET is None:
        return -1
    try:
        return ctypes.CDLL(None, use_errno=True).syscall(IOPRIO_GET, 1, 0)
    except (OSError, AttributeError):
        return -1


def rss_kb() -> int:
    """The runner's resident memory now (VmRSS), in KiB."""
    with open("/proc/self/status", "rb") as f:
        for line in f:
            if line.startswith(b"VmRSS:"):
                return int(line.split()[1])
    return 0


def supervisor_state() -> tuple:
    """PID 1's own rlimits, CPU affinity, nice value, scheduling policy and I/O priority. The program
    runs as our effective uid, so sched_setaffinity(2), setpriority(2) and sched_setscheduler(2) let
    it lower them (not raise them back; prlimit(2) and ioprio_set(2) need our real uid too, and are
    watched all the same), and every later process would inherit them: a changed state means the
    container must be recycled. Affinity, nice value and policy are each thread's: the distinct
    states of every thread of PID 1 (a session's idle watch is one: red team of issue 22)."""
    names = sorted(n for n in dir(resource) if n.startswith("RLIMIT_"))
    return (tuple(resource.getrlimit(getattr(resource, n)) for n in names), thread_states(), io_priority())


def thread_states() -> frozenset:
    """The distinct (affinity, nice, policy, priority) of this process's threads; a thread that
    ended meanwhile is skipped."""
    states = set()
    for name in os.listdir("/proc/self/task"):
        tid = int(name)
        try:
            states.add((tuple(sorted(os.sched_getaffinity(tid))), os.getpriority(os.PRIO_PROCESS, tid),
                        os.sched_getscheduler(tid), os.sched_getparam(tid).sched_priority))
        except ProcessLookupError:
            continue
    return frozenset(states)


START_STATE: tuple = ()
START_RSS_KB = 0


def tampered(mother: bool = True) -> bool:
    """PID 1's state changed, or the warm interpreter's mother's (Warm.check): recycle. mother=False
    right after WARM.check(), which has just compared the mother with no other process left alive
    (a change there ends the warm path and makes the reset unclean): reading it twice cost a /proc
    read per exec and per reset (docs/benchmarks.md "Where a trivial /run_code request's time goes")."""
    try:
        return supervisor_state() != START_STATE or (mother and WARM.mother_pid != 0 and WARM.mother_tampered())
    except Exception:  # cannot even read it (e.g. no memory left under a lowered RLIMIT_AS)
        return True


def grown() -> bool:
    """The runner holds much more memory than at start, beyond its stash (which the host counts in
    each step's limit): it counts in every later job's limit."""
    try:
        return rss_kb() - START_RSS_KB - (stash_bytes() >> 10) > RSS_GROWTH_MAX_KB
    except (OSError, ValueError):
        return True


def restore_modes(cwd: str) -> None:
    """Give /work and the job dir back their mode (the program may have chmod-ed them; we own
    them): its next test or the checker then starts, and only its own output judges it."""
    for d in (WORK, cwd):
        try:
            os.chmod(d, 0o700, follow_symlinks=False)
        except (OSError, NotImplementedError):  # a link in its place: Linux cannot chmod one (Python raises
            pass                                # NotImplementedError), and what it points to is the program's


APART = False  # the runner holds two uids (drop_privileges): judges are out of the program's reach


def drop_privileges() -> bool:
    """Started as root (sandbox/pool.py): become real uid JUDGE, effective uid PROGRAM, with no
    capability left; True when done. Started as anyone else: nothing to do (False: every process
    then shares one uid, as in a container not started by our pool). Root without SANDBOX_IDS, or a
    drop that leaves any uid 0, never serves: SystemExit."""
    if os.getuid() != 0:
        return os.getuid() != os.geteuid()
    try:
        prog, gid, judge = (int(x) for x in os.environ.get(IDS_ENV, "").split(":"))
    except ValueError:
        raise SystemExit(f"runner started as root without {IDS_ENV}=PROGRAM_UID:GID:JUDGE_UID") from None
    if 0 in (prog, gid, judge) or prog == judge:
        raise SystemExit(f"{IDS_ENV}: three non-root ids, the judge's not the program's")
    os.setgroups([])
    os.setresgid(gid, gid, gid)
    os.setresuid(judge, prog, judge)
    if 0 in os.getresuid() + os.getresgid() or cap_eff() != 0:
        raise SystemExit("the runner kept root or a capability")
    return True


def cap_eff() -> int:
    """This process's effective capabilities (/proc/self/status)."""
    with open("/proc/self/status", "rb") as f:
        for line in f:
            if line.startswith(b"CapEff:"):
                return int(line.split()[1], 16)
    return -1


def cpu_hard_s(cpu_s: float) -> int:
    """The RLIMIT_CPU soft limit for a run of cpu_s: a kernel-side backstop one second past it."""
    return int(math.ceil(cpu_s)) + 1


def apply_limits(all_uids: bool, cpu_hard: int | None, fsize: int) -> None:
    """In a child about to become a program or a judge, exec'd (_limits) or forked from the warm
    interpreter (harness/zygote.py become), or a session's interpreter (harness/session_box.py):
    the one home of its limits. Every uid the program's when all_uids (a judge keeps its real and
    saved uid: module docstring), CPU rlimit as a kernel-side backstop (none for a session's
    interpreter, which runs many cells: its supervisor clocks each), no core dumps, files at most
    fsize, OOM victim first, the signals PID 1 ignores back to their default."""
    if all_uids:
        uid = os.geteuid()
        os.setresuid(uid, uid, uid)
    if cpu_hard is not None:
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_hard, cpu_hard + 1))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
    try:
        with open("/proc/self/oom_score_adj", "w") as f:
            f.write("1000")
    except OSError:
        pass
    for sig in HANDLED_SIGNALS:  # ignored by PID 1, default for the program
        signal.signal(sig, signal.SIG_DFL)
    if all_uids and confine.ON[0]:  # one uid for all: the program's own domain and filter (harness/confine.py)
        confine.confine()


def _limits(cpu_s: float, fsize: int, judge: bool = False):
    """preexec_fn of an exec'd run: apply_limits."""
    hard_cpu = cpu_hard_s(cpu_s)
    return lambda: apply_limits(APART and not judge, hard_cpu, fsize)


def run_exec(req: dict, blobs: dict[str, bytes]) -> tuple[dict, dict[str, bytes]]:  # noqa: C901 - one run's pids, fds and clocks stay local to one frame of PID 1
    """Run one process to completion under its limits; return facts and captured output."""
    stdin = blobs.get("stdin", b"")
    cpu_limit = float(req["cpu_s"])
    wall_limit = float(req["wall_s"])
    caps = {"stdout": int(req["stdout_max"]),
            "fd3": int(req.get("fd3_max") or 4096)}  # the judge's result lines (one per test)
    err_half = max(0, int(req["stderr_max"])) // 2
    env = dict(BASE_ENV)
    env.update(req.get("env") or {})
    cwd = os.path.join(WORK, req["cwd"]) if req.get("cwd") else WORK
    argv = list(req["argv"])
    restore_modes(cwd)
    if req.get("scrub"):  # a checker: what the program left in the shared dirs must not change how it runs
        scrub()
    try:
        prepare_files(cwd, req, blobs)
    except OSError as e:  # the program filled /work or left something in the way: the host decides
        return {"put_error": f"{type(e).__name__}: {e}"[:300]}, {}
    fd3_r = fd3_w = exe_fd = -1
    pass_fds: tuple[int, ...] = ()
    if req.get("fd3"):
        fd3_r, fd3_w = channel()
        pass_fds = (fd3_w,)
        env["RESULT_FD"] = str(fd3_w)
    if "exe" in blobs:
        exe_fd = memfd_with(blobs["exe"])
        pass_fds += (exe_fd,)
        argv[0] = f"/proc/self/fd/{exe_fd}"

    kind = warm_kind(argv, req.get("judge") is True) if req.get("warm") is True else None
    if kind and not WARM.wait_ready():  # before the CPU clock starts: its imports are not the program's
        kind = None
    keeper = None  # a warm judge asks here for its program processes (keep_program)
    kept: list[int] = []  # their pids
    prog_env = {k: v for k, v in env.items() if k not in ("RESULT_FD", KEEPER_ENV)}
    if kind == "judge" and req.get("warm_program") is True:  # its program forked as a stdin program would be
        keeper, keeper_judge = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        pass_fds += (keeper_judge.fileno(),)
        env[KEEPER_ENV] = str(keeper_judge.fileno())
    oom0 = oom_kills()
    cg0, me0 = cgroup_cpu_s(), self_cpu_s()
    tasks = TaskClock(WARM.spared() | CHECKER.spared()) if cg0 is None else None
    t0 = time.monotonic()
    limits = _limits(cpu_limit, int(req.get("fsize_max", 64 << 20)), req.get("judge") is True)
    fsize = int(req.get("fsize_max", 64 << 20))
    proc = None
    if kind:
        try:
            proc = fork_warm(kind, argv, cwd, env, pass_fds, cpu_limit, fsize)
        except OSError:  # the zygote failed (it is replaced): this run starts as ever
            proc = None
    try:
        if proc is not None:
            pass
        elif req.get("judge") is True and APART:
            proc = fork_judge(argv, cwd, env, pass_fds, limits)
        else:
            proc = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                cwd=cwd, env=env, start_new_session=True, pass_fds=pass_fds, close_fds=True, preexec_fn=limits)
    except (OSError, ValueError) as e:
        for fd in (fd3_r, fd3_w, exe_fd):
            if fd >= 0:
                os.close(fd)
        if keeper is not None:
            keeper.close()
            keeper_judge.close()
        return {"spawn_error": f"{type(e).__name__}: {e}"[:300]}, {}
    for fd in (fd3_w, exe_fd):
        if fd >= 0:
            os.close(fd)
    if keeper is not None:
        keeper_judge.close()
    proc_warm = getattr(proc, "warm", False)

    for f in (proc.stdout, proc.stderr):  # 1 MiB pipes: fewer wake-ups for both sides when a program prints a lot
        try:
            fcntl.fcntl(f.fileno(), F_SETPIPE_SZ, 1 << 20)
        except OSError:
            pass  # a judge's socket (channel()): its buffer is the kernel's default
    out = {"stdout": bytearray(), "stderr": bytearray(), "fd3": bytearray()}
    err_tail = b""  # the last err_half bytes of stderr beyond its head
    sizes = {"stdout": 0, "stderr": 0, "fd3": 0}
    sel = selectors.DefaultSelector()
    for name, f in (("stdout", proc.stdout), ("stderr", proc.stderr)):
        os.set_blocking(f.fileno(), False)
        sel.register(f.fileno(), selectors.EVENT_READ, name)
    if fd3_r >= 0:
        os.set_blocking(fd3_r, False)
        sel.register(fd3_r, selectors.EVENT_READ, "fd3")
    if keeper is not None:
        sel.register(keeper.fileno(), selectors.EVENT_READ, "keeper")
    stdin_fd = proc.stdin.fileno()
    os.set_blocking(stdin_fd, False)
    stdin_pos = 0
    if stdin:
        sel.register(stdin_fd, selectors.EVENT_WRITE, "stdin")
    else:
        proc.stdin.close()

    try:  # readable when the process exits: no polling delay between its exit and our reply
        pidfd = os.pidfd_open(proc.pid)
        sel.register(pidfd, selectors.EVENT_READ, "exit")
    except (OSError, AttributeError):
        pidfd = -1
    stop_reason = None  # "cpu" | "wall" | "stdout" | "fd3"
    next_check = 0.0  # the CPU clock is read at most every POLL_S: a flood of reads must not pay for it each time
    status = None
    rusage = None
    exited_at = None

    def cpu_used() -> float:
        """The sandbox's CPU since the run began less this runner's: the cgroup's clock, or where
        there is none (gVisor) every task's (TaskClock: never only the waited process's, which
        left out orphans)."""
        cg = cgroup_cpu_s()
        if cg is not None and cg0 is not None:
            return max(0.0, (cg - cg0) - (self_cpu_s() - me0))
        return tasks.used() if tasks is not None else 0.0

    while True:
        now = time.monotonic()
        if status is None:
            pid, st, ru = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                status, rusage, exited_at = st, ru, now
        if status is not None and (len(sel.get_map()) == 0 or now - exited_at > EXIT_GRACE_S):
            break
        if stop_reason is None and now >= next_check:
            next_check = now + POLL_S
            if now - t0 > wall_limit:
                stop_reason = "wall"
            elif cpu_used() > cpu_limit:
                stop_reason = "cpu"
            if stop_reason:
                _kill_group(proc.pid)
        if stop_reason and status is None and now - t0 > wall_limit + 2.0:
            break  # main process did not die: give up on it, kill_all_others below
        for key, _ in sel.select(POLL_S):
            name = key.data
            if name == "exit":
                sel.unregister(pidfd)
                continue
            if name == "keeper":
                if not keep_program(keeper, kept, cwd, prog_env, cpu_limit, fsize):
                    sel.unregister(key.fd)
                continue
            if name == "stdin":
                try:
                    n = os.write(stdin_fd, stdin[stdin_pos:stdin_pos + CHUNK])
                    stdin_pos += n
                except BlockingIOError:
                    continue
                except OSError:  # program closed its stdin: not our problem
                    stdin_pos = len(stdin)
                if stdin_pos >= len(stdin):
                    sel.unregister(stdin_fd)
                    proc.stdin.close()
                continue
            try:
                data = os.read(key.fd, CHUNK)
            except BlockingIOError:
                continue
            except OSError:
                data = b""
            if not data:
                sel.unregister(key.fd)
                continue
            sizes[name] += len(data)
            if name == "stderr":  # drained to the end, never a stop: keep its head and its tail
                keep = err_half - len(out["stderr"])
                if keep > 0:
                    out["stderr"] += data[:keep]
                    data = data[keep:]
                if data and err_half:  # copy at most err_half bytes per read, however big the read
                    err_tail = data[-err_half:] if len(data) >= err_half else (err_tail + data)[-err_half:]
                continue
            cap = caps[name]
            keep = cap - len(out[name])
            if keep > 0:
                out[name] += data[:keep]
            if sizes[name] > cap and stop_reason is None:
                stop_reason = name
                _kill_group(proc.pid)
    wall = time.monotonic() - t0
    cpu = cpu_used()  # before the kill: what the program's processes left running used counts
    clean = kill_all_others()
    WARM.check()  # after every run, forked or not: an exec'd program shares the warm processes' effective uid too
    collected = collect_file(cwd, req["collect"]) if req.get("collect") else None
    if req.get("rm_cwd") and req.get("cwd"):  # a checker's dir: its answer must not reach later tests
        clean = remove_dir(cwd) and clean
    if status is None:
        try:
            _, status, rusage = os.wait4(proc.pid, os.WNOHANG) or (0, None, None)
        except ChildProcessError:
            status = None
    proc.returncode = 0  # we reaped it ourselves; keep Popen from trying again
    for f in (proc.stdin, proc.stdout, proc.stderr):
        try:
            f.close()
        except OSError:
            pass
    sel.close()
    if pidfd >= 0:
        os.close(pidfd)
    if fd3_r >= 0:
        os.close(fd3_r)
    if keeper is not None:
        keeper.close()

    exit_code = signo = None
    if status is not None:
        if os.WIFEXITED(status):
            exit_code = os.WEXITSTATUS(status)
        elif os.WIFSIGNALED(status):
            signo = os.WTERMSIG(status)
    head = {
        "exit_code": exit_code, "signal": signo, "cpu_s": round(cpu, 4), "wall_s": round(wall, 4),
        "stop": stop_reason, "oom": oom_kills() > oom0, "clean": clean, "tampered": tampered(mother=False),
        "stdout_bytes": sizes["stdout"], "stderr_bytes": sizes["stderr"],
        "maxrss_kb": getattr(rusage, "ru_maxrss", None), "warm": proc_warm,
    }
    dropped = sizes["stderr"] - len(out["stderr"]) - len(err_tail)
    gap = f"\n[... {dropped} bytes of stderr not kept ...]\n".encode() if dropped > 0 else b""
    blobs = {"stdout": bytes(out["stdout"]), "stderr": bytes(out["stderr"]) + gap + err_tail,
             "fd3": bytes(out["fd3"])}
    if collected is not None:
        head["collected"], blobs["collected"] = collected
    return head, blobs


HARNESS_DIR = os.path.dirname(os.path.abspath(__file__))  # the runner's own: every container-side program
WARM_FORKS_MAX = 500  # forks of one zygote before it is replaced (docs/sandboxes.md, "The warm interpreter")
WARM_RSS_GROWTH_KB = 16 << 10  # a zygote grown this much since it was ready is replaced
KEEPER_ENV = "KEEPER_FD"  # a warm judge's socket to keep_program (harness/judge.py start_program)
KEEPER_FDS = 5  # stdin, stdout, stderr and the two channel ends of a program process
WARM_WAIT_S = 20.0  # how long a zygote may take to import WARM (a loaded machine)
WARM_END_WAIT_S = 1.0  # how long a replaced zygote may take to die before the next starts (Warm.drop)


def _recv_json(sock: socket.socket, timeout: float) -> dict:
    sock.settimeout(timeout)
    data = sock.recv(1 << 16)
    if not data:
        raise OSError("the warm interpreter is gone")
    return json.loads(data)


def proc_state(pid: int) -> tuple:
    """What a program could change of a process it shares an effective uid with (sched_setaffinity,
    setpriority, sched_setscheduler: supervisor_state) and what says it is intact: uids, gids,
    tracer, seccomp, no_new_privs, limits."""
    keep = (b"Uid:", b"Gid:", b"TracerPid:", b"NoNewPrivs:", b"Seccomp:", b"Cpus_allowed_list:")
    with open(f"/proc/{pid}/status", "rb") as f:
        status = tuple(line for line in f if line.startswith(keep))
    with open(f"/proc/{pid}/stat", "rb") as f:
        fields = f.read().rpartition(b")")[2].split()
    try:  # a program cannot prlimit() them (it needs all their uids), so this is defense in depth
        with open(f"/proc/{pid}/limits", "rb") as f:
            limits = f.read()
    except FileNotFoundError:  # gVisor has no /proc/PID/limits
        limits = b""
    ioprio = -1
    if IOPRIO_GET is not None:
        try:
            ioprio = ctypes.CDLL(None, use_errno=True).syscall(IOPRIO_GET, 1, pid)
        except (OSError, AttributeError):
            pass
    # Asked of the kernel too, not only read from /proc: gVisor's status has no Cpus_allowed_list
    # and its stat no policy, so a CPU set a program pinned there went unseen and every later fork
    # inherited it (red-team finding: tests/test_sandbox_warm_attacks.py)
    return status, fields[15:17] + fields[37:39], limits, ioprio, sched_state(pid)  # priority, nice, rt_priority, policy


def sched_state(pid: int) -> tuple:
    """A process's CPU set, scheduling policy and priority, asked of the kernel (gVisor's /proc
    shows none of them)."""
    try:
        return tuple(sorted(os.sched_getaffinity(pid))), os.sched_getscheduler(pid), os.getpriority(os.PRIO_PROCESS, pid)
    except OSError:
        return ()


def proc_rss_kb(pid: int) -> int:
    with open(f"/proc/{pid}/status", "rb") as f:
        for line in f:
            if line.startswith(b"VmRSS:"):
                return int(line.split()[1])
    return 0


class Warm:
    """The runner's side of the warm interpreter (harness/zygote.py): the mother, forked at start
    before any request, and the current zygote, each checked after every job and the zygote
    replaced when a check fails or after WARM_FORKS_MAX forks. Absent (every run an exec) where
    the runner holds one uid (a program could then signal them) or the image has no harness."""

    def __init__(self) -> None:
        self.mother: socket.socket | None = None
        self.mother_pid = 0
        self.mother_state: tuple = ()
        self.sock: socket.socket | None = None
        self.pid = 0
        self.ready = False
        self.rss_kb = 0
        self.forks = 0
        self.replaced = 0
        self.error = ""  # why there is none, if it failed to start
        self.broken = False  # the mother died or changed: the container is recycled at its reset

    def spared(self) -> set[int]:
        return {p for p in (self.mother_pid, self.pid) if p}

    def start(self) -> None:
        """Fork the mother (nothing read yet: it holds no request's data) and ask for a zygote."""
        a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        pid = os.fork()
        if pid == 0:
            run = None
            try:
                a.close()
                keep = b.fileno()
                os.closerange(3, keep)
                os.closerange(keep + 1, resource.getrlimit(resource.RLIMIT_NOFILE)[0])
                sys.path.insert(0, HARNESS_DIR)
                import zygote
                sys.path.remove(HARNESS_DIR)
                run = zygote.mother(b)
            except BaseException:  # noqa: BLE001 - never back into the runner's loop
                os._exit(1)
            run()  # a forked program or judge: ends the interpreter (SystemExit)
            os._exit(1)
        b.close()
        self.mother, self.mother_pid = a, pid
        self.mother_state = proc_state(pid)
        self.spawn()

    def spawn(self) -> None:
        """A fresh zygote from the mother; it imports while we go on (wait_ready before a run)."""
        self.drop()
        if self.mother is None:
            return
        a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            socket.send_fds(self.mother, [b"spawn"], [b.fileno()])
            reply = _recv_json(self.mother, 5.0)
            self.sock, self.pid, self.ready, self.forks = a, int(reply["pid"]), False, 0
        except (OSError, ValueError, KeyError):
            a.close()
            self.lose_mother()
        finally:
            b.close()

    def wait_ready(self) -> bool:
        """True when a zygote is ready for a fork (its imports done before any run's CPU clock starts)."""
        if self.sock is None or not self.pid:
            return False
        if self.ready:
            return True
        try:
            if _recv_json(self.sock, WARM_WAIT_S).get("ready") is not True:
                raise OSError("not ready")
            if proc_state(self.pid) != self.mother_state:  # changed while it imported
                raise OSError("the zygote changed")
            self.rss_kb, self.ready = proc_rss_kb(self.pid), True
        except (OSError, ValueError):
            self.drop()
        return self.ready

    def fork(self, kind: str, argv: list[str], cwd: str, env: dict, fds: list[int], pass_fds: tuple[int, ...],
             cpu_s: float, fsize: int) -> int:
        """A forked process (kind: program or judge), PID 1's child; its pid. OSError when the zygote
        failed (it is then replaced; the caller execs instead)."""
        job = {"kind": kind, "argv": argv, "cwd": cwd, "env": env, "pass": list(pass_fds), "apart": APART,
               "cpu_hard": cpu_hard_s(cpu_s), "fsize": fsize}
        try:
            socket.send_fds(self.sock, [json.dumps(job).encode()], list(fds) + list(pass_fds))
            reply = _recv_json(self.sock, 5.0)
            self.forks += 1
            return int(reply["pid"])
        except (OSError, ValueError, KeyError, TypeError) as e:
            self.spawn()
            raise OSError(f"warm fork failed: {e}") from None

    def check(self) -> None:
        """After a job: a zygote that changed (uids, limits, affinity, priority, a tracer, grown) or
        served WARM_FORKS_MAX forks is replaced; a changed mother ends the warm path (tampered)."""
        if self.mother_pid and self.mother_tampered():
            self.lose_mother()
            return
        if not self.pid:
            return
        try:  # compared with the mother's at start, never with the zygote's own when first used: a
            # program run before that (an exec'd one) could have changed it first (red-team finding)
            bad = (proc_state(self.pid) != self.mother_state or self.forks >= WARM_FORKS_MAX
                   or (self.ready and proc_rss_kb(self.pid) - self.rss_kb > WARM_RSS_GROWTH_KB))
        except (OSError, ValueError, IndexError):
            bad = True
        if bad:
            self.replaced += 1
            self.spawn()

    def mother_tampered(self) -> bool:
        try:
            return proc_state(self.mother_pid) != self.mother_state
        except (OSError, ValueError, IndexError):
            return True

    def drop(self) -> None:
        """End the zygote and reap it (our child, as the mother orphans it), waiting at most
        WARM_END_WAIT_S: a killed process dies when it is next scheduled, and one a program set to
        nice 19 or SCHED_IDLE lingered on a loaded host while the next zygote imported, into the
        next job (its memory counted against that job's limit; red team: the warm attack tests
        flaked at load 8). Not ours (a test's runner that is not PID 1): kill_sparing's turn."""
        if self.sock is not None:
            self.sock.close()
        if self.pid:
            kill_quietly(self.pid)
            deadline = time.monotonic() + WARM_END_WAIT_S
            try:
                while not os.waitpid(self.pid, os.WNOHANG)[0] and time.monotonic() < deadline:
                    time.sleep(0.0005)
            except ChildProcessError:
                pass
        self.sock, self.pid, self.ready = None, 0, False

    def lose_mother(self) -> None:
        self.broken = self.broken or self.mother_pid != 0
        self.drop()
        if self.mother is not None:
            self.mother.close()
        if self.mother_pid:
            kill_quietly(self.mother_pid)
        self.mother, self.mother_pid, self.mother_state = None, 0, ()

    def lost(self, pid: int) -> None:
        """A spared process died (reaped by the runner: the mother): the container is recycled at its
        reset, as when it changed (red-team finding: a fork bomb under gVisor got the mother OOM-killed,
        and the container served on with no warm interpreter, every later run an exec)."""
        if pid == self.mother_pid:
            self.mother_pid, self.broken = 0, True  # not killed again: its pid may be reused
            self.lose_mother()

    def info(self) -> dict:
        return {"warm": bool(self.mother_pid), "warm_pid": self.pid, "warm_mother": self.mother_pid, "warm_forks": self.forks,
                "warm_replaced": self.replaced, "warm_error": self.error}


WARM = Warm()


def warm_kind(argv: list[str], judge: bool) -> str | None:
    """"program" for `python3 -I NAME.py` (NAME in the job dir), "judge" for harness/judge.py
    [KIND]; None for anything else (an exec, as ever)."""
    if argv[:2] != ["python3", "-I"] or len(argv) < 3:
        return None
    if judge:
        return "judge" if argv[2] == os.path.join(HARNESS_DIR, "judge.py") and len(argv) <= 4 else None
    name = argv[2]
    ok = len(argv) == 3 and name.endswith(".py") and "/" not in name and not name.startswith("-")
    return "program" if ok else None


def fork_warm(kind: str, argv: list[str], cwd: str, env: dict, pass_fds: tuple[int, ...], cpu_s: float,
              fsize: int) -> Forked:
    """Start the run as a fork of the zygote (harness/zygote.py): a program's std streams are pipes,
    as Popen gives it; a judge's are sockets, as fork_judge gives it (its stdin carries the tests)."""
    pipes = [channel() if kind == "judge" else os.pipe() for _ in range(3)]  # stdin, stdout, stderr
    theirs = [pipes[0][0], pipes[1][1], pipes[2][1]]
    try:
        pid = WARM.fork(kind, argv, cwd, env, theirs, pass_fds, cpu_s, fsize)
    except OSError:
        for r, w in pipes:
            os.close(r)
            os.close(w)
        raise
    for fd in theirs:
        os.close(fd)
    return Forked(pid, pipes[0][1], pipes[1][0], pipes[2][0], warm=True)


def keep_program(keeper: socket.socket, kept: list[int], cwd: str, env: dict, cpu_s: float, fsize: int) -> bool:
    """A warm judge's request for a program process (harness/judge.py start_program): its stdin,
    stdout, stderr and its two channel ends come as fds; fork serve.py's loop from the zygote, which
    never held a test (never from the judge, which holds them: docs/sandboxes.md, "The warm
    interpreter"), with the program's uid and limits as for a stdin program. Replies {"pid"} or
    {"error"} (the judge then starts a new interpreter). False when the judge closed its end.
    The earlier ones that ended are reaped first (the judge has waited for them: judge.py reap),
    so that a job's restarts leave no zombies to fill the container's pids limit."""
    for pid in list(kept):
        try:
            if os.waitpid(pid, os.WNOHANG)[0]:
                kept.remove(pid)
        except ChildProcessError:
            kept.remove(pid)
    try:
        msg, fds, _, _ = socket.recv_fds(keeper, 256, KEEPER_FDS + 1)
    except OSError:
        return False
    try:
        if not msg:
            return False
        if len(fds) != KEEPER_FDS or not WARM.ready:
            raise OSError("std streams and two channel ends" if WARM.ready else "no warm interpreter")
        ends = (fds[3], fds[4])  # their numbers in the forked process too (Warm.fork: pass)
        argv = ["python3", "-I", os.path.join(HARNESS_DIR, "serve.py"), str(ends[0]), str(ends[1])]
        reply = {"pid": WARM.fork("serve", argv, cwd, env, fds[:3], ends, cpu_s, fsize)}
        kept.append(reply["pid"])
    except OSError as e:
        reply = {"error": f"{e}"[:200]}
    finally:
        for fd in fds:
            os.close(fd)
    try:
        keeper.send(json.dumps(reply).encode())
    except OSError:
        return False
    return True


class Forked:
    """What run_exec uses of a Popen, for a judge started by fork_judge."""

    def __init__(self, pid: int, stdin: int, stdout: int, stderr: int, warm: bool = False) -> None:
        self.pid, self.returncode, self.warm = pid, None, warm
        self.stdin = os.fdopen(stdin, "wb", buffering=0)
        self.stdout = os.fdopen(stdout, "rb", buffering=0)
        self.stderr = os.fdopen(stderr, "rb", buffering=0)


KEEP_ALIVE: list = []  # this interpreter's own std streams in a forked judge: never finalized (they close fds 0-2)


def fork_judge(argv: list[str], cwd: str, env: dict, pass_fds: tuple[int, ...], limits) -> Forked:
    """Start harness/judge.py (argv: python3 -I JUDGE [ARGS]) in a fork of this interpreter, never
    through execve: an exec by a process whose real and effective uids differ, under
    no_new_privs, keeps both on Linux but sets the effective uid to the real one under gVisor
    (runsc), and the judge needs both (module docstring). Same interpreter flags (-I), its own
    session, limits, std streams, environment and argv; nothing of the runner's fds but pass_fds."""
    if argv[:2] != ["python3", "-I"] or len(argv) < 3 or not argv[2].endswith("/judge.py"):
        raise ValueError(f"not a judge: {argv[:3]!r}")
    pipes = [channel() for _ in range(3)]  # stdin, stdout, stderr: the tests and the nonce come on stdin
    pid = os.fork()
    if pid:
        for fd in (pipes[0][0], pipes[1][1], pipes[2][1]):
            os.close(fd)
        return Forked(pid, pipes[0][1], pipes[1][0], pipes[2][0])
    code = 1
    try:  # the child: never returns into the runner's loop
        for target, fd in ((0, pipes[0][0]), (1, pipes[1][1]), (2, pipes[2][1])):
            os.dup2(fd, target)
        last = 2
        for fd in sorted(pass_fds) + [resource.getrlimit(resource.RLIMIT_NOFILE)[0]]:
            os.closerange(last + 1, fd)
            last = fd
        os.chdir(cwd)
        os.setsid()
        limits()
        signal.signal(signal.SIGPIPE, signal.SIG_IGN)  # as a fresh interpreter has them: a write to a
        signal.signal(signal.SIGINT, signal.default_int_handler)  # dead program's pipe raises
        KEEP_ALIVE.extend((sys.stdin, sys.stdout, sys.stderr))
        sys.stdin = open(0, "r", closefd=False)  # noqa: SIM115 - for the process' life
        sys.stdout = open(1, "w", buffering=1, closefd=False)  # noqa: SIM115
        sys.stderr = open(2, "w", buffering=1, closefd=False)  # noqa: SIM115
        os.environ.clear()
        os.environ.update(env)
        sys.argv = argv[2:]
        import runpy
        runpy.run_path(argv[2], run_name="__main__")
        code = 0
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    except BaseException:  # noqa: BLE001 - the judge's failure, reported as a non-zero exit
        try:
            import traceback
            traceback.print_exc()
        except BaseException:  # noqa: BLE001
            pass
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code)


def channel() -> tuple[int, int]:
    """(read end, write end) of a connected AF_UNIX socket pair, used where os.pipe() would be for
    every channel the runner or a judge holds that the program must not use (docs/sandboxes.md "Sandbox
    backends"). gVisor ignores PR_SET_DUMPABLE in /proc and checks an open of /proc/<pid>/fd/N
    against a pipe's owner, the creator's effective uid, which is the program's here: a program
    could open a judge's pipes, read its nonce and forge its results. A socket cannot be reopened
    through /proc at all (ENXIO), on Linux and gVisor alike. Shut down one way each, as a pipe is."""
    r, w = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    r.shutdown(socket.SHUT_WR)
    w.shutdown(socket.SHUT_RD)
    return r.detach(), w.detach()


def memfd_with(data: bytes) -> int:
    """An anonymous in-memory file holding data, for exec through /proc/self/fd (not close-on-exec:
    the child needs it across fork; the parent closes its copy once the child started). Sealed
    once written: under gVisor a process of the program's uid could open it through /proc/<pid>/fd
    and rewrite the checker before it runs."""
    fd = os.memfd_create("exe", os.MFD_ALLOW_SEALING)
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]
    fcntl.fcntl(fd, fcntl.F_ADD_SEALS, fcntl.F_SEAL_SEAL | fcntl.F_SEAL_SHRINK | fcntl.F_SEAL_GROW | fcntl.F_SEAL_WRITE)
    return fd


def prepare_files(cwd: str, req: dict, blobs: dict[str, bytes]) -> None:
    """Before a run: remove the `fresh` names and write the `put` files into cwd, replacing
    whatever the program left under those names (a file, a link, a dir): never followed."""
    for rel in list(req.get("fresh") or ()) + list(req.get("put") or ()):
        path = os.path.join(cwd, _safe_name(rel))
        if os.path.isdir(path) and not os.path.islink(path):
            remove_dir(path)
        elif os.path.lexists(path):
            os.unlink(path)
    for rel in req.get("put") or ():
        fd = os.open(os.path.join(cwd, rel), os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o400)
        with os.fdopen(fd, "wb") as f:
            f.write(blobs.get("put:" + rel, b""))


def collect_file(cwd: str, spec: list) -> tuple[dict, bytes]:
    """A file the process left in cwd (a program's output file, a compiled checker): at most max+1
    bytes of a regular file, opened without following links or blocking on a FIFO. What is wrong
    with it is reported, not raised: it is the process's doing, for the host to judge."""
    rel, limit = _safe_name(spec[0]), int(spec[1])
    try:
        fd = os.open(os.path.join(cwd, rel), os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError as e:
        missing = e.errno == errno.ENOENT
        return {"exists": not missing, "error": "" if missing else f"{type(e).__name__}: {e}"[:200]}, b""
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return {"exists": True, "error": "not a regular file"}, b""
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, min(CHUNK, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        return {"exists": True, "error": "", "bytes": size}, b"".join(chunks)
    except OSError as e:
        return {"exists": True, "error": f"{type(e).__name__}: {e}"[:200]}, b""
    finally:
        os.close(fd)


def kill_quietly(pid: int) -> None:
    """SIGKILL pid (a group when negative); one already gone, or no longer ours to signal, is no error."""
    try:
        os.kill(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _kill_group(pid: int) -> None:
    for target in (-pid, pid):
        kill_quietly(target)


# ----------------------------------------------------------------------------- files and reset
def write_files(req: dict, blobs: dict[str, bytes]) -> dict:
    """Write job files into a fresh directory; never follow a link the program could have left."""
    d = os.path.join(WORK, _safe_name(req["dir"]))
    restore_modes(WORK)
    try:
        os.mkdir(d, 0o700)
        for rel, mode in req["files"]:
            name = _safe_name(rel)
            fd = os.open(os.path.join(d, name), os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, mode)
            with os.fdopen(fd, "wb") as f:
                f.write(blobs.get(rel, b""))
    except OSError as e:  # no space or inodes left: the host knows whether a program filled /work
        removed = remove_dir(d)  # a half-written checker dir holds answer.txt: never leave it
        if e.errno not in (errno.ENOSPC, errno.EDQUOT):
            raise
        return {"ok": False, "full": True, "removed": removed, "error": f"{type(e).__name__}: {e}"[:300]}
    if not req.get("pycheck"):
        return {"ok": True}
    try:
        check = pycheck({"dir": req["dir"], "file": req["pycheck"]})
    except Exception as e:  # noqa: BLE001 - ours (no fork, no file): the host raises InfraFailure
        check = {"error": f"{type(e).__name__}: {e}"[:300]}
    return {"ok": True, "pycheck": check}


def remove_dir(d: str) -> bool:
    """Delete d and everything in it; True when it is gone."""
    if not os.path.lexists(d):
        return True
    wipe(d)
    try:
        os.rmdir(d)
    except OSError:
        return not os.path.lexists(d)
    return True


def _safe_name(name: str) -> str:
    if not name or "/" in name or name in (".", "..") or "\0" in name:
        raise ValueError(f"bad file name {name!r}")
    return name


def wipe(path: str) -> None:
    """Delete everything under path, first making every directory writable (the program may
    have chmod-ed them; it runs as our effective uid, so we own them). Iterative, one directory at a time
    by chdir: a program's tree thousands of levels deep (one inode each) neither recurses past
    Python's limit (os.walk, shutil.rmtree: RecursionError, once infra_error) nor builds paths
    past PATH_MAX. Only ever called when no process of the program is left to move things."""
    names: list[str] = []  # the directories we are in below path
    stuck: set[tuple[int, int]] = set()  # directories that could not be emptied: never re-entered
    try:
        if not stat.S_ISDIR(os.lstat(path).st_mode):
            return
        try:
            os.chmod(path, 0o700, follow_symlinks=False)
        except (OSError, NotImplementedError):
            pass  # not ours (/tmp is root's, mode 1777): writable as it is
        os.chdir(path)
    except OSError:
        return  # the caller sees what is left
    try:
        while True:
            sub = _empty_files_find_dir(stuck)
            if sub is not None:
                try:
                    os.chmod(sub, 0o700, follow_symlinks=False)
                    os.chdir(sub)
                    names.append(sub)
                    continue
                except (OSError, NotImplementedError):
                    stuck.add(_dev_ino(sub))
                    continue
            if not names:
                return
            here = _dev_ino(".")
            os.chdir("..")
            try:
                os.rmdir(names.pop())
            except OSError:
                stuck.add(here)
    finally:
        os.chdir("/")


def _dev_ino(name: str) -> tuple[int, int]:
    try:
        st = os.lstat(name)
    except OSError:
        return -1, -1
    return st.st_dev, st.st_ino


def _empty_files_find_dir(stuck: set[tuple[int, int]]) -> str | None:
    """Unlink every non-directory in the current dir; return a subdirectory to descend into (None:
    none left but those already found stuck, or the dir cannot be read: the caller sees what is left)."""
    try:
        it = os.scandir(".")
    except OSError:
        return None
    with it:
        for e in it:
            try:
                if e.is_dir(follow_symlinks=False):
                    st = e.stat(follow_symlinks=False)
                    if (st.st_dev, st.st_ino) not in stuck:
                        return e.name
                else:
                    os.unlink(e.name)
            except OSError:
                pass
    return None


def sysv_ipc() -> list[tuple[str, int]]:
    """SysV shared memory, queues and semaphores of the container's IPC namespace: they outlive
    their processes, so a program could pass data or hold memory across jobs. Listed by
    /proc/sysvipc, or where there is none (gVisor: red team of issue 22) by the kernel's own
    index (SHM_INFO then SHM_STAT per slot, and the same for queues and semaphores)."""
    found = []
    for kind in ("shm", "msg", "sem"):
        try:
            with open(f"/proc/sysvipc/{kind}", "rb") as f:
                found += [(kind, int(line.split()[1])) for line in f.readlines()[1:] if line.strip()]
        except FileNotFoundError:
            found += sysv_by_index(kind)
        except (OSError, ValueError, IndexError):
            continue
    return found


# INFO and STAT commands of shmctl, msgctl and semctl, and which int of the INFO struct counts the
# objects in use (shm_info.used_ids, msginfo.msgpool, seminfo.semusz): linux/shm.h, msg.h, sem.h
SYSV_CMDS = {"shm": (14, 13, 0), "msg": (12, 11, 0), "sem": (19, 18, 7)}
SYSV_MAX_SLOTS = 1 << 15  # above any kernel's SHMMNI / MSGMNI / SEMMNI (32768)


def sysv_by_index(kind: str) -> list[tuple[str, int]]:
    """One kind's SysV objects, slot by slot up to the highest in use; one (kind, -1) per object in
    use that no slot named (gVisor's STAT does not name every one): the reset then cannot remove it
    and reports it, so the container is replaced rather than passing it on."""
    info, stat_cmd, count_at = SYSV_CMDS[kind]
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        buf = ctypes.create_string_buffer(512)  # larger than struct shm_info / msginfo / seminfo and the *_ds
        ctl = {"shm": lambda i, c: libc.shmctl(i, c, buf), "msg": lambda i, c: libc.msgctl(i, c, buf),
               "sem": lambda i, c: libc.semctl(i, 0, c, buf)}[kind]
        top = ctl(0, info)
        in_use = ctypes.c_int.from_buffer(buf, 4 * count_at).value if top >= 0 else 0
        ids = [i for i in (ctl(slot, stat_cmd) for slot in range(min(top + 1, SYSV_MAX_SLOTS))) if i >= 0]
        return [(kind, i) for i in ids] + [(kind, -1)] * max(0, in_use - len(ids))
    except (OSError, AttributeError, ValueError):
        return []


def remove_sysv_ipc() -> list[str]:
    """IPC_RMID every SysV object (all are ours: one uid); return those still there."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        rm = {"shm": lambda i: libc.shmctl(i, 0, None), "msg": lambda i: libc.msgctl(i, 0, None),
              "sem": lambda i: libc.semctl(i, 0, 0)}
        for kind, ident in sysv_ipc():
            if ident >= 0:
                rm[kind](ident)
    except (OSError, AttributeError):
        pass
    return [f"sysv {kind} {ident}" for kind, ident in sysv_ipc()]


def scrub() -> None:
    """Empty /tmp, /dev/shm and /dev/mqueue and remove SysV IPC objects (not /work: the job's files
    are there). Before a checker: a program could leave a directory where the checker writes a
    fixed /tmp path, failing it on its output and on the reference answer alike (infra_error)."""
    for d in WIPE_DIRS[1:]:
        if os.path.isdir(d):
            wipe(d)
    remove_sysv_ipc()


def clear_root_attrs(path: str) -> list[str]:
    """Remove the extended attributes (user.*, POSIX ACLs) of a wiped directory itself and set its
    times to now: they outlive its contents, and /work is the program's, so a job could leave data
    there for the next job or session (red-team finding: os.setxattr('/work', 'user.x', data)).
    Returns the attributes still there."""
    try:
        for name in os.listxattr(path, follow_symlinks=False):
            try:
                os.removexattr(path, name, follow_symlinks=False)
            except OSError:
                pass
        try:
            os.utime(path, follow_symlinks=False)
        except OSError:
            pass
        return [f"{path}: xattr {name}" for name in os.listxattr(path, follow_symlinks=False)]
    except OSError:  # no xattr support there: nothing could be left on it
        return []


NET_TABLES = ("unix", "tcp", "tcp6", "udp", "udp6", "raw", "raw6")  # /proc/net/*: what a socket bound


def bound_sockets() -> list[str]:
    """Sockets bound to a name or port (/proc/net of the sandbox's network namespace) once every
    process but ours is gone: a socket passed in flight to itself (SCM_RIGHTS, a cycle no process
    holds) outlives its job, and its abstract name or port, seen by the next job's bind, carries
    bits (issue 30: under runc and gVisor alike). None can be removed from here: the reset reports
    them and the box is replaced. The runner and its helpers bind nothing (socket pairs only)."""
    found = []
    for table in NET_TABLES:
        try:
            with open(f"/proc/net/{table}", "rb") as f:
                rows = f.read().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            cols = row.split()
            if table != "unix":
                found.append(f"{table} socket {cols[1].decode(errors='replace')}" if len(cols) > 1 else table)
            elif len(cols) >= 8:  # a unix socket with a name (a path, or @ and an abstract name)
                found.append(f"unix socket {cols[7].decode(errors='replace')[:40]}")
    return found


def unlisted_kinds() -> list[str]:
    """Kinds of kernel object a job could have made that this reset cannot list, so the box is
    replaced rather than reset (docs/sandboxes.md "What a job leaves behind")."""
    if os.path.ismount("/dev/mqueue") or MQ_DENIED[0]:
        return []
    return ["posix message queues: /dev/mqueue is no mount and mq_open is not denied"]


def reset() -> dict:
    clean = kill_all_others()
    leftovers = []
    for d in WIPE_DIRS:
        if not os.path.isdir(d):
            continue
        try:
            os.chmod(d, 0o1777 if d != WORK else 0o700)
        except OSError:
            pass
        wipe(d)
        leftovers += clear_root_attrs(d)
        try:
            leftovers += [os.path.join(d, e) for e in os.listdir(d)]
        except OSError as e:
            leftovers.append(f"{d}: {e}")
    leftovers += remove_sysv_ipc()
    leftovers += bound_sockets() + unlisted_kinds()
    WARM.check()
    CHECKER.check_state()
    spared = WARM.spared() | CHECKER.spared()
    procs = [p for p in other_pids() if p not in spared]
    bad, fat = tampered(mother=False), grown()
    stalled = INBOX.stalls > 0  # the channel met EAGAIN (Inbox): a fresh box rather than a rare state
    return {"ok": True, "clean": clean and not leftovers and not procs and not bad and not fat and not WARM.broken
            and not stalled, "leftovers": leftovers[:10], "procs": procs[:10], "tampered": bad, "grown": fat,
            "stalls": INBOX.stalls}


STASH: dict[str, bytes] = {}  # sha256 -> a blob of a task's test set (the "stash" op)
STASH_MAX = 256 << 20  # bytes: the host keeps less (sandbox/config.py call_cache_mb)


def stash_bytes() -> int:
    return sum(len(v) for v in STASH.values())


def stash(req: dict, blobs: dict[str, bytes]) -> dict:
    """Keep a test set's blobs for the container's later jobs. Only in a runner apart from the
    programs' uid: otherwise a program could read this process's memory (gVisor ignores the
    non-dumpable mark), and the host sends every blob with its run as before."""
    for d in req.get("drop") or ():
        STASH.pop(str(d), None)
    if not APART:
        return {"ok": False, "error": "not apart from the programs' uid: nothing kept"}
    if stash_bytes() + sum(len(v) for v in blobs.values()) > STASH_MAX:
        return {"ok": False, "error": f"over the stash's {STASH_MAX} bytes"}
    STASH.update(blobs)
    return {"ok": True, "bytes": stash_bytes()}


def with_refs(head: dict, blobs: dict[str, bytes]) -> dict[str, bytes]:
    """The request's blobs with those it names in "refs" taken from the stash (the same bytes
    objects: no copy). KeyError for one it does not hold: the host's view of it is wrong."""
    for name, d in (head.get("refs") or {}).items():
        blobs[name] = STASH[d]
    return blobs


SOURCE_MAX = 1 << 20  # bytes of a program the syntax check reads (the host bounds programs far below)
CHECKER_GROWTH_KB = 4 << 10  # the syntax checker grown this much by a parse is replaced after it: the
# container's memory limit counts it while the program runs
CHECK_DEPTH_SLACK = 20  # frames of recursion limit the check has beyond a fresh script's (_compile_check)
CHECKER_WAIT_S = 20.0  # a parse longer than this "did not finish": the program's compile_error


def pycheck(req: dict) -> dict:
    """Python syntax check (this interpreter is the one that runs the program), never in PID 1:
    what compile() allocates (~140 MB for 240 KB of source) must not stay here. In the syntax
    checker where there is one (Checker), else in a forked child."""
    path = os.path.join(WORK, _safe_name(req["dir"]), _safe_name(req["file"]))
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    try:
        answer = CHECKER.check(fd, req["file"])
        if answer is not None:
            return answer
        src = os.pread(fd, SOURCE_MAX, 0)
    finally:
        os.close(fd)
    return forked_check(src, req["file"])


def forked_check(src: bytes, name: str) -> dict:
    """The syntax check in a child forked for it (a fork of PID 1 per job: 2.8 ms of the
    container's CPU, docs/benchmarks.md): where there is no Checker."""
    r, w = channel()
    pid = os.fork()
    if pid == 0:  # child: answer on the pipe, then leave without running any cleanup of PID 1
        code = 0
        try:
            os.close(r)
            os.write(w, json.dumps(_compile_check(src, name)).encode())
        except BaseException:
            code = 1
        os._exit(code)
    os.close(w)
    with os.fdopen(r, "rb") as f:
        data = f.read()
    _, status = os.waitpid(pid, 0)
    if not data:  # killed (out of memory on a huge program): the program's doing
        return {"ok": False, "error_text": f"the syntax check did not finish (wait status {status})"}
    return json.loads(data)


def _compile_check(src: bytes, name: str) -> dict:
    """compile() as the program's run compiles it, never stricter: Python 3.11 bounds the compiler's
    nesting by the recursion limit less the frames already on the stack (3 levels a frame), and
    the check runs a few frames deep where `python3 -I NAME` compiles with none: a right answer at
    the edge was a compile_error (tests/test_sandbox_checker_attacks.py). The limit is raised by
    the check's depth and CHECK_DEPTH_SLACK frames; a program past the run's edge then fails its
    run (a runtime_error), which no right answer is."""
    limit, depth, frame = sys.getrecursionlimit(), 0, sys._getframe()
    while frame is not None:
        depth, frame = depth + 1, frame.f_back
    sys.setrecursionlimit(limit + depth + CHECK_DEPTH_SLACK)
    try:
        compile(src, name, "exec", dont_inherit=True)
    except (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError) as e:
        import traceback
        return {"ok": False, "error_text": "".join(traceback.format_exception_only(type(e), e))[-2000:]}
    finally:
        sys.setrecursionlimit(limit)
    return {"ok": True}


class Checker:
    """The syntax checker: a process forked at start, before any request, that compiles the Python
    programs pycheck sends it (their file's fd, on a socket) and answers; one round trip instead
    of a fork of PID 1 per job. It never runs a program's code (compile() only parses) and holds
    all three uids the judge's, so a program can neither signal, ptrace, nor read it, nor change
    its limits or priority. A parse that kills it (out of memory) or outlasts CHECKER_WAIT_S is
    that program's: "did not finish", as a forked check's; the next check starts a fresh one
    (forked from PID 1 then: a process that never runs a program, holding only the judge's uids).
    Only where the runner is APART: otherwise the reset's kill(-1) would end it every job."""

    def __init__(self) -> None:
        self.sock: socket.socket | None = None
        self.pid = 0
        self.sched: tuple = ()

    def spared(self) -> set[int]:
        return {self.pid} if self.pid else set()

    def check_state(self) -> None:
        """After a job: gVisor lets any process set another's CPU set and priority (measured:
        tests/test_sandbox_round_trips.py), which would slow every later check; a changed checker
        is ended, and the next check starts a fresh one."""
        if self.pid and sched_state(self.pid) != self.sched:
            self.drop()

    def start(self) -> None:
        a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        pid = os.fork()
        if pid == 0:
            try:
                a.close()
                keep = b.fileno()
                null = os.open("/dev/null", os.O_RDWR)
                for fd in (0, 1, 2):  # never the host's channel
                    os.dup2(null, fd)
                os.closerange(3, keep)
                os.closerange(keep + 1, resource.getrlimit(resource.RLIMIT_NOFILE)[0])
                judge = os.getuid()
                os.setresuid(judge, judge, judge)
                serve_checks(b)
            finally:
                os._exit(0)
        b.close()
        self.sock, self.pid, self.sched = a, pid, sched_state(pid)

    def check(self, fd: int, name: str) -> dict | None:
        """The check of the program at fd; None where there is no checker (the caller forks)."""
        if not APART:
            return None
        if self.pid and not self.alive():
            self.drop()
        if not self.pid:
            self.start()
        try:
            socket.send_fds(self.sock, [name.encode()[:255]], [fd])
            answer = _recv_json(self.sock, CHECKER_WAIT_S)
        except (OSError, ValueError):  # it died or hung on this program's parse: the program's doing
            self.drop()
            return {"ok": False, "error_text": "the syntax check did not finish (out of memory or time)"}
        if answer.pop("grown", False):
            self.drop()
        return answer

    def alive(self) -> bool:
        """False when it is gone (its end of the socket closed): found before a check, not during
        one, so an earlier job's doing never fails a later job's check."""
        try:
            self.sock.setblocking(False)
            return self.sock.recv(1, socket.MSG_PEEK) != b""
        except BlockingIOError:
            return True
        except OSError:
            return False
        finally:
            self.sock.setblocking(True)

    def drop(self) -> None:
        """End it and reap it (our child), so that the reset finds no process left."""
        if self.sock is not None:
            self.sock.close()
        if self.pid:
            kill_quietly(self.pid)
            try:
                os.waitpid(self.pid, 0)
            except ChildProcessError:
                pass
        self.sock, self.pid = None, 0

    def lost(self, pid: int) -> None:
        """Reaped by the runner (kill_sparing): dropped; the next check starts another."""
        if pid == self.pid:
            self.pid = 0
            self.drop()


def serve_checks(sock: socket.socket) -> None:
    """The syntax checker's loop (Checker): a program's file fd in, the check's answer out, with
    "grown" when this process should be replaced after it. Returns when the runner is gone."""
    start_kb = rss_kb()
    while True:
        try:
            msg, fds, _, _ = socket.recv_fds(sock, 256, 1)
        except OSError:
            return
        if not msg:
            return
        try:
            src = os.pread(fds[0], SOURCE_MAX, 0) if fds else b""
        except OSError:
            src = b""
        for fd in fds:
            os.close(fd)
        answer = _compile_check(src, msg.decode(errors="replace"))
        answer["grown"] = rss_kb() - start_kb > CHECKER_GROWTH_KB
        sock.send(json.dumps(answer).encode())


CHECKER = Checker()


# ----------------------------------------------------------------------------- main loop
class Inbox:
    """The host's channel (fd 0), read with our own buffer. A read that meets EAGAIN waits for the
    fd and reads again: gVisor can answer a blocking read of the host socket it was handed with
    EAGAIN (measured under runsc --strace while another sandbox was killed as this one started),
    which a buffered reader takes for the end of the channel: the runner exited and its sandbox
    was lost mid-job, an infra_error the program did not cause. `stalls` counts such reads; the
    reset then asks for the box to be replaced."""

    def __init__(self, fd: int = 0) -> None:
        self.fd = fd
        self.buf = bytearray()
        self.stalls = 0

    def _more(self) -> bool:
        """Append what the channel has (waiting for it); False at its end."""
        while True:
            try:
                got = os.read(self.fd, 1 << 20)
            except BlockingIOError:
                self.stalls += 1
                select.select([self.fd], [], [], 0.05)
                time.sleep(0.001)  # where the fd polls ready while its read still says EAGAIN
                continue
            if not got:
                return False
            self.buf += got
            return True

    def readline(self) -> bytes:
        while (end := self.buf.find(b"\n")) < 0:
            if not self._more():
                return b""
        line = bytes(self.buf[:end + 1])
        del self.buf[:end + 1]
        return line

    def read(self, n: int) -> bytes:
        while len(self.buf) < n and self._more():
            pass
        data = bytes(self.buf[:n])
        del self.buf[:n]
        return data


INBOX = Inbox(0)


def read_message(stream) -> tuple[dict, dict[str, bytes]] | None:
    line = stream.readline()
    if not line:
        return None
    head = json.loads(line)
    blobs = {}
    for name, n in head.get("blobs", []):
        data = stream.read(n) if n else b""
        if len(data) != n:
            return None
        blobs[name] = data
    return head, blobs


def write_message(stream, head: dict, blobs: dict[str, bytes] | None = None) -> None:
    blobs = blobs or {}
    head = dict(head, blobs=[[k, len(v)] for k, v in blobs.items()])
    write_all(stream, json.dumps(head, separators=(",", ":")).encode() + b"\n")
    for v in blobs.values():
        write_all(stream, v)
    stream.flush()


def write_all(stream, data: bytes) -> None:
    """Write every byte: under `python3 -u` stdout is a raw FileIO whose write() may be partial
    (gVisor returns a pipe's or socket's capacity; the rest would be lost and the host wait forever)."""
    view = memoryview(data)
    while view:
        try:
            n = stream.write(view)
        except BlockingIOError:  # EAGAIN on the host channel (Inbox): wait until it takes bytes
            n = None
        if not n:  # backpressure (a reply of MBs fills the host socket), never a stall: counted, a program
            select.select([], [stream.fileno()], [], 0.05)  # printing MBs had its box replaced every job
            continue
        view = view[n:]


def handle(head: dict, blobs: dict[str, bytes]) -> tuple[dict, dict[str, bytes]]:
    op = head.get("op")
    if head.get("refs"):
        try:
            blobs = with_refs(head, blobs)
        except KeyError as e:
            return {"error": f"the stash holds no {e}"}, {}
    if op == "stash":
        return stash(head, blobs), {}
    if op == "ping":
        return {"ok": True, "pid": os.getpid(), "uid": os.geteuid(), "apart": APART, "confined": confine.ON[0], "cpu_acct": bool(CPU_V1 or CPU_V2),
                "oom_acct": bool(OOM_FILE), "stash": len(STASH), "stash_bytes": stash_bytes(), "checker": CHECKER.pid, "checker_kb": proc_rss_kb(CHECKER.pid) if CHECKER.pid else 0,
                **WARM.info()}, {}
    if op == "files":
        return write_files(head, blobs), {}
    if op == "exec":
        return run_exec(head, blobs)
    if op == "reset":
        return reset(), {}
    return {"error": f"unknown op {op!r}"}, {}


def make_undumpable() -> None:
    """PR_SET_DUMPABLE=0: same-uid processes can no longer ptrace us or open /proc/1/fd/*."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(4, 0, 0, 0, 0)
    except (OSError, AttributeError):
        pass


# io_uring_setup, io_uring_enter, io_uring_register: 425-427 on every architecture (the unified
# syscall table; x32 sets bit 30, masked off below). Docker's default seccomp profile allows them,
# and io_uring is a large kernel attack surface no judged program needs.
IO_URING_SYSCALLS = (425, 427)


def deny_io_uring() -> bool:
    """Install a seccomp filter on the runner (inherited by every program it starts) that answers
    the io_uring syscalls EPERM. Returns False where the kernel refuses the filter."""
    return install_filter(*IO_URING_SYSCALLS, errno.EPERM)


def install_filter(lo: int, hi: int, err: int) -> bool:
    """A seccomp filter on this process and all it starts: syscalls lo..hi answer `err`."""
    class Insn(ctypes.Structure):
        _fields_ = [("code", ctypes.c_ushort), ("jt", ctypes.c_ubyte), ("jf", ctypes.c_ubyte),
                    ("k", ctypes.c_uint)]

    class Prog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(Insn))]

    insns = (Insn * 6)(
        Insn(0x20, 0, 0, 0),           # A = seccomp_data.nr
        Insn(0x54, 0, 0, 0xBFFFFFFF),  # A &= ~x32 bit
        Insn(0x35, 0, 2, lo),          # A >= lo ? next : allow
        Insn(0x25, 1, 0, hi),          # A > hi ? allow : deny
        Insn(0x06, 0, 0, 0x00050000 | err),  # SECCOMP_RET_ERRNO | err
        Insn(0x06, 0, 0, 0x7FFF0000),  # SECCOMP_RET_ALLOW
    )
    prog = Prog(len(insns), insns)
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(38, 1, 0, 0, 0) != 0:  # PR_SET_NO_NEW_PRIVS (Docker sets it already)
            return False
        return libc.prctl(22, 2, ctypes.byref(prog), 0, 0) == 0  # PR_SET_SECCOMP, SECCOMP_MODE_FILTER
    except (OSError, AttributeError):
        return False


# mq_open(2) by architecture: where no mqueue filesystem is mounted at /dev/mqueue (gVisor: neither
# the gVisor backend's spec nor Docker's runsc runtime gets one from runsc 20221219, which drops
# the mount) the reset cannot list the queues a job made, and their names alone carried bits to
# the next job (issue 30): no queue is made there (deny_mq_open).
MQ_OPEN = {"x86_64": 240, "aarch64": 180}.get(os.uname().machine)


def deny_mq_open() -> bool:
    """Where /dev/mqueue is no mount (the reset could not see the queues), a seccomp filter on the
    runner (inherited by every program it starts) answers mq_open ENOSYS, as a kernel without
    POSIX message queues does: a queue is then never made, so none outlives its job. Returns
    whether the filter is on (False where the queues can be listed and wiped, or the kernel
    refuses the filter: then every reset says so, unlisted_kinds, and the box is replaced)."""
    if MQ_OPEN is None or os.path.ismount("/dev/mqueue"):
        return False
    MQ_DENIED[0] = install_filter(MQ_OPEN, MQ_OPEN, errno.ENOSYS)
    return MQ_DENIED[0]


MQ_DENIED = [False]  # deny_mq_open's filter is on


def main() -> None:
    global START_STATE, START_RSS_KB, APART
    APART = confine.separate(drop_privileges())
    make_undumpable()
    deny_io_uring()
    deny_mq_open()
    # The kernel delivers a signal from inside the namespace to init only when init has a handler:
    # Python's SIGINT handler would let the program raise KeyboardInterrupt here. Ignore them all.
    for sig in HANDLED_SIGNALS:
        signal.signal(sig, signal.SIG_IGN)
    os.umask(0o077)
    # The warm interpreter's mother: forked before the first request is read (it must never hold a
    # job's data), after the uids, dumpability, seccomp filter and signals every process inherits
    if APART and os.environ.get(WARM_ENV) == "1" and os.path.isfile(os.path.join(HARNESS_DIR, "zygote.py")):
        try:
            WARM.start()
        except Exception as e:  # noqa: BLE001 - no warm interpreter: every run an exec, as before it
            WARM.lose_mother()
            WARM.broken, WARM.error = False, f"{type(e).__name__}: {e}"[:300]
    if APART:  # the syntax checker, also before the first request (Checker)
        CHECKER.start()
    START_STATE = supervisor_state()
    START_RSS_KB = rss_kb()
    inp, outp = INBOX, sys.stdout.buffer
    while True:
        msg = read_message(inp)
        if msg is None:
            return
        try:
            head, blobs = handle(*msg)
        except BaseException as e:  # report, keep serving: the host decides to recycle
            head, blobs = {"error": f"{type(e).__name__}: {e}"[:300], "tampered": tampered()}, {}
        write_message(outp, head, blobs)


if __name__ == "__main__":
    main()

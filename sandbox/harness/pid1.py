"""The PID-1 toolkit: what a sandbox's PID 1 (runner.py, session_box.py) does to itself and the few
things it asks of the kernel about other processes. Standard library only.

Why PID 1: the kernel ignores SIGKILL sent to a PID namespace's init from inside the namespace,
so the untrusted program cannot kill its supervisor, and `kill(-1, SIGKILL)` from here ends every
other process of the container at once. The runner also marks itself non-dumpable, so the program
cannot ptrace it or open its pipes via /proc/1/fd. gVisor ignores that mark in /proc, so every channel the
runner or a judge holds that carries tests, nonces or results is a socket, never a pipe (channel()).

Two uids (docs/architecture.md, "Trust boundaries"): the container starts as root with only
CAP_SETUID and CAP_SETGID, and before reading anything the runner becomes real uid JUDGE, effective
uid PROGRAM (SANDBOX_IDS="PROGRAM:GID:JUDGE", set by sandbox/pool.py), which leaves it no
capability at all. Every process it starts drops to PROGRAM for all three uids, except a judge
(harness/judge.py, started as a fork of the runner: job_protocol.py fork_judge), which keeps real and saved uid JUDGE: the kernel lets a process signal,
prlimit or ptrace another only when its uids match the other's real or saved uid, so a program can
reach neither the judge nor this runner, while both can still kill every process of the program
(kill(-1)) and own its files (effective uid PROGRAM).
"""
from __future__ import annotations

import ctypes
import errno
import json
import os
import resource
import select
import signal
import socket
import time
from collections.abc import Callable

import confine
import program_limits
import syscalls

WORK = "/work"
IDS_ENV = "SANDBOX_IDS"  # "PROGRAM_UID:GID:JUDGE_UID" (sandbox/pool.py)
APART = False  # the runner holds two uids (drop_privileges): judges are out of the program's reach


def harden() -> bool:
    """PID 1's first steps, the same for a grading box's runner and a session's supervisor, before it
    reads anything: the two uids (drop_privileges; APART) or, with one uid where the host asks for
    it, programs confined instead (confine.separate: PID 1 never serves where that fails), non-dumpable, the seccomp filters every
    process it starts inherits (install_policy: the program syscall policy, after gVisor's CPU clock's mount and the
    uids, which need calls it refuses), the signals it must ignore (the kernel delivers a signal from inside
    the namespace to init only when init has a handler: Python's SIGINT handler would let the
    program raise KeyboardInterrupt here) and a umask that keeps its files its own."""
    global APART
    write_ids()
    APART = confine.separate(drop_privileges())  # or one uid, programs confined where the host asks (confine.py)
    make_undumpable()
    install_policy()
    deny_mq_open()
    for sig in program_limits.HANDLED_SIGNALS:
        signal.signal(sig, signal.SIG_IGN)
    os.umask(0o077)
    return APART


IDS_DIR, IDS_IMAGE = "/run/ids", "/opt/sandbox/ids"  # /etc/passwd and /etc/group link into IDS_DIR (every recipe)


def write_ids() -> bool:
    """Name the program's uid and gid `sandbox` (home /tmp), so that a program that asks for its user
    (getpwuid: Python's getpass and pwd, Node's os.userInfo, Java's user.name) gets an answer, as on any
    machine: where the backend gives the program a uid of the sandbox's own (Docker with runc), the image
    has no line for it, and the backend mounts a tmpfs on IDS_DIR for PID 1 to write, as root, before
    anything else runs (the files root's, 0644, in a folder of 0755: no later process, all non-root and
    without capabilities, changes them). Elsewhere the image's copies there name 65534 already (False)."""
    if os.getuid() != 0 or not os.path.ismount(IDS_DIR):
        return False
    prog, gid, _ = _ids()
    for name, line in (("passwd", f"sandbox:x:{prog}:{gid}:sandbox:/tmp:/bin/sh\n"), ("group", f"sandbox:x:{gid}:\n")):
        with open(f"{IDS_IMAGE}/{name}", "rb") as f:
            image = f.read()
        fd = os.open(f"{IDS_DIR}/{name}", os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
        with os.fdopen(fd, "wb") as f:
            os.fchmod(f.fileno(), 0o644)
            f.write(line.encode() + image)
    return True


def _ids() -> tuple[int, int, int]:
    """SANDBOX_IDS: the program's uid and gid and the judge's uid; SystemExit when it is not three ids."""
    try:
        prog, gid, judge = (int(x) for x in os.environ.get(IDS_ENV, "").split(":"))
    except ValueError:
        raise SystemExit(f"runner started as root without {IDS_ENV}=PROGRAM_UID:GID:JUDGE_UID") from None
    return prog, gid, judge


def drop_privileges() -> bool:
    """Started as root (sandbox/pool.py): become real uid JUDGE, effective uid PROGRAM, with no
    capability left; True when done. Started as anyone else: nothing to do (False: every process
    then shares one uid, as in a container not started by our pool). Root without SANDBOX_IDS, or a
    drop that leaves any uid 0, never serves: SystemExit."""
    if os.getuid() != 0:
        return os.getuid() != os.geteuid()
    prog, gid, judge = _ids()
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


def make_undumpable() -> None:
    """PR_SET_DUMPABLE=0: same-uid processes can no longer ptrace us or open /proc/1/fd/*."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(4, 0, 0, 0, 0)
    except (OSError, AttributeError):
        pass


POLICY = [False]  # the program syscall policy is on (install_policy)


def install_policy() -> bool:
    """The program syscall policy (syscalls.py, docs/sandboxes.md "The program syscall policy") on PID 1 and so on
    every process it starts, on every backend: gVisor's kernel honours it for its tasks, where nothing else
    filtered a program. SystemExit where an x86_64 kernel refuses it (a sandbox that admits every call never
    serves); on another machine (the table is x86_64's) the io_uring filter alone, as before the policy."""
    POLICY[0] = syscalls.install()
    if not POLICY[0]:
        if os.uname().machine == "x86_64":
            raise SystemExit("the program syscall policy (syscalls.py) could not be installed")
        deny_io_uring()
    return POLICY[0]


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


IOPRIO_GET = {"x86_64": 252, "aarch64": 31}.get(os.uname().machine)  # ioprio_get(2) syscall number


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


def other_pids() -> list[int]:
    me = os.getpid()
    return [int(p) for p in os.listdir("/proc") if p.isdigit() and int(p) != me]


def kill_quietly(pid: int) -> None:
    """SIGKILL pid (a group when negative); one already gone, or no longer ours to signal, is no error."""
    try:
        os.kill(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def kill_as(uid: int) -> None:
    """SIGKILL every process whose real or saved uid is `uid`: kill(-1) with our real uid set to it for
    the call (kill(2) lets a process signal another when its real or effective uid is the other's real
    or saved uid), then our own real uid back. The runner's kill_sparing (job_protocol.py) and a judge's
    kill_program (judge.py) end the program's processes this way, never the warm interpreter's two, whose
    real and saved uid are the judge's. None left (ESRCH) is no error."""
    own = os.getuid()
    os.setresuid(uid, -1, -1)
    try:
        os.kill(-1, signal.SIGKILL)
    except OSError:
        pass
    finally:
        os.setresuid(own, -1, -1)


def kill_group(pid: int) -> None:
    for target in (-pid, pid):
        kill_quietly(target)


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


class Started:
    """A process start() made: what a Popen gives of it to the session box (pid, returncode, poll, wait).
    `returncode` is set by whoever reaps it (session_box.reap sets it as on a Popen)."""

    def __init__(self, pid: int) -> None:
        self.pid, self.returncode = pid, None  # type: int, int | None

    def poll(self) -> int | None:
        if self.returncode is None:
            try:
                pid, status = os.waitpid(self.pid, os.WNOHANG)
            except ChildProcessError:
                return self.returncode
            if pid:
                self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def wait(self) -> int | None:
        if self.returncode is None:
            try:
                self.returncode = os.waitstatus_to_exitcode(os.waitpid(self.pid, 0)[1])
            except ChildProcessError:
                pass
        return self.returncode


START_S = 30.0  # start()'s default bound on a child's way to its exec (a loaded gVisor start took seconds)


def start(argv: list[str], std: tuple[int, int, int], pass_fds: tuple[int, ...], cwd: str, env: dict,
          preexec: Callable[[], None] | None, new_session: bool = True, start_s: float = START_S) -> Started:
    """fork and exec `argv` (in a session of its own unless new_session is False) with `std` as its stdin, stdout and stderr (-1: /dev/null)
    and `pass_fds` kept, after `preexec()` (the program's limits and uids); what subprocess.Popen does, without
    its pipe. Popen reports exec's failure on a pipe it makes before the fork and reads to its end: under gVisor a
    process of the program's effective uid (ours) can open it through /proc/1/fd, then forge the error (a Python
    exception PID 1 raises, SystemExit among them) or hold the pipe open and stall us (red team 16 of the
    backends). Here the report is a channel(), which no process reopens. OSError with the errno that the fork,
    preexec or exec met; the child is reaped then. Once preexec made the child's uids the program's, the
    program's processes may stop or starve it before its exec (red team 17 of the backends: a session's PID 1
    waited for ever), so the report is waited for start_s at most: past it the child is killed and the start
    fails with ETIME (a launcher's LauncherFailed, the command's own 126)."""
    r, w = channel()
    try:
        pid = os.fork()
    except BaseException:
        os.close(r)
        os.close(w)
        raise
    if pid == 0:  # pragma: no cover - the child: never back into the caller's code
        code = 0
        try:
            os.close(r)
            _become(std, pass_fds, w, cwd, preexec, new_session)
            os.execve(argv[0], argv, env)
        except BaseException as e:  # noqa: BLE001 - its errno is the report
            code = getattr(e, "errno", None) or errno.EAGAIN
        try:
            os.write(w, str(code).encode())
        finally:
            os._exit(127)
    os.close(w)
    try:
        said = _report(r, time.monotonic() + start_s)  # EOF with nothing: exec closed it (close-on-exec)
    except TimeoutError:
        said = str(errno.ETIME).encode()
        os.kill(pid, signal.SIGKILL)
    finally:
        os.close(r)
    if said:
        try:
            os.waitpid(pid, 0)
        except ChildProcessError:
            pass
        code = int(said) if said.isdigit() else errno.EIO
        raise OSError(code, f"{os.strerror(code)} (the program's start)")
    return Started(pid)


def _report(fd: int, deadline: float) -> bytes:
    """start()'s report, up to 16 bytes or its end; TimeoutError at `deadline` (monotonic)."""
    said, poller = b"", select.poll()
    poller.register(fd, select.POLLIN)
    while len(said) < 16:
        left = deadline - time.monotonic()
        if left <= 0 or not poller.poll(left * 1000):
            raise TimeoutError
        chunk = os.read(fd, 16 - len(said))
        if not chunk:
            break
        said += chunk
    return said


def _become(std: tuple[int, int, int], pass_fds: tuple[int, ...], report: int, cwd: str,
            preexec: Callable[[], None] | None, new_session: bool) -> None:
    """In start()'s child: the std streams placed, every fd but them, pass_fds and the report closed, a new
    session where asked, cwd, preexec."""
    null = os.open(os.devnull, os.O_RDWR)
    src = [fd if fd >= 0 else null for fd in std]
    moved = [os.dup(fd) for fd in src]  # above 2, so placing one never closes another's source
    for target, fd in enumerate(moved):
        os.dup2(fd, target)
    keep = sorted({0, 1, 2, report, *pass_fds})
    for lo, hi in zip(keep, keep[1:] + [resource.getrlimit(resource.RLIMIT_NOFILE)[0]]):
        os.closerange(lo + 1, hi)
    for fd in pass_fds:
        os.set_inheritable(fd, True)
    if new_session:
        os.setsid()
    os.chdir(cwd)
    if preexec is not None:
        preexec()


def std_pipe() -> tuple[int, int]:
    """(read end, write end) of a pipe for a program's own std stream, and for nothing else: the one place the
    harness makes a pipe (ruff's banned-api, pyproject.toml). Under gVisor the program may reopen it through
    /proc (it is created under the program's effective uid), which gives it only its own input or output; a
    program that opens /dev/stdout needs exactly that. Every other channel is channel()'s socket pair."""
    return os.pipe()  # noqa: TID251 - the program's own stream (docstring)


def recv_json(sock: socket.socket, timeout: float) -> dict:
    sock.settimeout(timeout)
    data = sock.recv(1 << 16)
    if not data:
        raise OSError("the warm interpreter is gone")
    return json.loads(data)

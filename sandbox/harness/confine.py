"""Confinement of a program's processes where the sandbox has one uid for all (the userns backend's
Landlock mode: docs/sandboxes.md "Sandbox backends"). Standard library only and no other harness module;
imported by PID 1's toolkit (pid1.py), the job protocol, a program's limits (program_limits.py, whose
`apply` calls `confine`), the judge and a session's supervisor, so it holds no state but the mode.

With two uids (pid1.py drop_privileges) the kernel keeps a program from signalling, prlimit-ing
or ptracing the runner, a judge, the warm interpreter and the syntax checker, because kill(2),
prlimit(2) and ptrace(2) compare real and saved uids. With one uid (an unprivileged server: no
CAP_SETUID to map a second) they would all be the program's to reach. So each program process,
before any of its code runs (`confine`), enters:

- a Landlock domain of its own, scoped (ABI 6): it may signal only processes of its domain and the
  domains below it (kill, tgkill, sigqueue, pidfd_send_signal, an F_SETOWN file's SIGIO), and connect
  only to abstract unix sockets bound in it; and Landlock's ptrace rule, which holds for every
  domain: no ptrace, /proc/PID/mem, environ or fd of a process outside its domain (process_vm_readv
  and ptrace are refused to the whole sandbox anyway: syscalls.py DENIED, the program syscall policy);
- a seccomp filter whose argument checks let prlimit64, setpriority, sched_setaffinity,
  sched_setparam, sched_setscheduler, sched_setattr and ioprio_set act on the caller only (pid 0,
  PRIO_PROCESS/IOPRIO_WHO_PROCESS of 0): those compare uids too, and Landlock does not cover them.
  Naming a pid, even its own, answers EPERM.

The runner, judges, the warm interpreter's mother and zygote and the syntax checker stay outside
every such domain (they are the runner's forks), so they can still signal the program. A confined
process has one seccomp filter more than any of them, which it can never remove: that is how a judge,
holding one uid with the program, tells the program's processes from the rest (`kill_confined`).
"""
from __future__ import annotations

import ctypes
import os
import signal
import stat
import struct
import time

CONFINE_ENV = "SANDBOX_CONFINE"  # "landlock": the host asks for this mode (sandbox/userns.py)
MODE = "landlock"
SYS_LANDLOCK_CREATE_RULESET, SYS_LANDLOCK_ADD_RULE, SYS_LANDLOCK_RESTRICT_SELF = 444, 445, 446  # every architecture's
LANDLOCK_CREATE_RULESET_VERSION = 1
SCOPE_ABSTRACT_UNIX_SOCKET, SCOPE_SIGNAL = 1, 2
LANDLOCK_RULE_PATH_BENEATH = 1
# The file system rights a repository task's program loses in its tree (`confine` with `tree`): every change of a
# file or folder (write, truncate, remove, make of every kind, link or rename across folders), never a read
FS_WRITE_FILE, FS_TRUNCATE = 1 << 1, 1 << 14
FS_CHANGE = FS_WRITE_FILE | FS_TRUNCATE | sum(1 << b for b in range(4, 14))  # REMOVE_DIR .. MAKE_SYM, REFER
ABI_MIN = 6  # the first with scopes
PR_SET_NO_NEW_PRIVS, PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 38, 22, 2
AUDIT_ARCH_X86_64 = 0xC000003E
# x86_64 numbers: the calls that act on another process by pid and compare uids, and which arguments
# must say "the caller": (arg index, value) pairs, all of which must hold.
SELF_ONLY = {
    "prlimit64": (302, ((0, 0),)),
    "setpriority": (141, ((0, 0), (1, 0))),  # PRIO_PROCESS, who 0 (PRIO_USER 0 would be every process of the uid)
    "sched_setaffinity": (203, ((0, 0),)),
    "sched_setparam": (142, ((0, 0),)),
    "sched_setscheduler": (144, ((0, 0),)),
    "sched_setattr": (314, ((0, 0),)),
    "ioprio_set": (251, ((0, 1), (1, 0))),  # IOPRIO_WHO_PROCESS, who 0
}
LD, JEQ, RET = 0x20, 0x15, 0x06
RET_ALLOW, RET_KILL, RET_EPERM = 0x7FFF0000, 0x80000000, 0x00050001

_libc = ctypes.CDLL(None, use_errno=True)
ON = [False]  # this sandbox confines its programs (separate): set once by PID 1, inherited by its forks


def separate(two_uids: bool) -> bool:
    """PID 1's start (pid1.harden, for runner.py and session_box.py): whether programs are out of the reach of the
    runner's other processes, by two uids or, where the host asked for it (wanted), by confinement,
    which must then work here (probe) or PID 1 never serves: SystemExit naming why."""
    if not wanted():
        return two_uids
    why = probe()
    if why:
        raise SystemExit(f"{CONFINE_ENV}={MODE}: {why}")
    ON[0] = True
    return True


def wanted() -> bool:
    """Whether the host asked for this mode (the runner's environment at start)."""
    return os.environ.get(CONFINE_ENV) == MODE


def landlock_abi() -> int:
    """The kernel's Landlock ABI version; 0 where it has none (or it is off)."""
    v = _libc.syscall(SYS_LANDLOCK_CREATE_RULESET, None, ctypes.c_size_t(0), LANDLOCK_CREATE_RULESET_VERSION)
    return max(0, int(v))


def _insn(code: int, jt: int, jf: int, k: int) -> bytes:
    return struct.pack("=HBBI", code, jt, jf, k)


def self_only_filter() -> bytes:
    """The classic BPF program: each SELF_ONLY call with an argument that is not the caller's EPERM,
    the rest allowed (the sandbox's own filter has already decided them: sandbox/userns.py). An
    argument is compared in its low 32 bits, the int the kernel reads (pid_t, int which)."""
    head = [_insn(LD, 0, 0, 4), _insn(JEQ, 1, 0, AUDIT_ARCH_X86_64), _insn(RET, 0, 0, RET_KILL), _insn(LD, 0, 0, 0)]
    # A holds the call number from here on: a block is entered only to return from it
    out: list[bytes] = head
    for nr, checks in SELF_ONLY.values():
        n = 2 * len(checks) + 2
        out += [_insn(JEQ, 0, n, nr)]
        for i, (arg, value) in enumerate(checks):
            left = len(checks) - i - 1
            out += [_insn(LD, 0, 0, 16 + 8 * arg), _insn(JEQ, 0, 2 * left + 1, value)]
        out += [_insn(RET, 0, 0, RET_ALLOW), _insn(RET, 0, 0, RET_EPERM)]
    return b"".join([*out, _insn(RET, 0, 0, RET_ALLOW)])


def _check(rc: int, what: str) -> int:
    if rc < 0:
        e = ctypes.get_errno()
        raise OSError(e, f"{what}: {os.strerror(e)}")
    return rc


def scope_self(tree: list[str] | None = None) -> None:
    """Enter a new Landlock domain scoped for signals and abstract unix sockets (no file rule: the
    sandbox's mounts decide files). Each call makes a domain of its own, from the ruleset attribute
    built once (PREPARED). `tree` ([TREE, writable file...]): a repository task's, whose tree is made by PID 1
    as this one uid (repo_tree.py) and so would be the program's to change: the domain also handles FS_CHANGE,
    granted beneath every entry of / but TREE (read-only mounts, /work, /tmp, /dev, /proc: nothing changes there)
    and on the writable files alone (go.mod, go.sum), so in TREE the program changes nothing else, as with
    two uids."""
    attr = PREPARED.attr if tree is None else struct.pack("=QQQ", FS_CHANGE, 0, SCOPE_SIGNAL | SCOPE_ABSTRACT_UNIX_SOCKET)
    fd = _check(_libc.syscall(SYS_LANDLOCK_CREATE_RULESET, attr, ctypes.c_size_t(len(attr)), 0), "landlock_create_ruleset")
    try:
        if tree is not None:
            hidden, writable = tree[0], tree[1:]
            for name in sorted(os.listdir("/")):
                if "/" + name != hidden:
                    _grant(fd, "/" + name)
            for path in writable:
                _grant(fd, path)
        _check(_libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "no_new_privs")
        _check(_libc.syscall(SYS_LANDLOCK_RESTRICT_SELF, fd, 0), "landlock_restrict_self")
    finally:
        os.close(fd)


def _grant(ruleset: int, path: str) -> None:
    """FS_CHANGE beneath `path` (a folder), or its file rights (a file); nothing where it is gone."""
    try:
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except OSError:
        return
    try:
        rights = FS_CHANGE if stat.S_ISDIR(os.fstat(fd).st_mode) else FS_WRITE_FILE | FS_TRUNCATE
        rule = struct.pack("=Qi", rights, fd)  # struct landlock_path_beneath_attr, packed
        _check(_libc.syscall(SYS_LANDLOCK_ADD_RULE, ruleset, LANDLOCK_RULE_PATH_BENEATH, rule, 0), f"landlock_add_rule {path}")
    finally:
        os.close(fd)


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_char_p)]


class _Prepared:
    """What `confine` passes to the kernel, built once per process at import and inherited by every
    fork (PID 1's, the warm interpreter's, a judge's): a program's confinement is then two
    syscalls and a prctl in the fresh child, where each Python object made or first touched costs
    copy-on-write page faults (building them per program cost about 0.2 ms of a 4 ms pooled test,
    docs/benchmarks.md "The userns figures after the Landlock merge")."""

    def __init__(self) -> None:
        self.prog = self_only_filter()
        self.fprog = _SockFprog(len(self.prog) // 8, self.prog)
        self.attr = ctypes.create_string_buffer(struct.pack("=QQQ", 0, 0, SCOPE_SIGNAL | SCOPE_ABSTRACT_UNIX_SOCKET), 24)


def filter_self() -> None:
    """Install self_only_filter (PREPARED) on this process (inherited by all it starts)."""
    _check(_libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "no_new_privs")
    _check(_libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(PREPARED.fprog), 0, 0), "seccomp")


PREPARED = _Prepared()


def confine(tree: list[str] | None = None) -> None:
    """In a child about to become a program (never a judge): its own scoped domain (in a repository task's
    `tree`, read-only: scope_self) and the self-only filter. Raises OSError where either fails: the program must
    not run unconfined."""
    scope_self(tree)
    filter_self()


def probe() -> str:
    """'' when confine works here and does what it says (a child confined cannot signal or prlimit
    this process); else why not."""
    abi = landlock_abi()
    if abi < ABI_MIN:
        return f"the kernel's Landlock ABI is {abi or 'absent'}: scoped signals need ABI {ABI_MIN} (Linux 6.12)"
    pid = os.fork()
    if pid == 0:
        code = 3
        try:
            confine()
            code = 0
            for act in (lambda: os.kill(os.getppid(), 0),
                        lambda: _check(_libc.syscall(302, os.getppid(), 7, None, None), "prlimit64")):
                try:
                    act()
                    code = 1
                except PermissionError:
                    pass
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    code = os.waitstatus_to_exitcode(status)
    return {0: "", 1: "a confined process could still signal or prlimit its parent"}.get(
        code, f"confining a process failed (exit {code})")


def status_of(pid: int) -> tuple[str, int]:
    """(state letter, seccomp filter count) of a process from /proc/PID/status; ('', -1) if gone."""
    state, count = "", -1
    try:
        with open(f"/proc/{pid}/status", "rb") as f:
            for line in f:
                if line.startswith(b"State:"):
                    state = line.split()[1].decode()
                elif line.startswith(b"Seccomp_filters:"):
                    count = int(line.split()[1])
    except (OSError, ValueError, IndexError):
        return "", -1
    return state, count


def kill_confined(deadline_s: float = 2.0) -> bool:
    """SIGKILL every live process with more seccomp filters than this one (the program's: `confine`),
    each through a pidfd opened before its status is read, so a pid reused meanwhile is never hit;
    repeated until none is left (a fork between two rounds is caught by the next). True when none is."""
    mine, me = status_of(os.getpid())[1], os.getpid()
    deadline = time.monotonic() + deadline_s
    while True:
        found = False
        for name in os.listdir("/proc"):
            if not name.isdigit() or int(name) in (me, 1):
                continue
            try:
                fd = os.pidfd_open(int(name))
            except OSError:
                continue
            try:
                state, count = status_of(int(name))
                if count > mine and state not in ("Z", "X", ""):
                    signal.pidfd_send_signal(fd, signal.SIGKILL)  # ESRCH: it is gone, and the pid was its
                    found = True
            except OSError:
                pass
            finally:
                os.close(fd)
        if not found:
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.001)


def confined_cpu() -> float:
    """CPU seconds of every live confined process (more filters than this one: the program's),
    with the children each has waited for; for a judge without cgroup accounting."""
    mine, ticks = status_of(os.getpid())[1], 0
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            if status_of(int(name))[1] <= mine:
                continue
            with open(f"/proc/{name}/stat", "rb") as f:
                ticks += sum(int(x) for x in f.read().rpartition(b")")[2].split()[11:15])
        except (OSError, ValueError):
            continue
    return ticks / os.sysconf("SC_CLK_TCK")

"""The userns backend: daemonless sandboxes in Linux namespaces on the host's kernel, Docker's class
of isolation without a daemon (docs/sandboxes.md "Sandbox backends").

Each warm sandbox is the same runner (sandbox/harness/runner.py) as PID 1 of a new pid namespace, from
the same root filesystem folder as the gVisor backend (`verifier sandbox build --rootfs`), talking
over a socket pair given as its stdin and stdout (gvisor.RawChannel: the same protocol). The server
starts it in two steps (sandbox/userns_launch.py): a user and mount namespace whose uid and gid maps
it writes itself (a range, so the runner's three uids exist: root at start, the judge's and the
program's), then bubblewrap (Debian's `bubblewrap`, scripts/ensure_bubblewrap.sh) inside it, which
makes the pid, ipc, uts, net (loopback only) and cgroup namespaces, the read-only root, /proc, a
minimal /dev, and binds the tmpfs /work, /tmp and /dev/shm; no_new_privs, only CAP_SETUID and
CAP_SETGID for the runner's first lines, and a seccomp filter (seccomp_filter: Docker's default
profile's refusals, namespaces and mounts among them) before the runner's exec.

Limits held for the whole sandbox by its own cgroup (v1 where the server may make folders in its
memory, pids, cpu and cpuacct hierarchies; v2 where its cgroup is delegated: a writable folder with
those controllers enabled for its children): memory (= memory + swap, which charges the kernel's
memory too: socket buffers, page tables, SysV objects), pids and CPU quota, made before anything of
it runs; the runner reads the cgroup's CPU clock and OOM counter through read-only binds at
/sys/fs/cgroup, as in a Docker container. Without such a cgroup the backend refuses to start
(NO_CGROUP): rlimits and a watchdog reading /proc missed the CPU of children the kernel reaps itself
and every kind of kernel memory (red team of issue 30: 2.4 s of CPU under a 1 s limit and 235-384 MB
under 64 MB were `accepted`), and a limit holds for the whole sandbox on every backend.

What cannot be done unprivileged: a uid range needs CAP_SETUID and CAP_SETGID over the server's own
user namespace (root, or a pod granted them); with one uid the judge would share the program's uid.
The backend then refuses to start, naming this, and the gVisor backend is the daemonless choice.
"""
from __future__ import annotations

import ctypes
import itertools
import json
import logging
import os
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from . import watchdog
from .backend import ENV_MOUNT, SESSION_ARGV, STARTED, Backend, Box, owner_alive, owner_id, runner_ready, sandbox_env, session_ready
from .channel import ChannelError
from .config import SandboxConfig
from .gvisor import RUNNER_ARGV, RawChannel
from .languages import LANGUAGES
from .userns_launch import can_unshare_user, landlock_abi, program_id

log = logging.getLogger(__name__)

LAUNCH = str(Path(__file__).with_name("userns_launch.py"))
# The host ids the namespace's 0..65535 map to: far above any account, so a process that leaves
# the sandbox's namespaces is nobody on the host. Every sandbox shares them (its runner's and
# judges' ids), bar the program's (id_map): nothing keyed by a host uid is reachable from inside
# (the kernel keyrings are refused: seccomp_filter).
HOST_ID_BASE, ID_COUNT = 1_000_000_000, 65536


def id_map(program: int, own: int) -> str:
    """A uid_map (or gid_map) of the namespace's 0..65535 onto HOST_ID_BASE.., bar `program`, the
    program's id, which maps to `own`, a host id of this sandbox alone (userns_launch.py program_id):
    the kernel keeps per-user counts by host uid (pipe pages, inotify instances, message queue bytes,
    processes, pending signals), and with one host uid for every sandbox's programs one sandbox's
    program holding its pipe pages left another's pipes at one page (red team of issue 32)."""
    lines = [(0, HOST_ID_BASE, program), (program, own, 1), (program + 1, HOST_ID_BASE + program + 1, ID_COUNT - program - 1)]
    return "".join(f"{inside} {outside} {n}\n" for inside, outside, n in lines if n > 0)
STAGES = ("/mnt", "/media", "/srv", "/opt")  # a host folder the launch hides under its own tmpfs
CGROUP_V1 = ("memory", "pids", "cpu", "cpuacct")
_BACKENDS = itertools.count(1)
BWRAP_EXTRA_PIDS = 1  # bubblewrap's own process outside the pid namespace, in the sandbox's cgroup

# ------------------------------------------------------------------ seccomp (x86_64)
AUDIT_ARCH_X86_64 = 0xC000003E
# What Docker's default seccomp profile refuses to a container without capabilities, by x86_64 number:
# ptrace and cross-process memory, mounts and the new mount API, namespaces, keyrings, bpf,
# perf_event_open, userfaultfd, io_uring, modules, kexec, reboot, swap, clocks, quotas, handles,
# NUMA policy and the legacy calls. Each answers EPERM (named: the rest of what is not ALLOWED answers ENOSYS).
DENIED = {
    "ptrace": 101, "syslog": 103, "uselib": 134, "ustat": 136, "sysfs": 139, "vhangup": 153, "modify_ldt": 154,
    "pivot_root": 155, "_sysctl": 156, "acct": 163, "settimeofday": 164, "mount": 165, "umount2": 166,
    "swapon": 167, "swapoff": 168, "reboot": 169, "sethostname": 170, "setdomainname": 171, "iopl": 172,
    "ioperm": 173, "create_module": 174, "init_module": 175, "delete_module": 176, "get_kernel_syms": 177,
    "query_module": 178, "quotactl": 179, "nfsservctl": 180, "lookup_dcookie": 212, "clock_settime": 227,
    "mbind": 237, "set_mempolicy": 238, "get_mempolicy": 239, "kexec_load": 246, "add_key": 248,
    "request_key": 249, "keyctl": 250, "migrate_pages": 256, "unshare": 272, "move_pages": 279,
    "perf_event_open": 298, "fanotify_init": 300, "name_to_handle_at": 303, "open_by_handle_at": 304,
    "clock_adjtime": 305, "setns": 308, "process_vm_readv": 310, "process_vm_writev": 311, "kcmp": 312,
    "finit_module": 313, "kexec_file_load": 320, "bpf": 321, "userfaultfd": 323, "io_uring_setup": 425,
    "io_uring_enter": 426, "io_uring_register": 427, "open_tree": 428, "move_mount": 429, "fsopen": 430,
    "fsconfig": 431, "fsmount": 432, "fspick": 433, "pidfd_getfd": 438, "mount_setattr": 442, "quotactl_fd": 443,
}
# The allowlist: every other call answers ENOSYS, as a kernel without it would (runtimes fall back:
# clone3 to clone, openat2 to openat). Built from what the seven languages' compilers, runtimes and the
# runner call in a sandbox (`strace -f` of the userns sandboxes grading every language's right and wrong
# programs and the tests/data/formats corpus: 117 calls after the filter is installed; mknod from the
# suites, a program's FIFO), widened by each group's close kin (the legacy and *at forms a static binary
# may use, the other half of a get/set pair), each group with why it is safe here. One home:
# seccomp_filter reads it, the tests read it, docs/sandboxes.md "Sandbox backends" describes it.
ALLOWED: dict[str, tuple[str, dict[str, int]]] = {
    "files": ("the sandbox's own files (read-only root, tmpfs /work, /tmp, /dev/shm): compilers, runtimes and the runner read, write, list and stat them; chown and chmod reach only the caller's own files without a capability; mknod makes FIFOs and sockets (a device needs CAP_MKNOD, and the tmpfs are nodev); xattrs read only", {
        "read": 0, "write": 1, "readv": 19, "writev": 20, "pread64": 17, "pwrite64": 18, "preadv": 295,
        "pwritev": 296, "preadv2": 327, "pwritev2": 328, "open": 2, "openat": 257, "creat": 85, "close": 3,
        "close_range": 436, "lseek": 8, "stat": 4, "fstat": 5, "lstat": 6, "newfstatat": 262, "statx": 332,
        "statfs": 137, "fstatfs": 138, "access": 21, "faccessat": 269, "faccessat2": 439, "readlink": 89,
        "readlinkat": 267, "getdents": 78, "getdents64": 217, "getcwd": 79, "chdir": 80, "fchdir": 81, "mkdir": 83,
        "mkdirat": 258, "rmdir": 84, "unlink": 87, "unlinkat": 263, "rename": 82, "renameat": 264, "renameat2": 316,
        "link": 86, "linkat": 265, "symlink": 88, "symlinkat": 266, "chmod": 90, "fchmod": 91, "fchmodat": 268,
        "chown": 92, "fchown": 93, "lchown": 94, "fchownat": 260, "truncate": 76, "ftruncate": 77, "fallocate": 285,
        "fsync": 74, "fdatasync": 75, "sync_file_range": 277, "utime": 132, "utimes": 235, "utimensat": 280,
        "futimesat": 261, "umask": 95, "fcntl": 72, "flock": 73, "dup": 32, "dup2": 33, "dup3": 292, "pipe": 22,
        "pipe2": 293, "mknod": 133, "mknodat": 259, "ioctl": 16, "copy_file_range": 326, "sendfile": 40,
        "splice": 275, "tee": 276,
        "fadvise64": 221, "getxattr": 191, "lgetxattr": 192, "fgetxattr": 193, "listxattr": 194, "llistxattr": 195,
        "flistxattr": 196,
    }),
    "memory": ("address space and memory (held by the sandbox's cgroup, memfds' pages too; RLIMIT_MEMLOCK bounds mlock)", {
        "brk": 12, "mmap": 9, "munmap": 11, "mprotect": 10, "mremap": 25, "madvise": 28, "msync": 26, "mincore": 27,
        "mlock": 149, "mlock2": 325, "munlock": 150, "mlockall": 151, "munlockall": 152, "pkey_alloc": 330,
        "pkey_free": 331, "pkey_mprotect": 329, "membarrier": 324, "memfd_create": 319,
    }),
    "processes": ("processes and threads in the sandbox's own pid namespace (clone's namespace flags are refused below; clone3 answers ENOSYS: its flags are in memory a filter cannot read)", {
        "clone": 56, "vfork": 58, "fork": 57, "execve": 59, "execveat": 322, "wait4": 61, "waitid": 247, "exit": 60,
        "exit_group": 231, "set_tid_address": 218, "set_robust_list": 273, "get_robust_list": 274, "futex": 202,
        "futex_waitv": 449, "arch_prctl": 158, "prctl": 157, "seccomp": 317, "rseq": 334, "getpid": 39,
        "getppid": 110, "gettid": 186, "getpgid": 121, "setpgid": 109, "getpgrp": 111, "getsid": 124, "setsid": 112,
        "kill": 62, "tgkill": 234, "tkill": 200, "pidfd_open": 434, "pidfd_send_signal": 424, "getpriority": 140,
        "setpriority": 141, "ioprio_get": 252, "ioprio_set": 251, "sched_yield": 24, "sched_getaffinity": 204,
        "sched_setaffinity": 203, "sched_getparam": 143, "sched_setparam": 142, "sched_getscheduler": 145,
        "sched_setscheduler": 144, "sched_get_priority_max": 146, "sched_get_priority_min": 147,
        "sched_rr_get_interval": 148, "sched_getattr": 315, "sched_setattr": 314, "getcpu": 309,
    }),
    "signals": ("signals (kill reaches only the sandbox's pid namespace)", {
        "rt_sigaction": 13, "rt_sigprocmask": 14, "rt_sigreturn": 15, "rt_sigsuspend": 130, "rt_sigpending": 127,
        "rt_sigtimedwait": 128, "rt_sigqueueinfo": 129, "rt_tgsigqueueinfo": 297, "sigaltstack": 131,
        "signalfd": 282, "signalfd4": 289, "pause": 34, "alarm": 37, "restart_syscall": 219,
    }),
    "time": ('clocks, sleeps and timers (setting a clock is refused: DENIED)', {
        "clock_gettime": 228, "clock_getres": 229, "clock_nanosleep": 230, "nanosleep": 35, "gettimeofday": 96,
        "time": 201, "times": 100, "getitimer": 36, "setitimer": 38, "timer_create": 222, "timer_settime": 223,
        "timer_gettime": 224, "timer_getoverrun": 225, "timer_delete": 226, "timerfd_create": 283,
        "timerfd_settime": 286, "timerfd_gettime": 287,
    }),
    "identity": ("ids, capabilities and limits: the runner's drop to its two uids (sandbox/harness/pid1.py drop_privileges) and a program's own rlimits; without a capability none of these gains anything", {
        "getuid": 102, "geteuid": 107, "getgid": 104, "getegid": 108, "getresuid": 118, "getresgid": 120,
        "getgroups": 115, "setgroups": 116, "setuid": 105, "setgid": 106, "setreuid": 113, "setregid": 114,
        "setresuid": 117, "setresgid": 119, "setfsuid": 122, "setfsgid": 123, "capget": 125, "capset": 126,
        "getrlimit": 97, "setrlimit": 160, "prlimit64": 302, "getrusage": 98, "sysinfo": 99, "uname": 63,
        "getrandom": 318,
    }),
    "waiting": ("waiting on fds: the runner's loop, libuv (node), Go's netpoller, the JVM", {
        "poll": 7, "ppoll": 271, "select": 23, "pselect6": 270, "epoll_create": 213, "epoll_create1": 291,
        "epoll_ctl": 233, "epoll_wait": 232, "epoll_pwait": 281, "epoll_pwait2": 441, "eventfd": 284,
        "eventfd2": 290, "inotify_init": 253, "inotify_init1": 294, "inotify_add_watch": 254,
        "inotify_rm_watch": 255,
    }),
    "sockets": ("sockets in the sandbox's own network namespace (loopback only): the runner's channels, a judge's, multiprocessing", {
        "socket": 41, "socketpair": 53, "bind": 49, "listen": 50, "accept": 43, "accept4": 288, "connect": 42,
        "getsockname": 51, "getpeername": 52, "sendto": 44, "recvfrom": 45, "sendmsg": 46, "recvmsg": 47,
        "sendmmsg": 307, "recvmmsg": 299, "shutdown": 48, "setsockopt": 54, "getsockopt": 55,
    }),
    "landlock": ("Landlock: a process may only ever restrict itself (the runner confines each program so where the sandbox has one uid: sandbox/harness/confine.py)", {
        "landlock_create_ruleset": 444, "landlock_add_rule": 445, "landlock_restrict_self": 446,
    }),
    "ipc": ("System V and POSIX IPC in the sandbox's own ipc namespace (a job's are cleared after it: runner reset)", {
        "shmget": 29, "shmat": 30, "shmdt": 67, "shmctl": 31, "semget": 64, "semop": 65, "semtimedop": 220,
        "semctl": 66, "msgget": 68, "msgsnd": 69, "msgrcv": 70, "msgctl": 71, "mq_open": 240, "mq_unlink": 241,
        "mq_timedsend": 242, "mq_timedreceive": 243, "mq_notify": 244, "mq_getsetattr": 245,
    }),
}
CLONE, CLONE3 = 56, 435
CLONE_NEW_ANY = 0x7E020000  # CLONE_NEWNS | NEWCGROUP | NEWUTS | NEWIPC | NEWUSER | NEWPID | NEWNET
EPERM, ENOSYS = 1, 38
LD, JEQ, JGE, JSET, JA, RET = 0x20, 0x15, 0x35, 0x45, 0x05, 0x06
RET_ALLOW, RET_KILL = 0x7FFF0000, 0x80000000
RET_EPERM, RET_ENOSYS = 0x00050000 | EPERM, 0x00050000 | ENOSYS
NR_LIMIT = 1024  # above every x86_64 call number; the x32 ABI's start with bit 30 set (killed)


def _insn(code: int, jt: int, jf: int, k: int) -> bytes:
    return struct.pack("=HBBI", code, jt, jf, k)


def allowed_calls() -> dict[str, int]:
    """Every call the filter lets through, by name (clone: without namespace flags)."""
    return {name: nr for _, calls in ALLOWED.values() for name, nr in calls.items()}


def syscall_actions() -> dict[int, str]:
    """The filter's answer per call number: "allow", "clone" (allow without namespace flags),
    "eperm" (DENIED); every other number "enosys"."""
    acts = {nr: "allow" for nr in allowed_calls().values()}
    acts.update({nr: "eperm" for nr in DENIED.values()})
    acts[CLONE] = "clone"
    return acts


def _leaf(action: str) -> list[bytes]:
    if action == "clone":  # the low half of clone's flags: any namespace flag is refused
        return [_insn(LD, 0, 0, 16), _insn(JSET, 0, 1, CLONE_NEW_ANY), _insn(RET, 0, 0, RET_EPERM),
                _insn(RET, 0, 0, RET_ALLOW)]
    return [_insn(RET, 0, 0, {"allow": RET_ALLOW, "eperm": RET_EPERM, "enosys": RET_ENOSYS}[action])]


def _tree(runs: list[tuple[int, str]]) -> list[bytes]:
    """A binary search over runs of call numbers [(first number, action)...] sorted, each run up to
    the next's first: about log2(runs) comparisons per call, not one per allowed call. The far
    branch is a `ja` (32-bit offset): a conditional jump reaches only 255 instructions."""
    if len(runs) == 1:
        return _leaf(runs[0][1])
    mid = len(runs) // 2
    low, high = _tree(runs[:mid]), _tree(runs[mid:])
    return [_insn(JGE, 0, 1, runs[mid][0]), _insn(JA, 0, 0, len(low)), *low, *high]


def seccomp_filter() -> bytes:
    """The classic BPF program bubblewrap installs (--seccomp FD) before the runner's exec, an
    allowlist (ALLOWED): another architecture's calls (x32 included) kill the process; DENIED
    answer EPERM, as Docker's profile does;
    clone with any namespace flag EPERM; every call not allowed ENOSYS (clone3 among them: its flags
    sit in memory a filter cannot read, and the C library then falls back to clone)."""
    acts = syscall_actions()
    runs: list[tuple[int, str]] = []
    for nr in range(NR_LIMIT):
        act = acts.get(nr, "enosys")
        if not runs or runs[-1][1] != act or act == "clone":
            runs.append((nr, act))
    prog = [_insn(LD, 0, 0, 4), _insn(JEQ, 1, 0, AUDIT_ARCH_X86_64), _insn(RET, 0, 0, RET_KILL),
            _insn(LD, 0, 0, 0), _insn(JGE, 0, 1, 0x40000000), _insn(RET, 0, 0, RET_KILL),
            _insn(JGE, 0, 1, NR_LIMIT), _insn(RET, 0, 0, RET_ENOSYS), *_tree(runs)]
    return b"".join(prog)


# ------------------------------------------------------------------ cgroups
# The refusal where the server may make no cgroup (UsernsBackend.probe): what is missing, what to use
# instead and how to give the server one (docs/sandboxes.md "Sandbox backends"). cgroup v2 (own_cgroups)
# is taken only where the server's own cgroup already enables the controllers for its children, which
# v2 allows the root cgroup alone (no other may both hold processes and enable them): a server in a
# delegated v2 cgroup (systemd Delegate=yes) is refused today, so the message does not offer it.
NO_CGROUP = ("no cgroup of its own to hold each sandbox's CPU and kernel memory: use --sandbox-backend gvisor, or "
             "give it one (cgroup v1 folders chowned to the server's uid, the server started in them)")


def own_cgroups() -> dict[str, str]:
    """This process's cgroup folders the sandboxes' cgroups go under, by controller (v1: memory,
    pids, cpu, cpuacct; v2: ''), where the server may make folders there; {} where it may not."""
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
            if c in CGROUP_V1 and os.path.isdir(folder):
                dirs[c] = folder
    if set(CGROUP_V1) <= set(dirs):
        dirs = {c: dirs[c] for c in CGROUP_V1}
    elif "" in [line.split(":", 2)[1] for line in lines] and os.path.isfile("/sys/fs/cgroup/cgroup.controllers"):
        v2 = "/sys/fs/cgroup" + next(line.split(":", 2)[2] for line in lines if line.split(":", 2)[1] == "")
        try:  # delegated: the controllers we need are enabled for our children
            with open(os.path.join(v2, "cgroup.subtree_control")) as f:
                dirs = {"": v2} if {"memory", "pids", "cpu"} <= set(f.read().split()) else {}
        except OSError:
            dirs = {}
    else:
        dirs = {}
    return dirs if all(os.access(d, os.W_OK) for d in dirs.values()) else {}


def _write(folder: str, name: str, value: str | int) -> None:
    with open(os.path.join(folder, name), "w") as f:
        f.write(str(value))


def _read(folder: str, name: str) -> str:
    with open(os.path.join(folder, name)) as f:
        return f.read()


@dataclass
class Sandbox:
    """One userns sandbox: bubblewrap's process, its PID 1 on the host, its cgroup folders."""

    id: str
    proc: subprocess.Popen
    pid1: int = 0  # the runner's host pid (bubblewrap's --info-fd)
    cgroups: dict[str, str] = field(default_factory=dict)  # controller -> folder
    said: object = None  # the launch's stderr file (a failed start's reason)
    oom_base: int = 0  # the cgroup's OOM kills when its job began (UsernsBackend.sentry_mb)
    lock: threading.Lock = field(default_factory=threading.Lock)


class UsernsBackend(Backend):
    """Sandboxes in user, pid, mount, ipc, uts and net namespaces, started by the server (module docstring)."""

    name = "userns"

    def __init__(self, config: SandboxConfig) -> None:
        self.config = config
        self.bwrap = shutil.which("bwrap") or ""
        self.stage = next((s for s in STAGES if os.path.isdir(s)), "")
        self.tag = f"{os.getpid()}-{STARTED}-{next(_BACKENDS)}"
        self._parents = own_cgroups()
        self._cgroup_base = {c: os.path.join(d, f"grpo-userns-{self.tag}") for c, d in self._parents.items()}
        self._boxes: dict[str, Box] = {}
        self._lock = threading.Lock()
        self._seq = 0
        self._held: dict[str, int] = {}
        self.mode = ""  # "uids" or "landlock", chosen at probe (choose_mode)

    # -- the seam
    def describe(self) -> str:
        limits = "cgroup " + ("v2" if "" in self._parents else "v1") if self._parents else "none: no cgroup of its own"
        return (f"user namespaces (bubblewrap at {self.bwrap or 'nowhere: not installed'}; limits: {limits}; "
                f"programs kept apart by {self.mode or 'a mode chosen at probe'})")

    def build_hint(self) -> str:
        from .build import rootfs_hint
        return rootfs_hint(self.config)

    def down_reason(self, e: BaseException) -> str:
        return f"userns sandboxes cannot start: {e}"

    def probe(self) -> None:
        if not self.bwrap:
            raise RuntimeError("bubblewrap (bwrap) is not on PATH: install Debian's `bubblewrap` (scripts/ensure_bubblewrap.sh)")
        if os.uname().machine != "x86_64":
            raise RuntimeError(f"the seccomp filter is written for x86_64, not {os.uname().machine}")
        if not self.stage:
            raise RuntimeError(f"none of {', '.join(STAGES)} exists to stage the sandbox's mounts")
        if not self._parents:
            raise RuntimeError(NO_CGROUP)
        if not self.mode:  # once: probe runs at every health check, and the host's privileges do not change
            self.mode, why = choose_mode(self.config.userns_mode)
            log.info("userns backend: %s mode: %s", self.mode, why)
        self._base_cgroups()

    def _base_cgroups(self) -> None:
        """This server's cgroup folder over its sandboxes' (at probe, or at a first start without one)."""
        for d in self._cgroup_base.values():
            if not os.path.isdir(d):
                os.makedirs(d, exist_ok=True)
                if d == self._cgroup_base.get(""):
                    _write(d, "cgroup.subtree_control", "+memory +pids +cpu")

    def find_images(self, languages: tuple[str, ...]) -> tuple[dict[str, str], list[str]]:
        """Each language's root filesystem folder, held until close (build.held_rootfs)."""
        from .build import held_rootfs
        return held_rootfs(self.config, self._held, languages)

    def start(self, language: str, image: str, mem_mb: int, env: str = "") -> Box:
        return self._start(language, image, mem_mb, RUNNER_ARGV, self.config.pids_limit, self._ready(runner_ready), env=env)

    def start_session(self, language: str, image: str, mem_mb: int, pids_limit: int, env: str = "") -> Box:
        return self._start(language, image, mem_mb, SESSION_ARGV, pids_limit, self._ready(session_ready), session=True,
                           env=env)

    def _ready(self, ready):
        """The first ping's test; in the Landlock mode PID 1 must also say it confines its programs
        (sandbox/harness/confine.py separate), since one uid alone keeps nothing apart."""
        if self.mode != "landlock":
            return ready
        return lambda head: ready(head) and head.get("confined") is True

    def memory_bytes(self, box: Box) -> int:
        sb: Sandbox = box.container
        try:
            return _cgroup_memory(sb.cgroups)
        except (OSError, ValueError):
            return 0

    def remove(self, box: Box) -> None:
        sb: Sandbox = box.container
        self._stop_process(box, "bubblewrap")
        for folder in sb.cgroups.values():
            _rmdir_cgroup(folder)
        if sb.said is not None:
            sb.said.close()  # type: ignore[attr-defined]
        with self._lock:
            self._boxes.pop(sb.id, None)

    def death_note(self, box: Box) -> str:
        sb: Sandbox = box.container
        try:
            code = sb.proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            code = None
        oom = f", cgroup OOM kills {_oom_kills(sb.cgroups)}" if sb.cgroups else ""
        return f"{'the host stopped it; ' if box.dead else ''}bubblewrap {'running' if code is None else f'exit {code}'}{oom}"

    def oom_killed(self, box: Box, wait_s: float = 3.0) -> bool:
        """The box died of memory: its cgroup's OOM killer took the runner (the kernel picks programs
        first: their oom_score_adj is 1000)."""
        sb: Sandbox = box.container
        try:
            sb.proc.wait(timeout=wait_s)
        except subprocess.TimeoutExpired:
            pass
        return bool(sb.cgroups) and _oom_kills(sb.cgroups) > sb.oom_base

    def sentry_mb(self, box: Box) -> int:
        """No user-space kernel here (-1). Called when a box starts and when each job begins
        (Pool.mark_start): the cgroup's OOM counter is noted then, so a sandbox that dies later in
        the job is the program's memory_limit only when an OOM kill came after it (oom_killed)."""
        sb: Sandbox = box.container
        if sb.cgroups:
            sb.oom_base = _oom_kills(sb.cgroups)
        return -1

    def set_memory(self, box: Box, mb: int) -> None:
        """The cgroup's limit (memory = memory + swap: _set_cgroup_memory)."""
        sb: Sandbox = box.container
        if sb.cgroups and box.mem_mb != mb:
            _set_cgroup_memory(sb.cgroups, mb)
        box.mem_mb = mb

    def reap(self) -> int:
        """Cgroup folders of this host's dead servers (their sandboxes died with them: --die-with-parent)."""
        removed = 0
        own = set(self._cgroup_base.values())
        for parent in self._parents.values():
            for d in Path(parent).glob("grpo-userns-*"):
                pid, _, rest = d.name.removeprefix("grpo-userns-").partition("-")  # '<pid>-<start ticks>-<count>'
                if str(d) in own or not pid.isdigit():
                    continue
                if owner_alive(owner_id(int(pid)), rest.partition("-")[0]) is False:
                    for sub in d.iterdir():
                        if sub.is_dir():
                            _rmdir_cgroup(str(sub))
                    _rmdir_cgroup(str(d))
                    removed += 1
        return removed

    def remove_own(self) -> None:
        with self._lock:
            boxes = list(self._boxes.values())
        for box in boxes:
            self.remove(box)

    def close(self) -> None:
        self.remove_own()
        for d in self._cgroup_base.values():
            _rmdir_cgroup(d)
        for fd in self._held.values():
            os.close(fd)
        self._held.clear()

    # -- starting
    def _start(self, language: str, rootfs: str, mem_mb: int, argv: list[str], pids: int, ready,
               session: bool = False, env: str = "") -> Box:
        with self._lock:
            self._seq += 1
            sid = f"{language}-{self.tag}-{self._seq}"
        if not self._cgroup_base:  # started without a probe (a test's backend): the same refusal
            raise RuntimeError(NO_CGROUP)
        if not self.mode:  # the same choice
            self.mode = choose_mode(self.config.userns_mode)[0]
        self._base_cgroups()
        cgroups = self._make_cgroups(sid, mem_mb, pids)
        mine, theirs = socket.socketpair()
        ready_r, ready_w = os.pipe()
        go_r, go_w = os.pipe()
        info_r, info_w = os.pipe()
        filt = os.memfd_create("seccomp", 0)
        os.write(filt, seccomp_filter())
        os.lseek(filt, 0, os.SEEK_SET)
        spec = launch_spec(self.config, language, rootfs, self.stage, self.bwrap, argv, cgroups,
                           ready_w, go_r, info_w, filt, self.mode, env)
        said = tempfile.TemporaryFile()  # the launch's, bubblewrap's and the runner's stderr (never a program's)
        try:
            proc = subprocess.Popen(
                [sys.executable, "-I", "-S", LAUNCH, json.dumps(spec)], stdin=theirs.fileno(), stdout=theirs.fileno(),
                stderr=said, pass_fds=(ready_w, go_r, info_w, filt), start_new_session=True, preexec_fn=_pdeathsig)
        except BaseException:
            for fd in (ready_r, go_w, info_r):
                os.close(fd)
            mine.close()
            said.close()
            for d in cgroups.values():
                _rmdir_cgroup(d)
            raise
        finally:
            theirs.close()
            for fd in (ready_w, go_r, info_w, filt):
                os.close(fd)
        sb = Sandbox(id=sid, proc=proc, cgroups=cgroups, said=said)
        ch = RawChannel(mine)
        box = Box(language=language, container=sb, channel=ch, mem_mb=mem_mb, session=session)
        try:
            self._map(proc, ready_r, go_w, cgroups)
            head, _ = ch.request({"op": "ping"}, timeout_s=self.config.start_timeout_s)
            if not ready(head):
                raise ChannelError(f"sandbox PID 1 answered {head!r}")
            sb.pid1 = _child_pid(info_r)
        except BaseException as e:
            self.kill(box)
            note = _said(sb)  # before remove, which closes the file
            self.remove(box)
            raise ChannelError(f"{e}; the launch said: {note}") from e
        finally:
            for fd in (ready_r, go_w, info_r):
                os.close(fd)
        with self._lock:
            self._boxes[sid] = box
        return box

    def _map(self, proc: subprocess.Popen, ready_r: int, go_w: int, cgroups: dict[str, str]) -> None:
        """The launch's user namespace made: write its uid and gid maps (the range), put it in the
        sandbox's cgroups, then let it go on."""
        if os.read(ready_r, 1) != b"u":
            raise ChannelError("the launch ended before making its namespaces")
        uid, _, gid = self.config.user.partition(":")
        for name, program in (("uid_map", int(uid)), ("gid_map", int(gid or uid))) if self.mode == "uids" else ():
            with open(f"/proc/{proc.pid}/{name}", "w") as f:  # landlock: the launch maps its own uid
                f.write(id_map(program, program_id(proc.pid)))
        for folder in cgroups.values():
            _write(folder, "cgroup.procs", proc.pid)
        os.write(go_w, b"g")

    def _make_cgroups(self, sid: str, mem_mb: int, pids: int) -> dict[str, str]:
        """The sandbox's own cgroup folders with its limits, before anything of it runs."""
        made: dict[str, str] = {}
        try:
            for c, base in self._cgroup_base.items():
                made[c] = os.path.join(base, sid)
                if not os.path.isdir(made[c]):  # cpu and cpuacct may be one hierarchy (cpu,cpuacct)
                    os.mkdir(made[c])
            _set_cgroup_memory(made, mem_mb)
            quota = int(self.config.container_cpus * 100_000)
            if "" in made:
                _write(made[""], "pids.max", pids + BWRAP_EXTRA_PIDS)
                _write(made[""], "cpu.max", f"{quota} 100000")
            else:
                _write(made["pids"], "pids.max", pids + BWRAP_EXTRA_PIDS)
                _write(made["cpu"], "cpu.cfs_period_us", 100_000)
                _write(made["cpu"], "cpu.cfs_quota_us", quota)
        except BaseException:
            for d in made.values():
                _rmdir_cgroup(d)
            raise
        return made

    def _kill_sandbox(self, sb: Sandbox) -> None:
        """SIGKILL the sandbox's PID 1 (the kernel then kills its whole pid namespace) and bubblewrap."""
        with sb.lock:
            for pid in (sb.pid1, sb.proc.pid):
                if pid and sb.proc.poll() is None:
                    try:
                        os.kill(pid, signal.SIGKILL)
                    except ProcessLookupError:
                        pass


def launch_spec(config: SandboxConfig, language: str, rootfs: str, stage: str, bwrap: str, argv: list[str],
                cgroups: dict[str, str], ready: int, go: int, info: int, filt: int, mode: str = "uids",
                env_tree: str = "") -> dict:
    """sandbox/userns_launch.py's SPEC: Docker's hardening (sandbox/backend.py container_kwargs) in
    bubblewrap's terms. In the Landlock mode (choose_mode) bubblewrap runs as the sandbox's one uid,
    with no capability to add, and the runner is told to confine its programs. `env_tree`: a
    repository environment's tree, bound read-only at ENV_MOUNT."""
    uid, _, gid = config.user.partition(":")
    ids = ["--uid", "0", "--gid", "0", "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]
    env = sandbox_env(config, language)
    if mode == "landlock":
        ids, env = ["--unshare-user", "--uid", uid, "--gid", gid or uid], {**env, CONFINE_ENV: "landlock"}
    tmpfs = f"nosuid,nodev,nr_inodes={config.tmpfs_inodes}"
    work_exec = "exec" if LANGUAGES[language].exec_work else "noexec"
    mounts = [["work", f"{tmpfs},{work_exec},size={config.work_tmpfs_mb}m,mode=0700,uid={uid},gid={gid or uid}"],
              ["tmp", f"{tmpfs},noexec,size={config.tmp_tmpfs_mb}m,mode=1777"],
              ["shm", f"{tmpfs},noexec,size={config.tmp_tmpfs_mb}m,mode=1777"]]
    args = [bwrap, "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-net", "--unshare-cgroup-try",
            "--as-pid-1", "--die-with-parent", "--new-session", "--hostname", "sandbox",
            *ids, "--ro-bind", f"{stage}/root", "/", "--proc", "/proc", "--dev", "/dev",
            "--bind", f"{stage}/work", "/work", "--bind", f"{stage}/tmp", "/tmp", "--bind", f"{stage}/shm", "/dev/shm",
            "--mqueue", "/dev/mqueue", "--tmpfs", "/sys", "--perms", "0755", "--dir", "/sys/fs",
            "--perms", "0755", "--dir", "/sys/fs/cgroup", *(["--ro-bind", env_tree, ENV_MOUNT] if env_tree else [])]
    for c, folder in cgroups.items():  # the runner's CPU clock and OOM counter (harness/accounting.py CPU_V1, OOM_FILE)
        args += ["--ro-bind", folder, f"/sys/fs/cgroup/{c}" if c else "/sys/fs/cgroup"]
    # /dev read-only (its /dev/shm and /dev/mqueue mounts stay as they are): bubblewrap's /dev is a tmpfs of its uid,
    # which in the Landlock mode is the program's, and a file a job left there reached the next job
    args += ["--remount-ro", "/sys", "--remount-ro", "/dev", "--chdir", "/work", "--clearenv"]
    for k, v in env.items():
        args += ["--setenv", k, v]
    args += ["--info-fd", str(info), "--seccomp", str(filt), *argv]
    rlimits = [["RLIMIT_NOFILE", config.nofile_limit], ["RLIMIT_CORE", 0]]
    return {"server": os.getpid(), "ready": ready, "go": go, "rootfs": rootfs, "stage": stage, "tmpfs": mounts,
            "rlimits": rlimits, "argv": args, "mode": mode, "uid": int(uid), "gid": int(gid or uid)}


CONFINE_ENV = "SANDBOX_CONFINE"  # the runner's cue to confine its programs (sandbox/harness/confine.py CONFINE_ENV)
LANDLOCK_ABI_MIN = 6  # scoped signals and abstract sockets (Linux 6.12)


def choose_mode(wanted: str) -> tuple[str, str]:
    """The mode (SandboxConfig.userns_mode) and why: "uids" where this process may map a uid range
    (the stronger: the kernel's uid checks keep programs apart), else "landlock" where the kernel
    has Landlock scopes and lets this process make a user namespace; RuntimeError naming what is
    missing where the wanted mode (or, for auto, neither) is possible."""
    uids = "" if can_map_range() else ("no CAP_SETUID and CAP_SETGID over the server's user namespace to map the "
                                       "runner's uids (root, or a pod granted them)")
    abi = landlock_abi()
    landlock = ("" if abi >= LANDLOCK_ABI_MIN and can_unshare_user() else
                f"the kernel's Landlock ABI is {abi or 'absent'} (scoped signals need {LANDLOCK_ABI_MIN}: Linux 6.12)"
                if abi < LANDLOCK_ABI_MIN else "this process may not make a user namespace (unprivileged user "
                "namespaces off, or refused by a seccomp profile)")
    if wanted in ("auto", "uids") and not uids:
        return "uids", "CAP_SETUID and CAP_SETGID held: a uid range per sandbox, the runner and judges apart by uid"
    if wanted in ("auto", "landlock") and not landlock:
        return "landlock", ("one uid for the whole sandbox" + (f" ({uids})" if uids else " (asked for)") +
                            f": each program in a Landlock domain of its own (ABI {abi}) with a self-only seccomp filter")
    why = "; ".join(w for w, m in ((uids, "uids"), (landlock, "landlock")) if wanted in ("auto", m))
    raise RuntimeError(f"the userns backend cannot keep programs apart here ({why}): use --sandbox-backend gvisor "
                       "(docs/sandboxes.md \"Sandbox backends\")")


def can_map_range() -> bool:
    """Whether this process may write a range into a child user namespace's maps: CAP_SETUID and
    CAP_SETGID effective in its own user namespace (/proc/self/status CapEff bits 7 and 6)."""
    try:
        with open("/proc/self/status") as f:
            eff = next(int(line.split()[1], 16) for line in f if line.startswith("CapEff:"))
    except (OSError, StopIteration, ValueError):
        return False
    return eff & (1 << 7) != 0 and eff & (1 << 6) != 0


def watchdog_tree(root: int) -> list[int]:
    """`root` and every process below it, from /proc now (a kill must not miss a process just forked)."""
    children: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat", "rb") as f:
                    children.setdefault(int(f.read().rsplit(b")", 1)[1].split()[1]), []).append(int(name))
            except (OSError, IndexError, ValueError):
                continue
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo.extend(children.get(pid, ()))
    return out




def _host_pid(pid1: int, inner: int) -> int:
    """The host pid of the process numbered `inner` in the pid namespace whose PID 1 is host pid `pid1`."""
    for pid in watchdog_tree(pid1):
        try:
            with open(f"/proc/{pid}/status") as f:
                ns = next(line.split()[1:] for line in f if line.startswith("NSpid:"))
            if int(ns[-1]) == inner:
                return pid
        except (OSError, StopIteration, ValueError, IndexError):
            continue
    return 0


def _child_pid(info_r: int) -> int:
    """The sandbox's PID 1 as the host sees it, from bubblewrap's --info-fd JSON."""
    data = b""
    while not data.rstrip().endswith(b"}"):
        got = os.read(info_r, 4096)
        if not got:
            break
        data += got
    return int(json.loads(data)["child-pid"])


def _said(sb: Sandbox) -> str:
    """The launch's and bubblewrap's last words (a failed start)."""
    try:
        sb.proc.wait(timeout=2)
    except subprocess.TimeoutExpired:
        pass
    f = sb.said
    try:
        f.seek(max(0, f.seek(0, 2) - 2000))  # type: ignore[attr-defined]
        return f.read().decode(errors="replace")[-500:].strip() or "nothing"  # type: ignore[attr-defined]
    except (OSError, ValueError, AttributeError):
        return "nothing"


def _pdeathsig() -> None:
    """preexec_fn: the launch (then bubblewrap, which keeps it) gets SIGKILL when the server dies."""
    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL, 0, 0, 0)


def _set_cgroup_memory(cg: dict[str, str], mb: int) -> None:
    """memory = memory + swap = mb. v1 wants memory.limit <= memsw.limit at every step: lower the
    memory limit first when it is above mb (a new cgroup's is unlimited), else raise memsw first."""
    n = mb << 20
    if "" in cg:
        _write(cg[""], "memory.max", n)
        _write(cg[""], "memory.swap.max", 0)
        return
    mem = cg["memory"]
    order = ["memory.limit_in_bytes"]
    if os.path.exists(os.path.join(mem, "memory.memsw.limit_in_bytes")):
        down = int(_read(mem, "memory.limit_in_bytes")) > n
        order = order + ["memory.memsw.limit_in_bytes"] if down else ["memory.memsw.limit_in_bytes"] + order
    for name in order:
        _write(mem, name, n)


def _cgroup_memory(cg: dict[str, str]) -> int:
    return watchdog.cgroup_usage({k: v for k, v in cg.items() if k in ("memory", "pids", "")}).mem_mb << 20


def _oom_kills(cg: dict[str, str]) -> int:
    try:
        text = _read(cg.get("memory") or cg[""], "memory.oom_control" if "memory" in cg else "memory.events")
    except (OSError, KeyError):
        return 0
    return next((int(line.split()[1]) for line in text.splitlines() if line.startswith("oom_kill ")), 0)


def _rmdir_cgroup(folder: str) -> None:
    """Remove a sandbox's cgroup folder once its processes are gone (a few tries: they exit async)."""
    for _ in range(50):
        try:
            os.rmdir(folder)
            return
        except FileNotFoundError:
            return
        except OSError:
            time.sleep(0.02)
    log.warning("sandbox: cgroup %s still busy", folder)

"""The program syscall policy, in one home: the seccomp allowlist every sandbox's programs run under, on every
backend (docs/sandboxes.md "Sandbox backends", "The program syscall policy"). Standard library only and no other
harness module: the userns backend's launch reads it on the host too (bubblewrap installs it before the runner's exec:
sandbox/userns.py), and PID 1 installs it on itself after its first lines (pid1.harden: after gVisor's CPU clock is
mounted and the capabilities are dropped), so every process it starts inherits it. gVisor's kernel implements
seccomp-bpf for its own tasks, so the gVisor backend and Docker's runsc runtime, which had no filter of their own
for the program, admit only what this one does (red team of issue 30: a user namespace of the program's own, with
every capability in it, and mounts of gVisor's cgroupfs, tmpfs and binds); under Docker's runc runtime it sits
below Docker's own profile, so one suite meets one policy on every backend.

x86_64 only (its call numbers and AUDIT_ARCH): elsewhere `install` answers False and PID 1 keeps its narrower
io_uring filter (pid1.harden).
"""
from __future__ import annotations

import ctypes
import os
import struct

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
# seccomp_filter reads it, the tests read it, docs/sandboxes.md "The program syscall policy" describes it.
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
PR_SET_NO_NEW_PRIVS, PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 38, 22, 2
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
    """The classic BPF program, an allowlist (ALLOWED): another architecture's calls (x32 included) kill the
    process; DENIED answer EPERM, as Docker's profile does; clone with any namespace flag EPERM; every call not
    allowed ENOSYS (clone3 among them: its flags sit in memory a filter cannot read, and the C library then falls
    back to clone)."""
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



def install() -> bool:
    """Put seccomp_filter on this process (PID 1: every process it starts inherits it, and none can remove it),
    no_new_privs first, as seccomp asks of a process without CAP_SYS_ADMIN. False where this is no x86_64
    machine or the kernel refuses the filter."""
    if os.uname().machine != "x86_64":
        return False
    prog = seccomp_filter()
    buf = ctypes.create_string_buffer(prog, len(prog))

    class Fprog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    fprog = Fprog(len(prog) // 8, ctypes.cast(buf, ctypes.c_void_p))
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            return False
        return libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0) == 0
    except (OSError, AttributeError):
        return False

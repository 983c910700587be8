"""The first step of a userns sandbox, run by the server as `python3 -I -S userns_launch.py SPEC`:
standard library only (it runs before any import path is set up), one process that ends in an exec
of bubblewrap (docs/sandboxes.md "Sandbox backends").

Why a step of our own before bubblewrap: bubblewrap maps one uid into the user namespace it makes,
and the runner needs three (root at start, then the judge's and the program's:
sandbox/harness/pid1.py drop_privileges). So this process makes the user and mount namespaces,
the server (outside, with CAP_SETUID) writes a range into its uid and gid maps (sandbox/userns.py),
and this process then becomes the namespace's root and execs bubblewrap there, which makes the pid,
ipc, uts, net and cgroup namespaces and the read-only root as a root user would.

Where the server has no CAP_SETUID (the Landlock mode, SPEC "mode": "landlock": unprivileged pods,
Slurm) there is no range and no host root: this process makes the user and mount namespaces as the
server's own uid, maps that one uid (SPEC "uid", "gid": the sandbox's) itself, stages the mounts as
the namespace's owner, and execs bubblewrap as that uid, which makes a user namespace of its own
below and runs the runner with no capability; programs are kept from the runner by Landlock and
seccomp instead (sandbox/harness/confine.py). See main_one_uid.

SPEC is JSON: {"server": PID, "ready": FD, "go": FD, "rootfs": PATH, "env": PATH or "", "stage": DIR,
"tmpfs": [[NAME, OPTIONS]...], "rlimits": [[RESOURCE, N]...], "argv": [BWRAP, ...]}. Steps:
1. As the host's root, in a mount namespace of its own (stage_as_host_root): a private tmpfs on
   `stage` (a host folder hidden by it in this mount namespace only) holds the root filesystem's
   bind (`stage`/root: its folder may sit under one the namespace's uids cannot cross, /root 0700),
   a repository environment's tree likewise (`stage`/env), and an empty folder per tmpfs. Then
   become the host uid and gid of this sandbox alone (`owner_id`: above the mapped range, by this process's host pid) and only then
   unshare(CLONE_NEWUSER | CLONE_NEWNS): the kernel charges what the namespace's users hold of the
   per-user counts (inotify instances, pending signals, message queue bytes, processes) to its
   creator too, against the host's per-user maximum. Created by root, one sandbox's 128 inotify
   instances left none to the host's root, the server and every other sandbox (red team of
   issue 32). Write b"u" on `ready`; wait for b"g" on `go` (the maps are written and this
   process is in the sandbox's cgroups).
2. Become the namespace's root and mount one tmpfs per NAME with its OPTIONS (owner, size, inodes,
   noexec) on its folder: bubblewrap binds them into the sandbox (its own --tmpfs cannot set an
   owner, and /work is the program's). Its parent-death signal (the server's: sandboxes die with
   it) is set again after the uid changes, which clear it.
3. Set the rlimits every process of the sandbox inherits, then exec bubblewrap.
"""
from __future__ import annotations

import ctypes
import json
import os
import resource
import sys

CLONE_NEWUSER, CLONE_NEWNS = 0x10000000, 0x00020000
MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_BIND, MS_REC, MS_PRIVATE = 0x2, 0x4, 0x8, 0x1000, 0x4000, 0x40000
PR_SET_PDEATHSIG, PR_SET_DUMPABLE = 1, 4
SIGKILL = 9
FLAGS = {"nosuid": MS_NOSUID, "nodev": MS_NODEV, "noexec": MS_NOEXEC, "exec": 0}
# The namespace's ids map to HOST_ID_BASE.. (sandbox/userns.py); its creator is a host id above
# that range, one per live launch (its host pid): a uid shared with nothing else on the host.
OWNER_BASE = 1_000_000_000 + 65536


def owner_id() -> int:
    """The host uid and gid that create this sandbox's user namespace (step 1)."""
    return OWNER_BASE + os.getpid()


PROGRAM_BASE = OWNER_BASE + (1 << 22)  # above every owner id (pid_max is at most 2^22)


def program_id(pid: int) -> int:
    """The host uid and gid the program of the sandbox launched as `pid` runs as (sandbox/userns.py
    id_map): one per live launch, as owner_id, so no other sandbox's program shares its per-user counts."""
    return PROGRAM_BASE + pid

libc = ctypes.CDLL(None, use_errno=True)


def check(rc: int, what: str) -> None:
    if rc != 0:
        raise SystemExit(f"userns_launch: {what}: {os.strerror(ctypes.get_errno())}")


def mount(source: str, target: str, fstype: str | None, flags: int, data: str | None) -> None:
    check(libc.mount(source.encode(), target.encode(), fstype.encode() if fstype else None, flags,
                     data.encode() if data else None), f"mount {target}")


def tmpfs(target: str, options: str) -> None:
    """A tmpfs with its per-mount flags (nosuid, nodev, noexec) and the rest as its data."""
    words = options.split(",")
    flags = sum(FLAGS.get(w, 0) for w in words)
    mount("tmpfs", target, "tmpfs", flags, ",".join(w for w in words if w not in FLAGS))


def stage_as_host_root(spec: dict) -> None:
    """Step 1's staging, as the host's root in a mount namespace of its own: a private tmpfs on
    `stage` holding the root filesystem's bind (`stage`/root) and an empty folder per tmpfs. The
    user namespace's mount namespace copies it (step 2), reachable without crossing /root."""
    check(libc.unshare(CLONE_NEWNS), "unshare mount")
    mount("none", "/", None, MS_REC | MS_PRIVATE, None)
    stage_binds(spec)
    for name, _ in spec["tmpfs"]:
        os.mkdir(f"{spec['stage']}/{name}")


def stage_binds(spec: dict) -> None:
    """A private tmpfs on `stage` with the host folders bubblewrap binds: the root filesystem (`stage`/root) and a
    repository environment's tree (`stage`/env, SPEC "env", when there is one). Both may sit under a folder the
    namespace's uids cannot cross (/root 0700, a test's 0700 temporary folder): bound here, by the one who stages,
    they are reached from `stage` (bubblewrap's own --ro-bind of the host path failed there: "Can't find source
    path ... Permission denied", every repository task of the userns backend an infra_error)."""
    stage = spec["stage"]
    tmpfs(stage, "nosuid,nodev,mode=0755,size=1m")
    for name, source in (("root", spec["rootfs"]), ("env", spec.get("env", ""))):
        if source:
            os.mkdir(f"{stage}/{name}")
            mount(source, f"{stage}/{name}", None, MS_BIND | MS_REC, None)


def landlock_abi() -> int:
    """The host kernel's Landlock ABI version, 0 where it has none (landlock_create_ruleset's
    version query; the runner checks its own kernel again: sandbox/harness/confine.py)."""
    return max(0, int(libc.syscall(444, None, ctypes.c_size_t(0), 1)))


def can_unshare_user() -> bool:
    """Whether this process's uid may make a user namespace (unprivileged user namespaces allowed
    and not refused by a seccomp profile), tried in a new interpreter: never a bare fork of the
    server, whose gRPC threads make a fork unsafe (docs/architecture.md "Process model": one
    failed here under load, and the backend went down)."""
    import subprocess
    try:
        return subprocess.run([sys.executable, "-I", "-S", "-c",
                               f"import ctypes, sys; sys.exit(ctypes.CDLL(None).unshare({CLONE_NEWUSER}) != 0)"],
                              stdin=subprocess.DEVNULL, capture_output=True, timeout=30).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def map_one_id(uid: int, gid: int, host_uid: int, host_gid: int) -> None:
    """This process's own host uid and gid (read before the unshare: after it they read as the
    overflow id) as the namespace's `uid` and `gid` (the only map a process without CAP_SETUID may
    write; setgroups denied first, as the kernel requires)."""
    for name, text in (("setgroups", "deny"), ("uid_map", f"{uid} {host_uid} 1\n"), ("gid_map", f"{gid} {host_gid} 1\n")):
        with open(f"/proc/self/{name}", "w") as f:
            f.write(text)


def main_one_uid(spec: dict) -> None:
    """The Landlock mode's steps (module docstring): the same staging and tmpfs as main's, all as
    the owner of the new namespaces. A server that may change uids (root asked for this mode) stages
    as root and makes the namespaces as this sandbox's own host uid, as main does (never root: the
    per-user counts); one that may not stays its own uid, and the server's parent-death signal stays."""
    staged = os.geteuid() == 0
    if staged:
        stage_as_host_root(spec)
        os.setgroups([])
        os.setresgid(owner_id(), owner_id(), owner_id())
        os.setresuid(owner_id(), owner_id(), owner_id())
        check(libc.prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0), "pdeathsig")  # a uid change clears the server's
        check(libc.prctl(PR_SET_DUMPABLE, 1, 0, 0, 0), "dumpable")  # /proc/self/uid_map is ours to write
    host_uid, host_gid = os.geteuid(), os.getegid()
    check(libc.unshare(CLONE_NEWUSER | CLONE_NEWNS), "unshare")
    map_one_id(spec["uid"], spec["gid"], host_uid, host_gid)
    os.write(spec["ready"], b"u")
    os.close(spec["ready"])
    if os.read(spec["go"], 1) != b"g":
        raise SystemExit("userns_launch: the server did not let the launch go on")
    os.close(spec["go"])
    if os.getppid() != spec["server"]:
        raise SystemExit("userns_launch: the server is gone")
    mount("none", "/", None, MS_REC | MS_PRIVATE, None)
    stage = spec["stage"]
    if not staged:
        stage_binds(spec)
    for name, options in spec["tmpfs"]:
        if not staged:
            os.mkdir(f"{stage}/{name}")
        tmpfs(f"{stage}/{name}", options)
    for name, n in spec["rlimits"]:
        resource.setrlimit(getattr(resource, name), (n, n))
    os.execv(spec["argv"][0], spec["argv"])


def die_with_server(spec: dict) -> None:
    """SIGKILL when the server's thread that started this process ends, set here first (the server
    sets none: a preexec_fn in its threaded process crashed children before their exec, sandbox/backend.py
    dies_with_server); a uid change clears it, so the steps set it again after one."""
    check(libc.prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0), "pdeathsig")
    if os.getppid() != spec["server"]:
        raise SystemExit("userns_launch: the server is gone")


def main() -> None:
    spec = json.loads(sys.argv[1])
    die_with_server(spec)
    if spec.get("mode") == "landlock":
        main_one_uid(spec)
    stage_as_host_root(spec)
    os.setgroups([])
    os.setresgid(owner_id(), owner_id(), owner_id())
    os.setresuid(owner_id(), owner_id(), owner_id())
    check(libc.unshare(CLONE_NEWUSER | CLONE_NEWNS), "unshare")
    os.write(spec["ready"], b"u")
    os.close(spec["ready"])
    if os.read(spec["go"], 1) != b"g":
        raise SystemExit("userns_launch: the server did not map the namespace's ids")
    os.close(spec["go"])
    os.setgroups([])
    os.setresgid(0, 0, 0)
    os.setresuid(0, 0, 0)
    check(libc.prctl(PR_SET_DUMPABLE, 1, 0, 0, 0), "dumpable")  # /proc/self is ours again after the uid change
    check(libc.prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0), "pdeathsig")  # a uid change clears the server's
    if os.getppid() != spec["server"]:
        raise SystemExit("userns_launch: the server is gone")
    mount("none", "/", None, MS_REC | MS_PRIVATE, None)
    for name, options in spec["tmpfs"]:
        tmpfs(f"{spec['stage']}/{name}", options)
    for name, n in spec["rlimits"]:
        resource.setrlimit(getattr(resource, name), (n, n))
    os.execv(spec["argv"][0], spec["argv"])

if __name__ == "__main__":
    main()

"""The first step of a userns sandbox, run by the server as `python3 -I -S userns_launch.py SPEC`:
standard library only (it runs before any import path is set up), one process that ends in an exec
of bubblewrap (docs/sandboxes.md "Sandbox backends").

Why a step of our own before bubblewrap: bubblewrap maps one uid into the user namespace it makes,
and the runner needs three (root at start, then the judge's and the program's:
sandbox/harness/runner.py drop_privileges). So this process makes the user and mount namespaces,
the server (outside, with CAP_SETUID) writes a range into its uid and gid maps (sandbox/userns.py),
and this process then becomes the namespace's root and execs bubblewrap there, which makes the pid,
ipc, uts, net and cgroup namespaces and the read-only root as a root user would.

SPEC is JSON: {"server": PID, "ready": FD, "go": FD, "rootfs": PATH, "stage": DIR, "tmpfs": [[NAME, OPTIONS]...],
"rlimits": [[RESOURCE, N]...], "argv": [BWRAP, ...]}. Steps:
1. unshare(CLONE_NEWUSER | CLONE_NEWNS); write b"u" on `ready`; wait for b"g" on `go` (the maps are
   written and this process is in the sandbox's cgroups).
2. Open the root filesystem (O_PATH) while still the host's user: its folder may sit under one the
   namespace's uids cannot cross (/root, 0700).
3. Become the namespace's root; a private tmpfs on `stage` (a host folder hidden by it in this mount
   namespace only) holds the root filesystem's bind (`stage`/root, through the open fd) and one
   tmpfs per NAME with its OPTIONS (owner, size, inodes, noexec): bubblewrap binds them into the
   sandbox (its own --tmpfs cannot set an owner, and /work is the program's).
   Its parent-death signal (the server's: sandboxes die with it) is set again after the uid change,
   which clears it.
4. Set the rlimits every process of the sandbox inherits, then exec bubblewrap.
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


def main() -> None:
    spec = json.loads(sys.argv[1])
    check(libc.unshare(CLONE_NEWUSER | CLONE_NEWNS), "unshare")
    os.write(spec["ready"], b"u")
    os.close(spec["ready"])
    if os.read(spec["go"], 1) != b"g":
        raise SystemExit("userns_launch: the server did not map the namespace's ids")
    os.close(spec["go"])
    root_fd = os.open(spec["rootfs"], os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC)
    os.setgroups([])
    os.setresgid(0, 0, 0)
    os.setresuid(0, 0, 0)
    check(libc.prctl(PR_SET_DUMPABLE, 1, 0, 0, 0), "dumpable")  # /proc/self is ours again after the uid change
    check(libc.prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0), "pdeathsig")  # a uid change clears the server's
    if os.getppid() != spec["server"]:
        raise SystemExit("userns_launch: the server is gone")
    mount("none", "/", None, MS_REC | MS_PRIVATE, None)
    stage = spec["stage"]
    tmpfs(stage, "nosuid,nodev,mode=0755,size=1m")
    os.mkdir(f"{stage}/root")
    mount(f"/proc/self/fd/{root_fd}", f"{stage}/root", None, MS_BIND | MS_REC, None)
    os.close(root_fd)
    for name, options in spec["tmpfs"]:
        os.mkdir(f"{stage}/{name}")
        tmpfs(f"{stage}/{name}", options)
    for name, n in spec["rlimits"]:
        resource.setrlimit(getattr(resource, name), (n, n))
    os.execv(spec["argv"][0], spec["argv"])


if __name__ == "__main__":
    main()

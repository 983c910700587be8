"""The seam under the pool: how a sandbox is started, talked to, killed, wiped and reaped.

Two implementations: `DockerBackend` (hardened containers through the Docker Engine API) and
`GvisorBackend` (sandbox/gvisor.py: rootless `runsc` sandboxes the server starts itself, for hosts
with no Docker daemon). The pool (sandbox/pool.py) and the job (sandbox/job.py) see only a `Box`
and these methods; every call here blocks, so the pool runs them in threads.
"""
from __future__ import annotations

import errno
import logging
import os
import secrets
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from datetime import datetime, timezone
from typing import Any

import docker
from docker.types import Mount, Ulimit

from .box import Box
from .channel import Channel, ChannelError
from .config import SandboxConfig
from . import cgroups as host_cgroups
from . import watchdog
from .languages import LANGUAGES

log = logging.getLogger(__name__)

LABEL = "grpo-verifier.sandbox"
LABEL_POOL = "grpo-verifier.pool"
LABEL_OWNER = "grpo-verifier.owner"
LABEL_LANG = "grpo-verifier.language"
LABEL_STARTED = "grpo-verifier.owner-started"  # the owner's start time: a reused pid is not the owner
LABEL_SESSION = "grpo-verifier.session"
# Under Docker every container's program would be one host uid (no user namespace per container), and
# the kernel keeps per-user counts across containers: inotify instances and watches, epoll watches,
# POSIX message queue bytes, pipe pages, processes (RLIMIT_NPROC), pending signals. One sandbox's
# program holding its uid's 128 inotify instances left none to any other sandbox's (red team of issue
# 30). So each container's program runs as a host uid (and gid) of its own, drawn from this range and
# claimed daemon-wide by the container's name (NAME_PREFIX + uid: the daemon refuses a second
# container of that name, whichever server makes it); it is free again once the container is removed
# (docs/sandboxes.md "Sandbox backends"). Far above any account and the userns backend's host ids
# (sandbox/userns.py HOST_ID_BASE, userns_launch.py OWNER_BASE).
PROGRAM_UID_BASE, PROGRAM_UIDS = 1_100_000_000, 1 << 20
NAME_PREFIX = "grpo-sandbox-uid-"
UID_TRIES = 16  # draws before a start fails: with 2^20 uids a second draw is already rare
# PID 1 of a session's sandbox (sandbox/session.py), in every image and root filesystem
SESSION_ARGV = ["python3", "-I", "/opt/sandbox/harness/session_box.py"]
# The parent-death signal of a process the server starts (runsc), set by a step exec'd in the child
# (dies_with_server), never by a preexec_fn: the server's gRPC threads make a fork that runs Python
# before its exec crash or hang now and then (docs/sandboxes.md "Sandbox backends"). The same step
# enters the cgroups it is given (their cgroup.procs files) before its exec, so everything the command
# ever starts is counted there (the gVisor backend's CPU cgroup: GvisorBackend._start_once).
_DIES_WITH_SERVER = ("import ctypes, os, sys\n"
                     "if ctypes.CDLL(None, use_errno=True).prctl(1, 9, 0, 0, 0):\n"  # PR_SET_PDEATHSIG, SIGKILL
                     "    sys.exit('parent-death signal refused')\n"
                     "if os.getppid() != int(sys.argv[1]):\n"  # the server died before the prctl: no signal comes
                     "    sys.exit('the server is gone')\n"
                     "n = int(sys.argv[2])\n"
                     "for procs in sys.argv[3:3 + n]:\n"
                     "    try:\n"
                     "        with open(procs, 'w') as f:\n"
                     "            f.write(str(os.getpid()))\n"
                     "    except OSError as e:\n"
                     "        sys.exit(f'cgroup {procs}: {e}')\n"
                     "os.execvp(sys.argv[3 + n], sys.argv[3 + n:])\n")
CONTAINER_ENV = {
    "PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": "/tmp", "LANG": "C.UTF-8",
    "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
    "NUMEXPR_NUM_THREADS": "1", "PYTHONDONTWRITEBYTECODE": "1",
}
# How much more host memory gVisor's kernel (its Go heap: the processes' anonymous memory) may hold
# once a job is reset than right after the box started. The Sentry keeps socket and pipe buffers and
# xattrs there and does not give them back when the program is gone (1 GB held 60 s on, measured):
# under Docker's runsc the cgroup charged them to the next job (memory_limit for a neighbour's right
# answer), under the gVisor backend an idle box held them. Ordinary jobs add a few MB (docs/sandboxes.md).
SENTRY_REST_MB = 64
# How much more of the sandbox's own memory under gVisor (its memory file) a reset box may hold than
# right after its start, beyond the test sets its runner keeps (Box.stash): a SysV segment outlives
# its job there (the runner's reset lists them in /proc/sysvipc, which gVisor lacks) and 150 MB of one
# made the next job's right answer memory_limit (red team of issue 22). Measured: 43 MB at start and
# 45 after the scientific stack on the gVisor backend (gVisor keeps its own copy of files it read).
LEFTOVER_MB = 32
# How much more a box's cgroup may hold that is no page cache (Backend.rest_now: usage less the page cache, less its
# stash) once its job is reset than at its birth (Box.rest_birth_mb, read when its first job or session began), on the
# backends that read it (docker's runc, userns); over it the pool replaces the box (Backend.at_rest), and a job's limit
# never counts more rest than the box's birth (Backend.begins). Kernel memory a job leaves charged to the box outlives
# its processes and the reset: a stat storm's negative dentries (60-200 MB) were read as the next job's rest and gave it
# the fixed allowance back (80 MB under a 16 MB limit `accepted`: red team rt30ab). Measured (Python box, 29 MB at
# birth): hello world, the scientific stack, 900 KB of stdout, a 200 MB array add 0-4 MB; stat-ing every file under
# /usr adds 33 MB under runc (the overlay's dentries and inodes; the box is replaced), 1 MB under userns.
REST_GROWTH_MB = 16
# Where a repository environment's tree is, read-only, in a sandbox started for it (Pool `env`;
# docs/repo-tasks.md "Warm environments"): an empty folder of every image and root filesystem, so
# neither backend makes a mount point in a read-only root.
ENV_MOUNT = "/srv"
# Where a repository task's tree is made (sandbox/harness/repo_tree.py TREE), in the same sandboxes: a tmpfs of the
# judge's uid, mode 0755, the size and inodes of /work and its exec flag, on another empty folder of every image.
# The runner makes the tree there as the judge's uid, so the program can read it and change nothing of it.
TREE_MOUNT = "/mnt"


def tree_mount_options(config: SandboxConfig, language: str, gid: str) -> list[str]:
    """The tree tmpfs's options (TREE_MOUNT), for every backend: the judge's, mode 0755, /work's size and inodes."""
    return ["nosuid", "nodev", "exec" if LANGUAGES[language].exec_work else "noexec", f"nr_inodes={config.tmpfs_inodes}",
            f"size={config.work_tmpfs_mb}m", "mode=0755", f"uid={config.judge_uid}", f"gid={gid}"]
EXITED_GRACE_S = 60.0  # an exited sandbox of a live owner may still be read (its OOM state) this long


def _start_ticks(pid: int) -> str:
    """The process's start time in clock ticks since boot (/proc/PID/stat field 22): with the pid
    it names one process for the host's uptime, so a reused pid is not taken for the owner."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()[19].decode()
    except (OSError, IndexError):
        return ""


def dies_with_server(argv: list[str], cgroups: tuple[str, ...] = ()) -> list[str]:
    """`argv` as run by a step that sets its parent-death signal (SIGKILL when the server's starting
    thread ends), enters `cgroups` (cgroup folders: it writes its pid into each one's cgroup.procs, and
    does not run `argv` where one refuses) and then execs it, in place of a preexec_fn. A preexec_fn
    runs Python in the child of a fork of the threaded server: gRPC's fork handlers run there too, and
    one child in several hundred died of SIGSEGV or SIGABRT or hung before its exec (issue 34's boxes
    that did not start: "BrokenPipeError; runsc said: nothing"). Popen without one forks with vfork
    and runs no Python."""
    procs = [os.path.join(d, "cgroup.procs") for d in cgroups]
    return [sys.executable, "-I", "-S", "-c", _DIES_WITH_SERVER, str(os.getpid()), str(len(procs)), *procs, *argv]


def owner_id(pid: int | None = None) -> str:
    """'host:pid': the server that owns a sandbox (its owner label; the format older servers read)."""
    return f"{socket.gethostname()}:{pid or os.getpid()}"


OWNER = owner_id()
STARTED = _start_ticks(os.getpid())  # with OWNER, names this process (label LABEL_STARTED)


def owner_alive(owner: str, started: str = "") -> bool | None:
    """Whether the server named by an owner label (and its start time, when labelled) still runs:
    None when it is on another host (this host cannot tell)."""
    host, _, pid = owner.rpartition(":")
    if host != socket.gethostname() or not pid.isdigit():
        return None
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    return not started or _start_ticks(int(pid)) == started


def server_gone(tag: str) -> bool:
    """Whether the server a daemonless backend's folder names ('<pid>-<start ticks>-<count>': its
    state or cgroup folder) has ended on this host: its sandboxes died with it."""
    pid, _, rest = tag.partition("-")
    return pid.isdigit() and owner_alive(owner_id(int(pid)), rest.partition("-")[0]) is False


def sandbox_env(config: SandboxConfig, language: str, program: str = "") -> dict[str, str]:
    """The runner's environment: the clean one, the two uids it takes (`program`, "uid:gid", or
    config.user) and whether it starts the warm interpreter (Python only: sandbox/harness/warm_keeper.py, Warm)."""
    return {**CONTAINER_ENV, "SANDBOX_IDS": f"{program or config.user}:{config.judge_uid}",
            "SANDBOX_WARM": "1" if config.warm_container(language) else "0", "SANDBOX_INODES": str(config.tmpfs_inodes)}


def runner_ready(head: dict) -> bool:
    """A first ping's answer from a runner that is PID 1 and runs apart from the programs' uid."""
    return bool(head.get("ok")) and head.get("pid") == 1 and head.get("apart") is True


def session_ready(head: dict) -> bool:
    """A first ping's answer from a session supervisor that is PID 1 and runs apart from the cells'
    uid (sandbox/harness/session_box.py): the same test as the runner's."""
    return runner_ready(head)


def box_memory_mb(config: SandboxConfig, language: str) -> int:
    """A new sandbox's memory limit: a test's default plus the runner's room (sandbox/config.py)."""
    return config.limits_for(language).default_memory_limit_mb + config.overhead_mb(language)


class Backend:
    """start, talk (Box.channel), kill, wipe (remove), reap: what the pool needs of a sandbox."""

    name = ""
    config: SandboxConfig  # each backend's own, set by its __init__
    over_limit_ends_sandbox = False
    """Whether a step past its memory limit ends the whole sandbox, not just the step's processes (Docker's runsc:
    the container's cgroup holds gVisor's kernel too). Then a checker gets its doubled room before it runs, since no
    second run can follow in the box (sandbox/job.py `_checked`)."""

    def probe(self) -> None:
        """Raise when the backend cannot start sandboxes at all (no daemon, no runsc)."""
        raise NotImplementedError

    def find_images(self, languages: tuple[str, ...]) -> tuple[dict[str, str], list[str]]:
        """language -> image (tag or root filesystem) for those that exist; the missing ones."""
        raise NotImplementedError

    def start(self, language: str, image: str, mem_mb: int, env: str = "") -> Box:
        """Start one sandbox and check its runner answers a ping as PID 1. Raises on any failure.
        `env`: a repository environment's tree (a host folder), read-only at ENV_MOUNT in it."""
        raise NotImplementedError

    def start_session(self, language: str, image: str, mem_mb: int, pids_limit: int, env: str = "") -> Box:
        """Start a session's sandbox (sandbox/session.py): the same hardening, uids and start as
        root with CAP_SETUID/CAP_SETGID only, but PID 1 is the session supervisor (SESSION_ARGV),
        which takes the runner's two uids before anything else (sandbox/harness/session_box.py),
        and pids_limit processes. `env`: a repository environment's tree, read-only at ENV_MOUNT, as
        for `start` (docs/sessions.md "Fork and snapshot"). Raises on any failure."""
        raise NotImplementedError

    def memory_bytes(self, box: Box) -> int:
        """Memory the box uses now (what its limit counts); 0 when unknown."""
        raise NotImplementedError

    def sentry_mb(self, box: Box) -> int:
        """Host anonymous memory of the box's user-space kernel (gVisor's Go heap), MB; -1 where
        the box has none (runc) or it cannot be read. A reading, nothing more (the begin hook: begins)."""
        return -1

    def memory_cgroup(self, box: Box) -> dict[str, str]:
        """The box's own memory cgroup folder as the host reads its rest and OOM kills there (begins, at_rest): v1
        {"memory": folder}, v2 {"": folder}; {} where there is none to read (gVisor's backends: their own readings)."""
        return {}

    def rest_now(self, box: Box) -> int:
        """What the box's cgroup holds now that is no page cache (cgroups.unreclaimable_mb: the runner, the warm
        interpreter, kernel memory charged to the box), less the stash its runner holds (sandbox/job.py _stash_mb:
        each step adds it), MB; -1 where there is none to read. A reading, nothing more."""
        mem = self.memory_cgroup(box)
        if not mem:
            return -1
        try:
            return max(0, host_cgroups.unreclaimable_mb(mem) - (sum(box.stash.values()) >> 20))
        except (OSError, ValueError):
            return -1

    def begins(self, box: Box) -> None:
        """The one hook where a job (Pool.mark_start) or a session (SessionBox.start) begins in the box: it reads what
        the backend takes as its start, once. gVisor's heap (Box.sentry_base: the watchdog counts the growth past it);
        on a box with a memory cgroup (memory_cgroup: docker's runc, userns) its OOM kills (Box.oom_base, oom_killed)
        and its rest, settled (watchdog.settled), as the box's birth rest the first time (Box.rest_birth_mb), and as
        the job's rest (Box.rest_mb, overhead_mb) never more than that birth rest: what a job leaves charged to the box
        (kernel memory a program can inflate: red team rt30ab's dentries) is never the next job's room; a box whose
        rest grew past it by REST_GROWTH_MB is replaced after its job (at_rest). The birth is the box's settled rest:
        its runner answers the start's ping and each reset only once its warm interpreter has imported (read while it
        imported, the birth was 2-11 MB low and capped every later job's room: h30aa), and no program runs in a box
        before its first job begins. The readings (sentry_mb, rest_now) have no side effects."""
        box.sentry_base = self.sentry_mb(box)
        mem = self.memory_cgroup(box)
        box.oom_base = host_cgroups.oom_kills(mem) if mem else -1
        rest = watchdog.settled(lambda: self.rest_now(box), prior=box.rest_read) if mem else -1
        box.rest_read = (rest, time.monotonic())  # the next begin's prior: a rest that held since needs no second reading
        if box.rest_birth_mb < 0:
            box.rest_birth_mb = rest
        box.rest_mb = rest if rest < 0 or box.rest_birth_mb < 0 else min(rest, box.rest_birth_mb)

    def host_threads(self, box: Box) -> int:
        """Host threads of the box's user-space kernel now (gVisor's Go threads and the ptrace
        platform's stubs); -1 where the box has none (runc) or it cannot be read."""
        return -1

    def at_rest(self, box: Box) -> bool:
        """Whether the box, its job reset, keeps nothing of that job in its gVisor kernel, which holds
        what a program made after the program is gone: no more of its memory than SENTRY_REST_MB over
        its start (socket buffers: the next job's cgroup paid for them), and at most half of
        host_threads_per_sandbox (Go parks the threads a burst of processes made: each job's added up
        until an innocent job crossed the budget); on a box with a memory cgroup, no more memory that is no page cache
        than REST_GROWTH_MB over its birth (rest_now: a stat storm's dentries, red team rt30ab). If not, the pool
        replaces it (red team of issue 22), so no job pays for an earlier job's leftovers and each starts with half the
        thread budget free."""
        now, threads = self.sentry_mb(box), self.host_threads(box)
        if now >= 0 and box.sentry_mb >= 0 and now - box.sentry_mb > SENTRY_REST_MB:
            # acted on only once settled (watchdog.settled: one reading can catch a transient);
            # unsettled, the largest (replacing a box is the safe side)
            now = watchdog.settled(lambda: self.sentry_mb(box))
        memory_ok = now < 0 or box.sentry_mb < 0 or now - box.sentry_mb <= SENTRY_REST_MB
        rest = self.rest_now(box)  # and no more kernel memory charged to its cgroup than at its birth (REST_GROWTH_MB)
        if rest >= 0 and box.rest_birth_mb >= 0 and rest - box.rest_birth_mb > REST_GROWTH_MB:
            rest = watchdog.settled(lambda: self.rest_now(box))
        rest_ok = rest < 0 or box.rest_birth_mb < 0 or rest - box.rest_birth_mb <= REST_GROWTH_MB
        own = self.sandbox_mb(box)  # and nothing of the job in the sandbox's own memory (LEFTOVER_MB)
        own_ok = own < 0 or box.sandbox_rest_mb < 0 or own - box.sandbox_rest_mb <= LEFTOVER_MB + (sum(box.stash.values()) >> 20)
        return (memory_ok and rest_ok and own_ok and threads <= self.config.host_threads_per_sandbox // 2
                and not box.limit_unset)

    def sandbox_mb(self, box: Box) -> int:
        """The sandbox's own memory under gVisor (its memory file: its processes' pages, tmpfs, SysV
        segments), under runc what its cgroup holds that no process needs to (DockerBackend), MB;
        -1 where it cannot be read."""
        return -1

    def kill(self, box: Box) -> None:
        """Stop a box at once (a cancelled job): the job thread then sees its channel close."""
        box.dead = True
        self._kill_sandbox(box.container)
        box.channel.close()

    def _kill_sandbox(self, sandbox: Any) -> None:
        """Kill the sandbox `kill` stops (a container, or a process the daemonless backends started)."""
        raise NotImplementedError

    def _stop_process(self, box: Box, what: str) -> None:
        """Kill a box whose sandbox is a process this server started (gVisor's runsc, userns's bubblewrap)
        and wait for that process, so that removing its folders follows its end."""
        self.kill(box)
        try:
            box.container.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            log.warning("sandbox: %s of %s did not exit", what, box.container.id)

    def death_note(self, box: Box) -> str:
        """How a box whose channel closed mid-job ended, as the host sees it (the host killed it, its
        exit status, its runtime's last words): said in the infra_error's detail and the log, so a
        sandbox that dies by itself is told apart from one the host stopped."""
        return "the host stopped it" if box.dead else ""

    def remove(self, box: Box) -> None:
        """Stop a box and wipe everything of it (its processes, files, state)."""
        raise NotImplementedError

    def oom_killed(self, box: Box, wait_s: float = 3.0) -> bool:
        """Whether the box died because its memory went over its limit (the program's verdict)."""
        raise NotImplementedError

    def set_memory(self, box: Box, mb: int) -> None:
        """The box's memory limit (no swap) for its next step."""
        raise NotImplementedError

    def overhead_mb(self, box: Box, language: str) -> int:
        """What a step's limit adds to its own memory (the program's, a compile's) for what is not the step's: what
        the box held at rest when its job began (Box.rest_mb, begins: the runner, its stash aside, and the warm
        interpreter, never more than at the box's birth) plus what a run adds to the runner at most (SandboxConfig.capture_mb), never more than the fixed
        allowance (SandboxConfig.overhead_mb), which is all a backend that reads no rest gives. The fixed allowance
        holds the page cache a box's processes map, which a cgroup charges to whichever box read a file first: a
        box that was not first held 29 MB at rest against the 96 MB allowed for Python, and a program had its limit
        plus some 64 MB (80 MB touched under a 16 MB limit was `accepted` under runc and userns: h30x)."""
        fixed = self.config.overhead_mb(language)
        return fixed if box.rest_mb < 0 else min(fixed, box.rest_mb + self.config.capture_mb())

    def reap(self) -> int:
        """Remove sandboxes whose owning server is gone; how many."""
        raise NotImplementedError

    def remove_own(self) -> None:
        """Remove every sandbox this server still owns (at close)."""
        raise NotImplementedError

    def close(self) -> None:
        """Release the backend's own resources (clients, state dirs)."""

    def describe(self) -> str:
        """Where sandboxes come from, for messages ('the Docker daemon at ...')."""
        return self.name

    def build_hint(self) -> str:
        """What to run when no language has its image."""
        return "run `verifier sandbox build`"

    def down_reason(self, e: BaseException) -> str:
        """`unavailable_reason()` when probe() failed: what is wrong and what to do."""
        return f"{self.describe()} failed ({type(e).__name__}: {e})"


# ----------------------------------------------------------------------------- Docker
def _visible_cgroup(container_id: str, pid: int) -> dict[str, str]:
    """The container's cgroup folders as this server sees them, or {} where it cannot: a server in a
    container of its own (compose, the k8s Docker-socket pod) has another pid namespace, where the
    container's host pid is no process or another one, and its own cgroup view. Then the leftover
    check of sandbox_mb is not made (it answers -1), never a failed start: every code task was
    infra_error in the compose deployment when this read raised."""
    try:
        dirs = watchdog.cgroup_dirs(pid)
    except (OSError, ValueError):
        return {}
    return dirs if dirs and all(container_id in d for d in dirs.values()) else {}


# Under gVisor only (Docker's runsc runtime here, the gVisor backend's OCI spec): gVisor's kernel's
# CAP_SYS_ADMIN and CAP_SETPCAP for PID 1's first lines alone, to mount gVisor's cgroupfs as its CPU
# clock and then drop both from the bounding set before any other process exists
# (sandbox/harness/accounting.py mount_cpu_clock; docs/sandboxes.md "CPU time without a cgroup").
GVISOR_CLOCK_CAPS = ("SYS_ADMIN", "SETPCAP")


def container_kwargs(config: SandboxConfig, image: str, language: str, mem_mb: int, program_uid: int = 0,
                     env: str = "") -> dict:
    """The hardening, in one place: no network, read-only root, capped tmpfs (/work noexec unless
    the language's program is a binary there), no capabilities once the runner runs, two uids,
    no-new-privileges, default seccomp, non-root, pids/memory(=memory+swap)/CPU limits,
    single-threaded math libraries, no host mounts (but `env`, read-only), a clean environment. stdin_once: the runner's
    stdin closes when the server's attach connection does, so a server that dies without a graceful
    stop leaves exited containers (the runner ends on EOF), which any later server reaps. docker-py
    sets StdinOnce from detach=False with stdin_open (create() starts nothing either way). The
    program runs as `program_uid` (and that gid) where given (DockerBackend: one per container,
    PROGRAM_UID_BASE), else config.user. `env`: a repository environment's tree, bound read-only at
    ENV_MOUNT (the one host folder a sandbox sees; docs/repo-tasks.md "Warm environments")."""
    tmpfs_opts = f"nosuid,nodev,nr_inodes={config.tmpfs_inodes}"
    program = f"{program_uid}:{program_uid}" if program_uid else config.user
    tmpfs = {
        "/work": f"rw,{'exec' if LANGUAGES[language].exec_work else 'noexec'},{tmpfs_opts},size={config.work_tmpfs_mb}m,mode=0700,uid={program.split(':')[0]},gid={program.split(':')[-1]}",
        "/tmp": f"rw,noexec,{tmpfs_opts},size={config.tmp_tmpfs_mb}m,mode=1777",
    }
    if program_uid:  # the program's name for its uid of its own (sandbox/harness/pid1.py write_ids): PID 1 writes it
        tmpfs["/run/ids"] = "rw,noexec,nosuid,nodev,size=64k,nr_inodes=16,mode=0755"
    kwargs = dict(
        image=image, detach=False, stdin_open=True, tty=False,
        network_mode="none", read_only=True, ipc_mode="none",
        tmpfs=tmpfs,
        # root with CAP_SETUID and CAP_SETGID only until the runner's first lines: it takes two
        # non-root uids (the judge's and the program's) and drops both (sandbox/harness/pid1.py)
        cap_drop=["ALL"], cap_add=["SETUID", "SETGID"], security_opt=["no-new-privileges"], user="0:0",
        pids_limit=config.pids_limit, mem_limit=f"{mem_mb}m", memswap_limit=f"{mem_mb}m",
        nano_cpus=int(config.container_cpus * 1e9), oom_score_adj=500,
        ulimits=[Ulimit(name="nofile", soft=config.nofile_limit, hard=config.nofile_limit),
                 Ulimit(name="core", soft=0, hard=0)],
        environment=sandbox_env(config, language, program), hostname="sandbox", working_dir="/work",
        labels={LABEL: "1", LABEL_POOL: config.pool_name, LABEL_OWNER: OWNER, LABEL_STARTED: STARTED,
                LABEL_LANG: language},
        init=False, auto_remove=False, log_config={"type": "none"},
    )
    if env:
        kwargs["mounts"] = [Mount(ENV_MOUNT, env, type="bind", read_only=True)]
        tmpfs[TREE_MOUNT] = ",".join(["rw", *tree_mount_options(config, language, program.split(":")[-1])])
    if config.runtime:
        kwargs["runtime"] = config.runtime
    if config.runtime == "runsc":  # the watchdog holds mem_mb (DockerBackend.set_memory)
        cap = max(mem_mb, runsc_memory_mb(config, language))
        kwargs.update(mem_limit=f"{cap}m", memswap_limit=f"{cap}m")
        kwargs["cap_add"] = ["SETUID", "SETGID", *GVISOR_CLOCK_CAPS]
    limit_pids(kwargs, config, config.pids_limit)
    return kwargs


# Under Docker's runsc runtime the container's pids cgroup counts gVisor's own host threads (its Go
# kernel and the ptrace platform's stubs), not the program's processes: 64 of them killed a session's
# sandbox whenever a cell spun the CPU (Go's "failed to create new OS thread", exit 2; measured: 4 of 4
# at 64, 0 of 4 at 1024). The program's processes are counted by RLIMIT_NPROC inside the sandbox, which
# gVisor enforces (as the gVisor backend does: sandbox/gvisor.py). The host threads grow with processes
# x Sentry threads (each process's stub gets a host thread for every Sentry thread that ever ran it:
# 128 processes making system calls without pause reached 4.4-5.4k on 2 cores), so the host's
# watchdog (sandbox/watchdog.py) bounds them at SandboxConfig.host_threads_per_sandbox, killing the
# program (its runtime_error); the cgroup gets that budget plus this margin as a backstop the
# watchdog's period (WATCH_S) cannot overshoot: one home for the number, the config field.
RUNSC_HOST_PIDS_MARGIN = 1024
# Under Docker's runsc runtime the watchdog samples memory every WATCH_S, and a burst between two samples
# escaped it (a 200 MB program under a 64 MB limit was accepted; 330 MB under 256 MB under load, issue 30).
# So the container's memory cgroup is each step's limit plus what gVisor holds that the host's kernel cannot
# reclaim, besides the sandbox's own memory (its memory file), when the job begins (DockerBackend._cap_runsc):
# no margin, so the host's kernel OOM-kills the sandbox (the program's memory_limit) the moment the sandbox's
# memory and gVisor's growth since then pass the limit, as a runc container's cgroup does, whatever the period.
# It was that rest (read once, at the box's first step) plus the limit plus a 64 MB margin, which a program
# over its limit by less than the margin escaped between samples (docs/sandboxes.md "Sandbox backends").


def runsc_memory_mb(config: SandboxConfig, language: str) -> int:
    """Under Docker's runsc runtime (no `runsc update`): the container's memory cgroup, set once at
    start, is a backstop at the largest box any of the language's steps asks for (a checker's
    reference run doubles the limit: sandbox/job.py _with_room); the watchdog holds each step
    to its own limit (Box.mem_mb)."""
    lim = config.limits_for(language)
    return 2 * (max(lim.max_memory_limit_mb, lim.compile_memory_mb) + config.overhead_mb(language) + config.call_cache_mb)


def limit_pids(kwargs: dict, config: SandboxConfig, pids: int) -> None:
    """The container's process limit: its pids cgroup, or under runsc RLIMIT_NPROC, the pids cgroup then
    a backstop for gVisor's host threads (host_threads_per_sandbox + RUNSC_HOST_PIDS_MARGIN)."""
    if config.runtime == "runsc":
        kwargs["pids_limit"] = config.host_threads_per_sandbox + RUNSC_HOST_PIDS_MARGIN
        kwargs["ulimits"] = [u for u in kwargs["ulimits"] if u["Name"] != "nproc"] + [Ulimit(name="nproc", soft=pids, hard=pids)]
    else:
        kwargs["pids_limit"] = pids


def connect(config: SandboxConfig) -> docker.DockerClient:
    """A client with a short timeout: a hung daemon must not hang grading."""
    if config.docker_url:
        return docker.DockerClient(base_url=config.docker_url, timeout=30)
    return docker.from_env(timeout=30)


def reap_decision(labels: dict, running: bool, finished_age_s: float | None, pool_name: str) -> bool:
    """Whether a labelled container is a dead server's leftover to remove. Never our own. Yes when
    its owner is a process of this host that is gone (whatever its pool), when it is of our pool
    and from another host (today's rule: a restarted pod reuses its name), or when it exited long
    enough ago (a live owner removes its dead boxes within seconds; a dead owner's runner exits
    when the attach connection closes: stdin_once)."""
    owner, started = labels.get(LABEL_OWNER, ""), labels.get(LABEL_STARTED, "")
    if owner == OWNER and started in ("", STARTED):
        return False
    alive = owner_alive(owner, started)
    if alive is False:
        return True
    if alive is None and labels.get(LABEL_POOL) == pool_name:
        return True
    return not running and finished_age_s is not None and finished_age_s > EXITED_GRACE_S


def _age_s(iso: str) -> float | None:
    """Seconds since a Docker timestamp ('2026-11-26T09:41:22.123456789Z'); None if unreadable."""
    try:
        t = datetime.fromisoformat(iso[:26].rstrip("Z") + "+00:00") if iso else None
    except ValueError:
        return None
    return None if t is None or t.year < 2000 else (datetime.now(timezone.utc) - t).total_seconds()


class DockerBackend(Backend):
    """Sandboxes as hardened containers of the Docker daemon (docs/sandboxes.md "Code sandboxes")."""

    name = "docker"

    def __init__(self, config: SandboxConfig) -> None:
        self.config = config
        self._client = None
        # under runsc: the host's watchdog over each container's cgroup (sandbox/watchdog.py, RUNSC_HOST_PIDS_MARGIN)
        self._watched: dict[str, tuple[Box, dict[str, str]]] = {}  # container id -> (box, its cgroup folders)
        self._mem_files: dict[str, str] = {}  # container id -> its gVisor memory file ("": not readable here)
        self._cgroups: dict[str, dict[str, str]] = {}  # under runc: container id -> its cgroup folders (sandbox_mb)
        self._lock = threading.Lock()
        self._watch = watchdog.Watchdog("sandbox-watch", self._watched_boxes, self._usage, self._over_limit,
                                        config.host_threads_per_sandbox) if config.runtime == "runsc" else None
        self.over_limit_ends_sandbox = config.runtime == "runsc"

    @property
    def client(self):
        """The daemon's client, made on first use (connect)."""
        if self._client is None:
            self._client = connect(self.config)
        return self._client

    def describe(self) -> str:
        url = self.config.docker_url or os.environ.get("DOCKER_HOST") or "unix:///var/run/docker.sock"
        return f"the Docker daemon at {url}"

    def probe(self) -> None:
        self.client.ping()
        if self._watch is not None:
            self._watch.start()

    def build_hint(self) -> str:
        return "run `verifier sandbox build` (needs a Docker daemon; scripts/ensure_docker.sh starts one)"

    def down_reason(self, e: BaseException) -> str:
        url = self.config.docker_url or os.environ.get("DOCKER_HOST") or "unix:///var/run/docker.sock"
        return (f"no Docker daemon at {url} ({type(e).__name__}): run "
                "scripts/ensure_docker.sh, then `verifier sandbox build`")

    def find_images(self, languages: tuple[str, ...]) -> tuple[dict[str, str], list[str]]:
        """Each language's image by the labels `verifier sandbox build` gives it (build.find_image):
        the same recipe hash here as on the host that built it (docs/sandboxes.md "Code sandboxes")."""
        from .build import find_image
        found, missing = {}, []
        for lang in languages:
            image = find_image(self.client, lang, self.config.image_prefix)
            if image:
                found[lang] = image
            else:
                missing.append(lang)
        return found, missing

    def start(self, language: str, image: str, mem_mb: int, env: str = "") -> Box:
        return self._start(language, lambda uid: container_kwargs(self.config, image, language, mem_mb, uid, env), mem_mb,
                           runner_ready)

    def start_session(self, language: str, image: str, mem_mb: int, pids_limit: int, env: str = "") -> Box:
        """Root at start, so the attach FIFOs are root's (0600) and no cell opens them, even under
        Docker's runsc runtime, whose /proc opens a FIFO by its owner (docs/architecture.md "Sessions")."""
        def make(uid: int) -> dict:
            kwargs = container_kwargs(self.config, image, language, mem_mb, uid, env)
            kwargs["command"] = SESSION_ARGV
            limit_pids(kwargs, self.config, pids_limit)
            kwargs["labels"] = {**kwargs["labels"], LABEL_SESSION: "1"}
            return kwargs
        box = self._start(language, make, mem_mb, session_ready)
        box.session = True
        return box

    def _create(self, make: Callable[[int], dict]) -> Any:
        """A container whose program has a host uid of its own (PROGRAM_UID_BASE): a uid drawn at
        random, claimed by the container's name, which the daemon gives one container at a time
        (409 Conflict: another container, of any server on the daemon, holds it; draw again).
        Under Docker's runsc runtime config.user: the uid is gVisor's kernel's, whose per-user
        counts are that sandbox's own."""
        if self.config.runtime == "runsc":  # the program's uid is gVisor's kernel's, and so are its counts
            return self.client.containers.create(**make(0))
        for _ in range(UID_TRIES):
            uid = PROGRAM_UID_BASE + secrets.randbelow(PROGRAM_UIDS)
            try:
                return self.client.containers.create(name=f"{NAME_PREFIX}{uid}", **make(uid))
            except docker.errors.APIError as e:
                if e.status_code != 409:
                    raise
        raise ChannelError(f"no free program uid for a sandbox in {UID_TRIES} draws")

    def _start(self, language: str, make: Callable[[int], dict], mem_mb: int, ready) -> Box:
        c = self._create(make)
        try:
            sock = self.client.api.attach_socket(c.id, params={"stdin": 1, "stdout": 1, "stream": 1})
            ch = Channel(sock)
            if self._watch is not None:  # under runsc: a kill lands only on the request it read (watchdog.WatchedChannel)
                ch = watchdog.WatchedChannel(sock)
                ch.threads_max = self.config.host_threads_per_sandbox
            c.start()
            head, _ = ch.request({"op": "ping"}, timeout_s=self.config.start_timeout_s)
            if not ready(head):
                raise ChannelError(f"sandbox PID 1 answered {head!r}")
            box = Box(language=language, container=c, channel=ch, mem_mb=mem_mb)
            if self._watch is not None:  # its cgroup, found from its host process (v1 or v2, any driver)
                pid = self.client.api.inspect_container(c.id)["State"]["Pid"]
                dirs = watchdog.cgroup_dirs(pid)
                watchdog.cgroup_usage(dirs)  # readable, or this container cannot be watched: never used
                if isinstance(ch, watchdog.WatchedChannel):  # docs/sandboxes.md "CPU time without a cgroup"
                    ch.host_cpu = lambda _fresh: watchdog.cgroup_cpu(dirs)
                with self._lock:
                    self._watched[c.id] = (box, dirs)
                    self._mem_files[c.id] = watchdog.memory_file([pid])
                box.sandbox_rest_mb = self.sandbox_mb(box)
                self._cap_runsc(box)
                self._watch.start()
            else:  # under runc: what its cgroup holds that no process does (sandbox_mb), read after each reset
                dirs = _visible_cgroup(c.id, self.client.api.inspect_container(c.id)["State"]["Pid"])
                if dirs:
                    with self._lock:
                        self._cgroups[c.id] = dirs
                box.sandbox_rest_mb = self.sandbox_mb(box)
        except BaseException:
            self._remove(c)
            raise
        return box

    def memory_bytes(self, box: Box) -> int:
        """The container's memory cgroup usage (cgroup v1 or v2 layout of the host)."""
        cid = box.container.id
        for path in (f"/sys/fs/cgroup/memory/docker/{cid}/memory.usage_in_bytes",
                     f"/sys/fs/cgroup/system.slice/docker-{cid}.scope/memory.current"):
            try:
                with open(path) as f:
                    return int(f.read())
            except (OSError, ValueError):
                continue
        return 0

    def remove(self, box: Box) -> None:
        box.dead = True
        box.channel.close()
        self._remove(box.container)
        with self._lock:
            self._watched.pop(box.container.id, None)
            self._mem_files.pop(box.container.id, None)
            self._cgroups.pop(box.container.id, None)

    def sentry_mb(self, box: Box) -> int:
        """Under runsc: the container's anonymous memory (its cgroup's memory.stat: gVisor's Go heaps;
        the sandbox's own memory is gVisor's memory file, shared memory, not counted here). Under runc
        none (-1)."""
        if not self.over_limit_ends_sandbox:
            return -1
        with self._lock:
            dirs = self._watched.get(box.container.id, (None, {}))[1]
        folder = dirs.get("memory") or dirs.get("")
        try:
            with open(os.path.join(folder or "", "memory.stat")) as f:
                for line in f:
                    key, _, value = line.partition(" ")
                    if key == ("total_rss" if "memory" in dirs else "anon"):
                        return int(value) >> 20
        except OSError:
            pass
        return -1

    def _watched_boxes(self) -> list[Box]:
        with self._lock:
            return [box for box, _ in self._watched.values()]

    def _usage(self, box: Box) -> watchdog.Usage:
        """Under runsc: the container's tasks (gVisor's host threads) from its cgroup, and its memory
        as the gVisor backend counts it (docs/sandboxes.md "Sandbox backends"): gVisor's memory file
        (the program's pages and tmpfs) plus what gVisor's Go heaps grew since the job began. The
        whole cgroup also holds the Sentry's and gofer's rest and gVisor's copies of the files it
        read (63 MB at rest against runc's 32), so a right answer near its limit was memory_limit
        here and accepted under runc and the gVisor backend. The cgroup alone where the memory file
        cannot be read from here (another user's process)."""
        with self._lock:
            dirs = self._watched[box.container.id][1]
            mem_file = self._mem_files.get(box.container.id, "")
        use = watchdog.cgroup_usage(dirs)
        firm = self._file_mb(mem_file)
        if firm < 0:
            return use
        kernel = self.sentry_mb(box) - box.sentry_base if box.sentry_base >= 0 else 0
        return watchdog.Usage(mem_mb=firm + max(0, kernel), threads=use.threads, firm_mb=firm)

    @staticmethod
    def _file_mb(mem_file: str) -> int:
        try:
            return (os.stat(mem_file).st_blocks * 512) >> 20 if mem_file else -1
        except OSError:
            return -1

    def sandbox_mb(self, box: Box) -> int:
        """Under runsc: gVisor's memory file, or where it cannot be read the cgroup's memory less
        gVisor's Go heaps (sentry_mb). Under runc: the cgroup's memory that no process needs to hold
        (watchdog.unheld_mb: shared memory and socket buffers), so that a memfd a job sent in flight
        to a socketpair of its own (a cycle no process holds, no name lists) replaces the box, as
        gVisor's memory file does: the next job's right answer was memory_limit (red team of issue 30)."""
        with self._lock:
            dirs = self._watched.get(box.container.id, (None, None))[1]
            mem_file = self._mem_files.get(box.container.id, "")
            own = self._cgroups.get(box.container.id)
        if own is not None:
            try:
                return watchdog.unheld_mb(own)
            except OSError:
                return -1
        if (firm := self._file_mb(mem_file)) >= 0:
            return firm
        try:
            return max(0, watchdog.cgroup_usage(dirs).mem_mb - max(0, self.sentry_mb(box))) if dirs else -1
        except OSError:
            return -1

    def host_threads(self, box: Box) -> int:
        with self._lock:
            watched = box.container.id in self._watched
        try:
            return self._usage(box).threads if watched else -1
        except OSError:
            return -1

    def _over_limit(self, box: Box, reason: str) -> None:
        """Under runsc the host cannot reach the program's processes inside gVisor's kernel: the
        whole container goes, its reason recorded first (oom_killed, death_note, the job's verdict)."""
        box.killed = reason
        try:
            box.container.kill()
        except docker.errors.APIError:
            pass  # exited meanwhile

    def _kill_sandbox(self, sandbox: Any) -> None:
        try:
            sandbox.kill()
        except docker.errors.APIError:
            pass  # exited meanwhile

    def death_note(self, box: Box) -> str:
        try:
            st = self.client.api.inspect_container(box.container.id)["State"]
        except Exception as e:  # noqa: BLE001 - removed already, or the daemon is down: say which
            return f"container gone ({type(e).__name__})"
        if box.killed:
            return f"the host's watchdog killed it (over its {box.killed} limit)"
        said = f"{'the host stopped it; ' if box.dead else ''}container {st.get('Status')}, exit {st.get('ExitCode')}"
        return f"{said}, oom {st.get('OOMKilled')}{', ' + str(st['Error'])[:300] if st.get('Error') else ''}"

    def oom_killed(self, box: Box, wait_s: float = 3.0) -> bool:
        """Under gVisor as Docker's runtime (runsc) a program over its memory limit takes the
        sandbox's kernel with it, so its death is the program's verdict; so does the host's watchdog
        killing it for memory (sandbox/watchdog.py). Under runc a program's OOM kill leaves the box
        serving, and Docker's OOMKilled says at its exit whether any OOM kill ever came: the job's
        only where the cgroup had none when the job or session began (Box.oom_base; red team rt30aa:
        a box the host killed under an innocent job after an earlier job's OOM was that job's
        memory_limit). Unknown there, it is no known OOM (the sandbox's failure: retried)."""
        if box.killed == watchdog.MEMORY:
            return True
        if not self.over_limit_ends_sandbox and box.oom_base != 0:
            return False
        try:
            self.client.api.wait(box.container.id, timeout=wait_s)
            return bool(self.client.api.inspect_container(box.container.id)["State"].get("OOMKilled"))
        except Exception:  # still running, gone, or the daemon is down: not a known OOM
            return False

    def set_memory(self, box: Box, mb: int) -> None:
        """runc: the container's memory cgroup (docker update). runsc has no `update` (Debian's
        20221219): the server writes the cgroup itself (_cap_runsc), and the host's watchdog reads the
        box against mem_mb as well."""
        if box.mem_mb == mb:
            return
        if self._watch is not None:
            box.mem_mb = mb
            self._cap_runsc(box)
            return
        self.client.api.update_container(box.container.id, mem_limit=f"{mb}m", memswap_limit=f"{mb}m")
        box.mem_mb = mb

    def memory_cgroup(self, box: Box) -> dict[str, str]:
        """Under runc the container's memory cgroup folder (found at its start: _visible_cgroup); under runsc none
        (gVisor's readings: begins, _rest_mb)."""
        with self._lock:
            own = self._cgroups.get(box.container.id) or {}
        return {k: v for k, v in own.items() if k in ("memory", "")}

    def begins(self, box: Box) -> None:
        """Backend.begins; under runsc also what gVisor holds besides the sandbox's memory now, settled (a single
        reading can catch a transient: watchdog.settled), is the job's (Box.gvisor_rest_mb), and the cgroup is set
        from it (_cap_runsc): a job's limit never inherits an earlier job's rest."""
        super().begins(box)
        if self._watch is None:
            return
        box.gvisor_rest_mb = watchdog.settled(lambda: self._rest_mb(box))
        self._cap_runsc(box)

    def _rest_mb(self, box: Box) -> int:
        """Under runsc: what the container's cgroup holds that the host's kernel cannot reclaim (its usage
        less the page cache: cgroups.unreclaimable_mb), less gVisor's memory file: the Sentry's and gofer's
        heaps and kernel memory (page tables, the platform's stubs). -1 where either cannot be read."""
        with self._lock:
            entry = self._watched.get(box.container.id)
            mem_file = self._mem_files.get(box.container.id, "")
        firm = self._file_mb(mem_file)
        if entry is None or firm < 0:
            return -1
        try:
            return max(0, host_cgroups.unreclaimable_mb(entry[1]) - firm)
        except OSError:
            return -1

    def _cap_runsc(self, box: Box) -> None:
        """Under runsc: the container's cgroup at the step's limit plus gVisor's rest when the job began
        (begins; at the box's start, read then), no margin: the host's kernel holds the limit for the
        whole sandbox, deterministically (the note above runsc_memory_mb), never above its
        backstop (runsc_memory_mb). Where the memory file cannot be read (a server that is not the
        container's user) the backstop stays, and the watchdog's samples hold the limit; where the cgroup
        cannot be written (a server that is not root on the host) or not lowered (EBUSY), it stays as
        it was, said at warning: the limit is then the watchdog's alone, and a box not lowered is
        replaced after its job (`Box.limit_unset`, `at_rest`), so no later job starts above its limit (red
        team rt34r)."""
        with self._lock:
            entry = self._watched.get(box.container.id)
        if entry is None:
            return
        if box.gvisor_rest_mb < 0:
            box.gvisor_rest_mb = watchdog.settled(lambda: self._rest_mb(box))
        if box.gvisor_rest_mb < 0:
            return
        try:
            backstop = max(box.mem_mb, runsc_memory_mb(self.config, box.language))
            watchdog.set_cgroup_memory(entry[1], min(backstop, box.mem_mb + box.gvisor_rest_mb))
        except OSError as e:
            log.warning("sandbox: %s memory cgroup not set (its limit is the watchdog's alone): %s", box.container.id[:12], e)
            if e.errno == errno.EBUSY:  # not lowered (after a checker's doubled room): replaced after this job
                box.limit_unset = True

    def _remove(self, c) -> None:
        try:
            c.remove(force=True)
        except docker.errors.NotFound:
            pass
        except docker.errors.APIError as e:
            log.warning("sandbox: could not remove %s: %s", c.id[:12], e)

    def reap(self) -> int:
        """One listing call (rows, not per-container look-ups: other servers on the daemon remove
        containers meanwhile); a container gone before we get to it is not an error."""
        removed = 0
        for row in self.client.api.containers(all=True, filters={"label": [LABEL]}):
            running = row.get("State") in ("running", "restarting", "paused", "created")
            try:
                age = None if running else _age_s(self.client.api.inspect_container(row["Id"])["State"].get("FinishedAt", ""))
                if reap_decision(row.get("Labels") or {}, running, age, self.config.pool_name):
                    self.client.api.remove_container(row["Id"], force=True)
                    removed += 1
            except docker.errors.APIError:  # gone meanwhile, or being removed by its owner
                continue
        return removed

    def remove_own(self) -> None:
        try:
            for c in self.client.containers.list(all=True, filters={"label": [f"{LABEL_OWNER}={OWNER}", f"{LABEL_POOL}={self.config.pool_name}"]}):
                self._remove(c)
        except docker.errors.DockerException as e:
            log.warning("sandbox: listing own containers failed: %s", e)

    def close(self) -> None:
        if self._watch is not None:
            self._watch.stop()
        if self._client is not None:
            self._client.close()

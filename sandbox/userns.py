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
CAP_SETGID for the runner's first lines, and the program syscall policy (sandbox/harness/syscalls.py: an
allowlist, Docker's default profile's refusals among its EPERMs, namespaces and mounts too) before the runner's
exec, which the runner installs again on itself as on every backend (pid1.harden).

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

import itertools
import json
import logging
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import watchdog
from . import cgroups as host_cgroups
from .cgroups import own_cgroups
from .backend import (ENV_MOUNT, SESSION_ARGV, STARTED, TREE_MOUNT, Backend, Box, runner_ready, sandbox_env, server_gone,
                      session_ready, tree_mount_options)
from .channel import ChannelError
from .config import SandboxConfig
from .gvisor import RUNNER_ARGV, RawChannel
from .harness.syscalls import seccomp_filter
from .languages import LANGUAGES
from .userns_launch import can_unshare_user, landlock_abi, program_id

log = logging.getLogger(__name__)

LAUNCH = str(Path(__file__).with_name("userns_launch.py"))
# The host ids the namespace's 0..65535 map to: far above any account, so a process that leaves
# the sandbox's namespaces is nobody on the host. Every sandbox shares them (its runner's and
# judges' ids), bar the program's (id_map): nothing keyed by a host uid is reachable from inside
# (the kernel keyrings are refused: sandbox/harness/syscalls.py DENIED).
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
_BACKENDS = itertools.count(1)
BWRAP_EXTRA_PIDS = 1  # bubblewrap's own process outside the pid namespace, in the sandbox's cgroup
LAUNCH_TRIES = 8  # launches given a quarantined uid's pid in a row before a start fails (UsernsBackend._unquarantined)

# ------------------------------------------------------------------ cgroups
# The refusal where the server may make no cgroup (UsernsBackend.probe): what is missing, what to use
# instead and how to give the server one (docs/sandboxes.md "Sandbox backends"). cgroup v2 (own_cgroups)
# is taken only where the server's own cgroup already enables the controllers for its children, which
# v2 allows the root cgroup alone (no other may both hold processes and enable them): a server in a
# delegated v2 cgroup (systemd Delegate=yes) is refused today, so the message does not offer it.
NO_CGROUP = ("no cgroup of its own to hold each sandbox's CPU and kernel memory: use --sandbox-backend gvisor, or "
             "give it one (cgroup v1 folders chowned to the server's uid, the server started in them)")


@dataclass
class Sandbox:
    """One userns sandbox: bubblewrap's process, its PID 1 on the host, its cgroup folders."""

    id: str
    proc: subprocess.Popen
    pid1: int = 0  # the runner's host pid (bubblewrap's --info-fd)
    cgroups: dict[str, str] = field(default_factory=dict)  # controller -> folder
    said: object = None  # the launch's stderr file (a failed start's reason)
    lock: threading.Lock = field(default_factory=threading.Lock)


@dataclass
class Launch:
    """One launch process (userns_launch.py) waiting for its uid map, and the server's ends of its socket and pipes."""

    proc: subprocess.Popen
    mine: socket.socket
    ready_r: int
    go_w: int
    info_r: int
    said: Any  # the launch's stderr file

    def discard(self) -> None:
        """Kill a launch that never went on (UsernsBackend._unquarantined) and close its ends."""
        self.proc.kill()
        self.proc.wait()
        for fd in (self.ready_r, self.go_w, self.info_r):
            os.close(fd)
        self.mine.close()
        self.said.close()


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
        # Host uids (program_id) of sandboxes whose cgroup stayed busy at remove, even after SIGKILL
        # (host_cgroups.rmdir): a process of one may still run as that uid, so no later launch given the
        # same pid may have it (_unquarantined).
        self.quarantined: set[int] = set()
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
                    host_cgroups.write(d, "cgroup.subtree_control", "+memory +pids +cpu")

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
        busy = [folder for folder in sb.cgroups.values() if not host_cgroups.rmdir(folder)]
        if busy and self.mode == "uids":  # landlock: every sandbox's program has one uid anyway
            with self._lock:
                self.quarantined.add(program_id(sb.proc.pid))
            log.error("sandbox: %s outlived SIGKILL in %s: its program uid %d is quarantined", sb.id,
                      ", ".join(busy), program_id(sb.proc.pid))
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
        return bool(sb.cgroups) and _oom_kills(sb.cgroups) > max(0, box.oom_base)

    def memory_cgroup(self, box: Box) -> dict[str, str]:
        """The sandbox's memory cgroup folder (v1 or v2), where it has one: its OOM kills and rest are read there when
        each job or session begins (Backend.begins), so a sandbox that dies later in the job is the program's
        memory_limit only when an OOM kill came after it (oom_killed)."""
        sb: Sandbox = box.container
        return {k: v for k, v in sb.cgroups.items() if k in ("memory", "")}

    def set_memory(self, box: Box, mb: int) -> None:
        """The cgroup's limit (memory = memory + swap: _set_cgroup_memory)."""
        sb: Sandbox = box.container
        if sb.cgroups and box.mem_mb != mb:
            _set_cgroup_memory(sb.cgroups, mb)
        box.mem_mb = mb

    def reap(self) -> int:
        """Cgroup folders of this host's dead servers (their sandboxes died with them: --die-with-parent)."""
        return host_cgroups.reap(self._parents, "grpo-userns-", set(self._cgroup_base.values()), server_gone)

    def remove_own(self) -> None:
        with self._lock:
            boxes = list(self._boxes.values())
        for box in boxes:
            self.remove(box)

    def close(self) -> None:
        self.remove_own()
        for d in self._cgroup_base.values():
            host_cgroups.rmdir(d)
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
        try:
            launch = self._unquarantined(lambda: self._launch(language, rootfs, argv, cgroups, env))
        except BaseException:
            for d in cgroups.values():
                host_cgroups.rmdir(d)
            raise
        proc, said, mine = launch.proc, launch.said, launch.mine
        ready_r, go_w, info_r = launch.ready_r, launch.go_w, launch.info_r
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

    def _launch(self, language: str, rootfs: str, argv: list[str], cgroups: dict[str, str], env: str) -> Launch:
        """Start the sandbox's launch process, which waits for its uid map (_map)."""
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
                stderr=said, pass_fds=(ready_w, go_r, info_w, filt), start_new_session=True)
        except BaseException:
            for fd in (ready_r, go_w, info_r):
                os.close(fd)
            mine.close()
            said.close()
            raise
        finally:
            theirs.close()
            for fd in (ready_w, go_r, info_w, filt):
                os.close(fd)
        return Launch(proc, mine, ready_r, go_w, info_r, said)

    def _unquarantined(self, launch: Callable[[], Launch]) -> Launch:
        """A launch whose program uid (program_id of its pid) is not quarantined. One that is never
        gets its uid map: it is held, unreaped, until the next launch has a pid (so that one cannot be
        given the same pid again), then killed."""
        refused: list[Launch] = []
        try:
            for _ in range(LAUNCH_TRIES):
                got = launch()
                with self._lock:
                    ok = program_id(got.proc.pid) not in self.quarantined
                if ok:
                    return got
                log.warning("sandbox: launch pid %d maps to the quarantined uid %d: launching again",
                            got.proc.pid, program_id(got.proc.pid))
                refused.append(got)
            raise ChannelError(f"{LAUNCH_TRIES} launches in a row were given a pid whose program uid is quarantined")
        finally:
            for r in refused:
                r.discard()

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
            host_cgroups.write(folder, "cgroup.procs", proc.pid)
        os.write(go_w, b"g")

    def _make_cgroups(self, sid: str, mem_mb: int, pids: int) -> dict[str, str]:
        """The sandbox's own cgroup folders with its limits, before anything of it runs."""
        made = host_cgroups.make(self._cgroup_base, sid)
        try:
            _set_cgroup_memory(made, mem_mb)
            quota = int(self.config.container_cpus * 100_000)
            if "" in made:
                host_cgroups.write(made[""], "pids.max", pids + BWRAP_EXTRA_PIDS)
                host_cgroups.write(made[""], "cpu.max", f"{quota} 100000")
            else:
                host_cgroups.write(made["pids"], "pids.max", pids + BWRAP_EXTRA_PIDS)
                host_cgroups.write(made["cpu"], "cpu.cfs_period_us", 100_000)
                host_cgroups.write(made["cpu"], "cpu.cfs_quota_us", quota)
        except BaseException:
            for d in made.values():
                host_cgroups.rmdir(d)
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
    repository environment's tree, bound read-only at ENV_MOUNT from the launch's stage (userns_launch.py
    stage_binds: its host folder may be one the sandbox's uids cannot reach)."""
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
    if env_tree:  # the task's tree (TREE_MOUNT): the judge's, or in the Landlock mode the one uid's (no other is mapped)
        tree = tree_mount_options(config, language, gid or uid)
        mounts.append(["tree", ",".join(tree if mode != "landlock" else [*tree[:-2], f"uid={uid}", f"gid={gid or uid}"])])
    args = [bwrap, "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-net", "--unshare-cgroup-try",
            "--as-pid-1", "--die-with-parent", "--new-session", "--hostname", "sandbox",
            *ids, "--ro-bind", f"{stage}/root", "/", "--proc", "/proc", "--dev", "/dev",
            "--bind", f"{stage}/work", "/work", "--bind", f"{stage}/tmp", "/tmp", "--bind", f"{stage}/shm", "/dev/shm",
            "--mqueue", "/dev/mqueue", "--tmpfs", "/sys", "--perms", "0755", "--dir", "/sys/fs",
            "--perms", "0755", "--dir", "/sys/fs/cgroup", *(["--ro-bind", f"{stage}/env", ENV_MOUNT, "--bind", f"{stage}/tree", TREE_MOUNT] if env_tree else [])]
    for c, folder in cgroups.items():  # the runner's CPU clock and OOM counter (harness/accounting.py CPU_V1, OOM_FILE)
        args += ["--ro-bind", folder, f"/sys/fs/cgroup/{c}" if c else "/sys/fs/cgroup"]
    # /dev read-only (its /dev/shm and /dev/mqueue mounts stay as they are): bubblewrap's /dev is a tmpfs of its uid,
    # which in the Landlock mode is the program's, and a file a job left there reached the next job
    args += ["--remount-ro", "/sys", "--remount-ro", "/dev", "--chdir", "/work", "--clearenv"]
    for k, v in env.items():
        args += ["--setenv", k, v]
    args += ["--info-fd", str(info), "--seccomp", str(filt), *argv]
    rlimits = [["RLIMIT_NOFILE", config.nofile_limit], ["RLIMIT_CORE", 0]]
    return {"server": os.getpid(), "ready": ready, "go": go, "rootfs": rootfs, "env": env_tree, "stage": stage, "tmpfs": mounts,
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


def _set_cgroup_memory(cg: dict[str, str], mb: int) -> None:
    """memory = memory + swap = mb. v1 wants memory.limit <= memsw.limit at every step: lower the
    memory limit first when it is above mb (a new cgroup's is unlimited), else raise memsw first."""
    n = mb << 20
    if "" in cg:
        host_cgroups.write(cg[""], "memory.max", n)
        host_cgroups.write(cg[""], "memory.swap.max", 0)
        return
    mem = cg["memory"]
    order = ["memory.limit_in_bytes"]
    if os.path.exists(os.path.join(mem, "memory.memsw.limit_in_bytes")):
        down = int(host_cgroups.read(mem, "memory.limit_in_bytes")) > n
        order = order + ["memory.memsw.limit_in_bytes"] if down else ["memory.memsw.limit_in_bytes"] + order
    for name in order:
        host_cgroups.write(mem, name, n)


def _cgroup_memory(cg: dict[str, str]) -> int:
    return watchdog.cgroup_usage({k: v for k, v in cg.items() if k in ("memory", "pids", "")}).mem_mb << 20


def _oom_kills(cg: dict[str, str]) -> int:
    return max(0, host_cgroups.oom_kills(cg))

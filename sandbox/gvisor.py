"""The gVisor backend: rootless `runsc` sandboxes the server starts itself (no Docker daemon, no root).

Each sandbox is `runsc --rootless --network=none run` of an OCI bundle whose root is a language's
root filesystem folder (made by `verifier sandbox build --rootfs DIR` from the same recipes as the
Docker images), read-only, with the same tmpfs /work and /tmp, user, rlimits and no capabilities as
the Docker containers. The runner (sandbox/harness/runner.py) is PID 1 of gVisor's user-space kernel and
talks over a socket pair given to runsc as its stdin and stdout: the same protocol, without
Docker's frame headers. deploy/gvisor.md has the measurements behind these choices.

Without cgroups (rootless), the limits hold as follows (docs/sandboxes.md "Sandbox backends"):
- memory and host threads: the host's watchdog (sandbox/watchdog.py, shared with Docker's runsc
  runtime) reads every WATCH_S, while a request runs or a session lives, how much of gVisor's
  memory file the sandbox has committed (every anonymous page and tmpfs byte of the sandbox, what
  the cgroup counts under Docker) and, every THREADS_S, the host threads of runsc and every process
  below it (the ptrace platform's stubs grow with processes x Sentry threads). Over the memory limit every process
  but the runner is killed and the run reports `oom` (memory_limit); past
  SandboxConfig.host_threads_per_sandbox the sandbox is killed (runtime_error naming the budget).
  Weaker than a cgroup: the program can overshoot for one period.
- pids: RLIMIT_NPROC in the sandbox, which gVisor enforces on processes and threads.
- CPU time: every task of the sandbox, from gVisor's own cgroupfs (cpuacct), which the runner mounts
  as root before it takes its uids (accounting.mount_cpu_clock, with CAP_SYS_ADMIN of gVisor's
  kernel for that alone; docs/sandboxes.md "CPU time without a cgroup"), plus RLIMIT_CPU; the CPU
  share (container_cpus) is not capped. Where the server may make cgroups, each sandbox (runsc and
  everything it starts) is in a CPU accounting cgroup of its own from before runsc runs, and past
  the limit gVisor's clock is checked against that cgroup's host CPU, as under Docker's runsc (a
  loaded host then never makes an innocent program's time_limit); elsewhere gVisor's clock decides
  alone, and the server says so at start.
Sandboxes die with their server: runsc gets PR_SET_PDEATHSIG (backend.dies_with_server: never a
preexec_fn), and the runner exits when its stdin (the socket) closes.
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
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from . import cgroups as host_cgroups
from .backend import (ENV_MOUNT, GVISOR_CLOCK_CAPS, SESSION_ARGV, STARTED, TREE_MOUNT, Backend, Box, dies_with_server,
                      runner_ready, sandbox_env, server_gone, session_ready, tree_mount_options)
from .channel import ChannelError
from .config import SandboxConfig
from .languages import LANGUAGES
from . import runsc as runsc_platform
from . import watchdog

log = logging.getLogger(__name__)

RUNNER_ARGV = ["python3", "-I", "-u", "/opt/sandbox/harness/runner.py"]  # every recipe's CMD (sandbox/images/*.Dockerfile)
_BACKENDS = itertools.count(1)  # GvisorBackends of this process: each gets its own state folder
RUNSC_LOG_MAX = 64 << 10
CGROUP_PREFIX = "grpo-gvisor-"  # this server's folder over its sandboxes' CPU cgroups: CGROUP_PREFIX + its state folder's name
NO_CPU_CGROUP = ("gvisor backend: no cgroup of its own (cpuacct on cgroup v1, a writable cgroup on v2): a job's CPU "
                 "time is gVisor's clock alone, which charges a task the time it waited for the host's cores, so on "
                 "a loaded host an innocent program can be time_limit (docs/sandboxes.md \"CPU time without a cgroup\")")


def state_base() -> Path:
    """Where runsc keeps sandbox state: a folder of this user (one subfolder per server)."""
    run = os.environ.get("XDG_RUNTIME_DIR")
    return Path(run) / "grpo-verifier-runsc" if run and os.access(run, os.W_OK) else Path(f"/tmp/grpo-verifier-runsc-{os.getuid()}")


def oci_spec(config: SandboxConfig, language: str, rootfs: str, env: str = "") -> dict:
    """The sandbox's OCI config: Docker's hardening (sandbox/backend.py container_kwargs) in OCI terms;
    `env`, a repository environment's tree, bound read-only at ENV_MOUNT."""
    uid, _, gid = config.user.partition(":")
    uid_i, gid_i = int(uid), int(gid or uid)
    tmpfs = ["nosuid", "nodev", f"nr_inodes={config.tmpfs_inodes}"]
    work_exec = "exec" if LANGUAGES[language].exec_work else "noexec"
    return {
        "ociVersion": "1.0.0",
        "process": {
            # root with CAP_SETUID/SETGID (of gVisor's kernel) until the runner takes its two uids
            "user": {"uid": 0, "gid": 0}, "args": RUNNER_ARGV, "cwd": "/work",
            "env": [f"{k}={v}" for k, v in sandbox_env(config, language).items()],
            "capabilities": {k: ([] if k in ("inheritable", "ambient") else
                                 ["CAP_SETUID", "CAP_SETGID", *(f"CAP_{c}" for c in GVISOR_CLOCK_CAPS)])
                             for k in ("bounding", "effective", "inheritable", "permitted", "ambient")},
            "rlimits": [{"type": "RLIMIT_NOFILE", "hard": config.nofile_limit, "soft": config.nofile_limit},
                        {"type": "RLIMIT_CORE", "hard": 0, "soft": 0},
                        {"type": "RLIMIT_NPROC", "hard": config.pids_limit, "soft": config.pids_limit}],
            "noNewPrivileges": True,
        },
        "root": {"path": rootfs, "readonly": True},
        "hostname": "sandbox",
        "mounts": [
            {"destination": "/proc", "type": "proc", "source": "proc"},
            {"destination": "/dev", "type": "tmpfs", "source": "tmpfs", "options": ["nosuid", "noexec"]},
            {"destination": "/sys", "type": "sysfs", "source": "sysfs", "options": ["nosuid", "noexec", "nodev", "ro"]},
            {"destination": "/work", "type": "tmpfs", "source": "tmpfs",
             "options": [*tmpfs, work_exec, f"size={config.work_tmpfs_mb}m", "mode=0700", f"uid={uid_i}", f"gid={gid_i}"]},
            {"destination": "/tmp", "type": "tmpfs", "source": "tmpfs",
             "options": [*tmpfs, "noexec", f"size={config.tmp_tmpfs_mb}m", "mode=1777"]},
            *([{"destination": ENV_MOUNT, "type": "bind", "source": env, "options": ["rbind", "ro", "nosuid", "nodev"]},
               {"destination": TREE_MOUNT, "type": "tmpfs", "source": "tmpfs",
                "options": tree_mount_options(config, language, str(gid_i))}]
              if env else []),
        ],
        "linux": {"namespaces": [{"type": t} for t in ("pid", "network", "ipc", "uts", "mount")]},
    }


class RawChannel(watchdog.WatchedChannel):
    """The runner protocol over a plain socket (no Docker frame headers), watched by the host's
    watchdog (watchdog.WatchedChannel: a run it killed answers as the program's own end)."""

    def _fill(self) -> None:
        left = self._deadline - time.monotonic()
        if left <= 0:
            raise ChannelError("runner did not answer in time")
        self._sock.settimeout(left)
        try:
            got = self._sock.recv(1 << 20)
        except socket.timeout as e:
            raise ChannelError("runner did not answer in time") from e
        if not got:
            raise ChannelError("runner channel closed (sandbox gone?)")
        self._buf += got


class MemoryFileMissing(ChannelError):
    """The sandbox started but its memory cannot be watched (GvisorBackend._memory_file)."""


@dataclass
class Sandbox:
    """One runsc sandbox: its process, bundle, and what the watchdog found."""

    id: str
    proc: subprocess.Popen
    bundle: Path
    mem_file: str = ""  # /proc/<sandbox pid>/fd/N: gVisor's memory file, whose blocks are the sandbox's memory
    cgroups: dict[str, str] = field(default_factory=dict)  # its CPU accounting cgroup (controller -> folder), or none
    spared: frozenset[int] = frozenset()  # the warm interpreter's mother (its first ping): never killed for memory
    lock: threading.Lock = field(default_factory=threading.Lock)


def _descendants(root: int) -> list[int]:
    """Every process below `root` (from /proc's parent links)."""
    children: dict[int, list[int]] = {}
    for stat in os.listdir("/proc"):
        if stat.isdigit():
            try:
                with open(f"/proc/{stat}/stat", "rb") as f:
                    ppid = int(f.read().rsplit(b")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(stat))
    out, todo = [], [root]
    while todo:
        for child in children.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


class GvisorBackend(Backend):
    """Rootless runsc sandboxes (module docstring)."""

    name = "gvisor"

    def __init__(self, config: SandboxConfig) -> None:
        self.config = config
        self.runsc = runsc_platform.find_runsc()  # the pinned newer runsc of `make gvisor`, else Debian's
        self.platform = ""  # probe(): config.gvisor_platform resolved (sandbox/runsc.py)
        # state_base() is this host's: pid, start time and a count name the server (a process may hold two)
        self.root = state_base() / f"{os.getpid()}-{STARTED}-{next(_BACKENDS)}"
        self._boxes: dict[str, Box] = {}
        self._lock = threading.Lock()
        self._seq = 0
        self._procs = watchdog.ProcessTable()
        self._watch = watchdog.Watchdog("sandbox-watch", self._watched, self._usage, self._over_limit,
                                        config.host_threads_per_sandbox)
        self._held: dict[str, int] = {}  # root filesystem folder -> its locked fd (find_images)
        # Where each sandbox's CPU cgroup goes (only CPU accounting: the host's figure of its CPU),
        # {} where the server may make none (docs/sandboxes.md "CPU time without a cgroup")
        self._parents = host_cgroups.own_cgroups(("cpuacct",), frozenset())
        self._cgroup_base = {c: os.path.join(d, CGROUP_PREFIX + self.root.name) for c, d in self._parents.items()}
        self._said_cpu = False  # the start's log line on the CPU clock (probe)

    # -- the seam
    def describe(self) -> str:
        cpu = "checked against a cgroup each" if self._cgroup_base else "gVisor's clock alone: no cgroup of its own"
        return (f"gVisor (runsc at {self.runsc or 'nowhere: not installed'}, platform "
                f"{self.platform or self.config.gvisor_platform}; CPU time: {cpu})")

    def build_hint(self) -> str:
        from .build import rootfs_hint
        return rootfs_hint(self.config)

    def down_reason(self, e: BaseException) -> str:
        return f"gVisor sandboxes cannot start: {e} (install runsc: Debian package `runsc`, `make gvisor`)"

    def probe(self) -> None:
        if not self.runsc:
            raise RuntimeError("runsc is not on PATH")
        self.platform = runsc_platform.platform_for(self.runsc, self.config.gvisor_platform)
        self.root.mkdir(parents=True, exist_ok=True, mode=0o700)
        if not self._said_cpu:  # once: probe runs at every health check
            self._said_cpu = True
            if self._cgroup_base:
                log.info("gvisor backend: each sandbox's CPU in a cgroup of its own under %s: past a limit, gVisor's "
                         "clock is checked against the host's", ", ".join(self._cgroup_base.values()))
            else:
                log.warning(NO_CPU_CGROUP)
        self._watch.start()

    def find_images(self, languages: tuple[str, ...]) -> tuple[dict[str, str], list[str]]:
        """Each language's root filesystem folder, held until close (build.held_rootfs)."""
        from .build import held_rootfs
        return held_rootfs(self.config, self._held, languages)

    def start(self, language: str, image: str, mem_mb: int, env: str = "") -> Box:
        """One sandbox; a second try when the first's memory file was not found (seen now and then
        right after a kill, cause not known: a sandbox without it cannot be limited, so never used)."""
        spec = oci_spec(self.config, language, image, env)
        try:
            return self._start_once(language, spec, mem_mb, runner_ready)
        except MemoryFileMissing:
            return self._start_once(language, spec, mem_mb, runner_ready)

    def start_session(self, language: str, image: str, mem_mb: int, pids_limit: int, env: str = "") -> Box:
        """A session's sandbox: its host channel is the same socket pair as the runner's (never a
        pipe: gVisor lets a same-uid process open pipes through /proc, not sockets), and the memory
        watchdog watches it between requests too (a cell's background process runs then)."""
        spec = oci_spec(self.config, language, image, env)
        process = spec["process"]  # root with CAP_SETUID/SETGID, as the runner: session_box takes its two uids
        process["args"] = SESSION_ARGV
        process["rlimits"] = [r if r["type"] != "RLIMIT_NPROC" else {**r, "hard": pids_limit, "soft": pids_limit}
                              for r in process["rlimits"]]
        try:
            box = self._start_once(language, spec, mem_mb, session_ready, session=True)
        except MemoryFileMissing:
            box = self._start_once(language, spec, mem_mb, session_ready, session=True)
        return box

    def memory_bytes(self, box: Box) -> int:
        try:
            return os.stat(box.container.mem_file).st_blocks * 512
        except OSError:
            return 0

    def sentry_mb(self, box: Box) -> int:
        """The anonymous memory of runsc and every process below it: gVisor's kernel's Go heap and its
        gofer's; the sandbox's own memory is the memory file, shared memory."""
        sb: Sandbox = box.container
        if box.dead or sb.proc.poll() is not None:
            return -1  # being removed: a dying sandbox's reading is no box's (it read 347 MB, then 0)
        return self._procs.anon_mb_below(sb.proc.pid, fresh=True)

    def _start_once(self, language: str, spec: dict, mem_mb: int, ready, session: bool = False) -> Box:
        with self._lock:
            self._seq += 1
            # runsc names the sandbox's control socket after its id, in the host's network
            # namespace: the id is unique on the host (this server's state folder: pid and start time)
            sid = f"{language}-{self.root.name}-{self._seq}"  # e.g. python-4242-977113-1-3
        bundle = self.root / "bundles" / sid
        bundle.mkdir(parents=True, mode=0o700)
        (bundle / "config.json").write_text(json.dumps(spec))
        try:  # runsc and everything it starts, from before it runs: the host's figure of the sandbox's CPU
            cgroups = host_cgroups.make(self._cgroup_base, sid)
        except BaseException:
            shutil.rmtree(bundle, ignore_errors=True)
            raise
        mine, theirs = socket.socketpair()
        log_path = bundle / "runsc.log"
        argv = [self.runsc, "--rootless", "--network=none", "--ignore-cgroups", f"--platform={self.platform}",
                f"--root={self.root / 'state'}",
                f"--log={log_path}", f"--panic-log={bundle / 'runsc.panic'}", "run", "--bundle", str(bundle), sid]
        try:
            proc = subprocess.Popen(
                # runsc's own messages go to its log; the runner's stderr (the same fd as runsc's,
                # reachable by a program through /proc/1/fd/2) goes nowhere.
                dies_with_server(argv, tuple(cgroups.values())), stdin=theirs.fileno(), stdout=theirs.fileno(), stderr=subprocess.DEVNULL,
                start_new_session=True, close_fds=True, cwd=str(bundle))
        except BaseException:
            mine.close()
            shutil.rmtree(bundle, ignore_errors=True)
            for d in cgroups.values():
                host_cgroups.rmdir(d)
            raise
        finally:
            theirs.close()
        sb = Sandbox(id=sid, proc=proc, bundle=bundle, cgroups=cgroups)
        ch = RawChannel(mine)
        ch.threads_max = self.config.host_threads_per_sandbox
        if cgroups:  # past a limit gVisor's clock is checked against it (docs/sandboxes.md "CPU time without a cgroup");
            # without one, none: the process tree's figure missed sub-tick vfork children
            ch.host_cpu = lambda _fresh: watchdog.cgroup_cpu(cgroups)
        box = Box(language=language, container=sb, channel=ch, mem_mb=mem_mb, session=session)
        try:
            head, _ = ch.request({"op": "ping"}, timeout_s=self.config.start_timeout_s)
            if not ready(head):
                raise ChannelError(f"sandbox PID 1 answered {head!r}")
            sb.spared = frozenset(p for p in (head.get("warm_mother"),) if isinstance(p, int) and p > 1)
            sb.mem_file = self._memory_file(sb)
            box.sandbox_rest_mb = self.sandbox_mb(box)
        except MemoryFileMissing:
            self.remove(box)
            raise
        except BaseException as e:
            said = self._exit_note(sb)  # before remove, which deletes the bundle and its logs
            self.remove(box)
            raise ChannelError(f"{e}; {said}") from e
        with self._lock:
            self._boxes[sid] = box
        self._watch.start()
        return box

    def remove(self, box: Box) -> None:
        sb: Sandbox = box.container
        self._stop_process(box, "runsc")
        subprocess.run([self.runsc, "--rootless", f"--root={self.root / 'state'}", "delete", "--force", sb.id],
                       capture_output=True, timeout=30)
        shutil.rmtree(sb.bundle, ignore_errors=True)
        for d in sb.cgroups.values():  # empty once runsc is gone; what is not is killed there (cgroups.rmdir)
            host_cgroups.rmdir(d)
        with self._lock:
            self._boxes.pop(sb.id, None)

    def death_note(self, box: Box) -> str:
        note = self._exit_note(box.container)
        if box.killed:
            return f"the host's watchdog killed it (over its {box.killed} limit)"
        return f"{'the host stopped it; ' if box.dead else ''}{note}"

    def _exit_note(self, sb: Sandbox) -> str:
        """runsc's exit status (a second's wait for it: its end follows its channel's), its log's last
        words and its panic log's (the sentry's Go runtime messages); read before remove, which
        deletes the bundle holding them. A negative status is a signal's (-11: SIGSEGV)."""
        try:
            code: int | None = sb.proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            code = None  # still running: the runner closed its channel, or the sentry hangs
        panic = self._runsc_log(sb.bundle / "runsc.panic")
        return (f"runsc {'running' if code is None else f'exit {code}'}; runsc said: {self._runsc_log(sb.bundle / 'runsc.log')}"
                + (f"; its panic log: {panic}" if panic != "nothing" else ""))

    def oom_killed(self, box: Box, wait_s: float = 3.0) -> bool:
        sb: Sandbox = box.container
        try:
            sb.proc.wait(timeout=wait_s)
        except subprocess.TimeoutExpired:
            pass
        return box.killed == watchdog.MEMORY

    def set_memory(self, box: Box, mb: int) -> None:
        box.mem_mb = mb  # the watchdog reads it

    def reap(self) -> int:
        """State folders of this user's dead servers (their sandboxes died with them), and their CPU cgroups."""
        removed = 0
        base = state_base()
        for d in base.iterdir() if base.is_dir() else ():  # '<pid>-<start ticks>-<backend count>'
            if d != self.root and server_gone(d.name):
                shutil.rmtree(d, ignore_errors=True)
                removed += 1
        return removed + host_cgroups.reap(self._parents, CGROUP_PREFIX, set(self._cgroup_base.values()), server_gone)

    def remove_own(self) -> None:
        with self._lock:
            boxes = list(self._boxes.values())
        for box in boxes:
            self.remove(box)

    def close(self) -> None:
        self._watch.stop()
        self.remove_own()
        shutil.rmtree(self.root, ignore_errors=True)
        for d in self._cgroup_base.values():
            host_cgroups.rmdir(d)
        for fd in self._held.values():
            os.close(fd)
        self._held.clear()

    # -- memory
    def _memory_file(self, sb: Sandbox) -> str:
        """The sandbox process's handle on gVisor's memory file (a memfd named runsc-memory): the
        process `runsc state` names, or one below our runsc process (the state can say pid -1)."""
        deadline = time.monotonic() + self.config.start_timeout_s / 3
        while time.monotonic() < deadline:
            out = subprocess.run([self.runsc, "--rootless", f"--root={self.root / 'state'}", "state", sb.id],
                                 capture_output=True, text=True, timeout=30)
            try:
                named = int(json.loads(out.stdout).get("pid", -1))
            except (ValueError, AttributeError):
                named = -1
            for pid in ([named] if named > 0 else []) + _descendants(sb.proc.pid):
                try:
                    for fd in os.listdir(f"/proc/{pid}/fd"):
                        if os.readlink(f"/proc/{pid}/fd/{fd}").startswith("/memfd:runsc-memory"):
                            return f"/proc/{pid}/fd/{fd}"
                except OSError:
                    continue
            time.sleep(0.05)
        raise MemoryFileMissing(f"gVisor's memory file of sandbox {sb.id} not found: memory cannot be limited")

    def _watched(self) -> list[Box]:
        with self._lock:
            return list(self._boxes.values())

    def _usage(self, box: Box) -> watchdog.Usage:
        """What the host's watchdog reads: the sandbox's committed memory (its memory file's blocks)
        and the host threads of runsc and every process below it (gVisor's kernel, its gofer and the
        ptrace platform's stubs: this user's processes)."""
        sb: Sandbox = box.container
        kernel = self._procs.anon_mb_below(sb.proc.pid) - box.sentry_base if box.sentry_base >= 0 else 0
        firm = self._used_mb(sb)
        return watchdog.Usage(mem_mb=firm + max(0, kernel), threads=self._procs.threads_below(sb.proc.pid), firm_mb=firm)

    def sandbox_mb(self, box: Box) -> int:
        try:
            return self._used_mb(box.container)
        except OSError:
            return -1

    def host_threads(self, box: Box) -> int:
        return self._procs.threads_below(box.container.proc.pid, fresh=True)

    @staticmethod
    def _used_mb(sb: Sandbox) -> int:
        return (os.stat(sb.mem_file).st_blocks * 512) >> 20

    def _over_limit(self, box: Box, reason: str) -> None:
        """Memory: kill every process of the sandbox but the runner (it answers for the program:
        RawChannel) and the warm interpreter's mother (a program never runs in her, and her death
        recycles the container: the recycle of every memory_limit verdict under gVisor); if memory
        does not come back under the limit at once, the whole sandbox (oom_killed then says so).
        Host threads: the whole sandbox at once (Box.killed: the job's runtime_error). They come from
        many processes, and one `runsc kill` per process took seconds while they grew (measured:
        3.8k threads at a 1024 budget), where the sandbox's process group goes in one signal."""
        sb: Sandbox = box.container
        if reason == watchdog.THREADS:
            box.killed = reason
            self._kill_sandbox(sb)
            return
        try:
            state = f"--root={self.root / 'state'}"
            ps = subprocess.run([self.runsc, "--rootless", state, "ps", "--format", "json", sb.id],
                                capture_output=True, text=True, timeout=10)
            pids = [p for p in json.loads(ps.stdout or "[]") if p != 1 and p not in sb.spared]  # pids in the sandbox
            for pid in pids:
                subprocess.run([self.runsc, "--rootless", state, "kill", "--pid", str(pid), sb.id, "KILL"],
                               capture_output=True, timeout=10)
            deadline = time.monotonic() + 1.0
            while time.monotonic() < deadline and self._used_mb(sb) > box.mem_mb:
                time.sleep(watchdog.WATCH_S)
            if self._used_mb(sb) > box.mem_mb:
                raise RuntimeError("memory did not come back")
        except Exception as e:
            log.info("sandbox: %s over its %s limit, killed whole: %s", sb.id, reason, e)
            box.killed = reason
            self._kill_sandbox(sb)

    def _kill_sandbox(self, sb: Sandbox) -> None:
        with sb.lock:
            if sb.proc.poll() is None:
                try:
                    os.killpg(sb.proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass

    @staticmethod
    def _runsc_log(path: Path) -> str:
        try:
            with open(path, "rb") as f:
                return f.read()[-RUNSC_LOG_MAX:].decode(errors="replace")[-500:].strip() or "nothing"
        except OSError:
            return "nothing"

"""The runner's side of the warm interpreter (zygote.py is the other side; docs/sandboxes.md "The
warm interpreter"): the mother and the zygote, started before the first request, checked after
every job and replaced when changed; a run forked from the zygote instead of an exec; a warm
judge's program processes (keep_program). Standard library only."""
from __future__ import annotations

import json
import os
import resource
import socket
import sys
import time
from typing import IO, Protocol, cast

import pid1
import program_limits

WARM_ENV = "SANDBOX_WARM"  # "1": start the warm interpreter (Warm; sandbox/backend.py sandbox_env)
HARNESS_DIR = os.path.dirname(os.path.abspath(__file__))  # the runner's own: every container-side program
WARM_FORKS_MAX = 500  # forks of one zygote before it is replaced (docs/sandboxes.md, "The warm interpreter")
WARM_RSS_GROWTH_KB = 16 << 10  # a zygote grown this much since it was ready is replaced
KEEPER_ENV = "KEEPER_FD"  # a warm judge's socket to keep_program (harness/judge.py start_program)
KEEPER_FDS = 5  # stdin, stdout, stderr and the two channel ends of a program process
WARM_WAIT_S = 20.0  # how long a zygote may take to import WARM (a loaded machine)
WARM_END_WAIT_S = 1.0  # how long a replaced zygote may take to die before the next starts (Warm.drop)


def fork_request(kind: str, argv: list[str], cwd: str, env: dict, pass_fds: tuple[int, ...], cpu_s: float,
                 fsize: int) -> dict:
    """What the zygote is asked to fork (zygote.py fork_one, become): the process's kind, argv, cwd,
    environment, the numbers its passed fds take, and its limits as program_limits.spec makes them for an
    exec (job_protocol.py exec_limits): a judge keeps the judge's uid, a program or a judge's program
    process (serve) takes the program's."""
    return {"kind": kind, "argv": argv, "cwd": cwd, "env": env, "pass": list(pass_fds),
            "limits": program_limits.spec(pid1.APART, kind == "judge", cpu_s, fsize)}


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
        self.parents = False  # the zygote forks programs as its own children and reports their end (fork_warm)
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
        self.mother_state = pid1.proc_state(pid)
        self.spawn()

    def spawn(self) -> None:
        """A fresh zygote from the mother; it imports while we go on (wait_ready before a run)."""
        self.drop()
        if self.mother is None:
            return
        a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            socket.send_fds(self.mother, [b"spawn"], [b.fileno()])
            reply = pid1.recv_json(self.mother, 5.0)
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
            said = pid1.recv_json(self.sock, WARM_WAIT_S)
            if said.get("ready") is not True:
                raise OSError("not ready")
            self.parents = said.get("parents") is True
            if pid1.proc_state(self.pid) != self.mother_state:  # changed while it imported
                raise OSError("the zygote changed")
            self.rss_kb, self.ready = pid1.proc_rss_kb(self.pid), True
        except (OSError, ValueError):
            self.drop()
        return self.ready

    def fork(self, kind: str, argv: list[str], cwd: str, env: dict, fds: list[int], pass_fds: tuple[int, ...],
             cpu_s: float, fsize: int, status_fd: int = -1) -> int:
        """A forked process (kind: program or judge), PID 1's child, or with status_fd (a program,
        where the zygote `parents`) the zygote's, whose end it reports on that socket; its pid.
        OSError when the zygote failed (it is then replaced; the caller execs instead)."""
        job = fork_request(kind, argv, cwd, env, pass_fds, cpu_s, fsize)
        extra = [status_fd] if status_fd >= 0 else []
        if extra:
            job["status"] = True
        try:
            socket.send_fds(cast(socket.socket, self.sock), [json.dumps(job).encode()], list(fds) + list(pass_fds) + extra)
            reply = pid1.recv_json(self.sock, 5.0)
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
            bad = (pid1.proc_state(self.pid) != self.mother_state or self.forks >= WARM_FORKS_MAX
                   or (self.ready and pid1.proc_rss_kb(self.pid) - self.rss_kb > WARM_RSS_GROWTH_KB))
        except (OSError, ValueError, IndexError):
            bad = True
        if bad:
            self.replaced += 1
            self.spawn()

    def mother_tampered(self) -> bool:
        try:
            return pid1.proc_state(self.mother_pid) != self.mother_state
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
            pid1.kill_quietly(self.pid)
            deadline = time.monotonic() + WARM_END_WAIT_S
            try:
                while not os.waitpid(self.pid, os.WNOHANG)[0] and time.monotonic() < deadline:
                    time.sleep(0.0005)
            except ChildProcessError:
                pass
        self.sock, self.pid, self.ready, self.parents = None, 0, False, False

    def lose_mother(self) -> None:
        self.broken = self.broken or self.mother_pid != 0
        self.drop()
        if self.mother is not None:
            self.mother.close()
        if self.mother_pid:
            pid1.kill_quietly(self.mother_pid)
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
    as Popen gives it; a judge's are sockets, as fork_judge gives it (its stdin carries the tests).
    A program where the zygote `parents` is its child, one process per test: its end comes on a
    status socket (Forked.wait4; docs/sandboxes.md "The warm interpreter")."""
    pipes = [pid1.channel() if kind == "judge" else pid1.std_pipe() for _ in range(3)]  # stdin, stdout, stderr
    if kind == "program" and WARM.parents:
        pipes.append(pid1.channel())
    theirs = [pipes[0][0], pipes[1][1], pipes[2][1]]
    status = pipes[3] if len(pipes) > 3 else (-1, -1)
    try:
        pid = WARM.fork(kind, argv, cwd, env, theirs, pass_fds, cpu_s, fsize, status[1])
    except OSError:
        for r, w in pipes:
            os.close(r)
            os.close(w)
        raise
    for fd in theirs + ([status[1]] if status[1] >= 0 else []):
        os.close(fd)
    return Forked(pid, pipes[0][1], pipes[1][0], pipes[2][0], warm=True, status_fd=status[0])


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
    reply: dict[str, object]
    try:
        if not msg:
            return False
        if len(fds) != KEEPER_FDS or not WARM.ready:
            raise OSError("std streams and two channel ends" if WARM.ready else "no warm interpreter")
        ends = (fds[3], fds[4])  # their numbers in the forked process too (Warm.fork: pass)
        argv = ["python3", "-I", os.path.join(HARNESS_DIR, "serve.py"), str(ends[0]), str(ends[1])]
        pid = WARM.fork("serve", argv, cwd, env, fds[:3], ends, cpu_s, fsize)
        reply = {"pid": pid}
        kept.append(pid)
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


class Started(Protocol):
    """What run_exec uses of a started process: a Popen with all three streams piped, or a Forked."""

    pid: int
    returncode: int | None
    stdin: IO[bytes]
    stdout: IO[bytes]
    stderr: IO[bytes]


class Reaped:
    """What the zygote said of a program it reaped (zygote.py report_ended): os.wait4's rusage, the
    part run_exec reads."""

    def __init__(self, cpu_s: float, maxrss_kb: int) -> None:
        self.cpu_s, self.ru_maxrss = cpu_s, maxrss_kb


class Forked:
    """What run_exec uses of a Popen, for a judge started by fork_judge or a run forked from the zygote."""

    def __init__(self, pid: int, stdin: int, stdout: int, stderr: int, warm: bool = False, status_fd: int = -1) -> None:
        self.pid, self.returncode, self.warm = pid, None, warm
        self.status_fd = status_fd  # the zygote's report of its end, where it is the zygote's child (fork_warm)
        self.said = False  # that report has been read
        if status_fd >= 0:
            os.set_blocking(status_fd, False)
        self.stdin = os.fdopen(stdin, "wb", buffering=0)
        self.stdout = os.fdopen(stdout, "rb", buffering=0)
        self.stderr = os.fdopen(stderr, "rb", buffering=0)

    def wait4(self) -> tuple[int, int, object]:
        """os.wait4(pid, WNOHANG) for the runner's child; for the zygote's (status_fd) what the zygote
        said once it reaped it, (0, 0, None) until then. A zygote that ended without a word (the
        watchdog's kill of every process but PID 1: nothing else reaches it) left its child to PID
        1: waited for here; one already gone is reported killed (SIGKILL), as it was. The socket
        stays open (and at EOF: readable) until close_status."""
        if self.status_fd >= 0 and not self.said:
            try:
                data = os.read(self.status_fd, 4096)
            except BlockingIOError:
                return 0, 0, None
            except OSError:
                data = b""
            self.said = True
            if data:
                said = json.loads(data)
                return self.pid, int(said["status"]), Reaped(float(said["cpu_s"]), int(said["maxrss_kb"]))
        try:
            return os.wait4(self.pid, os.WNOHANG)
        except ChildProcessError:
            if self.status_fd < 0:
                raise
            return self.pid, 9, None  # WIFSIGNALED, SIGKILL

    def close_status(self) -> None:
        """Close the status socket once the run is over."""
        if self.status_fd >= 0:
            os.close(self.status_fd)
            self.status_fd, self.said = -2, True

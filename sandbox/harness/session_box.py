"""PID 1 of a session container (docs/sessions.md "Sessions"). Standard library only.

A session owns one container; this supervisor runs its persistent interpreter (session_kernel.py)
as a child and talks to the host with the runner's framing (sandbox/harness/framing.py: one JSON header
line, then the raw blobs it names). It starts as root with CAP_SETUID and CAP_SETGID only and takes
the runner's two uids before anything else (pid1.harden: real and saved uid the judge's,
effective uid the program's, no capability left); the interpreter and every process of a cell run
as the program's uid alone (program_limits.apply). So no cell can signal, prlimit or ptrace this
process, and the host channel (Docker's attach FIFOs, opened for root before PID 1 starts) is not
the cells' to open, even under gVisor, whose /proc opens another process's fds by the file's owner
(docs/architecture.md "Sessions"). Only this process writes to the host: it is non-dumpable
(no ptrace, no /proc/1/fd for the same uid under Linux), and the interpreter's stdout, stderr and
result line reach it over socket pairs, so nothing a cell prints or writes can forge a reply or
shift the framing. Socket pairs, never pipes: gVisor ignores PR_SET_DUMPABLE and lets a process
of the same uid open another's pipes through /proc/<pid>/fd/N, while a socket there is ENXIO on
Linux and gVisor alike (docs/architecture.md "Sessions"); under the gVisor backend the host
channel is a socket pair too (sandbox/gvisor.py). A result line counts only with the nonce sent
with that cell (ResultLine: at most one result's worth is read a cell); bytes left in the channels between cells (a background process of an earlier
cell) are dropped before the next cell starts.

CPU time is the container's cgroup clock; where there is none (the gVisor backend), the sum of
every other process's CPU time in /proc plus what this process reaped (`cpu_s`).

Requests:
    {"op": "ping"}
    {"op": "start", "files": [NAME...], "cpu_s": F, "blobs": [["file:NAME", N]...]}
        write support files into /work, then start the interpreter. Between cells, processes a
        cell left running may use at most max(cpu_s, 1) CPU-seconds in all (cgroup accounting, checked
        every IDLE_POLL_S); past that the session ends as a cell over its time limit does.
    {"op": "cell", "cpu_s": F, "wall_s": F, "out_max": N, "err_max": N, "value_max": N,
     "blobs": [["code", N]]}
        run one cell. A cell over its CPU time (cgroup accounting: every process of the
        container) or wall time, or an interpreter that dies (memory limit, os._exit, a crash),
        ends the session: every process but this one is killed, and later cells answer "lost".
    {"op": "read", "path": NAME, "max": N}
        a regular file below /work (no symlinks but a link to the lower layer, session_tools.open_lower), at most N bytes.
    {"op": "shell", "cpu_s": F, "wall_s": F, "out_max": N, "blobs": [["command", N]]}
    {"op": "write", "path": NAME, "blobs": [["data", N]]}
    {"op": "list", "path": NAME, "max": N}
    {"op": "snapshot", "max": N, "max_files": N, "walk_s": F}
    {"op": "delta", "max": N, "max_files": N, "max_data": N, "mem": N, "walk_s": F}
        the tools of a session on a repository environment (session_tools.py; "start" with
        "tree": "layers" links the environment's tree, read-only at /srv, into /work first, "tree": "copy"
        copies it (session_tools.link_tree; docs/sessions.md "The layers"); with "delta": true
        too, the "delta_entries" and "delta_data" blobs, another session's changes, are applied on it;
        changes that do not fit /work answer {"ok": false, "no_space": true}, and changes apply_delta refuses
        {"ok": false, "unusable": true}: the session's, never retried).
    {"op": "prepare", "tree": "copy" | "layers"}
        between sessions, in a box of an environment: its tree linked (or copied) into /work and an
        interpreter started (running nothing) ahead of the next "start", which takes both.
    {"op": "reset"}
        the session is over: the runner's reset (sandbox/harness/job_protocol.py: every other process killed,
        /work /tmp /dev/shm /dev/mqueue wiped, SysV IPC removed, PID 1 untampered), so the
        container can serve a later session as the grading pool's serve later jobs.
"""
from __future__ import annotations

import errno
import json
import os
import selectors
import stat
import sys
import threading
import time
from collections.abc import Callable

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # the runner's helpers (-I leaves the script's dir off the path)
import accounting  # noqa: E402
import confine  # noqa: E402
import framing  # noqa: E402
import job_protocol  # noqa: E402
import pid1  # noqa: E402
import program_limits  # noqa: E402
import session_tools  # noqa: E402
import session_kernel  # noqa: E402

KERNEL = os.path.join(os.path.dirname(os.path.abspath(__file__)), "session_kernel.py")
FSIZE_MAX = 64 << 20


class Kernel:
    """The interpreter child and the four socket pairs (pid1.channel: never a pipe, module
    docstring) that are all it shares with us."""

    def __init__(self) -> None:
        req_k, self.req = pid1.channel()
        self.res, res_k = pid1.channel()
        self.out, out_k = pid1.channel()
        self.err, err_k = pid1.channel()
        self.fds = (self.req, self.res, self.out, self.err)
        for fd in self.fds:
            os.set_blocking(fd, False)

        def child() -> None:
            program_limits.apply(program_limits.spec(pid1.APART, False, None, FSIZE_MAX))  # the program's uid for all three

        try:
            self.proc = pid1.start([sys.executable, "-I", KERNEL, str(req_k), str(res_k)], (-1, out_k, err_k),
                                   (req_k, res_k), pid1.WORK, dict(job_protocol.BASE_ENV), child)  # no pipe: pid1.start
        except BaseException:
            self.close()
            raise
        finally:
            for fd in (req_k, res_k, out_k, err_k):
                os.close(fd)
        self.cells = 0

    def close(self) -> None:
        """Close our ends (after it was killed): a reused container must not run out of fds."""
        for fd in self.fds:
            try:
                os.close(fd)
            except OSError:
                pass


DRAIN_MAX = 4 << 20


def cpu_since(head: dict | None = None) -> accounting.SandboxClock:
    """A clock of the CPU every process of the session but this one uses from now on: the
    container's cgroup clock less our own, under gVisor its own cgroupfs (accounting.SandboxClock),
    which counts every task, orphans and children the kernel reaps itself included (docs/sandboxes.md
    "CPU time without a cgroup"). For a call whose `head` says the host answers (`host_cpu`:
    watchdog.WatchedChannel, under gVisor where the sandbox has a cgroup), a reading past the limit
    is checked against the host CPU of the sandbox since the call began, as a job's is (`over`,
    `settle`): a loaded host never makes a cell's or a command's time_limit."""
    ask = job_protocol.ask_host_cpu if head is not None and head.get("host_cpu") is True else None
    return accounting.SandboxClock(set(), ask)


def drain(fd: int) -> None:
    """Drop what is waiting in a pipe (bytes written between cells by a background process); at most
    DRAIN_MAX bytes: a process writing without pause must not hold PID 1 here."""
    dropped = 0
    try:
        while dropped < DRAIN_MAX and (chunk := os.read(fd, 1 << 16)):
            dropped += len(chunk)
    except (BlockingIOError, OSError):
        pass


def run_cell(k: Kernel, head: dict, code: bytes) -> tuple[dict, dict[str, bytes]]:  # noqa: C901 - one cell's nonce, caps and clocks stay local to one frame, out of every other cell's reach
    """Send one cell, collect its output and result within its limits; see the module docstring."""
    for fd in (k.out, k.err, k.res):
        drain(fd)
    nonce = os.urandom(16).hex()
    k.cells += 1
    pending = memoryview(json.dumps({"nonce": nonce, "code": code.decode("utf-8", "replace"),
                                     "value_max": int(head["value_max"])}).encode() + b"\n")
    clock, oom0, t0 = cpu_since(head), accounting.oom_kills(), time.monotonic()
    out, err = accounting.Capture(int(head["out_max"]), clock), accounting.Capture(int(head["err_max"]), clock)
    res = ResultLine(nonce, session_kernel.line_max(int(head["value_max"])), clock)
    sel = selectors.DefaultSelector()
    sel.register(k.out, selectors.EVENT_READ, out)
    sel.register(k.err, selectors.EVENT_READ, err)
    sel.register(k.res, selectors.EVENT_READ, res)
    sel.register(k.req, selectors.EVENT_WRITE, None)
    result, why = None, ""
    try:
        while result is None:
            for key, _ in sel.select(timeout=accounting.POLL_S):
                if key.data is None:
                    try:
                        pending = pending[os.write(k.req, pending):]
                    except BlockingIOError:
                        continue
                    except OSError:
                        pending = pending[:0]
                    if not pending:
                        sel.unregister(k.req)
                    continue
                try:
                    chunk = os.read(key.fd, 1 << 16)
                except BlockingIOError:
                    continue
                if not chunk:
                    sel.unregister(key.fd)
                    continue
                if key.data is res:
                    result = res.add(chunk)
                    if res.wrong:
                        why = f"crashed: {res.wrong}"
                        break
                else:
                    key.data.add(chunk)
            if why:
                break
            reap(k.proc)
            if clock.over(float(head["cpu_s"])):
                why = f"time_limit: the cell used {clock.settle(float(head['cpu_s'])):.1f} s of CPU (limit {head['cpu_s']} s)"
            elif time.monotonic() - t0 > float(head["wall_s"]):
                why = f"time_limit: the cell ran {time.monotonic() - t0:.1f} s (wall limit {head['wall_s']} s)"
            elif result is None and k.proc.poll() is not None:
                code_ = k.proc.returncode
                why = f"crashed: the interpreter exited ({'signal ' + str(-code_) if code_ < 0 else 'status ' + str(code_)})"
            if why:
                break
        if result is not None:  # what the cell wrote before its result line is in the pipes now
            for cap, fd in ((out, k.out), (err, k.err)):
                taken = 0
                try:
                    while taken < DRAIN_MAX and (chunk := os.read(fd, 1 << 16)):
                        cap.add(chunk)
                        taken += len(chunk)
                except (BlockingIOError, OSError):
                    pass
    finally:
        sel.close()
    wall = time.monotonic() - t0
    cpu = clock.settle(float(head["cpu_s"]))
    facts = {"cpu_s": round(max(cpu, 0.0), 6), "wall_s": round(wall, 6), "stdout_bytes": out.total,
             "stderr_bytes": err.total}
    blobs = {"stdout": bytes(out.data), "stderr": bytes(err.data)}
    if result is None:
        if accounting.oom_kills() > oom0:
            why = "memory_limit: the session went over its memory limit"
        status, _, detail = why.partition(": ")
        return {**facts, "status": status, "detail": detail, "lost": True}, blobs
    if result.get("ok"):
        return {**facts, "status": "ok", "value": result.get("value"),
                "value_truncated": bool(result.get("value_truncated"))}, blobs
    return {**facts, "status": "error", "error": result.get("error") or {}}, blobs


class ResultLine:
    """A cell's result channel (session_kernel.py: the fd in argv[2]) as PID 1 reads it: the first line carrying the
    cell's nonce is its result, and the channel holds at most `cap` bytes for the cell (session_kernel.line_max: the
    most the interpreter writes for one result), kept in a Capture (accounting.py), which charges the cell past it
    (SandboxClock.charge_own). Past the cap, or where the nonce's line is no result, the cell is its own error
    (`wrong`, a crash that ends the session), never more of the runner's reading: a program can write this channel
    (the fd is in its interpreter), and PID 1's work on it is subtracted from the cell's clock as the runner's own
    (red team rt30ad: 8-byte junk lines for 1 s, each parsed by a copy of the whole buffer, answered `ok` charged
    0.001 s while the box used 0.52 s under a 0.25 s limit). Scanned once, linearly: the nonce is searched from where
    the last search stopped, the line's end from where the last chunk ended, and only the nonce's line is parsed;
    lines before it (a process of an earlier cell, junk) are dropped unparsed."""

    def __init__(self, nonce: str, cap: int, clock: accounting.SandboxClock) -> None:
        self.key, self.got = nonce.encode(), accounting.Capture(cap, clock)
        self.scan = 0  # where the next search (for the nonce, then for its line's end) starts
        self.hit = -1  # where the nonce is, once found
        self.wrong = ""

    def add(self, chunk: bytes) -> dict | None:
        """Take a chunk read from the channel; the cell's result once its line is complete."""
        self.got.add(chunk)
        if self.got.total > self.got.cap:
            self.wrong = f"the cell wrote over {self.got.cap} bytes to its result channel (one result's most)"
            return None
        buf = self.got.data
        if self.hit < 0:
            self.hit = buf.find(self.key, self.scan)
            if self.hit < 0:
                self.scan = max(0, len(buf) - len(self.key) + 1)
                return None
            self.scan = self.hit
        end = buf.find(b"\n", self.scan)
        if end < 0:
            self.scan = len(buf)
            return None
        try:
            msg = json.loads(buf[buf.rfind(b"\n", 0, self.hit) + 1:end])
        except ValueError:
            msg = None
        if isinstance(msg, dict) and msg.get("nonce") == self.key.decode():
            return msg
        self.wrong = "the line carrying the cell's nonce on its result channel is no result"
        return None


def write_files(head: dict, blobs: dict[str, bytes]) -> None:
    """Support files: plain names (the host checked them), created new, never through a link."""
    for name in head.get("files", []):
        if "/" in name or name in ("", ".", ".."):
            raise ValueError(f"bad file name {name!r}")
        fd = os.open(os.path.join(pid1.WORK, name), os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(blobs.get(f"file:{name}", b""))


def read_file(head: dict) -> tuple[dict, dict[str, bytes]]:
    """A regular file below /work, opened without following links at any step."""
    parts = session_tools.tool_parts(head.get("path", ""), False)
    if parts is None:
        return {"ok": False, "detail": f"path must name a file below the working dir, {session_tools.TOOL_PATH_RULE}"}, {}
    fd = os.open(pid1.WORK, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for i, part in enumerate(parts):
            last = i == len(parts) - 1
            flags = os.O_RDONLY | os.O_NONBLOCK | (0 if last else os.O_DIRECTORY)
            try:
                nfd = session_tools.open_lower(fd, part) if last else None  # a file the session did not change
                nfd = session_tools.open_nofollow(fd, part, flags) if nfd is None else nfd
            except OSError as e:
                return {"ok": False, "detail": f"cannot open {'/'.join(parts[:i + 1])}: {e.strerror}"}, {}
            os.close(fd)
            fd = nfd
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return {"ok": False, "detail": "not a regular file"}, {}
        cap = int(head.get("max", 1 << 20))
        data = bytearray()
        while len(data) <= cap and (chunk := os.read(fd, min(1 << 16, cap + 1 - len(data)))):
            data += chunk
        return {"ok": True, "truncated": len(data) > cap}, {"data": bytes(data[:cap])}
    finally:
        os.close(fd)


IDLE_POLL_S = 0.5


def reap(*waited: pid1.Started | None) -> None:
    """Reap every dead child of PID 1: the orphans of the session's processes end as ours, and a
    zombie holds one of the session's pids until reaped (red-team finding: 50 `(true &)` left 62
    zombies and later commands could not fork). Called under Box.lock only, as is every wait for
    `waited` (the interpreter, the launcher, a shell command), so a status reaped here is set on it, never lost."""
    own = {p.pid: p for p in waited if p is not None}
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        if pid in own and own[pid].returncode is None:
            own[pid].returncode = os.waitstatus_to_exitcode(status)


class Box:
    """The session's interpreter and what the idle watch needs, shared by the two threads of PID 1.
    The watch ends a session whose background processes burn CPU while no cell runs (red-team
    finding: a busy thread left by a cell ran unbounded until the idle TTL, up to an hour)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()  # held by the main thread for every request, by the watch to act
        self.kernel: Kernel | None = None
        self.spare: Kernel | None = None  # started ahead in a spare box of an environment ("prepare"), no session's yet
        self.launcher: session_tools.Launcher | None = None  # the shell's (session_spawn.py), started ahead or at the first command
        self.lost = ""
        self.idle_cpu: Callable[[], float] | None = None  # the CPU used since the last call ended (cpu_since)
        self.idle_spent = 0.0  # the CPU used between earlier calls: the budget is one for the session
        self.idle_cpu_max = 0.0

    def end(self, why: str) -> None:
        """Kill the interpreter and everything it started; later cells answer "lost" with `why`."""
        job_protocol.kill_all_others()
        if self.kernel is not None:
            self.kernel.close()
        self.drop_launcher()
        self.kernel, self.lost, self.idle_cpu = None, why, None
        self.idle_spent = 0.0

    def idle(self) -> None:
        """A call (or the start) ended with the session alive: the idle clock runs again."""
        self.idle_cpu = None if self.kernel is None else cpu_since().used

    def busy(self) -> bool:
        """A cell or shell command starts: its CPU is its own limit's, so the idle clock stops and
        what it counted joins the session's one budget (red-team finding: a clock restarted at every
        call let a spinner burn a core for the session's life under a cheap command every 0.3 s).
        False when the session is (now) ended."""
        if self.idle_cpu is not None:
            self.idle_spent += self.idle_cpu()
            self.idle_cpu = None
        return self.alive()

    def alive(self) -> bool:
        """End the session past its idle budget; whether it lives (every call asks first: a session
        its limit ended answers "lost" to every tool, never grades)."""
        if self.kernel is not None and self.idle_cpu_s() > self.idle_cpu_max:
            self.end(f"time_limit: processes left by a cell used {self.idle_cpu_s():.1f} s of CPU between cells "
                     f"(limit {self.idle_cpu_max:g} s in all)")
        return self.kernel is not None

    def drop_launcher(self) -> None:
        """Kill the shell's launcher and close our end of its socket (a reset counts sockets left)."""
        if self.launcher is not None:
            self.launcher.close()
            self.launcher = None

    def ready_launcher(self, start_s: float = session_tools.LAUNCHER_START_S) -> session_tools.Launcher:
        """The session's shell launcher, a new one (waiting at most start_s for it) where the session's
        processes killed or broke it."""
        if self.launcher is None or not self.launcher.alive():
            self.drop_launcher()
            self.launcher = session_tools.Launcher(start_s)
        return self.launcher

    def lost_reply(self) -> tuple[dict, dict[str, bytes]]:
        return {"status": "lost", "ok": False, "detail": self.lost or "the session has no interpreter", "lost": True}, {}

    def idle_cpu_s(self) -> float:
        """CPU the session's processes used between calls, in all; PID 1's own (this watch polls for
        as long as the idle TTL, up to an hour) is not theirs."""
        return self.idle_spent + (self.idle_cpu() if self.idle_cpu is not None else 0.0)


def watch_idle(box: Box) -> None:
    while True:
        time.sleep(IDLE_POLL_S)
        with box.lock:
            reap(box.kernel.proc if box.kernel is not None else None, box.launcher.proc if box.launcher else None)
            if box.idle_cpu is not None:
                box.alive()


def main() -> None:
    accounting.mount_cpu_clock()  # as root, before the uids: gVisor's CPU clock (docs/sandboxes.md "CPU time without a cgroup")
    pid1.harden()  # before reading anything (module docstring)
    job_protocol.note_start()  # what reset checks
    inp, outp = framing.INBOX, sys.stdout.buffer  # EAGAIN-safe (framing.Inbox)
    box = Box()
    threading.Thread(target=watch_idle, args=(box,), daemon=True, name="idle-watch").start()
    while True:
        msg = framing.read_message(inp)
        if msg is None:
            return
        head, blobs = msg
        with box.lock:
            reply = serve(box, head, blobs)
        framing.write_message(outp, *reply)


def serve(box: Box, head: dict, blobs: dict[str, bytes]) -> tuple[dict, dict[str, bytes]]:
    """One request (the module docstring), under box.lock."""
    op = head.get("op")
    try:
        if op == "ping":
            return {"ok": True, "pid": os.getpid(), "apart": pid1.APART, "confined": confine.ON[0]}, {}
        if op == "start":
            return start(box, head, blobs)
        if op == "cell":
            if not box.busy() or box.kernel is None:
                return box.lost_reply()
            reply = run_cell(box.kernel, head, blobs.get("code", b""))
            if reply[0].get("lost"):
                box.end(f"an earlier cell ended the session ({reply[0]['status']})")
            else:
                box.idle()
            return reply
        if op == "read":
            return read_file(head) if box.alive() else box.lost_reply()
        if op == "prepare":  # a spare box of an environment, between sessions: its tree linked ahead
            if box.kernel is not None:
                raise ValueError("a session is running")
            prepare(str(head.get("tree")))
            box.spare = box.spare or Kernel()
            box.ready_launcher()  # ahead too: the next session's first command finds it started
            return {"ok": True}, {}
        if op in ("shell", "write", "list", "snapshot", "delta"):
            return serve_tool(box, op, head, blobs)
        if op == "reset":
            for kernel in (box.kernel, box.spare):  # our ends of its socket pairs first: the reset counts every
                if kernel is not None:              # socket left against the fresh box's (leftovers.sockets_over_fresh)
                    kernel.close()
            box.spare = None
            box.drop_launcher()
            box.kernel, box.lost, box.idle_cpu, box.idle_spent = None, "", None, 0.0
            reply = job_protocol.reset(), {}
            session_tools.BASE.clear()
            session_tools.SETTLED.clear()
            PREPARED[0] = ""
            return reply
        return {"error": f"unknown op {op!r}"}, {}
    except Exception as e:  # report and keep serving: the host decides
        return {"error": f"{type(e).__name__}: {e}"[:300]}, {}

def start(box: Box, head: dict, blobs: dict[str, bytes]) -> tuple[dict, dict[str, bytes]]:
    """A session begins: its files (or its environment's tree, and a fork's changes), a fresh interpreter."""
    if box.kernel is not None:
        raise ValueError("the session is already started")
    if head.get("tree"):  # a session on a repository environment (session_tools.py), read-only at /srv
        prepare(str(head["tree"]))
        if head.get("delta"):  # a fork's or a snapshot's changes (docs/sessions.md "Fork and snapshot")
            try:
                session_tools.apply_delta(blobs.get("delta_entries", b"[]"), blobs.get("delta_data", b""))
            except OSError as e:  # the changes do not fit this box (the bound delta checked missed it): theirs, not the host's
                if e.errno not in (errno.ENOSPC, errno.EDQUOT):
                    raise
                return {"ok": False, "no_space": True, "error": f"the changes do not fit the session's /work: {e.strerror}"}, {}
            except ValueError as e:  # a name or link of the session's tree apply_delta refuses: theirs, never retried
                return {"ok": False, "unusable": True, "error": f"the changes cannot be applied: {e}"[:300]}, {}
        box.ready_launcher()  # started ahead where "prepare" ran: else now, not in the first command's time
    write_files(head, blobs)
    kernel, box.spare = box.spare or Kernel(), None  # one started ahead has run nothing: as fresh
    box.kernel, box.lost, box.idle_spent = kernel, "", 0.0
    box.idle_cpu_max = max(float(head.get("cpu_s") or 10.0), 1.0)  # the interpreter's own start fits
    box.idle()
    return {"ok": True}, {}


PREPARED = [""]  # /work holds the environment's tree as link_tree made it in this mode, and nothing else yet


def prepare(tree: str) -> None:
    """The environment's tree linked (or copied: `tree`, session_tools.link_tree) into /work and
    recorded (record_base), once between resets: done ahead in a spare box ("prepare"), so its next
    session's start skips it."""
    if PREPARED[0] == tree:
        return
    if PREPARED[0]:
        raise ValueError(f"the tree is prepared as {PREPARED[0]!r}, not {tree!r}")
    session_tools.link_tree(tree)
    session_tools.record_base()
    PREPARED[0] = tree


def _shell(box: Box, head: dict, command: bytes, clock) -> tuple[dict, dict[str, bytes]]:
    """One shell command (session_tools.run_shell); where its launcher refused to start it or none could be
    started, once more from a fresh launcher (the refusal may be limits the session's processes set on the old
    one), then the command's own `not_started` reply: a command that cannot start (its launcher included: the
    session's processes may fill its process limit) never loses the session; the next command asks again.
    A fresh launcher's start is the command's wall time: both tries and the command share its wall limit, so
    the reply comes within the host's wait (sandbox/session.py: the wall limit and 10 s), never past it."""
    deadline = time.monotonic() + float(head["wall_s"])

    def run() -> tuple[dict, dict[str, bytes]]:
        left = deadline - time.monotonic()
        if left <= 0:
            raise session_tools.LauncherFailed(errno.ETIME, "no launcher started within the command's wall limit")
        launcher = box.ready_launcher(min(session_tools.LAUNCHER_START_S, left))
        return session_tools.run_shell({**head, "wall_s": round(max(deadline - time.monotonic(), 0.0), 6)},
                                       command, clock,
                                       lambda proc: reap(proc, box.kernel.proc if box.kernel else None,
                                                         box.launcher.proc if box.launcher else None),
                                       launcher)
    refused = (session_tools.SpawnRefused, session_tools.LauncherFailed)
    try:
        return run()
    except refused:
        try:
            return run()
        except refused as exc:
            return session_tools.not_started(head, clock, exc)


def serve_tool(box: Box, op: str, head: dict, blobs: dict[str, bytes]) -> tuple[dict, dict[str, bytes]]:
    """The tools of a session on an environment (session_tools.py), under box.lock."""
    if not (box.busy() if op == "shell" else box.alive()):  # ended by its limit: lost to every tool
        return box.lost_reply()
    if op == "shell":
        try:
            clock = cpu_since(head)  # before the launcher starts, if it must: its start is the command's CPU
            return _shell(box, head, blobs.get("command", b""), clock)
        finally:
            box.idle()
    if op == "write":
        return session_tools.write_file(head, blobs.get("data", b"")), {}
    if op == "list":
        return session_tools.list_dir(head), {}
    if op == "delta":
        return session_tools.delta(head)
    return session_tools.snapshot(head)


if __name__ == "__main__":
    main()

"""The syntax check of a Python program before its tests (the "files" op's pycheck): compile() as the
run compiles it, never in PID 1, in the syntax checker process (Checker) where the runner is apart
from the programs' uid, else in a child forked for it. Standard library only."""
from __future__ import annotations

import json
import os
import resource
import socket
import sys
from typing import TYPE_CHECKING, cast

import leftovers
import pid1

if TYPE_CHECKING:
    from types import FrameType

SOURCE_MAX = 1 << 20  # bytes of a program the syntax check reads (the host bounds programs far below)
CHECKER_GROWTH_KB = 4 << 10  # the most a kept syntax checker may have grown by: the container's memory
# limit counts it while the program runs
FAULT_AROUND_KB = 2 << 10  # what the next check may still add to a kept checker: under gVisor a page first
# touched comes back with up to 2 MiB around it (the Sentry's privateAllocUnit; _settled_kb)
CHECKER_KEEP_KB = CHECKER_GROWTH_KB - FAULT_AROUND_KB  # a check that leaves it grown more replaces it (Checker.check)
CHECK_DEPTH_SLACK = 20  # frames of recursion limit the check has beyond a fresh script's (_compile_check)
CHECKER_WAIT_S = 20.0  # a parse longer than this "did not finish": the program's compile_error


def pycheck(req: dict) -> dict:
    """Python syntax check (this interpreter is the one that runs the program), never in PID 1:
    what compile() allocates (~140 MB for 240 KB of source) must not stay here. In the syntax
    checker where there is one (Checker), else in a forked child."""
    path = os.path.join(pid1.WORK, leftovers.safe_name(req["dir"]), leftovers.safe_name(req["file"]))
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    try:
        answer = CHECKER.check(fd, req["file"])
        if answer is not None:
            return answer
        src = os.pread(fd, SOURCE_MAX, 0)
    finally:
        os.close(fd)
    return forked_check(src, req["file"])


def forked_check(src: bytes, name: str) -> dict:
    """The syntax check in a child forked for it (a fork of PID 1 per job: 2.8 ms of the
    container's CPU, docs/benchmarks.md): where there is no Checker."""
    r, w = pid1.channel()
    pid = os.fork()
    if pid == 0:  # child: answer on the pipe, then leave without running any cleanup of PID 1
        code = 0
        try:
            os.close(r)
            os.write(w, json.dumps(_compile_check(src, name)).encode())
        except BaseException:
            code = 1
        os._exit(code)
    os.close(w)
    with os.fdopen(r, "rb") as f:
        data = f.read()
    _, status = os.waitpid(pid, 0)
    if not data:  # killed (out of memory on a huge program): the program's doing
        return {"ok": False, "error_text": f"the syntax check did not finish (wait status {status})"}
    return json.loads(data)


def _compile_check(src: bytes, name: str) -> dict:
    """compile() as the program's run compiles it, never stricter: Python 3.11 bounds the compiler's
    nesting by the recursion limit less the frames already on the stack (3 levels a frame), and
    the check runs a few frames deep where `python3 -I NAME` compiles with none: a right answer at
    the edge was a compile_error (tests/test_sandbox_checker_attacks.py). The limit is raised by
    the check's depth and CHECK_DEPTH_SLACK frames; a program past the run's edge then fails its
    run (a runtime_error), which no right answer is."""
    frame: FrameType | None = sys._getframe()
    limit, depth = sys.getrecursionlimit(), 0
    while frame is not None:
        depth, frame = depth + 1, frame.f_back
    sys.setrecursionlimit(limit + depth + CHECK_DEPTH_SLACK)
    try:
        compile(src, name, "exec", dont_inherit=True)
    except (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError) as e:
        import traceback
        return {"ok": False, "error_text": "".join(traceback.format_exception_only(type(e), e))[-2000:]}
    finally:
        sys.setrecursionlimit(limit)
    return {"ok": True}


class Checker:
    """The syntax checker: a process forked at start, before any request, that compiles the Python
    programs pycheck sends it (their file's fd, on a socket) and answers; one round trip instead
    of a fork of PID 1 per job. It never runs a program's code (compile() only parses) and holds
    all three uids the judge's, so a program can neither signal, ptrace, nor read it, nor change
    its limits or priority. A parse that kills it (out of memory) or outlasts CHECKER_WAIT_S is
    that program's: "did not finish", as a forked check's; the next check starts a fresh one
    (forked from PID 1 then: a process that never runs a program, holding only the judge's uids).
    Only where the runner is APART: otherwise the reset's kill(-1) would end it every job."""

    def __init__(self) -> None:
        self.sock: socket.socket | None = None
        self.pid = 0
        self.sched: tuple = ()
        self.growth_kb = 0  # what its last check found it had grown since its start (serve_checks)

    def spared(self) -> set[int]:
        return {self.pid} if self.pid else set()

    def check_state(self) -> None:
        """After a job: gVisor lets any process set another's CPU set and priority (measured:
        tests/test_sandbox_round_trips.py), which would slow every later check; a changed checker
        is ended, and the next check starts a fresh one."""
        if self.pid and pid1.sched_state(self.pid) != self.sched:
            self.drop()

    def start(self) -> None:
        a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        pid = os.fork()
        if pid == 0:
            try:
                a.close()
                keep = b.fileno()
                null = os.open("/dev/null", os.O_RDWR)
                for fd in (0, 1, 2):  # never the host's channel
                    os.dup2(null, fd)
                os.closerange(3, keep)
                os.closerange(keep + 1, resource.getrlimit(resource.RLIMIT_NOFILE)[0])
                judge = os.getuid()
                os.setresuid(judge, judge, judge)
                serve_checks(b)
            finally:
                os._exit(0)
        b.close()
        self.sock, self.pid, self.sched, self.growth_kb = a, pid, pid1.sched_state(pid), 0

    def check(self, fd: int, name: str) -> dict | None:
        """The check of the program at fd; None where there is no checker (the caller forks)."""
        if not pid1.APART:
            return None
        if self.pid and not self.alive():
            self.drop()
        if not self.pid:
            self.start()
        try:
            socket.send_fds(cast(socket.socket, self.sock), [name.encode()[:255]], [fd])
            answer = pid1.recv_json(self.sock, CHECKER_WAIT_S)
        except (OSError, ValueError):  # it died or hung on this program's parse: the program's doing
            self.drop()
            return {"ok": False, "error_text": "the syntax check did not finish (out of memory or time)"}
        self.growth_kb = int(answer.pop("growth_kb", 0))
        if self.growth_kb > CHECKER_KEEP_KB:  # not CHECKER_GROWTH_KB: a checker a big parse left just under it
            self.drop()  # was tipped over by the next one-line check and replaced after it (flaky round-trip tests)
        return answer

    def alive(self) -> bool:
        """False when it is gone (its end of the socket closed): found before a check, not during
        one, so an earlier job's doing never fails a later job's check."""
        sock = cast(socket.socket, self.sock)  # there is one while there is a pid (start, drop)
        try:
            sock.setblocking(False)
            return sock.recv(1, socket.MSG_PEEK) != b""
        except BlockingIOError:
            return True
        except OSError:
            return False
        finally:
            sock.setblocking(True)

    def drop(self) -> None:
        """End it and reap it (our child), so that the reset finds no process left."""
        if self.sock is not None:
            self.sock.close()
        if self.pid:
            pid1.kill_quietly(self.pid)
            try:
                os.waitpid(self.pid, 0)
            except ChildProcessError:
                pass
        self.sock, self.pid = None, 0

    def lost(self, pid: int) -> None:
        """Reaped by the runner (kill_sparing): dropped; the next check starts another."""
        if pid == self.pid:
            self.pid = 0
            self.drop()


def serve_checks(sock: socket.socket) -> None:
    """The syntax checker's loop (Checker): a program's file fd in, the check's answer out, with
    how much this process has grown since its start (Checker.check replaces it past
    CHECKER_GROWTH_KB). Returns when the runner is gone."""
    start_kb = _settled_kb()
    while True:
        try:
            msg, fds, _, _ = socket.recv_fds(sock, 256, 1)
        except OSError:
            return
        if not msg:
            return
        src = _read_source(fds[0]) if fds else b""
        for fd in fds:
            os.close(fd)
        answer = _compile_check(src, msg.decode(errors="replace"))
        answer["growth_kb"] = pid1.rss_kb() - start_kb
        sock.send(json.dumps(answer).encode())


def _settled_kb() -> int:
    """The checker's resident memory once a check's own code has run: the baseline its growth
    (CHECKER_GROWTH_KB) is counted from. A forked process does not have its memory yet: gVisor's
    fork copies only private pages, and a page first touched after it (the interpreter's code,
    a heap page the runner had freed, the read buffer) comes back with up to 2 MiB around it (the
    Sentry's privateAllocUnit); glibc's first 1 MiB read buffer (SOURCE_MAX) moves its mmap
    threshold, so the next stays in the heap. Counted from a baseline read before that, a checker
    restarted by the runner was "grown" by 3.7-4.5 MB after a one-line program's check and replaced
    after every check (tests/test_sandbox_round_trips.py). So it first checks a file as a program's:
    this module's own source (read as a program's is), then an error (traceback's import)."""
    try:
        fd = os.open(__file__, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:  # never: the runner imported it from there (and a wrong baseline fails no check)
        src = b"pass\n"
    else:
        src = _read_source(fd)
        os.close(fd)
    for code in (src, b"(\n"):
        json.dumps(_compile_check(code, "<settle>"))
        pid1.rss_kb()
    return pid1.rss_kb()


def _read_source(fd: int) -> bytes:
    """A program's source, at most SOURCE_MAX bytes (b"" where it cannot be read)."""
    try:
        return os.pread(fd, SOURCE_MAX, 0)
    except OSError:
        return b""


CHECKER = Checker()

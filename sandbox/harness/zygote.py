"""The warm interpreter (docs/sandboxes.md, "The warm interpreter"): a Python program or a judge starts
as a fork of a process that has already imported what tests need, not as a new interpreter
(about 1 ms instead of 30-60). Standard library only.

Two processes, both forked by the runner at container start, before it reads its first request
(sandbox/harness/warm_keeper.py, Warm.start), so neither ever held a request's data:

- the mother imports nothing and only forks zygotes (`spawn`), each with a fresh socket;
- a zygote imports WARM, the judge and the wire, then only forks: it receives argv, cwd, env and
  limits as JSON, and the process's std streams and passed fds with SCM_RIGHTS, on a SOCK_SEQPACKET
  socket (never a pipe: gVisor lets a same-uid process open another's pipes through /proc/PID/fd,
  not its sockets). Test data and expected outputs reach the forked process through those fds only,
  never the zygote: a program that reads its whole memory finds no other job's data there.

Both keep the runner's uids (real and saved the judge's, effective the program's): a program can
neither signal nor ptrace them. The mother forks each zygote through a short-lived middle process,
so the zygote is PID 1's child (orphans go to PID 1), and the zygote forks with clone(CLONE_PARENT)
(clone_parent), so each program is the runner's child too: the runner waits for it, kills it and
counts its CPU time exactly as for a process it started itself. Where the flag does nothing (gVisor), a
program (a stdin test's run) is the zygote's own child instead (fork_watched): the zygote reaps it and
reports its exit status and CPU time on a socket the runner gave with the request, so no middle process
is forked per test; judges and their program processes go through a middle process
(fork_through_middle). The forked process then takes the program's uid,
limits, session, std streams, environment and argv as an exec of `python3 -I prog.py` would
(become_program); what cannot be the same is listed in README.md.
"""
from __future__ import annotations

import builtins
import io
import json
import os
import resource
import signal
import socket
import sys
import time
import types

import pid1
import program_limits

HERE = os.path.dirname(os.path.abspath(__file__))
# What programs and tests commonly import (and the judge's own imports): a forked process finds
# them loaded. numpy, pandas, pytest are not: bench/code_throughput.py measured their import at
# 0.2-1 s and 20-60 MB of memory the container's limit would count in every test.
WARM = ("typing", "collections", "collections.abc", "itertools", "math", "cmath", "re", "functools",
        "heapq", "bisect", "string", "dataclasses", "fractions", "decimal", "statistics", "copy",
        "operator", "array", "random", "datetime", "enum", "json", "ast", "traceback", "unittest",
        "io", "textwrap", "queue", "struct", "hashlib", "base64", "abc", "contextlib", "numbers",
        "inspect", "importlib", "select", "subprocess", "ctypes", "threading", "atexit", "locale",
        "tempfile", "pickle", "types")
# Never in a program's sys.modules: every module of the harness (the runner's own among them, which
# the mother and so each zygote inherit from PID 1), named by its files, so a new one is never left out
HARNESS = tuple(sorted(name[:-3] for name in os.listdir(HERE) if name.endswith(".py") and name != "__init__.py"))
SERVE: list = []  # serve.py's module, imported by warm_up (become_serve)
MAX_MSG = 1 << 16
MAX_FDS = 8
STREAM_NAMES = ("<stdin>", "<stdout>", "<stderr>")


def mother(sock: socket.socket) -> object:
    """Fork a zygote per `spawn` message (its socket comes with it); reply with its pid. Returns
    only in a forked program or judge (the object to run)."""
    quiet_std_fds()
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # a zygote the runner killed leaves no zombie
    while True:
        try:
            msg, fds, _, _ = socket.recv_fds(sock, MAX_MSG, 1)
        except OSError:
            os._exit(0)
        if not msg:
            os._exit(0)  # the runner is gone
        if len(fds) != 1:
            for fd in fds:
                os.close(fd)
            sock.send(b'{"error": "spawn takes one socket"}')
            continue
        pid, run = orphan(sock, fds[0])
        if run is not None:
            return run
        sock.send(json.dumps({"pid": pid} if pid else {"error": "the fork failed"}).encode())


def orphan(sock: socket.socket, fd: int) -> tuple[int, object]:
    """Fork a zygote through a middle process that exits at once, so that it is PID 1's child
    and its own forks are too (clone_parent). Returns (its pid or 0, None) here, or (0, what to
    run) in a forked program or judge. Once per zygote, not per fork."""
    r, w = pid1.channel()  # never a pipe (pid1.channel): the pid it carries decides what the runner waits for
    mid = os.fork()
    if mid == 0:  # the middle process (SIGCHLD ignored here: the kernel reaps it)
        pid = -1
        try:
            os.close(r)
            pid = os.fork()
            if pid:
                os.write(w, str(pid).encode())
        except BaseException:  # noqa: BLE001
            os._exit(1)
        if pid:
            os._exit(0)
        os.close(w)
        sock.close()
        return 0, zygote(socket.socket(fileno=fd))
    os.close(w)
    os.close(fd)
    with os.fdopen(r, "rb") as f:
        data = f.read()
    try:  # SIGCHLD ignored: this returns (ECHILD) once the middle process is gone, so the zygote is
        # PID 1's before the runner hears its pid and asks it for a fork (a clone_parent child then
        # never has the middle process for its parent, whatever the host's load delays)
        os.waitpid(mid, 0)
    except ChildProcessError:
        pass
    return (int(data) if data.isdigit() else 0), None


def quiet_std_fds() -> None:
    """fds 0-2 are the container's channel to the host: /dev/null here, and every fd of the
    runner's closed but the socket (which the caller keeps above 2)."""
    null = os.open("/dev/null", os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.close(null)


def warm_up() -> None:
    """Import WARM, the judge and the wire (judge.py puts its own dir on sys.path; a program's
    sys.path must not have it: become_program)."""
    import importlib
    for name in WARM:
        try:
            importlib.import_module(name)
        except ImportError:
            pass
    sys.path.insert(0, HERE)
    import judge  # noqa: F401
    import serve
    SERVE.append(serve)
    while HERE in sys.path:
        sys.path.remove(HERE)
    PARENT_CLONES[0] = parent_clones()  # before any job's fork
    import gc
    gc.collect()
    gc.freeze()  # forked processes share these pages instead of touching them at their first collection


def zygote(sock: socket.socket) -> object:
    """Warm up, say so, then fork a process per message. Returns only in a forked process. The ready
    message says whether a program may be its own child (`parents`: fork_watched), where
    clone(CLONE_PARENT) does nothing."""
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)  # as a fresh interpreter has it (its forks are PID 1's children)
    warm_up()
    if not PARENT_CLONES[0]:
        watch_children()
    sock.send(json.dumps({"ready": True, "pid": os.getpid(), "parents": bool(WAKE)}).encode())
    while True:
        try:
            wait_request(sock)
            msg, fds, _, _ = socket.recv_fds(sock, MAX_MSG, MAX_FDS)
        except OSError:
            os._exit(0)
        if not msg:
            os._exit(0)
        try:
            job = json.loads(msg)
            pid, run = fork_one(sock, job, fds)
        except Exception as e:  # noqa: BLE001 - a bad request: say so, keep serving
            for fd in fds:
                try:
                    os.close(fd)
                except OSError:
                    pass
            sock.send(json.dumps({"error": f"{type(e).__name__}: {e}"[:300]}).encode())
            continue
        if run is not None:
            return run
        sock.send(json.dumps({"pid": pid}).encode())


def fork_one(sock: socket.socket, job: dict, fds: list[int]) -> tuple[int, object]:
    """Fork the process so that it is PID 1's child, which waits for it, kills it and counts its
    CPU time as for a process it started itself: as a sibling of this zygote (clone_parent), or
    where that does not work (PARENT_CLONES) through a middle process that exits at once; or, a
    program whose request brings a status socket (`status`, its last fd), as this zygote's own
    child, reaped and reported here (fork_watched). Returns (its pid, None) here, or (0, what to
    run) in the forked process."""
    status = bool(job.get("status"))
    if len(fds) != 3 + len(job.get("pass") or ()) + status:
        raise ValueError("the std streams, each passed fd and the status socket, in order")
    if status and (not WAKE or job.get("kind") != "program"):
        raise ValueError("a status socket is for a program where the zygote is its parent")
    if status:
        pid = fork_watched(fds[-1])
    else:
        pid = clone_parent() if PARENT_CLONES[0] else fork_through_middle(sock)
    if pid == 0:
        sock.close()
        unwatch()
        return 0, lambda: become(job, fds[:len(fds) - status])
    for fd in fds[:len(fds) - status]:
        os.close(fd)
    return pid, None


WAKE: list[socket.socket] = []  # the read end SIGCHLD wakes (signal.set_wakeup_fd), then its write end
WATCHED: dict[int, int] = {}  # a forked program's pid -> the status socket its end is reported on


def watch_children() -> None:
    """Wake wait_request when a child ends: SIGCHLD (a handler that does nothing: the wake-up byte is
    the point) writes to a socket pair, never a pipe (a program of the zygote's effective uid could
    open a pipe of it through /proc/PID/fd under gVisor and drain it: docs/sandboxes.md "The warm
    interpreter")."""
    r, w = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    r.setblocking(False)
    w.setblocking(False)
    signal.set_wakeup_fd(w.fileno(), warn_on_full_buffer=False)
    signal.signal(signal.SIGCHLD, lambda signum, frame: None)
    WAKE[:] = [r, w]


def unwatch() -> None:
    """In a forked process: SIGCHLD as a fresh interpreter has it and no wake-up fd (the fd itself
    goes with every other in place_fds), before any of its own children can end."""
    if WAKE:
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        for end in WAKE:  # the objects let go of their fds: never closed later under a number the program reused
            end.detach()
        WAKE.clear()


def wait_request(sock: socket.socket) -> None:
    """Return when a request is there; meanwhile report each watched child that ended."""
    if not WAKE:
        return
    import select
    while True:
        ready = select.select([sock, WAKE[0]], [], [])[0]
        if WAKE[0] in ready:
            try:
                while WAKE[0].recv(256):
                    pass
            except BlockingIOError:
                pass
            report_ended()
        if sock in ready:
            return


def fork_watched(status_fd: int) -> int:
    """os.fork() of a program that stays this zygote's child: one process per test where
    clone(CLONE_PARENT) does nothing (gVisor), not two. Its end is reported on status_fd (report_ended)."""
    pid = os.fork()  # failed: the caller closes every fd of the request, this one too
    if pid:
        WATCHED[pid] = status_fd
    return pid


def report_ended() -> None:
    """Reap every child that ended; for a watched one send what os.wait4 said of it on its status
    socket (status, CPU seconds of it and the children it reaped, peak RSS), then close it: the runner
    counts that CPU time as if it had reaped the program itself (job_protocol.py run_exec). A
    runner gone from the other end is no error."""
    while True:
        try:
            pid, status, ru = os.wait4(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if not pid:
            return
        fd = WATCHED.pop(pid, -1)
        if fd < 0:
            continue
        try:
            os.write(fd, json.dumps({"status": status, "cpu_s": ru.ru_utime + ru.ru_stime,
                                     "maxrss_kb": ru.ru_maxrss}).encode())
        except OSError:
            pass
        finally:
            os.close(fd)


def fork_through_middle(sock: socket.socket) -> int:
    """os.fork() through a middle process that says the pid and exits, so that the child is an
    orphan (PID 1's). The child starts once the middle process is reaped (/proc shows neither)."""
    r, w = pid1.channel()  # the middle process says the pid on it (never a pipe: pid1.channel)
    go_r, go_w = pid1.channel()  # closed here once the middle process is reaped: the process starts then
    mid = os.fork()
    if mid == 0:  # the middle process: fork, say the pid, leave (never back into the zygote's loop)
        pid = -1
        try:
            os.close(r)
            os.close(go_w)
            pid = os.fork()
            if pid:
                os.write(w, str(pid).encode())
        except BaseException:  # noqa: BLE001
            os._exit(1)
        if pid:
            os._exit(0)
        os.close(w)
        os.read(go_r, 1)  # EOF when the zygote has reaped the middle process
        os.close(go_r)
        return 0
    os.close(w)
    os.close(go_r)
    try:
        with os.fdopen(r, "rb") as f:
            pid = int(f.read() or b"0")
        os.waitpid(mid, 0)
    finally:
        os.close(go_w)
    if not pid:
        raise OSError("the fork failed")
    return pid


PARENT_CLONES = [False]  # clone_parent makes our parent's child here (parent_clones, at warm-up)


def parent_clones() -> bool:
    """Whether clone(CLONE_PARENT) gives our parent the child here: Linux does; gVisor (runsc)
    ignores the flag and the child is ours (measured: docs/sandboxes.md, "The warm interpreter").
    Asked once by a child that says its parent and exits; one the flag made our parent's is left
    for PID 1 to reap (job_protocol.reset: reap_children), dead before we say ready (ended), so
    that the reset that waited for us finds no process of ours beside the zygote. Never with another thread running: glibc's fork()
    then takes and resets its malloc, stdio and loader locks and runs at-fork handlers, which the
    raw clone skips (the zygote's imports start none: tests/test_sandbox_clone_attacks.py)."""
    if len(os.listdir("/proc/self/task")) != 1:
        return False
    r, w = pid1.channel()
    try:
        pid = clone_parent()
    except OSError:
        os.close(r)
        os.close(w)
        return False
    if pid == 0:
        os.write(w, str(os.getppid()).encode())
        os._exit(0)
    os.close(w)
    with os.fdopen(r, "rb") as f:
        said = f.read()
    ok = said == str(os.getppid()).encode()
    if not ok:
        try:
            os.waitpid(pid, 0)
        except ChildProcessError:
            pass
    else:
        ended(pid)
    return ok


ENDED_WAIT_S = 2.0  # how long the probe child may take to exit after closing its pipe (a loaded host)


def ended(pid: int) -> None:
    """Wait until a child of our parent's is a zombie or gone: its pipe closes before it exits, so
    the pipe's end alone would let the reset read it as a live process (a box replaced for it)."""
    deadline = time.monotonic() + ENDED_WAIT_S
    while time.monotonic() < deadline:
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                if f.read().rpartition(b")")[2].split()[0] in (b"Z", b"X"):
                    return
        except OSError:
            return
        time.sleep(0.0005)


CLONE_PARENT = 0x00008000
CLONE_CHILD_CLEARTID = 0x00200000
CLONE_CHILD_SETTID = 0x01000000
# clone(2)'s number and where its child-tid pointer goes (x86_64: flags, stack, ptid, ctid, tls;
# aarch64: flags, stack, ptid, tls, ctid), then set_robust_list(2)'s and get_robust_list(2)'s numbers
CLONE_ABI = {"x86_64": (56, 3, 273, 274), "aarch64": (220, 4, 99, 100)}.get(os.uname().machine)
TID_AT: list[int] = []  # the address of this thread's TID in libc's thread struct (tid_address)
ROBUST: list[tuple[int, int]] = []  # this thread's robust-mutex list head and its size (robust_list)


def tid_address() -> int:
    """Where glibc keeps this (main) thread's TID: the word its fork() has the kernel write the
    child's TID into (CLONE_CHILD_SETTID), so that the child's pthread_kill, mutex owners and
    the like name the child. Found once: of the words of the thread struct (pthread_self) that
    hold our TID (the pid: single-threaded), the one that holds the child's pid in an os.fork()
    child; 0 where not exactly one (clone_parent then refuses: fork_through_middle)."""
    if TID_AT:
        return TID_AT[0]
    import ctypes
    libc = ctypes.CDLL(None)
    libc.pthread_self.restype = ctypes.c_void_p
    base = libc.pthread_self()
    mine = [base + off for off in range(0, 1024, 4) if ctypes.c_int.from_address(base + off).value == os.getpid()]
    r, w = pid1.channel()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        os.write(w, json.dumps([a for a in mine if ctypes.c_int.from_address(a).value == os.getpid()]).encode())
        os._exit(0)
    os.close(w)
    with os.fdopen(r, "rb") as f:
        moved = json.loads(f.read() or b"[]")
    os.waitpid(pid, 0)
    TID_AT.append(moved[0] if len(moved) == 1 else 0)
    return TID_AT[0]


def robust_list() -> tuple[int, int]:
    """This (main) thread's robust-mutex list as glibc registered it at start (get_robust_list):
    the kernel clears it in every new process and glibc's fork() registers it again in its child,
    so that a robust mutex a process holds when it exits or execs is released (a waiter gets
    EOWNERDEAD); clone_parent's child registers it too. (0, 0) where it cannot be read. Once:
    the zygote holds no robust mutex, so its list is the empty one glibc's fork() sets up."""
    if not ROBUST:
        import ctypes
        head, size = ctypes.c_void_p(), ctypes.c_size_t()
        got = -1
        if CLONE_ABI is not None:
            got = ctypes.CDLL(None).syscall(ctypes.c_long(CLONE_ABI[3]), ctypes.c_long(0), ctypes.byref(head),
                                            ctypes.byref(size))
        ROBUST.append((head.value or 0, size.value) if got == 0 else (0, 0))
    return ROBUST[0]


def clone_parent() -> int:
    """os.fork() whose child is our parent's child (clone(CLONE_PARENT)), with no middle process
    to fork and exit (one copy of this interpreter's page tables and one teardown fewer per fork:
    docs/benchmarks.md "Where a trivial /run_code request's time goes"). The same as os.fork
    around the system call: the interpreter's before/after-fork steps (PyOS_BeforeFork and
    PyOS_AfterFork_*: GIL, import lock, threading, os.register_at_fork hooks such as random's
    reseed), glibc's TID word (tid_address) and robust-mutex list (robust_list). Called with the
    GIL held (PyDLL): nothing runs in between. Our parent must be PID 1 (Warm.spawn: the mother orphans each zygote)."""
    import ctypes
    ctid = tid_address()
    if CLONE_ABI is None or not ctid:
        raise OSError("clone(CLONE_PARENT) is not set up here")
    nr, at, set_robust, _ = CLONE_ABI
    head, size = robust_list()
    args = [ctypes.c_long(0)] * 5
    args[0] = ctypes.c_long(CLONE_PARENT | CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID | signal.SIGCHLD)
    args[at] = ctypes.c_long(ctid)
    libc = ctypes.PyDLL(None, use_errno=True)
    api = ctypes.pythonapi
    api.PyOS_BeforeFork()
    pid = libc.syscall(ctypes.c_long(nr), *args)
    if pid == 0:
        if head:  # as glibc's _Fork does in its child: the kernel gave this process none
            libc.syscall(ctypes.c_long(set_robust), ctypes.c_void_p(head), ctypes.c_size_t(size))
        api.PyOS_AfterFork_Child()
        return 0
    err = ctypes.get_errno()
    api.PyOS_AfterFork_Parent()
    if pid < 0:
        raise OSError(err, f"clone: {os.strerror(err)}")
    return pid


def place_fds(fds: list[int], targets: list[int]) -> None:
    """Give each received fd its number in the new process, and close every other fd."""
    import fcntl
    high = max(targets) + 1  # above every target: no dup2 below lands on a received fd still needed
    tmp = [fcntl.fcntl(fd, fcntl.F_DUPFD, high) for fd in fds]
    for fd in fds:
        os.close(fd)
    for src, dst in zip(tmp, targets):
        os.dup2(src, dst)
    keep = sorted(set(targets))
    last = -1
    for fd in keep + [resource.getrlimit(resource.RLIMIT_NOFILE)[0]]:
        if fd > last + 1:  # os.closerange(0, 0) closes every fd: close_range(0, -1 as unsigned)
            os.closerange(last + 1, fd)
        last = fd


def std_streams() -> None:
    """sys.stdin/stdout/stderr as a fresh `python3 -I` makes them for pipes under LANG=C.UTF-8:
    UTF-8, surrogateescape (stderr backslashreplace), no newline translation, stdout block-buffered,
    stderr line-buffered (CPython's create_stdio)."""
    streams = []
    for fd, name in enumerate(STREAM_NAMES):
        raw = io.FileIO(fd, "rb" if fd == 0 else "wb", closefd=False)
        raw.name = name
        buf = io.BufferedReader(raw) if fd == 0 else io.BufferedWriter(raw)
        text = io.TextIOWrapper(buf, encoding="utf-8", errors="backslashreplace" if fd == 2 else "surrogateescape",
                                newline="\n", line_buffering=fd == 2)
        text.mode = "r" if fd == 0 else "w"  # type: ignore[misc]  # writable on TextIOWrapper, as CPython's create_stdio sets it
        streams.append(text)
    KEEP_ALIVE.extend((sys.stdin, sys.stdout, sys.stderr, sys.__stdin__, sys.__stdout__, sys.__stderr__))
    sys.stdin, sys.stdout, sys.stderr = streams
    sys.__stdin__, sys.__stdout__, sys.__stderr__ = streams  # type: ignore[misc]  # Final in typeshed; a fresh interpreter's are these


KEEP_ALIVE: list = []  # the zygote's own std stream objects: never finalized in a forked process


def become(job: dict, fds: list[int]) -> None:
    """The forked process: fds, cwd, session, uids, limits, signals, environment, std streams;
    then the program (become_program) or the judge (become_judge). Never returns: SystemExit ends
    the interpreter as a script's end would (threads joined, atexit, streams flushed)."""
    place_fds(fds, [0, 1, 2] + [int(t) for t in job.get("pass") or ()])
    os.chdir(job["cwd"])
    os.setsid()
    kind = job.get("kind")
    judge = kind == "judge"
    program_limits.apply(job["limits"])  # the spec the runner made as for an exec (warm_keeper.py fork_request)
    signal.signal(signal.SIGINT, signal.default_int_handler)  # as a fresh interpreter has them
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    os.environ.clear()
    os.environ.update(job["env"])
    std_streams()
    argv = list(job["argv"])
    sys.orig_argv = argv
    sys.argv = argv[2:]
    if judge:
        raise SystemExit(become_judge())
    if kind == "serve":
        become_serve(int(argv[3]), int(argv[4]))
    become_program(argv[2])


def become_judge() -> int:
    """harness/judge.py's main, already compiled and imported (fork_judge ran it as a script)."""
    sys.path.insert(0, HERE)
    judge = sys.modules["judge"]
    sys.modules["__main__"] = judge
    code = 0
    try:
        judge.main()
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    except BaseException:  # noqa: BLE001 - the judge's failure: a traceback and a non-zero exit
        import traceback
        traceback.print_exc()
        code = 1
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def become_serve(in_fd: int, out_fd: int) -> None:
    """A judged task's program process (harness/judge.py start_program, through the runner's
    keep_program): serve.py's loop, already imported, as `python3 -I serve.py IN OUT` runs it; no
    harness module in sys.modules but serve (as __main__), wire and wire_rich."""
    dumpable()
    for name in HARNESS + ("__main__",):
        if name not in ("wire", "wire_rich"):
            sys.modules.pop(name, None)
    serve = sys.modules["__main__"] = SERVE[0]
    sys.path.insert(0, HERE)  # as serve.py puts it there: wire imports wire_rich from it
    sys.setrecursionlimit(sys.getrecursionlimit() + stack_depth() - 1)  # serve.main as deep as in a script
    status = 0
    try:
        serve.main(in_fd, out_fd)
    except SystemExit as e:
        status = exit_status(e.code)
    except BaseException:  # noqa: BLE001 - as the interpreter reports an uncaught exception
        import traceback
        traceback.print_exc()
        status = 1
    finish(sys.modules.get("solution") or types.ModuleType("solution"), status, False)


def dumpable() -> None:
    """PR_SET_DUMPABLE 1, as after an exec (the runner is not)."""
    import ctypes
    ctypes.CDLL(None, use_errno=True).prctl(4, 1, 0, 0, 0)


def stack_depth() -> int:
    """Frames below the caller's, the caller's included."""
    depth = 0
    frame: types.FrameType | None = sys._getframe(1)
    while frame is not None:
        depth += 1
        frame = frame.f_back
    return depth


def become_program(script: str) -> None:
    """Run the script as `python3 -I script` runs it: a fresh __main__ module, the absolute path as
    __file__ and in tracebacks, no harness module loaded, the recursion depth of a fresh interpreter."""
    dumpable()
    for name in HARNESS + ("__main__",):
        sys.modules.pop(name, None)
    path = os.path.abspath(script)
    mod = types.ModuleType("__main__")
    import importlib.machinery
    mod.__dict__.update(__file__=path, __cached__=None, __builtins__=builtins, __annotations__={},
                        __loader__=importlib.machinery.SourceFileLoader("__main__", path), __spec__=None,
                        __package__=None)
    sys.modules["__main__"] = mod
    sys.setrecursionlimit(sys.getrecursionlimit() + stack_depth())  # this frame and those below it
    interrupted = False
    try:
        try:
            with open(path, "rb") as f:
                code = compile(f.read(), path, "exec", dont_inherit=True)
            exec(code, mod.__dict__)  # noqa: S102 - the program, in its own process
        except SystemExit:
            raise
        except BaseException as e:  # noqa: BLE001 - as the interpreter reports an uncaught exception
            tb = e.__traceback__.tb_next if e.__traceback__ is not None else None  # not this frame
            e.__traceback__ = tb  # what the default hook prints (not its tb argument)
            sys.excepthook(type(e), e, tb)
            interrupted = isinstance(e, KeyboardInterrupt)
            raise SystemExit(1) from None
        raise SystemExit(0)
    except SystemExit as e:
        status = exit_status(e.code)
    finish(mod, status, interrupted)


def exit_status(code: object) -> int:
    """The status SystemExit(code) gives at a script's end: None 0, an int itself (as a C int),
    anything else printed to stderr and 1."""
    if code is None:
        return 0
    if isinstance(code, int):
        import ctypes
        return ctypes.c_int(code).value if -(1 << 63) <= code < (1 << 63) else -1
    try:
        sys.stderr.write(f"{code}\n")
    except Exception:  # noqa: BLE001
        pass
    return 1


def finish(mod: types.ModuleType, status: int, interrupted: bool) -> None:
    """End as the interpreter ends a script (Py_FinalizeEx): wait for non-daemon threads, run atexit
    functions, let the program's globals go (their __del__ runs), flush stdout and stderr (a failed
    flush: status 120); then _exit without tearing down the preloaded modules, which would cost more
    than the fork saved. An uncaught KeyboardInterrupt ends by SIGINT, as CPython does."""
    try:
        threading = sys.modules.get("threading")
        if threading is not None:
            threading._shutdown()
        import atexit
        atexit._run_exitfuncs()
        mod.__dict__.clear()
        import gc
        gc.collect()
    except BaseException:  # noqa: BLE001 - the program's own exit code stands
        pass
    for stream in (sys.stdout, sys.stderr):
        if stream is None or getattr(stream, "closed", False):  # as CPython's flush_std_files skips it
            continue
        try:
            stream.flush()
        except Exception as e:  # noqa: BLE001 - reported as CPython reports it, and exit status 120
            try:
                import traceback
                sys.stderr.write(f"Exception ignored in: {stream!r}\n")
                traceback.print_exception(type(e), e, None, file=sys.stderr)
                sys.stderr.flush()
            except Exception:  # noqa: BLE001
                pass
            status = 120
    if interrupted:
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGINT)
    os._exit(status & 0xFF)

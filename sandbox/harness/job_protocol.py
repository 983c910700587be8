"""The job protocol: the host's requests to a grading box's PID 1 and how each is served. Standard
library only.

Protocol (host <-> runner over the container's attached stdin/stdout, framed by framing.py). Requests:

    {"op": "ping"}
        answered once the warm interpreter has imported (Warm.wait_ready), as is a reset: what the box holds
        then is its settled rest, which the host reads where a job begins (sandbox/backend.py Backend.begins).
    {"op": "files", "dir": NAME, "files": [[RELPATH, MODE]...], "pycheck": RELPATH, "blobs": [...]}
        create /work/NAME (must not exist) and write the files (O_NOFOLLOW, O_EXCL). pycheck
        (optional): then check that Python file's syntax (syntax_check.py) and answer it as "pycheck":
        {"ok", "error_text"} in the same reply, one round trip fewer per job.
    {"op": "exec", "argv": [...], "cwd": NAME, "cpu_s": F, "wall_s": F, "stdout_max": N,
     "stderr_max": N, "fsize_max": N, "env": {...}, "fd3": bool, "fd3_max": N, "rm_cwd": bool, "scrub": bool,
     "put": [RELPATH...], "fresh": [RELPATH...], "collect": [RELPATH, N], "judge": bool, "warm": bool,
     "warm_program": bool, "blobs": [["stdin", N], ["exe", N], ["put:RELPATH", N]...]}
        run one process in its own session; drain stdout/stderr while it runs; stop it on CPU time
        (cgroup accounting, all its processes), wall time, or stdout over its cap (stderr is read
        to the end but only its head and tail, stderr_max bytes in all, are kept: never a stop);
        then kill every process but this one. Reply with measured facts; the host decides verdicts.
        put: write these files into cwd first (a test's input file); fresh: remove these first (an
        output file must be written by this run); collect: after the run, return this file of
        cwd (at most N+1 bytes, a regular file only); exe: run this binary (a compiled checker)
        from memory, as argv[0]: it needs no exec-mounted dir and nothing on disk can replace it.
        judge: the process is harness/judge.py and keeps the judge's uid (pid1.py).
        host_cpu: the host answers, during this run, {"ask": "host_cpu"} with {"host_cpu_s": F|null,
        "cores": N} (the host CPU of the sandbox's own host processes since the request began: under
        gVisor a CPU reading past the limit is checked against it; ask_host_cpu).
        warm: a `python3 -I NAME.py` program or the judge starts as a fork of the warm interpreter
        (harness/zygote.py; docs/sandboxes.md, "The warm interpreter") instead of an exec, where there is one.
        warm_program: a warm judge's program processes are forked from the warm interpreter too, on
        the judge's request through its keeper socket (warm_keeper.py keep_program; harness/judge.py start_program).
        tree: {"writable": [RELPATH...]}: a repository task's; its tree made from cwd's view.json and repo.tar
        by this process as the judge's uid (repo_tree.py), and the process run in it (cwd stays where `collect`
        reads); "tree_error" (and "tree_full") where it cannot be made; "tree_changed": [PATH...] where an entry
        of it was not as made once the run ended (its mode or times: repo_tree.stamp).
    {"op": "reset"}
        kill everything, wipe /work /tmp /dev/shm /dev/mqueue and a repository task's tree, remove SysV IPC objects, and report
        whether the container is clean (PID 1's limits included; no socket left bound, no kind of
        object it cannot list: docs/sandboxes.md "What a job leaves behind"). The stash stays.
    {"op": "stash", "drop": [SHA256...], "blobs": [[SHA256, N]...]}
        keep these blobs of a task's test set (inputs, a checker's answers, support files, the
        compiled checker) in this process's memory, under their sha256, for later requests of
        this container (docs/sandboxes.md "Test sets kept in the container"); forget `drop` first.
    Any request may carry "refs": {BLOBNAME: SHA256}: that blob is the stash's, not sent again.
    The stash lives in PID 1's memory, which no program can read or write (the uids and the
    non-dumpable mark: pid1.py): every file a program or checker sees is still written per run.

The runner never judges output. It holds expected answers only for a special checker (its
answer file, written for the checker once the program is dead): the others stay on the host.
"""
from __future__ import annotations

import errno
import fcntl
import os
import resource
import select
import selectors
import signal
import socket
import stat
import subprocess
import sys
import tarfile
import time
from collections.abc import Callable
from typing import cast

import accounting
import confine
import framing
import inode_cap
import leftovers
import pid1
import program_limits
import repo_tree
import syntax_check
import warm_keeper

CHUNK = 1 << 20
F_SETPIPE_SZ = 1031
EXIT_GRACE_S = 0.05  # after the main process exits, how long background holders of its pipes may write
BASE_ENV = {
    "PATH": "/usr/local/bin:/usr/bin:/bin",
    "HOME": "/tmp",
    "LANG": "C.UTF-8",
    "TMPDIR": "/tmp",
    "OMP_NUM_THREADS": "1",
    "OPENBLAS_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
    "NUMEXPR_NUM_THREADS": "1",
    "PYTHONDONTWRITEBYTECODE": "1",
}


def kill_all_others() -> bool:
    """SIGKILL every process but this one (and the warm interpreter's two: Warm.spared), reap them;
    True when none is left (bounded wait)."""
    if os.getpid() != 1:  # kill(-1) outside a container's PID namespace reaches every process of the uid
        raise RuntimeError("the runner kills every other process: it only runs as a container's PID 1")
    spared = warm_keeper.WARM.spared() | syntax_check.CHECKER.spared()
    if spared:
        return kill_sparing(spared)
    try:
        os.kill(-1, signal.SIGKILL)
    except ProcessLookupError:
        pass
    deadline = time.monotonic() + 2.0
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return True
        if pid == 0:
            if time.monotonic() > deadline:
                return False
            time.sleep(0.002)
            try:
                os.kill(-1, signal.SIGKILL)
            except ProcessLookupError:
                pass


def kill_sparing(spared: set[int]) -> bool:
    """kill_all_others with the warm interpreter alive: kill(-1) with our real uid set to the
    program's reaches exactly the processes whose real or saved uid is the program's (kill(2)),
    not the mother and the zygote (real and saved uid the judge's); a judge, and anything else
    /proc shows, is then killed by pid. With one uid for all (confine.py) kill(-1) would end the
    spared too: every process is killed by pid. Repeated until /proc shows only the spared."""
    deadline = time.monotonic() + 2.0
    while True:
        if not confine.ON[0]:  # with one uid (confine.py) kill(-1) would end the spared too: by pid alone
            pid1.kill_as(os.geteuid())
        left = [p for p in pid1.other_pids() if p not in spared]
        for pid in left:
            pid1.kill_quietly(pid)
        reap_children(spared)
        if not left:
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.001)


def reap_children(spared: set[int]) -> None:
    """Wait for every dead child of ours (the mother is one: never waited for while alive)."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        if pid in spared:
            warm_keeper.WARM.lost(pid)
            syntax_check.CHECKER.lost(pid)


RSS_GROWTH_MAX_KB = 64 << 10  # the runner grew this much since it started: recycle (a later job's memory)
START_STATE: tuple = ()  # PID 1's state (pid1.supervisor_state) once started: note_start
START_RSS_KB = 0


def note_start() -> None:
    """Keep PID 1's state and memory once it has started (its helpers included), for every reset's
    comparison (tampered, grown): by the runner and by a session's supervisor."""
    global START_STATE, START_RSS_KB
    START_STATE, START_RSS_KB = pid1.supervisor_state(), pid1.rss_kb()
    leftovers.note_fresh_flags()  # what every reset restores on the kept roots
    leftovers.note_fresh_sockets()  # what every reset compares with (bound_sockets)


def tampered(mother: bool = True) -> bool:
    """PID 1's state changed, or the warm interpreter's mother's (Warm.check): recycle. mother=False
    right after WARM.check(), which has just compared the mother with no other process left alive
    (a change there ends the warm path and makes the reset unclean): reading it twice cost a /proc
    read per exec and per reset (docs/benchmarks.md "Where a trivial /run_code request's time goes")."""
    try:
        return pid1.supervisor_state() != START_STATE or (mother and warm_keeper.WARM.mother_pid != 0 and warm_keeper.WARM.mother_tampered())
    except Exception:  # cannot even read it (e.g. no memory left under a lowered RLIMIT_AS)
        return True


def grown() -> bool:
    """The runner holds much more memory than at start, beyond its stash (which the host counts in
    each step's limit): it counts in every later job's limit."""
    try:
        return pid1.rss_kb() - START_RSS_KB - (stash_bytes() >> 10) > RSS_GROWTH_MAX_KB
    except (OSError, ValueError):
        return True


def ask_host_cpu() -> tuple[float, int] | None:
    """Ask the host, mid-run, for the host CPU of this sandbox's host processes since the request
    began (its answer is the next message on the channel: the host sends nothing else meanwhile).
    Under gVisor the clock charges a runnable task by the wall clock even while the host runs
    something else; this is the bound a loaded host cannot inflate (accounting.SandboxClock.over;
    docs/sandboxes.md "CPU time without a cgroup"). None where the host cannot read it."""
    framing.write_message(sys.stdout.buffer, {"ask": "host_cpu"})
    msg = framing.read_message(framing.INBOX)
    if msg is None:
        raise SystemExit("the host's channel closed mid-run")
    cpu, cores = msg[0].get("host_cpu_s"), msg[0].get("cores")
    if not isinstance(cpu, (int, float)) or not isinstance(cores, int):
        return None
    return float(cpu), cores


def exec_limits(cpu_s: float, fsize: int, judge: bool = False, tree: list[str] | None = None) -> Callable[[], None]:
    """preexec_fn of an exec'd run (and what fork_judge applies): the limits of program_limits.py, the same
    spec as a warm fork's (warm_keeper.py fork_request); `tree`, a repository task's (program_limits.spec)."""
    chosen = program_limits.spec(pid1.APART, judge, cpu_s, fsize, tree)
    return lambda: program_limits.apply(chosen)


def run_exec(req: dict, blobs: dict[str, bytes]) -> tuple[dict, dict[str, bytes]]:  # noqa: C901 - one run's pids, fds and clocks stay local to one frame of PID 1
    """Run one process to completion under its limits; return facts and captured output."""
    stdin = blobs.get("stdin", b"")
    cpu_limit = float(req["cpu_s"])
    wall_limit = float(req["wall_s"])
    caps = {"stdout": int(req["stdout_max"]),
            "fd3": int(req.get("fd3_max") or 4096)}  # the judge's result lines (one per test)
    err_half = max(0, int(req["stderr_max"])) // 2
    env = dict(BASE_ENV)
    env.update(req.get("env") or {})
    cwd = os.path.join(pid1.WORK, req["cwd"]) if req.get("cwd") else pid1.WORK
    argv = list(req["argv"])
    leftovers.restore_modes(cwd)
    if req.get("scrub"):  # a checker: what the program left in the shared dirs must not change how it runs
        leftovers.scrub()
    try:
        prepare_files(cwd, req, blobs)
    except OSError as e:  # the program filled /work or left something in the way: the host decides
        return {"put_error": f"{type(e).__name__}: {e}"[:300]}, {}
    run_cwd, tree = cwd, None
    writable: list[str] = []
    stamped: dict[str, tuple[int, ...]] = {}
    if req.get("tree") is not None:  # a repository task: its tree made by us, the judge's (repo_tree.py)
        writable += [str(p) for p in req["tree"].get("writable") or ()]
        tree = [repo_tree.TREE, *(os.path.join(repo_tree.TREE, "repo", p) for p in writable)]
        try:
            run_cwd = repo_tree.make(cwd, writable)
        except (OSError, ValueError, tarfile.TarError) as e:
            return {"tree_error": f"{type(e).__name__}: {e}"[:300], "tree_full": getattr(e, "errno", 0) in (errno.ENOSPC, errno.EDQUOT)}, {}
        stamped = repo_tree.stamp(writable)
    fd3_r = fd3_w = exe_fd = -1
    pass_fds: tuple[int, ...] = ()
    if req.get("fd3"):
        fd3_r, fd3_w = pid1.channel()
        pass_fds = (fd3_w,)
        env["RESULT_FD"] = str(fd3_w)
    if "exe" in blobs:
        exe_fd = memfd_with(blobs["exe"])
        pass_fds += (exe_fd,)
        argv[0] = f"/proc/self/fd/{exe_fd}"

    kind = warm_keeper.warm_kind(argv, req.get("judge") is True) if req.get("warm") is True else None
    if kind and not warm_keeper.WARM.wait_ready():  # before the CPU clock starts: its imports are not the program's
        kind = None
    keeper = None  # a warm judge asks here for its program processes (keep_program)
    kept: list[int] = []  # their pids
    prog_env = {k: v for k, v in env.items() if k not in ("RESULT_FD", warm_keeper.KEEPER_ENV)}
    if kind == "judge" and req.get("warm_program") is True:  # its program forked as a stdin program would be
        keeper, keeper_judge = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        pass_fds += (keeper_judge.fileno(),)
        env[warm_keeper.KEEPER_ENV] = str(keeper_judge.fileno())
    oom0 = accounting.oom_kills()
    clock = accounting.SandboxClock(warm_keeper.WARM.spared() | syntax_check.CHECKER.spared(),
                                    ask_host_cpu if req.get("host_cpu") is True else None)
    t0 = time.monotonic()
    preexec = exec_limits(cpu_limit, int(req.get("fsize_max", 64 << 20)), req.get("judge") is True, tree)
    fsize = int(req.get("fsize_max", 64 << 20))
    proc: warm_keeper.Started | None = None
    if kind:
        try:
            proc = warm_keeper.fork_warm(kind, argv, run_cwd, env, pass_fds, cpu_limit, fsize)
        except OSError:  # the zygote failed (it is replaced): this run starts as ever
            proc = None
    try:
        if proc is not None:
            pass
        elif req.get("judge") is True and pid1.APART:
            proc = fork_judge(argv, run_cwd, env, pass_fds, preexec)
        else:
            # subprocess's error pipe is safe here alone: no process of the program lives while the runner starts one
            # (kill_all_others ended the last run's; pyproject.toml's TID251 sends every other start to pid1.start)
            proc = cast(warm_keeper.Started, subprocess.Popen(  # noqa: TID251 - all three streams piped: none is None
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                cwd=run_cwd, env=env, start_new_session=True, pass_fds=pass_fds, close_fds=True, preexec_fn=preexec))
    except (OSError, ValueError) as e:
        for fd in (fd3_r, fd3_w, exe_fd):
            if fd >= 0:
                os.close(fd)
        if keeper is not None:
            keeper.close()
            keeper_judge.close()
        return {"spawn_error": f"{type(e).__name__}: {e}"[:300]}, {}
    for fd in (fd3_w, exe_fd):
        if fd >= 0:
            os.close(fd)
    if keeper is not None:
        keeper_judge.close()
    proc_warm = getattr(proc, "warm", False)

    for f in (proc.stdout, proc.stderr):  # 1 MiB pipes: fewer wake-ups for both sides when a program prints a lot
        try:
            fcntl.fcntl(f.fileno(), F_SETPIPE_SZ, 1 << 20)
        except OSError:
            pass  # a judge's socket (channel()): its buffer is the kernel's default
    out = {"stdout": bytearray(), "fd3": bytearray()}
    err = accounting.Capture(err_half, clock, tail=err_half)  # stderr: its head and its tail, charged past them
    sizes = {"stdout": 0, "stderr": 0, "fd3": 0}
    sel = selectors.DefaultSelector()
    for name, f in (("stdout", proc.stdout), ("stderr", proc.stderr)):
        os.set_blocking(f.fileno(), False)
        sel.register(f.fileno(), selectors.EVENT_READ, name)
    if fd3_r >= 0:
        os.set_blocking(fd3_r, False)
        sel.register(fd3_r, selectors.EVENT_READ, "fd3")
    if keeper is not None:
        sel.register(keeper.fileno(), selectors.EVENT_READ, "keeper")
    stdin_fd = proc.stdin.fileno()
    os.set_blocking(stdin_fd, False)
    stdin_pos = 0
    if stdin:
        sel.register(stdin_fd, selectors.EVENT_WRITE, "stdin")
    else:
        proc.stdin.close()

    pidfd = -1
    watched = getattr(proc, "status_fd", -1)  # the zygote's child: its end is said here (warm_keeper.py fork_warm)
    if watched >= 0:
        sel.register(watched, selectors.EVENT_READ, "exit")
    else:
        try:  # readable when the process exits: no polling delay between its exit and our reply
            pidfd = os.pidfd_open(proc.pid)
            sel.register(pidfd, selectors.EVENT_READ, "exit")
        except (OSError, AttributeError):
            pidfd = -1
    stop_reason = None  # "cpu" | "wall" | "stdout" | "fd3" | "files"
    next_check = 0.0  # the CPU clock is read at most every POLL_S: a flood of reads must not pay for it each time
    next_files = 0.0  # the files at most every FILES_POLL_S (over_inodes)
    status = None
    rusage = None
    exited_at = 0.0  # when status was read (only read once it was)

    def cpu_used() -> float:
        """The sandbox's CPU since the run began less this runner's and its idle helpers': the
        cgroup's clock, under gVisor its own cgroupfs (accounting.SandboxClock: never only the
        waited process's, which left out orphans)."""
        return clock.used()

    while True:
        now = time.monotonic()
        if status is None:
            pid, st, ru = waited(proc)
            if pid:
                status, rusage, exited_at = st, ru, now
                if isinstance(ru, warm_keeper.Reaped):  # reaped by the zygote: the fallback clock's to be told
                    clock.add_reaped(ru.cpu_s)
        if status is not None and (len(sel.get_map()) == 0 or now - exited_at > EXIT_GRACE_S):
            break
        if stop_reason is None and now >= next_check:
            next_check = now + accounting.POLL_S
            if now - t0 > wall_limit:
                stop_reason = "wall"
            elif clock.over(cpu_limit):
                stop_reason = "cpu"
            elif now >= next_files:
                stop_reason = "files" if inode_cap.over_inodes() else None
                # a count of thousands of directories takes a while under gVisor: at most a tenth of the wall clock
                next_files = time.monotonic() + max(inode_cap.FILES_POLL_S, 9 * (time.monotonic() - now))
            if stop_reason:
                pid1.kill_group(proc.pid)
        if stop_reason and status is None and now - t0 > wall_limit + 2.0:
            break  # main process did not die: give up on it, kill_all_others below
        for key, _ in sel.select(accounting.POLL_S):
            name = key.data
            if name == "exit":
                sel.unregister(key.fd)
                continue
            if name == "keeper":
                if not warm_keeper.keep_program(keeper, kept, cwd, prog_env, cpu_limit, fsize):
                    sel.unregister(key.fd)
                continue
            if name == "stdin":
                try:
                    n = os.write(stdin_fd, stdin[stdin_pos:stdin_pos + CHUNK])
                    stdin_pos += n
                except BlockingIOError:
                    continue
                except OSError:  # program closed its stdin: not our problem
                    stdin_pos = len(stdin)
                if stdin_pos >= len(stdin):
                    sel.unregister(stdin_fd)
                    proc.stdin.close()
                continue
            try:
                data = os.read(key.fd, CHUNK)
            except BlockingIOError:
                continue
            except OSError:
                data = b""
            if not data:
                sel.unregister(key.fd)
                continue
            sizes[name] += len(data)
            if name == "stderr":  # drained to the end, never a stop: keep its head and its tail
                err.add(data)
                continue
            cap = caps[name]
            keep = cap - len(out[name])
            if keep > 0:
                out[name] += data[:keep]
            if sizes[name] > cap and stop_reason is None:
                stop_reason = name
                pid1.kill_group(proc.pid)
    wall = time.monotonic() - t0
    cpu = clock.settle(cpu_limit)  # before the kill: what the program's processes left running used counts
    clean = kill_all_others()
    tree_changed = repo_tree.changed(stamped, writable) if tree is not None else []  # the program's processes are gone
    warm_keeper.WARM.check()  # after every run, forked or not: an exec'd program shares the warm processes' effective uid too
    collected = collect_file(cwd, req["collect"]) if req.get("collect") else None
    if req.get("rm_cwd") and req.get("cwd"):  # a checker's dir: its answer must not reach later tests
        clean = leftovers.remove_dir(cwd) and clean
    if status is None and watched >= 0:  # killed at a stop: the zygote reaps it, then says so
        pid, st, ru = waited(proc, wait_s=WATCHED_WAIT_S)
        if pid:
            status, rusage = st, ru
    elif status is None:
        try:
            _, status, rusage = os.wait4(proc.pid, os.WNOHANG) or (0, None, None)
        except ChildProcessError:
            status = None
    if isinstance(proc, warm_keeper.Forked):
        proc.close_status()
    proc.returncode = 0  # we reaped it ourselves; keep Popen from trying again
    for f in (proc.stdin, proc.stdout, proc.stderr):
        try:
            f.close()
        except OSError:
            pass
    sel.close()
    if pidfd >= 0:
        os.close(pidfd)
    if fd3_r >= 0:
        os.close(fd3_r)
    if keeper is not None:
        keeper.close()

    exit_code = signo = None
    if status is not None:
        if os.WIFEXITED(status):
            exit_code = os.WEXITSTATUS(status)
        elif os.WIFSIGNALED(status):
            signo = os.WTERMSIG(status)
    head = {
        "exit_code": exit_code, "signal": signo, "cpu_s": round(cpu, 4), "wall_s": round(wall, 4),
        "stop": stop_reason, "oom": accounting.oom_kills() > oom0, "clean": clean, "tampered": tampered(mother=False),
        "stdout_bytes": sizes["stdout"], "stderr_bytes": sizes["stderr"],
        "maxrss_kb": getattr(rusage, "ru_maxrss", None), "warm": proc_warm,
    }
    if tree_changed:
        head["tree_changed"] = tree_changed
    dropped = err.dropped()
    gap = f"\n[... {dropped} bytes of stderr not kept ...]\n".encode() if dropped > 0 else b""
    blobs = {"stdout": bytes(out["stdout"]), "stderr": bytes(err.data) + gap + err.tail,
             "fd3": bytes(out["fd3"])}
    if collected is not None:
        head["collected"], blobs["collected"] = collected
    return head, blobs


WATCHED_WAIT_S = 1.0  # after the kill, how long the zygote may take to report a program it reaps


def waited(proc: warm_keeper.Started, wait_s: float = 0.0) -> tuple[int, int, object]:
    """os.wait4(pid, WNOHANG) of the run's process; for a program the zygote forked as its own child
    (warm_keeper.py Forked.wait4) what the zygote said of it, waiting at most wait_s for that."""
    if isinstance(proc, warm_keeper.Forked):
        if wait_s and proc.status_fd >= 0:
            select.select([proc.status_fd], [], [], wait_s)
        return proc.wait4()
    return os.wait4(proc.pid, os.WNOHANG)


KEEP_ALIVE: list = []  # this interpreter's own std streams in a forked judge: never finalized (they close fds 0-2)


def fork_judge(argv: list[str], cwd: str, env: dict, pass_fds: tuple[int, ...], preexec: Callable[[], None]) -> warm_keeper.Forked:
    """Start harness/judge.py (argv: python3 -I JUDGE [ARGS]) in a fork of this interpreter, never
    through execve: an exec by a process whose real and effective uids differ, under
    no_new_privs, keeps both on Linux but sets the effective uid to the real one under gVisor
    (runsc), and the judge needs both (module docstring). Same interpreter flags (-I), its own
    session, limits, std streams, environment and argv; nothing of the runner's fds but pass_fds."""
    if argv[:2] != ["python3", "-I"] or len(argv) < 3 or not argv[2].endswith("/judge.py"):
        raise ValueError(f"not a judge: {argv[:3]!r}")
    pipes = [pid1.channel() for _ in range(3)]  # stdin, stdout, stderr: the tests and the nonce come on stdin
    pid = os.fork()
    if pid:
        for fd in (pipes[0][0], pipes[1][1], pipes[2][1]):
            os.close(fd)
        return warm_keeper.Forked(pid, pipes[0][1], pipes[1][0], pipes[2][0])
    code = 1
    try:  # the child: never returns into the runner's loop
        for target, fd in ((0, pipes[0][0]), (1, pipes[1][1]), (2, pipes[2][1])):
            os.dup2(fd, target)
        last = 2
        for fd in sorted(pass_fds) + [resource.getrlimit(resource.RLIMIT_NOFILE)[0]]:
            os.closerange(last + 1, fd)
            last = fd
        os.chdir(cwd)
        os.setsid()
        preexec()
        signal.signal(signal.SIGPIPE, signal.SIG_IGN)  # as a fresh interpreter has them: a write to a
        signal.signal(signal.SIGINT, signal.default_int_handler)  # dead program's pipe raises
        KEEP_ALIVE.extend((sys.stdin, sys.stdout, sys.stderr))
        sys.stdin = open(0, "r", closefd=False)  # noqa: SIM115 - for the process' life
        sys.stdout = open(1, "w", buffering=1, closefd=False)  # noqa: SIM115
        sys.stderr = open(2, "w", buffering=1, closefd=False)  # noqa: SIM115
        os.environ.clear()
        os.environ.update(env)
        sys.argv = argv[2:]
        import runpy
        runpy.run_path(argv[2], run_name="__main__")
        code = 0
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    except BaseException:  # noqa: BLE001 - the judge's failure, reported as a non-zero exit
        try:
            import traceback
            traceback.print_exc()
        except BaseException:  # noqa: BLE001
            pass
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code)


def memfd_with(data: bytes) -> int:
    """An anonymous in-memory file holding data, for exec through /proc/self/fd (not close-on-exec:
    the child needs it across fork; the parent closes its copy once the child started). Sealed
    once written: under gVisor a process of the program's uid could open it through /proc/<pid>/fd
    and rewrite the checker before it runs."""
    fd = os.memfd_create("exe", os.MFD_ALLOW_SEALING)
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]
    fcntl.fcntl(fd, fcntl.F_ADD_SEALS, fcntl.F_SEAL_SEAL | fcntl.F_SEAL_SHRINK | fcntl.F_SEAL_GROW | fcntl.F_SEAL_WRITE)
    return fd


def prepare_files(cwd: str, req: dict, blobs: dict[str, bytes]) -> None:
    """Before a run: remove the `fresh` names and write the `put` files into cwd, replacing
    whatever the program left under those names (a file, a link, a dir): never followed."""
    for rel in list(req.get("fresh") or ()) + list(req.get("put") or ()):
        path = os.path.join(cwd, leftovers.safe_name(rel))
        if os.path.isdir(path) and not os.path.islink(path):
            leftovers.remove_dir(path)
        elif os.path.lexists(path):
            os.unlink(path)
    inode_cap.check_inodes(cwd, len(req.get("put") or ()))
    for rel in req.get("put") or ():
        fd = os.open(os.path.join(cwd, rel), os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o400)
        with os.fdopen(fd, "wb") as f:
            f.write(blobs.get("put:" + rel, b""))


def collect_file(cwd: str, spec: list) -> tuple[dict, bytes]:
    """A file the process left in cwd (a program's output file, a compiled checker): at most max+1
    bytes of a regular file, opened without following links or blocking on a FIFO. What is wrong
    with it is reported, not raised: it is the process's doing, for the host to judge."""
    rel, limit = leftovers.safe_name(spec[0]), int(spec[1])
    try:
        fd = os.open(os.path.join(cwd, rel), os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError as e:
        missing = e.errno == errno.ENOENT
        return {"exists": not missing, "error": "" if missing else f"{type(e).__name__}: {e}"[:200]}, b""
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return {"exists": True, "error": "not a regular file"}, b""
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, min(CHUNK, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        return {"exists": True, "error": "", "bytes": size}, b"".join(chunks)
    except OSError as e:
        return {"exists": True, "error": f"{type(e).__name__}: {e}"[:200]}, b""
    finally:
        os.close(fd)


def write_files(req: dict, blobs: dict[str, bytes]) -> dict:
    """Write job files into a fresh directory; never follow a link the program could have left."""
    d = os.path.join(pid1.WORK, leftovers.safe_name(req["dir"]))
    leftovers.restore_modes(pid1.WORK)
    try:
        inode_cap.check_inodes(pid1.WORK, 1 + len(req["files"]))
        os.mkdir(d, 0o700)
        for rel, mode in req["files"]:
            name = leftovers.safe_name(rel)
            fd = os.open(os.path.join(d, name), os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, mode)
            with os.fdopen(fd, "wb") as f:
                f.write(blobs.get(rel, b""))
    except OSError as e:  # no space or inodes left: the host knows whether a program filled /work
        removed = leftovers.remove_dir(d)  # a half-written checker dir holds answer.txt: never leave it
        if e.errno not in (errno.ENOSPC, errno.EDQUOT):
            raise
        return {"ok": False, "full": True, "removed": removed, "error": f"{type(e).__name__}: {e}"[:300]}
    if not req.get("pycheck"):
        return {"ok": True}
    try:
        check = syntax_check.pycheck({"dir": req["dir"], "file": req["pycheck"]})
    except Exception as e:  # noqa: BLE001 - ours (no fork, no file): the host raises InfraFailure
        check = {"error": f"{type(e).__name__}: {e}"[:300]}
    return {"ok": True, "pycheck": check}


def reset() -> dict:
    clean = kill_all_others()
    left: list[str] = []
    for d in leftovers.WIPE_DIRS:
        if not os.path.isdir(d):
            continue
        try:
            os.chmod(d, 0o1777 if d != pid1.WORK else 0o700)
        except OSError:
            pass
        leftovers.wipe(d)
        left += leftovers.clear_root_attrs(d)
        try:
            left += [os.path.join(d, e) for e in os.listdir(d)]
        except OSError as e:
            left.append(f"{d}: {e}")
    try:
        left += repo_tree.reset()
    except OSError as e:
        left.append(f"{repo_tree.TREE}: {e}")
    left += leftovers.remove_sysv_ipc()
    left += leftovers.bound_sockets() + leftovers.unlisted_kinds()
    warm_keeper.WARM.check()
    warm_keeper.WARM.wait_ready()  # a zygote replaced here imports before the reply: the rest read next is settled
    syntax_check.CHECKER.check_state()
    reap_children(warm_keeper.WARM.spared() | syntax_check.CHECKER.spared())  # a new zygote's clone probe (zygote.py ended)
    spared = warm_keeper.WARM.spared() | syntax_check.CHECKER.spared()
    procs = [p for p in pid1.other_pids() if p not in spared]
    bad, fat = tampered(mother=False), grown()
    stalled = framing.INBOX.stalls > 0  # the channel met EAGAIN (Inbox): a fresh box rather than a rare state
    return {"ok": True, "clean": clean and not left and not procs and not bad and not fat and not warm_keeper.WARM.broken
            and not stalled, "leftovers": left[:10], "procs": procs[:10], "tampered": bad, "grown": fat,
            "stalls": framing.INBOX.stalls}


STASH: dict[str, bytes] = {}  # sha256 -> a blob of a task's test set (the "stash" op)
STASH_MAX = 256 << 20  # bytes: the host keeps less (sandbox/config.py call_cache_mb)


def stash_bytes() -> int:
    return sum(len(v) for v in STASH.values())


def stash(req: dict, blobs: dict[str, bytes]) -> dict:
    """Keep a test set's blobs for the container's later jobs. Only in a runner apart from the
    programs' uid: otherwise a program could read this process's memory (gVisor ignores the
    non-dumpable mark), and the host sends every blob with its run as before."""
    for d in req.get("drop") or ():
        STASH.pop(str(d), None)
    if not pid1.APART:
        return {"ok": False, "error": "not apart from the programs' uid: nothing kept"}
    if stash_bytes() + sum(len(v) for v in blobs.values()) > STASH_MAX:
        return {"ok": False, "error": f"over the stash's {STASH_MAX} bytes"}
    STASH.update(blobs)
    return {"ok": True, "bytes": stash_bytes()}


def with_refs(head: dict, blobs: dict[str, bytes]) -> dict[str, bytes]:
    """The request's blobs with those it names in "refs" taken from the stash (the same bytes
    objects: no copy). KeyError for one it does not hold: the host's view of it is wrong."""
    for name, d in (head.get("refs") or {}).items():
        blobs[name] = STASH[d]
    return blobs


def handle(head: dict, blobs: dict[str, bytes]) -> tuple[dict, dict[str, bytes]]:
    op = head.get("op")
    if head.get("refs"):
        try:
            blobs = with_refs(head, blobs)
        except KeyError as e:
            return {"error": f"the stash holds no {e}"}, {}
    if op == "stash":
        return stash(head, blobs), {}
    if op == "ping":
        warm_keeper.WARM.wait_ready()  # its imports done: the box's rest is settled when its first job begins (Backend.begins)
        return {"ok": True, "pid": os.getpid(), "uid": os.geteuid(), "apart": pid1.APART, "confined": confine.ON[0], "cpu_acct": bool(accounting.CPU_V1 or accounting.CPU_V2),
                "oom_acct": bool(accounting.OOM_FILE), "stash": len(STASH), "stash_bytes": stash_bytes(), "checker": syntax_check.CHECKER.pid, "checker_kb": pid1.proc_rss_kb(syntax_check.CHECKER.pid) if syntax_check.CHECKER.pid else 0, "checker_growth_kb": syntax_check.CHECKER.growth_kb,
                **warm_keeper.WARM.info()}, {}
    if op == "files":
        return write_files(head, blobs), {}
    if op == "exec":
        return run_exec(head, blobs)
    if op == "reset":
        return reset(), {}
    return {"error": f"unknown op {op!r}"}, {}

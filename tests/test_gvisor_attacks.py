"""Red team of the gVisor backend's host resources (issue 22, docs/sandboxes.md "Sandbox backends").

Without cgroups the gVisor backend's memory limit is a watchdog on gVisor's memory file (the pages
the Sentry gives the sandbox's processes and tmpfs). Kernel objects the Sentry keeps in its own Go
heap are not in that file: a program can hold them far past its limit, on the host, with nothing
counting them. Measured on the host (runsc 20221219, limit 64 MB, one process; the runsc processes'
RssAnon 17 MB idle): socket buffers ~1 GB, pipe buffers (F_SETPIPE_SZ 1 MB) +156 MB RSS, tmpfs
xattrs +260 MB RSS, while the memory file stayed at ~50 MB and the verdict was `accepted`. Each
grows with the process count (pids_limit) too. So the watchdog counts, with the memory file, what
the runsc processes' anonymous memory grew since the job began (ProcessTable.anon_mb_below in
sandbox/watchdog.py). Docker's runsc runtime was not open to this: the container's cgroup holds the
Sentry, and the same socket program is `memory_limit` there.
"""
from __future__ import annotations

import os
import threading

import pytest

from sandbox import watchdog
from sandbox.backend import SENTRY_REST_MB
from sandbox.sync import SyncGrader
from tests.helpers import RUNSC_MISSING, one_sandbox, runsc_registered, sandbox_config
from tests.test_sandbox_gvisor import _task as _gtask

pytestmark = pytest.mark.docker

@pytest.fixture(scope="module")
def gvisor():
    with one_sandbox("gvisor", "pytest-gvisor-attacks") as g:
        yield g


def _task(code: str, **kw) -> dict:
    return {"language": "python", "completion": code, "time_limit_s": 10, "memory_limit_mb": 64,
            "tests": [{"stdin": "", "expected_stdout": "ok\n"}], **kw}


# Each program holds > 100 MB (it prints `ok` only then) under a 64 MB limit, for 2 s.
PIPES = ("import os, fcntl, time\nkeep, n = [], 0\nfor i in range(120):\n    r, w = os.pipe()\n"
         "    try:\n        fcntl.fcntl(w, 1031, 1 << 20)\n    except OSError:\n        pass\n"
         "    os.set_blocking(w, False)\n    try:\n        while True:\n            n += os.write(w, b'x' * 65536)\n"
         "    except BlockingIOError:\n        pass\n    keep.append((r, w))\n"
         "time.sleep(2)\nprint('ok' if n > (100 << 20) else f'only {n >> 20} MB')")
SOCKETS = ("import socket, time\nkeep, n = [], 0\nfor i in range(40):\n    a, b = socket.socketpair()\n"
           "    for s in (a, b):\n        s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 8 << 20)\n"
           "        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8 << 20)\n    a.setblocking(False)\n"
           "    try:\n        while True:\n            n += a.send(b'x' * 65536)\n    except BlockingIOError:\n        pass\n"
           "    keep.append((a, b))\ntime.sleep(2)\nprint('ok' if n > (100 << 20) else f'only {n >> 20} MB')")
XATTRS = ("import os, time\nopen('/work/f', 'w').close()\nn = 0\nfor i in range(2000):\n"
          "    os.setxattr('/work/f', f'user.a{i}', b'x' * 65536)\n    n += 65536\n"
          "time.sleep(2)\nprint('ok' if n > (100 << 20) else f'only {n >> 20} MB')")


def test_pipe_buffers_count_toward_the_memory_limit(gvisor):
    r = gvisor.grade(_task(PIPES))
    assert r["verdict"] == "memory_limit", r["detail"]


def test_socket_buffers_count_toward_the_memory_limit(gvisor):
    r = gvisor.grade(_task(SOCKETS))
    assert r["verdict"] == "memory_limit", r["detail"]


def test_extended_attributes_are_refused_by_the_syscall_policy(gvisor):
    """Xattrs held kernel memory no reading saw (above); the program syscall policy now refuses their writes on every
    backend (docs/sandboxes.md "The program syscall policy"): the program's own runtime_error, never memory held."""
    r = gvisor.grade(_task(XATTRS))
    assert r["verdict"] == "runtime_error" and "Function not implemented" in r["detail"], r["detail"]


@pytest.mark.parametrize("code", [PIPES, SOCKETS], ids=["pipes", "sockets"])
def test_the_attacks_hold_their_bytes_without_a_limit(gvisor, code):
    """Near miss for the tests above: with room (1 GB) each program holds its > 100 MB and says `ok`,
    so a `memory_limit` under 64 MB is the limit's doing, not a program that failed on its own."""
    r = gvisor.grade(_task(code, memory_limit_mb=1024))
    assert r["verdict"] == "accepted", r["detail"]


def _recycled(g: SyncGrader) -> int:
    g.call(g.grader.settled())
    return g.grader.stats()["containers_recycled"]


def test_a_box_whose_kernel_kept_a_jobs_socket_buffers_is_replaced(gvisor):
    """gVisor's kernel keeps the freed buffers in its Go heap when the program is gone (1 GB of host
    memory held 60 s on by an idle box, measured): the box goes after such a job (Backend.at_rest),
    and every box left holds about what it held at its start. Near miss: an ordinary job keeps its box."""
    gvisor.grade(_task("print('ok')"))
    before = _recycled(gvisor)
    assert gvisor.grade(_task("print('ok')"))["verdict"] == "accepted"
    assert _recycled(gvisor) == before
    assert gvisor.grade(_task(SOCKETS, memory_limit_mb=1024))["verdict"] == "accepted"
    assert _recycled(gvisor) == before + 1
    backend = gvisor.grader.backend  # _recycled waited for the replaced box's removal: these are in service
    for box in list(backend._boxes.values()):
        # a settled reading, read once: a single one caught a dying box's transient (347 MB, then 0
        # when the assertion read it again: CI, 11-29)
        now = watchdog.settled(lambda b=box: backend.sentry_mb(b))
        assert now - box.sentry_mb <= SENTRY_REST_MB, (now, box.sentry_mb)


def test_a_jobs_kernel_leftovers_do_not_charge_the_next_job_under_runsc():
    """Under Docker's runsc runtime the container's cgroup counts gVisor's Go heap: a job that filled
    socket buffers (accepted) left them there, and the next job in the box, which fits its limit on a
    fresh box, got memory_limit: a program turned a neighbour's right answer into a wrong verdict."""
    with one_sandbox("runsc", "pytest-runsc-attacks") as g:
        fits = _task("x = b'x' * (200 << 20)\nprint('ok')")
        fits.pop("memory_limit_mb")  # the pool's default limit: Docker's runsc cannot change it per task
        assert g.grade(fits)["verdict"] == "accepted"  # near miss: it fits a box of its own
        sockets = _task(SOCKETS.replace("range(40)", "range(20)").replace("100 << 20", "10 << 20"))
        sockets.pop("memory_limit_mb")
        for _ in range(3):  # the Go heap kept it in one run of two (runsc 20221219)
            assert g.grade(sockets)["verdict"] == "accepted"
            r = g.grade(fits)
            assert r["verdict"] == "accepted", r["detail"]


def _runsc_anon_mb(server) -> int:
    """Anonymous memory (RssAnon) of the server's runsc processes: gVisor's kernels' Go heaps."""
    from sandbox.runsc import find_runsc  # the runsc the gVisor backend runs: the pinned one where installed
    runsc, kb = os.path.realpath(find_runsc() or "runsc"), 0
    for pid in server.descendants():
        try:
            if os.path.realpath(f"/proc/{pid}/exe") != runsc:
                continue
            with open(f"/proc/{pid}/status") as f:
                kb += next((int(line.split()[1]) for line in f if line.startswith("RssAnon:")), 0)
        except (OSError, ValueError):
            continue
    return kb >> 10


def test_a_session_whose_kernel_kept_its_memory_is_not_kept_as_a_spare():
    """A closed session's sandbox is reset and kept for a later session (sandbox/session.py
    give_back): one whose cell filled socket buffers kept them in gVisor's Go heap (~330 MB measured,
    `Backend.at_rest`), on the host while idle, and, under Docker's runsc, charged to the next
    session. It is removed instead. Near miss: before the attack the server's sandboxes hold little."""
    from conftest import ServerProcess
    from helpers import SESSION_SERVER_ARGS, wait_until
    from verifier.client import ClientConfig, VerifierClient

    sandbox_config("gvisor", languages=("python",))  # its root filesystem, exported from the image
    with ServerProcess(*SESSION_SERVER_ARGS, "--sandbox-backend", "gvisor", "--token", "t", "--max-sessions", "2") as s, \
            VerifierClient(s.target, ClientConfig(token="t", timeout_s=120)) as c:
        with c.session("python") as warm:
            assert warm.run("print('ok')").stdout == "ok\n"
        assert wait_until(lambda: _runsc_anon_mb(s) < 150), _runsc_anon_mb(s)
        with c.session("python", memory_limit_mb=1024, time_limit_s=10) as a:
            r = a.run(SOCKETS)
            assert r.stdout == "ok\n", r
            assert _runsc_anon_mb(s) > 250  # the attack held its bytes there
        assert wait_until(lambda: _runsc_anon_mb(s) < 150, timeout_s=30), _runsc_anon_mb(s)


@pytest.mark.parametrize("code", [PIPES, SOCKETS], ids=["pipes", "sockets"])
def test_kernel_memory_counts_toward_the_limit_under_runsc(code):
    """Under Docker's runsc runtime the container's cgroup holds gVisor's kernel, Go heap included,
    and the watchdog reads it: the programs the gVisor backend lets through are memory_limit here."""
    with one_sandbox("runsc", "pytest-runsc-attacks") as g:
        r = g.grade(_task(code))
        assert r["verdict"] == "memory_limit", r["detail"]

# ----------------------------------------------------------------------------- the watchdog itself
# Red team of sandbox/watchdog.py on both gVisor backends (the gVisor backend and Docker with the
# runsc runtime, skipped, saying so, where runsc is not registered with dockerd): a program attacks
# the watchdog, and what an operator relies on must hold.

@pytest.fixture(scope="module", params=["gvisor", "runsc"])
def grader(request):
    """A one-sandbox Python pool on each gVisor backend."""
    with one_sandbox(request.param, f"gvisor-attacks-{request.param}") as g:
        g.backend_name = request.param
        yield g


# Over its memory limit for the last few milliseconds of its run, then gone before the kill lands:
# under Docker's runsc the watchdog's kill (one `docker kill`) came after the job's answer and the
# box's reset, so the program was accepted and the NEXT job, an innocent program on the same box,
# got memory_limit (measured: 5 of 8 rounds). 270 MB (runsc) or 300 MB (gVisor backend) + 40 MB in a 256 MB test: over the box's limit
# (the test's 256 MB + the runner's room) on both backends.
BURST = "import os, time\nx = bytearray({mb} << 20)\ny = bytearray(40 << 20)\ntime.sleep({s})\nprint('ok', flush=True)\nos._exit(0)"


def test_a_kill_for_a_run_that_went_over_its_limit_never_lands_on_the_next_job(grader):
    # the gVisor backend counts no Sentry heap: more room. Under runsc 290 MB was over the box's 352 MB only
    # with the harness's old rest (a 360 MB peak against the split harness's 343 MB, measured; a second copy of
    # the runner in the zygote was 4 MB of it, the rest not traced), so the burst is 20 MB larger
    mb = 270 if grader.backend_name == "runsc" else 300
    for s in (0, 0, 0.01, 0.01, 0.02, 0.04, 0.3):
        over = grader.grade(_gtask(BURST.format(mb=mb, s=s), memory_limit_mb=256, time_limit_s=10))
        innocent = grader.grade(_gtask("print('ok')"))
        assert innocent["verdict"] == "accepted", (s, over["verdict"], innocent["detail"])
        # on the gVisor backend (no cgroup), over for less than a period (WATCH_S) it may pass (docs/sandboxes.md:
        # "Weaker"); under Docker's runsc the cgroup stops it whatever its length (issue 30); over for 15 periods it
        # is the program's memory_limit on both, never the next job's
        exact = s > 0.1 or grader.backend_name == "runsc"
        assert over["verdict"] in (("memory_limit",) if exact else ("memory_limit", "accepted")), (s, over["detail"])


def test_the_watchdog_survives_a_kill_it_could_not_start(grader, monkeypatch):
    """At pid_max (host threads are what a program exhausts here) the watchdog's kill thread may not
    start: that period is lost, never the watchdog (it died on the RuntimeError and watched nothing
    afterwards: every later memory bomb of the server ran unbounded)."""
    start, failed = threading.Thread.start, threading.Event()

    def start_once_failing(self):
        if self._target is not None and getattr(self._target, "__name__", "") == "_kill" and not failed.is_set():
            failed.set()
            raise RuntimeError("can't start new thread")
        return start(self)

    monkeypatch.setattr(threading.Thread, "start", start_once_failing)
    bomb = "import time\nx = bytearray(700 << 20)\ntime.sleep(2)\nprint('ok')"
    result = grader.grade(_gtask(bomb, memory_limit_mb=256, time_limit_s=10))
    # under Docker's runsc the memory cgroup is the box's limit exactly (issue 30), so it may end the bomb
    # before any reading of the watchdog: no kill to start there (failed in CI: the watchdog's code is the
    # same on both, and the gVisor backend, which has no cgroup, always needs its kill)
    assert failed.is_set() or grader.backend_name == "runsc"
    assert result["verdict"] == "memory_limit", result["detail"]
    monkeypatch.undo()
    assert grader.grade(_gtask(bomb, memory_limit_mb=256, time_limit_s=10))["verdict"] == "memory_limit"
    assert grader.grade(_gtask("print('ok')"))["verdict"] == "accepted"


# A right answer near its memory limit: the scientific stack and 200 MB in a 256 MB task. runc
# accepts up to 230 MB (its cgroup at rest: 32 MB, runner and warm interpreter; the image's files
# are page cache often charged elsewhere), the gVisor backend up to 222 MB (its memory file). Under
# Docker's runsc the watchdog read the whole cgroup: 63 MB at rest (memory file 45 MB, with gVisor's
# own copy of the files it read, plus the Sentry's and gofer's heaps 12 MB and kernel memory), so
# 200 MB was memory_limit, 40-50 MB less room than runc for the same program (an xfail until issue
# 30): it now reads the memory file and the heaps' growth, as the gVisor backend does.
NEAR_LIMIT = ("import numpy, scipy, pandas, sympy, scipy.optimize, scipy.sparse, pandas.plotting\n"
              "x = bytearray({mb} << 20)\nprint('ok')")


def test_a_program_near_its_memory_limit_gets_the_same_verdict_as_under_runc(grader):
    near = grader.grade(_gtask(NEAR_LIMIT.format(mb=200), memory_limit_mb=256, time_limit_s=20))
    assert near["verdict"] == "accepted", near["detail"]
    over = grader.grade(_gtask(NEAR_LIMIT.format(mb=300), memory_limit_mb=256, time_limit_s=20))
    assert over["verdict"] == "memory_limit", over["detail"]  # near miss


SESSION_BACKENDS = {"gvisor": ("--sandbox-backend", "gvisor"),
                    "docker-runsc": ("--sandbox-backend", "docker", "--sandbox-runtime", "runsc")}


@pytest.fixture(scope="module", params=list(SESSION_BACKENDS))
def sessions(request):
    """A server whose sessions run on each gVisor backend."""
    from conftest import ServerProcess
    from helpers import SESSION_SERVER_ARGS
    from verifier.client import ClientConfig, VerifierClient
    if request.param == "gvisor":
        sandbox_config("gvisor", languages=("python",))  # its root filesystem, exported from the image
    elif not runsc_registered():
        pytest.skip(RUNSC_MISSING)
    token = "t" * 32
    with ServerProcess(*SESSION_SERVER_ARGS, *SESSION_BACKENDS[request.param], "--token", token, "--max-sessions", "2") as s, \
            VerifierClient(s.target, ClientConfig(token=token, timeout_s=120)) as c:
        yield c


# A cell leaves a process that outgrows the session's memory limit while the session is idle
# (between cells): the watchdog watches sessions then too, and the next cell must say why its
# session was lost: memory_limit, not a crash of the session's container.
IDLE_GROWER = ("import subprocess\nsubprocess.Popen(['python3', '-c', 'import time; time.sleep(0.5); "
               "x = bytearray(400 << 20); time.sleep(60)'])\n'started'")


# serial: Docker's OOM event against the container's exit under runsc (failed once in stop 46's CI, passed alone)
@pytest.mark.serial
def test_a_session_that_outgrows_its_memory_between_cells_is_told_memory_limit(sessions):
    import time
    with sessions.session("python", memory_limit_mb=128) as s:
        assert s.run(IDLE_GROWER).value == "'started'"
        time.sleep(4)
        r = s.run("6 * 7")
        assert r.status == "memory_limit" and r.session_lost, r
    with sessions.session("python") as s:
        assert s.run("6 * 7").value == "42"


# A right answer in Rust: 12 lines with std collections and 8 threads. rustc -O runs 16 codegen
# threads; under gVisor's ptrace platform their futexes and system calls go through the Sentry and
# the compile's CPU time was 21 s (the runner's count; 26 s user+sys by `time` in a runsc
# container, 2.2 s under runc) in 4.5-6.7 s of wall time on 2 cores: compile_error (CPU time limit,
# 20 s) on both gVisor backends, accepted under runc; with -C codegen-units=1 (now the rust
# compile command, sandbox/languages.py), 4 s. Not the watchdog's (its host threads peaked at 152 of 1024), found while measuring it.
RUST_THREADS = """use std::collections::{HashMap, BTreeMap, HashSet};
use std::thread;
fn main() {
    let mut m: HashMap<u64, Vec<String>> = HashMap::new();
    let mut b: BTreeMap<String, HashSet<u32>> = BTreeMap::new();
    for i in 0..100u64 { m.entry(i % 7).or_default().push(format!("{}", i)); b.entry(format!("{:?}", i)).or_default().insert(i as u32); }
    let hs: Vec<_> = (0..8).map(|i| thread::spawn(move || (0..1000u64).map(|x| x * i).sum::<u64>())).collect();
    let t: u64 = hs.into_iter().map(|h| h.join().unwrap()).sum();
    if t > 0 && m.len() == 7 && b.len() == 100 { println!("ok"); }
}
"""


@pytest.mark.parametrize("backend", ["gvisor", "runsc"])
def test_a_right_rust_answer_with_threads_compiles_under_gvisor(backend):
    with one_sandbox(backend, "gvisor-attacks-rust", languages=("rust",)) as g:
        task = {"id": "r", "kind": "code", "language": "rust", "completion": RUST_THREADS,
                "tests": [{"stdin": "", "expected_stdout": "ok\n"}]}
        result = g.grade(task)
        assert result["verdict"] == "accepted", result["detail"]


# A SysV segment outlives its process; the runner's reset removes what /proc/sysvipc lists, and
# gVisor has no /proc/sysvipc. A job leaving 150 MB in one made the next job's program (180 MB in a
# 256 MB task) memory_limit on both gVisor backends (measured: 2 of 2 each).
SHM = ("import ctypes\nlibc = ctypes.CDLL(None, use_errno=True)\nlibc.shmat.restype = ctypes.c_void_p\n"
       "i = libc.shmget({key}, {mb} << 20, 0o1666)\np = libc.shmat(i, None, 0)\nctypes.memset(p, 7, {mb} << 20)\n"
       "print('ok' if i >= 0 and p not in (None, ctypes.c_void_p(-1).value) else 'no')")


def test_memory_a_job_leaves_behind_never_fails_the_next_job(grader):
    for _ in range(2):
        assert grader.grade(_gtask(SHM.format(key=0x4321, mb=150), memory_limit_mb=256))["verdict"] == "accepted"
        innocent = grader.grade(_gtask("x = bytearray(180 << 20)\nprint('ok')", memory_limit_mb=256))
        assert innocent["verdict"] == "accepted", innocent["detail"]
    # near miss: its own 180 MB and 150 MB of segment in one job is over its 256 MB
    both = SHM.format(key=0x4322, mb=150) + "\nx = bytearray(180 << 20)"
    assert grader.grade(_gtask(both, memory_limit_mb=256))["verdict"] == "memory_limit"


def test_a_sysv_segment_never_reaches_the_next_job(grader):
    """Jobs share nothing: what one program writes into a SysV segment is gone for the next. The
    runner's reset listed SysV objects through /proc/sysvipc, which gVisor lacks, so a small segment
    (under LEFTOVER_MB: the box was not recycled) reached the next job; it now counts them through
    the kernel's own INFO and STAT calls, and one it cannot remove replaces the box."""
    assert grader.grade(_gtask(SHM.format(key=0x5150, mb=1)))["verdict"] == "accepted"
    look = ("import ctypes\nlibc = ctypes.CDLL(None, use_errno=True)\n"
            "print('ok' if libc.shmget(0x5150, 0, 0) < 0 else 'found the last job\\'s segment')")
    result = grader.grade(_gtask(look))
    assert result["verdict"] == "accepted", result["detail"]


# serial: its near-limit shapes read CPU against a limit at 1.3x (failed once in stop 50's CI beside another worker: the
# chain shape accepted; work_spin calibrates the work, which the other worker's load skews)
@pytest.mark.serial
def test_the_cpu_time_of_every_process_counts_under_runsc():
    """Docker's runsc runtime gives the runner no cgroup clock either (gVisor mounts none: measured),
    so the runner mounts gVisor's own cgroupfs there too (accounting.mount_cpu_clock): the shapes of tests/test_sandbox_docker.py (orphans,
    a fork chain, threads, children the kernel reaps itself, children waited for), each 2.6 s of
    CPU under a 2 s limit, and the same with a fifth of the work as the near miss: work, not gVisor's clock
    (work_spin: at load the clock's spin did less than 2 s of work, rightly accepted by the host's reading)."""
    from tests.test_sandbox_docker import CPU_SHAPES, work_spin
    spin = work_spin()
    with one_sandbox("runsc", "pytest-runsc-cpu") as g:
        for shape, code in CPU_SHAPES.items():
            for s, verdict in ((0.65, "time_limit"), (0.13, "accepted")):
                r = g.grade(_gtask(spin + code.format(s=s) + "print('ok')", time_limit_s=2))
                assert r["verdict"] == verdict, (shape, s, r["detail"])


@pytest.fixture(scope="module")
def runsc_grader():
    with one_sandbox("runsc", "pytest-runsc-leave") as g:
        yield g


@pytest.mark.parametrize("kind", ["sysv_shm", "sysv_msg", "sysv_sem", "posix_mq", "abstract_socket", "loopback_port",
                                  "files", "process"])
def test_nothing_a_job_makes_reaches_the_next_job_under_runsc(runsc_grader, kind):
    """tests/test_sandbox_docker.py's test of every kind of kernel object a job can leave, on the
    third backend: Docker's runsc runtime (its /dev/mqueue mount dropped by runsc, like the gVisor
    backend's: mq_open refused there too)."""
    from tests.test_sandbox_docker import LEAVE, leaves_nothing
    assert kind in LEAVE
    leaves_nothing(runsc_grader, "runsc", kind)


# ---------------------------------------------------------------- what the host finds of a sandbox's processes
# A process whose memfd is named as gVisor names its memory file, started by a second thread of its parent: runsc
# starts its gofer and the platform's stubs from threads other than its first, and each thread's own
# /proc/PID/task/TID/children lists only what that thread started (proc(5)).
HOLDER = ("import subprocess, sys, threading\n"
          "code = 'import os, time; fd = os.memfd_create(\"runsc-memory\"); print(os.getpid(), flush=True); time.sleep(60)'\n"
          "t = threading.Thread(target=lambda: subprocess.run([sys.executable, '-c', code]))\n"
          "t.start()\nt.join()")  # the thread lives on while its child runs: a thread's children outlive it in another's file


def test_the_watchdog_finds_a_child_started_by_any_thread():
    """watchdog.memory_file (how Docker's runsc backend finds gVisor's memory file) looks below a process at every
    child, whichever thread started it: it read only the first thread's children file and missed the rest
    (issue 30). Near miss: a process that holds no such memfd is not taken for it."""
    import subprocess
    import sys

    parent = subprocess.Popen([sys.executable, "-c", HOLDER], stdout=subprocess.PIPE, text=True, start_new_session=True)
    try:
        child = int(parent.stdout.readline())
        assert child in watchdog._children(parent.pid)
        found = watchdog.memory_file([parent.pid])
        assert found.startswith(f"/proc/{child}/fd/"), found
        assert watchdog.memory_file([os.getpid()]) == ""  # near miss
    finally:
        os.killpg(parent.pid, 9)
        parent.wait()


# ---------------------------------------------------------------- readings the host acts on are settled
def test_a_reading_is_acted_on_once_it_holds_still():
    """watchdog.settled: the value two close readings agree on, never the transient before them;
    a box gone reads -1 at once; one that never settles gives the caller's safe side (issue 30: a
    box's kernel read 347 MB, then 0 MB when read again)."""
    def reads(*values):
        it = iter(values)
        return lambda: next(it)
    assert watchdog.settled(reads(347, 14, 15)) == 15
    assert watchdog.settled(reads(14, 16)) == 16
    assert watchdog.settled(reads(347, -1)) == -1
    assert watchdog.settled(reads(-1)) == -1
    assert watchdog.settled(reads(10, 100, 10, 100, 10)) == 100
    assert watchdog.settled(reads(10, 100, 10, 100, 10), unsettled=min) == 10


def test_the_watchdog_never_kills_for_one_reading_of_gvisors_heap():
    """Over the limit by gVisor's heap alone (the memory file under it), one reading is not enough:
    a transient of the kernel's resident memory must not be a program's memory_limit. Near miss:
    the same reading held past a fresh reading of the heap kills."""
    import socket

    from sandbox.box import Box

    a, b = socket.socketpair()
    killed = threading.Event()
    readings = [watchdog.Usage(mem_mb=400, threads=1, firm_mb=100), watchdog.Usage(mem_mb=120, threads=1, firm_mb=100)]
    box = Box(language="python", container=None, channel=watchdog.WatchedChannel(a), mem_mb=256)
    box.channel.busy = True
    dog = watchdog.Watchdog("test", lambda: [box], lambda _b: readings[0], lambda _b, _r: killed.set(), 1024)
    try:
        dog._check(box)  # over by the heap alone, once
        readings.pop(0)
        dog._check(box)  # then under: the transient is gone
        assert not killed.is_set() and not box.channel.over
        readings.insert(0, watchdog.Usage(mem_mb=400, threads=1, firm_mb=100))
        while not killed.wait(watchdog.WATCH_S):  # held: killed once a fresh reading of the heap says it too
            dog._check(box)
        assert box.channel.over == watchdog.MEMORY
        # the memory file itself over: no second reading needed
        killed.clear()
        box.killing, box.channel.over, box.heap_over_since = False, "", 0.0
        readings[0] = watchdog.Usage(mem_mb=300, threads=1, firm_mb=300)
        dog._check(box)
        assert killed.wait(5)
    finally:
        a.close()
        b.close()


# ----------------------------------------------------------------------------- memory in flight
# Red team of issue 30's reset (docs/sandboxes.md "What a job leaves behind"): 150 MB of memfds sent
# in flight to an unbound socketpair of their own (SCM_RIGHTS, a cycle no process holds) outlive
# every process of the job, and no name lists them (an unbound socket is no bound one for the reset).
# Both gVisor backends replace the box (its memory file is over LEFTOVER_MB): held, 2 of 2 each.
# Under Docker (runc) the cgroup still held them after the reset and the next job's right answer
# (180 MB in a 256 MB test) was memory_limit (measured: 1 of 2 rounds, and within this test's 3;
# kernel 6.18: the unix garbage collector frees the cycle some time later); now the box is replaced
# there too, as its cgroup's shared memory says (DockerBackend.sandbox_mb).
IN_FLIGHT = (
    "import os, socket\nfds, mb = [], b'\\7' * (1 << 20)\nfor i in range(3):\n    fd = {make}\n"
    "    for _ in range(50):\n        os.write(fd, mb)\n    fds.append(fd)\n"
    "x, y = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)\n"
    "socket.send_fds(x, [b'k'], fds + [x.fileno(), y.fileno()])\nprint('ok')")
MAKE = {"memfd": "os.memfd_create('x')",
        # the variant: unnamed files of the writable tmpfs (O_TMPFILE), which no wipe of a folder finds;
        # gVisor refuses O_TMPFILE (EOPNOTSUPP), so the kind is never made there
        "tmpfile": "os.open(('/work', '/work', '/tmp')[i], os.O_TMPFILE | os.O_RDWR, 0o600)"}
NEVER_MADE = {("gvisor", "tmpfile"), ("runsc", "tmpfile")}
INNOCENT_180 = "x = bytearray(180 << 20)\nfor i in range(0, len(x), 4096):\n    x[i] = 1\nprint('ok')"


@pytest.mark.parametrize("kind", list(MAKE))
@pytest.mark.parametrize("backend", ["gvisor", "runsc", "docker"])
def test_memory_a_job_leaves_in_flight_never_fails_the_next_job(backend, kind):
    left_code = IN_FLIGHT.format(make=MAKE[kind])
    with one_sandbox(backend, f"gvisor-attacks-inflight-{backend}") as g:
        if (backend, kind) in NEVER_MADE:
            left = g.grade(_gtask(left_code, memory_limit_mb=256, time_limit_s=10))
            assert left["verdict"] == "runtime_error" and "Errno 95" in left["detail"], left["detail"]
            return
        for _ in range(3):
            left = g.grade(_gtask(left_code, memory_limit_mb=256, time_limit_s=10))
            assert left["verdict"] == "accepted", left["detail"]
            innocent = g.grade(_gtask(INNOCENT_180, memory_limit_mb=256, time_limit_s=10))
            assert innocent["verdict"] == "accepted", innocent["detail"]
        # near miss: the same 180 MB with 150 MB of its own memfds in one job is over its 256 MB
        both = left_code.replace("print('ok')", "") + "\n" + INNOCENT_180
        assert g.grade(_gtask(both, memory_limit_mb=256, time_limit_s=10))["verdict"] == "memory_limit"



# A judged test (test_code) whose program goes over its memory limit before the watchdog reads it (CI, at
# load: a fork bomb's copies of the interpreter): under Docker's runsc the memory cgroup's OOM kill takes
# the whole sandbox, and its broken channel was infra_error (retried, then infra_error) where the same
# program on stdin was memory_limit. The watchdog is held off here so the cgroup acts first every time;
# the gVisor backend has no memory cgroup (its watchdog is its only memory limit: docs/sandboxes.md).
OOM_BOMB = ("import os, time\n{head}    for _ in range(24):\n        if os.fork() == 0:\n"
            "            y = bytearray(48 << 20)\n            time.sleep(5)\n            os._exit(0)\n"
            "    time.sleep(5)\n")


def test_an_oom_kill_of_a_judged_or_stdin_program_under_runsc_is_memory_limit(monkeypatch):
    if not runsc_registered():
        pytest.skip(RUNSC_MISSING)
    judged = {"kind": "code", "language": "python", "test_code": "assert f(1) == 2", "time_limit_s": 10.0,
              "memory_limit_mb": 256, "completion": "```python\n" + OOM_BOMB.format(head="def f(x):\n")
              + "    return 2\n```"}
    stdin = _gtask(OOM_BOMB.format(head="if True:\n") + "print('ok')", memory_limit_mb=256, time_limit_s=10)
    with one_sandbox("runsc", "gvisor-attacks-oom") as g:
        monkeypatch.setattr(watchdog, "WATCH_S", 60.0)
        for task in (judged, stdin, judged):
            r = g.grade(task)
            assert r["verdict"] == "memory_limit", r["detail"]
            assert "OOM-killed" in r["detail"], r["detail"]  # the cgroup's kill, not the watchdog's
        monkeypatch.undo()
        assert g.grade(_gtask("print('ok')"))["verdict"] == "accepted"
        right = {**judged, "completion": "```python\ndef f(x):\n    y = bytearray(64 << 20)\n    return 2\n```"}
        assert g.grade(right)["verdict"] == "accepted"  # near miss: within its memory it passes

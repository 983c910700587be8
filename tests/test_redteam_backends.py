"""Red team of the backends (issue 30): programs written as a reward-hunting policy would write them, through the
real grader (tests/conftest.py `any_grader`). Each test asserts the safe behaviour, so a finding is a test that fails;
docs/sandboxes.md "Sandbox backends" states the claims: a limit holds for the whole sandbox, on every backend, and one
sandbox's program cannot use up what another sandbox's needs.

Found (and fixed at the class): on the userns backend without a cgroup (rlimits and a watchdog), the CPU of children
the kernel reaps itself and the kernel's own memory (socket buffers, page tables, SysV objects) were not counted, all
`accepted`; that backend now refuses to start without a cgroup of its own (tests/test_sandbox_userns.py
`test_without_a_cgroup_of_its_own_the_backend_refuses_to_start`), and the attacks here show that the sandboxes it
does start hold. Under Docker every container's program was one host uid, whose per-user counts of the kernel every
sandbox shared (test_a_sandbox_cannot_use_up_another_sandboxs_per_user_counts); each container's program now has a
host uid of its own (sandbox/backend.py PROGRAM_UID_BASE).

The module's sandboxes have a wide wall-clock backstop (wall_factor): what is checked here is the CPU and memory
accounting itself, and a busy CI host must not turn a CPU time limit the accounting missed into a wall-clock one."""
from __future__ import annotations

import contextlib
import io
import re
import threading
import time
from collections.abc import Iterator

import pytest

from sandbox.sync import SyncGrader
from tests.helpers import kernel_differs, known_bug, on_backend, one_sandbox

pytestmark = pytest.mark.docker  # the images (and the root filesystems exported from them)

# Every backend's grader (tests/conftest.py `any_grader`): one Python sandbox with these settings.
SANDBOX = {"pool_name": "pytest-redteam-backends", "wall_factor": 20.0}
# Measured on the loaded 2-core CI host, the six attacks: userns 10 s, docker 18 s, gvisor 39 s, runsc 41 s (each
# `accepted`-safe there too). CI is at its budget, and the class found was the userns backend's (the cgroup's).
BACKENDS_CUT = {
    "docker": "its cgroup v1 accounting is the userns backend's (both hold here: 18 s more)",
    "gvisor": "its kernel memory and CPU have their own suites (tests/test_gvisor_attacks.py; 39 s more)",
    "runsc": "as gvisor (tests/test_gvisor_attacks.py, tests/test_sandbox_gvisor.py; 41 s more)",
}


def py(code: str, expected: str = "3\n", **kw) -> dict:
    return {"kind": "code", "language": "python", "completion": f"```python\n{code}\n```",
            "tests": [{"stdin": "1 2\n", "expected_stdout": expected}], **kw}


def judged(code: str, **kw) -> dict:
    """Call tests of `f` (x -> x + 1), run by the judge: each call has its own time limit."""
    return {"kind": "code", "language": "python", "completion": f"```python\n{code}\n```", "entry_point": "f",
            "call_tests": [{"args": [i], "expected": i + 1} for i in (1, 2, 3)], **kw}


RIGHT = py("a, b = map(int, input().split())\nprint(a + b)")
NEAR = py("a, b = map(int, input().split())\nprint(a + b + 1)")


def grades_right(g: SyncGrader) -> None:
    """After an attack the sandbox grades as ever: a right answer accepted, its near miss not."""
    assert g.grade(RIGHT)["verdict"] == "accepted"
    assert g.grade(NEAR)["verdict"] == "wrong_answer"


# ----------------------------------------------------------------- class 5: CPU measured per process
# A child whose parent ignores SIGCHLD is reaped by the kernel itself, which adds its CPU time to no
# one: not the parent's cutime, not PID 1's RUSAGE_CHILDREN. Without a cgroup clock the runner's
# TaskClock sees such a child only while it lives, in /proc ticks of 10 ms: a child that burns 4 ms
# and exits is seen using 0 (sandbox/harness/accounting.py TaskClock: "misses at most what such a task
# used after its last reading", which is all of it). docs/sandboxes.md "CPU time without a cgroup" rests
# this on gVisor, where each fork costs its parent more than 10 ms; on the host's kernel a fork is ~1 ms. 600 of them are 2.4 s of CPU under a 1 s limit.
# (TaskClock is gone since red team 2: gVisor's own cgroupfs clock, accounting.mount_cpu_clock, counts every task.)
AUTOREAP = """import os, signal, time
signal.signal(signal.SIGCHLD, signal.SIG_IGN)
for _ in range({n}):
    if os.fork() == 0:
        t = time.process_time()
        while time.process_time() - t < 0.004:
            pass
        os._exit(0)
    time.sleep(0.001)
time.sleep(0.2)
print(3)"""


def _autoreaped_cpu_counts(g: SyncGrader) -> None:
    r = g.grade(py(AUTOREAP.format(n=600), time_limit_s=1))
    assert r["verdict"] == "time_limit" and "CPU time limit" in r["detail"] and not r["retryable"], r
    small = g.grade(py(AUTOREAP.format(n=3), time_limit_s=1))  # near miss: a few (a fork under gVisor is ~25 ms)
    assert small["verdict"] == "accepted", small
    grades_right(g)


def test_cpu_of_children_the_kernel_reaps_counts(any_grader):
    _autoreaped_cpu_counts(any_grader)



# The judge's per-call CPU limit without a cgroup clock is the CPU of the program uid's live processes
# (sandbox/harness/judge.py uid_cpu), their reaped children's included: the same children the kernel
# reaps itself are seen only while they live. 600 of them in one call are 2.4 s of CPU under a 1 s
# per-call limit, and the job's own budget (3 calls x 1 s + the judge's 5 s start) still holds them.
# (Orphans left to PID 1 instead held: PID 1 reaps them only after the run, so their zombies are read.)
AUTOREAP_CALL = """import os, signal, time
def burn_in_children(n):
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    for _ in range(n):
        if os.fork() == 0:
            t = time.process_time()
            while time.process_time() - t < 0.004:
                pass
            os._exit(0)
        time.sleep(0.001)
    time.sleep(0.2)
def f(x):
    if x == 1:
        burn_in_children({n})
    return x + 1"""


def _call_cpu_counts_reaped_children(g: SyncGrader) -> None:
    r = g.grade(judged(AUTOREAP_CALL.format(n=600), time_limit_s=1))
    counted = re.search(r"\(([0-9.]+)s CPU", r["detail"])
    # stopped by its CPU, not by the wall clock (on a busy host 600 forks can outlast the wide backstop)
    assert r["verdict"] == "time_limit" and counted and float(counted.group(1)) >= 1 and not r["retryable"], r
    small = g.grade(judged(AUTOREAP_CALL.format(n=3), time_limit_s=1))  # near miss: a few fit
    assert small["verdict"] == "accepted", small
    grades_right(g)


def test_cpu_of_children_the_kernel_reaps_counts_for_a_judged_call(any_grader):
    _call_cpu_counts_reaped_children(any_grader)



# ----------------------------------------------------------------- class 5: memory no reading sees
# A unix socket's send buffer is kernel memory: no process's pages, no tmpfs, no shared memory file, so
# the watchdog's reading (sandbox/userns.py _memory_mb) leaves it out. SO_SNDBUF may be raised to
# net.core.wmem_max (4 MB here) without a capability; 100 filled pairs are about 330 MB.
SOCKBUF = """import socket, time
held = []
for _ in range({n}):
    a, b = socket.socketpair()
    a.setblocking(False)
    a.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4 << 20)
    try:
        while True:
            a.send(b'x' * 65536)
    except BlockingIOError:
        pass
    held.append((a, b))
time.sleep(1.5)
print(3)"""


def _socket_buffers_count(g: SyncGrader) -> None:
    r = g.grade(py(SOCKBUF.format(n=100), memory_limit_mb=64, time_limit_s=5))
    assert r["verdict"] == "memory_limit" and not r["retryable"], r
    small = g.grade(py(SOCKBUF.format(n=2), memory_limit_mb=64, time_limit_s=5))  # near miss: ~7 MB fits
    assert small["verdict"] == "accepted", small
    grades_right(g)


def test_socket_buffers_are_the_programs_memory(any_grader):
    _socket_buffers_count(any_grader)



# Page tables are kernel memory too: one 4 KB page of a file in /tmp (counted once: the tmpfs), mapped
# at 60000 addresses 2 MB apart, each faulted in, needs a page-table page per mapping: 235 MB
# (VmPTE 240568 kB, measured) in no process's pages, under a 64 MB limit. The cgroup charges them.
PAGE_TABLES = """import ctypes, mmap, os, time
libc = ctypes.CDLL(None, use_errno=True)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
fd = os.open('/tmp/page', os.O_RDWR | os.O_CREAT, 0o600)
os.write(fd, b'x' * 4096)
for i in range({n}):
    p = libc.mmap(0x100000000000 + i * (2 << 20), 4096, mmap.PROT_READ, mmap.MAP_SHARED, fd, 0)  # a hint
    if p is None or p == ctypes.c_void_p(-1).value:
        break
    ctypes.c_char.from_address(p).value  # fault it in
time.sleep(1.5)
print(3)"""


def _page_tables_count(g: SyncGrader, backend: str) -> None:
    r = g.grade(py(PAGE_TABLES.format(n=60000), memory_limit_mb=64, time_limit_s=3))
    want = on_backend(backend, ("memory_limit",), kernel_differs(
        ("memory_limit", "accepted", "time_limit"), "gVisor's Sentry maps the application's memory itself (one host "
        "mapping of the file, not 60000): measured accepted under runsc (in 5-10 s of CPU) and time_limit under gvisor, each mmap costing ms there; "
        "what holds there is that the attack is the program's own verdict and the sandbox grades on"))
    assert r["verdict"] in want and not r["retryable"], r
    small = g.grade(py(PAGE_TABLES.format(n=100), memory_limit_mb=64, time_limit_s=10))  # near miss: 400 KB fits
    assert small["verdict"] == "accepted", small
    grades_right(g)


def test_page_tables_are_the_programs_memory(any_grader, backend):
    _page_tables_count(any_grader, backend)



# SysV objects are the ipc namespace's, no process's: a segment touched while attached and then detached
# is in no process's maps or fds (sandbox/userns.py shmem_bytes_below reads only those), and a message
# queue's messages are kernel memory. Ten 30 MB segments, each attached only while it is filled, are
# 300 MB; 24000 queues of 16 KB (msgmnb; msgmni is 32000 in a new ipc namespace) are 384 MB. Both under
# a 64 MB limit, past the runner's room a box adds to it (sandbox/config.py overhead_mb: 88 MB here).
SHM_PIECES = """import ctypes, time
libc = ctypes.CDLL(None, use_errno=True)
libc.shmat.restype = ctypes.c_void_p
for _ in range({k}):
    i = libc.shmget(0, 30 << 20, 0o600)
    p = libc.shmat(i, None, 0)
    ctypes.memset(p, 1, 30 << 20)
    libc.shmdt(ctypes.c_void_p(p))
time.sleep(1.5)
print(3)"""
MSG_QUEUES = """import ctypes, time
libc = ctypes.CDLL(None, use_errno=True)
msg = ctypes.create_string_buffer(8 + 8000)
ctypes.c_long.from_buffer(msg).value = 1
for _ in range({q}):
    i = libc.msgget(0, 0o600)
    if i < 0:
        break
    while libc.msgsnd(i, msg, 8000, 0o4000) == 0:  # IPC_NOWAIT: until the queue is full
        pass
time.sleep(1.5)
print(3)"""
SYSV_HOARDS = {"detached shm segments": (SHM_PIECES, "k", 10), "message queues": (MSG_QUEUES, "q", 24000)}


def _sysv_memory_counts(g: SyncGrader, way: str) -> None:
    code, knob, many = SYSV_HOARDS[way]
    r = g.grade(py(code.format(**{knob: many}), memory_limit_mb=64, time_limit_s=5))
    assert r["verdict"] == "memory_limit" and not r["retryable"], r
    small = g.grade(py(code.format(**{knob: 1}), memory_limit_mb=64, time_limit_s=5))  # near miss: one fits
    assert small["verdict"] == "accepted", small
    grades_right(g)


@pytest.mark.parametrize("way", list(SYSV_HOARDS))
def test_sysv_objects_are_the_programs_memory(any_grader, way):
    _sysv_memory_counts(any_grader, way)


# ----------------------------------------------------------------- one sandbox against another
# Per-user counts of the host's kernel are charged to the program's host uid (and, under userns, to the creator of its
# user namespace: a host uid of that sandbox alone, sandbox/userns_launch.py owner_id). Under Docker every container's
# program was the same host uid, so one sandbox's program holding its 128 inotify instances (fs.inotify.max_user_instances)
# left none to a program in any other sandbox: that program's failure (EMFILE) was another tenant's doing. A gVisor
# sandbox has a kernel (and counts) of its own. Each entry: the body of `one()` (a held object, or None when refused),
# the least a hoarder gets, and the victim's try with what it prints when it got its own.
HOLD = """import ctypes, fcntl, os, time
libc = ctypes.CDLL(None, use_errno=True)
held = []
def one():
{make}
while len(held) < 2000 and (x := one()) is not None:
    held.append(x)
open('/tmp/hoarded', 'w').write(str(len(held)))
while os.path.exists('/tmp/hoarded'):  # until the test has tried from the other sandbox (and removed it)
    time.sleep(0.05)
print('held' if len(held) >= {least} else len(held))"""
COUNTS = {
    "inotify instances": ("    fd = libc.inotify_init1(0)\n    return fd if fd >= 0 else None", 100,
                          "import ctypes\nprint(ctypes.CDLL(None).inotify_init1(0) >= 0)", "True\n"),
    # RLIMIT_MSGQUEUE: 800 KB of queues per user (a default queue reserves 80 KB)
    "message queue bytes": ("    q = libc.mq_open(f'/q{len(held)}'.encode(), os.O_CREAT | os.O_RDWR, 0o600, None)\n"
                            "    return q if q >= 0 else None", 8,
                            "import ctypes, os\nprint(ctypes.CDLL(None).mq_open(b'/mine', os.O_CREAT | os.O_RDWR, 0o600, None) >= 0)",
                            "True\n"),
    # fs.pipe-user-pages-soft: 64 MB of pipe buffers per user; past it an unprivileged user's pipes cannot grow
    "pipe pages": ("    r, w = os.pipe()\n    try:\n        fcntl.fcntl(w, 1031, 1 << 20)\n    except OSError:\n"
                   "        return None\n    return r, w", 50,
                   "import fcntl, os\nr, w = os.pipe()\nfcntl.fcntl(w, 1031, 1 << 20)\nprint(fcntl.fcntl(w, 1032))", f"{1 << 20}\n"),
}
# (host backend, count) -> why it is open: none (the userns backend's pipe pages were, every sandbox's program one
# host uid, until each got its own: sandbox/userns.py id_map)
OPEN: dict[tuple[str, str], str] = {}


def _in_each_box(g: SyncGrader, backend: str, code: str) -> list[str]:
    """Run Python `code` as root in each of the pool's sandboxes (userns: in the host's python, with
    `root` the path of the sandbox's / as the host sees it); what each printed."""
    if backend == "userns":
        said = []
        for b in g.grader._backend._boxes.values():
            with contextlib.redirect_stdout(io.StringIO()) as f:
                exec(code, {"root": f"/proc/{b.container.pid1}/root"})
            said.append(f.getvalue())
        return said
    import docker

    from sandbox.backend import LABEL_POOL
    client = docker.from_env()
    boxes = client.containers.list(filters={"label": f"{LABEL_POOL}={g.grader.config.pool_name}"})
    return [c.exec_run(["python3", "-c", f"root = ''\n{code}"], user="root").output.decode() for c in boxes]


@pytest.fixture(scope="module")
def pairs() -> Iterator[dict[str, SyncGrader]]:
    """A two-sandbox pool per backend, made once for the module's counts."""
    with contextlib.ExitStack() as stack:
        yield {b: stack.enter_context(one_sandbox(b, f"pytest-redteam-counts-{b}", pool_size=2)) for b in ("docker", "userns")}


@pytest.mark.parametrize("host_backend", ["docker", "userns"])
@pytest.mark.parametrize("count", list(COUNTS))
def test_a_sandbox_cannot_use_up_another_sandboxs_per_user_counts(pairs, host_backend, count, request):
    """While one sandbox's program holds all it gets of a per-user count, a program in the other sandbox still gets its
    own. Near miss: it does with nobody holding them, and the hoarder got a fair share. Found on docker: the other
    sandbox got no inotify instance while the first held its 128."""
    known_bug(request, host_backend, {host_backend: OPEN[(host_backend, count)]} if (host_backend, count) in OPEN else {})
    g = pairs[host_backend]
    make, least, code, want = COUNTS[count]
    try_it = py(code, expected=want)
    assert g.grade(try_it)["verdict"] == "accepted"  # near miss: with nobody holding them
    out: dict = {}
    t = threading.Thread(target=lambda: out.update(r=g.grade(py(HOLD.format(make=make, least=least), expected="held\n",
                                                                 time_limit_s=10))))
    t.start()
    try:
        look = "import os; print(os.path.exists(root + '/tmp/hoarded'))"
        while "True" not in "".join(_in_each_box(g, host_backend, look)):
            assert t.is_alive(), out
            time.sleep(0.05)
        r = g.grade(try_it)  # the pool's other sandbox
    finally:
        _in_each_box(g, host_backend, "import os\nif os.path.exists(root + '/tmp/hoarded'): os.unlink(root + '/tmp/hoarded')")
        t.join()
    assert out["r"]["verdict"] == "accepted", out
    assert r["verdict"] == "accepted", r

"""Red team rt30z of two rules no program had attacked (/work/shared/RED-TEAM.md classes 5, 6 and 8), through the real
grader on every backend (tests/conftest.py `any_grader`: one warm one-sandbox pool per backend, reused across jobs):

1. The host's clock (h32i, h30t): under gVisor a job's CPU is the least of gVisor's own cgroupfs clock and the host's
   CPU of the sandbox's host processes since the request began (under the gVisor backend a per-sandbox CPU cgroup,
   sandbox/cgroups.py, entered by `dies_with_server`; sandbox/harness/accounting.py SandboxClock `over`, `settle`);
   on docker and userns the container's cgroup clock. Tried: leftovers that sleep through the job's end and the reset
   and then spin, to charge a later job (orphans of a double fork in their own session with their stdio closed; a
   thread group whose leader has exited while its threads live on; a child made with clone(CLONE_PARENT), so its
   parent is the runner or the warm zygote, not the program; a posix_spawn'd (vfork) shell loop in its own session),
   each with staggered sleeps covering the reset and the next job; CPU spent in gVisor's kernel and the host's rather
   than in the program (threads storming read(2) of /dev/zero with the GIL released, mmap / touch / munmap churn,
   getppid(2) loops, eight forked children storming read(2) while the parent sleeps, a loopback TCP stream whose
   segments and acks are the netstack's work, stat(2) storms over the image's files that gVisor's gofer may serve),
   and the job after each. Measured while trying (gvisor backend, the per-sandbox host cgroup read from outside): a
   UDP flood and a stat storm each stopped at 1.02 s of charge with 1.04 s on the host's cgroup, `time_limit`: the
   Sentry's (and gofer's) work for a task is charged to that task, so no figure was found below the host's.
   Held, everywhere: each leftover is gone before the next job (a later program that sleeps 1.5 s under a 1 s CPU
   limit, which any surviving spinner would push past it, is `accepted`); every kernel-side burn is `time_limit`,
   never retryable, and charges nothing to the next job. Read, not exercised: the runner's and its spared helpers'
   own CPU is subtracted from gVisor's clock (SandboxClock), but nothing a program does runs in them; each figure
   is an upper bound and `settle` asks the host after the program's last instruction, so no order of reads found
   an undercount.
2. `limit_unset` (c1d9b81): under Docker's runsc a box whose memory cgroup the kernel would not lower back after a
   checker's doubled room (EBUSY) is replaced after its job (sandbox/backend.py `_cap_runsc`, `Backend.at_rest`).
   Tried: a program whose output (about 6 MB of short tokens) makes a checker that splits it need more than the
   box's limit, so the checker runs with doubled room (sandbox/job.py `_with_room`), followed in the same job by a
   test whose program holds, or briefly touches, 80 MB under a 16 MB limit, and then by a job that holds 80 MB.
   No run here left the cgroup raised (the lowering never failed: gVisor returned the checker's pages in time), and
   every later test and job over its limit was `memory_limit`. The 2-cores-loaded host of CI may differ: the tests
   lock the verdicts, which must hold whether or not the lowering fails.
3. Class 8 at the checker: a program that leaves /work full to just under the box's memory so the checker's own
   files and process do not fit, and one whose output no checker can hold in twice the room. Held: the first is the
   program's `memory_limit` on every backend, never `infra_error`; the second is the program's: `wrong_answer`
   (docker, gvisor, userns: the checker fails on it and accepts the reference answer) or, under Docker's runsc,
   `memory_limit`, since the checker's doubled room is the whole box's cgroup and past it the box dies
   (Backend.over_limit_ends_sandbox). Noticed: that stopped the job there, so a `scoring: fraction` task scored 0 under
   runsc where the other backends paid its later tests (2 of 3 here); h30v runs the later tests in a fresh box
   (CodeGrader._rest), and the test at fault is 0 on every backend.

No hole was found: every test below is a plain test locking the rule. Verdicts only, no durations; the module's
sandboxes have a wide wall-clock backstop (wall_factor), so what decides is the CPU and memory accounting."""
from __future__ import annotations

import pytest

from sandbox.sync import SyncGrader
from tests.helpers import on_backend

pytestmark = pytest.mark.docker  # the images (and the root filesystems exported from them)

SANDBOX = {"pool_name": "pytest-redteam-backends-7", "wall_factor": 20.0, "pool_size": 1, "languages": ("python",)}

RIGHT = "a, b = map(int, input().split())\nprint(a + b)"
# Right, and all but free of CPU: it sleeps 1.5 s under a 1 s CPU limit, so a spinner left by an earlier job that
# lived on into this one would take the sandbox's CPU past the limit (each backend charges the whole sandbox).
SLEEPER = "import time\na, b = map(int, input().split())\ntime.sleep(1.5)\nprint(a + b)"


def code(source: str, time_limit_s: float = 1, **kw) -> dict:
    return {"kind": "code", "language": "python", "completion": source, "time_limit_s": time_limit_s,
            "tests": [{"stdin": "1 2\n", "expected_stdout": "3\n"}], **kw}


def verdicts(r: dict) -> list[str]:
    return [t["verdict"] for t in r.get("tests", [])]


# ----------------------------------------------------------------- rule 1: leftovers that spin in a later job
# Each prints the right answer at once and leaves work that sleeps past the job's end (and the runner's reset), then
# spins for good. SLEEPS covers the reset and the next job's run.
SLEEPS = "(0.2, 0.6, 1.2, 2.5)"
LEFTOVERS = {
    # a double fork into a session of its own, stdio closed: no pipe of the job's is held, nothing waits for it
    "setsid_orphans": f"""import os, time
a, b = map(int, input().split())
print(a + b, flush=True)
for d in {SLEEPS}:
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            for fd in (0, 1, 2):
                os.close(fd)
            time.sleep(d)
            while True:
                pass
        os._exit(0)
""",
    # a thread group whose leader exited (exit(2) of one thread): /proc shows a zombie while its threads run on
    "zombie_leader": f"""import ctypes, os, threading, time
a, b = map(int, input().split())
print(a + b, flush=True)
if os.fork() == 0:
    os.setsid()
    for fd in (0, 1, 2):
        os.close(fd)
    def spin(d):
        time.sleep(d)
        while True:
            pass
    for d in {SLEEPS}:
        threading.Thread(target=spin, args=(d,), daemon=True).start()
    ctypes.CDLL(None).syscall(60, 0)  # SYS_exit: this thread only, the leader
    os._exit(0)
""",
    # clone(CLONE_PARENT | SIGCHLD) as a fork: the child's parent is the program's own (the runner or the warm zygote)
    "clone_parent": f"""import ctypes, os, time
a, b = map(int, input().split())
print(a + b, flush=True)
libc = ctypes.CDLL(None, use_errno=True)
for d in {SLEEPS}:
    if libc.syscall(56, 0x8000 | 17, 0, 0, 0, 0) == 0:  # SYS_clone, CLONE_PARENT | SIGCHLD
        for fd in (0, 1, 2):
            os.close(fd)
        time.sleep(d)
        while True:
            pass
""",
    # a shell loop started by posix_spawn (vfork) in a session of its own, stdio to /dev/null
    "spawned_shell": f"""import subprocess
a, b = map(int, input().split())
print(a + b, flush=True)
for d in {SLEEPS}:
    subprocess.Popen(["/bin/sh", "-c", f"sleep {{d}}; while :; do :; done"], start_new_session=True,
                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
""",
}


@pytest.mark.parametrize("kind", sorted(LEFTOVERS))
def test_work_left_sleeping_past_a_job_never_spins_in_a_later_job(any_grader: SyncGrader, kind: str) -> None:
    """Classes 5 and 6 (h32i, h30t): the job itself is right and spent nothing (its leftovers were asleep), and the
    later jobs in the same warm sandbox, near-free programs under 1 s, stay `accepted`: nothing of the job spins on."""
    first = any_grader.grade(code(LEFTOVERS[kind]))
    assert first["verdict"] == "accepted", first
    for _ in range(2):
        later = any_grader.grade(code(SLEEPER))
        assert later["verdict"] == "accepted" and not later["retryable"], (kind, later)


# ----------------------------------------------------------------- rule 1: CPU spent in the kernel
# Each spins 4 s by its own clock (user + system time) under a 1 s limit; most of it is in gVisor's kernel (the
# Sentry, paid on the host) or the host's.
KERNEL_BURNS = {
    "read_storm_threads": """import os, threading, time
a, b = map(int, input().split())
def work():
    fd = os.open("/dev/zero", os.O_RDONLY)
    while time.process_time() < 4:
        os.read(fd, 1 << 16)
ts = [threading.Thread(target=work) for _ in range(4)]
for t in ts:
    t.start()
for t in ts:
    t.join()
print(a + b)""",
    "mmap_churn": """import mmap, time
a, b = map(int, input().split())
while time.process_time() < 4:
    m = mmap.mmap(-1, 8 << 20)
    for i in range(0, 8 << 20, 4096):
        m[i] = 1
    m.close()
print(a + b)""",
    # a TCP stream over loopback between two processes: segmentation and acks are gVisor's netstack's (or the host's)
    "loopback_tcp": """import os, socket, time
a, b = map(int, input().split())
srv = socket.socket()
srv.bind(("127.0.0.1", 0))
srv.listen(1)
if os.fork() == 0:
    c = socket.create_connection(srv.getsockname())
    buf = b"x" * (1 << 20)
    while time.process_time() < 4:
        c.sendall(buf)
    os._exit(0)
conn, _ = srv.accept()
while conn.recv(1 << 20):
    pass
os.wait()
print(a + b)""",
    # stat(2) of the image's files: under gVisor each a walk its gofer (another host process) may serve
    "stat_storm": """import os, time
a, b = map(int, input().split())
names = [os.path.join(d, f) for d in ("/usr/lib", "/usr/local/lib", "/usr/bin") if os.path.isdir(d) for f in os.listdir(d)]
while time.process_time() < 4:
    for p in names:
        try:
            os.stat(p)
        except OSError:
            pass
print(a + b)""",
    "getppid_storm": """import os, time
a, b = map(int, input().split())
while time.process_time() < 4:
    for _ in range(1000):
        os.getppid()
print(a + b)""",
    "forked_read_storms": """import os, time
a, b = map(int, input().split())
for _ in range(8):
    if os.fork() == 0:
        fd = os.open("/dev/zero", os.O_RDONLY)
        while True:
            os.read(fd, 1 << 20)
time.sleep(30)
print(a + b)""",
}


@pytest.mark.parametrize("kind", sorted(KERNEL_BURNS))
def test_cpu_spent_in_the_kernel_is_the_programs_and_no_later_jobs(any_grader: SyncGrader, kind: str) -> None:
    """Class 5 (h32i, h30t): system calls and page faults are the program's CPU on every backend (under gVisor both
    figures count the Sentry's work for it), `time_limit` and never retryable; the next job, a near-free right
    program, is not charged for what the Sentry or the host did for it."""
    r = any_grader.grade(code(KERNEL_BURNS[kind]))
    assert r["verdict"] == "time_limit" and not r["retryable"], (kind, r)
    later = any_grader.grade(code(SLEEPER))
    assert later["verdict"] == "accepted", (kind, later)


# ----------------------------------------------------------------- rule 2: a checker's doubled room
# A checker as a dataset writes one: it splits the whole output. Test 1's output (the right first token, then 2M
# short tokens, about 6 MB) makes it need more than the box's memory at a 16 MB limit, so it runs with doubled room
# (sandbox/job.py _with_room; under runsc always) and the limit is lowered back after it (runsc: DockerBackend._cap_runsc,
# EBUSY -> Box.limit_unset). Test 2's program then touches 80 MB under that 16 MB limit: HOLD keeps it 0.5 s, BURST
# lets it go at once (only a cgroup stops that deterministically; the gvisor backend's watchdog may miss a burst
# between two samples, documented in docs/sandboxes.md, so BURST is not run there).
CHECKER = """import sys
n = open(sys.argv[1]).read().split()[0]
out = open(sys.argv[2]).read().split()
sys.exit(0 if out and out[0] == n else 1)
"""
ROOMY = """import sys, time
n = int(input())
if n == 1:
    sys.stdout.write("1 " + "10 " * TOKENS + "\\n")
else:
    b = bytearray(MB << 20)
    for i in range(0, len(b), 4096):
        b[i] = 1
    HOLD
    print(n)
"""
HOLDS = {"hold": "time.sleep(0.5)", "burst": "del b"}


def roomy(hold: str, tokens: int = 2_000_000, tests: tuple[int, ...] = (1, 2), mb: int = 80) -> dict:
    source = ROOMY.replace("TOKENS", str(tokens)).replace("MB", str(mb)).replace("HOLD", HOLDS[hold])
    return {"kind": "code", "language": "python", "memory_limit_mb": 16, "time_limit_s": 4, "scoring": "fraction",
            "completion": source,
            "tests": [{"stdin": f"{i}\n", "expected_stdout": f"{i}\n"} for i in tests],
            "checker": CHECKER, "checker_language": "python"}


@pytest.mark.parametrize("hold", sorted(HOLDS))
def test_a_checkers_doubled_room_is_no_later_tests_or_jobs_room(any_grader: SyncGrader, backend: str, hold: str) -> None:
    """Classes 5 and 6 (c1d9b81): whatever the lowering after a checker's doubled room did, the job's later test
    over its limit is `memory_limit`, as is the next job's (a box left raised is replaced: Box.limit_unset), and a
    right program after them is `accepted`."""
    if hold == "burst" and backend == "gvisor":
        pytest.skip("the gvisor backend has no cgroup: a burst between two of the watchdog's samples is its documented "
                    "tolerance (docs/sandboxes.md, memory), not this rule")
    r = any_grader.grade(roomy(hold))
    assert verdicts(r) == ["accepted", "memory_limit"] and not r["retryable"], r
    after = any_grader.grade(roomy(hold, tests=(2,)))
    assert after["verdict"] == "memory_limit" and not after["retryable"], after
    assert any_grader.grade(code(RIGHT))["verdict"] == "accepted"


# serial: failed on gvisor in stop 48's timing run at load (the checker's 8 MB of tokens)
@pytest.mark.serial
def test_a_checker_that_cannot_hold_the_output_in_twice_the_room_is_the_programs(any_grader: SyncGrader,
                                                                                  backend: str) -> None:
    """Class 8: 2.6M tokens (about 8 MB, under the output cap) need more than twice the box for the checker. The
    test's verdict is the program's, never infra_error or retryable; the job's later tests go on where the box
    lives."""
    r = any_grader.grade(roomy("hold", tokens=2_600_000, tests=(1, 3, 3), mb=4))
    want = on_backend(backend, ["wrong_answer", "accepted", "accepted"], {
        "runsc": (["memory_limit", "accepted", "accepted"], "under Docker's runsc the checker's doubled room is the "
                  "whole box's cgroup: past it the box dies (Backend.over_limit_ends_sandbox), the test is the "
                  "program's memory_limit, and the later tests run in a fresh box (CodeGrader._rest)")})
    assert verdicts(r) == want and r["score"] == pytest.approx(2 / 3) and not r["retryable"], r
    assert any_grader.grade(code(RIGHT))["verdict"] == "accepted"


# ----------------------------------------------------------------- a test that ends the sandbox, under "fraction"
# Test 1 touches 200 MB under a 32 MB limit; the others print their input, or a wrong answer where WRONG says so.
ENDS_BOX = """n = int(input())
if n in OOM:
    b = bytearray(200 << 20)
    for i in range(0, len(b), 4096):
        b[i] = 1
print(n + 1 if n in WRONG else n)
"""


def ends_box(oom: tuple[int, ...], wrong: tuple[int, ...] = (), tests: tuple[int, ...] = (1, 2, 3)) -> dict:
    source = ENDS_BOX.replace("OOM", repr(set(oom))).replace("WRONG", repr(set(wrong) or {0}))
    return {"kind": "code", "language": "python", "memory_limit_mb": 32, "time_limit_s": 4, "scoring": "fraction",
            "completion": source, "tests": [{"stdin": f"{i}\n", "expected_stdout": f"{i}\n"} for i in tests]}


@pytest.mark.parametrize(("oom", "wrong", "want"), [
    ((1,), (), ["memory_limit", "accepted", "accepted"]),
    ((1,), (3,), ["memory_limit", "accepted", "wrong_answer"]),
    ((2,), (), ["accepted", "memory_limit", "accepted"]),
    ((1, 2, 3), (), ["memory_limit"] * 3),
])
def test_a_test_that_ends_the_sandbox_costs_the_fraction_score_only_that_test(
        any_grader: SyncGrader, oom: tuple[int, ...], wrong: tuple[int, ...], want: list[str]) -> None:
    """Under Docker's runsc a test past its memory limit ends the whole box (Backend.over_limit_ends_sandbox), where
    the other backends end only the test's process: the job's later tests run in a fresh box (CodeGrader._rest), so a
    "fraction" score is the same on every backend (rt30z noticed runsc paying 0 where the others paid 2/3). Near
    misses: a later wrong answer, and a program that ends every box, still count as failed."""
    r = any_grader.grade(ends_box(oom, wrong))
    assert verdicts(r) == want and not r["retryable"], r
    assert r["score"] == pytest.approx(want.count("accepted") / 3) and r["verdict"] == "memory_limit", r


# ----------------------------------------------------------------- class 8: files that starve the checker
# The program prints a right answer (about 7.5 MB of it), then fills /work in 32 MB files (under the file-size cap)
# to MARGIN MB under what its cgroup still has (read where the backend shows it; under gVisor, which shows none,
# 120 MB): alive it fits, but once it has ended the checker's own files (a copy of the output) and process do not.
STARVE = r"""import sys
n = int(input())
sys.stdout.write(str(n) + " " + "10 " * 2_500_000 + "\n")
sys.stdout.flush()
def read(name):
    for base in ("/sys/fs/cgroup/memory/", "/sys/fs/cgroup/"):
        try:
            return int(open(base + name).read().split()[0])
        except (OSError, ValueError):
            pass
    return None
limit = read("memory.limit_in_bytes") or read("memory.max")
usage = read("memory.usage_in_bytes") or read("memory.current")
left = ((limit - usage) if limit and usage else 120 << 20) - (8 << 20)
chunk, k = b"x" * (1 << 20), 0
try:
    while left > 0:
        with open(f"/work/fill{k}", "wb") as f:
            for _ in range(32):
                if left > 0:
                    f.write(chunk)
                    left -= 1 << 20
        k += 1
except OSError:
    pass
"""


def test_files_that_leave_the_checker_no_room_are_the_programs_memory_limit(any_grader: SyncGrader) -> None:
    """Class 8: what the program left in /work is charged to it; the checker that found no room is never
    infra_error (sandbox/job.py `_checked`)."""
    task = {"kind": "code", "language": "python", "completion": STARVE, "memory_limit_mb": 64, "time_limit_s": 4,
            "tests": [{"stdin": "10\n", "expected_stdout": "10\n"}], "checker": CHECKER, "checker_language": "python"}
    r = any_grader.grade(task)
    assert r["verdict"] == "memory_limit" and not r["retryable"], r
    assert any_grader.grade(code(RIGHT))["verdict"] == "accepted"


# ----------------------------------------------------------------- the program's limit, not the runner's room
# h30x: the userns backend's box was the test's limit plus the fixed allowance measured in a Docker container
# (SandboxConfig.overhead_mb, 96 MB for Python), but its cgroup is not charged for the shared root's page cache, so a
# box held 29 MB at rest and a program had its limit plus some 64 MB: 80 MB touched under 16 MB was `accepted`. Now a
# step's room there is what the box held at rest when its job began plus the capture bound (Backend.overhead_mb).
TOUCH = """b = bytearray(MB << 20)
for i in range(0, len(b), 4096):
    b[i] = 1
print(input())
"""


def touching(mb: int, limit: int) -> dict:
    return {"kind": "code", "language": "python", "memory_limit_mb": limit, "time_limit_s": 4,
            "completion": TOUCH.replace("MB", str(mb)), "tests": [{"stdin": "7\n", "expected_stdout": "7\n"}]}


@pytest.mark.parametrize("limit", [16, 64])
def test_a_program_five_times_its_limit_is_memory_limit_and_one_at_four_fifths_is_accepted(
        any_grader: SyncGrader, limit: int) -> None:
    """Class 5, on every backend: a program touching 5x its limit is `memory_limit` (80 MB under 16 MB was `accepted`
    on userns), never retryable; near miss: one touching 0.8x its limit is `accepted`, as is a right answer after."""
    over = any_grader.grade(touching(5 * limit, limit))
    assert over["verdict"] == "memory_limit" and not over["retryable"], over
    near = any_grader.grade(touching(limit * 4 // 5, limit))
    assert near["verdict"] == "accepted", near
    assert any_grader.grade(code(RIGHT))["verdict"] == "accepted"


def test_a_program_near_a_large_limit_with_the_scientific_stack_is_accepted(any_grader: SyncGrader) -> None:
    """Near miss of the above at a large limit (tests/test_gvisor_attacks.py NEAR_LIMIT, pages touched): the
    scientific stack and 200 MB under 256 MB is `accepted` on every backend; 320 MB is `memory_limit`."""
    src = ("import numpy, scipy, pandas, sympy, scipy.optimize, scipy.sparse, pandas.plotting\n"
           "b = bytearray(MB << 20)\nfor i in range(0, len(b), 4096):\n    b[i] = 1\nprint(input())\n")
    task = {"kind": "code", "language": "python", "memory_limit_mb": 256, "time_limit_s": 20,
            "tests": [{"stdin": "7\n", "expected_stdout": "7\n"}]}
    near = any_grader.grade({**task, "completion": src.replace("MB", "200")})
    assert near["verdict"] == "accepted", near
    over = any_grader.grade({**task, "completion": src.replace("MB", "320")})
    assert over["verdict"] == "memory_limit" and not over["retryable"], over

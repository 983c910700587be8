"""Red team rt30aa of issue 30's newest rules ("a limit holds for the whole sandbox on every backend, and every rule
is the same on every backend"; /work/shared/RED-TEAM.md classes 5, 6 and 8), through the real grader on every backend
(tests/conftest.py `any_grader`: one warm one-sandbox pool per backend, reused across jobs):

1. e1f2be8 (`plan.guarded`): a sandbox whose channel broke is the program's memory_limit wherever `Backend.oom_killed`
   says the box was OOM-killed, in every step. Under Docker with runc, `oom_killed` reads the daemon's
   `State.OOMKilled`, and dockerd 20.10 sets that flag at the container's exit when ANY process in it was ever
   OOM-killed by its cgroup (libcontainerd keeps the OOM event per container; `docker inspect` says `false` while the
   container runs). A program that goes over its memory limit in one job (its memory_limit, the runc box survives and
   serves again) marks the box for good: a later, innocent job whose box the host then kills (an operator's `docker
   kill`, the host's OOM killer, a crash) is charged `memory_limit`, score 0 and not retryable, where a box that never
   saw an OOM gives InfraFailure, a retry on a fresh box, and `accepted`. Was a HOLE on docker, closed: the flag is the
   job's only where the cgroup had no OOM kill when the job began (`Box.oom_base`, `Backend.begins`); held on
   runsc (the OOM ends the box: the next job has a fresh one), gvisor (only the watchdog's own kill is read) and
   userns (its OOM counter is based per job: `Backend.begins`).
2. `CodeGrader._rest` (h30v, h30w): a "fraction" job whose test ends its sandbox runs its later tests in a fresh one.
   Held: a program that ends every box (a fresh box per test, bounded by its tests and its budget; every test
   memory_limit, never retryable); a later wrong answer after a box ended (no test rerun, passed twice or paid); a
   caller's deadline falling in the rest with nothing else waiting.
3. HOLE under runsc (two strict xfails): the rest gets the job's remaining time as a fresh timeout, and its wait for a
   fresh box and a CPU slot counts against it; past it `_attempt` ("waited for a CPU slot") or `_run` ("the job waited
   for a container": a run cut by the deadline more than 1 s short of what it was owed) raise InfraFailure, and
   merge_parts makes the WHOLE job infra_error, retryable, though its first part already had the program's
   memory_limit. Seen with an innocent job of a later call holding the one CPU slot (27 s: no caller deadline at all;
   2.5 s with a 7 s caller deadline). docker, gvisor and userns answer memory_limit (2/3, or time_limit for the
   unfinished tests). A wait shorter than the budget but long enough leaves the rest's tests time_limit ("not
   finished within the job's wall-clock budget"): the queue's time charged to the program, under runsc only.
4. Sessions (h30v's HOST_CPU_OPS, the least of gVisor's clock and the host's): held for CPU moved into gVisor's kernel
   and gofer (stat, open/read, tmpfs create/unlink, eight threads of stat/listdir: each charged within 2 % of the
   sandbox's host CPU, time_limit). Was a HOLE on every backend, closed (SandboxClock.charge_own): a cell that floods
   stdout in 1 MiB writes had PID 1 (the session supervisor) read every byte, and PID 1's CPU was subtracted from the
   cell's clock as its own: `ok` at 0.03-0.78 s charged while the sandbox's host CPU rose 2.1-2.6 s under a 1 s limit.
   Past what is kept, PID 1's reading is the cell's now (and a job's stderr read past what is kept, the program's).
5. Item 1's root in sessions (SessionBox.cell reads Backend.oom_killed): was a HOLE on docker, closed as item 1: a spare whose
   earlier session had a cell's child OOM-killed makes a later session's host-killed cell `memory_limit`, not
   `crashed`. Held on runsc, gvisor and userns.

Verdicts only, no durations."""
from __future__ import annotations

import asyncio
import os
import signal
import threading
from collections.abc import Iterator

import docker
import pytest

from sandbox.session import SessionHost, SessionLimits
from sandbox.sync import SyncGrader
from tests.helpers import on_backend, one_sandbox

pytestmark = pytest.mark.docker

SANDBOX = {"pool_name": "pytest-redteam-backends-8", "pool_size": 1, "languages": ("python",)}

# Touches 200 MB under a 32 MB limit: memory_limit on every backend (under runc only this process dies).
OOM = "b = bytearray(200 << 20)\nfor i in range(0, len(b), 4096):\n    b[i] = 1\nprint(3)"
# Right, and slow enough (4 s of sleep under a 4 s CPU limit, 9 s wall) that the host can kill its box mid-test.
SLOW_RIGHT = "import time\ntime.sleep(4)\na, b = map(int, input().split())\nprint(a + b)"


def code(source: str, **kw) -> dict:
    return {"kind": "code", "language": "python", "completion": source, "memory_limit_mb": 32, "time_limit_s": 4,
            "tests": [{"stdin": "1 2\n", "expected_stdout": "3\n"}], **kw}


def verdicts(r: dict) -> list[str]:
    return [t["verdict"] for t in r.get("tests", [])]


def _idle_box(g: SyncGrader):
    """The pool's one idle box, once the pool is full again (a box a job ended is replaced in the background)."""
    g.call(g._warm())
    return g.grader._pool._idle["python"]._boxes[0]


def _host_kill(box) -> None:
    """The host ends the box from outside the backend (box.dead and box.killed stay unset): what an operator's kill,
    the host's OOM killer or a crash does (as tests/test_sandbox_faults.py's sandbox that dies mid-job)."""
    from sandbox.gvisor import Sandbox
    from sandbox.userns import Sandbox as UsernsSandbox

    if isinstance(box.container, Sandbox):
        os.killpg(box.container.proc.pid, signal.SIGKILL)
    elif isinstance(box.container, UsernsSandbox):
        os.kill(box.container.pid1, signal.SIGKILL)
    else:
        docker.from_env().api.kill(box.container.id)


def _graded_while_the_host_kills_its_box(g: SyncGrader, task: dict, after_s: float = 2.0) -> dict:
    box = _idle_box(g)
    killer = threading.Timer(after_s, _host_kill, (box,))
    killer.start()
    try:
        return g.grade(task)
    finally:
        killer.cancel()
        killer.join()


# ----------------------------------------------------------------- 1. an earlier job's OOM charged to an innocent one
@pytest.mark.in_process  # kills a box it takes from the pool
def test_a_box_the_host_kills_is_never_an_innocent_jobs_memory_limit(any_grader: SyncGrader, backend: str,
                                                                      request) -> None:
    """Class 8 (and 6: state a job leaves for the next): the host killing a box mid-job is a host fault, retried on a
    fresh box, whatever a program did in that box in an earlier job. Control first: on a box no job OOM-ed in, the
    kill is retried and the slow right answer is `accepted`."""
    control = _graded_while_the_host_kills_its_box(any_grader, code(SLOW_RIGHT))
    assert control["verdict"] == "accepted" and control["score"] == 1.0, control
    before = _idle_box(any_grader).container.id
    bad = any_grader.grade(code(OOM))
    assert bad["verdict"] == "memory_limit" and not bad["retryable"], bad
    if backend == "docker":  # under runc the box outlives its program's OOM kill and serves again
        assert _idle_box(any_grader).container.id == before
    r = _graded_while_the_host_kills_its_box(any_grader, code(SLOW_RIGHT))
    assert r["verdict"] == "accepted" and r["score"] == 1.0, r


# ----------------------------------------------------------------- 2. CodeGrader._rest
# Test n touches 200 MB under a 32 MB limit when n is in OOM; sleeps 60 s when n is in SLEEP; prints n + 1 (wrong)
# when n is in WRONG; else n.
ENDS = """import time
n = int(input())
if n in OOM:
    b = bytearray(200 << 20)
    for i in range(0, len(b), 4096):
        b[i] = 1
if n in SLEEP:
    time.sleep(60)
print(n + 1 if n in WRONG else n)
"""


def ends(n: int, oom=(), sleep=(), wrong=(), **kw) -> dict:
    source = (ENDS.replace("OOM", repr(set(oom) or {0})).replace("SLEEP", repr(set(sleep) or {0}))
              .replace("WRONG", repr(set(wrong) or {0})))
    return {"kind": "code", "language": "python", "memory_limit_mb": 32, "time_limit_s": 1, "scoring": "fraction",
            "completion": source, "tests": [{"stdin": f"{i}\n", "expected_stdout": f"{i}\n"} for i in range(1, n + 1)],
            **kw}


def test_a_program_that_ends_every_box_gets_each_tests_verdict_and_a_bounded_count_of_boxes(
        any_grader: SyncGrader, backend: str) -> None:
    """Class 8 and 9: 8 tests, each over its memory limit. Under runsc each test ends its box, so the job takes a
    fresh box per test (never more than its tests, plus one retry each); the verdict is the program's memory_limit
    on every test, never infra_error or retryable, and the next right job is accepted."""
    made = any_grader.grader.stats()["containers_created"]
    r = any_grader.grade(ends(8, oom=range(1, 9)))
    assert verdicts(r) == ["memory_limit"] * 8 and r["score"] == 0.0 and not r["retryable"], r
    assert any_grader.grade(code(SLOW_RIGHT.replace("time.sleep(4)", "")))["verdict"] == "accepted"
    boxes = any_grader.grader.stats()["containers_created"] - made
    assert boxes <= on_backend(backend, 2, {"runsc": (2 * 8 + 1, "each test ends its box under runsc: the rest of "
                                                                 "the job runs in a fresh one (CodeGrader._rest)")}), boxes


def test_no_test_is_counted_twice_nor_paid_after_a_box_ends(any_grader: SyncGrader) -> None:
    """Class 2/4: the test that ended the box is the program's, the rest starts after it (never reruns it), a later
    wrong answer stays wrong; the same verdicts on every backend."""
    r = any_grader.grade(ends(4, oom=(2,), wrong=(4,)))
    assert verdicts(r) == ["accepted", "memory_limit", "accepted", "wrong_answer"] and not r["retryable"], r
    assert r["score"] == pytest.approx(2 / 4) and r["verdict"] == "memory_limit", r


def test_a_box_ended_then_a_caller_deadline_is_the_programs_not_infra_error(any_grader: SyncGrader) -> None:
    """Class 8: test 1 ends the box (runsc), tests 2-6 sleep past their wall limit, and the caller's deadline (9 s)
    falls in the rest. Seen on every backend here: memory_limit, the rest's unfinished tests time_limit, never
    infra_error (the rest's wait for its fresh box stayed under `_run`'s 1 s; see the module's docstring)."""
    r = any_grader.grade(ends(6, oom=(1,), sleep=range(2, 7)), timeout_s=9.0)
    assert r["verdict"] == "memory_limit" and not r["retryable"], r
    assert verdicts(r)[0] == "memory_limit" and set(verdicts(r)[1:]) == {"time_limit"}, r


# ----------------------------------------------------------------- 3. the rest's wait in the queue is the program's
# Two boxes and one CPU slot (max_concurrent_jobs=1): the rest of a job whose box ended must take a fresh box AND the
# slot, which an innocent job of a later call, started meanwhile on the other box, holds.
@pytest.fixture(scope="module")
def slot_grader(backend: str):
    with one_sandbox(backend, pool_name=f"pytest-redteam-backends-8-slot-{backend}", pool_size=2,
                     max_concurrent_jobs=1) as g:
        yield g


# Test 1 sleeps 1.5 s (so the innocent job is waiting for the slot), then touches 200 MB under 32 MB; tests 2 and 3
# print the right answer, or sleep past their wall limit where LATER says so.
FIRST_ENDS = """import time
n = int(input())
if n == 1:
    time.sleep(1.5)
    b = bytearray(200 << 20)
    for i in range(0, len(b), 4096):
        b[i] = 1
LATER
print(n)
"""


def first_ends(later: str = "") -> dict:
    return {"kind": "code", "language": "python", "memory_limit_mb": 32, "time_limit_s": 1, "scoring": "fraction",
            "completion": FIRST_ENDS.replace("LATER", later),
            "tests": [{"stdin": f"{i}\n", "expected_stdout": f"{i}\n"} for i in (1, 2, 3)]}


def innocent(sleep_s: float, time_limit_s: float) -> dict:
    return {"kind": "code", "language": "python", "time_limit_s": time_limit_s,
            "completion": f"import time\ntime.sleep({sleep_s})\nprint(3)", "tests": [{"stdin": "", "expected_stdout": "3\n"}]}


def _with_an_innocent_after(g: SyncGrader, task: dict, other: dict, timeout_s: float | None) -> tuple[dict, dict]:
    async def both() -> list[dict]:
        first = asyncio.ensure_future(g.grader.grade(task, timeout_s))
        await asyncio.sleep(0.5)  # a later call: the innocent job takes the other box and waits for the slot
        later = asyncio.ensure_future(g.grader.grade(other))
        results = list(await asyncio.gather(first, later))
        await g.grader.settled()
        return results
    g.call(g._warm())
    a, b = g.call(both())
    return a, b


RUNSC_REST_QUEUE = ("CodeGrader._rest gives the rest of a job whose box ended the job's remaining time as a fresh "
                    "timeout; the rest's wait for a box and a CPU slot counts against it, and past it _attempt/_run "
                    "raise InfraFailure ('waited for a container' / 'for a CPU slot'), and merge_parts makes the "
                    "whole job infra_error (retryable): the program's own memory_limit becomes 'not graded' under "
                    "runsc, where docker, gvisor and userns answer memory_limit")


def test_a_rests_wait_for_a_slot_never_turns_the_programs_memory_limit_into_infra_error(
        slot_grader: SyncGrader, backend: str, request) -> None:
    """Class 8 and issue 30's "every rule the same on every backend": test 1 ends the box under runsc, tests 2 and 3
    are right. No caller deadline: an innocent job of a later call holds the one CPU slot for 27 s (asleep, under a
    20 s CPU limit), past the job's budget (about 27.5 s from its first start). Right: memory_limit, 2/3, as docker
    answers (its tests run in the box they started in, holding the slot); the innocent job accepted. Seen under
    runsc, twice: infra_error, retryable, "the caller's deadline ran out while the job waited for a CPU slot"."""
    r, other = _with_an_innocent_after(slot_grader, first_ends(), innocent(27, 20), None)
    assert other["verdict"] == "accepted", other
    assert r["verdict"] == "memory_limit" and not r["retryable"], r
    assert verdicts(r) == ["memory_limit", "accepted", "accepted"] and r["score"] == pytest.approx(2 / 3), r


def test_a_rest_that_waited_then_ran_into_the_callers_deadline_is_the_programs(
        slot_grader: SyncGrader, backend: str, request) -> None:
    """Class 8, the same with a caller's deadline (7 s): tests 2 and 3 sleep past their wall limit; the innocent job
    holds the slot 2.5 s, so the rest, once it has its box and slot, runs into the deadline more than 1 s short of
    what it was owed. Right: memory_limit with the unfinished tests time_limit, as on docker. Seen under runsc, twice
    in two runs: infra_error, retryable, "the caller's deadline ran out: the job waited for a container"."""
    r, other = _with_an_innocent_after(slot_grader, first_ends("time.sleep(60)"), innocent(2.5, 2), 7.0)
    assert other["verdict"] == "accepted", other
    assert r["verdict"] == "memory_limit" and not r["retryable"], r
    assert verdicts(r)[0] == "memory_limit" and set(verdicts(r)[1:]) <= {"time_limit"}, r


# ----------------------------------------------------------------- 4. sessions: a cell's CPU moved into PID 1's reads
# Session boxes straight from the sandbox layer (sandbox/session.py SessionHost on the module's grader's backend, as
# tests/test_redteam_backends_3.py does): no server.
@pytest.fixture(scope="module")
def session_host(any_grader: SyncGrader) -> Iterator[SessionHost]:
    host = SessionHost(any_grader.grader.config, max_sessions=2, spares=0, backend=any_grader.grader.backend)
    try:
        yield host
    finally:
        host.remove_all()


# 1 MiB writes to stdout for 3.5 s of wall (under the 5 s wall limit of a 2 s cell): the session's PID 1 reads and
# counts every byte (accounting.Capture: past out_max never kept, never stopped), and that reading was PID 1's own
# CPU, which the cell's clock subtracts (accounting.SandboxClock: the cgroup clock, or gVisor's, less the runner's own);
# now, past out_max, it is the cell's (SandboxClock.charge_own).
FLOOD = "import os, time\nb = b'x' * (1 << 20)\nt = time.time()\nwhile time.time() - t < 3.5:\n    os.write(1, b)\n'done'"
SPIN = "import time\nt = time.process_time()\nwhile time.process_time() - t < 3:\n    pass"



# serial: the attacker must burn the CPU its wall window allows; another worker's load starves it and the reading is rightly ok
@pytest.mark.serial
def test_a_cell_that_floods_its_output_is_charged_what_the_session_spent(session_host: SessionHost) -> None:
    """Class 5 (a limit for the whole sandbox, measured from outside): the work a cell makes its session's PID 1 do for
    it is the cell's. Right: time_limit (about 3.5 s of the sandbox's CPU under a 2 s limit, most of it PID 1 reading
    the flood). Near miss, held everywhere: a cell that spins 3 s is time_limit."""
    box = session_host.take_box("python", SessionLimits(time_limit_s=2), {})
    try:
        spun = box.cell(SPIN)
        assert spun["status"] == "time_limit", spun
    finally:
        session_host.destroy(box)
    box = session_host.take_box("python", SessionLimits(time_limit_s=2), {})
    try:
        r = box.cell(FLOOD)
    finally:
        session_host.destroy(box)
    assert r["status"] == "time_limit", {k: r.get(k) for k in ("status", "cpu_s", "wall_s", "detail")}


# 8 MiB written at once (past any cell's out_max): read past what is kept, charged to the cell, and still far under 2 s.
BIG_ONCE = "import os\nos.write(1, b'x' * (8 << 20))\n6"


def test_a_cell_that_prints_much_once_is_ok(session_host: SessionHost) -> None:
    """Near miss of the flood (charge_own must not make output itself a limit): one 8 MiB write is `ok` with its value,
    the bytes past out_max counted."""
    box = session_host.take_box("python", SessionLimits(time_limit_s=2), {})
    try:
        r = box.cell(BIG_ONCE)
    finally:
        session_host.destroy(box)
    assert r["status"] == "ok" and r["stdout_bytes"] == 8 << 20, {k: r.get(k) for k in ("status", "cpu_s", "detail")}


# A job flooding stderr (drained to the end, never a stop: sandbox/harness/job_protocol.py run_exec) for 3.5 s of wall
# under a 2 s limit, by splice from a memfd (the pages move into the pipe: the writer spends next to nothing, PID 1's
# reading is the work): PID 1's reading past what is kept is the program's (SandboxClock.charge_own). Before, the program
# was charged its splices alone: `accepted`, 9-35 GB written, on docker, userns and gvisor. Near miss: 8 MiB of stderr
# at once, then the right answer, is accepted.
ERR_FLOOD = ("import os, time\nfd = os.memfd_create('f')\nos.write(fd, b'x' * (1 << 20))\nt = time.time()\n"
             "while time.time() - t < 3.5:\n    os.splice(fd, 2, 1 << 20, offset_src=0)\nprint(3)")
ERR_ONCE = "import os\nos.write(2, b'x' * (8 << 20))\nprint(3)"


# serial: the attacker must burn the CPU its wall window allows; another worker's load starves it and the reading is rightly ok
@pytest.mark.serial
def test_a_job_that_floods_stderr_is_charged_what_its_sandbox_spent(any_grader: SyncGrader) -> None:
    r = any_grader.grade(code(ERR_FLOOD, time_limit_s=2))
    assert r["verdict"] == "time_limit" and r["score"] == 0.0, r
    ok = any_grader.grade(code(ERR_ONCE, time_limit_s=1))
    assert ok["verdict"] == "accepted" and ok["score"] == 1.0, ok


# CPU a cell moves into gVisor's kernel or gofer (and the host's kernel elsewhere), for 2.5 s of wall under a 1 s limit.
KERNEL_CELLS = {
    "stat_storm": "import glob, os, time\nfs = glob.glob('/usr/lib/python3*/*.py')[:200]\nt = time.time()\n"
                  "while time.time() - t < 2.5:\n    for f in fs:\n        os.stat(f)",
    "open_read": "import glob, time\nfs = glob.glob('/usr/lib/python3*/*.py')[:200]\nt = time.time()\n"
                 "while time.time() - t < 2.5:\n    for f in fs:\n        with open(f, 'rb') as h:\n            h.read(64)",
    "eight_threads_of_stat_and_listdir": "import glob, os, threading, time\nfs = glob.glob('/usr/lib/python3*/*.py')[:200]\n"
                 "def w():\n    t = time.time()\n    while time.time() - t < 2.5:\n        for f in fs:\n            os.stat(f)\n"
                 "            os.listdir('/usr/lib')\nts = [threading.Thread(target=w) for _ in range(8)]\n"
                 "[x.start() for x in ts]\n[x.join() for x in ts]",
}


# serial: the attacker must burn the CPU its wall window allows; another worker's load starves it and the reading is rightly ok
@pytest.mark.serial
@pytest.mark.parametrize("kind", sorted(KERNEL_CELLS))
def test_a_cells_cpu_in_the_kernel_is_the_cells(session_host: SessionHost, kind: str) -> None:
    """Class 5, held on every backend: CPU a cell spends in gVisor's kernel and gofer (or the host's kernel) is charged
    to it: time_limit, as a spin is."""
    box = session_host.take_box("python", SessionLimits(time_limit_s=1), {})
    try:
        r = box.cell(KERNEL_CELLS[kind])
    finally:
        session_host.destroy(box)
    assert r["status"] == "time_limit", {k: r.get(k) for k in ("status", "cpu_s", "wall_s", "detail")}


# ----------------------------------------------------------------- 5. sessions: an earlier session's OOM in a spare
CHILD_OOM = ("import subprocess, sys\n"
             "subprocess.run([sys.executable, '-c', 'b = bytearray(400 << 20)\\nfor i in range(0, len(b), 4096): b[i] = 1'])"
             ".returncode")


@pytest.mark.in_process  # kills a session box from outside
def test_a_spare_the_host_kills_is_never_a_later_sessions_memory_limit(any_grader: SyncGrader, backend: str,
                                                                       request) -> None:
    """Class 6 and 8, item 1's root in sessions (SessionBox.cell reads Backend.oom_killed too): a session whose cell's
    child goes over the session's memory (under runc only the child dies; the session lives and its box is reset into
    a spare) leaves nothing for the next session in that box: the host killing the box mid-cell is `crashed` there, as
    on a box that never saw an OOM (control first), never the later session's `memory_limit`."""
    host = SessionHost(any_grader.grader.config, max_sessions=2, spares=1, backend=any_grader.grader.backend)
    limits = SessionLimits(time_limit_s=4, memory_limit_mb=128)
    try:
        def killed_mid_cell(box) -> dict:
            killer = threading.Timer(1.5, _host_kill, (box.box,))
            killer.start()
            try:
                return box.cell("import time\ntime.sleep(5)\n1")
            finally:
                killer.cancel()
                killer.join()
                host.destroy(box)
        control = killed_mid_cell(host.take_box("python", limits, {}))
        assert control["status"] == "crashed" and control.get("lost"), control
        first = host.take_box("python", limits, {})
        first.cell(CHILD_OOM)
        host.give_back(first)
        again = host.take_box("python", limits, {})
        if backend == "docker":  # under runc the box outlived its child's OOM kill and serves the next session
            assert again is first
        r = killed_mid_cell(again)
        assert r["status"] == "crashed" and r.get("lost"), r
    finally:
        host.remove_all()

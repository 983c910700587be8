"""Red team rt30ad of issue 30's accounting changes, through the real grader and session boxes on every backend
(tests/conftest.py `any_grader`: one warm one-sandbox pool per backend, reused):

A. h30aa (6b7e26e): the runner answers its start ping and each reset once its warm interpreter (the zygote) has
   imported (`Warm.wait_ready`), so `Backend.begins` reads a settled birth rest; a job's rest is capped at it.
B. h30z (b7a051a): `SandboxClock.charge_own`: past what is kept (accounting.Capture for cells and commands, a job's
   stderr past 2 * err_half) the runner's own CPU is the program's.

Classes 5, 6 and 8 of /work/shared/RED-TEAM.md. Verdicts only, no durations.

FIXED (h30ab; was a strict xfail on every backend): a session cell writing lines to its result channel (the fd in
argv[2]) had PID 1 parse them (session_box.run_cell `res`: no Capture, so no charge_own) and that CPU was subtracted as
the runner's own: `ok` charged 0.0008 s while the box's cgroup clock rose 0.52 s under a 0.25 s limit (docker, loaded).
Now the channel holds one result's most a cell (session_box.ResultLine), scanned once; past it the cell crashes.
Held: a shell command splicing a memfd into stdout past out_max (charged what the box's cgroup clock rose, docker;
not a test: its verdict hangs on how much CPU a loaded host gives PID 1 in the 3 s wall); a job past its kept stderr spinning 0.6x
its limit (accepted: charge_own does not charge PID 1's polling enough to flip it); a job signalling every process of
its box (SIGSTOP, SIGKILL) leaves later jobs their verdicts (0.8x the limit accepted, over it memory_limit, never
retryable); measured: the program can signal none of the box's other processes (the warm processes and the checker
hold the judge's uids) on docker, gvisor and userns, so the zygote's readiness and the birth rest are out of its reach."""
from __future__ import annotations


import pytest

from sandbox.session import SessionHost, SessionLimits
from sandbox.sync import SyncGrader
from tests import test_redteam_backends_8 as red_team_8
from tests.test_redteam_backends_9 import TOUCH

session_host = red_team_8.session_host  # the module's fixture: a SessionHost on any_grader's backend

pytestmark = pytest.mark.docker  # the images (and the root filesystems exported from them)

SANDBOX = {"pool_name": "pytest-redteam-backends-11", "wall_factor": 20.0, "pool_size": 1, "languages": ("python",)}


def one(source: str, limit: int = 64, time_limit_s: float = 4) -> dict:
    return {"kind": "code", "language": "python", "memory_limit_mb": limit, "time_limit_s": time_limit_s,
            "completion": source, "tests": [{"stdin": "7\n", "expected_stdout": "7\n"}]}


def touching(mb: int, limit: int) -> dict:
    return one(TOUCH.replace("MB", str(mb)), limit)




# ----------------------------------------------------------------- B. the runner's reading that is never kept
# A cell writes 8-byte lines to its result channel (session_kernel.py: the fd in argv[2]) for 1.0 s of wall under a
# 0.25 s limit (1.5 s wall), then returns its value. The session's PID 1 reads that channel without a Capture
# (session_box.py run_cell: `res`, each line parsed by _result, which copies the buffer per line and drops lines without
# the nonce), and its parsing is subtracted from the cell's clock as its own: measured on docker (runc, loaded), a 2.5 s
# flood was `ok` charged 0.0005 s while the box's cgroup clock rose 1.6 s, and this one (8-byte lines) `ok`
# charged 0.0008 s while it rose 0.52 s (the wall limit, 1.5 s, is no CPU verdict: the assertion reads the CPU's).
# Near miss: a few forged lines, `ok`.
RES_FLOOD = ("import os, sys, time\nfd = int(sys.argv[2])\nb = (b'x' * 7 + b'\\n') * 8192\nt = time.time()\n"
             "while time.time() - t < 1.0:\n    os.write(fd, b)\n'done'")
RES_FEW = "import os, sys\nos.write(int(sys.argv[2]), b'{}\\nx\\n' * 8)\n'done'"


# Fixed (h30ab): the result channel holds one result's most for a cell (session_box.ResultLine, session_kernel.line_max),
# read through a Capture and scanned once; past it, or a nonce line that is no result, the cell crashes: its own error.
# The verdict of a flood is the cell's own (a CPU time_limit or that crash), never `ok` nor infra_error.
RES_LONG_LINE = ("import os, sys, time\nfd = int(sys.argv[2])\nb = b'x' * 65536\nt = time.time()\n"
                 "while time.time() - t < 1.0:\n    os.write(fd, b)\n'done'")


def flood_verdict(r: dict) -> tuple:
    return r["status"], r.get("lost"), r.get("detail")


def test_a_cell_flooding_its_result_channel_is_charged_what_the_session_spent(session_host: SessionHost) -> None:
    """Class 5: the work a cell makes PID 1 do on any channel is the cell's: a CPU time_limit, or the channel's cap
    reached (the cell's own crash), never `ok`."""
    box = session_host.take_box("python", SessionLimits(time_limit_s=0.25), {})
    try:
        r = box.cell(RES_FLOOD)
    finally:
        session_host.destroy(box)
    assert (r["status"] == "time_limit" and "CPU" in str(r.get("detail"))) or (
        r["status"] == "crashed" and "result channel" in str(r.get("detail"))), flood_verdict(r)
    assert r.get("lost") is True, flood_verdict(r)


def test_a_cell_flooding_its_result_channel_without_a_newline_gets_its_own_verdict(session_host: SessionHost) -> None:
    """Near miss of the flood: one endless line (no line end to stop a scan at) ends the cell as its own error too."""
    box = session_host.take_box("python", SessionLimits(time_limit_s=0.25), {})
    try:
        r = box.cell(RES_LONG_LINE)
    finally:
        session_host.destroy(box)
    assert r["status"] in ("time_limit", "crashed") and r.get("lost") is True, flood_verdict(r)


def test_a_cell_returning_a_large_allowed_value_still_works(session_host: SessionHost) -> None:
    """Rewrite of the flood: a value at the session's max_value_bytes, every character astral (12 bytes of JSON each,
    the most a result line takes a character), comes back whole; one past it comes back cut, `ok` as before."""
    lim = SessionLimits(time_limit_s=2)
    box = session_host.take_box("python", lim, {})
    try:
        n = lim.max_value_bytes - 2  # repr adds the two quotes
        r = box.cell(f"s = chr(0x1F600) * {n}\ns")
        assert r["status"] == "ok" and r["value"] == repr(chr(0x1F600) * n) and not r["value_truncated"], \
            flood_verdict(r)
        r = box.cell("s + chr(0x1F600)")
        assert r["status"] == "ok" and len(r["value"]) == lim.max_value_bytes and r["value_truncated"], flood_verdict(r)
        r = box.cell("raise ValueError(chr(0x1F600) * 100000)")
        assert r["status"] == "error" and r["error"]["ename"] == "ValueError", flood_verdict(r)
    finally:
        session_host.destroy(box)


def test_a_cell_writing_a_few_forged_result_lines_is_ok(session_host: SessionHost) -> None:
    """Near miss of the flood: lines without the cell's nonce are dropped, the cell's own value comes back."""
    box = session_host.take_box("python", SessionLimits(time_limit_s=0.25), {})
    try:
        r = box.cell(RES_FEW)
    finally:
        session_host.destroy(box)
    assert r["status"] == "ok" and r["value"] == "'done'", r


# ----------------------------------------------------------------- A. what a job leaves of the warm processes
# Signals every process of the box it may signal but its own (the zygote and its mother share the program's effective
# uid where the runner is not apart); then the right answer.
SIGNAL_ALL = """import os, signal
me = os.getpid()
for p in os.listdir('/proc'):
    if p.isdigit() and int(p) not in (me, 1):
        try:
            os.kill(int(p), signal.SIG)
        except OSError:
            pass
print(input())
"""


@pytest.mark.parametrize("sig", ["SIGSTOP", "SIGKILL"])
def test_a_job_that_stops_or_kills_the_warm_processes_costs_no_later_job(any_grader: SyncGrader, sig: str) -> None:
    """Classes 6 and 8: a stopped or killed zygote (a reset that waits WARM_WAIT_S for one, a rest read without one)
    must cost no later job its verdict nor make it infra_error."""
    r = any_grader.grade(one(SIGNAL_ALL.replace("SIG", sig)))
    assert r["verdict"] == "accepted", r
    for task, want in ((touching(51, 64), "accepted"), (touching(120, 16), "memory_limit"), (one("print(input())"), "accepted")):
        got = any_grader.grade(task)
        assert got["verdict"] == want and not got["retryable"], (want, got)


# A job that writes 1 MiB to stderr at once (past 2 * err_half: charge_own, so from then on every poll of PID 1 while
# it runs is the program's), then spins 1.2 s under a 2 s limit and answers: `accepted`. PID 1's polling (its clock read
# every POLL_S, the inode count) must not make an innocent program's time_limit.
ERR_THEN_SPIN = ("import os, time\nos.write(2, b'x' * (1 << 20))\nt = time.process_time()\n"
                 "while time.process_time() - t < 1.2:\n    pass\nprint(input())")


def test_a_job_past_its_kept_stderr_is_not_charged_the_runners_polling(any_grader: SyncGrader) -> None:
    r = any_grader.grade(one(ERR_THEN_SPIN, time_limit_s=2))
    assert r["verdict"] == "accepted", r

"""A program scanning PID 1's fds through /proc for the whole of its run (issue 30: boundaries on every backend).

tests/test_sandbox_security.py `test_no_fd_of_the_runner_or_judge_opens_through_proc` looks once; stop 53's CI failed
it once under gVisor (`pid 1 fd 8 ? mode 0`), and tests/test_sandbox_warm.py's warm-process check the same run
(`pipe:[91]`). A loop over /proc/1/fd for 2 s opens PID 1's fds under gVisor every time (probed 6 of 6: its pipes, the
host console, /work and the job's folder, /proc/N/stat, cpuacct.usage). PID 1's effective uid is the program's
(pid1.py `os.setresuid(judge, prog, judge)`): Linux checks all three uids before it lets /proc open another's fd,
gVisor apparently the effective one. Open (issue 30): the class fix is that PID 1 and the warm processes never share
an effective uid with the program where the kernel is gVisor's.
"""
from __future__ import annotations

import pytest

pytestmark = pytest.mark.docker  # the images (and the root filesystems exported from them)

SANDBOX = {"pool_name": "pytest-redteam-pid1-fds", "pool_size": 1, "languages": ("python",)}
BACKENDS_CUT = {"runsc": "the same Sentry as gvisor (Docker's runsc runtime)"}

SCAN = r'''
import os, time
def scan(seconds):
    seen = set()
    end = time.time() + seconds
    while time.time() < end:
        for n in range(64):
            try:
                fd = os.open(f"/proc/1/fd/{n}", os.O_RDONLY | os.O_NONBLOCK)
            except OSError:
                continue
            try:
                target = os.readlink(f"/proc/1/fd/{n}")
            except OSError:
                target = "?"
            seen.add(f"fd {n} {target}")
            os.close(fd)
    return sorted(seen)
print(scan(2.0))
'''


def test_no_fd_of_pid1_opens_through_proc_while_the_program_runs(any_grader, backend: str, request) -> None:
    """Safe outcome: for 2 s of scanning, no fd of PID 1 opens. Near miss: the scan ran (the output is its list)."""
    if backend in ("gvisor",):
        request.applymarker(pytest.mark.xfail(strict=False, reason=(
            "open (issue 30, stop 53): under gVisor a program opens PID 1's fds through /proc (PID 1's effective uid is "
            "the program's); not strict: the scan races PID 1's own opens")))
    task = {"language": "python", "completion": SCAN, "return_output": True,
            "tests": [{"stdin": "", "expected_stdout": "[]\n"}]}
    r = any_grader.grade(task)
    out = [t.get("stdout") for t in r.get("tests", [])]
    assert out and str(out[0]).startswith("["), r
    assert r["verdict"] == "accepted", (r["verdict"], out)

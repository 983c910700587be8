"""The gVisor backend's own rules (issue 19, README "Sandbox backends"): what it refuses, and the
gVisor behaviours the backend corrects (signals to PID 1, memory without cgroups)."""
from __future__ import annotations

import pytest

from sandbox.grader import JUDGE_UNSAFE
from sandbox.sync import SyncGrader
from tests.helpers import sandbox_config

pytestmark = pytest.mark.docker


@pytest.fixture(scope="module")
def gvisor():
    g = SyncGrader(sandbox_config("gvisor", languages=("python",), pool_size=1, pool_name="pytest-gvisor-backend"))
    assert g.grader.available, g.grader.unavailable_reason()
    yield g
    g.close()


def py(code: str, expected: str = "3\n", **kw) -> dict:
    return {"language": "python", "completion": code, "tests": [{"stdin": "1 2\n", "expected_stdout": expected}], **kw}


@pytest.mark.parametrize("task", [
    {"language": "python", "completion": "def f(x):\n    return x", "test_code": "assert f(1) == 1"},
    {"language": "python", "completion": "def f(x):\n    return x", "entry_point": "f",
     "call_tests": [{"args": [1], "expected": 1}]},
])
def test_tasks_judged_inside_the_sandbox_are_refused_not_scored(gvisor, task):
    """A program can open a judge's pipes through gVisor's /proc (it ignores PR_SET_DUMPABLE):
    a forged judge result would score, so the backend refuses these tasks, plainly."""
    r = gvisor.grade(task)
    assert r["verdict"] == "infra_error" and r["retryable"] is False and r["detail"] == JUDGE_UNSAFE[:300]


def test_stdin_tests_and_checkers_are_judged(gvisor):
    assert gvisor.grade(py("a, b = map(int, input().split())\nprint(a + b)"))["verdict"] == "accepted"
    assert gvisor.grade(py("print(4)"))["verdict"] == "wrong_answer"
    checker = "import sys\nsys.exit(0 if open(sys.argv[2]).read().split() == ['3'] else 1)"
    assert gvisor.grade(py("print(3)", checker=checker))["verdict"] == "accepted"
    assert gvisor.grade(py("print(33)", checker=checker))["verdict"] == "wrong_answer"


@pytest.mark.parametrize("sig", [9, 15, 2])
def test_a_program_cannot_signal_the_runner(gvisor, sig):
    """gVisor delivers a signal to PID 1 that Linux would ignore; the runner's uid being another
    than the program's (sandbox/runner.py) makes it EPERM there too, and the runner stays."""
    r = gvisor.grade(py(f"import os\nos.kill(1, {sig})\nprint(3)"))
    assert r["verdict"] == "runtime_error" and "PermissionError" in r["detail"], r
    assert gvisor.grade(py("print(3)"))["verdict"] == "accepted"  # the runner answered: same sandbox


def test_memory_over_the_limit_is_the_programs_verdict_and_the_sandbox_stays(gvisor):
    before = gvisor.grader.stats()["containers_recycled"]
    r = gvisor.grade(py("x = []\nwhile True: x.append(b'x' * (1 << 20))", memory_limit_mb=128, time_limit_s=10))
    assert r["verdict"] == "memory_limit", r["detail"]
    under = gvisor.grade(py("x = b'x' * (60 << 20)\nprint(3)", memory_limit_mb=128))  # near miss: fits
    assert under["verdict"] == "accepted", under["detail"]
    assert gvisor.grader.stats()["containers_recycled"] == before  # only the program was killed

"""Real containers: the runner round trips of one job (docs/benchmarks.md "Where a trivial /run_code
request's time goes"). A Python program's syntax check rides with its files, and its verdict is the
same as when it had a round trip of its own. The check runs in the runner's syntax checker
(sandbox/harness/syntax_check.py Checker), a process no program can reach."""
from __future__ import annotations

import sys
import threading
import time

import pytest

from sandbox.build import HARNESS
from sandbox.channel import Channel
from tests.helpers import BACKENDS, GVISOR_KERNEL, backend_of, kernel_differs, on_backend, one_sandbox

sys.path.insert(0, str(HARNESS))
from syntax_check import CHECKER_GROWTH_KB, CHECKER_KEEP_KB  # noqa: E402

pytestmark = pytest.mark.docker


@pytest.fixture(scope="module", params=BACKENDS)
def grader(request):
    with one_sandbox(request.param, f"pytest-round-trips-{request.param}") as g:
        yield g


@pytest.fixture
def ops(monkeypatch) -> list[str]:
    """Every request's op but pings, in order (the job's thread and the reset's), counted in
    Channel._request, which every request goes through (a watched channel wraps request)."""
    seen: list[str] = []
    lock = threading.Lock()
    request = Channel._request

    def counted(self, head, blobs, timeout_s):
        if head.get("op") != "ping":  # a container's start-up and health pings, from the pool's threads
            with lock:
                seen.append(head.get("op"))
        return request(self, head, blobs, timeout_s)
    monkeypatch.setattr(Channel, "_request", counted)
    return seen


def py(code: str, stdin: str = "1 2\n", expected: str | None = "3\n") -> dict:
    return {"kind": "code", "language": "python", "completion": f"```python\n{code}\n```",
            "tests": [{"stdin": stdin, "expected_stdout": expected}]}


RENICE = """import os
try:
    os.setpriority(os.PRIO_PROCESS, {pid}, 19)
except OSError:
    pass
"""
SMALL = ("a, b = map(int, input().split())\nprint(a + b)", "print(1\n", "print(sum(map(int, input().split())))")


def _small_checks(grader) -> tuple[int, int]:
    """SMALL's checks: (the one checker that did them all, the most it had grown by after one)."""
    seen = []
    for code in SMALL:
        grader.grade(py(code))
        seen.append(_ping(grader))
    pids = {p["checker"] for p in seen}
    assert len(pids) == 1, seen  # kept across them
    return pids.pop(), max(p["checker_growth_kb"] for p in seen)


def test_one_line_programs_never_count_as_the_checkers_growth(grader):
    """First in the module: its box's checker has checked nothing yet. The checker's growth
    (CHECKER_GROWTH_KB) is counted from its memory once its own code has run (syntax_check.py
    _settled_kb): one-line programs' checks add next to nothing to it and it is kept across them,
    the runner's first checker as one the runner started later. Counted from its memory at the
    fork it was 0.6-1.7 MB after one-line checks under Docker and userns, and under gVisor a
    restarted checker was "grown" 3.7-4.5 MB after its first and replaced after every check.
    The restart: gVisor's kernel lets a program renice the checker, which is then ended;
    elsewhere the program reaches nothing and the same checker serves on."""
    first = _ping(grader)
    assert first["checker"] > 1 and first["checker_growth_kb"] == 0, first
    assert _small_checks(grader)[1] <= CHECKER_GROWTH_KB // 8
    grader.grade(py(RENICE.format(pid=first["checker"]), stdin="", expected=""))
    ended = on_backend(backend_of(grader.grader.config), False, kernel_differs(
        True, "gVisor's kernel lets a program renice the checker: it is ended after the job"))
    assert (_ping(grader)["checker"] == 0) == ended
    pid, growth = _small_checks(grader)
    assert pid > 1 and (pid != first["checker"]) == ended and growth <= CHECKER_GROWTH_KB // 8, (pid, growth)


def test_a_python_job_checks_its_syntax_with_its_files(grader, ops):
    r = grader.grade(py("a, b = map(int, input().split())\nprint(a + b)"))
    assert r["verdict"] == "accepted", r
    assert ops[:2] == ["files", "exec"] and "pycheck" not in ops, ops


@pytest.mark.parametrize("code", ["def f(:\n  pass", "print(1\n", "x = 1\n  y = 2\n", "return 5\n"])
def test_a_syntax_error_is_a_compile_error_and_never_runs(grader, ops, code):
    r = grader.grade(py(code))
    assert r["verdict"] == "compile_error" and r["score"] == 0.0 and not r["retryable"], r
    assert "Error" in r["detail"] and r["tests"] == [], r
    assert "exec" not in ops and ops[0] == "files", ops


@pytest.mark.parametrize("code", ["a, b = map(int, input().split()) ; print(a + b)",
                                  "import sys\nprint(sum(map(int, sys.stdin.read().split())))",
                                  "def f(a,\n      b):\n    return a + b\nprint(f(*map(int, input().split())))"])
def test_a_valid_program_in_any_layout_runs(grader, code):
    r = grader.grade(py(code))
    assert r["verdict"] == "accepted", r


def test_a_program_that_compiles_but_is_wrong_still_fails(grader):
    r = grader.grade(py("a, b = map(int, input().split())\nprint(a - b)"))
    assert r["verdict"] == "wrong_answer" and r["score"] == 0.0, r


def _ping(grader) -> dict:
    """The runner's ping of the pool's one idle container (its checker's pid among its facts),
    with the container's id as "box"."""
    pool = grader.grader._pool
    deadline = time.monotonic() + 60
    while pool._idle["python"].qsize() == 0 and time.monotonic() < deadline:  # a replacement starting
        time.sleep(0.05)
    box = pool._idle["python"].get_nowait()
    try:
        return {**box.channel.request({"op": "ping"})[0], "box": box.id}
    finally:
        pool._idle["python"].put_nowait(box)


def test_the_syntax_checker_keeps_no_parse_memory_for_a_later_program(grader):
    """A 240 KB program takes ~140 MB to parse: the checker that parsed it keeps at most
    CHECKER_KEEP_KB of it (or is replaced), so the container's memory limit never counts that
    against a later program, and the one-line checks after it keep one checker."""
    before = _ping(grader)
    assert before["checker"] > 1 and before["checker_kb"] > 0
    big = "x = [" + "(1,2)," * 40000 + "]\nprint(len(x))"
    r = grader.grade({**py(big, stdin="", expected="40000\n"), "memory_limit_mb": 512})
    assert r["verdict"] == "accepted", r
    after = _ping(grader)
    assert after["checker"] != before["checker"] or after["checker_kb"] - before["checker_kb"] <= CHECKER_GROWTH_KB, after
    assert after["checker"] != before["checker"] or after["checker_growth_kb"] <= CHECKER_KEEP_KB, after
    # One checker serves the one-line checks after it, the one the big parse left too: under gVisor one that
    # parse left at 3.1-3.2 MB (kept under CHECKER_GROWTH_KB then) was 4.1-4.2 MB after the next one-line
    # check and replaced after it, so whether a test saw a checker after it hung on the parse's last page. One
    # one-line check first settles that (CI twice saw [0, 21, 21]: the parse's checker replaced after SMALL's first).
    assert grader.grade(py(SMALL[0]))["verdict"] == "accepted"
    fresh, _ = _small_checks(grader)
    assert fresh > 1
    assert grader.grade(py("print(1\n"))["verdict"] == "compile_error"
    assert _ping(grader)["checker"] == fresh  # a small parse keeps it


# The checker's pid: SIGSTOP and SIGKILL, lowest priority, one CPU, its memory read; what the
# program reached is printed.
REACH = """import os, signal
p, got = {pid}, []
for name, act in (("stop", lambda: os.kill(p, signal.SIGSTOP)), ("prio", lambda: os.setpriority(os.PRIO_PROCESS, p, 19)),
                  ("cpu", lambda: os.sched_setaffinity(p, {{0}})), ("mem", lambda: open(f'/proc/{{p}}/mem', 'rb').close()),
                  ("kill", lambda: os.kill(p, signal.SIGKILL))):
    try:
        act()
        got.append(name)
    except OSError:
        pass
print('reached:' + ','.join(got))
"""


def test_a_program_cannot_reach_the_syntax_checker(grader):
    """Stopped, the checker would make the next job's check time out: an innocent program's
    compile_error. It holds only the judge's uids: a program can neither stop, kill nor read it,
    and under Docker not renice or pin it either. gVisor lets any process change another's CPU set
    and priority: the checker is then ended after the job (the container serves on), and the next
    check has a fresh one."""
    before = _ping(grader)
    r = grader.grade({**py(REACH.format(pid=before["checker"]), stdin="", expected=None), "return_output": True})
    reached = set(r["tests"][0]["stdout"].strip().removeprefix("reached:").split(",")) - {""}
    assert not reached & {"stop", "kill", "mem"}, reached
    if backend_of(grader.grader.config) not in GVISOR_KERNEL:  # gVisor's kernel lets them renice and pin it
        assert not reached, reached
    after = _ping(grader)
    assert after["box"] == before["box"] and after["checker"] == (0 if reached else before["checker"]), (reached, after)
    assert grader.grade(py("a, b = map(int, input().split())\nprint(a + b)"))["verdict"] == "accepted"
    assert grader.grade(py("def f(:\n  pass"))["verdict"] == "compile_error"
    assert _ping(grader)["checker"] > 1



"""Real containers: the runner round trips of one job (docs/benchmarks.md "Where a trivial /run_code
request's time goes"). A Python program's syntax check rides with its files, and its verdict is the
same as when it had a round trip of its own."""
from __future__ import annotations

import threading

import pytest

from sandbox import SandboxConfig
from sandbox.channel import Channel
from sandbox.sync import SyncGrader

pytestmark = pytest.mark.docker


@pytest.fixture(scope="module")
def grader():
    g = SyncGrader(SandboxConfig(languages=("python",), pool_size=1, pool_name="pytest-round-trips"))
    assert g.grader.available, g.grader.unavailable_reason()
    yield g
    g.close()


@pytest.fixture
def ops(monkeypatch) -> list[str]:
    """Every request's op, in order (the job's thread and the reset's), counted in
    Channel._request, which every request goes through (a watched channel wraps request)."""
    seen: list[str] = []
    lock = threading.Lock()
    request = Channel._request

    def counted(self, head, blobs, timeout_s):
        with lock:
            seen.append(head.get("op"))
        return request(self, head, blobs, timeout_s)
    monkeypatch.setattr(Channel, "_request", counted)
    return seen


def py(code: str, stdin: str = "1 2\n", expected: str | None = "3\n") -> dict:
    return {"kind": "code", "language": "python", "completion": f"```python\n{code}\n```",
            "tests": [{"stdin": stdin, "expected_stdout": expected}]}


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

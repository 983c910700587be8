"""Red team of the syntax checker (sandbox/harness/runner.py Checker; docs/sandboxes.md "The syntax
checker"), through real pools on both backends: a program must not change a later innocent job's
verdict through it, nor make the check disagree with its own run, nor read another job's source
through it."""
from __future__ import annotations

import pytest

from tests.helpers import BACKENDS, one_sandbox
from tests.test_sandbox_round_trips import py

pytestmark = pytest.mark.docker

SUM = "a, b = map(int, input().split())\nprint(a + b)"
BIG = "x = [" + "(1,2)," * 40000 + "]\nprint(len(x))"  # 240 KB: ~140 MB to parse


@pytest.fixture(scope="module", params=[*BACKENDS, "docker-cold"])
def grader(request):
    """Each backend with the warm interpreter, and Docker without it (warm_fork="off": programs
    exec'd): the same verdicts."""
    backend, _, cold = request.param.partition("-")
    kw = {"warm_fork": "off"} if cold else {}
    with one_sandbox(backend, f"pytest-checker-attacks-{request.param}", **kw) as g:
        yield g


def innocent(grader) -> None:
    """A right answer is accepted and a real syntax error is a compile_error."""
    r = grader.grade(py(SUM))
    assert r["verdict"] == "accepted", r
    r = grader.grade(py("def f(:\n  pass"))
    assert r["verdict"] == "compile_error", r


def test_a_small_memory_job_leaves_no_limit_on_the_next_programs_check(grader):
    """The check runs with the files, before the job's own memory limit was set: it ran under the
    previous job's, and a right 240 KB answer with 512 MB was a compile_error ("did not finish")
    after a 16 MB job. It is checked under its own limit now."""
    r = grader.grade({**py("print(1)", stdin="", expected="1\n"), "memory_limit_mb": 16})
    assert r["verdict"] == "accepted", r
    r = grader.grade({**py(BIG, stdin="", expected="40000\n"), "memory_limit_mb": 512})
    assert r["verdict"] == "accepted", r
    innocent(grader)


# The deepest `x = --...-1` a fresh `python3 -I` script compiles, found in the sandbox itself by
# bisection (Python 3.11 bounds the compiler's recursion by sys.getrecursionlimit() less the frames
# already on the stack: 3 levels per frame).
DEEPEST = """import subprocess, sys
def ok(n):
    with open('/tmp/deep.py', 'w') as f:
        f.write('x = ' + '-' * n + '1\\n')
    return subprocess.run([sys.executable, '-I', '/tmp/deep.py'], capture_output=True).returncode == 0
lo, hi = 100, 20000
while lo < hi:
    m = (lo + hi + 1) // 2
    lo, hi = (m, hi) if ok(m) else (lo, m - 1)
print(lo)
"""


def deep(n: int) -> dict:
    return py("x = " + "-" * n + "1\nprint(abs(x))", stdin="", expected="1\n")


def test_the_check_compiles_as_deep_as_the_program_run(grader):
    """The checker compiled a few frames deep (its loop), so its compiler had ~15 levels of
    nesting fewer than the program's own run: a right answer at the edge was a compile_error. At
    the script's deepest nesting it is accepted; one level deeper it fails (the check is a little
    more lenient than the run, never stricter: a runtime_error or a compile_error)."""
    r = grader.grade({**py(DEEPEST, stdin="", expected=None), "return_output": True})
    n = int(r["tests"][0]["stdout"])
    assert 100 < n < 20000, r
    r = grader.grade(deep(n))
    assert r["verdict"] == "accepted", (n, r)
    r = grader.grade(deep(n + 1))
    assert r["verdict"] in ("compile_error", "runtime_error") and r["score"] == 0.0, (n, r)
    innocent(grader)

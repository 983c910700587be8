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


# Sources at the edges of what compile() and a script run read alike: declared encodings, a BOM,
# tabs, __future__ imports, line ends, literals the compiler refuses, a long file. Each prints
# "ran" when it runs. (A lone surrogate never reaches a sandbox: the task is refused as not UTF-8.)
EDGES = [
    "# coding: latin-1\nprint('ran', 'é')", "# coding: utf-16\nprint('ran')",
    "\ufeffprint('ran')", "\ufeff# coding: latin-1\nprint('ran')", "# -*- coding: bogus -*-\nprint('ran')",
    "print('ran')\rx = 1\r", "if True:\n\tx = 1\n        y = 2\nprint('ran')",
    "from __future__ import annotations\ndef f(x: Undefined) -> Nope: pass\nprint('ran')",
    "from __future__ import barry_as_FLUFL\nprint('ran', 1 <> 2)", "from __future__ import braces\nprint('ran')",
    "print('ran')\nx = 1 \\", "print('ran')\n\x0c\nx = 1\n", "ñ = 1\nprint('ran', ñ)",
    "print('ran')\nx = " + "9" * 5000, "print('ran')\n\x1a", "print('ran')\nx = f'{'",
    "print('ran')\nawait y", "print('ran')\ndef f():\n    nonlocal x", "print('ran')\n__debug__ = 1",
    "print('ran')\nx = 1 if 1 else 2 is 3\nassert (1, 'x')", "print('ran'); import sys; sys.stdout.flush()\n" + "x = 1\n" * 5000,
]

# The reference: each source as the sandbox writes it, run as `python3 -I FILE` in the sandbox:
# whether it ran (1) or the interpreter refused it (0).
RUN_EACH = """import subprocess, sys
out = []
for i, src in enumerate({srcs!r}):
    with open(f'/tmp/edge{{i}}.py', 'wb') as f:
        f.write(bytes.fromhex(src))
    p = subprocess.run([sys.executable, '-I', f'/tmp/edge{{i}}.py'], capture_output=True)
    out.append('1' if p.stdout.startswith(b'ran') else '0')
print(''.join(out))
"""


def test_the_check_refuses_exactly_what_the_run_refuses(grader):
    """The checker and the program's run agree on every edge source: a compile_error iff a script
    run of the same bytes refuses it (a check more lenient would let a program's own SyntaxError
    be a runtime_error; a stricter one fails a right answer)."""
    srcs = [s.encode("utf-8", "surrogatepass").hex() for s in EDGES]
    r = grader.grade({**py(RUN_EACH.format(srcs=srcs), stdin="", expected=None), "return_output": True})
    assert r["verdict"] == "accepted", r
    ran = r["tests"][0]["stdout"].strip()
    assert len(ran) == len(EDGES), r
    got = []
    for src, flag in zip(EDGES, ran):
        v = grader.grade({**py(src, stdin="", expected=None), "return_output": True})
        got.append((v["verdict"] == "compile_error") == (flag == "0"))
        if flag == "1":
            assert v["verdict"] == "accepted" and v["tests"][0]["stdout"].startswith("ran"), (src[:60], v)
    assert all(got), [(s[:40], f) for s, f, g in zip(EDGES, ran, got) if not g]
    innocent(grader)


def test_a_null_byte_is_a_compile_error_on_every_path(grader):
    """Python 3.11's script reader silently cuts a line at a null byte (3.12 refuses the file);
    compile(), the checker's and the warm interpreter's, refuses it. The check comes before either
    run, so the verdict is compile_error with and without the warm interpreter: never a run that
    reads half a line."""
    r = grader.grade(py("print(1)\n# \x00\nprint(2)", stdin="", expected="1\n2\n"))
    assert r["verdict"] == "compile_error" and "null" in r["detail"], r
    r = grader.grade(py("print(1)  # \x00 print(2)", stdin="", expected="1\n"))
    assert r["verdict"] == "compile_error" and r["score"] == 0.0, r
    innocent(grader)

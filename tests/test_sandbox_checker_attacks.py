"""Red team of the syntax checker (sandbox/harness/runner.py Checker; docs/sandboxes.md "The syntax
checker"), through real pools on both backends: a program must not change a later innocent job's
verdict through it, nor make the check disagree with its own run, nor read another job's source
through it."""
from __future__ import annotations

import pytest

from tests.helpers import BACKENDS, backend_of, known_bug, one_sandbox
from tests.test_sandbox_round_trips import _ping, py

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


# Everything a program could try on the checker's pid beyond tests/test_sandbox_round_trips.py's
# REACH: its limits, ptrace, its memory by process_vm_readv, idle scheduling, I/O priority, its OOM
# score, and its socket to the runner through /proc/PID/fd (a forged answer queued there would be
# the next job's check). What the program reached is printed.
REACH_MORE = r'''import ctypes, os, resource, socket
p, got = {pid}, []
libc = ctypes.CDLL(None, use_errno=True)
def call(rc):
    if rc < 0 or rc != 0 and rc != 16:
        raise OSError(ctypes.get_errno(), "")
class Iov(ctypes.Structure):
    _fields_ = [("b", ctypes.c_void_p), ("n", ctypes.c_size_t)]
def readv():
    buf = ctypes.create_string_buffer(16)
    mine, theirs = Iov(ctypes.cast(buf, ctypes.c_void_p), 16), Iov(0x400000, 16)
    if libc.process_vm_readv(p, ctypes.byref(mine), 1, ctypes.byref(theirs), 1, 0) < 0 and ctypes.get_errno() != 14:
        raise OSError(ctypes.get_errno(), "")  # EFAULT: allowed, at an address not mapped
def forge():
    for fd in os.listdir(f'/proc/{{p}}/fd'):
        try:
            s = socket.socket(fileno=os.open(f'/proc/{{p}}/fd/{{fd}}', os.O_RDWR))
        except OSError:
            continue
        try:
            s.send(b'{{"ok": false, "error_text": "forged"}}')
            return
        except OSError:
            pass
    raise OSError("no socket")
acts = [("cpu_limit", lambda: resource.prlimit(p, resource.RLIMIT_CPU, (1, 1))),
        ("nofile", lambda: resource.prlimit(p, resource.RLIMIT_NOFILE, (3, 3))),
        ("as", lambda: resource.prlimit(p, resource.RLIMIT_AS, (1 << 20, 1 << 20))),
        ("ptrace", lambda: call(libc.ptrace(16, p, 0, 0))), ("seize", lambda: call(libc.ptrace(0x4206, p, 0, 0))),
        ("readv", readv), ("idle", lambda: os.sched_setscheduler(p, os.SCHED_IDLE, os.sched_param(0))),
        ("ioprio", lambda: call(libc.syscall(251, 1, p, 3 << 13))),
        ("oom", lambda: open(f'/proc/{{p}}/oom_score_adj', 'w').write('1000')),
        ("mem", lambda: open(f'/proc/{{p}}/mem', 'rb').read(1)), ("forge", forge)]
for name, act in acts:
    try:
        act()
        got.append(name)
    except (OSError, ValueError):
        pass
print('reached:' + ','.join(got))
'''


def test_a_program_cannot_limit_trace_read_or_forge_the_checker(grader):
    """Its limits (a 1 s CPU limit or 3 fds would fail the next program's check), ptrace, its
    memory (it held the last program's source), its I/O and OOM priority, and a forged answer on
    its socket: none is reachable from a program, on either backend (gVisor shows its fd table
    but opens no socket through it)."""
    before = _ping(grader)
    r = grader.grade({**py(REACH_MORE.format(pid=before["checker"]), stdin="", expected=None), "return_output": True})
    assert r["verdict"] == "accepted", r
    assert r["tests"][0]["stdout"].strip() == "reached:", r
    innocent(grader)
    assert _ping(grader)["checker"] == before["checker"]


# A program that leaves a process behind to stop, renice and pin the checker during the next job.
LINGER = """import os, signal, time
p = {pid}
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        end = time.time() + 5
        while time.time() < end:
            for act in (lambda: os.kill(p, signal.SIGSTOP), lambda: os.setpriority(os.PRIO_PROCESS, p, 19),
                        lambda: os.sched_setaffinity(p, {{0}})):
                try:
                    act()
                except OSError:
                    pass
            time.sleep(0.001)
    os._exit(0)
print('left')
"""


def test_a_process_left_behind_never_reaches_the_next_check(grader):
    """The reset ends every process of the program before the next job's files (and check)."""
    before = _ping(grader)
    r = grader.grade({**py(LINGER.format(pid=before["checker"]), stdin="", expected=None), "return_output": True})
    assert r["verdict"] == "accepted", r
    for _ in range(3):
        innocent(grader)
    assert _ping(grader)["checker"] > 1


# Memory filled with files in the container's tmpfs mounts: no process's size shows it, so the OOM
# killer may pick the checker (seen under gVisor) or the runner; the exec'd filler keeps the
# program's own process small.
FILL_PY = """n = 0
for d in ('/dev/shm', '/tmp', '/work'):
    try:
        with open(f'{d}/fill', 'wb') as f:
            while True:
                f.write(b'x' * (1 << 20))
                f.flush()
                n += 1
    except OSError:
        pass
print(n)
"""
FILL_SH = """import os
os.execv('/bin/sh', ['sh', '-c', 'head -c 200M /dev/zero > /tmp/a; head -c 200M /dev/zero > /work/b; echo done'])
"""


@pytest.mark.parametrize("code,mb", [(FILL_PY, 64), (FILL_SH, 16), (FILL_SH, 64)])
def test_memory_filled_with_files_fails_only_its_own_program(grader, code, mb):
    """Whatever the OOM killer picks (the program, the checker, or the whole sandbox), the filler's
    verdict is its own (never infra_error) and the next programs' checks are right: a killed
    checker is replaced at the next check."""
    r = grader.grade({**py(code, stdin="", expected=None), "memory_limit_mb": mb})
    assert r["verdict"] != "infra_error", r
    innocent(grader)
    assert _ping(grader)["checker"] > 1


NAMES = "x = [" + "a," * 130000 + "]\nprint(1)"  # 256 KB: ~143 MB to parse, the most of the shapes tried


def test_a_parse_that_kills_the_checker_is_its_own_programs_compile_error(grader, request):
    """At 16 MB, parsing 256 KB of names kills the checker (out of memory): that program's
    compile_error ("did not finish"), its run could not have compiled it either; the next
    programs' checks start a fresh checker and are right. At 512 MB the same program runs."""
    known_bug(request, backend_of(grader.grader.config), {"runsc": (
        "issue 30 item 4: under Docker's runsc the watchdog counts gVisor's own memory in the container's cgroup (63 MB "
        "at rest), so a 16 MB task is memory_limit before its check can run out of memory")})
    r = grader.grade({**py(NAMES, stdin="", expected="1\n"), "memory_limit_mb": 16})
    assert r["verdict"] == "compile_error" and "did not finish" in r["detail"] and r["score"] == 0.0, r
    innocent(grader)
    assert _ping(grader)["checker"] > 1
    r = grader.grade({**py(NAMES.replace("a,", "1,"), stdin="", expected="1\n"), "memory_limit_mb": 512})
    assert r["verdict"] == "accepted", r
    innocent(grader)


def test_a_program_gets_its_whole_memory_limit_after_a_big_parse(grader):
    """The checker's memory (and what a 240 KB parse left in it) is the container's overhead,
    never the program's: 64 MB of bytearray at a 64 MB limit runs, before and after the parse."""
    fill = {**py("b = bytearray(64 << 20)\nprint(len(b) >> 20)", stdin="", expected="64\n"), "memory_limit_mb": 64}
    assert grader.grade(fill)["verdict"] == "accepted"
    r = grader.grade({**py(BIG, stdin="", expected="40000\n"), "memory_limit_mb": 512})
    assert r["verdict"] == "accepted", r
    r = grader.grade(fill)
    assert r["verdict"] == "accepted", r

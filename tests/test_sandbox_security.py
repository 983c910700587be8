"""Real containers: what a program may do to PID 1, the container and the harness, and what
reaches the next job. Each case is a finding of the sandbox security review (issue 3): a program
does the attack, then an innocent job in the same container must be unaffected (or the container
must have been recycled)."""
from __future__ import annotations

import resource

import pytest

from sandbox import SandboxConfig
from sandbox.sync import SyncGrader

pytestmark = pytest.mark.docker


@pytest.fixture(scope="module")
def grader():
    g = SyncGrader(SandboxConfig(pool_size=1, pool_name="pytest-sandbox-sec", languages=("python",)))
    assert g.grader.available, g.grader.unavailable_reason()
    yield g
    g.close()


def py(code: str, tests=(("1 2\n", "3\n"),), **kw) -> dict:
    return {"kind": "code", "language": "python", "completion": f"```python\n{code}\n```",
            "tests": [{"stdin": i, "expected_stdout": o} for i, o in tests], **kw}


INNOCENT = py("a, b = map(int, input().split())\nx = bytearray(150 << 20)\nprint(a + b)")


# ---------------------------------------------------------------- F3: signals to PID 1
def test_sigint_to_pid1_is_ignored(grader):
    before = grader.grader.stats()["containers_recycled"]
    r = grader.grade(py("import os, signal\nos.kill(1, signal.SIGINT)\nprint(4)"))
    assert r["verdict"] == "wrong_answer", r
    assert grader.grade(INNOCENT)["verdict"] == "accepted"
    assert grader.grader.stats()["containers_recycled"] == before  # the runner survived it


# ---------------------------------------------------------------- F1: PID 1's limits, affinity, nice
@pytest.mark.parametrize("attack", [
    "resource.prlimit(1, resource.RLIMIT_AS, (120 << 20, 120 << 20))",
    "resource.prlimit(1, resource.RLIMIT_NOFILE, (16, 16))",
    "os.sched_setaffinity(1, {min(os.sched_getaffinity(1))})",
    "os.setpriority(os.PRIO_PROCESS, 1, 19)",
])
def test_pid1_limits_changed_by_a_program_do_not_reach_the_next_job(grader, attack):
    r = grader.grade(py(f"import os, resource\n{attack}\nprint(3)"))
    assert r["verdict"] == "runtime_error" and "supervisor" in r["detail"], r
    probe = py("import os, resource\nprint(resource.getrlimit(resource.RLIMIT_AS)[0], resource.getrlimit(resource.RLIMIT_NOFILE)[0],"
               " len(os.sched_getaffinity(0)) == os.cpu_count(), os.getpriority(os.PRIO_PROCESS, 0))",
               tests=(("", f"{resource.RLIM_INFINITY} 256 True 0\n"),))
    assert grader.grade(probe)["verdict"] == "accepted"
    assert grader.grade(INNOCENT)["verdict"] == "accepted"


# ---------------------------------------------------------------- F2: SysV IPC and POSIX queues
SHM_PLANT = r'''import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
libc.shmat.restype = ctypes.c_void_p
sid = libc.shmget(0x1234, 200 << 20, 0o1666)
ctypes.memset(libc.shmat(sid, None, 0), 7, 200 << 20)
libc.msgget(0x1235, 0o1666); libc.semget(0x1236, 1, 0o1666)
os.close(os.open("/dev/mqueue/leak", os.O_CREAT | os.O_WRONLY, 0o666))
print(3)'''


def test_ipc_objects_do_not_survive_the_job(grader):
    assert grader.grade(py(SHM_PLANT, tests=(("", "3\n"),)))["verdict"] == "accepted"
    look = py("import os\nprint(sum(len(open('/proc/sysvipc/' + k).readlines()) - 1 for k in ('shm', 'msg', 'sem')),"
              " os.listdir('/dev/mqueue'))", tests=(("", "0 []\n"),))
    r = grader.grade(look)
    assert r["verdict"] == "accepted", r
    assert grader.grade(INNOCENT)["verdict"] == "accepted"


# ---------------------------------------------------------------- F4: forging the test_code harness
ADD_TESTS = "assert add(1, 2) == 3\nassert add(2, 2) == 4\n"
FORGERIES = {
    "exec_replaced": "import builtins\ndef add(a, b): return 0\nbuiltins.exec = lambda *a, **k: None",
    "nonce_from_environ": (
        "import os\nenv = dict(e.split(b'=', 1) for e in open('/proc/self/environ', 'rb').read().split(b'\\0') if b'=' in e)\n"
        "os.write(int(env[b'RESULT_FD']), b'ok:' + env[b'RESULT_NONCE']); os._exit(0)"),
    "nonce_from_caller_frame": (
        "import sys, os\nf = sys._getframe(1).f_locals\nos.write(f['fd'], b'ok:' + f['nonce']); os._exit(0)"),
    "nonce_from_generator_frame": (
        "import os\ndef g():\n    yield\nit = g(); next(it)\nf = it.gi_frame.f_back.f_back\n"
        "os.write(f.f_locals['fd'], b'ok:' + f.f_locals['nonce']); os._exit(0)"),
    "nonce_from_traceback_frame": (
        "import os\ntry:\n    1 / 0\nexcept ZeroDivisionError as e:\n    f = e.__traceback__.tb_frame.f_back\n"
        "os.write(f.f_locals['fd'], b'ok:' + f.f_locals['nonce']); os._exit(0)"),
    "nonce_from_gc": (
        "import gc, os\nn = [o for o in gc.get_objects() if type(o) is dict and 'nonce' in o]\n"
        "os.write(3, b'ok:' + n[0]['nonce']); os._exit(0)"),
    # the following programs are correct: they fail only because the harness blocks what they do
    "proc_mem_opened": "open('/proc/self/mem', 'rb')\ndef add(a, b): return a + b",
    "proc_mem_via_dev_fd": "open('/dev/fd/../mem', 'rb')\ndef add(a, b): return a + b",
    "proc_dir_fd": "import os\nos.open('/', os.O_RDONLY)\ndef add(a, b): return a + b",
    "subprocess": "import subprocess\nsubprocess.run(['true'])\ndef add(a, b): return a + b",
    "symlink": "import os\nos.symlink('/proc/self/mem', 'm')\ndef add(a, b): return a + b",
    "ctypes": "import ctypes\nctypes.string_at(id(1), 8)\ndef add(a, b): return a + b",
}


@pytest.mark.parametrize("name", sorted(FORGERIES))
def test_harness_cannot_be_forged(grader, name):
    r = grader.grade({"language": "python", "completion": FORGERIES[name], "test_code": ADD_TESTS})
    assert r["verdict"] != "accepted" and r["score"] == 0.0, r


def test_harness_still_runs_ordinary_programs(grader):
    code = ("import collections, typing, dataclasses, enum, itertools, math, re, functools\n"
            "P = collections.namedtuple('P', 'a b')\nclass C(enum.Enum):\n    X = 1\n"
            "@dataclasses.dataclass\nclass D:\n    x: int\n"
            "def add(a: int, b: int) -> int:\n    return P(a, b).a + D(b).x\n"
            "try:\n    raise ValueError\nexcept ValueError as e:\n    str(e.__traceback__.tb_lineno)\n"
            "import os\nassert not os.path.exists('tests.py')  # the tests never are in the program's files\n"
            "print(input.__name__, open('prog.py').read(3))")
    r = grader.grade({"language": "python", "completion": code, "test_code": ADD_TESTS, "return_output": True})
    assert r["verdict"] == "accepted", r
    bad = grader.grade({"language": "python", "completion": "def add(a, b): return a - b", "test_code": ADD_TESTS})
    assert bad["verdict"] == "wrong_answer", bad


# ---------------------------------------------------------------- F6, F8, F9: checkers
CHECKER = ("import sys\nout = open(sys.argv[2]).read().split(); ans = open(sys.argv[3]).read().split()\n"
           "sys.exit(0 if out == ans else 1)\n")
CHECKED = (("1 2\n", "3\n"), ("5 5\n", "10\n"), ("7 8\n", "15\n"))


def test_program_filling_the_disk_is_its_own_verdict(grader):
    fill = "import os\nfor i in range(5000):\n    try: open('f%d' % i, 'w').close()\n    except OSError: break\nprint(4)"
    r = grader.grade(py(fill, tests=CHECKED, checker=CHECKER))
    assert r["verdict"] == "output_limit" and not r["retryable"], r
    assert grader.grade(py("a, b = map(int, input().split())\nprint(a + b)", tests=CHECKED, checker=CHECKER))["verdict"] == "accepted"


def test_checker_answers_are_gone_before_the_next_test(grader):
    """F6: answer.txt of an earlier test stayed in /work/c*/ for the program's later tests."""
    peek = "import glob\na = glob.glob('/work/c*/*')\nprint(open(a[0]).read() if a else 0)"
    r = grader.grade(py(peek, tests=(("", "3\n"),) * 3, checker=CHECKER, scoring="fraction"))
    assert r["score"] == 0.0, r


def test_a_crashing_checker_is_infra_error_not_a_rejection(grader):
    """F9: an uncaught exception in the checker exited 1, which read as "rejected"."""
    buggy = "import sys\nout = open(sys.argv[2]).read().split(); ans = open(sys.argv[3]).read().split()\nsys.exit(0 if int(out[0]) == int(ans[0]) else 1)\n"
    r = grader.grade(py("print('3.0')", checker=buggy))
    assert r["verdict"] == "infra_error" and "checker failed" in r["detail"] and "ValueError" in r["detail"], r
    assert not r["retryable"]
    assert grader.grade(py("print(4)", checker=buggy))["verdict"] == "wrong_answer"  # exit 1 still rejects

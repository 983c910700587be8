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

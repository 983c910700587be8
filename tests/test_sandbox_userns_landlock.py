"""The userns backend's Landlock mode (issue 32; docs/sandboxes.md "Sandbox backends"): one uid for the whole sandbox,
as a server without CAP_SETUID has it (unprivileged pods, Slurm), forced here by SandboxConfig.userns_mode. A program
reaches neither the runner, the warm interpreter's mother and zygote, the syntax checker nor the judge: no signal,
prlimit, renice, CPU set, scheduler, I/O priority, /proc read or abstract socket of theirs (sandbox/harness/confine.py),
while grading is unchanged (a right answer and its near miss, stdin and judged). The mode's choice and its refusal
are tested without a sandbox. The backend-parametrized suites run in this mode with VERIFIER_TEST_USERNS_MODE=landlock
(tests/helpers.py sandbox_config)."""
from __future__ import annotations

import pytest

import sandbox.userns as userns
from tests.helpers import one_sandbox
from tests.test_sandbox_docker import leaves_nothing

pytestmark = pytest.mark.docker  # the root filesystems are exported from the Docker images

# Every other process of the sandbox, by each way a process of the same uid could reach it; prints "contained" when
# none got through and the supervisor's processes were there to try (PID 1, the warm interpreter's two, the checker).
REACH = r'''
import ctypes, os, resource, signal, socket
libc = ctypes.CDLL(None, use_errno=True)
def reach():
    got, others = [], [int(p) for p in os.listdir("/proc") if p.isdigit() and int(p) != os.getpid()]
    for pid in others:
        try:
            nice, cpus, io = os.getpriority(os.PRIO_PROCESS, pid), os.sched_getaffinity(pid), libc.syscall(252, 1, pid)
        except OSError:
            continue  # gone
        def ioprio():
            if libc.syscall(251, 1, pid, io) != 0:
                raise OSError(ctypes.get_errno(), "ioprio_set")
        def ptrace():
            if libc.ptrace(16, pid, 0, 0) != 0:
                raise OSError(ctypes.get_errno(), "ptrace")
        for name, call in (("kill", lambda: os.kill(pid, 0)),
                           ("pidfd", lambda: signal.pidfd_send_signal(os.pidfd_open(pid), 0)),
                           ("prlimit", lambda: resource.prlimit(pid, resource.RLIMIT_NOFILE)),
                           ("renice", lambda: os.setpriority(os.PRIO_PROCESS, pid, nice)),
                           ("affinity", lambda: os.sched_setaffinity(pid, cpus)),
                           ("scheduler", lambda: os.sched_setscheduler(pid, os.SCHED_OTHER, os.sched_param(0))),
                           ("ioprio", ioprio), ("ptrace", ptrace),
                           ("environ", lambda: open(f"/proc/{pid}/environ", "rb").read())):
            try:
                call()
                got.append(f"{name} {pid} {open(f'/proc/{pid}/cmdline', 'rb').read()[:60]!r}")
            except OSError:
                pass
    try:
        os.setpriority(os.PRIO_USER, 0, os.getpriority(os.PRIO_USER, 0))
        got.append("renice every process of the uid")
    except OSError:
        pass
    return "contained" if not got and len(others) >= 3 else f"{len(others)} others; reached: {got}"
'''


def py(code: str, expected: str = "3\n") -> dict:
    return {"kind": "code", "language": "python", "completion": f"```python\n{code}\n```",
            "tests": [{"stdin": "1 2\n", "expected_stdout": expected}]}


def judged(code: str, tests: str) -> dict:
    return {"kind": "code", "language": "python", "completion": f"```python\n{code}\n```", "test_code": tests}


@pytest.fixture(scope="module")
def landlock():
    with one_sandbox("userns", "pytest-userns-landlock", userns_mode="landlock") as g:
        yield g


def test_the_sandbox_runs_in_the_landlock_mode_and_says_so(landlock):
    backend = landlock.grader._backend
    assert backend.mode == "landlock" and "landlock" in backend.describe()
    (box,) = [b for b in backend._boxes.values()]
    head, _ = box.channel.request({"op": "ping"}, timeout_s=10)
    assert head["apart"] is True and head["confined"] is True and head["warm_mother"] > 1, head


def test_a_right_answer_and_its_near_miss(landlock):
    assert landlock.grade(py("a, b = map(int, input().split())\nprint(a + b)"))["verdict"] == "accepted"
    assert landlock.grade(py("a, b = map(int, input().split())\nprint(a + b + 1)"))["verdict"] == "wrong_answer"
    tests = "assert add(1, 2) == 3\nassert add(-1, 1) == 0\n"
    assert landlock.grade(judged("def add(a, b):\n    return a + b", tests))["verdict"] == "accepted"
    assert landlock.grade(judged("def add(a, b):\n    return a + b + (a < 0)", tests))["verdict"] != "accepted"


def test_a_program_reaches_neither_the_runner_nor_the_warm_interpreter_nor_the_checker(landlock):
    r = landlock.grade(py(REACH + "print(reach())\n", "contained\n"))
    assert r["verdict"] == "accepted", r


def test_a_judged_program_does_not_reach_its_judge(landlock):
    """Loaded while its judge waits for it: the judge is among the processes it tries."""
    r = landlock.grade(judged(REACH + "SEEN = reach()\ndef seen():\n    return SEEN\n", "assert seen() == 'contained', seen()\n"))
    assert r["verdict"] == "accepted", r


def test_a_judge_still_ends_the_programs_orphans(landlock):
    """The judge kills its program's processes by their filter (confine.kill_confined), not by uid: a call past its
    limit that left a double-forked orphan ends as time_limit, and the next job is graded in a clean sandbox."""
    code = ("import os, time\ndef f():\n    if os.fork() == 0:\n        if os.fork() == 0:\n            while True: pass\n"
            "        os._exit(0)\n    while True: pass\n")
    r = landlock.grade({**judged(code, "assert f() == 1\n"), "time_limit_s": 1})
    assert r["verdict"] == "time_limit", r
    assert landlock.grade(py("a, b = map(int, input().split())\nprint(a + b)"))["verdict"] == "accepted"


@pytest.mark.parametrize("kind", ["files", "process"])
def test_nothing_a_job_leaves_reaches_the_next_job(landlock, kind):
    """One uid owns the sandbox: bubblewrap's /dev is a tmpfs of that uid, and until it was remounted read-only
    (sandbox/userns.py launch_spec) a file a job left there was the next job's to read; a process it leaves is told
    by its filter, not its uid (tests/helpers.py PROGRAM_KIND). Near miss in leaves_nothing: the job sees its own."""
    leaves_nothing(landlock, "userns", kind)


def test_auto_takes_uids_where_the_capabilities_are_and_landlock_where_not(monkeypatch):
    monkeypatch.setattr(userns, "can_map_range", lambda: True)
    assert userns.choose_mode("auto")[0] == "uids"
    monkeypatch.setattr(userns, "can_map_range", lambda: False)
    mode, why = userns.choose_mode("auto")
    assert mode == "landlock" and "CAP_SETUID" in why and "Landlock" in why


def test_without_landlock_scopes_or_capabilities_the_backend_refuses_naming_why(monkeypatch):
    monkeypatch.setattr(userns, "can_map_range", lambda: False)
    monkeypatch.setattr(userns, "landlock_abi", lambda: 5)
    for wanted in ("auto", "landlock"):
        with pytest.raises(RuntimeError, match="Landlock ABI is 5"):
            userns.choose_mode(wanted)
    with pytest.raises(RuntimeError, match="CAP_SETUID"):
        userns.choose_mode("uids")

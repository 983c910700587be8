"""Red team of the warm interpreter (issue 20, item 5; docs/sandboxes.md "The warm interpreter";
sandbox/harness/zygote.py): real programs, written as a reward-hunting policy would write them,
through the real grader and real containers on both backends. Each test fails if a protection the
docs claim went away: state a test leaves for the next, processes that outlive their test, a
program reaching the zygote or its mother, a tampered zygote kept, a program's failure charged to
the sandbox."""
from __future__ import annotations

import os
import secrets
import sys

import pytest

from sandbox.build import HARNESS
from sandbox.sync import SyncGrader
from tests.helpers import GVISOR_KERNEL, PROGRAM_KIND, sandbox_config, userns_mode
from tests.test_sandbox_warm import SCAN, outputs, py

sys.path.insert(0, str(HARNESS))
from warm_keeper import WARM_FORKS_MAX  # noqa: E402

pytestmark = pytest.mark.docker


# Every test here runs on every backend (tests/conftest.py `any_grader`): one warm Python sandbox, made by
# tests/helpers.py one_sandbox with these settings.
SANDBOX = {"pool_name": "pytest-warm-attacks", "warm_fork": "on"}


def grades_right(g: SyncGrader) -> None:
    """After an attack, the next completions are graded as ever: a right answer accepted, its near
    miss (one more than the sum) not, a judged one too."""
    assert g.grade(py("print(sum(map(int, input().split())))"))["verdict"] == "accepted"
    assert g.grade(py("print(sum(map(int, input().split())) + 1)"))["verdict"] == "wrong_answer"
    for body, verdict in (("return x + 1", "accepted"), ("return x + 2", "wrong_answer")):
        r = g.grade({"kind": "code", "language": "python", "test_code": "assert f(1) == 2",
                     "completion": f"```python\ndef f(x):\n    {body}\n```"})
        assert r["verdict"] == verdict, r


# The warm processes, seen from a program: real uid 65533 and effective uid its own (the syntax
# checker's are both 65533), but PID 1; the mother is the older. A killed one not yet reaped is not.
OURS = PROGRAM_KIND  # ours(p): a process of the program's own kind, in the one-uid mode too (tests/helpers.py)
FIND_WARM = OURS + r'''
def warm():
    # both are PID 1's children (the mother orphans each zygote: zygote.py orphan); the mother,
    # forked at the container's start, is the older
    found, one_uid = [], []
    for p in os.listdir("/proc"):
        if not p.isdigit() or int(p) in (1, os.getpid()):
            continue
        try:
            st = status(p)
            mine = ours(p)
        except OSError:
            continue
        if st["State"].strip().startswith("Z"):
            continue
        real, effective = (int(u) for u in st["Uid"].split()[:2])  # the syntax checker's are both the judge's
        if real != os.getuid() and effective == os.getuid():
            found.append(int(p))
        elif real == os.getuid() and not mine:  # one uid: the runner's forks, the syntax checker among them
            one_uid.append((int(p), st))
    if found or not one_uid:
        return dict(zip(("mother", "zygote"), sorted(found)))
    # one uid: the mother ignores SIGCHLD (zygote.py mother); the zygote holds the warm imports, the most memory
    mother = [p for p, st in one_uid if int(st["SigIgn"], 16) & (1 << 16)]
    rest = sorted((int(st["VmRSS"].split()[0]), p) for p, st in one_uid if p not in mother and "VmRSS" in st)
    return {**({"mother": mother[0]} if mother else {}), **({"zygote": rest[-1][1]} if rest else {})}
'''

# Prints what a forked process inherits from the zygote (before it changes anything), then changes
# all of it in its own process: modules, builtins, sys settings, the interpreter's C-level state,
# fds, cwd, umask, environment, signals, limits, the GC, warnings, locale, at-fork hooks.
STATE = r'''
import atexit, builtins, faulthandler, gc, hashlib, json, locale, math, os, resource, signal, sys, warnings
facts = {
    "modules": sorted(sys.modules), "builtins": sorted(vars(builtins)), "pi": math.pi, "print": repr(builtins.print),
    "cwd": os.getcwd(), "umask": os.umask(0o22), "env": sorted(os.environ.items()), "fds": sorted(os.listdir("/proc/self/fd")),
    "signals": [(s.name, str(signal.getsignal(s))) for s in signal.Signals if s not in (signal.SIGKILL, signal.SIGSTOP)],
    "limits": [(n, resource.getrlimit(getattr(resource, n))) for n in sorted(dir(resource)) if n.startswith("RLIMIT_")],
    "sys": [sys.getrecursionlimit(), sys.getswitchinterval(), sys.get_int_max_str_digits(), sys.dont_write_bytecode,
            sys.path, sys.argv, sys.flags.optimize, str(sys.gettrace()), str(sys.getprofile()), len(sys.meta_path),
            len(sys.path_hooks), sorted(sys.path_importer_cache)],
    "gc": [gc.isenabled(), gc.get_threshold(), gc.get_freeze_count() > 0], "warnings": [str(f) for f in warnings.filters],
    "locale": locale.setlocale(locale.LC_ALL), "faulthandler": faulthandler.is_enabled(),
    "nice": os.getpriority(os.PRIO_PROCESS, 0), "cpus": sorted(os.sched_getaffinity(0)), "policy": os.sched_getscheduler(0),
}
print(facts["pi"], hashlib.sha256(json.dumps(facts, sort_keys=True, default=str).encode()).hexdigest(), flush=True)
import collections, re, typing, json as j2
math.pi = 3; builtins.print = None; builtins.len = lambda x: 0; sys.modules["json"] = None; j2.dumps = None
collections.Counter = dict; typing.List = None; re.compile = None; sys.modules["forged"] = math
sys.setrecursionlimit(50); sys.setswitchinterval(1.0); sys.set_int_max_str_digits(640); sys.dont_write_bytecode = False
sys.path.insert(0, "/tmp"); sys.meta_path.clear(); sys.path_hooks.clear(); sys.path_importer_cache.clear()
gc.disable(); gc.set_threshold(1); gc.unfreeze(); warnings.simplefilter("error"); faulthandler.enable()
os.umask(0); os.chdir("/tmp"); os.environ["PYTHONINSPECT"] = "1"; os.putenv("LANG", "C")
signal.signal(signal.SIGTERM, signal.SIG_IGN); signal.signal(signal.SIGINT, signal.SIG_IGN); signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGUSR1})
resource.setrlimit(resource.RLIMIT_NOFILE, (16, 16)); resource.setrlimit(resource.RLIMIT_STACK, (1 << 20, 1 << 20))
os.dup2(os.open("/dev/null", os.O_RDONLY), 9); os.set_inheritable(9, True)
os.register_at_fork(after_in_child=lambda: os._exit(7)); atexit.register(os._exit, 0)
os.setpriority(os.PRIO_PROCESS, 0, 19); os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
sys.settrace(lambda *a: None); sys.setprofile(lambda *a: None)
'''


def test_a_test_leaves_nothing_in_the_warm_interpreter(any_grader):
    """Three tests (forks of one zygote) each print what they inherited, then change it all in
    their own process: every test must inherit what the first did."""
    got = outputs(any_grader, STATE, ["", "", ""])
    assert got[0].startswith("3.141592653589793 ") and len(got[0].split()[1]) == 64, got[0]
    assert got[1:] == [got[0], got[0]]


TAMPER = FIND_WARM + r'''
w = warm()
how, _, whom = input().partition(" ")
took = "-"
try:  # what its effective uid allows against them (docs/sandboxes.md, "The warm interpreter")
    if how == "nice":
        os.setpriority(os.PRIO_PROCESS, w[whom], 19)
    elif how == "affinity":
        os.sched_setaffinity(w[whom], {min(os.sched_getaffinity(0))})
    elif how:
        os.sched_setscheduler(w[whom], getattr(os, "SCHED_" + how.upper()), os.sched_param(0))
    took = "took" if how else "-"
except OSError:  # gVisor has no SCHED_BATCH or SCHED_IDLE
    took = "refused"
print(w.get("zygote", 0), w.get("mother", 0), os.getpriority(os.PRIO_PROCESS, 0), os.sched_getscheduler(0),
      os.sched_getaffinity(0) == set(range(os.cpu_count())), took)
'''


@pytest.mark.parametrize("how", ["nice", "batch", "idle", "affinity"])
@pytest.mark.parametrize("whom", ["zygote", "mother"])
def test_a_warm_process_a_program_changed_is_gone_before_the_next_test(any_grader, backend, how, whom):
    """A later test (another completion's, in a later job) must not inherit a lowered priority,
    policy or CPU set: the runner's check after the run sees the change and forks a new zygote (a
    changed zygote) or ends the warm path (a changed mother: the container is recycled)."""
    first, second = outputs(any_grader, TAMPER, [f"{how} {whom}\n", "\n"])
    z1, m1, *fresh1, took = first.split()
    z2, m2, *fresh2, _ = second.split()
    assert int(z1) and int(m1) and fresh1 == fresh2 == ["0", "0", "True"], (first, second)
    if took == "took":  # a changed mother is killed with its zygote (one SCHED_IDLE may still be dying)
        assert z2 != z1 and (m2 == m1 if whom == "zygote" else z2 == "0"), (first, second)
    else:
        # gVisor's kernel refuses SCHED_BATCH and SCHED_IDLE: the change never took
        # or one uid for the sandbox: the program's filter refuses it (confine.py)
        assert ((took, how) in {("refused", "batch"), ("refused", "idle")} and backend in GVISOR_KERNEL
                or took == "refused" and backend == "userns" and userns_mode() == "landlock"), (took, how, backend)
    grades_right(any_grader)
    assert outputs(any_grader, TAMPER, ["\n"])[0].split()[2:] == ["0", "0", "True", "-"]


# Docker only (issue 30 CI budget): the fork budget is the runner's own count, the same code on every backend, and
# its WARM_FORKS_MAX + 2 runs took 70 s under gVisor (measured, loaded 2-core machine).
@pytest.mark.parametrize("backend", ["docker"], indirect=True)
def test_a_zygote_is_replaced_after_its_fork_budget(any_grader):
    """WARM_FORKS_MAX forks of one zygote, then a new one (its hash seed and heap are fresh)."""
    n = WARM_FORKS_MAX + 2
    got = outputs(any_grader, FIND_WARM + "print(warm().get('zygote', 0))", [""] * n)
    zygotes = [int(x) for x in got]
    assert all(zygotes) and len(set(zygotes)) >= 2, sorted(set(zygotes))
    assert zygotes.count(zygotes[0]) <= WARM_FORKS_MAX, zygotes.count(zygotes[0])


# Test 1 leaves a daemon (double fork, its own session, SIGTERM and SIGHUP ignored) that keeps
# writing into the job's dir, and a thread; the next tests list the program's processes.
OUTLIVE = OURS + r'''
import os, signal, threading, time
others = [p for p in os.listdir("/proc") if p.isdigit() and int(p) != os.getpid() and ours(p)]
print(sorted(others), flush=True)
if os.fork() == 0:
    os.setsid()
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    if os.fork() == 0:
        while True:
            time.sleep(0.01)
    os._exit(0)
threading.Thread(target=time.sleep, args=(60,), daemon=True).start()
'''


def test_no_process_of_a_test_outlives_it(any_grader):
    assert outputs(any_grader, OUTLIVE, ["", "", ""]) == ["[]\n"] * 3
    grades_right(any_grader)


# Everything a process of the program's uid may try against the warm processes beyond signals,
# ptrace and their fds (tests/test_sandbox_warm.py ATTACK): prlimit, pidfd and SIGIO signals, writes to their
# /proc files; and a writable mapping shared with the zygote (a channel between forks).
REACH = FIND_WARM + r'''
import fcntl, resource, signal, time
reached = []
for name, pid in sorted(warm().items()):
    for lim in (resource.RLIMIT_NOFILE, resource.RLIMIT_AS, resource.RLIMIT_CPU, resource.RLIMIT_NPROC):
        try:
            resource.prlimit(pid, lim, (1, 1))
            reached.append(f"{name} prlimit {lim}")
        except OSError:
            pass
    try:
        fd = os.pidfd_open(pid)
        for sig in (signal.SIGKILL, signal.SIGSTOP):
            try:
                signal.pidfd_send_signal(fd, sig)
                reached.append(f"{name} pidfd {sig.name}")
            except OSError:
                pass
    except OSError:
        pass
    r, w = os.pipe()  # SIGIO (here SIGSTOP, F_SETSIG) to an owner set with F_SETOWN: sigio_perm checks uids
    fcntl.fcntl(r, fcntl.F_SETOWN, pid)
    fcntl.fcntl(r, 10, signal.SIGSTOP)
    fcntl.fcntl(r, fcntl.F_SETFL, fcntl.fcntl(r, fcntl.F_GETFL) | os.O_ASYNC)
    os.write(w, b"x")
    time.sleep(0.1)
    if open(f"/proc/{pid}/status").read().split("State:")[1].split()[0] == "T":
        reached.append(f"{name} sigio")
    for f in ("oom_score_adj", "oom_adj", "comm", "coredump_filter", "sched", "autogroup", "timerslack_ns",
              "clear_refs", "attr/current", "loginuid", "mem", "setgroups", "uid_map"):
        try:
            with open(f"/proc/{pid}/{f}", "w") as fh:
                fh.write("1")
            reached.append(f"{name} write {f}")
        except OSError:
            pass
shared = [l for l in open("/proc/self/maps").read().splitlines() if l.split()[1][1] == "w" and l.split()[1][3] == "s"]
print(reached, shared)
'''


def test_the_warm_processes_refuse_prlimit_pidfd_and_proc_writes(any_grader):
    got = outputs(any_grader, REACH, ["", ""])
    assert got == ["[] []\n"] * 2, got
    grades_right(any_grader)


@pytest.mark.parametrize("code", [
    "import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass",  # fork bomb
    "import os, signal\nos.kill(-1, signal.SIGKILL)",  # every process of its uid, itself too
    "import os, signal\nos.killpg(0, signal.SIGKILL)",
    "import os, signal\nos.kill(os.getpid(), signal.SIGSTOP)",  # stopped: the wall limit
    "import os\nfor fd in range(1024):\n    try:\n        os.close(fd)\n    except OSError:\n        pass",
    "import os, signal\nos.setsid()\nfor p in range(1, 64):\n    try:\n        os.kill(p, signal.SIGKILL)\n    except OSError:\n        pass",
], ids=["fork_bomb", "kill_all", "killpg", "stop_self", "close_fds", "kill_pids"])
@pytest.mark.parametrize("judged", [False, True])
def test_a_programs_failure_is_its_verdict_and_the_next_job_passes(any_grader, code, judged):
    """What a program does to itself and what it can reach is charged to it, never infra_error,
    and the next completion is graded as ever, a fork of a warm interpreter: after a stdin program
    (a fork of the zygote) and a judged one (its judge a fork of the zygote)."""
    task = py(code, time_limit_s=1.0)
    if judged:
        task = {"kind": "code", "language": "python", "test_code": "assert f(1) == 2", "time_limit_s": 1.0,
                "completion": f"```python\ndef f(x):\n    return 3\n{code}\n```"}  # wrong either way
    r = any_grader.grade(task)
    assert r["verdict"] not in ("infra_error", "accepted"), r
    grades_right(any_grader)
    # and the next completion is a fork of a warm interpreter again (a new one if these died)
    assert outputs(any_grader, FIND_WARM + "print(sorted(warm()))") == ["['mother', 'zygote']\n"]


def test_a_program_finds_no_other_completions_source_in_its_memory(any_grader):
    """Completion A's source (a stdin program and a judged one) passes through the runner; the
    zygote never holds it, so completion B, a fork of the zygote, finds none of it in its memory."""
    tag = secrets.token_hex(8)
    assert any_grader.grade(py(f"print(3)  # OUT{tag}\n" + f"# TST{tag}\n" * 200, [("", "3\n")]))["verdict"] == "accepted"
    r = any_grader.grade({"kind": "code", "language": "python", "test_code": "assert f(1) == 2",
                          "completion": f"```python\ndef f(x):\n    return 2  # IN{tag}\n" + f"# OUT{tag}\n" * 200 + "```"})
    assert r["verdict"] == "accepted", r
    assert outputs(any_grader, SCAN.replace("TAG_REVERSED", tag[::-1])) == ["clean found-own-copy\n"]


# A judged program (its process the program's uid) writes a forged pass on every fd it can reach
# or open through /proc: its own, the judge's (a fork of the zygote, PID 1's child) and the warm
# processes'. Without the nonce no line counts, and the judge's sockets cannot be opened by path.
FORGE = r"""
import os
def f(x):
    return 0
forged = b'{"result": "ok"}\n' * 4
for fd in range(3, 64):
    try:
        os.write(fd, forged)
    except OSError:
        pass
for p in os.listdir("/proc"):
    if p.isdigit() and int(p) != os.getpid():
        for n in range(64):
            try:
                w = os.open(f"/proc/{p}/fd/{n}", os.O_WRONLY | os.O_NONBLOCK)
                os.write(w, forged)
                os.close(w)
            except OSError:
                pass
"""


def test_a_judged_program_cannot_forge_the_warm_judges_verdict(any_grader):
    r = any_grader.grade({"kind": "code", "language": "python", "test_code": "assert f(1) == 2",
                          "completion": f"```python\n{FORGE}\n```"})
    assert r["verdict"] not in ("accepted", "infra_error"), r
    assert r["score"] == 0.0, r
    grades_right(any_grader)


# A stdin program that pins the zygote to one CPU; the same program's test_code then runs in a
# judge forked from the zygote and sees the judge's own CPU set.
PIN = FIND_WARM + r'''
def f(x):
    return x + 1
if __name__ == "__main__":
    os.sched_setaffinity(warm()["zygote"], {min(os.sched_getaffinity(0))})
    print(2)
'''


def test_a_zygote_changed_by_an_exec_program_is_replaced_before_the_judge(request):
    """Under gVisor, warm_fork auto execs a stdin program but forks the judge of the same task's
    test_code from the zygote: the check after every run, not only after forked ones, replaces a
    zygote the program changed before the judge is forked from it."""
    g = SyncGrader(sandbox_config("gvisor", pool_size=1, pool_name="pytest-warm-attacks-gvisor-auto",
                                  languages=("python",), warm_fork="auto"))
    request.addfinalizer(g.close)
    task = {"kind": "code", "language": "python", "completion": f"```python\n{PIN}\n```",
            "tests": [{"stdin": "", "expected_stdout": "2\n"}],
            "test_code": "import os\nassert len(os.sched_getaffinity(0)) == os.cpu_count(), 'pinned'\nassert f(1) == 2"}
    r = g.grade(task)
    assert r["verdict"] == "accepted", r
    # another completion, next in the container: its judge is not forked from a zygote that the
    # last one changed before any fork (the check compares with the mother's state at start)
    assert g.grade(dict(task, test_code=None))["verdict"] == "accepted"
    other = {"kind": "code", "language": "python", "completion": "```python\ndef f(x):\n    return x + 1\n```",
             "test_code": task["test_code"]}
    assert g.grade(other)["verdict"] == "accepted"


# A judged program (serve.py, the program's uid) against its judge (a fork of the zygote: real and
# saved uid the judge's, effective the program's) and the warm processes: signals, ptrace,
# process_vm_readv, its memory and fds by path, prlimit. f returns what worked.
JUDGE_REACH = OURS + r'''
import ctypes, os, resource, signal
libc = ctypes.CDLL(None, use_errno=True)
reached, seen = [], 0
for p in os.listdir("/proc"):
    if not p.isdigit() or int(p) in (1, os.getpid()):
        continue
    pid = int(p)
    try:
        if ours(p):
            continue
    except OSError:
        continue
    seen += 1
    for sig in (signal.SIGSTOP, signal.SIGKILL):
        try:
            os.kill(pid, sig)
            reached.append(f"kill {sig.name}")
        except OSError:
            pass
    if libc.ptrace(16, pid, 0, 0) == 0:  # PTRACE_ATTACH
        reached.append("ptrace")
    buf = ctypes.create_string_buffer(16)
    local = (ctypes.c_void_p * 2)(ctypes.addressof(buf), 16)
    remote = (ctypes.c_void_p * 2)(0x400000, 16)
    if libc.process_vm_readv(pid, local, 1, remote, 1, 0) > 0:
        reached.append("process_vm_readv")
    for what in ["mem"] + [f"fd/{n}" for n in range(16)]:
        try:
            os.close(os.open(f"/proc/{p}/{what}", os.O_RDONLY | os.O_NONBLOCK))
            target = os.readlink(f"/proc/{p}/{what}") if what.startswith("fd/") else what
            if target != "/dev/null":
                reached.append(target)
        except OSError:
            pass
    try:
        resource.prlimit(pid, resource.RLIMIT_CPU, (1, 1))
        reached.append("prlimit")
    except OSError:
        pass
def f(x):
    return seen, sorted(set(reached))
'''


def test_a_judged_program_cannot_reach_its_warm_judge(any_grader):
    r = any_grader.grade({"kind": "code", "language": "python", "completion": f"```python\n{JUDGE_REACH}\n```",
                          "test_code": "seen, got = f(1)\nassert seen >= 3 and got == [], (seen, got)"})  # the mother, the zygote, the judge
    assert r["verdict"] == "accepted", r
    grades_right(any_grader)


CHANGED_WARM = """
import os, resource, sys
sys.path.insert(0, os.path.abspath("sandbox/harness"))
import warm_keeper as warm_side

warm = warm_side.Warm()
warm.start()
mother = warm.mother_pid
try:
    assert warm.wait_ready(), warm.info()
    first = warm.pid
    warm.check()
    assert (warm.pid, warm.replaced) == (first, 0)  # unchanged: kept
    resource.prlimit(first, resource.RLIMIT_NOFILE, (77, 77))
    warm.check()
    assert warm.pid not in (0, first) and warm.replaced == 1 and warm.wait_ready()
    resource.prlimit(mother, resource.RLIMIT_NOFILE, (77, 77))
    warm.check()
    assert (warm.pid, warm.mother_pid, warm.broken) == (0, 0, True)
finally:
    warm.lose_mother()
    os.waitpid(mother, 0)  # our child: killed, reaped here
print("checked")
"""


def test_the_check_replaces_a_changed_zygote_and_ends_a_changed_mother():
    """What no program can do to them (prlimit needs all their uids: the tests above), done here to
    real warm processes of this test's own uid, to show the runner's check after a run sees it.
    In a fresh, single-threaded interpreter, as the runner is: forked from pytest's process, whose
    gRPC threads may hold a lock at the fork, the zygote hung in its imports (a clean-clone CI run)."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    done = subprocess.run([sys.executable, "-c", CHANGED_WARM], cwd=root, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(root)})
    assert done.returncode == 0 and done.stdout.strip() == "checked", done.stderr[-2000:]

"""Real containers: the warm interpreter (docs/sandboxes.md, "The warm interpreter"; sandbox/harness/zygote.py).
A forked program must see what an exec of `python3 -I prog.py` sees, find no other job's data in its
memory, leave nothing to the next test, and reach neither the zygote nor its mother."""
from __future__ import annotations

import contextlib
import json
import re
import secrets

import pytest

from tests.helpers import kernel_differs, on_backend, one_sandbox, program_uids

pytestmark = pytest.mark.docker
POOL = "pytest-sandbox-warm"


# Every test here runs on every backend (tests/conftest.py `any_grader`): one warm Python sandbox, made by
# tests/helpers.py one_sandbox with these settings.
SANDBOX = {"pool_name": f"{POOL}-1", "warm_fork": "on"}


def program_ids(text: str, backend: str) -> str:
    """`text` with each program uid/gid as `PROGRAM`: under Docker each container's program has a host uid of its
    own (tests/helpers.py program_uids), so a warm box and an exec box differ in the number, never in the role."""
    uids = program_uids(backend)
    return re.sub(r"\d+", lambda m: "PROGRAM" if int(m.group()) in uids else m.group(), text)


@pytest.fixture(scope="module")
def exec_graders():
    """Graders that start every run as an interpreter of its own (warm_fork off), per backend."""
    with contextlib.ExitStack() as stack:
        made: dict = {}

        def get(backend: str):
            if backend not in made:
                made[backend] = stack.enter_context(one_sandbox(backend, f"{POOL}-{backend}-0", warm_fork="off"))
            return made[backend]

        yield get


def py(code: str, tests=(("1 2\n", "3\n"),), **kw) -> dict:
    return {"kind": "code", "language": "python", "completion": f"```python\n{code}\n```",
            "tests": [{"stdin": i, "expected_stdout": o} for i, o in tests], **kw}


def outputs(grader, code: str, stdins=("",), **kw) -> list[str]:
    r = grader.grade(py(code, [(s, "") for s in stdins], return_output=True, scoring="fraction", **kw))
    assert len(r["tests"]) == len(stdins), r
    return [t.get("stdout", "") for t in r["tests"]]


# What a program can observe of its process: the exec path and the fork path must print the same.
PROBE = r'''
import ctypes, io, os, resource, signal, sys, threading, atexit
facts = {}
facts["flags"] = str(sys.flags)
facts["streams"] = [(s.name, s.mode, s.encoding, s.errors, s.line_buffering, s.write_through, type(s.buffer).__name__)
                    for s in (sys.stdin, sys.stdout, sys.stderr)]
facts["same_std"] = [sys.stdin is sys.__stdin__, sys.stdout is sys.__stdout__, sys.stderr is sys.__stderr__]
facts["stdin"] = repr(sys.stdin.read())
facts["main"] = [__name__, os.path.basename(__file__), os.path.dirname(__file__) == os.getcwd(), __spec__, __package__,
                 __cached__, type(__loader__).__name__, sorted(globals()), sys.modules["__main__"] is sys.modules[__name__]]
facts["argv"] = [sys.argv, sys.orig_argv, sys.path, sys.executable]
facts["ids"] = [os.getresuid(), os.getresgid(), os.getgroups()]
facts["session"] = [os.getsid(0) == os.getpid(), os.getpgid(0) == os.getpid()]
facts["limits"] = [(n, resource.getrlimit(getattr(resource, n))) for n in sorted(dir(resource)) if n.startswith("RLIMIT_")]
status = dict(line.split(":", 1) for line in open("/proc/self/status").read().splitlines())
facts["status"] = [status.get(k, "").strip() for k in ("NoNewPrivs", "Seccomp", "CapEff", "CapPrm", "CapBnd", "SigBlk", "SigIgn", "SigCgt", "Cpus_allowed_list")]
facts["oom"] = open("/proc/self/oom_score_adj").read()
facts["dumpable"] = ctypes.CDLL(None).prctl(3, 0, 0, 0, 0)
facts["umask"] = os.umask(0o22)
facts["env"] = sorted(os.environ.items())
facts["cwd"] = os.path.basename(os.getcwd()) != ""
facts["fds"] = sorted(os.listdir("/proc/self/fd"))
facts["signals"] = [(s.name, str(signal.getsignal(s))) for s in signal.Signals if s not in (signal.SIGKILL, signal.SIGSTOP)]
facts["nice"] = [os.getpriority(os.PRIO_PROCESS, 0), sorted(os.sched_getaffinity(0)), os.sched_getscheduler(0)]
facts["threads"] = threading.active_count()
facts["encoding"] = [sys.getdefaultencoding(), sys.getfilesystemencoding(), open(os.devnull).encoding]
def depth(n=0):
    try:
        return depth(n + 1)
    except RecursionError:
        return n
facts["depth"] = depth()
class Late:
    def __del__(self):
        print("del ran")
late = Late()
atexit.register(lambda: print("atexit ran"))
printed = threading.Event()  # the thread prints after the facts, still running when the main thread ends
threading.Thread(target=lambda: (printed.wait(), __import__("time").sleep(0.1), print("thread ran"))).start()
print(__import__("json").dumps(facts, sort_keys=True, default=str), flush=True)
printed.set()
'''


def test_a_forked_program_sees_what_an_exec_sees(any_grader, exec_graders, backend):
    stdin = "x\r\ny \xff\n"  # no newline translation, and the same decoding of bytes that are not UTF-8
    warm = outputs(any_grader, PROBE, [stdin])[0]
    cold = outputs(exec_graders(backend), PROBE, [stdin])[0]
    assert warm.splitlines()[1:] == ["thread ran", "atexit ran", "del ran"], warm
    got, want = json.loads(warm.splitlines()[0]), json.loads(cold.splitlines()[0])
    assert want["depth"] > 900 and want["ids"][0][0] == want["ids"][0][2]
    got["ids"], want["ids"] = (program_ids(str(f["ids"]), backend) for f in (got, want))
    assert got == want


@pytest.mark.parametrize("code", [
    "raise ValueError('boom')", "import sys; sys.exit('bye')", "import sys; sys.exit(3)", "x = (",
    "raise KeyboardInterrupt", "import sys; sys.stdout.write('no newline')", "import wire",
    "import sys; print(sys.stdin.read().encode())", "def f(): return f()\nf()",
    "import sys; print(3); sys.stdout.close()", "import os; print(3, end=''); os.close(1)",
])
def test_exits_and_errors_are_the_same_as_under_exec(any_grader, exec_graders, backend, code):

    def facts(g):
        r = g.grade(py(code, [("a\xff\n", "z\n")], return_output=True))
        t = r["tests"][0] if r["tests"] else {}  # a syntax error never runs: compile_error
        return (r["verdict"], t.get("exit_code"), t.get("signal"), t.get("stdout"),
                re.sub(r"/work/[^/]+/", "/work/JOB/", t.get("detail", "")))

    assert facts(any_grader) == facts(exec_graders(backend))


def test_a_program_finds_no_other_jobs_data_in_its_memory(any_grader):
    """Job A's stdin, expected output and tests pass through the runner; job B (a stdin program and
    a judged one) reads every readable page of its own memory for them."""
    tag = secrets.token_hex(8)
    # a few KB each: freed, they stay in the runner's heap (a mother forked after them showed 121 hits)
    stdin, expected, tests = f"IN{tag}\n" * 400, f"OUT{tag}\n", f"assert f(1) == 'TST{tag}'\n" * 200
    assert any_grader.grade(py("print('OUT' + input()[2:])", [(stdin, expected)]))["verdict"] == "accepted"
    r = any_grader.grade({"kind": "code", "language": "python", "test_code": tests,
                          "completion": f"```python\ndef f(x):\n    return 'TST{tag}'\n```"})
    assert r["verdict"] == "accepted", r
    scan = SCAN.replace("TAG_REVERSED", tag[::-1])
    assert outputs(any_grader, scan) == ["clean found-own-copy\n"]
    r = any_grader.grade({"kind": "code", "language": "python", "completion": f"```python\n{scan}\n```",
                          "test_code": "assert found() == 'clean found-own-copy', found()"})
    assert r["verdict"] == "accepted", r


# Reads every readable anonymous page of its own memory (heap, stack, mmap) into one buffer,
# allocated once (hits inside it are the scan's own), through /proc/self/mem (made ours first: a
# judged program is not dumpable, so the file is root's). The full needles (IN/OUT/TST + tag) never exist in this
# process but in `planted`, which proves that the scan sees the heap: the regex holds a prefix of
# the tag, the rest of the tag is compared piecewise.
SCAN = r'''
import ctypes, os, re
def found():
    tag = "TAG_REVERSED"[::-1]
    pattern = re.compile(rb"(IN|OUT|TST)" + tag[:6].encode())
    rest = tag[6:].encode()
    planted = bytearray(3 + len(tag))
    planted[:3] = b"OUT"
    planted[3:] = tag.encode()
    at_planted = ctypes.addressof((ctypes.c_char * len(planted)).from_buffer(planted))
    buf = bytearray(1 << 20)
    view = memoryview(buf)
    at_buf = ctypes.addressof((ctypes.c_char * len(buf)).from_buffer(buf))
    ctypes.CDLL(None).prctl(4, 1, 0, 0, 0)  # PR_SET_DUMPABLE
    fd = os.open("/proc/self/mem", os.O_RDONLY)
    hits, seen, read = 0, False, 0
    for line in open("/proc/self/maps").read().splitlines():
        parts = line.split()
        if parts[1][0] != "r" or (len(parts) > 5 and not parts[5].startswith("[")) or parts[-1] in ("[vvar]", "[vsyscall]", "[vdso]"):
            continue
        lo, hi = (int(x, 16) for x in parts[0].split("-"))
        at = lo
        while at < hi:
            try:
                n = os.preadv(fd, [view[:min(len(buf), hi - at)]], at)
            except OSError:
                n = 0
            read += n
            for m in pattern.finditer(view[:n]):
                where = at + m.start()
                if bytes(view[m.end():m.end() + len(rest)]) != rest or at_buf <= where < at_buf + len(buf):
                    continue
                if where == at_planted:
                    seen = True
                else:
                    hits += 1
            at += max(1, n - 64) if n > 64 else 4096
    return ("clean" if not hits else f"found {hits}") + (" found-own-copy" if seen else f" scan-blind {read}")
if __name__ == "__main__":
    print(found())
'''


def test_what_a_test_changes_in_a_preloaded_module_is_gone_in_the_next(any_grader):
    code = ("import math, json, typing, collections\n"
            "print(math.pi, json.dumps([1]), typing.List[int], collections.Counter('aab')['a'])\n"
            "math.pi = 3; json.dumps = lambda x: 'forged'; typing.List = None; collections.Counter = dict\n")
    want = "3.141592653589793 [1] typing.List[int] 2\n"
    assert any_grader.grade(py(code, [("", want)] * 3))["verdict"] == "accepted"


def test_the_zygote_preloads_no_numpy_pandas_or_scipy_and_a_program_imports_them(any_grader):
    """zygote.WARM leaves them out (0.2-1 s and 20-60 MB each, counted in every test's memory, and a
    library loaded in the zygote would bring its at-fork handlers into every clone); the judge's
    wire_rich imported numpy there until stop 28. A program that imports them gets them."""
    got = outputs(any_grader, "import sys\nprint(sorted(m for m in ('numpy', 'pandas', 'scipy') if m in sys.modules))\n"
                              "import numpy as np\nprint(int(np.arange(4).sum()))")
    assert got == ["[]\n6\n"], got


def test_each_test_draws_fresh_random_numbers(any_grader):
    got = outputs(any_grader, "import random, uuid\nprint(random.random(), random.getrandbits(64), uuid.uuid4())",
                  ["", "", "", ""])
    assert len({line.split()[0] for line in got}) == 4 and len({line.split()[1] for line in got}) == 4, got


def test_a_forked_program_is_one_process_with_no_middle_process(any_grader, backend):
    """Each forked program is one process, so no middle process takes a pid between two tests. Under
    docker the zygote forks it as its own sibling (clone(CLONE_PARENT): zygote.py clone_parent), PID
    1's child (the runner waits for it, kills it, counts its CPU time); gVisor ignores the flag, and
    there the program is the zygote's own child, which reaps it and reports its end to the runner
    (zygote.py fork_watched; docs/sandboxes.md, "The warm interpreter"). A judge's program process is
    PID 1's child on every backend."""
    got = outputs(any_grader, "import os\nprint(os.getpid(), os.getppid())", ["", "", "", ""])
    pids = [int(line.split()[0]) for line in got]
    parents = {line.split()[1] for line in got}
    zygote = on_backend(backend, False, kernel_differs(True, "gVisor's kernel ignores CLONE_PARENT: the zygote is the parent"))
    assert len(parents) == 1 and (parents != {"1"}) == zygote, got
    assert [b - a for a, b in zip(pids, pids[1:])] == [1] * 3, got
    judged = {"kind": "code", "language": "python", "entry_point": "parent",
              "completion": "```python\nimport os\ndef parent():\n    return os.getppid()\n```",
              "call_tests": [{"args": [], "expected": 1}]}
    assert any_grader.grade(judged)["verdict"] == "accepted"


# Run in job 1: lower the priority and the CPU set of every process this uid can reach (sched_setaffinity
# and setpriority only need an effective uid in common: the warm interpreter's two processes), and try
# what needs more (signals, ptrace, their fds). Job 2 then shows what its own process inherited.
ATTACK = r'''
import os, signal, stat
me = os.getuid()
reached = []
own = {(st.st_dev, st.st_ino) for st in map(os.fstat, (0, 1, 2))}  # the zygote holds them while it forks us

def counts(st):
    """A channel of theirs: not a named file or folder (their own modes decide), a device open to all, or our own stream."""
    m = st.st_mode
    return not (stat.S_ISREG(m) or stat.S_ISDIR(m) or (st.st_dev, st.st_ino) in own or stat.S_ISCHR(m) and m & 0o666 == 0o666)
for p in os.listdir("/proc"):
    if not p.isdigit() or int(p) in (os.getpid(), 1):
        continue
    pid = int(p)
    try:
        uids = [int(x) for x in open(f"/proc/{p}/status").read().split("Uid:")[1].split("\n")[0].split()]
    except OSError:
        continue
    if uids[0] == me:
        continue
    for sig in (signal.SIGKILL, signal.SIGSTOP, signal.SIGTERM):
        try:
            os.kill(pid, sig)
            reached.append(f"kill {sig.name}")
        except PermissionError:
            pass
    for what in ["mem", "environ"] + [f"fd/{n}" for n in range(8)]:
        try:
            with open(f"/proc/{p}/{what}", "rb") as f:
                if what.startswith("fd/") and counts(os.fstat(f.fileno())):
                    reached.append(f"{what} {stat.filemode(os.fstat(f.fileno()).st_mode)}")
                elif not what.startswith("fd/"):
                    reached.append(what)
        except OSError:
            pass
    for change in (lambda: os.setpriority(os.PRIO_PROCESS, pid, 19), lambda: os.sched_setaffinity(pid, {min(os.sched_getaffinity(0))})):
        try:
            change()
        except OSError:
            pass
print(sorted(set(reached)))
'''


def test_the_warm_processes_are_out_of_reach(any_grader, backend):
    reached = outputs(any_grader, ATTACK)[0]
    # gVisor shows a same-effective-uid process its environment (the container's, as PID 1's) and lets it
    # open the fds of another's that are not sockets: the warm processes hold no channel but sockets (pid1.py
    # channel; a fd that opens is a named file, /dev/null or our own std stream while the zygote forks us)
    allowed = on_backend(backend, "[]\n", kernel_differs("['environ']\n", "gVisor's /proc shows it"))
    assert reached in ("[]\n", allowed), reached
    look = "import os\nprint(os.getpriority(os.PRIO_PROCESS, 0), len(os.sched_getaffinity(0)) == os.cpu_count())"
    assert outputs(any_grader, look, ["", ""]) == ["0 True\n", "0 True\n"]
    assert any_grader.grade(py("print(int(input()) + 1)", [("1\n", "2\n")]))["verdict"] == "accepted"


# A judged task's program process (serve.py's loop: harness/judge.py start_program), seen from
# inside: facts(KEY) returns a digest of one fact (a call test's detail shows it whole), or the
# fact itself for "loaded" (which preloaded modules it finds: a fork of the zygote finds them).
JUDGED_PROBE = r'''
import ctypes, hashlib, json, os, resource, signal, sys

def spin():
    while True:
        pass

def depth(n=0):
    try:
        return depth(n + 1)
    except RecursionError:
        return n

def fds():
    """What each open fd is (not its number), std streams first."""
    found = {}
    for n in os.listdir("/proc/self/fd"):
        try:
            found[int(n)] = os.readlink(f"/proc/self/fd/{n}").split(":")[0]
        except OSError:  # listdir's own
            pass
    return [found.get(n) for n in (0, 1, 2)] + sorted(v for n, v in found.items() if n > 2)

def facts(key):
    if key == "loaded":
        return sorted(m for m in ("statistics", "tempfile", "fractions") if m in sys.modules)
    status = dict(line.split(":", 1) for line in open("/proc/self/status").read().splitlines())
    # by role (the real uid and gid as R): under Docker each box's program has a host uid of its own
    fact = {"ids": lambda: [[i if i != os.getuid() else "R" for i in os.getresuid()],
                            [i if i != os.getgid() else "R" for i in os.getresgid()], os.getgroups()],
            "limits": lambda: [(n, resource.getrlimit(getattr(resource, n))) for n in sorted(dir(resource)) if n.startswith("RLIMIT_")],
            "status": lambda: [status.get(k, "").strip() for k in ("NoNewPrivs", "Seccomp", "CapEff", "CapPrm", "CapBnd", "SigBlk", "SigIgn", "Cpus_allowed_list")],
            "oom": lambda: open("/proc/self/oom_score_adj").read(),
            "dumpable": lambda: ctypes.CDLL(None).prctl(3, 0, 0, 0, 0),
            "env": lambda: sorted(os.environ.items()),
            "fds": fds,
            "signals": lambda: [(s.name, str(signal.getsignal(s))) for s in signal.Signals if s not in (signal.SIGKILL, signal.SIGSTOP)],
            "main": lambda: [__name__, sys.argv, sys.path, sorted(m for m in ("judge", "kinds", "zygote", "runner") if m in sys.modules)],
            "depth": depth, "nice": lambda: [os.getpriority(os.PRIO_PROCESS, 0), os.sched_getscheduler(0)]}[key]()
    return hashlib.sha256(json.dumps(fact, default=str).encode()).hexdigest()[:16]
'''
JUDGED_FACTS = ("ids", "limits", "status", "oom", "dumpable", "env", "fds", "signals", "main", "depth", "nice")


def judged_facts(grader) -> dict:
    """Each fact of a judged program process, before and after a call that timed out (the judge then
    starts a fresh one: judge.py Program.restart)."""
    calls = [{"args": [k], "expected": None} for k in ("loaded",) + JUDGED_FACTS]
    task = {"kind": "code", "language": "python", "completion": f"```python\n{JUDGED_PROBE}\n```", "time_limit_s": 1,
            "entry_point": "facts", "scoring": "fraction",
            "call_tests": calls + [{"args": ["spin"], "expected": None}] + calls}
    task["completion"] = task["completion"].replace("def facts(key):\n", "def facts(key):\n    if key == 'spin':\n        spin()\n")
    r = grader.grade(task)
    n = len(calls)
    assert r["tests"][n]["verdict"] == "time_limit", r["tests"][n]
    details = [t["detail"] for t in r["tests"]]
    return {"first": dict(zip(("loaded",) + JUDGED_FACTS, details[:n])),
            "restarted": dict(zip(("loaded",) + JUDGED_FACTS, details[n + 1:]))}


def test_a_judged_program_is_a_fork_of_the_zygote_that_sees_what_an_exec_sees(any_grader, exec_graders, backend):
    """Under warm mode the program process of call/assert/pytest tasks is forked from the zygote (it
    finds the preloaded modules), also when started again after a timeout; every other fact of it
    is what a new interpreter running serve.py shows (warm_fork off), the numbers of its channel fds
    aside (docs/sandboxes.md "The warm interpreter" lists what differs: its session is its own)."""
    warm = judged_facts(any_grader)
    cold = judged_facts(exec_graders(backend))
    loaded = "expected None, got ['fractions', 'statistics', 'tempfile']"
    assert warm["first"]["loaded"] == warm["restarted"]["loaded"] == loaded, warm
    assert cold["first"]["loaded"] == cold["restarted"]["loaded"] == "expected None, got ['fractions']", cold
    for when in ("first", "restarted"):
        differ = [k for k in JUDGED_FACTS if warm[when][k] != cold[when][k]]
        assert not differ, (when, differ)


@pytest.mark.parametrize("kind", ["call", "assert", "pytest"])
def test_a_judged_program_forked_from_the_zygote_holds_no_byte_of_the_tests(any_grader, kind):
    """The attacks of tests/test_sandbox_security.py on a judged program, here with its process forked
    from the zygote on both backends (warm_fork on): its own memory, whatever it can reach of others'
    in /proc, and the runner's and judge's fds through /proc hold nothing of the tests."""
    from tests import test_sandbox_security as sec

    assert any_grader.grade(sec.add_task(kind, sec.STEAL))["verdict"] == "wrong_answer"
    assert any_grader.grade(sec.add_task(kind, sec.STEAL.replace("a - b)", "a + b)")))["verdict"] == "accepted"
    for code, name in ((sec.LEAKS, "leaks"), (sec.PROC_LEAKS, "proc_leaks"), (sec.OTHERS_FDS, "others_fds")):
        task = {"language": "python", "completion": code, "time_limit_s": 10}
        if kind == "call":
            task.update(entry_point=name, call_tests=[{"args": [], "expected": []}, {"args": [], "expected": [sec.MARKER]}])
        elif kind == "assert":
            task["test_code"] = f"got = {name}()\nassert got == [], got\nassert got != [{sec.MARKER!r}]\n"
        else:
            task.update(test_framework="pytest", test_code=f"from solution import {name}\n\ndef test_none():\n"
                        f"    got = {name}()\n    assert got == [], got\n    assert got != [{sec.MARKER!r}]\n")
        r = any_grader.grade(task)
        assert r["tests"][0]["verdict"] == "accepted", (name, r)


ZOMBIES = r'''
import os

def zombies(spin):
    """How many zombie processes /proc shows (program processes ended and not yet reaped)."""
    while spin:
        pass
    found = 0
    for pid in os.listdir("/proc"):
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                found += f.read().rpartition(b")")[2].split()[0] == b"Z"
        except (OSError, IndexError):
            pass
    return found
'''


def test_program_processes_the_judge_started_again_leave_no_zombies(any_grader):
    """Each timeout ends a program process forked for the judge (the runner's child, not the
    judge's): the runner reaps it before it forks the next, so restarts cannot fill the pids limit."""
    calls = [{"args": [True], "expected": 0}] * 3 + [{"args": [False], "expected": 0}]
    r = any_grader.grade({"kind": "code", "language": "python", "completion": f"```python\n{ZOMBIES}\n```",
                          "entry_point": "zombies", "call_tests": calls, "time_limit_s": 0.5, "scoring": "fraction"})
    assert [t["verdict"] for t in r["tests"]] == ["time_limit"] * 3 + ["accepted"], r


# Last in this file: under gVisor, a run killed for memory leaves the container without its warm
# interpreter (every later run an exec until the container is recycled), which the tests above check for.
@pytest.mark.parametrize("mb", [40, 80, 200])
def test_memory_verdicts_are_the_same_as_under_exec(any_grader, exec_graders, backend, mb):
    """The warm processes' memory is added to the container's limit (SandboxConfig.overhead_mb): a
    program holding as much as before gets the verdict it got before, under and over its 64 MB."""
    code = f"x = bytearray({mb} << 20)\nfor i in range(0, len(x), 4096):\n    x[i] = 1\nprint(3)"
    task = py(code, memory_limit_mb=64)
    verdicts = {any_grader.grade(task)["verdict"], exec_graders(backend).grade(task)["verdict"]}
    # under Docker's runsc the watchdog samples the cgroup every 20 ms: a program over its limit for less than a
    # period can end first (docs/sandboxes.md "Sandbox backends", its Weaker notes), accepted by one grader and stopped by the other
    overshoot = on_backend(backend, set(), {"runsc": ({"accepted", "memory_limit"}, "the watchdog's 20 ms period")})
    assert len(verdicts) == 1 or (mb > 64 and verdicts <= overshoot), verdicts

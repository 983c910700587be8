"""Real containers: what a program may do to PID 1, the container and the harness, and what
reaches the next job. Each case is a finding of the sandbox security review (issue 3): a program
does the attack, then an innocent job in the same container must be unaffected (or the container
must have been recycled)."""
from __future__ import annotations

import os
import platform
import resource

import pytest

from sandbox import SandboxConfig
from tests.helpers import GVISOR_KERNEL, kernel_differs, on_backend, program_uids, userns_mode

pytestmark = pytest.mark.docker


# Every test here runs on every backend (tests/conftest.py `any_grader`): one Python sandbox, made by
# tests/helpers.py one_sandbox with these settings.
SANDBOX = {"pool_name": "pytest-sandbox-sec"}


def py(code: str, tests=(("1 2\n", "3\n"),), **kw) -> dict:
    return {"kind": "code", "language": "python", "completion": f"```python\n{code}\n```",
            "tests": [{"stdin": i, "expected_stdout": o} for i, o in tests], **kw}


INNOCENT = py("a, b = map(int, input().split())\nx = bytearray(150 << 20)\nprint(a + b)")


# ---------------------------------------------------------------- F3: signals to PID 1
@pytest.mark.in_process  # reads the pool's recycle count
def test_sigint_to_pid1_is_ignored(any_grader, backend):
    before = any_grader.grader.stats()["containers_recycled"]
    r = any_grader.grade(py("import os, signal\nos.kill(1, signal.SIGINT)\nprint(4)"))
    # the runner's real uid is not the program's (sandbox/harness/runner.py): no signal reaches it
    assert r["verdict"] == "runtime_error" and "PermissionError" in r["detail"], r
    assert any_grader.grade(INNOCENT)["verdict"] == "accepted"
    recycled = any_grader.grader.stats()["containers_recycled"] - before
    assert recycled in on_backend(backend, (0,), kernel_differs((0, 1, 2), (
        "the pool also replaces a gVisor box whose kernel's memory reads over its rest "
        "(docs/sandboxes.md \"Sandbox backends\"): seen once in 3 runs after these two jobs; the PermissionError "
        "above is the runner's refusal"))), recycled


# ---------------------------------------------------------------- F1: PID 1's limits, affinity, nice
@pytest.mark.in_process  # reads the program's output (return_output is not on the wire)
@pytest.mark.parametrize("attack", [
    "resource.prlimit(1, resource.RLIMIT_AS, (120 << 20, 120 << 20))",
    "resource.prlimit(1, resource.RLIMIT_NOFILE, (16, 16))",
    "os.sched_setaffinity(1, {min(os.sched_getaffinity(1))})",
    "os.setpriority(os.PRIO_PROCESS, 1, 19)",
    "os.sched_setscheduler(1, os.SCHED_IDLE, os.sched_param(0))",  # issue 9: scheduling policy
    "ctypes.CDLL(None).syscall(251, 1, 1, 3 << 13)",  # issue 9: ioprio_set(PROCESS, 1, IDLE class)
])
def test_pid1_limits_changed_by_a_program_do_not_reach_the_next_job(any_grader, backend, attack):
    if "syscall(251" in attack and platform.machine() != "x86_64":
        pytest.skip("ioprio_set syscall number is x86_64's")
    look = ("import ctypes, os, resource\nprint(resource.getrlimit(resource.RLIMIT_AS)[0], resource.getrlimit(resource.RLIMIT_NOFILE)[0],"
            " len(os.sched_getaffinity(0)) == os.cpu_count(), os.getpriority(os.PRIO_PROCESS, 0), os.sched_getscheduler(0),"
            " ctypes.CDLL(None).syscall(252, 1, 0))")
    first = any_grader.grade(py(look, tests=(("", ""),), return_output=True))["tests"][0]["stdout"]
    assert first.startswith(f"{resource.RLIM_INFINITY} 256 True 0 {os.SCHED_OTHER} "), first
    r = any_grader.grade(py(f"import ctypes, os, resource\n{attack}\nprint(3)"))
    if "prlimit" in attack:  # the runner's real uid is not the program's: EPERM
        assert r["verdict"] == "runtime_error" and "PermissionError" in r["detail"], r
    elif "syscall(251" in attack:  # EPERM too, which a raw syscall returns rather than raises
        assert r["verdict"] == "accepted", r
    elif backend == "userns" and userns_mode() == "landlock":  # the program's filter: on itself only (confine.py)
        assert r["verdict"] == "runtime_error" and "PermissionError" in r["detail"], r
    elif "SCHED_IDLE" in attack and backend in GVISOR_KERNEL:  # gVisor's kernel has no SCHED_IDLE: EINVAL, refused
        assert r["verdict"] == "runtime_error" and "Invalid argument" in r["detail"], r
    else:  # Linux checks only the effective uid here: done, seen, the container recycled
        assert r["verdict"] == "runtime_error" and "supervisor" in r["detail"], r
    assert any_grader.grade(py(look, tests=(("", first),)))["verdict"] == "accepted"
    assert any_grader.grade(INNOCENT)["verdict"] == "accepted"



# ---------------------------------------------------------------- the kept roots' inode flags
# /work is the program's own directory and is kept from job to job: the reset wipes what is in it and its
# mode, xattrs and times, and gives it back its inode flags as the box started (sandbox/harness/leftovers.py
# restore_flags). An owner may set FS_NODUMP_FL and FS_NOATIME_FL on a tmpfs inode without a capability
# (FS_IOC_SETFLAGS; tmpfs has them since Linux 6.0): two bits one job left for the next (red team of issue 30).
FLAGS = """import fcntl, os, struct
try:
    fd = os.open('/work', os.O_RDONLY)
    flags = struct.unpack('i', fcntl.ioctl(fd, 0x80086601, struct.pack('i', 0)))[0]  # FS_IOC_GETFLAGS
except OSError as e:
    print('no flags', e.errno)
else:
    if {set}:
        fcntl.ioctl(fd, 0x40086602, struct.pack('i', flags | 0x40 | 0x80))  # FS_IOC_SETFLAGS: NODUMP | NOATIME
    print(hex(struct.unpack('i', fcntl.ioctl(fd, 0x80086601, struct.pack('i', 0)))[0]))"""
NO_FLAGS = kernel_differs("no flags 25", "gVisor's tmpfs has no FS_IOC_GETFLAGS or SETFLAGS (ENOTTY): nothing to leave")


def _flags(g, set_them: bool) -> str:
    r = g.grade(py(FLAGS.format(set=set_them), tests=(("", ""),), return_output=True))
    return r["tests"][0]["stdout"].strip()


def work_flags_reach_no_next_job(g, backend: str) -> None:
    """Near miss: the job that sets the flags reads them back itself; the next job reads the fresh value."""
    before, none = _flags(g, False), on_backend(backend, None, NO_FLAGS)  # None: the host's tmpfs, flags it has
    assert before == (none or before) and _flags(g, True) == (none or hex(int(before, 16) | 0xc0)), before
    assert _flags(g, False) == before
    assert g.grade(INNOCENT)["verdict"] == "accepted"


@pytest.mark.in_process  # reads the program's output (return_output is not on the wire)
def test_inode_flags_of_work_do_not_reach_the_next_job(any_grader, backend):
    """Found on docker and userns: the next job read 0xc0 on /work."""
    work_flags_reach_no_next_job(any_grader, backend)

# ---------------------------------------------------------------- F2: SysV IPC and POSIX queues
# Each kind of IPC object made and then looked up by its key or name (system calls every kernel has: gVisor
# has neither /proc/sysvipc nor /dev/mqueue to list them).
IPC = r'''import ctypes, os
libc, rt = ctypes.CDLL(None, use_errno=True), ctypes.CDLL("librt.so.1", use_errno=True)
libc.shmat.restype = ctypes.c_void_p
def made():
    return [libc.shmget(0x1234, 0, 0) != -1, libc.msgget(0x1235, 0) != -1, libc.semget(0x1236, 0, 0) != -1,
            rt.mq_open(b"/leak", os.O_RDONLY) != -1]
'''
SHM_PLANT = IPC + r'''sid = libc.shmget(0x1234, 200 << 20, 0o1666)
ctypes.memset(libc.shmat(sid, None, 0), 7, 200 << 20)
libc.msgget(0x1235, 0o1666); libc.semget(0x1236, 1, 0o1666)
rt.mq_open(b"/leak", os.O_CREAT | os.O_WRONLY, 0o666, None)
print(made())'''


def test_ipc_objects_do_not_survive_the_job(any_grader, backend):
    made = on_backend(backend, "[True, True, True, True]", kernel_differs("[True, True, True, False]", (
        "POSIX queues are refused under gVisor, whose reset cannot list them (tests/test_sandbox_docker.py REFUSED)")))
    assert any_grader.grade(py(SHM_PLANT, tests=(("", made + "\n"),)))["verdict"] == "accepted"
    r = any_grader.grade(py(IPC + "print(made())", tests=(("", "[False, False, False, False]\n"),)))
    assert r["verdict"] == "accepted", r
    assert any_grader.grade(INNOCENT)["verdict"] == "accepted"


# ---------------------------------------------------------------- F4: forging the test_code harness
ADD_TESTS = "assert add(1, 2) == 3\nassert add(2, 2) == 4\n"
JUDGES = ("process",)  # how test_code runs: sandbox.contract.JUDGE_MODES ("shared" was removed, issue 16)
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
}
# Red team (issue 9), shared mode: the nonce found in the interpreter's memory, read from a place
# the audit hook does not watch: a process started by the built-in _posixsubprocess (fetched with
# _imp.create_builtin, no "import" event) reading /proc/<ppid>/mem, or a subinterpreter (no audit
# hook there) reading /proc/self/mem.
SCAN_FOR_NONCE = r"""
import os, re, struct, sys
pid, bt = int(sys.argv[1]), int(sys.argv[2])
pat = re.compile(re.escape(struct.pack('<Qq', bt, 32)) + rb'.{8}([0-9a-f]{32})\x00', re.S)
mem, found = open('/proc/%d/mem' % pid, 'rb', 0), []
for line in open('/proc/%d/maps' % pid):
    a, b = (int(x, 16) for x in line.split()[0].split('-'))
    if 'r' in line.split()[1] and b - a < 1 << 30 and '[v' not in line:
        try:
            mem.seek(a)
            found += [m.group(1) for m in pat.finditer(mem.read(b - a))]
        except OSError:
            pass
if found:
    for fd in range(1, 30):
        try:
            os.write(fd, b'ok:' + found[0])
        except OSError:
            pass
    os._exit(0)
"""
FORGERIES["nonce_from_memory_via_fork_exec"] = f"""import _imp, importlib.machinery, os
ps = _imp.create_builtin(importlib.machinery.ModuleSpec('_posixsubprocess', None))
args = [b'/usr/bin/python3', b'-c', {SCAN_FOR_NONCE!r}.encode(), str(os.getpid()).encode(), str(id(bytes)).encode()]
(r, w), (er, ew) = os.pipe(), os.pipe()
ps.fork_exec(args, [args[0]], True, (), None, [b'PATH=/usr/bin'], -1, -1, -1, w, -1, -1, er, ew,
             True, False, -1, None, None, None, -1, None, False)
os.close(w)
os.close(ew)
got = b''.join(iter(lambda: os.read(r, 1 << 16), b''))
for fd in range(3, 30):
    try:
        os.write(fd, got[:35])
    except OSError:
        pass
os._exit(0)"""
FORGERIES["nonce_from_memory_via_subinterpreter"] = f"""import _xxsubinterpreters as interpreters, os
code = {SCAN_FOR_NONCE!r}.replace('int(sys.argv[1])', str(os.getpid())).replace('int(sys.argv[2])', str(id(bytes)))
interpreters.run_string(interpreters.create(), code)
def add(a, b):
    return 0"""
SUBINTERPRETER_SCAN = """
interpreters.run_string(interpreters.create(), "import ctypes\\nctypes.CDLL(None).prctl(4, 1, 0, 0, 0)\\n" + {scan!r}
                        .replace('int(sys.argv[1])', str(os.getpid())).replace('int(sys.argv[2])', str(id(bytes))))
def add(a, b):
    return 0"""
FORGERIES["nonce_via_subinterpreter_under_another_name"] = (
    "import _imp, glob, importlib.machinery, os\n"
    "so = glob.glob('/usr/lib/python3.11/lib-dynload/_xxsubinterpreters*')[0]\n"
    "interpreters = _imp.create_dynamic(importlib.machinery.ModuleSpec('x._xxsubinterpreters', None, origin=so))"
    + SUBINTERPRETER_SCAN.format(scan=SCAN_FOR_NONCE))
FORGERIES["nonce_via_harness_state_switched_off"] = (  # closure cells and module globals are writable
    "import _imp, os, sys\n"
    "for wrapper in (_imp.create_builtin, _imp.create_dynamic):\n"
    "    for cell in wrapper.__closure__ or ():\n"
    "        if type(cell.cell_contents) is frozenset:\n"
    "            cell.cell_contents = frozenset()\n"
    "sys.modules['__main__'].BLOCKED_PREFIXES = ('zzz',)\n"
    "import _xxsubinterpreters as interpreters" + SUBINTERPRETER_SCAN.format(scan=SCAN_FOR_NONCE))
BLOCKED_IN_SHARED = {
    "fresh_posix": ("import _imp, importlib.machinery\n_imp.create_builtin(importlib.machinery.ModuleSpec('posix', None))\n"
                    "def add(a, b): return a + b"),
}
# Correct programs the removed shared mode refused, because its audit hook blocked what they do; the
# program's process holds no secret, so they may.
BLOCKED_IN_SHARED |= {
    "proc_mem_opened": "open('/proc/self/mem', 'rb')\ndef add(a, b): return a + b",
    "proc_mem_via_dev_fd": "open('/dev/fd/../mem', 'rb')\ndef add(a, b): return a + b",
    "proc_dir_fd": "import os\nos.open('/', os.O_RDONLY)\ndef add(a, b): return a + b",
    "subprocess": "import subprocess\nsubprocess.run(['true'])\ndef add(a, b): return a + b",
    "symlink": "import os\nos.symlink('/proc/self/mem', 'm')\ndef add(a, b): return a + b",
    "ctypes": "import ctypes\nctypes.string_at(id(1), 8)\ndef add(a, b): return a + b",
}


@pytest.mark.parametrize("judge", JUDGES)
@pytest.mark.parametrize("name", sorted(FORGERIES))
def test_harness_cannot_be_forged(any_grader, name, judge):
    r = any_grader.grade({"language": "python", "completion": FORGERIES[name], "test_code": ADD_TESTS, "judge": judge})
    assert r["verdict"] != "accepted" and r["score"] == 0.0, r


@pytest.mark.parametrize("name", sorted(BLOCKED_IN_SHARED))
def test_what_the_shared_mode_blocked_the_process_judge_allows(any_grader, name):
    task = {"language": "python", "completion": BLOCKED_IN_SHARED[name], "test_code": ADD_TESTS}
    if "proc_mem" not in name:  # /proc/self/mem stays closed: the program's process is forked non-dumpable
        assert any_grader.grade(task)["verdict"] == "accepted"


@pytest.mark.in_process  # reads the program's output (return_output is not on the wire)
def test_harness_still_runs_ordinary_programs(any_grader):
    code = ("import collections, typing, dataclasses, enum, itertools, math, re, functools\n"
            "P = collections.namedtuple('P', 'a b')\nclass C(enum.Enum):\n    X = 1\n"
            "@dataclasses.dataclass\nclass D:\n    x: int\n"
            "def add(a: int, b: int) -> int:\n    return P(a, b).a + D(b).x\n"
            "try:\n    raise ValueError\nexcept ValueError as e:\n    str(e.__traceback__.tb_lineno)\n"
            "import os\nassert not os.path.exists('tests.py')  # the tests never are in the program's files\n"
            "print(input.__name__, open('prog.py').read(3))")
    r = any_grader.grade({"language": "python", "completion": code, "test_code": ADD_TESTS, "return_output": True})
    assert r["verdict"] == "accepted", r
    bad = any_grader.grade({"language": "python", "completion": "def add(a, b): return a - b", "test_code": ADD_TESTS})
    assert bad["verdict"] == "wrong_answer", bad


# ---------------------------------------------------------------- F6, F8, F9: checkers
CHECKER = ("import sys\nout = open(sys.argv[2]).read().split(); ans = open(sys.argv[3]).read().split()\n"
           "sys.exit(0 if out == ans else 1)\n")
CHECKED = (("1 2\n", "3\n"), ("5 5\n", "10\n"), ("7 8\n", "15\n"))


def test_program_filling_the_disk_is_its_own_verdict(any_grader):
    """5,000 empty files: past tmpfs_inodes (4,096) the checker's files find no room. gVisor's tmpfs
    ignores the cap; the runner counts there (docs/sandboxes.md "Sandbox backends")."""
    fill = "import os\nfor i in range(5000):\n    try: open('f%d' % i, 'w').close()\n    except OSError: break\nprint(4)"
    r = any_grader.grade(py(fill, tests=CHECKED, checker=CHECKER))
    assert r["verdict"] == "output_limit" and not r["retryable"], r
    assert any_grader.grade(py("a, b = map(int, input().split())\nprint(a + b)", tests=CHECKED, checker=CHECKER))["verdict"] == "accepted"


def test_checker_answers_are_gone_before_the_next_test(any_grader):
    """F6: answer.txt of an earlier test stayed in /work/c*/ for the program's later tests."""
    peek = "import glob\na = glob.glob('/work/c*/*')\nprint(open(a[0]).read() if a else 0)"
    r = any_grader.grade(py(peek, tests=(("", "3\n"),) * 3, checker=CHECKER, scoring="fraction"))
    assert r["score"] == 0.0, r


def test_a_crashing_checker_is_infra_error_not_a_rejection(any_grader):
    """F9: an uncaught exception in the checker exited 1, which read as "rejected". A checker that
    fails on the reference answer too is the dataset's fault: infra_error, not retried."""
    broken = "import sys\nout = open(sys.argv[2]).read().split(); ans = open(sys.argv[3]).read().split()\nsys.exit(0 if int(out[0]) == int(ans[0]) + int(sys.argv[4]) else 1)\n"
    r = any_grader.grade(py("print(3)", checker=broken))
    assert r["verdict"] == "infra_error" and "checker failed" in r["detail"] and "IndexError" in r["detail"], r
    assert not r["retryable"]


STRICT_INT_CHECKER = ("import sys\nout = open(sys.argv[2]).read().split(); ans = open(sys.argv[3]).read().split()\n"
                      "sys.exit(0 if int(out[0]) == int(ans[0]) else 1)\n")


@pytest.mark.parametrize("output", ["'3.0'", "'not a number'", "'9' * 7_000_000", "''"])
def test_a_checker_crashing_on_the_programs_output_is_a_wrong_answer(any_grader, output):
    """The checker fails on this output (int() of garbage, Python's digit limit, nothing printed)
    but accepts the reference answer: the output is at fault, not the checker (was infra_error,
    reward None instead of 0)."""
    r = any_grader.grade(py(f"print({output})", checker=STRICT_INT_CHECKER))
    assert r["verdict"] == "wrong_answer" and not r["retryable"], r
    assert any_grader.grade(py("print(4)", checker=STRICT_INT_CHECKER))["verdict"] == "wrong_answer"  # exit 1 rejects
    assert any_grader.grade(py("print(3)", checker=STRICT_INT_CHECKER))["verdict"] == "accepted"


def test_no_room_to_confirm_the_checker_on_the_reference_is_the_programs_fault(any_grader):
    """The checker fails on the program's output ('x' is no int) and is then run on the reference
    answer, whose dir holds the 200 KB answer twice (as output.txt and answer.txt). The program
    filled /work but for 300 KB: room for the first dir, not the second. That was infra_error (the
    dataset's checker blamed, reward None); the program's own files made the room short."""
    fill = ("import os\ni = 0\ntry:\n    while True:\n        with open(f'f{i}', 'wb') as f:\n"
            "            for _ in range(60):\n                f.write(b'x' * (1 << 20))\n        i += 1\n"
            "except OSError:\n    pass\nos.truncate('f0', os.path.getsize('f0') - 300 * 1024)\nprint(OUT)")
    answer = "3\n" + "0\n" * 100_000
    r = any_grader.grade(py(fill.replace("OUT", "'x'"), tests=(("1 2\n", answer),), checker=STRICT_INT_CHECKER))
    assert r["verdict"] == "wrong_answer" and not r["retryable"], r
    right = any_grader.grade(py(fill.replace("OUT", "3"), tests=(("1 2\n", answer),), checker=STRICT_INT_CHECKER))
    assert right["verdict"] == "accepted", right


# Red team (issue 9): what a program leaves behind (SysV shared memory, tmpfs files: charged to the
# container's memory; a nearly full /work) outlives it and starved the checker on its output AND on
# the reference answer, so its own failure came back infra_error "checker failed" (reward None).
HOLD_MEMORY = """import ctypes, os, sys, time
def rd(*paths):
    for p in paths:
        try:
            return int(open(p).read().split()[0])
        except (OSError, ValueError):
            pass
libc = ctypes.CDLL(None, use_errno=True)
libc.shmat.restype = ctypes.c_void_p
LIMIT = DEFAULT_MB << 20
def RSS():
    return int(open('/proc/self/statm').read().split()[1]) * os.sysconf('SC_PAGE_SIZE')
def hold(key, leave):
    # gVisor shows no cgroup files: the task's default limit, less what this process holds
    n = (rd('/sys/fs/cgroup/memory.max', '/sys/fs/cgroup/memory/memory.limit_in_bytes') or LIMIT) - (rd(
        '/sys/fs/cgroup/memory.current', '/sys/fs/cgroup/memory/memory.usage_in_bytes') or RSS()) - leave
    if n > 0:
        ctypes.memset(libc.shmat(libc.shmget(key, n, 0o1600), None, 0), 7, n)
hold(0x5eed, 40 << 20)
sys.stdout.write('ANSWER\\n')
sys.stdout.flush()
parent = os.getpid()
if os.fork() == 0:  # once the program has exited (its memory freed), hold that too
    while os.getppid() == parent:
        pass
    hold(0x5eee, 10 << 20)
    time.sleep(5)
os._exit(0)""".replace("DEFAULT_MB", str(SandboxConfig().limits_for("python").default_memory_limit_mb))
HUNGRY_CHECKER = "x = bytearray(30 << 20)\n" + STRICT_INT_CHECKER
FILL_WORK = """import os
st = os.statvfs('/work')
left = st.f_bavail * st.f_frsize - (1536 << 10)
for i in range(1000):
    if left <= 0:
        break
    with open('/work/fill%d' % i, 'wb') as f:
        left -= f.write(b'x' * min(left, 8 << 20))"""


def test_memory_a_program_leaves_does_not_make_the_checker_infra_error(any_grader):
    # SysV memory is removed before the checker runs (the runner's scrub); what /work holds is
    # covered by the re-run's doubled limit. Starved, the checker's failure would be the program's.
    for answer, verdict in (("4", "wrong_answer"), ("3", "accepted")):
        r = any_grader.grade(py(HOLD_MEMORY.replace("ANSWER", answer), checker=HUNGRY_CHECKER))
        assert r["verdict"] in (verdict, "memory_limit") and not r["retryable"], r  # or the runner went too
    assert any_grader.grade(py("print(3)", checker=HUNGRY_CHECKER))["verdict"] == "accepted"
    assert any_grader.grade(py("print(4)", checker=HUNGRY_CHECKER))["verdict"] == "wrong_answer"


# A checker that needs more than the task's memory limit whatever it reads (1.3x: under the doubled limit)
OVER_LIMIT_CHECKER = ("x = b'x' * (int(DEFAULT_MB * 1.3) << 20)\n" + STRICT_INT_CHECKER).replace(
    "DEFAULT_MB", str(SandboxConfig().limits_for("python").default_memory_limit_mb))


def test_a_checker_out_of_memory_judges_the_output_with_the_room_the_reference_gets(any_grader):
    """Run once more on the reference answer, a failed checker gets a doubled limit (sandbox/job.py
    _with_room); one that ran out of memory on the output gets it there too, so the output and the
    reference are judged alike: the right output passes, a near miss still fails. Under Docker's runsc,
    where a step past the limit ends the whole sandbox, the checker has the room from its first run."""
    r = any_grader.grade(py("print(3)", checker=OVER_LIMIT_CHECKER))
    assert r["verdict"] == "accepted", r
    r = any_grader.grade(py("print(4)", checker=OVER_LIMIT_CHECKER))
    assert r["verdict"] == "wrong_answer" and "checker rejected" in r["detail"], r


FILL_WORK_MEMORY = """import os
for i in range(2):
    with open('/work/hold%d' % i, 'wb') as f:
        f.write(b'x' * (60 << 20))
print(ANSWER)"""


def test_memory_held_in_work_does_not_make_the_checker_infra_error(any_grader, backend):
    """/work (a tmpfs, kept for the program's next tests) counts in the memory limit: 120 MB there
    starves a checker that needs 200 MB. Its failure on the output gets the doubled limit the reference
    answer's run gets (sandbox/job.py _with_room), so the right output is accepted, where it was the
    program's wrong_answer (its files took the room) or, without any doubled limit, infra_error."""
    checker = "x = bytearray(200 << 20)\n" + STRICT_INT_CHECKER
    r = any_grader.grade(py(FILL_WORK_MEMORY.replace("ANSWER", "3"), checker=checker))
    accepted = on_backend(backend, ("accepted",), {"runsc": (("accepted", "memory_limit"), "Docker's runsc: the "
                          "container's cgroup, which also holds gVisor's own memory, can OOM-kill the sandbox with the "
                          "program's 120 MB in /work: its own verdict")})
    assert r["verdict"] in accepted and not r["retryable"], r
    r = any_grader.grade(py(FILL_WORK_MEMORY.replace("ANSWER", "4"), checker=checker))  # the near miss
    assert r["verdict"] in ("wrong_answer", "memory_limit") and not r["retryable"], r
    assert any_grader.grade(py("print(3)", checker=checker))["verdict"] == "accepted"
    assert any_grader.grade(py("print(4)", checker=checker))["verdict"] == "wrong_answer"


def test_what_a_program_leaves_in_tmp_does_not_fail_the_checker(any_grader):
    """A checker writing a fixed /tmp path found the program's directory there, failed on the
    output and on the reference answer alike: infra_error (reward None). /tmp is emptied first."""
    checker = "open('/tmp/checker.log', 'w').write('ran')\n" + STRICT_INT_CHECKER
    plant = "import os\nos.makedirs('/tmp/checker.log/x')\nos.chmod('/tmp/checker.log', 0o500)\nprint(%s)"
    assert any_grader.grade(py(plant % 4, checker=checker))["verdict"] == "wrong_answer"
    assert any_grader.grade(py(plant % 3, checker=checker))["verdict"] == "accepted"


def test_a_full_work_dir_on_the_checkers_rerun_is_the_programs_fault(any_grader):
    """Nothing printed (0 pages) fits beside a 1 MB answer; the re-run with that answer as the
    output does not fit: no room is the program's doing (its files), never the checker's."""
    big = "3\n" + "0" * (1 << 20) + "\n"
    r = any_grader.grade(py(FILL_WORK, tests=(("", big),), checker=STRICT_INT_CHECKER))
    assert r["verdict"] == "wrong_answer" and not r["retryable"], r
    assert any_grader.grade(py("print(3)", tests=(("", big),), checker=STRICT_INT_CHECKER))["verdict"] == "accepted"


# ---------------------------------------------------------------- F10: reward hacks in the asserts
# A program under RL learns to return a value that passes `assert f(x) == y` without being y. Inside
# assert statements the harness compares plain data only (the judge's wire sends data only: sandbox/harness/wire.py).
ALWAYS_EQ = "class T:\n    def __eq__(self, o): return True\n    def __ne__(self, o): return False\n    __hash__ = object.__hash__\n"
CHEATS = {
    "always_equal_object": (ALWAYS_EQ + "def add(a, b): return T()", ADD_TESTS),
    "int_subclass_eq": ("class I(int):\n    def __eq__(self, o): return True\n    __hash__ = int.__hash__\n"
                        "def add(a, b): return I(0)", ADD_TESTS),
    "list_subclass_eq": ("class L(list):\n    def __eq__(self, o): return True\ndef rev(x): return L()",
                         "assert rev([1, 2]) == [2, 1]\n"),
    "str_subclass_eq": ("class S(str):\n    def __eq__(self, o): return True\n    __hash__ = str.__hash__\n"
                        "def up(s): return S('')", "assert up('ab') == 'AB'\n"),
    "ne_false": ("class T:\n    def __ne__(self, o): return False\ndef add(a, b): return T()",
                 "assert not add(1, 2) != 3\n"),
    "eq_nested_in_bool_ops": (ALWAYS_EQ + "def add(a, b): return T()",
                              "assert add(1, 2) == 3 and not (add(2, 2) != 4) or add(0, 0) == 1\n"),
    "sub_abs_lt": ("class T:\n    def __sub__(self, o): return self\n    def __abs__(self): return self\n"
                   "    def __lt__(self, o): return True\ndef frac(x): return T()",
                   "assert abs(frac(1.33) - 0.33) < 1e-6\n"),
    "float_subclass_sub": ("class F(float):\n    def __sub__(self, o): return 0.0\ndef frac(x): return F(9)",
                           "assert abs(frac(1.33) - 0.33) < 1e-6\n"),
    "ordering_chain": ("class T:\n    def __le__(self, o): return True\n    def __ge__(self, o): return True\n"
                       "    def __lt__(self, o): return True\n    def __gt__(self, o): return True\ndef f(x): return T()",
                       "assert 5 <= f(1) < 6\n"),
    "contains_always": ("class T:\n    def __contains__(self, o): return True\ndef f(x): return T()",
                        "assert 3 in f(1)\n"),
    "eq_inside_generator": (ALWAYS_EQ + "def add(a, b): return T()",
                            "assert all(add(i, i) == 2 * i + 1 for i in range(3))\n"),
    "truthy_object": ("class T:\n    def __bool__(self): return True\ndef ok(x): return T()", "assert ok(-1)\n"),
    "falsy_object": ("class T:\n    def __bool__(self): return False\ndef ok(x): return T()", "assert not ok(1)\n"),
    "self_referential_list": ("def rev(x):\n    a = []\n    a.append(a)\n    return a", "assert rev([1]) == [[1]]\n"),
    "helper_names_overwritten": ("def add(a, b):\n    globals().update({k: (lambda *a, **k: True) for k in list(globals())"
                                 " if not k.startswith('__')})\n    return 0", ADD_TESTS),
    # names the tests share with the program: builtins and stdlib modules the tests import are pinned
    "builtin_abs_rebound": ("def abs(x): return 0\ndef frac(x): return 5", "assert abs(frac(1.33) - 0.33) < 1e-6\n"),
    "builtin_len_rebound": ("def len(x): return 3\ndef f(x): return []", "assert len(f(1)) == 3\n"),
    "builtin_sorted_rebound": ("def sorted(x): return [1, 2]\ndef f(x): return [2]",
                               "def check(candidate):\n    assert sorted(candidate(1)) == [1, 2]\ncheck(f)\n"),
    "builtin_isinstance_rebound": ("def isinstance(a, b): return True\ndef f(x): return 'x'", "assert isinstance(f(1), int)\n"),
    "builtin_rebound_during_tests": ("def frac(x):\n    globals()['abs'] = lambda v: 0\n    return 5",
                                     "for x in (1.5, 2.5):\n    assert abs(frac(x) - 0.5) < 1e-6 or x == 1.5\n"),
    "math_isclose_monkeypatched": ("import math\nmath.isclose = lambda *a, **k: True\ndef f(x): return 0",
                                   "import math\nassert math.isclose(f(1), 2.0)\n"),
    "math_module_replaced": ("import sys, types\nm = types.ModuleType('math')\nm.isclose = lambda *a, **k: True\n"
                             "sys.modules['math'] = m\ndef f(x): return 0", "import math\nassert math.isclose(f(1), 2.0)\n"),
    "from_import_rebound_during_tests": ("def f(x):\n    globals()['isclose'] = lambda *a, **k: True\n    return 0",
                                         "from math import isclose\nfor x in (0, 1):\n    assert isclose(f(x), x) or x == 0\n"),
}


@pytest.mark.parametrize("name", sorted(CHEATS))
@pytest.mark.parametrize("judge", JUDGES)
def test_assert_cheats_are_not_accepted(any_grader, name, judge):
    prog, tests = CHEATS[name]
    r = any_grader.grade({"language": "python", "completion": prog, "test_code": tests, "judge": judge})
    assert r["verdict"] == "wrong_answer" and r["score"] == 0.0, r


NEEDS_SHARED = {"custom_objects_on_both_sides"}
HONEST = {
    "ints_and_bools": ("def add(a, b): return a + b\ndef pos(x): return x > 0",
                       ADD_TESTS + "assert pos(1)\nassert not pos(-1)\nassert pos(2) is True\nassert add(1, 1) != 3\n"),
    "tuple_where_tuple_expected": ("def pair(x): return (x, x)", "assert pair(1) == (1, 1)\nassert pair(1) != [1, 1]\n"),
    "nested_dict": ("def f(): return {'a': [1, {2, 3}], 'b': (None, 1.5, 'x', b'y'), 'c': {'d': frozenset({1})}}",
                    "assert f() == {'c': {'d': frozenset({1})}, 'b': (None, 1.5, 'x', b'y'), 'a': [1, {3, 2}]}\n"),
    "float_tolerance": ("def frac(x): return x - int(x)", "assert abs(frac(1.33) - 0.33) < 1e-6\nassert 0 <= frac(2.5) < 1\n"),
    "stdlib_subclasses_by_content": (
        "import collections, enum\nP = collections.namedtuple('P', 'x y')\nclass C(enum.IntEnum):\n    RED = 1\n"
        "def count(s): return collections.Counter(s)\ndef point(): return P(1, 2)\ndef red(): return C.RED",
        "assert count('aab') == {'a': 2, 'b': 1}\nassert point() == (1, 2)\nassert red() == 1\n"),
    "custom_objects_on_both_sides": (
        "class P:\n    def __init__(self, v): self.v = v\n    def __eq__(self, o): return self.v == o.v\ndef make(v): return P(v)",
        "class Q:\n    def __init__(self, v): self.v = v\nassert make(3) == Q(3)\nassert not make(3) == Q(4)\n"),
    "check_function_and_nan": ("def inc(x): return x + 1\ndef nan(): return float('nan')",
                               "import math\ndef nan(): return float('nan')\ndef check(candidate):\n    for i in range(3):\n        assert candidate(i) - 1 == i\n"
                               "    assert nan() != nan() and math.isnan(nan())\ncheck(inc)\n"),
    "program_shadows_a_builtin_internally": ("def max(a, b): return a if a > b else b\ndef clamp(x): return max(x, 0)",
                                             "assert clamp(-1) == 0\nassert max([clamp(3), 1]) == 3\n"),
    "helper_named_like_a_task": ("def sort_list(x): return sorted(x)",
                                 "assert sort_list([3, 1, 2]) == [1, 2, 3]\nassert len(sort_list([1])) == 1\n"),
    "function_under_test_named_like_a_builtin": (
        "def sum(xs):\n    t = 0\n    for x in xs:\n        t += x\n    return t",
        "assert sum([1, 2]) == 3\nassert not sum([]) == 1\ndef check(candidate):\n    assert candidate([2]) == 2\ncheck(sum)\n"),
    "tests_import_stdlib": ("import math\ndef f(x): return math.sqrt(x)",
                            "import math, random\nfrom collections import Counter\nrng = random.Random(1)\nfor _ in range(3):\n"
                            "    x = rng.randint(0, 9)\n    assert math.isclose(f(x * x), x)\nassert Counter('ab') == {'a': 1, 'b': 1}\n"
                            "assert isinstance(f(4), (int, float)) and __name__ == '__main__'\n"),
}


@pytest.mark.parametrize("name", sorted(HONEST))
@pytest.mark.parametrize("judge", JUDGES)
def test_honest_programs_pass_the_strict_asserts(any_grader, name, judge):
    prog, tests = HONEST[name]
    r = any_grader.grade({"language": "python", "completion": prog, "test_code": tests, "judge": judge})
    if name in NEEDS_SHARED and judge == "process":  # the program's objects cannot cross the channel
        assert r["verdict"] == "wrong_answer" and "cannot cross the judge boundary" in r["detail"], r
    else:
        assert r["verdict"] == "accepted", r


# ---------------------------------------------------------------- issue 9: reset means reset
def test_syntax_checking_a_large_program_leaves_the_runner_small(any_grader):
    """The runner kept tens of MB (~140 MB in the review) after compile() of a 240 KB program, in
    every later job's memory limit. The check now runs in a forked child that takes it away."""
    big = "def f():\n" + "\n".join(f" if a{i}:\n  if b:\n   c = {i}" for i in range(8000)) + "\nprint(3)"  # 245 KB
    look = "print([int(l.split()[1]) < 40000 for l in open('/proc/1/status') if l.startswith('VmRSS')])"
    assert any_grader.grade(py(look, tests=(("", "[True]\n"),)))["verdict"] == "accepted"
    assert any_grader.grade(py(big, tests=(("", "3\n"),)))["verdict"] == "accepted"
    r = any_grader.grade(py(look, tests=(("", "[True]\n"),)))
    assert r["verdict"] == "accepted", r


FILL_THEN_PEEK = '''import glob, os
for name in glob.glob('f*'):
    os.unlink(name)
seen = glob.glob('/work/c*/answer.txt')
if seen:
    print(open(seen[0]).read())
else:
    keep = int(input())
    made = []
    try:
        while True:
            made.append('f%d' % len(made))
            open(made[-1], 'w').close()
    except OSError:
        made.pop()
    for name in made[-keep:]:
        os.unlink(name)
    print(0)'''


def test_a_half_written_checker_dir_is_removed(any_grader):
    """A program that fills /work's inodes so that answer.txt fits but the next file does not left
    a checker dir with answer.txt behind, readable by its next tests (score 0.6 where 0 is right)."""
    tests = [(f"{k}\n", "3\n") for k in range(1, 12)] + [("", "3\n")] * 3
    r = any_grader.grade(py(FILL_THEN_PEEK, tests=tests, checker=CHECKER, scoring="fraction"))
    assert r["score"] == 0.0, r
    assert any_grader.grade(py("a, b = map(int, input().split())\nprint(a + b)", tests=CHECKED, checker=CHECKER))["verdict"] == "accepted"


# ---------------------------------------------------------------- issue 9: the judge outside the program
# Four ways a wrong program got `accepted` while the harness kept its nonce in the program's own
# interpreter. In the default mode the tests run in a separate judge process: each must now fail.
WRONG_ADD = "def add(a, b):\n    return 0\n"
SIGNAL_FRAME = '''import os, signal, time
def grab(sig, frame):
    while frame is not None:
        loc = frame.f_locals
        if 'nonce' in loc and 'fd' in loc:
            os.write(loc['fd'], b'ok:' + loc['nonce'])
            os._exit(0)
        frame = frame.f_back
signal.signal(signal.SIGALRM, grab)
signal.setitimer(signal.ITIMER_REAL, 0.05)
def add(a, b):
    time.sleep(1)
    return 0
'''
PROC_MEM_PATHLIKE = '''import io, os, re
class P:
    def __init__(self, p): self.p = p
    def __fspath__(self): return self.p
maps = io.FileIO(P('/proc/self/maps')).read().decode()  # a PathLike reaches the audit hook as is
mem = os.open(bytearray(b'/proc/self/mem'), os.O_RDONLY)  # and so does a bytearray
for line in maps.splitlines():
    lo, hi = (int(x, 16) for x in line.split()[0].split('-'))
    if 'rw' not in line.split()[1] or hi - lo > 1 << 28:
        continue
    try:
        data = os.pread(mem, hi - lo, lo)
    except OSError:
        continue
    m = re.search(rb' \\x00{7}.{8}([0-9a-f]{32})\\x00', data, re.S)  # a 32-byte bytes object of hex digits
    if m:
        import fcntl, stat
        for fd in range(3, 64):  # the result pipe: the one write-only FIFO past stderr
            try:
                if stat.S_ISFIFO(os.fstat(fd).st_mode) and fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_WRONLY:
                    os.write(fd, b'ok:' + m.group(1))
                    os._exit(0)
            except OSError:
                pass
def add(a, b):
    return 0
'''
HARNESS_REWRITE = '''import os
open('harness.py', 'w').write("import os, sys\\nn = sys.stdin.buffer.read().split(b'\\\\n')[0]\\nos.write(int(os.environ['RESULT_FD']), b'ok:' + n)\\n")
print(3)
def add(a, b):
    return 0
'''
NATIVE_EXT = r'''
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <frameobject.h>
#include <unistd.h>
static struct PyModuleDef mod = {PyModuleDef_HEAD_INIT, "grab", NULL, -1, NULL};
PyMODINIT_FUNC PyInit_grab(void) {
    PyFrameObject *f = PyEval_GetFrame();
    while (f) {
        PyObject *loc = PyFrame_GetLocals(f);
        PyObject *n = loc ? PyDict_GetItemString(loc, "nonce") : NULL, *fd = loc ? PyDict_GetItemString(loc, "fd") : NULL;
        if (n && fd && PyBytes_Check(n)) {
            int d = (int)PyLong_AsLong(fd);
            write(d, "ok:", 3); write(d, PyBytes_AsString(n), PyBytes_Size(n)); _exit(0);
        }
        f = PyFrame_GetBack(f);
    }
    return PyModule_Create(&mod);
}
'''


def native_extension_program(tmp_path) -> str:
    """A program that writes a native extension (built here for the image's Python 3.11) into /work
    and imports it: native code reads the harness's frames without any audit event."""
    import base64
    import shutil
    import subprocess
    import sysconfig
    if not shutil.which("gcc") or sysconfig.get_python_version() != "3.11":
        pytest.skip("needs gcc and Python 3.11 headers on the host to build the extension")
    (tmp_path / "grab.c").write_text(NATIVE_EXT)
    so = tmp_path / "grab.so"
    subprocess.run(["gcc", "-shared", "-fPIC", "-O1", "-s", f"-I{sysconfig.get_paths()['include']}",
                    "-o", str(so), str(tmp_path / "grab.c")], check=True)
    blob = base64.b64encode(so.read_bytes()).decode()
    return (f"import base64, sys\nopen('grab.so', 'wb').write(base64.b64decode('{blob}'))\n"
            "sys.path.insert(0, '.')\nimport grab\ndef add(a, b):\n    return 0\n")


SIGNAL_VIA_FRESH_MODULE = SIGNAL_FRAME.replace("signal.signal(signal.SIGALRM, grab)", (
    "import _imp, importlib.machinery, sys\nsys.modules.pop('_signal', None)\n"
    "fresh = _imp.create_builtin(importlib.machinery.ModuleSpec('_signal', None))\nfresh.signal(signal.SIGALRM, grab)"))
SIGNAL_VIA_REIMPORT = SIGNAL_FRAME.replace("signal.signal(signal.SIGALRM, grab)", (
    "import sys\nsys.modules.pop('_signal', None)\nimport _signal\n_signal.signal(signal.SIGALRM, grab)"))


@pytest.mark.parametrize("attack", ["signal_handler_frame", "signal_fresh_module", "signal_reimport", "proc_mem_pathlike",
                                    "native_extension", "harness_rewrite"])
def test_a_wrong_program_cannot_win_the_judge(any_grader, attack, tmp_path):
    prog = {"signal_handler_frame": SIGNAL_FRAME, "signal_fresh_module": SIGNAL_VIA_FRESH_MODULE,
            "signal_reimport": SIGNAL_VIA_REIMPORT, "proc_mem_pathlike": PROC_MEM_PATHLIKE,
            "harness_rewrite": HARNESS_REWRITE}.get(attack) or native_extension_program(tmp_path)
    task = {"language": "python", "completion": prog, "test_code": ADD_TESTS}
    if attack == "harness_rewrite":  # stdin tests run first, then the asserts
        task["tests"] = [{"stdin": "", "expected_stdout": "3\n"}]
    r = any_grader.grade(task)
    assert r["verdict"] != "accepted" and r["score"] == 0.0, r
    right = task["completion"].replace("    return 0\n", "    return a + b\n")
    if attack in ("signal_handler_frame", "harness_rewrite"):  # the right program still passes
        assert any_grader.grade(dict(task, completion=right))["verdict"] == "accepted"


# ---------------------------------------------------------------- the judge's channel (red-team round)
STOP_ITERATION = "def f(x):\n    raise StopIteration\n"
MAP_LOOP_TESTS = "for got, want in zip(map(f, [1, 2, 3]), [2, 4, 6]):\n    assert got == want\n"


@pytest.mark.parametrize("exc", ["StopIteration", "StopAsyncIteration"])
def test_stop_iteration_from_the_program_does_not_end_the_tests_loop(any_grader, exc):
    """Crossing the channel, a StopIteration would end the tests' map() loop as if all passed."""
    r = any_grader.grade({"language": "python", "completion": STOP_ITERATION.replace("StopIteration", exc),
                      "test_code": MAP_LOOP_TESTS})
    assert r["verdict"] == "runtime_error" and r["score"] == 0.0, r
    right = any_grader.grade({"language": "python", "completion": "def f(x):\n    return 2 * x\n",
                          "test_code": MAP_LOOP_TESTS})
    assert right["verdict"] == "accepted", right


POLY_TESTS = ("def check(candidate):\n    import math\n    for coeffs in ([1, 2], [-6, 11, -6, 1]):\n"
              "        x = candidate(coeffs)\n        assert math.fabs(poly(coeffs, x)) < 1e-4\ncheck(find_zero)\n")
POLY_CHEAT = "def poly(xs, x):\n    return 0\n\ndef find_zero(xs):\n    return 12345.0\n"
POLY = "def poly(xs, x):\n    return sum(c * x ** i for i, c in enumerate(xs))\n\n"
FIND_ZERO = ("def find_zero(xs):\n    lo, hi = -100.0, 100.0\n    for _ in range(200):\n        mid = (lo + hi) / 2\n"
             "        if (sum(c * lo ** i for i, c in enumerate(xs)) > 0) == (sum(c * mid ** i for i, c in enumerate(xs)) > 0):\n"
             "            lo = mid\n        else:\n            hi = mid\n    return lo\n")


def test_only_the_entry_function_comes_from_the_program(any_grader):
    """A helper the tests read but do not define is never the program's: one it redefines would
    change what the tests check. With the helper in the tests, the cheat is a wrong answer."""
    r = any_grader.grade({"language": "python", "completion": POLY_CHEAT, "test_code": POLY + POLY_TESTS})
    assert r["verdict"] == "wrong_answer" and r["score"] == 0.0, r
    right = any_grader.grade({"language": "python", "completion": FIND_ZERO, "test_code": POLY + POLY_TESTS})
    assert right["verdict"] == "accepted", right
    # without it, the tests are broken: infra_error, not retried, for the cheat and the honest program alike
    for prog in (POLY_CHEAT, POLY + FIND_ZERO):
        r = any_grader.grade({"language": "python", "completion": prog, "test_code": POLY_TESTS})
        assert r["verdict"] == "infra_error" and not r["retryable"] and "undefined name poly" in r["detail"], r


@pytest.mark.parametrize("judge", JUDGES)
def test_the_program_cannot_rebind_the_tests_helpers_while_called(any_grader, judge):
    """Shared mode ran the tests in the program's globals: its function, once called, rebound the
    tests' own `poly` there and the cheat passed."""
    cheat = "def find_zero(xs):\n    globals()['poly'] = lambda xs, x: 0\n    return 12345.0\n"
    r = any_grader.grade({"language": "python", "completion": cheat, "test_code": POLY + POLY_TESTS, "judge": judge})
    assert r["verdict"] == "wrong_answer" and r["score"] == 0.0, r
    right = any_grader.grade({"language": "python", "completion": FIND_ZERO, "test_code": POLY + POLY_TESTS, "judge": judge})
    assert right["verdict"] == "accepted", right


def test_mbpp_style_asserts_still_call_the_program(any_grader):
    """No check() call: the names the tests call are the program's (near miss: a wrong one fails)."""
    tests = "import math\nassert f(2) == 4\nassert math.isclose(f(1.5), 2.25)\n"
    ok = any_grader.grade({"language": "python", "completion": "def f(x):\n    return x * x\n", "test_code": tests})
    assert ok["verdict"] == "accepted", ok
    bad = any_grader.grade({"language": "python", "completion": "def f(x):\n    return x + x\n", "test_code": tests})
    assert bad["verdict"] == "wrong_answer", bad


# A failing program writes the judge's "undefined name" report on every fd it can reach, then
# fails: the report must not turn its failure into infra_error (reward None instead of 0).
FORGED_UNDEFINED = '''
import os
for fd in range(3, 64):
    try:
        os.write(fd, b"undefined:helper")
    except OSError:
        pass
def add(a, b):
    raise ValueError("wrong")
'''


@pytest.mark.parametrize("judge", JUDGES)
def test_a_program_cannot_forge_the_undefined_name_report(any_grader, judge):
    r = any_grader.grade({"language": "python", "completion": FORGED_UNDEFINED, "test_code": ADD_TESTS, "judge": judge})
    assert r["verdict"] == "runtime_error" and not r["retryable"], r


# Red team (issue 9): the function under test is the program's to define. A program without it
# (none, deleted, or hidden as a module the judge will not import) must fail as the program's
# runtime_error, not as the tests' "undefined name" (infra_error, reward None instead of 0).
MISSING_ENTRY = {"none": "print(1)\n", "deleted": "def add(a, b):\n    return 0\ndel add\n",
                 "foreign_module": "import types\nadd = types.ModuleType('not_stdlib')\n",
                 "renamed": "def add_numbers(a, b):\n    return a + b\n"}
CHECK_ADD = "def check(candidate):\n    assert candidate(1, 2) == 3\ncheck(add)\n"


@pytest.mark.parametrize("tests", [ADD_TESTS, CHECK_ADD])
@pytest.mark.parametrize("name", sorted(MISSING_ENTRY))
def test_a_program_without_the_entry_function_is_its_own_failure(any_grader, name, tests):
    r = any_grader.grade({"language": "python", "completion": MISSING_ENTRY[name], "test_code": tests})
    assert r["verdict"] == "runtime_error" and r["score"] == 0.0 and not r["retryable"], r
    right = any_grader.grade({"language": "python", "completion": "def add(a, b):\n    return a + b\n", "test_code": tests})
    assert right["verdict"] == "accepted", right



MATH_TESTS = "assert math.isclose(root(2.0), 1.4142135623730951)\nassert root(9.0) == 3.0\n"


def test_a_program_cannot_make_the_tests_stdlib_module_undefined(any_grader):
    """Tests that read `math` without importing it (HumanEval's prompts import it) got it only from
    the program's imports: a wrong program that left `import math` out got infra_error
    ("undefined name math", reward None) instead of its wrong answer."""
    for prog, verdict in (("def root(x):\n    return x / 2\n", "wrong_answer"),
                          ("def root(x):\n    return x ** 0.5\n", "accepted"),
                          ("import math\ndef root(x):\n    return math.sqrt(x)\n", "accepted")):
        r = any_grader.grade({"language": "python", "completion": prog, "test_code": MATH_TESTS})
        assert r["verdict"] == verdict and not r["retryable"], r



def test_the_programs_module_aliases_do_not_decide_between_a_verdict_and_infra_error(any_grader):
    """Tests reading `dt` took it from the program's `import datetime as dt`: a wrong program that
    left the import out got infra_error (reward None). Now no program supplies it: the tests are
    broken for every program alike (infra_error, not retried)."""
    tests = "assert days(dt.date(2020, 3, 1)) == 60\n"
    for prog in ("import datetime as dt\ndef days(d):\n    return 0\n", "def days(d):\n    return 0\n",
                 "import datetime as dt\ndef days(d):\n    return d.timetuple().tm_yday - 1\n"):
        r = any_grader.grade({"language": "python", "completion": prog, "test_code": tests})
        assert r["verdict"] == "infra_error" and not r["retryable"] and "undefined name dt" in r["detail"], r



# Red team (issue 9), against the removed shared mode: a program patches a pure-Python class of a
# stdlib module the tests import. In the process judge the patch stays in the program's process.
PATCHED_STDLIB = {
    "fraction_eq": ("import fractions\nfractions.Fraction.__eq__ = lambda a, b: True\n"
                    "def half(x):\n    return fractions.Fraction(7, 9)\n",
                    "from fractions import Fraction\nassert half(1) == Fraction(1, 2)\n"),
    "counter_init": ("import collections\ncollections.Counter.__init__ = lambda self, *a, **k: None\n"
                     "def hist(s):\n    return {}\n",
                     "from collections import Counter\nassert Counter(hist('aab')) == Counter({'a': 2, 'b': 1})\n"),
    "module_global": ("import fractions\nfractions.Fraction = lambda *a: 0\ndef half(x):\n    return 0\n",
                      "import fractions\nassert half(1) == fractions.Fraction(1, 2)\n"),
}
PATCHED_STDLIB["module_first_loaded_by_the_program"] = (
    "import unittest\nunittest.TestCase.assertEqual = lambda *a, **k: None\ndef add(a, b):\n    return 0\n",
    "import unittest\nunittest.TestCase().assertEqual(add(1, 2), 3)\n")
PATCHED_STDLIB["module_swapped_in_sys_modules"] = (
    "import sys, types\nfake = types.ModuleType('unittest')\nclass TestCase:\n    def assertEqual(self, a, b):\n        pass\n"
    "fake.TestCase = TestCase\nsys.modules['unittest'] = fake\ndef add(a, b):\n    return 0\n",
    "import unittest\nunittest.TestCase().assertEqual(add(1, 2), 3)\n")
RIGHT_STDLIB = {"module_first_loaded_by_the_program": "def add(a, b):\n    return a + b\n",
                "module_swapped_in_sys_modules": "def add(a, b):\n    return a + b\n",
                "fraction_eq": "from fractions import Fraction\ndef half(x):\n    return Fraction(x, 2)\n",
                "counter_init": "def hist(s):\n    return {c: s.count(c) for c in s}\n",
                "module_global": "from fractions import Fraction\ndef half(x):\n    return Fraction(x, 2)\n"}


@pytest.mark.parametrize("name", sorted(PATCHED_STDLIB))
def test_what_the_program_patches_in_stdlib_modules_never_reaches_the_judge(any_grader, name):
    prog, tests = PATCHED_STDLIB[name]
    r = any_grader.grade({"language": "python", "completion": prog, "test_code": tests})
    assert r["verdict"] != "accepted" and r["score"] == 0.0, r
    right = any_grader.grade({"language": "python", "completion": RIGHT_STDLIB[name], "test_code": tests})
    assert right["verdict"] == "accepted", right



# The removed shared mode refused marshal.loads (crafted bytecode reads the interpreter's memory)
# and with it right programs (issue 16). The program's process holds nothing to read: all run.
MARSHAL_CODE = {
    "loads": "import marshal\ncode = marshal.loads(marshal.dumps(compile('x = 1', 'x', 'exec')))\n",
    "sourceless_import": ("import importlib.util, marshal, sys\n"
                          "open('evil.pyc', 'wb').write(importlib.util.MAGIC_NUMBER + bytes(12)"
                          " + marshal.dumps(compile('x = 1', 'evil', 'exec')))\n"
                          "sys.path.insert(0, '.')\nimport evil\n"),
    "load_from_file": "import marshal\nopen('c', 'wb').write(marshal.dumps(1))\nmarshal.load(open('c', 'rb'))\n",
}


@pytest.mark.parametrize("name", sorted(MARSHAL_CODE))
def test_a_program_may_unmarshal_code_in_its_own_process(any_grader, name):
    prog = MARSHAL_CODE[name] + "def add(a, b):\n    return a + b\n"
    assert any_grader.grade({"language": "python", "completion": prog, "test_code": ADD_TESTS})["verdict"] == "accepted"
    wrong = MARSHAL_CODE[name] + "def add(a, b):\n    return a - b\n"
    assert any_grader.grade({"language": "python", "completion": wrong, "test_code": ADD_TESTS})["verdict"] == "wrong_answer"



# Red team (issue 9): a task whose function has a builtin's name (MBPP-style `assert max(1, 2) == 2`)
# was checked against the builtin, not the program: any program passed. And tests that never reach
# the program accepted any program.
BUILTIN_NAMED = {
    "max": ("assert max(1, 2) == 2\nassert max(5, 3) == 5\n", "def max(a, b):\n    return a if a > b else b\n",
            "def max(a, b):\n    return 0\n"),
    "sum": ("assert sum([1, 2, 3]) == 6\nassert not sum([])\n", "def sum(xs):\n    t = 0\n    for x in xs:\n        t += x\n    return t\n",
            "def sum(xs):\n    return -1\n"),
    "check_sum": ("def check(candidate):\n    assert candidate([1, 2]) == 3\ncheck(sum)\n",
                  "def sum(xs):\n    return xs[0] + xs[1]\n", "def sum(xs):\n    return 0\n"),
}


@pytest.mark.parametrize("name", sorted(BUILTIN_NAMED))
def test_a_function_named_like_a_builtin_is_the_programs(any_grader, name):
    tests, right, wrong = BUILTIN_NAMED[name]
    r = any_grader.grade({"language": "python", "completion": wrong, "test_code": tests})
    assert r["verdict"] == "wrong_answer" and r["score"] == 0.0, r
    r = any_grader.grade({"language": "python", "completion": "print('no function')\n", "test_code": tests})
    assert r["verdict"] == "runtime_error" and r["score"] == 0.0, r
    assert any_grader.grade({"language": "python", "completion": right, "test_code": tests})["verdict"] == "accepted"
    # a builtin the tests only use around the program's value stays the builtin
    around = {"language": "python", "completion": "def f(x):\n    return -x\n", "test_code": "assert abs(f(2)) == 2\n"}
    assert any_grader.grade(around)["verdict"] == "accepted"


def test_tests_that_never_reach_the_program_accept_nothing(any_grader):
    r = any_grader.grade({"language": "python", "completion": "def add(a, b):\n    return 0\n", "test_code": "assert 1 + 1 == 2\n"})
    assert r["verdict"] == "infra_error" and not r["retryable"] and "no function of the program" in r["detail"], r
    data = {"language": "python", "completion": "PRIMES = [2, 3, 5]\n", "test_code": "assert len(PRIMES) == 3\n"}
    assert any_grader.grade(data)["verdict"] == "accepted"  # the program's data read by the tests counts



IO_URING = """import ctypes
libc = ctypes.CDLL(None, use_errno=True)
for nr in (425, 426, 427):  # io_uring_setup, io_uring_enter, io_uring_register
    ctypes.set_errno(0)
    print(libc.syscall(nr, 1, 0, 0, 0, 0), ctypes.get_errno())"""


def test_io_uring_is_refused(any_grader):
    """Docker's default seccomp profile allows io_uring (io_uring_setup answered EFAULT to a null
    params pointer: the kernel code ran). The runner's own filter answers EPERM before it does."""
    result = any_grader.grade(py(IO_URING, tests=(("", "-1 1\n-1 1\n-1 1\n"),), compare="exact"))
    assert result["verdict"] == "accepted", result


POLICY = """import ctypes
libc = ctypes.CDLL(None, use_errno=True)
def call(name, *args):
    ctypes.set_errno(0)
    print(name, min(libc.syscall(*args), 1), ctypes.get_errno())
call('getpid', 39)
call('unshare', 272, 0x10000000 | 0x20000)  # CLONE_NEWUSER | CLONE_NEWNS
call('setns', 308, -1, 0)
call('mount', 165, b'none', b'/tmp', b'tmpfs', 0, None)
call('vmsplice', 278, -1, None, 0, 0)  # named nowhere in the policy: ENOSYS before the bad fd is seen"""


def test_the_program_syscall_policy_holds_on_every_backend(any_grader, backend):
    """One allowlist for every program on every backend (docs/sandboxes.md "The program syscall policy"): a
    namespace or mount call answers EPERM, a call the policy names nowhere ENOSYS, before the kernel (gVisor's
    too) looks at its arguments. Before it gVisor admitted unshare (a user namespace with every capability:
    red team 3 of issue 30) and vmsplice answered EBADF there and under Docker. Near miss: an allowed call
    (getpid) still answers."""
    want = "getpid 1 0\nunshare -1 1\nsetns -1 1\nmount -1 1\nvmsplice -1 38\n"
    r = any_grader.grade(py(POLICY, tests=(("", want),), compare="exact"))  # no return_output: the pod runs it too
    assert r["verdict"] == "accepted", (backend, r)


# ---------------------------------------------------------------- issue 16: limits out of the program's reach
def calls(program: str, args: list, expected: list, time_limit_s: float = 1.0, **kw) -> dict:
    return {"kind": "code", "language": "python", "completion": f"```python\n{program}\n```", "entry_point": "f",
            "call_tests": [{"args": [a], "expected": e} for a, e in zip(args, expected)],
            "time_limit_s": time_limit_s, **kw}


BURN = "def burn(s):\n    t = time.process_time()\n    while time.process_time() - t < s:\n        pass\n"


def test_a_program_cannot_stop_its_judge_to_hide_work_in_a_child(any_grader):
    # the red team's attack: SIGSTOP the judge (the parent), do 4 s of work in a child never waited
    # for, then SIGCONT the judge once the answer is in the pipe (limit 1 s): time_limit
    attack = ("import os, signal, time\n" + BURN +
              "def f(x):\n    judge = os.getppid()\n    try:\n        os.kill(judge, signal.SIGSTOP)\n"
              "    except OSError:\n        pass\n    r, w = os.pipe()\n    if os.fork() == 0:\n        burn(4)\n"
              "        os.write(w, b'x')\n        os._exit(0)\n    os.read(r, 1)\n    try:\n"
              "        os.kill(judge, signal.SIGCONT)\n    except OSError:\n        pass\n    return 2 * x")
    r = any_grader.grade(calls(attack, [1], [2]))
    assert [t["verdict"] for t in r["tests"]] == ["time_limit"], r


def test_the_cpu_of_a_child_the_program_never_waited_for_counts(any_grader):
    # the answer is computed by a child (3.5 s CPU, limit 2 s, inside the 5 s wall backstop) that
    # the program never waits for: its CPU is the call's
    child = ("import os, time\n" + BURN +
             "def f(x):\n    r, w = os.pipe()\n    if os.fork() == 0:\n        burn(3.5)\n"
             "        os.write(w, b'x')\n        os._exit(0)\n    os.read(r, 1)\n    return 2 * x")
    r = any_grader.grade(calls(child, [1], [2], time_limit_s=2.0))
    assert [t["verdict"] for t in r["tests"]] == ["time_limit"], r


def test_a_child_left_burning_after_an_answer_is_charged_and_killed(any_grader):
    # call 1 answers at once and leaves a child burning CPU; call 2 sleeps (no CPU of its own)
    # until that child has used 1.5 s: the child's CPU is call 2's (limit 1 s), and killing call 2
    # kills the child, so call 3 (a fresh process) is on time
    left = ("import os, time\n" + BURN + "child = 0\n"
            "def used(pid):\n    f = open(f'/proc/{pid}/stat').read().rpartition(')')[2].split()\n"
            "    return (int(f[11]) + int(f[12])) / os.sysconf('SC_CLK_TCK')\n"
            "def f(x):\n    global child\n    if x == 1:\n        child = os.fork()\n        if child == 0:\n"
            "            burn(100)\n            os._exit(0)\n"
            "    if x == 2:\n        start = used(child)\n        while used(child) - start < 1.5:\n"
            "            time.sleep(0.05)\n    return 2 * x")
    r = any_grader.grade(calls(left, [1, 2, 3], [2, 4, 6], scoring="fraction"))
    assert [t["verdict"] for t in r["tests"]] == ["accepted", "time_limit", "accepted"], r


KILL_JUDGE = ("import os, signal\nsent = []\n"
              "def f(x):\n    for p in os.listdir('/proc'):\n        if not p.isdigit() or int(p) == os.getpid():\n"
              "            continue\n        try:\n            cmd = open(f'/proc/{p}/cmdline', 'rb').read()\n"
              "        except OSError:\n            continue\n        if b'judge.py' in cmd or int(p) == 1:\n"
              "            for sig in (signal.SIGSTOP, signal.SIGKILL):\n                try:\n"
              "                    os.kill(int(p), sig)\n                    sent.append(p)\n"
              "                except OSError:\n                    pass\n    return 2 * x")


def test_a_program_cannot_kill_or_stop_its_judge(any_grader, backend):
    # found by pid in /proc: the judge is of another uid, so the signals fail and the right
    # answers are graded (before, the judge died and the tests ended as runtime_error)
    r = any_grader.grade(calls(KILL_JUDGE, [1, 2], [2, 4]))
    assert r["verdict"] == "accepted" and len(r["tests"]) == 2, r
    # (its parent: the judge for a new interpreter, PID 1 for a fork of the warm zygote: docs/sandboxes.md)
    probe = "import os\ndef f(lo, hi):\n    u = os.getresuid()\n    return [len(set(u)), lo <= u[0] < hi]"
    ids = program_uids(backend)
    r = any_grader.grade({**calls(probe, [], []), "call_tests": [{"args": [ids.start, ids.stop], "expected": [1, True]}]})
    assert r["verdict"] == "accepted", r  # every uid of the program's process is the program's


def test_a_stdin_program_holds_only_its_own_uid(any_grader, backend):
    """Its real, effective and saved uid and gid are one id (tests/helpers.py program_uids: Docker's own per container)."""
    ids = program_uids(backend)
    r = any_grader.grade(py("import os\nlo, hi = map(int, input().split())\nu = {*os.getresuid(), *os.getresgid()}\n"
                            "print(len(u), lo <= min(u) < hi)", tests=((f"{ids.start} {ids.stop}\n", "1 True\n"),)))
    assert r["verdict"] == "accepted", r


def test_a_half_written_reply_ends_at_the_calls_limit(any_grader):
    # call 1 writes the start of a frame on every pipe it holds and hangs: that call is a
    # time_limit at its own limit, and the later calls (a fresh process) are graded
    half = ("import os, time\n"
            "def f(x):\n    if x == 1:\n        for fd in range(3, 64):\n            try:\n"
            "                os.write(fd, b'\\x00\\x00\\x00\\x64{\"ok\"')\n            except OSError:\n"
            "                pass\n        time.sleep(1000)\n    return 2 * x")
    n = 6
    r = any_grader.grade(calls(half, list(range(1, n + 1)), [2 * i for i in range(1, n + 1)], scoring="fraction"))
    assert [t["verdict"] for t in r["tests"]] == ["time_limit"] + ["accepted"] * (n - 1), r
    assert any_grader.grade(INNOCENT)["verdict"] == "accepted"


# a Codeforces generated checker of the usual form: rejects when abs(a - b) > eps, so every
# comparison with nan is False and nan would pass (issue 16)
EPS_CHECKER = ("import sys\ninp, correct, out = sys.argv[1:4]\n"
               "a = [float(x) for x in open(out).read().split()]\nb = [float(x) for x in open(correct).read().split()]\n"
               "if len(a) != len(b):\n    print(0)\n    sys.exit()\n"
               "for x, y in zip(a, b):\n    if abs(x - y) > 1e-6:\n        print(0)\n        sys.exit()\nprint(1)\n")


def codeforces(printed: str, expected: str = "2.5\n", checker: str | None = EPS_CHECKER) -> dict:
    from verifier.formats import to_task  # the dataset's row as open-r1/codeforces stores it
    row = {"official_tests": [{"input": "1\n", "output": expected}], "time_limit": 2.0, "memory_limit": 256.0,
           "input_mode": "stdio", "generated_checker": checker}
    return to_task(row, completion=f"```python\nprint({printed!r})\n```")


@pytest.mark.parametrize("printed", ["nan", "NaN", "-nan", "inf", "-Infinity", "1e999", "2.5 nan"])
def test_nan_or_inf_never_passes_a_checker_whose_answer_has_none(any_grader, printed):
    r = any_grader.grade(codeforces(printed))
    assert r["verdict"] == "wrong_answer" and "not a finite number" in r["tests"][0]["detail"], r


def test_the_checker_still_decides_finite_answers_and_expected_nan(any_grader):
    assert any_grader.grade(codeforces("2.5000001"))["verdict"] == "accepted"  # within its eps
    assert any_grader.grade(codeforces("2.6"))["verdict"] == "wrong_answer"
    assert any_grader.grade(codeforces("nan", expected="nan\n"))["verdict"] == "accepted"  # the checker's say


@pytest.mark.parametrize("printed, verdict", [
    ("Yes\nno", "accepted"), ("YES\nNO", "accepted"), ("yEs NO", "accepted"),
    ("No\nno", "wrong_answer"), ("yes yes", "wrong_answer"), ("YES\nNO\nYES", "wrong_answer"), ("YES", "wrong_answer"),
    ("YESS\nNO", "wrong_answer"),
])
def test_codeforces_yes_no_answers_in_any_case(any_grader, printed, verdict):
    assert any_grader.grade(codeforces(printed, expected="YES\nNO\n", checker=None))["verdict"] == verdict


# ---------------------------------------------------------------- /proc/<pid>/fd of trusted processes (issue 19)
# gVisor ignores PR_SET_DUMPABLE in /proc and lets a process open /proc/<pid>/fd/N of a pipe whose
# creator's effective uid was its own: the runner's and a judge's. Every channel they hold is a
# socket (sandbox/harness/pid1.py channel(); a pipe only for a program's own stream, std_pipe, which ruff's
# banned-api holds to), which cannot be reopened by path (docs/sandboxes.md "Sandbox backends").
# The scan runs for SCAN_S, not one look: a channel held for a moment (a fork's pid pipe) shows in a loop (issue
# 30: one look under gVisor raced PID 1 closing and reopening fd 8, and read a /proc file by a name it had not read).
# What an fd is comes from fstat of the opened fd, never from the link read before: named files and directories
# (their own modes decide), a device anyone may open, and the program's own std streams (by inode) grant nothing.
SCAN_LOOP = '''import os, stat, time
def scan(reach, seconds):
    """What reach(pid, own) finds of every other process, looked at again and again for `seconds`; `own` is the
    program's own std streams (device, inode), which grant it nothing."""
    own = set()
    for n in (0, 1, 2):
        try:
            st = os.fstat(n)
            own.add((st.st_dev, st.st_ino))
        except OSError:
            pass
    found, end = set(), time.monotonic() + seconds
    while time.monotonic() < end:
        for pid in os.listdir("/proc"):
            if pid.isdigit() and int(pid) != os.getpid():
                found.update(reach(pid, own))
    return sorted(found)
'''
"""The scan loop of OTHERS_FDS and of tests/test_redteam_backends_16.py's wide scan (a program's source prefix)."""
OTHERS_FDS = SCAN_LOOP + '''SCAN_S = 1.5
def others_fds():
    """Every fd of another process that opens (read or write) and is a channel (a pipe, FIFO, socket or device
    not open to all) that is not one of the program's own std streams, scanned for SCAN_S."""
    return scan(channels_of, SCAN_S)

def channels_of(pid, own):
    try:
        names = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return []
    found = []
    for n in names:
        for mode in (os.O_RDONLY, os.O_WRONLY):
            try:
                fd = os.open(f"/proc/{pid}/fd/{n}", mode | os.O_NONBLOCK | os.O_NOCTTY)
            except OSError:
                continue
            st = os.fstat(fd)
            os.close(fd)
            m = st.st_mode
            if stat.S_ISREG(m) or stat.S_ISDIR(m) or (st.st_dev, st.st_ino) in own:
                continue
            if stat.S_ISCHR(m) and m & 0o666 == 0o666:  # gVisor's PID 1 stderr is the host's /dev/null
                continue
            found.append(f"pid {pid} fd {n} mode {mode} {stat.filemode(m)} inode {st.st_ino}")
    return found
'''


@pytest.mark.in_process  # reads the program's output (return_output is not on the wire)
@pytest.mark.parametrize("how", ["stdin", "call_tests", "test_code", "pytest"])
def test_no_fd_of_the_runner_or_judge_opens_through_proc(any_grader, how):
    """Run while the runner (and, but for stdin tests, a judge) holds its channels: none opens."""
    task = {"language": "python", "completion": OTHERS_FDS, "return_output": True, "time_limit_s": 10}  # SCAN_S of CPU
    if how == "stdin":
        task["completion"] += "print(others_fds())\n"
        task["tests"] = [{"stdin": "", "expected_stdout": "[]\n"}]
    elif how == "call_tests":
        task.update(entry_point="others_fds", call_tests=[{"args": [], "expected": []}])
    elif how == "test_code":
        task["test_code"] = "got = others_fds()\nassert got == [], got\n"
    else:
        task["test_code"] = "from solution import others_fds\n\ndef test_none():\n    assert others_fds() == []\n"
        task["test_framework"] = "pytest"
    r = any_grader.grade(task)
    assert r["verdict"] == "accepted", r


# A program's background process reads every fd of other processes it can open; once a line of a
# judge's carries the nonce (stdin: "<nonce>\n", the result fd: "<nonce> {...}"), it writes a
# forged pass into every fd it could open for writing and keeps eating the judge's real lines.
FORGE = '''import os, re, select, time
KIND, N = {kind!r}, 3

def links(pid):
    try:
        return {{n: os.readlink(f"/proc/{{pid}}/fd/{{n}}") for n in os.listdir(f"/proc/{{pid}}/fd")}}
    except OSError:
        return {{}}

def forge():
    readers, writers = [], []
    own = set(links(os.getppid()).values())  # the program's own channel to its judge: leave it be
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) in (os.getpid(), os.getppid()):
            continue
        for n, target in links(pid).items():
            if target in own:
                continue
            for mode, into in ((os.O_RDONLY, readers), (os.O_WRONLY, writers)):
                try:
                    into.append(os.open(f"/proc/{{pid}}/fd/{{n}}", mode | os.O_NONBLOCK | os.O_NOCTTY))
                except OSError:
                    pass
    nonce, end = None, time.time() + 10
    while readers and time.time() < end:
        for fd in select.select(readers, [], [], 0.2)[0]:
            try:
                data = os.read(fd, 1 << 16)
            except OSError:
                continue
            m = re.search(rb"(?:^|\\n)([0-9a-f]{{32}})(?:\\n| [{{])", data)
            if m and nonce is None:
                nonce = m.group(1)
                if KIND == "assert":
                    forged = b"ok:" + nonce
                else:
                    forged = b"".join(nonce + b' {{"test":{{"verdict":"accepted","detail":"","time_s":0}}}}\\n'
                                      for _ in range(N)) + nonce + b' {{"done":%d}}\\n' % N
                for w in writers:
                    try:
                        os.write(w, forged)
                    except OSError:
                        pass

if os.fork() == 0:
    try:
        forge()
    finally:
        os._exit(0)

def add(a, b):
    time.sleep(0.3)
    return a - b
'''


@pytest.mark.parametrize("kind", ["call", "assert"])
def test_a_program_cannot_read_the_judges_nonce_and_forge_a_pass(any_grader, kind):
    """End to end: whatever the forger reads or writes, the wrong program fails (never infra_error)."""
    task = {"language": "python", "completion": FORGE.format(kind=kind), "time_limit_s": 5}
    if kind == "call":
        task.update(entry_point="add", call_tests=[{"args": [i, 2], "expected": i + 2} for i in range(3)])
    else:
        task["test_code"] = "\n".join(f"assert add({i}, 2) == {i + 2}" for i in range(3)) + "\n"
    r = any_grader.grade(task)
    assert r["verdict"] == "wrong_answer" and r["score"] == 0.0, r
    right = task["completion"].replace("return a - b", "return a + b")  # rewrite: the right program passes
    assert any_grader.grade(dict(task, completion=right))["verdict"] == "accepted"


# ---------------------------------------------------------------- the program's process is no fork of a trusted one
# Red team (issue 19): the judge is a fork of the runner, whose memory holds the job's request (the
# nonce, the call tests' expected values, the test file), and it forked the program's process too:
# a program walked its own stack to the runner's frame and returned the expected values. The
# program's process is a new interpreter now (harness/judge.py start_program).
STEAL = r'''import gc, json, re, sys

def _blobs():
    """Every bytes value in the frames below this module and in the dicts of this process."""
    f = sys._getframe()
    while f is not None:
        yield from (v for v in list(f.f_locals.values()) if isinstance(v, (bytes, bytearray)))
        f = f.f_back
    for o in gc.get_objects():
        if type(o) is dict:
            yield from (v for v in list(o.values()) if isinstance(v, (bytes, bytearray)))

ANSWERS = {}
for blob in _blobs():
    for line in bytes(blob).split(b"\n"):
        try:
            calls = json.loads(line).get("calls") or []
        except (ValueError, AttributeError):
            continue
        ANSWERS.update({tuple(c["args"]): c["expected"] for c in calls})
    for a, b, c in re.findall(rb"add\((-?\d+), (-?\d+)\) == (-?\d+)", bytes(blob)):
        ANSWERS[int(a), int(b)] = int(c)

def add(a, b):
    return ANSWERS.get((a, b), a - b)
'''


def add_task(kind: str, completion: str) -> dict:
    """add(a, b) checked three ways: call tests, asserts, a pytest file."""
    task = {"language": "python", "completion": completion, "time_limit_s": 5}
    if kind == "call":
        task.update(entry_point="add", call_tests=[{"args": [i, 2], "expected": i + 2} for i in range(3)])
    elif kind == "assert":
        task["test_code"] = "".join(f"assert add({i}, 2) == {i + 2}\n" for i in range(3))
    else:
        task.update(test_framework="pytest", test_code="from solution import add\n\n"
                    + "".join(f"def test_{i}():\n    assert add({i}, 2) == {i + 2}\n\n" for i in range(3)))
    return task


@pytest.mark.parametrize("kind", ["call", "assert", "pytest"])
def test_a_program_cannot_read_the_tests_from_its_own_memory(any_grader, kind):
    """The stealer fails (it finds nothing to steal); the right program passes (rewrite)."""
    r = any_grader.grade(add_task(kind, STEAL))
    assert r["verdict"] == "wrong_answer" and r["score"] == 0.0, r
    right = add_task(kind, STEAL.replace("a - b)", "a + b)"))
    assert any_grader.grade(right)["verdict"] == "accepted"


# The class, not the instance: no byte of the tests is anywhere in the program's memory, read
# through /proc/self/mem (freed memory included). The marker is built so the source holds no match.
LEAKS = r'''import re

def leaks():
    """Each writable mapping of this process that holds the tests' marker."""
    found = []
    with open("/proc/self/maps") as maps, open("/proc/self/mem", "rb", buffering=0) as mem:
        for line in maps:
            span, perms = line.split()[:2]
            a, b = (int(x, 16) for x in span.split("-"))
            if not perms.startswith("rw") or b - a > 1 << 28:
                continue
            try:
                mem.seek(a)
                data = mem.read(b - a)
            except (OSError, ValueError, OverflowError):
                continue
            if data and re.search(rb"S3CR3T" + rb"-[0-9a-f]{16}", data):
                found.append(line.strip())
    return found
'''
MARKER = "S3CR3T-0123456789abcdef"


@pytest.mark.parametrize("kind", ["call", "assert", "pytest"])
def test_no_byte_of_the_tests_is_in_the_programs_memory(any_grader, kind):
    task = {"language": "python", "completion": LEAKS, "time_limit_s": 10}
    if kind == "call":
        task.update(entry_point="leaks", call_tests=[{"args": [], "expected": []}, {"args": [], "expected": [MARKER]}])
    elif kind == "assert":
        task["test_code"] = f"got = leaks()\nassert got == [], got\nassert got != [{MARKER!r}]\n"
    else:
        task.update(test_framework="pytest", test_code=f"from solution import leaks\n\ndef test_none():\n"
                    f"    got = leaks()\n    assert got == [], got\n    assert got != [{MARKER!r}]\n")
    r = any_grader.grade(task)
    assert r["tests"][0]["verdict"] == "accepted", r


# Held under attack (issue 19 red team): gVisor ignores PR_SET_DUMPABLE in /proc, so the runner's
# and a judge's environ, maps, smaps, auxv, stat and fdinfo are readable by the program there; their
# mem (any thread's) is not, nor process_vm_readv or pidfd_getfd. Whatever opens, none holds a byte
# of the tests.
PROC_LEAKS = r'''import os, re

def proc_leaks():
    """Each /proc file of another process that opens and holds the tests' marker (mem read at
    every readable mapping)."""
    found, pattern = [], re.compile(rb"S3CR3T" + rb"-[0-9a-f]{16}")
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        tasks = [f"/proc/{pid}"]
        try:
            tasks += [f"/proc/{pid}/task/{t}" for t in os.listdir(f"/proc/{pid}/task")]
        except OSError:
            pass
        for base in tasks:
            for name in ("environ", "cmdline", "maps", "smaps", "stat", "status", "auxv", "io", "syscall", "stack"):
                try:
                    with open(f"{base}/{name}", "rb") as f:
                        if pattern.search(f.read(1 << 22)):
                            found.append(f"{base}/{name}")
                except OSError:
                    pass
            try:
                spans = [line.split()[0] for line in open(f"{base}/maps") if line.split()[1].startswith("r")]
                with open(f"{base}/mem", "rb", buffering=0) as mem:
                    for span in spans:
                        a, b = (int(x, 16) for x in span.split("-"))
                        try:
                            mem.seek(a)
                            if pattern.search(mem.read(min(b - a, 1 << 26))):
                                found.append(f"{base}/mem")
                        except (OSError, ValueError, OverflowError):
                            continue
            except OSError:
                pass
    return sorted(set(found))
'''


@pytest.mark.parametrize("kind", ["call", "assert"])
def test_no_proc_file_of_the_runner_or_judge_holds_the_tests(any_grader, kind):
    task = {"language": "python", "completion": PROC_LEAKS, "time_limit_s": 10}
    if kind == "call":
        task.update(entry_point="proc_leaks", call_tests=[{"args": [], "expected": []}, {"args": [], "expected": [MARKER]}])
    else:
        task["test_code"] = f"got = proc_leaks()\nassert got == [], got\nassert got != [{MARKER!r}]\n"
    r = any_grader.grade(task)
    assert r["tests"][0]["verdict"] == "accepted", r


# ---------------------------------------------------------------- no setuid or setgid bit anywhere
def test_no_image_or_root_filesystem_carries_a_setuid_or_setgid_bit():
    """The runner gives up root for good and programs run with no capability, so a setuid or setgid
    file could only ever be a way back (11 setuid binaries shipped in the python image: su, mount,
    passwd, ...). Every language's image (`find` as root inside it) and its root filesystem for the
    gVisor backend (walked on the host) hold none (sandbox/images/*.Dockerfile)."""
    import docker

    from sandbox.build import image_tag, rootfs_name
    from tests.helpers import sandbox_config

    config = sandbox_config("gvisor")  # every language's image and root filesystem (instant when built)
    client = docker.from_env()
    for lang in config.languages:
        tag = image_tag(lang, config.image_prefix)
        out = client.containers.run(tag, ["find", "/", "-xdev", "-perm", "/6000"], user="0:0", remove=True,
                                    network_disabled=True)
        assert out.decode().split() == [], (tag, out.decode()[:500])
        root = os.path.join(config.rootfs_dir, rootfs_name(tag))
        assert os.path.isdir(os.path.join(root, "usr/bin")), root  # near miss: the walk sees the files
        bits = [os.path.join(d, n) for d, dirs, files in os.walk(root) for n in dirs + files
                if os.lstat(os.path.join(d, n)).st_mode & 0o6000]
        assert bits == [], (root, bits[:20])


def test_the_servers_image_carries_no_setuid_or_setgid_bit(server_image):
    """The service's own image (deploy/Dockerfile, `make image`) runs the server as uid 10001 with no
    capability: a setuid or setgid file there could only be a way to root from the server's uid (Debian's
    base shipped 11 setuid binaries, su, mount, passwd, ..., and a setgid /var/mail and /var/local).
    `find` as root over the whole image, the sandboxes' root filesystems at /opt/rootfs with it."""
    import docker

    client = docker.from_env()
    found = client.containers.run(server_image, ["/", "-xdev", "-perm", "/6000"], entrypoint="find", user="0:0",
                                  remove=True, network_disabled=True).decode().split()
    assert found == [], (server_image, found[:20])
    # near miss: the same find sees files that carry other mode bits (the image's own files are there)
    seen = client.containers.run(server_image, ["/opt/rootfs", "/usr/bin", "-xdev", "-perm", "/0111", "-name", "python3*"],
                                 entrypoint="find", user="0:0", remove=True, network_disabled=True).decode().split()
    assert "/usr/bin/python3" in seen and any(p.startswith("/opt/rootfs/") for p in seen), seen[:20]

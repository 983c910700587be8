"""Red team of the warm fork without a middle process (sandbox/harness/zygote.py clone_parent;
docs/sandboxes.md "The warm interpreter"): under Docker each program and judge is a raw
clone(CLONE_PARENT) of the zygote made through ctypes, not glibc's fork(). Whatever glibc's fork()
sets up in its child that the raw clone skips (the TID word, the robust-mutex list, at-fork
handlers, locks) must not change a verdict: each program here is graded by a warm grader and by one
that execs every run (warm_fork off), through real containers, and must get the same verdict and
output; its right answer stays accepted and a near miss fails."""
from __future__ import annotations

import contextlib

import pytest

from sandbox.sync import SyncGrader
from tests.helpers import one_sandbox
from tests.test_sandbox_warm import outputs, py
from tests.test_sandbox_warm_attacks import FIND_WARM, grades_right

pytestmark = pytest.mark.docker


@pytest.fixture(scope="module")
def graders():
    """(warm, exec) graders per backend (tests/conftest.py `backend`: every one of them), made on first use."""
    with contextlib.ExitStack() as stack:
        made: dict = {}

        def get(backend: str) -> tuple[SyncGrader, SyncGrader]:
            if backend not in made:
                made[backend] = tuple(stack.enter_context(one_sandbox(backend, f"pytest-clone-attacks-{backend}-{warm}",
                                                                      warm_fork=warm)) for warm in ("on", "off"))
            return made[backend]

        yield get


# What glibc's fork() does in its child that a raw clone does not by itself, each as a program:
# signals that name a thread by the TID word in glibc's thread struct, the robust-mutex list the
# kernel clears in every new process, and programs that fork, spawn and thread on top of a clone.
PROGRAMS = {
    "abort": "import os\nprint(1, flush=True)\nos.abort()",
    "raise_signal": "import signal\nsignal.signal(signal.SIGUSR1, lambda *a: print('got'))\n"
                    "signal.raise_signal(signal.SIGUSR1)\nprint('after')",
    "thread_kills_pid": "import os, signal, threading, time\nhit = []\n"
                        "signal.signal(signal.SIGUSR1, lambda *a: hit.append(1))\n"
                        "t = threading.Thread(target=lambda: os.kill(os.getpid(), signal.SIGUSR1))\n"
                        "t.start(); t.join(); time.sleep(0.05)\nprint(hit)",
    # pthread_kill, pthread_getcpuclockid and glibc's setxid broadcast find the main thread by its TID word
    "thread_pthread_kills_main": "import signal, threading, time\nhit = []\n"
                                 "signal.signal(signal.SIGUSR1, lambda *a: hit.append(1))\n"
                                 "m = threading.main_thread().ident\n"
                                 "t = threading.Thread(target=lambda: signal.pthread_kill(m, signal.SIGUSR1))\n"
                                 "t.start(); t.join(); time.sleep(0.05)\nprint(hit)",
    "main_thread_cpu_clock": "import threading, time\nx = sum(range(10**6))\n"
                             "out = []\nt = threading.Thread(target=lambda: out.append("
                             "time.clock_gettime(time.pthread_getcpuclockid(threading.main_thread().ident)) > 0))\n"
                             "t.start(); t.join()\nprint(out)",
    "setxid_with_threads": "import os, threading, time\nev = threading.Event()\n"
                           "t = threading.Thread(target=ev.wait); t.start()\n"
                           "u = os.getresuid(); os.setresuid(*u); g = os.getresgid(); os.setresgid(*g)\n"
                           "ev.set(); t.join()\nprint(os.getresuid() == u, os.getresgid() == g)",
    "ctypes_pthread_kill_self": "import ctypes, signal\nlibc = ctypes.CDLL(None)\nlibc.pthread_self.restype = ctypes.c_void_p\n"
                                "hit = []\nsignal.signal(signal.SIGUSR2, lambda *a: hit.append(1))\n"
                                "print(libc.pthread_kill(ctypes.c_void_p(libc.pthread_self()), signal.SIGUSR2), hit)",
    "tid_word": "import ctypes, threading\nlibc = ctypes.CDLL(None)\nlibc.pthread_self.restype = ctypes.c_void_p\n"
                "b = libc.pthread_self()\ntid = threading.get_native_id()\n"
                "print(any(ctypes.c_int.from_address(b + off).value == tid for off in range(0, 1024, 4)))",
    "faulthandler_segv": "import faulthandler\nfaulthandler.enable()\nprint(1, flush=True)\nfaulthandler._sigsegv()",
    # the kernel clears a new process's robust list; glibc's fork() registers it again (set_robust_list)
    "robust_list_registered": "import ctypes, platform\nlibc = ctypes.CDLL(None)\n"
                              "nr = {'x86_64': 274, 'aarch64': 100}[platform.machine()]\n"
                              "h = ctypes.c_void_p(); n = ctypes.c_size_t()\n"
                              "print(libc.syscall(nr, 0, ctypes.byref(h), ctypes.byref(n)), bool(h.value), n.value)",
    "os_fork": "import os\npid = os.fork()\nif pid == 0:\n    print('child', flush=True); os._exit(3)\n"
               "_, st = os.waitpid(pid, 0)\nprint('parent', os.waitstatus_to_exitcode(st))",
    "fork_from_a_thread": "import os, threading\nout = []\ndef go():\n    pid = os.fork()\n"
                          "    if pid == 0:\n        print('child', threading.active_count(), flush=True); os._exit(0)\n"
                          "    out.append(os.waitpid(pid, 0)[1])\nt = threading.Thread(target=go); t.start(); t.join()\nprint(out)",
    "threads_then_fork": "import os, threading, time, warnings\nwarnings.simplefilter('ignore')\n"
                         "lock = threading.Lock(); ev = threading.Event()\ndef hold():\n    with lock:\n"
                         "        ev.set(); time.sleep(0.3)\nthreading.Thread(target=hold).start(); ev.wait()\n"
                         "pid = os.fork()\nif pid == 0:\n    print('child', threading.active_count(), flush=True); os._exit(0)\n"
                         "os.waitpid(pid, 0); print('parent')",
    "rlock_across_fork": "import os, threading\nr = threading.RLock(); r.acquire(); r.acquire()\npid = os.fork()\n"
                         "if pid == 0:\n    print('child', r.acquire(timeout=1), flush=True); os._exit(0)\n"
                         "os.waitpid(pid, 0); r.release(); r.release(); print('parent ok')",
    "errorcheck_and_recursive_mutexes": "import ctypes\nlibc = ctypes.CDLL(None)\n"
                                        "a = ctypes.create_string_buffer(64); libc.pthread_mutexattr_init(a)\nout = []\n"
                                        "for kind in (2, 1):\n    libc.pthread_mutexattr_settype(a, kind)\n"
                                        "    m = ctypes.create_string_buffer(64); libc.pthread_mutex_init(m, a)\n"
                                        "    out += [libc.pthread_mutex_lock(m), libc.pthread_mutex_lock(m), "
                                        "libc.pthread_mutex_unlock(m), libc.pthread_mutex_unlock(m), libc.pthread_mutex_unlock(m)]\n"
                                        "print(out)",
    "subprocess_and_system": "import os, subprocess, sys\n"
                             "print(subprocess.run([sys.executable, '-c', 'print(7)'], capture_output=True, text=True).stdout.strip())\n"
                             "print(os.system('exit 3') >> 8, subprocess.check_output(['echo', 'hi']).decode().strip())",
    "multiprocessing_fork": "import multiprocessing as mp\nif __name__ == '__main__':\n"
                            "    with mp.get_context('fork').Pool(2) as p:\n        print(p.map(abs, [-1, -2, 3]))",
    "multiprocessing_spawn": "import multiprocessing as mp\nif __name__ == '__main__':\n"
                             "    p = mp.get_context('spawn').Process(target=print, args=('spawned',)); p.start(); p.join()\n"
                             "    print(p.exitcode)",
    "hashlib_ssl_after_fork": "import hashlib, os, ssl\npid = os.fork()\nif pid == 0:\n"
                              "    print(hashlib.sha256(b'x').hexdigest()[:8], len(ssl.RAND_bytes(8)), flush=True); os._exit(0)\n"
                              "os.waitpid(pid, 0)\nprint(hashlib.md5(b'y').hexdigest()[:8])",
    # OpenBLAS (loaded by the program's numpy: the zygote imports neither) registers an at-fork handler; its threads start lazily
    "openblas_threads_then_fork": "import ctypes, os\nimport numpy as np\n"
                                  "ctypes.CDLL('libopenblas.so.0').openblas_set_num_threads(2)\n"
                                  "a = np.ones((300, 300))\nprint(float((a @ a)[0, 0]), flush=True)\npid = os.fork()\n"
                                  "if pid == 0:\n    print(float((a @ a)[1, 1]), flush=True); os._exit(0)\n"
                                  "os.waitpid(pid, 0)\nprint(float((a @ a)[2, 2]))",
}


def result(g: SyncGrader, code: str, expected: str) -> tuple:
    r = g.grade(py(code, [("", expected)], return_output=True, time_limit_s=5.0))
    t = r["tests"][0] if r["tests"] else {}
    return r["verdict"], t.get("exit_code"), t.get("signal"), t.get("stdout")


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_a_cloned_program_gets_the_verdict_an_exec_gets(graders, backend, name):
    """Same verdict, exit, signal and output as under exec; the exec's output as the expected one
    is accepted when the program exits 0, and that output with one more token is not. gVisor
    forks through the middle process (glibc's fork()): the same bar."""
    warm, cold = graders(backend)
    code = PROGRAMS[name]
    want = result(cold, code, "")
    got = result(warm, code, "")
    assert got == want, (got, want)
    verdict, exit_code, _, stdout = result(warm, code, want[3])
    assert verdict == ("accepted" if exit_code == 0 else want[0]), (verdict, want)
    assert result(warm, code, want[3] + "x\n")[0] == ("wrong_answer" if exit_code == 0 else want[0])


# A robust mutex in shared memory, held by the program's own process when it execs: the kernel
# walks the process's robust list at exec (and exit) and marks the mutex owner-dead, so the child
# waiting for it gets EOWNERDEAD at once. Without a registered list it stays locked: ETIMEDOUT.
ROBUST = r"""
import ctypes, mmap, os, sys, time
libc = ctypes.CDLL(None, use_errno=True)
buf = mmap.mmap(-1, 4096)
m = ctypes.c_void_p(ctypes.addressof(ctypes.c_char.from_buffer(buf)))
attr = ctypes.create_string_buffer(64)
libc.pthread_mutexattr_init(attr); libc.pthread_mutexattr_setpshared(attr, 1); libc.pthread_mutexattr_setrobust(attr, 1)
libc.pthread_mutex_init(m, attr)
libc.pthread_mutex_lock(m)
r, w = os.pipe()
if os.fork() == 0:
    os.close(r)
    time.sleep(0.3)
    class TS(ctypes.Structure):
        _fields_ = [("s", ctypes.c_long), ("n", ctypes.c_long)]
    rc = libc.pthread_mutex_timedlock(m, ctypes.byref(TS(int(time.time()) + 2, 0)))
    os.write(w, {130: b"EOWNERDEAD", 110: b"ETIMEDOUT"}.get(rc, str(rc).encode()))
    os._exit(0)
os.close(w)
os.set_inheritable(r, True)
os.execv(sys.executable, [sys.executable, "-c", f"import os; print(os.read({r}, 64).decode())"])
"""


def test_a_robust_mutex_the_program_holds_is_released_when_it_execs(graders, backend):
    """glibc's fork() registers the child's robust-mutex list again (the kernel clears it in every
    new process); a raw clone that skipped it left a robust mutex locked forever: ETIMEDOUT where
    an exec'd program printed EOWNERDEAD (the verdict of a right answer flipped)."""
    warm, cold = graders(backend)
    assert result(cold, ROBUST, "EOWNERDEAD\n")[0] == "accepted"
    assert result(warm, ROBUST, "EOWNERDEAD\n")[:2] == ("accepted", 0)
    assert result(warm, ROBUST, "ETIMEDOUT\n")[0] == "wrong_answer"


# A judged task's program process (serve.py's loop) and its judge are clones of the zygote too.
JUDGED = r"""
import ctypes, os, platform, signal, threading, time
def f():
    hit = []
    signal.signal(signal.SIGUSR1, lambda *a: hit.append(1))
    m = threading.main_thread().ident
    t = threading.Thread(target=lambda: signal.pthread_kill(m, signal.SIGUSR1))
    t.start(); t.join(); time.sleep(0.05)
    h, n = ctypes.c_void_p(), ctypes.c_size_t()
    ctypes.CDLL(None).syscall({'x86_64': 274, 'aarch64': 100}[platform.machine()], 0, ctypes.byref(h), ctypes.byref(n))
    pid = os.fork()
    if pid == 0:
        os._exit(3)
    return [len(hit), bool(h.value), os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])]
"""


def test_a_judged_programs_clone_signals_forks_and_holds_robust_mutexes_as_an_exec(graders, backend):
    for g in graders(backend):
        for expected, verdict in (([1, True, 3], "accepted"), ([0, True, 3], "wrong_answer"), ([1, False, 3], "wrong_answer")):
            r = g.grade({"kind": "code", "language": "python", "entry_point": "f", "completion": f"```python\n{JUDGED}\n```",
                         "call_tests": [{"args": [], "expected": expected}]})
            assert r["verdict"] == verdict, (expected, r)


# Job 1 renices the zygote (so the runner replaces it: a new one warms up and probes clone(CLONE_PARENT)
# and glibc's TID word right after this job) and leaves pid churn: children that exit unwaited, orphans
# that sleep. The new zygote's forks must still be clones (consecutive pids, PID 1's children) that
# see their own TID word and robust list, and grade right.
# which box ran a job: its PID 1's start time (a box replaced between jobs has its zygote at the same pid again)
BOX_ID = "BOX = open('/proc/1/stat').read().rsplit(')', 1)[1].split()[19]\n"
HOSTILE = FIND_WARM + BOX_ID + r"""
import time
z = warm()["zygote"]
os.setpriority(os.PRIO_PROCESS, z, 19)
try:
    for _ in range(30):
        if os.fork() == 0:
            os._exit(0)
    for _ in range(8):
        if os.fork() == 0:
            if os.fork() == 0:
                time.sleep(30)
            os._exit(0)
except OSError:
    pass
print(z, BOX)
"""
AFTER = FIND_WARM + BOX_ID + r"""
import ctypes, platform, signal, threading, time
hit = []
signal.signal(signal.SIGUSR1, lambda *a: hit.append(1))
m = threading.main_thread().ident
t = threading.Thread(target=lambda: signal.pthread_kill(m, signal.SIGUSR1)); t.start(); t.join(); time.sleep(0.05)
h, n = ctypes.c_void_p(), ctypes.c_size_t()
ctypes.CDLL(None).syscall({'x86_64': 274, 'aarch64': 100}[platform.machine()], 0, ctypes.byref(h), ctypes.byref(n))
print(os.getpid(), os.getppid(), warm()["zygote"], len(hit), bool(h.value), BOX)
"""


def test_a_zygote_warmed_up_after_a_hostile_job_still_clones_right(graders):
    """Docker only: what it checks is the raw clone with no middle process, which is Linux's; gVisor's kernel
    ignores CLONE_PARENT and the zygote is the program's parent there (tests/test_sandbox_warm.py
    test_a_forked_program_is_one_process_with_no_middle_process says so per backend)."""
    warm, cold = graders("docker")
    z, box = outputs(warm, HOSTILE)[0].split()
    got = [line.split() for line in outputs(warm, AFTER, ["", "", ""])]
    assert all(g[1:5] == ["1", got[0][2], "1", "True"] for g in got), (z, got)
    # its zygote replaced, the box kept: the new zygote's clone probe is reaped before the reset reads what is
    # left (zygote.py ended; CI49 found the box replaced for that probe's zombie)
    assert got[0][2] != z and got[0][5] == box, (z, box, got)
    pids = [int(p) for p in outputs(warm, "import os\nprint(os.getpid())", ["", "", "", ""])]
    assert [b - a for a, b in zip(pids, pids[1:])] == [1, 1, 1], pids  # clones: no middle process between
    grades_right(warm)



PROBE_CLONES = """
import sys, threading, time
sys.path.insert(0, "sandbox/harness")
import zygote
for _ in range(int(sys.argv[1])):
    threading.Thread(target=time.sleep, args=(5,), daemon=True).start()
print(zygote.parent_clones())
"""


def test_a_process_with_a_thread_never_forks_by_raw_clone():
    """glibc's fork() takes and resets its malloc, stdio and loader locks and runs at-fork handlers
    when other threads run; the raw clone does none of it, so it is safe only in a single-threaded
    process (the zygote: nothing it imports starts a thread). With a thread, parent_clones must say
    no (the middle process then forks), here where clone(CLONE_PARENT) works: under a shell, which
    reaps the probe's child."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    for threads, want in (("0", "True"), ("1", "False")):
        done = subprocess.run(["sh", "-c", '"$0" -I -c "$1" "$2"; :', sys.executable, PROBE_CLONES, threads],
                              cwd=root, capture_output=True, text=True, timeout=60)
        assert done.stdout.strip() == want, (threads, done.stdout, done.stderr[-2000:])

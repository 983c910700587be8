"""Red team rtb15 (red team 16) of b5d1131 (issue 30: every channel of a trusted process is a socket, pid1.channel(); a
pipe only for a program's own std stream, pid1.std_pipe(); ruff's banned-api refuses os.pipe elsewhere in
sandbox/harness), through real grading boxes and real session boxes on docker, gvisor and userns (tests/conftest.py
`any_grader`). Under gVisor PID 1's effective uid is the program's and PR_SET_DUMPABLE is ignored in /proc, so a
program may open through /proc/<pid>/fd any pipe a trusted process holds. Classes 3 and 8 of /work/shared/RED-TEAM.md.
Verdicts only, no durations.

FINDINGS (closed since: the tests below pass on every backend):
- class 8, gvisor (a session), CLOSED by pid1.start (a start whose exec report is a pid1.channel(); ruff's banned-api
  now refuses every subprocess start in sandbox/harness but the runner's exec-mode one, while no program process lives): the pipe the banned-api cannot see is the standard library's. subprocess.Popen makes one
  per start (its `errpipe`, os.pipe() inside subprocess.py, under PID 1's effective uid: the program's), and reads it
  to EOF to learn whether the child's exec failed: "ExceptionName:hex_errno:message", where ExceptionName is looked up
  in builtins. A session's PID 1 (session_box.py) Popens a fresh shell launcher (session_tools.Launcher) whenever the
  old one is gone, while the daemons of earlier commands live. A daemon that opens /proc/1/fd/<errpipe> for writing
  (gVisor: allowed, the pipe's owner is the program's uid) and
    * writes "ValueError:0:..." and kills the fresh launcher: Popen raises ValueError in PID 1, which is not
      LauncherFailed: the command is `crashed`, lost, "session supervisor: ValueError: ..."; the session dropped;
    * writes "SystemExit:0:...": Popen raises SystemExit, PID 1 (the container's init) exits: "the session's container
      stopped answering (runner channel closed)", runsc exit 1;
    * holds the write end open, writing nothing: Popen's read never sees EOF, PID 1 hangs: after the command's wall
      limit and 10 s, "the session's container stopped answering (runner did not answer in time)", lost.
  Docker and userns held (/proc/1/fd: EACCES, PID 1 non-dumpable, real uid the judge's). runsc (Docker with gVisor's
  runtime, cut here) is open too: seen by hand, "session supervisor: ValueError", lost. The grading runner was not
  found open to it: its Popens (a stdin program's start, judge.start_program in exec mode) run when no process of the
  program lives (kill_all_others/kill_program before them). Fix idea: no subprocess.Popen in a process whose
  effective uid is the program's where a program process may live (a launcher started by fork + exec with a socket
  for its exec status, as zygote/fork_through_middle are; or the ruff ban extended to subprocess.Popen, or a Popen
  subclass whose errpipe is pid1.channel()). After the fix the daemon still opens the fresh command's own output pipes
  (pid1.std_pipe) and may kill the launcher (the session's own process): the command's own time_limit, never lost.
HELD: a grading box's trusted processes (runner, warm mother and zygote, judge; stdin, call_tests and test_code) give
a program no fd through /proc/<pid>/fd or /proc/<pid>/task/<tid>/fd that is not its own std stream, nor their memory
(/proc/<pid>/mem), mapped files (/proc/<pid>/map_files) or cwd/root; a call_tests program that leaves a daemon injecting
into and holding every pipe of other processes and crashes its serve process: the daemon dies with it (kill_program),
the restarted program answers the next test (accepted), never infra_error.
Noticed, not a test: under gVisor /proc/<pid>/environ and auxv of PID 1, the warm mother and zygote and a judge are
readable (the environment holds SANDBOX_IDS, SANDBOX_INODES, SANDBOX_WARM and thread counts: no secret today; a
secret ever put in the runner's environment would be the program's); a daemon of one session command can read or
write later commands' stdout and stderr pipes in PID 1 (the session's own output). A task's test code that runs the
program's file itself (`subprocess.run([sys.executable, "prog.py"])`) starts it as the judge's child: on docker with
real uid the judge's (it may signal the judge: kill(judge, 0) succeeded), on gvisor with every uid the judge's (prog.py,
the program's and 0600, then fails to open); outside this brief (the tests decide to run it), not a test.
"""
from __future__ import annotations

import pytest

from sandbox.session import SessionHost, SessionLimits
from tests import test_redteam_backends_8 as red_team_8
from tests.test_sandbox_security import SCAN_LOOP

session_host = red_team_8.session_host  # the module's fixture: a SessionHost on any_grader's backend

pytestmark = pytest.mark.docker  # the images (and the root filesystems exported from them)

SANDBOX = {"pool_name": "pytest-redteam-backends-16", "pool_size": 1, "languages": ("python",)}
BACKENDS_CUT = {"runsc": "the same Sentry as gvisor (Docker's runsc runtime): the brief's backends are docker, gvisor, userns"}


def brief(r: dict) -> tuple:
    return r.get("status"), r.get("lost"), r.get("exit_code"), str(r.get("detail"))[:200], str(r.get("value"))[:120]


# ----------------------------------------------------------------- 1. Popen's errpipe in a session's PID 1
# A daemon (setsid, out of its command's group) that watches PID 1's fds for a pipe it has not seen (every pipe PID 1
# holds when it starts is its own command's streams) and, per MODE: writes a forged exec failure into it and kills the
# fresh launcher (so Popen's waitpid returns), holds a write end open, or (the control) only notes it saw one.
INJECTOR = r"""import os, stat, sys, time, signal
mode, payload = sys.argv[1], sys.argv[2].encode()
log = open('/work/inj.log', 'a', buffering=1)
seen, held, killed, hunt, end = set(), [], set(), 0.0, time.time() + 25

def pipes():
    out = {}
    for n in os.listdir('/proc/1/fd'):
        try:
            fd = os.open('/proc/1/fd/' + n, os.O_WRONLY | os.O_NONBLOCK)
        except OSError:
            continue
        st = os.fstat(fd)
        if stat.S_ISFIFO(st.st_mode) and st.st_ino not in out:
            out[st.st_ino] = fd
        else:
            os.close(fd)
    return out

try:
    first = pipes()
except OSError as e:
    first = {}
    log.write('no /proc/1/fd: %s\n' % e.strerror)
for ino, fd in first.items():
    seen.add(ino)
    os.close(fd)
log.write('ready\n')
while time.time() < end:
    try:
        got = pipes()
    except OSError:
        time.sleep(0.01)
        continue
    for ino, fd in got.items():
        if ino not in seen:
            seen.add(ino)
            if mode == 'hold':
                held.append(os.dup(fd))
            elif mode == 'write':
                try:
                    os.write(fd, payload)
                    hunt = time.time() + 3
                except OSError as e:
                    log.write('write refused %s\n' % e.strerror)
            log.write('%s pipe\n' % mode)
        os.close(fd)
    if time.time() < hunt:  # the fresh launcher: killed, so that Popen's waitpid returns and it raises the payload
        for p in os.listdir('/proc'):
            if p.isdigit() and int(p) not in killed:
                try:
                    if b'session_spawn' in open('/proc/%s/cmdline' % p, 'rb').read():
                        os.kill(int(p), signal.SIGKILL)
                        killed.add(int(p))
                except OSError:
                    pass
"""
# The first command starts the daemon, waits for its `ready`, and kills its own launcher: the next command's launcher
# is a fresh Popen of PID 1's.
FIRST = ("setsid python3 /work/inj.py {mode} '{payload}' </dev/null >/dev/null 2>&1 & "
         "while [ ! -s /work/inj.log ]; do sleep 0.02; done; kill -9 $PPID")
ERRPIPE = {  # name: (mode, payload)
    "raise": ("write", "ValueError:0:forged by a daemon"),
    "exit": ("write", "SystemExit:0:forged by a daemon"),
    "hold": ("hold", ""),
    "watch": ("watch", ""),  # the control: the daemon sees the pipe and does nothing to it
}
@pytest.mark.parametrize("name", list(ERRPIPE))
def test_a_daemon_cannot_forge_or_stall_the_launchers_start_through_its_error_pipe(
        session_host: SessionHost, backend: str, name: str, request: pytest.FixtureRequest) -> None:
    """Safe outcome: the command after the daemon's start (a fresh launcher) is the program's (ok, its exit 3, or its
    own failure), never `lost` nor 'session supervisor', and a cell after it answers 2. Near miss: the daemon ran and
    said `ready` (before pid1.start, on gVisor it opened PID 1's new error pipe: its log said so; docker and userns
    refuse /proc/1/fd).
    `watch` is the control: the same daemon that writes nothing (passes everywhere)."""
    mode, payload = ERRPIPE[name]
    box = session_host.take_box("python", SessionLimits(time_limit_s=6), {})
    try:
        wrote = box.write("inj.py", INJECTOR.encode())
        first = box.shell(FIRST.format(mode=mode, payload=payload), 2, 4096)
        second = box.shell("echo mine; exit 3", 1, 4096)
        cell = box.cell("1 + 1")
        log = box.read("inj.log", 4096) if not cell.get("lost") else {}
    finally:
        session_host.destroy(box)
    print(name, brief(first), brief(second), brief(cell), log)
    assert wrote.get("ok") is True and not first.get("lost"), (wrote, brief(first))
    assert not second.get("lost") and "session supervisor" not in str(second.get("detail")), brief(second)
    if mode == "write":  # the daemon kills the fresh launcher (a process of the session's): the command's own failure
        assert second.get("status") == "time_limit" and "launcher" in str(second.get("detail")) or \
            second.get("exit_code") == 3, brief(second)
    else:
        assert (second.get("status"), second.get("exit_code"), second.get("stdout")) == ("ok", 3, "mine\n"), brief(second)
    assert (cell.get("status"), cell.get("value"), bool(cell.get("lost"))) == ("ok", "2", False), brief(cell)
    data = log.get("data", b"")
    assert b"ready\n" in data, log
    # Not asserted: that under gVisor it saw PID 1's new pipes (the next command's own output, pid1.std_pipe), which live
    # for that command's few milliseconds: a poll a loaded host delays may miss them (it saw them in every run here).


# ----------------------------------------------------------------- 2. a grading box's trusted processes, widely
# What a program can open of every other process: fds (the process's and each thread's), memory, mapped files, cwd and
# root, scanned for SCAN_S while the runner (and a judge) serve it. Grants nothing: a named file or directory (its own
# modes decide), a device open to all, the program's own std streams (by inode).
WIDE_SCAN = SCAN_LOOP + r'''SCAN_S = 1.0

def wide_scan():
    return scan(reach, SCAN_S)

def reach(pid, own):
    base, found = '/proc/' + pid, []
    try:
        with open(base + '/maps') as f:
            lo = int(f.readline().split('-')[0], 16)
        with open(base + '/mem', 'rb') as f:
            f.seek(lo)
            if f.read(16):
                found.append(pid + ' mem')
    except (OSError, ValueError):
        pass
    for d in ('cwd', 'root'):
        try:
            os.listdir(base + '/' + d)
            found.append(pid + ' ' + d)
        except OSError:
            pass
    try:
        for n in os.listdir(base + '/map_files'):
            try:
                os.close(os.open(base + '/map_files/' + n, os.O_RDONLY))
                found.append(pid + ' map_files')
            except OSError:
                pass
    except OSError:
        pass
    try:
        dirs = [base] + [base + '/task/' + t for t in os.listdir(base + '/task')]
    except OSError:
        dirs = [base]
    for d in dirs:
        try:
            names = os.listdir(d + '/fd')
        except OSError:
            continue
        for n in names:
            for mode in (os.O_RDONLY, os.O_WRONLY):
                try:
                    fd = os.open(d + '/fd/' + n, mode | os.O_NONBLOCK | os.O_NOCTTY)
                except OSError:
                    continue
                st = os.fstat(fd)
                os.close(fd)
                m = st.st_mode
                if stat.S_ISREG(m) and st.st_nlink or stat.S_ISDIR(m) or (st.st_dev, st.st_ino) in own:
                    continue
                if stat.S_ISCHR(m) and m & 0o666 == 0o666:
                    continue
                found.append('%s fd %s %s nlink %d' % (d, n, stat.filemode(m), st.st_nlink))
    return found

def sees_own():
    """The near miss: the same reach() finds the memory and a pipe of a child of the program's own."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        time.sleep(3)
        os._exit(0)
    try:
        got = reach(str(pid), set())
        return any(g.endswith(' mem') for g in got) and any(' prw' in g for g in got)
    finally:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        os.close(r)
        os.close(w)
'''


@pytest.mark.in_process  # reads the program's output (return_output is not on the wire)
@pytest.mark.parametrize("how", ["stdin", "call_tests", "test_code", "pytest"])
def test_nothing_of_a_trusted_process_opens_but_named_files(any_grader, how: str) -> None:
    """Held: fds of every thread, memory, mapped files, cwd and root of the runner, the warm interpreter's two and a
    judge grant a program nothing (an unlinked file, a memfd, is no named file: it counts). Near miss (sees_own): the
    same reach() finds the memory and a pipe of the program's own child."""
    task = {"language": "python", "completion": WIDE_SCAN, "return_output": True, "time_limit_s": 10}
    if how == "stdin":
        task["completion"] += "print(wide_scan(), sees_own())\n"
        task["tests"] = [{"stdin": "", "expected_stdout": "[] True\n"}]
    elif how == "call_tests":
        task["completion"] += "def both():\n    return [wide_scan(), sees_own()]\n"
        task.update(entry_point="both", call_tests=[{"args": [], "expected": [[], True]}])
    elif how == "test_code":
        task["test_code"] = "got = wide_scan()\nassert got == [], got\nassert sees_own()\n"
    else:
        task["test_code"] = ("from solution import sees_own, wide_scan\n\n\ndef test_none():\n    got = wide_scan()\n"
                             "    assert got == [], got\n    assert sees_own()\n")
        task["test_framework"] = "pytest"
    r = any_grader.grade(task)
    assert r["verdict"] == "accepted", r


# ----------------------------------------------------------------- 3. a judge's restart with a daemon about
# The first call leaves a daemon that writes a forged exec failure into, and holds, every pipe of another process it
# can open (the judge's Popen errpipe in exec mode; whatever the zygote holds in warm mode), then ends its serve
# process: the judge kills every process of the program's uid and starts a fresh one for the next call.
RESTART = r'''import os, stat, sys, time

def daemon():
    held, end = [], time.time() + 8
    while time.time() < end:
        for pid in os.listdir('/proc'):
            if not pid.isdigit() or int(pid) == os.getpid():
                continue
            try:
                names = os.listdir('/proc/%s/fd' % pid)
            except OSError:
                continue
            for n in names:
                try:
                    fd = os.open('/proc/%s/fd/%s' % (pid, n), os.O_WRONLY | os.O_NONBLOCK)
                except OSError:
                    continue
                if stat.S_ISFIFO(os.fstat(fd).st_mode):
                    try:
                        os.write(fd, b'ValueError:0:forged')
                    except OSError:
                        pass
                    held.append(fd)
                else:
                    os.close(fd)

def f(x):
    if x == 1:
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                daemon()
            os._exit(0)
        time.sleep(0.3)
        os._exit(3)
    return x * 2
'''


def test_a_daemon_of_a_crashed_call_dies_before_the_judge_restarts_the_program(any_grader) -> None:
    """Held: the judge's restart after a crash (a daemon injecting into and holding every pipe it can open) is a
    fresh program: the crash is the first test's failure, the second test passes, never infra_error."""
    task = {"language": "python", "completion": RESTART, "entry_point": "f", "time_limit_s": 4,
            "call_tests": [{"args": [1], "expected": 2}, {"args": [2], "expected": 4}, {"args": [3], "expected": 6}]}
    r = any_grader.grade({**task, "scoring": "fraction"})
    assert r["verdict"] != "infra_error", r
    assert [t["verdict"] for t in r["tests"]][1:] == ["accepted", "accepted"], r
    assert r["tests"][0]["verdict"] != "accepted", r  # the near miss: the crash is the program's


# ----------------------------------------------------------------- 4. the same by system call
# The /proc files' system calls: process_vm_readv of a trusted process's first mapping, PTRACE_SEIZE, and
# pidfd_getfd of its fds 0-3 (a pidfd is what the kernel hands an fd through without /proc).
BY_SYSCALL = r'''import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)

class Iovec(ctypes.Structure):
    _fields_ = [("base", ctypes.c_void_p), ("len", ctypes.c_size_t)]

def reached():
    got = []
    for pid in os.listdir('/proc'):
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            with open('/proc/%s/maps' % pid) as f:
                lo = int(f.readline().split('-')[0], 16)
        except (OSError, ValueError):
            continue
        buf = ctypes.create_string_buffer(16)
        mine, theirs = Iovec(ctypes.cast(buf, ctypes.c_void_p), 16), Iovec(lo, 16)
        if libc.process_vm_readv(int(pid), ctypes.byref(mine), 1, ctypes.byref(theirs), 1, 0) > 0:
            got.append(pid + ' process_vm_readv')
        if libc.ptrace(0x4206, int(pid), 0, 0) == 0:  # PTRACE_SEIZE
            got.append(pid + ' ptrace')
        try:
            pidfd = os.pidfd_open(int(pid))
        except OSError:
            continue
        for n in range(4):
            fd = libc.syscall(438, pidfd, n, 0)  # pidfd_getfd
            if fd >= 0:
                got.append('%s pidfd_getfd %d' % (pid, n))
                os.close(fd)
        os.close(pidfd)
    return got

def own_child():
    """The near miss: the memory of a child of the program's own (its uid, dumpable) reads through /proc."""
    pid = os.fork()
    if pid == 0:
        import time
        time.sleep(3)
        os._exit(0)
    try:
        with open('/proc/%d/maps' % pid) as f:
            lo = int(f.readline().split('-')[0], 16)
        with open('/proc/%d/mem' % pid, 'rb') as f:
            f.seek(lo)
            return len(f.read(16)) == 16
    finally:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
'''


def test_no_trusted_process_memory_or_fd_by_system_call(any_grader) -> None:
    """Held: process_vm_readv, PTRACE_SEIZE and pidfd_getfd on the runner, the warm interpreter's two and a judge (and
    the syntax checker) all refused (the program syscall policy, syscalls.py), while the judge runs the tests; near
    miss: /proc/<pid>/mem of the program's own child reads."""
    task = {"language": "python", "completion": BY_SYSCALL, "test_code": "assert own_child()\ngot = reached()\nassert got == [], got\n"}
    r = any_grader.grade(task)
    assert r["verdict"] == "accepted", r


# ----------------------------------------------------------------- 5. writing a trusted process's /proc files
# Under gVisor a trusted process's /proc files are owned by its effective uid, the program's (the fd scan's root); its
# name (comm), OOM score and timer slack, if written, would outlive the job (PID 1, the warm mother and zygote serve
# the next ones, and the zygote's name is every later program's: bits carried to the next job) or steer the host.
WRITE_PROC = r'''import os

def written():
    done = []
    for pid in os.listdir('/proc'):
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        for name, value in (('comm', b'carried'), ('oom_score_adj', b'1000'), ('timerslack_ns', b'7777777')):
            try:
                with open('/proc/%s/%s' % (pid, name), 'wb', buffering=0) as f:
                    f.write(value)
                done.append(pid + ' ' + name)
            except OSError:
                pass
    return done

def own_name():
    """The near miss: the program's own name is its to write."""
    with open('/proc/self/comm', 'wb', buffering=0) as f:
        f.write(b'mine')
    with open('/proc/self/comm', 'rb') as f:
        return f.read().strip() == b'mine'
'''


def test_no_trusted_process_file_in_proc_is_the_programs_to_write(any_grader) -> None:
    """Held: comm, oom_score_adj and timerslack_ns of the runner, the warm interpreter's two and a judge refuse the
    program's writes (gVisor: EACCES or EINVAL though some open for writing), while its own comm takes one."""
    task = {"language": "python", "completion": WRITE_PROC,
            "test_code": "assert own_name()\ngot = written()\nassert got == [], got\n"}
    r = any_grader.grade(task)
    assert r["verdict"] == "accepted", r

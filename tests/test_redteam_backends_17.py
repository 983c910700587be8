"""Red team rtb17 (red team 17) of issue 30's process start (pid1.start: fork and exec with exec's failure reported on a
pid1.channel() socket pair; used by a session's Kernel and Launcher and the judge's start_program) and the socket-pair
channels of the zygote and repo_tree, through real grading boxes and real session boxes on docker, gvisor and userns
(tests/conftest.py `any_grader`), as a generated program attacks them. Classes 3, 5, 6 and 8 of
/work/shared/RED-TEAM.md. Verdicts only, no durations.

FINDINGS:
1. CLOSED (pid1.start waits for the child's exec at most start_s, then kills it: ETIME, the launcher's
   LauncherFailed, the command's own 126; tests/test_harness_limits.py shows the bound host-side). class 8, gvisor (strict xfail) and docker (a race: non-strict xfail), a session: a daemon of an earlier command stops
   the fresh launcher PID 1 starts, in pid1.start's window between preexec and exec. preexec (program_limits.apply)
   first makes every uid the program's, then sets limits and writes oom_score_adj; from the setresuid on, the child is
   the program's to signal (kill(2): the sender's uid is the target's real or saved uid), while it still holds the
   write end of the start report and has not reached execve (whose close-on-exec would end the report). PID 1 reads
   that report to its end with no bound (`f.read(16)` in pid1.start), holding the box's lock: a daemon spinning
   kill(pid, SIGSTOP) on the pids after its own and leaving stopped a process whose cmdline is still PID 1's makes PID
   1 never answer: the command is `crashed`, lost, "the session's container stopped answering (runner did not answer in
   time)", the session dropped. gvisor: at the first command in every run (5 of 5); docker: the same window, shorter,
   won in 3 of 7 runs (else every stop landed after exec); userns: never won in 7 runs. The control (the same daemon
   resuming at once what it stopped before exec) held everywhere: the command's own exit 126, 3 or -9, never lost.
   The judge's start_program has the same window (as_program makes every uid the program's before exec) but no program
   process lives there (kill_program's kill(-1) ended even a comet: item 3). Fix idea: pid1.start must not wait
   unboundedly on a process the program may stop: bound the report's read (a deadline past which the child is
   SIGKILLed and the start fails as OSError ETIME: LauncherFailed, the command's own 126), or leave no window (the
   limits set while the child is still the judge's uid, the uid drop the last step before execve, in a small exec
   helper rather than Python); resuming the child while reading (Launcher._line's RESUME_S) closes the stop only.
HELD:
2. a trusted process's /proc files (environ, cmdline, auxv, stat, status, maps and every other readable one) of the
   runner, the warm interpreter's two and a judge never hold the test's expected output, a call test's expected value
   or the test code's text (a marker planted there, looked for in every readable /proc/<pid>/* of every other process,
   stdin, call_tests and test_code); the environment names a program reads there (gVisor: PID 1, warm mother, zygote,
   judge; Docker: none readable) and in a session's PID 1 are a known, secret-free set (ENV_NAMES).
3. the judge's restart after a crash: a comet (a process that forks and exits without pause, in its own session) that
   SIGSTOPs every newer pid it may, left by the first call: kill_program's kill(-1) ends it (Linux and gVisor deliver a
   kill(-1) to a child forked during it), the restarted program answers the next calls (accepted), never infra_error.
4. a session whose daemons hold every pid they can get (fork until EAGAIN) and kill the launcher: the next command is
   its own exit 126 (LauncherFailed -> not_started) or runs, never lost; a cell still answers.
5. the drain of a grading box: a job's program leaving a comet that ignores every catchable signal, a setsid
   double-forked stopper and a SIGSTOPped child: the next job in the same box sees no process of the program's uid
   but its own, and is graded (accepted).
6. a special checker's restart (sandbox/job.py _checked: the checker failed on the program's output, run again on
   the reference answer): a program that prints what the checker fails on and leaves a stopper daemon and a fixed
   /tmp path the checker writes: wrong_answer, never infra_error; the right output with the same leftovers: accepted.
7. a call_tests program that removes its own job dir (rmtree of its cwd) and ends its process: the judge's restart
   fails (the cwd is gone), every later call is the program's runtime_error, never infra_error nor a WireError out of
   the judge; the same program keeping its dir passes its later calls.
Noticed, not a test: a program can prlimit the pre-exec child in the same window (its RLIMIT_AS, NOFILE or CPU): the
exec then fails or the child dies, which pid1.start reports as OSError or the launcher's missing `ready` (LauncherFailed:
the command's own 126). On docker a daemon may also pin PID 1's fresh fork to its own busy CPU with SCHED_IDLE before
the fork drops its uids (sched_setaffinity and sched_setscheduler ask only for the same effective uid, which PID 1's
is): the pre-exec child crawls, every later command was its own 126 (no launcher `ready` within its wall limit), and
in one run of two a command was lost ("runner did not answer in time"): the same unbounded read as item 1, the same
fix (gVisor refuses SCHED_IDLE there: not reached).
"""
from __future__ import annotations

import time

import pytest

from sandbox.session import SessionHost, SessionLimits
from sandbox.sync import SyncGrader
from tests import test_redteam_backends_8 as red_team_8

session_host = red_team_8.session_host  # the module's fixture: a SessionHost on any_grader's backend

pytestmark = pytest.mark.docker  # the images (and the root filesystems exported from them)

SANDBOX = {"pool_name": "pytest-redteam-backends-17", "pool_size": 1, "languages": ("python",)}
BACKENDS_CUT = {"runsc": "the same Sentry as gvisor (Docker's runsc runtime): the brief's backends are docker, gvisor, userns"}


def brief(r: dict) -> tuple:
    return r.get("status"), r.get("lost"), r.get("exit_code"), str(r.get("detail"))[:200], str(r.get("value"))[:120]


# ----------------------------------------------------------------- 1. a launcher stopped between preexec and exec
# A daemon (setsid, out of its command's group) that learns the newest pid (a child of its own), then spins
# kill(pid, SIGSTOP) on the next few: before the fresh launcher's preexec drops its uids the kill is refused (EPERM);
# after it, it lands. A stopped process whose cmdline is not yet session_spawn's is the pre-exec child; per MODE it is
# left stopped (`stop`) or resumed at once (`cont`, the control). One stopped after its exec is killed, so that PID 1
# starts another launcher (two per command: session_box._shell) and the daemon tries again.
STOPPER = r"""import os, signal, sys, time
hold = sys.argv[1] == 'stop'
log = open('/work/stop.log', 'a', buffering=1)
log.write('ready\n')
time.sleep(0.5)
pid1 = open('/proc/1/cmdline', 'rb').read()  # a fork of PID 1 before its exec has PID 1's
c = os.fork()
if c == 0:
    os._exit(0)
os.waitpid(c, 0)
base, end, kill = c, time.time() + 60, os.kill
while time.time() < end:
    for p in range(base + 1, base + 12):
        try:
            kill(p, signal.SIGSTOP)
        except OSError:
            continue
        try:
            cmd = open('/proc/%d/cmdline' % p, 'rb').read()
        except OSError:
            cmd = b'?'
        if cmd == pid1:
            log.write('stopped %d before its exec\n' % p)
            if not hold:
                kill(p, signal.SIGCONT)
        elif b'session_spawn' in cmd:
            log.write('killed %d after its exec\n' % p)
            kill(p, signal.SIGKILL)  # too late: PID 1 starts another launcher (twice a command: session_box._shell)
        else:
            kill(p, signal.SIGCONT)
        base = max(base, p)
"""
FIRST = ("setsid python3 /work/stop.py {mode} </dev/null >/dev/null 2>&1 & "
         "while [ ! -s /work/stop.log ]; do sleep 0.02; done; kill -9 $PPID")

@pytest.mark.parametrize("mode", ["stop", "control"])
def test_a_daemon_cannot_stall_pid1_by_stopping_a_fresh_launcher_before_its_exec(
        session_host: SessionHost, backend: str, mode: str) -> None:
    """Safe outcome: every command after the daemon's start is the program's (its exit 3, its launcher's loss -9 or
    time_limit, or not started: 126), never `lost`, and a cell after them answers 2. `cont` is the control: the same
    daemon resumes a pre-exec child it stopped (passes everywhere); its log shows it stopped launchers."""
    box = session_host.take_box("python", SessionLimits(time_limit_s=2), {})
    try:
        wrote = box.write("stop.py", STOPPER.encode())
        first = box.shell(FIRST.format(mode=mode), 2, 4096)
        time.sleep(1.0)  # the daemon's own start is over before the next launcher's (not a timed assertion)
        later: list[dict] = []
        while len(later) < 12 and not any(x.get("lost") for x in later):
            later.append(box.shell("echo mine; exit 3", 1, 4096))
        cell = box.cell("1 + 1")
        log = box.read("stop.log", 1 << 16) if not cell.get("lost") else {}
    finally:
        session_host.destroy(box)
    print(backend, mode, brief(first), [brief(x) for x in later], brief(cell), log)
    assert wrote.get("ok") is True and not first.get("lost"), (wrote, brief(first))
    assert all(not x.get("lost") and "session supervisor" not in str(x.get("detail")) for x in later), \
        [brief(x) for x in later]
    assert all(x.get("exit_code") in (3, -9, 126) or x.get("status") == "time_limit" for x in later), \
        [brief(x) for x in later]
    assert (cell.get("status"), cell.get("value"), bool(cell.get("lost"))) == ("ok", "2", False), brief(cell)
    if backend != "userns":  # the near miss: it reached fresh launchers, before their exec (stopped: pid1.start then
        # kills them at its deadline) or after (killed); under userns its scan missed them in 1 of 2 runs at load 12
        assert b"killed " in log.get("data", b"") or b"stopped " in log.get("data", b""), log


# ----------------------------------------------------------------- 2. what a trusted process's /proc files hold
# A marker planted in the test's expected output, a call test's expected value or the test code, looked for in every
# readable file of /proc/<pid>/ (and each thread's) of every other process; and the environment names read there.
MARK = "zq7" + "PLANTED" + "w41"
SCAN_PROC = r'''import os
MARK = b'zq7' + b'PLANTED' + b'w41'
SKIP = ('mem', 'pagemap', 'clear_refs', 'kcore', 'task')

def proc_files():
    """(marker hits, environment names) over every readable file of every other process's /proc dir and threads."""
    me, hits, names = os.getpid(), [], set()
    for pid in os.listdir('/proc'):
        if not pid.isdigit() or int(pid) == me:
            continue
        dirs = ['/proc/' + pid]
        try:
            dirs += ['/proc/%s/task/%s' % (pid, t) for t in os.listdir('/proc/%s/task' % pid)]
        except OSError:
            pass
        for d in dirs:
            try:
                entries = os.listdir(d)
            except OSError:
                continue
            for n in entries:
                if n in SKIP:
                    continue
                try:
                    with open(d + '/' + n, 'rb') as f:
                        data = f.read(1 << 20)
                except OSError:
                    continue
                if MARK in data:
                    hits.append(d + '/' + n)
                if n == 'environ':
                    names.update(kv.partition(b'=')[0].decode('latin-1') for kv in data.split(b'\0') if kv)
    return hits, sorted(names)

def own_child_seen():
    """The near miss: the same reading finds the marker in the environ of a child of the program's own."""
    pid = os.fork()
    if pid == 0:
        import time
        os.execve('/bin/sleep', ['sleep', '3'], {'X': MARK.decode()})
    try:
        import time
        time.sleep(0.3)
        return any('/%d/' % pid in h for h in proc_files()[0])
    finally:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
'''
# What the environment of a trusted process holds, readable under gVisor (/proc/<pid>/environ: the Sentry does not
# honour PR_SET_DUMPABLE there): sandbox/pool.py's and the image's settings, none secret. A name added to a trusted
# process's environment fails here first: decide whether a program may read it before adding it to this list.
ENV_NAMES = frozenset({"PATH", "HOME", "LANG", "PYTHONDONTWRITEBYTECODE", "OMP_NUM_THREADS", "MKL_NUM_THREADS",
                       "OPENBLAS_NUM_THREADS", "NUMEXPR_NUM_THREADS", "SANDBOX_IDS", "SANDBOX_WARM", "SANDBOX_INODES"})


@pytest.mark.in_process  # reads the program's output (return_output is not on the wire)
@pytest.mark.parametrize("how", ["stdin", "call_tests", "test_code"])
def test_no_trusted_process_proc_file_holds_the_expected_answer_or_a_secret(any_grader: SyncGrader, how: str) -> None:
    """Held: no readable /proc file of the runner, the warm interpreter's two or a judge holds the planted expected
    value or test text; their environment names are ENV_NAMES'. Near miss (own_child_seen): the same reading finds
    the marker in the environment of the program's own child."""
    source = SCAN_PROC
    task: dict = {"language": "python", "return_output": True, "time_limit_s": 10}
    allowed = sorted(ENV_NAMES)
    check = f"hits, names = proc_files()\nassert hits == [] and set(names) <= set({allowed!r}), (hits, names)\n"
    if how == "stdin":
        source += check + "print('%s' if own_child_seen() else 'no near miss')\n" % MARK[::-1]
        task["tests"] = [{"stdin": "", "expected_stdout": MARK[::-1] + "\n"}, {"stdin": "", "expected_stdout": MARK + "x\n"}]
        task["scoring"] = "fraction"
    elif how == "call_tests":
        source += "def f(x):\n" + "".join("    " + line + "\n" for line in check.splitlines()) + \
            "    return own_child_seen() and x\n"
        task.update(entry_point="f", call_tests=[{"args": [1], "expected": 1}, {"args": [2], "expected": MARK}],
                    scoring="fraction")
    else:
        task["test_code"] = f"# {MARK}\n{check}assert own_child_seen()\n"
    r = any_grader.grade({**task, "completion": source})
    if how == "test_code":
        assert r["verdict"] == "accepted", r
    else:  # the planted test cannot pass; the other one passes only if nothing was found
        assert [t["verdict"] for t in r["tests"]] == ["accepted", "wrong_answer"], r


def test_a_sessions_trusted_processes_hold_no_secret_in_their_environment(session_host: SessionHost) -> None:
    """Held: a session command reads the environment names of every other process it can (PID 1 under gVisor, the
    interpreter and the launcher, which are the program's): ENV_NAMES' or the command's own (the program's)."""
    box = session_host.take_box("python", SessionLimits(time_limit_s=5), {})
    try:
        box.write("scan.py", (SCAN_PROC + "print('|'.join(proc_files()[1]))\nprint('|'.join(sorted(os.environ)))\n"
                                          "print(own_child_seen())\n").encode())
        r = box.shell("python3 /work/scan.py", 4, 1 << 16)
    finally:
        session_host.destroy(box)
    lines = str(r.get("stdout")).split("\n")
    assert r.get("exit_code") == 0 and lines[2:3] == ["True"], brief(r) + (r.get("stdout"), r.get("stderr"))
    names, own = (set(line.split("|")) - {""} for line in lines[:2])
    assert names <= ENV_NAMES | own, (names, own)


# ----------------------------------------------------------------- 3. the judge's restart with a comet about
# The first call leaves a comet (forks and exits without pause, in a session of its own) that SIGSTOPs every pid
# newer than its own it may (the restarted program's pre-exec child would be one), then ends its serve process.
COMET_STOPPER = r'''import os, signal, time

def comet(seconds):
    """Fork and exit, again and again; each hop SIGSTOPs the few pids after its own."""
    end = time.time() + seconds
    try:
        while time.time() < end:
            me = os.getpid()
            for p in range(me + 2, me + 6):
                try:
                    os.kill(p, signal.SIGSTOP)
                except OSError:
                    pass
            if os.fork():
                os._exit(0)
    finally:
        os._exit(0)

def start_comet(seconds):
    if os.fork() == 0:
        os.setsid()
        for s in range(1, 32):
            if s not in (signal.SIGKILL, signal.SIGSTOP):
                try:
                    signal.signal(s, signal.SIG_IGN)
                except (OSError, ValueError):
                    pass
        comet(seconds)
    time.sleep(0.3)
'''
RESTART = COMET_STOPPER + r'''
def f(x):
    if x == 1:
        start_comet(8)
        os._exit(3)
    return x * 2
'''


def test_a_comet_of_a_crashed_call_dies_before_the_judge_restarts_the_program(any_grader: SyncGrader) -> None:
    """Held: the crash is the first test's failure, the restarted program answers the next two (accepted), never
    infra_error nor a time limit: the comet did not outlive kill_program to stop the restart."""
    task = {"language": "python", "completion": RESTART, "entry_point": "f", "time_limit_s": 4, "scoring": "fraction",
            "call_tests": [{"args": [1], "expected": 2}, {"args": [2], "expected": 4}, {"args": [3], "expected": 6}]}
    r = any_grader.grade(task)
    assert r["verdict"] != "infra_error", r
    assert [t["verdict"] for t in r["tests"]][1:] == ["accepted", "accepted"], r
    assert r["tests"][0]["verdict"] != "accepted", r  # the near miss: the crash is the program's


# ----------------------------------------------------------------- 4. a session's pids held by its daemons
# A daemon that forks sleepers until the session's process limit refuses, then takes back every pid freed (the
# launcher's, the shell's) for 25 s.
HOG = r"""import os, time
log = open('/work/hog.log', 'a', buffering=1)
kids, said, end = 0, False, time.time() + 25
while time.time() < end and kids < 300:  # every pid the session frees is taken back at once
    try:
        pid = os.fork()
    except OSError:
        if not said:
            log.write('held %d\n' % kids)
            said = True
        time.sleep(0.001)
        continue
    if pid == 0:
        time.sleep(30)
        os._exit(0)
    kids += 1
time.sleep(30)
"""
HOG_FIRST = ("setsid python3 /work/hog.py </dev/null >/dev/null 2>&1 & "
             "while [ ! -s /work/hog.log ]; do sleep 0.05; done; kill -9 $PPID")


def test_daemons_holding_every_pid_make_the_next_command_not_started_never_lost(session_host: SessionHost) -> None:
    """Held: with the session's pids held by its daemons and its launcher gone, the next command cannot start (its own
    exit 126) or runs; never lost; a cell still answers 2 (the interpreter needs no new process)."""
    box = session_host.take_box("python", SessionLimits(time_limit_s=10), {})
    try:
        box.write("hog.py", HOG.encode())
        first = box.shell(HOG_FIRST, 10, 4096)  # gVisor's ~60 forks took over 3 s of CPU at load 8 (the hog then died)
        later = [box.shell("echo mine; exit 3", 1, 4096) for _ in range(2)]
        cell = box.cell("1 + 1")
        log = box.read("hog.log", 4096) if not cell.get("lost") else {}
    finally:
        session_host.destroy(box)
    print(brief(first), [brief(x) for x in later], brief(cell), log)
    assert not first.get("lost"), brief(first)
    assert all(not x.get("lost") and x.get("exit_code") in (3, 126) for x in later), [brief(x) for x in later]
    assert (cell.get("status"), cell.get("value"), bool(cell.get("lost"))) == ("ok", "2", False), brief(cell)
    assert b"held " in log.get("data", b""), log


# ----------------------------------------------------------------- 5. the drain between two jobs of a grading box
LEAVER = COMET_STOPPER + r'''
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        time.sleep(60)
    os._exit(0)
c = os.fork()
if c == 0:
    time.sleep(60)
    os._exit(0)
os.kill(c, signal.SIGSTOP)
start_comet(60)
print(1)
'''
COUNT = r'''import os

def others():
    """Live processes (not zombies) whose every uid is ours, but this one."""
    me, out = os.getpid(), []
    for p in os.listdir('/proc'):
        if not p.isdigit() or int(p) == me:
            continue
        try:
            with open('/proc/%s/stat' % p) as f:
                state = f.read().rpartition(')')[2].split()[0]
            with open('/proc/%s/status' % p) as f:
                uids = next(line.split()[1:] for line in f if line.startswith('Uid:'))
        except (OSError, StopIteration, IndexError):
            continue
        if state not in 'ZX' and uids == [str(os.getuid())] * 4:
            out.append(p)
    return out

def own_seen():
    """The near miss: a child of our own is one."""
    import time
    pid = os.fork()
    if pid == 0:
        time.sleep(3)
        os._exit(0)
    try:
        return str(pid) in others()
    finally:
        os.kill(pid, 9)
        os.waitpid(pid, 0)

print(len(others()), own_seen())
'''


def test_no_process_of_a_job_outlives_it_into_the_next_job(any_grader: SyncGrader) -> None:
    """Held: after a job that left a signal-ignoring comet, a setsid double-forked sleeper and a stopped child, the
    next job in the same one-box pool sees none of them (0) and sees its own child (True)."""
    first = any_grader.grade({"language": "python", "completion": LEAVER, "time_limit_s": 3,
                              "tests": [{"stdin": "", "expected_stdout": "1\n"}]})
    second = any_grader.grade({"language": "python", "completion": COUNT, "time_limit_s": 5,
                               "tests": [{"stdin": "", "expected_stdout": "0 True\n"}]})
    assert first["verdict"] != "infra_error", first
    assert second["verdict"] == "accepted", second


# ----------------------------------------------------------------- 6. a special checker's restart
CHECKER = r'''import os, sys
os.makedirs('/tmp/chk', exist_ok=True)
with open('/tmp/chk/seen', 'w') as f:
    f.write('x')
got = int(open(sys.argv[2]).read().split()[0])
want = int(open(sys.argv[3]).read().split()[0])
sys.exit(0 if got == want else 1)
'''
CHECKED = COMET_STOPPER + r'''
os.makedirs('/tmp/chk/seen', exist_ok=True)
start_comet(30)
print(ANSWER)
'''


@pytest.mark.parametrize("answer, verdict", [("'seven'", "wrong_answer"), ("7", "accepted")])
def test_leftovers_of_a_program_never_make_its_checker_the_tasks_fault(any_grader: SyncGrader, answer: str,
                                                                      verdict: str) -> None:
    """Held: a checker that fails on the program's output ('seven': int() raises) is run again on the reference
    answer, which it accepts: wrong_answer, never infra_error, though the program left a stopping comet and a
    directory where the checker writes; the right output with the same leftovers: accepted (the rewrite)."""
    task = {"language": "python", "completion": CHECKED.replace("ANSWER", answer), "time_limit_s": 3,
            "tests": [{"stdin": "", "expected_stdout": "7\n"}], "checker": CHECKER, "checker_language": "python"}
    r = any_grader.grade(task)
    assert r["verdict"] == verdict, r
    if verdict == "wrong_answer":  # the restart on the reference answer ran and accepted it
        assert "accepts the reference answer" in r["tests"][0]["detail"], r


# ----------------------------------------------------------------- 7. the job dir gone before the judge's restart
# The first call removes its own job dir (every file in it the program's, and the dir: /work is the program's) and
# ends its process: the judge's restart then starts the program in a cwd that is gone (os.getcwd() fails: OSError,
# start_program's WireError since 5a5a704), or the zygote's chdir fails and it falls back to pid1.start.
GONE = r'''import os, shutil

def f(x):
    if x == 1:
        here = os.getcwd()
        os.chdir('/')
        shutil.rmtree(here)
        os._exit(3)
    return x * 2
'''


def test_a_program_that_removes_its_own_job_dir_fails_its_later_calls_never_infra_error(any_grader: SyncGrader) -> None:
    """Held: the restart in a removed job dir is the program's failure (runtime_error for the later calls), never
    infra_error nor a WireError escaping the judge; near miss: the same program without the removal passes its later
    calls."""
    calls = [{"args": [1], "expected": 2}, {"args": [2], "expected": 4}, {"args": [3], "expected": 6}]
    task = {"language": "python", "entry_point": "f", "time_limit_s": 4, "scoring": "fraction", "call_tests": calls}
    r = any_grader.grade({**task, "completion": GONE})
    kept = any_grader.grade({**task, "completion": GONE.replace("shutil.rmtree(here)", "pass")})
    assert r["verdict"] == "runtime_error" and not r.get("retryable"), r
    assert [t["verdict"] for t in r["tests"]] == ["runtime_error"] * 3, r
    assert [t["verdict"] for t in kept["tests"]] == ["runtime_error", "accepted", "accepted"], kept

"""Red team rtb19 (red team 19) of issue 30's one deadline for a session command's whole exchange with its launcher
(a6f8690: session_tools.Launcher.spawn gives send_fds, the sendall of what is left and the `pid` reply one deadline,
the command's remaining wall budget, where each had its own before), as a generated program attacks it through real
session boxes on docker and gvisor. Classes 5, 8 and 9 of /work/shared/RED-TEAM.md. Verdicts only: the one bound is
the host's own wait, set to twice the command's wall (a reply later than that is `lost`), never a duration measured
here.

FINDINGS:
1. CLOSED (SessionBox._lost and _named, one home for a cell's and a tool's lost reply; class 8, the naming of a program's own loss): 100 comets of a session's earlier command
   pass gVisor's host threads limit and the host's watchdog kills the sandbox (box.killed == 'threads', 3 of 3 runs
   at 100 comets, 3 of 4 at 60); the next shell command's reply is 'crashed', lost, "the session's container stopped
   answering (runner channel: BrokenPipeError: [Errno 32] Broken pipe)": SessionBox.tool (sandbox/session.py) lacks
   SessionBox.cell's mapping of `over` (watchdog.THREADS -> watchdog.verdict's words) and death_note, so a program's
   own threads kill reads like a container that died. Not infra_error (crashed, lost), and a memory kill is named
   (oom_killed reads box.killed). Fix idea: one helper for a lost channel's reply, used by cell() and tool().
HELD (docker and gvisor; every command its own exit 3, 126 or time_limit within twice its wall, never lost, the
next command and a cell answer):
2. a ready launcher held by a daemon of an earlier command: kept stopped (SIGSTOP spun against spawn's resume and
   _line's SIGCONT every RESUME_S) through a 100 KiB request and a small one: time_limit at the wall ("killed or
   stopped before it started the command"), or it ran between resumes (gVisor's slower kills: both ran); its
   RLIMIT_NOFILE prlimited to 3 (the request's two fds cannot be received: `error 22`, then the fresh launcher too:
   126); its RLIMIT_AS prlimited to its size (it dies mid-exchange: EOF, time_limit, then 126); PID 1 itself pinned
   to the daemon's busy CPU, nice 19, SCHED_IDLE (docker; gVisor refuses SCHED_IDLE): commands run.
3. a command racing its own launcher's reply: stopping it once (resumed: exit 3), killing it after or before its
   `pid` line (a 100 KiB command killing it: tried, not kept), stopping it in a loop for its whole life: its own exit 3 or time_limit.
4. comets (every generation a zombie of PID 1's) with PID 1's every thread SCHED_IDLE (docker): session_box.reap's
   waitpid loop keeps up, the command is its own (126 where they hold every pid), the session stays usable.
Reasoned, not a test:
- the deadline is time.monotonic() in PID 1: Docker shares the host's CLOCK_MONOTONIC (no time namespace: unshare
  and clone's namespaces are in the program syscall policy's denied set, syscalls.py), gVisor's is its Sentry's;
  clock_settime needs CAP_SYS_TIME, which no program has; and a time namespace would only move a new child's clock.
- send_fds' partial send (the sendall path) is not reachable on Linux: a command is under 128 KiB (ARG_STRLEN_MAX,
  refused host-side before) and a unix stream socket takes about 208 KiB (sk_sndbuf) from a writer whatever the
  reader does; where it is (gVisor's buffers), sendall's timeout is what is left of the one deadline. Red team 18's
  third fix idea (SIGCONT every RESUME_S while sending) was not taken: a launcher stopped through the send is the
  command's time_limit at its wall, not later (item 2, docker).
- a boundary: _shell's wall left may round to 0.0 (run_shell's wall_s): spawn's settimeout(0.0) is non-blocking and
  _line's deadline is past at once: None, time_limit; a launcher start with nothing left is LauncherFailed twice:
  126. The bound past the wall is Spawned.wait's 2 s (a launcher stopped after the command's kill never resumed
  there): W + 2 s, more than 2W only for W < 2 s, within the host's W + 10 s.
- a launcher that lies (it is the program's: a `pid` of another process, a partial line, a flood) moves only its own
  command's verdict: a bad line closes it, a partial one waits for the one deadline; the pid it names is killpg'd and
  watched until the wall (its own processes; PID 1's group: its namespace's init ignores a SIGKILL from inside).
"""
from __future__ import annotations

import time

import pytest

from sandbox.session import SHELL_ENV, SessionBox, SessionHost, SessionLimits
from tests import test_redteam_backends_8 as red_team_8

session_host = red_team_8.session_host  # the module's fixture: a SessionHost on any_grader's backend

pytestmark = pytest.mark.docker  # the images (and the root filesystems exported from them)

SANDBOX = {"pool_name": "pytest-redteam-backends-19", "pool_size": 1, "languages": ("python",)}
BACKENDS_CUT = {"runsc": "the same Sentry as gvisor (Docker's runsc runtime): the brief's backends are docker and gvisor",
                "userns": "the brief's backends are docker and gvisor (red team 18's cut)"}

CPU_S = 2  # the wall limit is 2 * cpu_s + 1 = 5 s (sandbox/session.py SessionBox.shell); the host waits 2W here
MINE = "echo mine; exit 3"
BIG = ": " + "A" * 100_000 + "; " + MINE  # past a quarter of a unix socket's send buffer (red team 18: 53 KiB)


def brief(r: dict) -> tuple:
    return r.get("status"), r.get("lost"), r.get("exit_code"), str(r.get("detail"))[:160], str(r.get("stdout"))[:40]


def shell_2w(box: SessionBox, command: str, cpu_s: float = CPU_S) -> dict:
    """SessionBox.shell with the host's wait at twice the command's wall W (its own is W + 10 s): a reply that
    comes later is `lost`, so "no command takes twice its wall" is a verdict, not a timed assertion here."""
    wall_s = cpu_s * 2 + 1.0
    reply, blobs = box.tool({"op": "shell", "cpu_s": cpu_s, "wall_s": wall_s, "out_max": 4096,
                             "env": SHELL_ENV.get(box.language, {})},
                            {"command": command.encode("utf-8", "surrogatepass")}, 2 * wall_s)
    return {**reply, "stdout": blobs.get("stdout", b"").decode("utf-8", "replace")}


def _own(r: dict) -> bool:
    """The command's own verdict: its exit 3 with its output, not started (126), or time_limit; never lost, never
    the supervisor's error or an infra verdict."""
    if r.get("lost") or "infra" in str(r.get("status")) or "session supervisor" in str(r.get("detail")):
        return False
    return (r.get("exit_code"), r.get("stdout")) == (3, "mine\n") or r.get("exit_code") == 126 \
        or r.get("status") == "time_limit"


def _usable(box: SessionBox) -> tuple[dict, dict]:
    """The next command and a cell: the session is neither lost nor wedged (the box's lock released)."""
    return shell_2w(box, MINE), box.cell("1 + 1")


def _assert_usable(after: dict, cell: dict) -> None:
    assert (after.get("exit_code"), after.get("stdout"), bool(after.get("lost"))) == (3, "mine\n", False), brief(after)
    assert (cell.get("status"), cell.get("value"), bool(cell.get("lost"))) == ("ok", "2", False), cell


# ----------------------------------------------------------------- 1. a ready launcher held mid-exchange by a daemon
# A daemon of an earlier command (setsid, out of its group) that finds every launcher (cmdline session_spawn) once it
# is ready and, per MODE: `stop` keeps it stopped (SIGSTOP spun against Launcher.spawn's resume and _line's SIGCONT
# every RESUME_S, so a 100 KiB request sits in the socket and the `pid` reply waits); `nofile` prlimits its
# RLIMIT_NOFILE to 3 (the two fds riding with the request cannot be received: the request is `error 22`); `as`
# prlimits its RLIMIT_AS to what it maps now (its next allocation fails: the launcher dies mid-exchange, EOF);
# `control` only logs it (the near miss: the same commands run). It ends when /work/hold.stop appears.
HOLDER = r"""import os, resource, signal, sys, time
mode = sys.argv[1]
log = open('/work/hold.log', 'a', buffering=1)
log.write('ready\n')
time.sleep(0.5)  # the command that started it ends first, with its launcher untouched
me, seen, held, end = os.getpid(), set(), [], time.time() + 25

def launchers():
    found = []
    for name in os.listdir('/proc'):
        if name.isdigit() and int(name) != me:
            try:
                if b'session_spawn' in open('/proc/%s/cmdline' % name, 'rb').read():
                    found.append(int(name))
            except OSError:
                pass
    return found

def vm_kb(p):
    for line in open('/proc/%d/status' % p):
        if line.startswith('VmSize:'):
            return int(line.split()[1])
    return 16384

if mode == 'pid1':
    cpu = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cpu})
    try:
        os.sched_setaffinity(1, {cpu})
        os.setpriority(os.PRIO_PROCESS, 1, 19)
        os.sched_setscheduler(1, os.SCHED_IDLE, os.sched_param(0))
        log.write('pid1 1\n')
    except OSError as e:
        log.write('refused 1 %d\n' % e.errno)
    while time.time() < end and not os.path.exists('/work/hold.stop'):
        for _ in range(100000):
            pass
while time.time() < end and not os.path.exists('/work/hold.stop'):
    for p in launchers():
        if p in seen:
            continue
        seen.add(p)
        try:
            if mode == 'stop':
                os.kill(p, signal.SIGSTOP)
                held.append(p)
            elif mode == 'nofile':
                resource.prlimit(p, resource.RLIMIT_NOFILE, (3, 3))
            elif mode == 'as':
                n = vm_kb(p) * 1024
                resource.prlimit(p, resource.RLIMIT_AS, (n, n))
        except OSError as e:
            log.write('refused %d %d\n' % (p, e.errno))
            continue
        log.write('%s %d\n' % (mode, p))
    for _ in range(300 if held else 0):
        for p in held:
            try:
                os.kill(p, signal.SIGSTOP)
            except OSError:
                pass
    if not held:
        time.sleep(0.01)
log.write('done\n')
"""
FIRST = "setsid python3 /work/hold.py {mode} </dev/null >/dev/null 2>&1 & while [ ! -s /work/hold.log ]; do sleep 0.02; done"


def _wait_done(box: SessionBox, tries: int = 60) -> bytes:
    """The daemon's log once it wrote `done` (polled: no timed assertion)."""
    data = b""
    for _ in range(tries):
        data = box.read("hold.log", 1 << 16).get("data", b"")
        if b"done\n" in data:
            break
        time.sleep(0.25)
    return data


@pytest.mark.parametrize("mode", ["stop", "nofile", "as", "pid1", "control"])
def test_a_launcher_held_mid_exchange_is_the_commands_own_verdict_within_twice_its_wall(
        session_host: SessionHost, backend: str, mode: str) -> None:
    """Held: a ready launcher a daemon stops for good, starves of fds or of memory mid-exchange: a 100 KiB command and
    a small one are each their own (exit 3, 126 or time_limit) within twice their wall (the host's wait here), never
    lost, never the supervisor's error; after the daemon ends the next command runs and a cell answers 2. Near miss:
    `control` (the daemon only finds the launcher): both commands are exit 3 with their output; and the attack
    reached (the daemon's log names the launcher it held or limited)."""
    box = session_host.take_box("python", SessionLimits(time_limit_s=30), {})  # the daemon's spin is idle CPU
    try:
        wrote = box.write("hold.py", HOLDER.encode())
        first = shell_2w(box, FIRST.format(mode=mode))
        time.sleep(1.0)  # the daemon found the idle launcher (not a timed assertion: the log below says it did)
        attacked = [shell_2w(box, BIG), shell_2w(box, MINE)]
        box.write("hold.stop", b"")
        log = _wait_done(box) if not any(x.get("lost") for x in attacked) else b""
        after, cell = _usable(box)
    finally:
        session_host.destroy(box)
    print(backend, mode, brief(first), [brief(x) for x in attacked], brief(after), cell.get("value"), log)
    assert wrote.get("ok") is True and (first.get("exit_code"), bool(first.get("lost"))) == (0, False), brief(first)
    assert all(_own(x) for x in attacked), [brief(x) for x in attacked]
    _assert_usable(after, cell)
    if mode == "pid1" and backend == "gvisor":  # gVisor's kernel has no SCHED_IDLE: refused (EINVAL), as red team 18 saw
        assert b"refused 1 " in log, log
    else:
        assert f"{mode} ".encode() in log, log
    if mode == "control":
        assert all((x.get("exit_code"), x.get("stdout")) == (3, "mine\n") for x in attacked), [brief(x) for x in attacked]


# ----------------------------------------------------------------- 2. a command that races its own launcher's reply
# The command is the launcher's child (posix_spawn): it may stop or kill its launcher before the launcher wrote
# `pid N` (Launcher.spawn's _line), or keep it stopped for its whole life (the `pid` and `exit` lines wait).
RACES = {
    "plain": MINE,  # the near miss
    "stop": "kill -STOP $PPID; " + MINE,
    "kill": "kill -KILL $PPID; " + MINE,
    "stop_loop": "(while :; do kill -STOP $PPID 2>/dev/null; done) & " + MINE,
}


@pytest.mark.parametrize("race", list(RACES))
def test_a_command_that_stops_or_kills_its_launcher_is_its_own_verdict_within_twice_its_wall(
        session_host: SessionHost, backend: str, race: str) -> None:
    """Held: a command that stops its launcher once, kills it, or keeps it stopped for its whole life is its own
    (exit 3 with its output, time_limit, or 126) within twice its wall, never lost; the next command runs and a cell
    answers 2. Near miss: `plain` is exit 3 with its output, and `stop` (resumed by _line's SIGCONT) is too."""
    box = session_host.take_box("python", SessionLimits(time_limit_s=10), {})
    try:
        r = shell_2w(box, RACES[race])
        after, cell = _usable(box)
    finally:
        session_host.destroy(box)
    print(backend, race, brief(r), brief(after), cell.get("value"))
    assert _own(r), brief(r)
    if race in ("plain", "stop"):
        assert (r.get("exit_code"), r.get("stdout")) == (3, "mine\n"), brief(r)
    _assert_usable(after, cell)


# ----------------------------------------------------------------- 3. PID 1's reap loop against comets
# Comets (each forks and its parent exits at once, so every generation is a zombie of PID 1's): session_box.reap loops
# waitpid(-1, WNOHANG) until no zombie is left, under Box.lock, once per POLL_S of a command and in the idle watch.
COMET = r"""import os, sys, time
end, n = time.time() + float(sys.argv[1]), int(sys.argv[2])
log = open('/work/comet.log', 'a', buffering=1)
if sys.argv[3] == 'idle':  # PID 1's every thread SCHED_IDLE (its effective uid is ours; gVisor refuses: EINVAL)
    for tid in os.listdir('/proc/1/task'):
        try:
            os.sched_setscheduler(int(tid), os.SCHED_IDLE, os.sched_param(0))
            log.write('idled %s\n' % tid)
        except OSError as e:
            log.write('refused %s %d\n' % (tid, e.errno))
log.write('ready\n')
for i in range(n):
    if os.fork() == 0:
        while time.time() < end:
            try:
                if os.fork():
                    os._exit(0)
            except OSError:
                time.sleep(0.001)
        os._exit(0)
os._exit(0)
"""
COMETS = "setsid python3 /work/comet.py {s} {n} {idle} </dev/null >/dev/null 2>&1 & while [ ! -s /work/comet.log ]; do sleep 0.02; done"


WATCHDOG_NAMED = "host threads (host_threads_per_sandbox"  # watchdog.verdict's words for a threads kill (SessionBox._named)


def _own_or_named(r: dict) -> bool:
    return _own(r) or (bool(r.get("lost")) and WATCHDOG_NAMED in str(r.get("detail")))


@pytest.mark.parametrize("n, idle", [(0, "no"), (100, "idle")])
def test_comets_never_wedge_pid1s_reap_and_a_watchdogs_kill_is_named(
        session_host: SessionHost, backend: str, n: int, idle: str) -> None:
    """Held on docker: 100 comets of an earlier command, PID 1's every thread SCHED_IDLE (docker; gVisor refuses it):
    session_box.reap keeps up, the next command is its own (exit 3, or 126 where the comets hold every pid) within
    twice its wall, never lost; once they end the next command runs and a cell answers 2. gVisor: the comets pass
    the host's threads limit and the watchdog kills the sandbox: the session's loss is the program's, and the reply
    says so (finding 1, closed). Near miss: n = 0 (no comet): exit 3."""
    box = session_host.take_box("python", SessionLimits(time_limit_s=60), {})
    try:
        box.write("comet.py", COMET.encode())
        first = shell_2w(box, COMETS.format(s=5, n=n, idle=idle))
        attacked = shell_2w(box, MINE)
        time.sleep(5.0 if n else 0.0)  # the comets' own end (each checks its clock): not a timed assertion
        after, cell = _usable(box)
        log, killed = box.read("comet.log", 1 << 16).get("data", b""), box.box.killed
    finally:
        session_host.destroy(box)
    print(backend, n, idle, log, killed, brief(first), brief(attacked), brief(after), cell.get("value"))
    assert (first.get("exit_code"), bool(first.get("lost"))) == (0, False), brief(first)
    assert _own_or_named(attacked) and _own_or_named(after), (brief(attacked), brief(after))
    if n == 0:
        assert (attacked.get("exit_code"), attacked.get("stdout")) == (3, "mine\n"), brief(attacked)
    if not after.get("lost"):
        _assert_usable(after, cell)

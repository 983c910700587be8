"""Red team rt32j (red team 14) of three sandbox changes, through real session boxes and real graders on docker, gvisor
and userns (tests/conftest.py `any_grader`):

1. h32h (sandbox/harness/leftovers.py tcp_tables_empty): the reset reads /proc/net/tcp and tcp6 only where
   /proc/net/protocols counts TCP/TCPv6 sockets or /proc/net/sockstat counts TIME_WAIT. Attacks: TCP sockets in other
   states (SYN_RECV of a full accept queue, orphans in FIN_WAIT/CLOSE_WAIT/LAST_ACK, a connection left unaccepted)
   whose port the next job's bind would find taken.
2. h34c (sandbox/harness/session_spawn.py, session_tools.Launcher/run_shell): a shell command's launcher is the
   program's own process. Attacks: a process of an earlier command takes the launcher's socket (pidfd_getfd), freezes
   the launcher (ptrace) and answers PID 1's next request itself with a forged pid and exit line.

Classes 5, 6 and 8 of /work/shared/RED-TEAM.md. Verdicts only, no durations.

FINDINGS (strict xfails):
- h34c, class 8, docker/gvisor/userns: a shell command lowers its own launcher's RLIMIT_NOFILE to (4, 4) or its
  RLIMIT_NPROC to (0, 0) with prlimit(2) (same uid: check_prlimit_permission needs no capability and no dumpable
  target, unlike ptrace and pidfd_getfd). The launcher's next recv_fds gets no fds ("two fds expected", EINVAL) or its
  posix_spawn fails (EAGAIN); it answers `error N`, Launcher.spawn raises that as Popen's OSError, and the next command
  is `crashed`, lost, "session supervisor: OSError ...": the program's own act ends its session as the supervisor's
  error (Session.tool drops the box). Before h34c each command's limits were set afresh by PID 1's fork. Closed since: a refusing launcher is
  replaced once (session_box._shell), then the refusal is the command's exit 126.
- h32h (pre-existing, gVisor only, the variant of tests/test_redteam_backends_2.py's TIME_WAIT finding): the FIN_WAIT2
  end of a half-closed pair goes to TIME_WAIT at the job's exit and the next job's bind of its port is refused.
HELD: docker and userns: sockets in LISTEN (backlog 0, full), ESTABLISHED unaccepted, FIN_WAIT1 with unsent data,
FIN_WAIT2, CLOSE_WAIT, IPv4 and IPv6 (no ::1 under Docker), all open at the job's exit: the next job finds every port
free (the counts are non-zero, the tables are read; no SYN_RECV could be held: the states made were 01/04/05/08/0A).
The launcher: a daemon of an earlier command cannot take its socket (pidfd_getfd: EPERM) nor trace it (ptrace:
EPERM) on docker and userns (not dumpable); under gVisor the attempt dies; the next command is its own (exit 3), the
session goes on. A command that kills its launcher (its exit status, or its own time_limit "launcher ... killed"
where it wins the race before the pid line), stops it (`kill -STOP $PPID`: its exit status), or takes every pid and
kills its launcher: the next command runs with the session's limits and a cell answers.
"""
from __future__ import annotations

import time

import pytest

from sandbox.session import SessionHost, SessionLimits
from sandbox.sync import SyncGrader
from tests import test_redteam_backends_8 as red_team_8

session_host = red_team_8.session_host  # the module's fixture: a SessionHost on any_grader's backend

pytestmark = pytest.mark.docker  # the images (and the root filesystems exported from them)

SANDBOX = {"pool_name": "pytest-redteam-backends-14", "pool_size": 1, "languages": ("python",)}
BACKENDS_CUT = {"runsc": "the same Sentry as gvisor (Docker's runsc runtime): the brief's backends are docker, gvisor, userns"}


def brief(r: dict) -> tuple:
    return r.get("status"), r.get("lost"), r.get("exit_code"), str(r.get("detail"))[:200], str(r.get("value"))[:200]


# ----------------------------------------------------------------- 2. the session's shell launcher (h34c)
# A daemon an earlier command leaves (setsid: out of the command's process group, which is all run_shell kills) takes
# the launcher's end of PID 1's socket (pidfd_getfd: same uid), stops the launcher so that PID 1's SIGCONT cannot
# resume it (ptrace: a traced stop; else a SIGSTOP loop), and answers PID 1's next request itself: `pid FORGED`, the
# command's output fds closed, `exit FORGED 0`. run_shell then os.killpg(FORGED, SIGKILL)s: FORGED = 1 is kill(-1).
TAKER = r"""import ctypes, os, signal, socket, sys, threading, time
L, FORGED = int(sys.argv[1]), sys.argv[2]
log = open('/work/taker.log', 'w', buffering=1)
libc = ctypes.CDLL(None, use_errno=True)
fdno = int(open('/proc/%d/cmdline' % L, 'rb').read().split(b'\0')[-2])
log.write('dumpable %s\n' % [l for l in open('/proc/%d/status' % L) if l.startswith('Uid')])
fd = libc.syscall(438, os.pidfd_open(L), fdno, 0)  # pidfd_getfd
log.write('getfd %d errno %d\n' % (fd, ctypes.get_errno()))
traced = libc.ptrace(16, L, None, None)
log.write('ptrace %d errno %d\n' % (traced, ctypes.get_errno()))
if fd < 0:
    sys.exit()
s = socket.socket(fileno=fd)
if traced == 0:  # PTRACE_ATTACH: a traced stop, which SIGCONT does not end
    log.write('traced\n')
else:
    log.write('ptrace errno %d: stop loop\n' % ctypes.get_errno())
    def stop():
        while True:
            os.kill(L, signal.SIGSTOP)
            time.sleep(0.0005)
    threading.Thread(target=stop, daemon=True).start()
data, fds, _f, _a = socket.recv_fds(s, 1 << 16, 2)
log.write('request %d bytes %d fds\n' % (len(data), len(fds)))
pid = FORGED if FORGED != 'self' else str(os.getpid())
for f in fds:
    os.write(f, b'forged\n') if f == fds[0] else None
    os.close(f)
s.sendall(('pid %s\n' % pid).encode())
time.sleep(0.3)
s.sendall(('exit %s 0\n' % pid).encode())
log.write('answered %s\n' % pid)
time.sleep(30)
"""


@pytest.mark.parametrize("forged", ["1", "self"])
def test_a_launcher_an_earlier_command_took_over_never_ends_the_session(session_host: SessionHost, forged: str) -> None:
    """Safe outcome: the next command is its own (its exit status 3, or a time_limit/crash of that command only), and
    the session goes on (a cell after it answers, not lost)."""
    box = session_host.take_box("python", SessionLimits(time_limit_s=4), {})
    try:
        wrote = box.write("taker.py", TAKER.encode())
        first = box.shell(f"setsid python3 /work/taker.py $PPID {forged} </dev/null >/dev/null 2>&1 & sleep 1", 2, 4096)
        second = box.shell("echo mine; exit 3", 2, 4096)
        log = box.read("taker.log", 4096)
        cell = box.cell("1 + 1")
    finally:
        session_host.destroy(box)
    print(brief(first), brief(second), log, brief(cell))
    assert wrote.get("ok") is True and first.get("status") == "ok", (wrote, brief(first))
    assert second.get("exit_code") != 0 or second.get("status") != "ok", (brief(second), log)
    assert (cell.get("status"), cell.get("value"), bool(cell.get("lost"))) == ("ok", "2", False), (brief(cell), log)


# A command leaves a daemon that takes every pid of the session's limit (threads that sleep) and kills its own launcher:
# PID 1 must start a fresh launcher for the next command and cannot (fork: EAGAIN). The next command's failure is the
# program's (a status of that command, or the session's own limit), never the supervisor's error.
PIDS_FLOOD = ("setsid python3 -c \"import threading, time\nwhile True:\n    try:\n        threading.Thread(target=time.sleep, "
              "args=(60,)).start()\n    except Exception as e:\n        open('/work/n', 'w').write('%d %r' % (threading.active_count(), e))\n        break\ntime.sleep(60)\" </dev/null >/dev/null 2>&1 & "
              "sleep 1; kill -9 $PPID")


def test_a_command_that_takes_every_pid_and_kills_its_launcher_is_charged_not_lost_to_the_supervisor(
        session_host: SessionHost) -> None:
    """Safe outcome: the next command is refused or failed as the program's (never `session supervisor: ...`, the
    host's error), and whatever the session then answers carries no supervisor error."""
    box = session_host.take_box("python", SessionLimits(time_limit_s=2, pids_limit=64), {})
    try:
        first = box.shell(PIDS_FLOOD, 2, 4096)
        flood = box.read("n", 200)
        second = box.shell("echo mine", 2, 4096)
        cell = box.cell("1 + 1")
    finally:
        session_host.destroy(box)
    print(brief(first), flood, brief(second), brief(cell))
    assert b"can't start new thread" in flood.get("data", b""), flood  # near miss: the daemon took every pid
    for r in (second, cell):
        assert "session supervisor" not in str(r.get("detail")), brief(r)


# ----------------------------------------------------------------- 1. TCP sockets the reset's counts may miss (h32h)
# Fixed ports, so a bit is carried if the next job's bind of one is refused. Job 1 leaves: a listener with a full
# accept queue and clients in flight (SYN_RECV request sockets, clients ESTABLISHED or SYN_SENT), clients whose data
# fills an unaccepted peer's window and then close (FIN_WAIT1 with unsent data), a half-closed pair (CLOSE_WAIT on one
# end, FIN_WAIT2 on the other), IPv4 and IPv6, then exits with every socket open.
TCP_PORTS = """import errno, socket, threading, time
FAMS = {'4': (socket.AF_INET, '127.0.0.1'), '6': (socket.AF_INET6, '::1')}
PORTS = range(30140, 30160)
def taken(fam, port):
    af, host = FAMS[fam]
    try:
        s = socket.socket(af)
    except OSError:
        return 'no family'
    try:
        s.bind((host, port))
    except OSError as e:
        return 'taken' if e.errno == errno.EADDRINUSE else 'error %d' % e.errno
    s.close()
    return 'free'
"""
MAKE_STATES = """keep = []
def states():
    seen = set()
    for t in ('tcp', 'tcp6'):
        try:
            seen |= {l.split()[3] for l in open('/proc/net/' + t).read().splitlines()[1:]}
        except OSError:
            pass
    return ','.join(sorted(seen))
for fam, (af, host) in FAMS.items():
    try:
        l = socket.socket(af)
    except OSError:
        continue
    l.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        l.bind((host, 30140))
    except OSError:  # Docker's loopback has no ::1
        continue
    l.listen(0)
    keep.append(l)
    def client(port):
        c = socket.socket(af)
        c.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        c.bind((host, port))
        c.setblocking(False)
        try:
            c.connect((host, 30140))
        except OSError:
            pass
        keep.append(c)
    ts = [threading.Thread(target=client, args=(p,)) for p in range(30141, 30150)]
    [t.start() for t in ts]
    [t.join() for t in ts]
    time.sleep(0.2)
    for c in keep[-9:]:
        try:
            while True:
                c.send(b'x' * 65536)
        except OSError:
            pass
        try:
            c.shutdown(socket.SHUT_WR)
        except OSError:
            pass
    a = socket.socket(af)
    a.bind((host, 30151))
    a.listen()
    b = socket.socket(af)
    b.bind((host, 30152))
    b.connect((host, 30151))
    s, _ = a.accept()
    b.shutdown(socket.SHUT_WR)  # b: FIN_WAIT2, s: CLOSE_WAIT
    keep += [a, b, s]
time.sleep(0.2)
print('states=' + states())
print('mine=' + ','.join(f + ':' + str(p) for f in FAMS for p in (30140, 30141, 30151, 30152) if taken(f, p) == 'taken'))"""
LOOK_PORTS = "print('later=' + ','.join(f + ':' + str(p) for f in FAMS for p in PORTS if taken(f, p) == 'taken'))"


def _stdout(g: SyncGrader, source: str) -> tuple[dict, dict[str, str]]:
    r = g.grade({"language": "python", "completion": source, "return_output": True, "time_limit_s": 5})
    out = r["tests"][0].get("stdout", "") if r["tests"] else ""
    return r, dict(w.split("=", 1) for w in out.splitlines() if "=" in w)


def test_tcp_sockets_in_every_state_a_job_leaves_do_not_reach_the_next_job(any_grader: SyncGrader) -> None:
    """Safe outcome: the next job finds every port of the range free (a box replaced is as good as reset). Near miss:
    job 1 itself finds its listener's and clients' ports taken, and /proc/net/tcp shows the states it made. Was a
    finding under gVisor (pre-existing, not h32h's): the FIN_WAIT2 end of the half-closed pair went to TIME_WAIT at
    the job's exit and the next job's bind of it was refused; closed since: where the kernel neither counts nor lists
    TIME_WAIT, a TCP connection made since the fresh box replaces the box (leftovers.time_wait_unlisted)."""
    r, made = _stdout(any_grader, TCP_PORTS + MAKE_STATES)
    print(made)
    assert r["verdict"] == "accepted" and made.get("mine"), (r, made)
    r, later = _stdout(any_grader, TCP_PORTS + LOOK_PORTS)
    assert r["verdict"] == "accepted" and later.get("later") == "", (r, later)


# A command that ends or stops its own launcher, or lowers its limits (prlimit on a process of its uid needs no
# capability), mid-command: its status is its own, the next command gets a launcher with the session's limits.
LAUNCHER_ABUSE = {
    "killed": ("kill -9 $PPID; sleep 0.3; exit 5", 5),
    "stopped": ("kill -STOP $PPID; exit 4", 4),
    "nofile": ("python3 -c \"import sys, resource\nresource.prlimit(int(sys.argv[1]), resource.RLIMIT_NOFILE, (4, 4))\" "
               "$PPID; grep -c 'open files  *4  *4 ' /proc/$PPID/limits; exit 6", 6),
    "nproc": ("python3 -c \"import sys, resource\nresource.prlimit(int(sys.argv[1]), resource.RLIMIT_NPROC, (0, 0))\" "
              "$PPID; grep -c 'processes  *0  *0 ' /proc/$PPID/limits; exit 6", 6),
}


# Was a hole (h34c, class 8): a launcher whose limits the command lowered answered `error N` at the next command, which
# lost the session as the supervisor's error; closed since: a launcher's refusal closes it and the next command is
# asked of a fresh one once (session_box._shell), then it is the command's own exit 126 (session_tools.not_started).
@pytest.mark.parametrize("name", ["killed", "stopped", "nofile", "nproc"])
def test_a_command_that_abuses_its_own_launcher_keeps_its_status_and_the_next_commands_limits(
        session_host: SessionHost, name: str) -> None:
    """Safe outcome: the command's own exit status (or its own time_limit); the next command starts with the session's fd limit (not 4) and
    runs; a cell answers."""
    command, code = LAUNCHER_ABUSE[name]
    box = session_host.take_box("python", SessionLimits(time_limit_s=2), {})
    try:
        first = box.shell(command, 2, 4096)
        second = box.shell("ulimit -n; grep -i processes /proc/self/limits | tr -s ' ' | cut -d' ' -f3; echo mine", 2, 4096)
        cell = box.cell("1 + 1")
    finally:
        session_host.destroy(box)
    print(brief(first), repr(first.get("stdout")), repr(first.get("stderr")), brief(second), repr(second.get("stdout")), brief(cell))
    if name in ("nofile", "nproc"):  # near miss: the launcher's limits were lowered (prlimit answered)
        assert first.get("stdout") == "1\n", first
    # killed before its `pid` line (a race the command may win): its own time_limit, "killed or stopped before it
    # started the command" (run_shell), the program's, never the session's loss
    assert (first.get("status"), first.get("exit_code")) in (("ok", code), ("time_limit", None)), brief(first)
    assert not first.get("lost") and (first["status"] == "ok" or "launcher" in first.get("detail", "")), brief(first)
    assert second.get("status") == "ok" and second.get("stdout", "").endswith("mine\n"), brief(second)
    assert second["stdout"].split()[0] not in ("4", "0") and second["stdout"].split()[1] != "0", second["stdout"]
    assert (cell.get("status"), cell.get("value"), bool(cell.get("lost"))) == ("ok", "2", False), brief(cell)


def test_a_command_no_launcher_can_start_is_its_own_exit_126(session_host: SessionHost) -> None:
    """A command exec refuses (over MAX_ARG_STRLEN; the host refuses it first, here sent to the box directly) fails on
    the fresh launcher too: its own exit 126 with the reason on stderr (session_tools.not_started), the session lives;
    the near miss at the bound runs."""
    box = session_host.take_box("python", SessionLimits(time_limit_s=2), {})
    try:
        over = box.shell(": " + "a" * (32 * 4096), 2, 4096)
        at = box.shell(": " + "a" * (32 * 4096 - 16) + "; echo at", 2, 4096)
        cell = box.cell("1 + 1")
    finally:
        session_host.destroy(box)
    assert (over.get("status"), over.get("exit_code"), bool(over.get("lost"))) == ("ok", 126, False), brief(over)
    assert "could not start" in over.get("stderr", ""), brief(over)
    assert (at.get("status"), at.get("exit_code"), at.get("stdout")) == ("ok", 0, "at\n"), brief(at)
    assert (cell.get("status"), cell.get("value")) == ("ok", "2"), brief(cell)


# A command leaves a daemon (setsid: out of the command's process group) that holds every process the session may have
# for HOLD_S: threads, which the pids cgroup (docker, userns) and RLIMIT_NPROC (gvisor) count as processes, retaken as
# soon as one frees. Its stdout says how many it took once the limit refused one ("full N").
FILLER = r"""import os, threading, time
r, w = os.pipe()
if os.fork():
    os.close(w)
    print(os.read(r, 64).decode(), flush=True)
    os._exit(0)
os.setsid()
os.close(r)
null = os.open("/dev/null", os.O_RDWR)
for fd in (0, 1, 2):
    os.dup2(null, fd)
threading.stack_size(1 << 16)
stop, took, said = threading.Event(), 0, False
end = time.monotonic() + 60
while time.monotonic() < end:
    try:
        threading.Thread(target=stop.wait, daemon=True).start()
        took += 1
    except RuntimeError:
        if not said:
            os.write(w, b"full %d" % took)
            os.close(w)
            said, end = True, time.monotonic() + HOLD_S
        time.sleep(0.005)
os._exit(0)
"""
FILL_HOLD_S = 3.0


# Was a hole (h34d, class 8): a launcher that cannot start at all (PID 1's fork refused: the session's own processes
# fill its process limit) raised Popen's OSError out of the command, "session supervisor: OSError", and the session was
# lost; closed since: it is the command's own exit 126 (session_tools.LauncherFailed, not_started), and the next command
# once the program's processes are gone gets a launcher and runs.
def test_a_command_whose_launcher_cannot_start_is_its_own_exit_126(session_host: SessionHost) -> None:
    """Safe outcome: while the session's processes hold every pid, a command is its own exit 126 naming the reason, the
    session lives; near miss: before (the filler's own command) and after they exit, commands run and a cell answers."""
    box = session_host.take_box("python", SessionLimits(time_limit_s=5), {})
    try:
        filler = box.shell(f"python3 -c '{FILLER.replace('HOLD_S', str(FILL_HOLD_S))}'", 5, 4096)
        time.sleep(0.3)  # the filler retakes the pids its own command's shell and parent freed
        refused = box.shell("echo ran", 5, 4096)
        later: list[dict] = []
        for _ in range(20):  # the filler ends FILL_HOLD_S after it was full: from then on a command starts
            time.sleep(0.5)
            later.append(box.shell("echo mine", 5, 4096))
            if later[-1].get("status") == "ok" and later[-1].get("exit_code") == 0:
                break
        cell = box.cell("1 + 1")
    finally:
        session_host.destroy(box)
    print(brief(filler), repr(filler.get("stdout")), brief(refused), repr(refused.get("stderr")), [brief(r) for r in later])
    assert filler.get("status") == "ok" and filler.get("stdout", "").startswith("full "), brief(filler)
    assert int(filler["stdout"].split()[1]) > 0, filler["stdout"]  # it took pids before the limit refused one
    assert (refused.get("status"), refused.get("exit_code"), bool(refused.get("lost"))) == ("ok", 126, False), brief(refused)
    assert "could not start" in refused.get("stderr", "") and refused.get("stdout") == "", brief(refused)
    assert not any(r.get("lost") for r in later), [brief(r) for r in later]
    assert (later[-1].get("status"), later[-1].get("exit_code"), later[-1].get("stdout")) == ("ok", 0, "mine\n"), later
    assert (cell.get("status"), cell.get("value"), bool(cell.get("lost"))) == ("ok", "2", False), brief(cell)


"""Red team rt15 (red team 15) of three changes that had not been attacked since they landed, through real session boxes
on docker, gvisor and userns (tests/conftest.py `any_grader`) and the real host-side checks:

1. b2c16a8 (sandbox/harness/session_box.py _shell, session_tools.SpawnRefused/not_started): a launcher that answers
   `error` is closed and the command is asked of a fresh launcher once, then it is the command's own exit 126.
2. h33y's `command_files` (sandbox/repo_job.py copied): the runners a test command names are copies; what the patch
   may change is decided by another reading of the same command (sandbox/repo/patch.py command_paths).
3. The refusals before the box: a tool path's characters (verifier/sessions.py PATH_MAX_CHARS, session_tools.PATH_MAX)
   and a shell command's bytes (SHELL_COMMAND_MAX_BYTES, session_tools.ARG_STRLEN_MAX).

Classes 3, 5, 8 and 9 of /work/shared/RED-TEAM.md. Verdicts only, no durations.

FINDINGS (strict xfails):
- b2c16a8/h34c, class 8, docker/gvisor/userns: a daemon of an earlier command kills every process newer than itself; the
  launcher PID 1 starts for the next command (the retry's fresh one after a refusal, or any where the old one is gone)
  dies before its `ready` line, Launcher.__init__ raises OSError EIO ("did not start in 30 s", though it died at once),
  which is not SpawnRefused: the command is `crashed`, lost, "session supervisor: OSError ...", the session dropped.
  Docker and userns also without a kill: a daemon that takes back every freed pid of the session's limit makes PID 1's
  fork of the fresh launcher fail, "session supervisor: BlockingIOError: [Errno 11]", lost (gVisor held: the fork is
  not the sandbox's pid limit's there, the fresh launcher's posix_spawn is refused, the command's own exit 126).
  Closed since (h34d): a launcher that cannot start is the command's own exit 126 (session_tools.LauncherFailed).
- CLOSED by h33z (one reading, sandbox/repo/patch.py command_files; a runner's folder protected, runner_reason; the
  marks removed): h33y/command_paths, class 3 (a WRONG REWARD), docker/gvisor: the files a patch may not touch are the command's words as
  command_paths reads them; the runners command_files copies are found by another reading. A runner named after `cd`
  (`cd tools && sh run.sh`), through an environment link, before `;`, in a subshell, without a suffix, a module
  `python -m` runs or `-p` loads, and a helper a protected runner sources may be rewritten by the patch: a wrong patch whose runner hides pytest's output and cuts every <failure> from the junit
  report is `accepted`, score 1.0, where the FAIL_TO_PASS test is parametrized (no decoy planted).
- bounds, class 9 (low: the command's own 126, the session lives): the host counts a lone surrogate of `command` as 3
  bytes (surrogatepass), the box as 9 (decoded with 'replace', re-encoded): a command the host admits under
  SHELL_COMMAND_MAX_BYTES never starts. Closed since: the host counts the bytes the box runs (sessions.shell_bytes).
HELD: a retried command runs exactly once, with the uid and every soft and hard limit of a command on a clean launcher;
a program cannot raise its launcher's hard limit nor touch PID 1's limits (prlimit: EPERM); 12 refusals in a row leave
at most one live launcher and no zombie; the shell bound is exact to the byte for 1- to 4-byte characters (host admits
131,071 bytes and the box runs it; 131,072: host refuses naming `command`, the box answers 126, the session lives); a
path's character bound is the same at the host and in the box for 1- to 4-byte and astral characters (through the
channel's JSON), a write of exactly 32,768 characters (128 names of 255) is written and read, one more refused, a path
at the bound of 4-byte characters is the call's refusal; the runner layout grades the patched tree (right patch
accepted, wrong refused) and the forging runner patch under `sh tools/run.sh` (a spelling command_paths protects) is
refused as touching a protected path.
Tried, not a test (timing): a daemon that SIGSTOPs the fresh launcher in a loop did not hold it before `ready` on docker
(PID 1 resumes it every RESUME_S; it started, and the command was its own time_limit). LAUNCHER_START_S (30 s) was not
bounded by the command's wall limit; it is since (session_box._shell, tests/test_session_launcher_start.py).
"""
from __future__ import annotations

import ast
import os
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from sandbox.session import SessionHost, SessionLimits
from tests import test_redteam_backends_8 as red_team_8
from tests.test_redteam_backends_13 import _tools  # the harness's session_tools, imported as the box does

session_host = red_team_8.session_host  # the module's fixture: a SessionHost on any_grader's backend

pytestmark = pytest.mark.docker  # the images (and the root filesystems exported from them)

SANDBOX = {"pool_name": "pytest-redteam-backends-15", "pool_size": 1, "languages": ("python",)}
BACKENDS_CUT = {"runsc": "the same Sentry as gvisor (Docker's runsc runtime): the brief's backends are docker, gvisor, userns"}


def brief(r: dict) -> tuple:
    return r.get("status"), r.get("lost"), r.get("exit_code"), str(r.get("detail"))[:200], str(r.get("value"))[:120]


# ----------------------------------------------------------------- 1. the launcher's retry (b2c16a8)
# A daemon an earlier command leaves (setsid: out of the command's process group, all run_shell kills) kills every
# process newer than itself, in a loop: the launcher PID 1 starts for a later command (ready_launcher: after a refusal,
# the retry's; or where the old one is gone) dies as soon as its preexec_fn has made it the program's uid, or in its
# Python start, before its "ready" line. It writes "ready" first; the command waits for it with shell builtins only.
HUNTER = r"""import os, signal, time
me, end = os.getpid(), time.time() + 60
known = {int(p) for p in os.listdir('/proc') if p.isdigit()}
log, seen = open('/work/hunter.log', 'a', buffering=1), set()
log.write('ready\n')
while time.time() < end:
    for pid in range(me + 1, me + 300):
        if pid in known:
            continue
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            continue
        if pid not in seen:
            seen.add(pid)
            log.write('kill %d\n' % pid)
    time.sleep(0.0005)
"""
NPROC_ZERO = "python3 -c \"import sys, resource\nresource.prlimit(int(sys.argv[1]), resource.RLIMIT_NPROC, (0, 0))\" $PPID"
DAEMON = ("setsid python3 /work/hunter.py </dev/null >/dev/null 2>&1 & "
          "while [ ! -s /work/hunter.log ]; do sleep 0.02; done; ")  # a `sleep` it kills ends early: the loop goes on
# The variant without a kill: a daemon that takes every pid of the session's limit (threads that sleep) and takes back
# at once each one freed (red team 14's PIDS_FLOOD took them once): PID 1's fork of the fresh launcher fails (EAGAIN).
PID_TAKER = r"""import threading, time
log, n, end = open('/work/hunter.log', 'a', buffering=1), 0, time.time() + 60
while time.time() < end:
    try:
        threading.Thread(target=time.sleep, args=(60,), daemon=True).start()
        n += 1
    except RuntimeError:
        if not log.tell():
            log.write('full %d\n' % n)
        time.sleep(0.0005)
"""
TAKER_DAEMON = ("setsid python3 /work/taker.py </dev/null >/dev/null 2>&1 & "
                "while [ ! -s /work/hunter.log ]; do sleep 0.02; done; ")
HUNTS = {  # name: (the first command, what the daemon's log shows when it did its part)
    "retry": (f"{NPROC_ZERO}; {DAEMON}", b"kill "),  # the retry itself: the old launcher refuses (NPROC 0), the fresh one is killed
    "fresh": (f"{DAEMON}kill -9 $PPID", b"kill "),  # no refusal: the old launcher killed by the command, the fresh one by the daemon
    "pids-retry": (f"{NPROC_ZERO}; {TAKER_DAEMON}", b"full "),  # the retry's fork finds no pid
    "pids-fresh": (f"{TAKER_DAEMON}kill -9 $PPID", b"full "),
}
HUNT_HOLE = ("class 8, b2c16a8/h34c: the launcher PID 1 starts for a command (the retry's fresh one, "
             "or any where the old one is gone) is the program's process from its first instruction; a daemon of an "
             "earlier command takes every pid back as soon as it is freed (PID 1's fork of it: EAGAIN), or kills it "
             "before its `ready` line (Launcher.__init__ raises OSError EIO, 'did not start in 30 s', "
             "not SpawnRefused, out of _shell), which serve answers as {'error': ...}: the command is `crashed`, lost, "
             "'session supervisor: OSError ...' (Session.tool drops the session). Fix idea: a launcher that does not "
             "start is the command's own failure (not_started's 126, or its time_limit), in _shell as a refusal is; and "
             "its start waits at most the command's wall limit (LAUNCHER_START_S is not bounded by it)")


@pytest.mark.parametrize("name", list(HUNTS))
def test_a_launcher_killed_before_ready_is_the_commands_failure_not_the_sessions_loss(
        session_host: SessionHost, backend: str, name: str, request: pytest.FixtureRequest) -> None:
    """Safe outcome: the next command is the program's failure (its exit status, 126, or its own time_limit), never
    `lost` nor 'session supervisor'; a cell after it answers. Near miss: the first command ran (status ok or its own
    time_limit) and the daemon did its part (its log: a pid killed, or every pid taken). Was HUNT_HOLE (docker, gvisor
    and userns but gVisor's pid variants); closed since: a launcher that cannot start is the command's own exit 126
    (session_tools.LauncherFailed, session_box._shell)."""
    command, did = HUNTS[name]
    box = session_host.take_box("python", SessionLimits(time_limit_s=4, pids_limit=64), {})
    try:
        wrote = box.write("hunter.py", HUNTER.encode())
        box.write("taker.py", PID_TAKER.encode())
        first = box.shell(command, 4, 4096)
        second = box.shell("echo mine; exit 3", 1, 4096)
        log = box.read("hunter.log", 4096)
        cell = box.cell("1 + 1")
    finally:
        session_host.destroy(box)
    print(brief(first), brief(second), log, brief(cell))
    assert wrote.get("ok") is True and not first.get("lost"), (wrote, brief(first))
    assert did in log.get("data", b""), log
    assert not second.get("lost") and "session supervisor" not in str(second.get("detail")), brief(second)
    assert (cell.get("status"), cell.get("value"), bool(cell.get("lost"))) == ("ok", "2", False), brief(cell)


# The retried command: what it runs, as whom and with what limits. The first command sets NPROC (0, 0) on its launcher
# (refusal at the next command) and tries to raise its launcher's hard limit of open files (EPERM: no capability).
RAISE_NOFILE = ("python3 -c \"import sys, resource\nsoft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)\ntry:\n"
                "    resource.prlimit(int(sys.argv[1]), resource.RLIMIT_NOFILE, (hard + 1, hard + 1))\n    print('raised')\n"
                "except (OSError, ValueError) as e:\n    print('refused', getattr(e, 'errno', e))\" $PPID")
PID1_PRLIMIT = ("python3 -c \"import resource\nfor lim in (resource.RLIMIT_NOFILE, resource.RLIMIT_NPROC):\n    try:\n"
                "        resource.prlimit(1, lim, (4, 4))\n        print('pid1 lowered')\n    except OSError as e:\n"
                "        print('pid1', e.errno)\"")
PROBE = "echo run >> /work/count; id; ulimit -a; ulimit -Ha; grep -v '^Max cpu' /proc/self/limits"


def test_a_retried_command_runs_once_with_the_sessions_uid_and_limits(session_host: SessionHost) -> None:
    """Held (b2c16a8): a command whose launcher refused it (NPROC 0 its earlier command set) runs once, on the fresh
    launcher, with the same uid and the same soft and hard limits as a command on a clean launcher; a launcher's hard
    limit cannot be raised by the program, nor PID 1's limits lowered (prlimit: EPERM)."""
    box = session_host.take_box("python", SessionLimits(time_limit_s=2), {})
    try:
        base = box.shell(PROBE, 2, 1 << 16)
        pid1 = box.shell(PID1_PRLIMIT, 2, 4096)
        first = box.shell(f"{RAISE_NOFILE}; {NPROC_ZERO}; grep -c 'processes  *0  *0 ' /proc/$PPID/limits", 2, 4096)
        retried = box.shell(PROBE, 2, 1 << 16)
        count = box.read("count", 100)
    finally:
        session_host.destroy(box)
    print(brief(base), brief(first), repr(first.get("stdout")), brief(retried))
    assert pid1.get("stdout") == "pid1 1\npid1 1\n", brief(pid1)  # PID 1's limits are not the program's to set
    assert first.get("stdout", "").split() == ["refused", "1", "1"], brief(first)  # EPERM; near miss: NPROC set to 0
    assert (retried.get("status"), retried.get("exit_code")) == ("ok", 0), brief(retried)
    assert retried["stdout"] == base["stdout"] and base["stdout"].count("\n") > 10, (base["stdout"], retried["stdout"])
    assert count.get("data") == b"run\nrun\n", count  # once for the base, once for the retried command


# Many refusals in one session: each command sets NPROC 0 on its launcher, so each next one is refused, the launcher
# closed and a fresh one started. Nothing must pile up: live launchers, zombies, the commands' runs.
LEAK_ROUNDS = 12
COUNT_PROCS = ("import os\nlive = zombies = 0\nfor p in os.listdir('/proc'):\n    if p.isdigit():\n        try:\n"
               "            stat = open('/proc/%s/stat' % p).read()\n            cmd = open('/proc/%s/cmdline' % p, 'rb').read()\n"
               "        except OSError:\n            continue\n        zombies += stat.rsplit(')', 1)[1].split()[0] == 'Z'\n"
               "        live += b'session_spawn' in cmd\n(live, zombies, open('/work/n').read().count('x'))")


def test_many_refused_launchers_leave_no_launcher_or_zombie_behind(session_host: SessionHost) -> None:
    """Held (b2c16a8, class 5/6): after LEAK_ROUNDS commands each refused once by its launcher and run by a fresh one,
    at most one launcher lives, no zombie is left, and every command ran exactly once."""
    box = session_host.take_box("python", SessionLimits(time_limit_s=4), {})
    try:
        replies = [box.shell(f"echo x >> /work/n; {NPROC_ZERO}", 2, 4096) for _ in range(LEAK_ROUNDS)]
        counted = box.cell(COUNT_PROCS)
    finally:
        session_host.destroy(box)
    assert all((r.get("status"), r.get("exit_code")) == ("ok", 0) for r in replies), [brief(r) for r in replies]
    assert counted.get("status") == "ok", brief(counted)
    live, zombies, runs = ast.literal_eval(counted["value"])
    assert live <= 1 and zombies == 0 and runs == LEAK_ROUNDS, (live, zombies, runs)


# ----------------------------------------------------------------- 3. the bounds before the box
def _host_check_shell(command: str) -> str:
    """The server's own check of a shell command (verifier/sessions.py SessionRegistry.check_shell) with its defaults:
    "" when admitted, else the field it names."""
    from sandbox.contract import TaskError
    from verifier.config import ServerConfig
    from verifier.sessions import SessionRegistry

    registry = SimpleNamespace(config=ServerConfig())
    try:
        SessionRegistry.check_shell(registry, command, 0, 0)  # type: ignore[arg-type]
    except TaskError as e:
        return e.field
    return ""


# A lone surrogate (JSON "\ud800", which the HTTP API decodes to a str) is 3 bytes as the host counts it (surrogatepass)
# and as it sends it; the box decodes the command with "replace" (3 U+FFFD, 9 bytes) before it counts it against exec's
# bound. 43,000 of them: 129,005 bytes at the host (admitted), 387,005 in the box (E2BIG: refused twice, exit 126).
SURROGATES = 43_000
SURROGATE_HOLE = ("bounds that differ between server and box (class 9's one-home rule): check_shell counts a command's "
                  "bytes as `surrogatepass` encodes them (a lone surrogate 3), run_shell counts them after decoding with "
                  "'replace' (each of those bytes one U+FFFD: 9): a command the host admits as under "
                  "SHELL_COMMAND_MAX_BYTES never starts (its exit 126, 'could not start': Argument list too long), what "
                  "the host's bound exists to refuse by name. Fix idea: one count in one home: the host refuses a lone "
                  "surrogate in `command` (or counts it as the box will run it)")


def test_a_command_the_host_admits_by_its_bytes_starts_in_the_box(session_host: SessionHost) -> None:
    """Safe outcome: a command under the host's bound runs (exit 0), or the host refuses it naming `command`. Near
    miss: 100 lone surrogates run (the box's decoding is what runs: U+FFFD). Was SURROGATE_HOLE; closed since: the
    host counts the bytes the box runs (verifier/sessions.py shell_bytes)."""
    command = "echo " + "\ud800" * SURROGATES + " | wc -c"
    host = _host_check_shell(command)
    replaced = len(("\ud800" * 100).encode("utf-8", "surrogatepass").decode("utf-8", "replace").encode())
    box = session_host.take_box("python", SessionLimits(time_limit_s=2), {})
    try:
        near = box.shell("echo " + "\ud800" * 100 + " | wc -c", 2, 4096)
        sent = box.shell(command, 2, 4096)
    finally:
        session_host.destroy(box)
    print(host, brief(near), brief(sent), repr(sent.get("stderr"))[:200])
    assert (near.get("status"), near.get("exit_code"), near.get("stdout", "").strip()) == ("ok", 0, str(replaced + 1)), brief(near)
    assert host == "command" or (sent.get("status"), sent.get("exit_code")) == ("ok", 0), (host, brief(sent))


MULTIBYTE = {"ascii": "a", "two-byte": "\u00e9", "three-byte": "\u20ac", "four-byte": "\U0001F600"}


@pytest.mark.parametrize("name", list(MULTIBYTE))
def test_the_shell_bound_is_exact_for_multibyte_characters(session_host: SessionHost, name: str) -> None:
    """Held: a command of exactly SHELL_COMMAND_MAX_BYTES bytes in UTF-8 (padded with ASCII to the byte) is admitted by
    the host and runs in the box (exit 0); one byte more is refused by the host naming `command` and, sent to the box
    directly, is the command's own exit 126, the session living."""
    from verifier.sessions import SHELL_COMMAND_MAX_BYTES

    char = MULTIBYTE[name]
    width = len(char.encode())
    body = SHELL_COMMAND_MAX_BYTES - len(": ; echo at")
    at = ": " + char * (body // width) + "a" * (body % width) + "; echo at"
    over = at + " "
    assert len(at.encode()) == SHELL_COMMAND_MAX_BYTES
    assert (_host_check_shell(at), _host_check_shell(over)) == ("", "command")
    box = session_host.take_box("python", SessionLimits(time_limit_s=2), {})
    try:
        ran = box.shell(at, 2, 4096)
        refused = box.shell(over, 2, 4096)
        cell = box.cell("1 + 1")
    finally:
        session_host.destroy(box)
    assert (ran.get("status"), ran.get("exit_code"), ran.get("stdout")) == ("ok", 0, "at\n"), brief(ran)
    assert (refused.get("status"), refused.get("exit_code"), bool(refused.get("lost"))) == ("ok", 126, False), brief(refused)
    assert (cell.get("status"), cell.get("value")) == ("ok", "2"), brief(cell)


def _path_of(chars: int, char: str) -> str:
    """A path of exactly `chars` characters of PATH_PARTS_MAX parts at most: names of 255 `char`s, a leading "/"."""
    from verifier.sessions import PATH_PARTS_MAX

    names: list[str] = []
    left = chars - 1
    while left > 0 and len(names) < PATH_PARTS_MAX:
        n = min(255, left - (1 if names else 0))
        names.append(char * n)
        left -= n + (1 if len(names) > 1 else 0)
    return "/" + "/".join(names) + char * left


@pytest.mark.parametrize("name", list(MULTIBYTE))
def test_the_host_and_the_box_bound_a_paths_characters_alike(name: str) -> None:
    """Held: at PATH_MAX_CHARS characters (of 1- to 4-byte UTF-8, and a path's JSON as the channel sends it, ensure_ascii:
    an astral character is two escapes the box decodes to one) the host and the box both admit a path, one more both
    refuse; the counts are the same characters."""
    import json

    from sandbox.contract import TaskError
    from verifier.sessions import PATH_MAX_CHARS, _check_parts

    tools = _tools()
    assert PATH_MAX_CHARS == tools.PATH_MAX
    for chars, admitted in ((PATH_MAX_CHARS, True), (PATH_MAX_CHARS + 1, False)):
        path = _path_of(chars, MULTIBYTE[name])
        assert len(path) == chars
        try:
            _check_parts(path)
            host = True
        except TaskError as e:
            assert e.field == "path", e
            host = False
        boxed = json.loads(json.dumps({"path": path}))["path"]  # the channel's framing of a request's head
        assert (host, tools.tool_parts(boxed, False) is not None) == (admitted, admitted), (name, chars)


def test_a_path_at_the_bound_is_written_and_one_past_it_refused_in_the_box(session_host: SessionHost) -> None:
    """Held: a write of a path of exactly PATH_MAX_CHARS characters (128 names of 255 bytes) is written and read back;
    one character more is refused in the box too; a path at the bound of 4-byte characters (names of 1,020 bytes, past
    NAME_MAX) is the call's refusal, the session living."""
    from verifier.sessions import PATH_MAX_CHARS

    at, over, wide = _path_of(PATH_MAX_CHARS, "a"), _path_of(PATH_MAX_CHARS + 1, "a"), _path_of(PATH_MAX_CHARS, "\U0001F600")
    box = session_host.take_box("python", SessionLimits(time_limit_s=2), {})
    try:
        wrote = box.write(at, b"deep")
        read = box.read(at, 10)
        refused = box.write(over, b"x")
        too_wide = box.write(wide, b"x")
        cell = box.cell("1 + 1")
    finally:
        session_host.destroy(box)
    assert wrote.get("ok") is True and read.get("data") == b"deep", (wrote, {k: v for k, v in read.items() if k != "data"})
    assert refused.get("ok") is False and not refused.get("lost"), refused
    assert too_wide.get("ok") is False and not too_wide.get("lost"), too_wide
    assert (cell.get("status"), cell.get("value")) == ("ok", "2"), brief(cell)


# ----------------------------------------------------------------- 2. the runner a test command names (h33y)
# The tree: tools/run.sh (a runner), `ci` a link to `tools`, `runtests` (a runner with no suffix). Each command names a
# runner the copy rule (command_files) finds; the patch's allowlist is told the command's files by command_paths, a
# second reading of the same command. A patch that rewrites the runner (to print a forged report) must be refused.
RUNNER_COMMANDS = {  # name: (test command, the runner file it runs or reads, whether command_files names it)
    "plain": ("bash tools/run.sh", "tools/run.sh", True),
    "after-cd": ("cd tools && ./run.sh", "tools/run.sh", True),
    "through-link": ("bash ci/run.sh", "tools/run.sh", True),
    "semicolon": ("bash tools/run.sh; true", "tools/run.sh", True),
    "subshell": ("(tools/run.sh)", "tools/run.sh", True),
    "bare-name": ("sh runtests", "runtests", True),
    # a module by name: `python -m` runs it, `-p` loads it into pytest as a plugin (every .py is a copy in Python)
    "python-m": ("python3 -m tools.runner tests", "tools/runner.py", True),
    "pytest-plugin": ("python3 -m pytest -p tools.plugin tests", "tools/plugin.py", True),
    # what a protected runner reads: tools/run.sh sources tools/lib.sh (a variant a fix for the names alone misses)
    "sourced-helper": ("sh tools/run.sh", "tools/lib.sh", False),
}
RUNNER_FILES = {"tools/run.sh": "#!/bin/sh\n. tools/lib.sh\n", "tools/lib.sh": "python3 -m pytest -rA tests\n",
                "runtests": "python3 -m pytest -rA tests\n", "tools/__init__.py": "\n",
                "tools/runner.py": "import pytest\n", "tools/plugin.py": "import pytest\n"}
RUNNER_HOLE = ("closed by h33z; was: class 3, h33y/command_paths: the patch's protected files are the command's words as command_paths reads "
               "them (split on blanks, quotes stripped, `./` dropped, only words with a `/` or a script suffix), not the "
               "runners the copy rule resolves (command_files: words split on the shell's operators, followed through "
               "the environment's links, last parts after a `cd`): a runner named after `cd`, through a link, before a "
               "`;`, in a subshell, without a suffix, or a module `python -m` runs or `-p` loads is a copy the PATCH MAY REWRITE (check_admitted admits the "
               "hunk). A rewritten runner forges its report; only decoys detect it, and a task with no decoy "
               "(parametrized or non-equality FAIL_TO_PASS tests) pays it, as the in-process forgery of "
               "tests/test_repo_redteam_python.py does. Variant a fix for the names alone misses: a file a protected runner "
               "reads (`. tools/lib.sh`). Fix idea: one home: protect every file command_files names (its resolved paths, "
               "every file whose last part it names, a module path it names); and a runner's own reads are the "
               "dataset's (or the runner is the harness's, not the repository's)")


@pytest.mark.parametrize("name", list(RUNNER_COMMANDS))
def test_a_patch_may_not_rewrite_a_runner_the_command_names(name: str, tmp_path: Path) -> None:
    """Safe outcome: check_admitted refuses a patch that rewrites the runner the command runs or reads (PatchError naming
    a protected path). Near miss: the copy rule finds each runner the command names (all but the sourced helper, which
    no rule names). `plain` holds."""
    from sandbox.repo.apply import tree_kind
    from sandbox.repo.patch import PatchError, check_admitted, command_files, read_patch
    from sandbox.repo_job import copied

    for path, text in RUNNER_FILES.items():
        (tmp_path / path).parent.mkdir(exist_ok=True)
        (tmp_path / path).write_text(text)
    os.symlink("tools", tmp_path / "ci")
    command, runner, named = RUNNER_COMMANDS[name]
    assert copied("python", command, str(tmp_path))(runner) or not named, (name, runner)  # near miss: a copy
    lines = RUNNER_FILES[runner].splitlines()
    patch = read_patch(f"--- a/{runner}\n+++ b/{runner}\n@@ -{len(lines)} +{len(lines)} @@\n-{lines[-1]}\n+echo PASSED\n")
    with pytest.raises(PatchError, match="protected"):
        check_admitted(patch, "python", lambda path: tree_kind(str(tmp_path), path), (), command_files(command, str(tmp_path)))


# The same miss through a real grade: an environment whose test command is `cd tools && sh run.sh` (the runner named
# after a `cd`: command_files copies tools/run.sh, command_paths protects `run.sh` at the root). The task's
# FAIL_TO_PASS test is parametrized, so no decoy is planted (decoys.py: a plain id only). The wrong patch fixes nothing
# and rewrites the runner: pytest runs, its output (the -rA summary parse_pytest lays over the XML) to /dev/null, then every
# <failure> of its junit report (PYTEST_ADDOPTS names the file) is cut.
_RUNNER = "#!/bin/sh\ncd \"$(dirname \"$0\")/..\" && exec python3 -m pytest -p no:cacheprovider -rA tests\n"
_RUNNER_PROJECT = {"pkg/__init__.py": '"""The package."""\n', "pkg/mod.py": "def add(a, b):\n    return a - b\n",
                   "tools/run.sh": _RUNNER,
                   "tests/test_mod.py": "from pkg.mod import add\n\n\ndef test_zero():\n    assert add(0, 0) == 0\n"}
_RUNNER_CMD = "cd tools && sh run.sh"
_RUNNER_TESTS = ("--- a/tests/test_mod.py\n+++ b/tests/test_mod.py\n@@ -1,5 +1,12 @@\n+import pytest\n+\n"
                 " from pkg.mod import add\n \n \n def test_zero():\n     assert add(0, 0) == 0\n+\n+\n"
                 "+@pytest.mark.parametrize('a,b,c', [(1, 2, 3)])\n+def test_sum(a, b, c):\n+    assert add(a, b) == c\n")
_RUNNER_GOLD = "--- a/pkg/mod.py\n+++ b/pkg/mod.py\n@@ -1,2 +1,2 @@\n def add(a, b):\n-    return a - b\n+    return a + b\n"
_RUNNER_WRONG = "--- a/pkg/mod.py\n+++ b/pkg/mod.py\n@@ -1,2 +1,2 @@\n def add(a, b):\n-    return a - b\n+    return a * b\n"
_FORGE = ("--- a/tools/run.sh\n+++ b/tools/run.sh\n@@ -1,2 +1,5 @@\n #!/bin/sh\n"
          "-cd \"$(dirname \"$0\")/..\" && exec python3 -m pytest -p no:cacheprovider -rA tests\n"
          "+cd \"$(dirname \"$0\")/..\" && python3 -m pytest -p no:cacheprovider tests >/dev/null 2>&1\n"
          "+f=$(echo \"$PYTEST_ADDOPTS\" | sed 's/.*--junitxml=\\([^ ]*\\).*/\\1/')\n"
          "+python3 -c \"import re, sys; p = sys.argv[1]; s = re.sub(r'<failure.*?</failure>', '', open(p).read(), flags=re.S); "
          "open(p, 'w').write(re.sub(r'failures=\\\"[0-9]+\\\"', 'failures=\\\"0\\\"', s))\" \"$f\"\n"
          "+exit 0\n")


@pytest.fixture(scope="module", params=["docker", "gvisor"])
def runner_env(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The project above built as the python environment `runner`, and a grader of it on each backend."""
    from tests.helpers import build_environment, repo_grader, write_files

    src, recipes, root = (tmp_path_factory.mktemp(n) for n in ("runner-src", "runner-recipe", "runner-envs"))
    write_files(src, _RUNNER_PROJECT)
    build_environment(src, recipes, root, "runner", _RUNNER_CMD)
    with repo_grader(request.param, f"test-rt15-runner-{request.param}", root) as g:
        yield g


def _grade_runner(g: Any, completion: str, cmd: str = _RUNNER_CMD) -> dict:
    from sandbox.contract import parse_task

    result = g.call(g.grader.grade_repo(parse_task({
        "id": "runner", "kind": "repo", "environment": "runner", "completion": completion, "test_patch": _RUNNER_TESTS,
        "test_cmd": cmd, "fail_to_pass": ["tests/test_mod.py::test_sum[1-2-3]"],
        "pass_to_pass": ["tests/test_mod.py::test_zero"], "report": "pytest"})))
    g.call(g.grader.settled())
    return result


def test_the_runner_layout_grades_the_patched_tree(runner_env: Any) -> None:
    """Held (the near misses of the finding below): under `cd tools && sh run.sh` the right patch is accepted and a
    wrong one refused; the forging runner patch under a spelling command_paths protects (`sh tools/run.sh`) is refused."""
    right, wrong = _grade_runner(runner_env, _RUNNER_GOLD), _grade_runner(runner_env, _RUNNER_WRONG)
    protected = _grade_runner(runner_env, _RUNNER_WRONG + _FORGE, "sh tools/run.sh")
    assert (right["verdict"], right["score"]) == ("accepted", 1.0), right
    assert (wrong["verdict"], wrong["score"]) == ("wrong_answer", 0.0), wrong
    assert protected["verdict"] == "wrong_answer" and "protected path" in protected["detail"], protected


def test_a_patch_that_rewrites_the_runner_named_after_cd_is_not_paid(runner_env: Any) -> None:
    """Safe outcome: a wrong patch that also rewrites the runner (named after a `cd`) is refused, never accepted."""
    forged = _grade_runner(runner_env, _RUNNER_WRONG + _FORGE)
    print(forged)
    assert forged["verdict"] != "accepted" and forged["score"] == 0.0, forged

"""Red team of sessions on an environment (issue 34; /work/shared/RED-TEAM.md classes 3, 5, 6, 7, 8, 9):
a policy driving a session (shell, files, listing, fork, snapshot, grade) and a client, against a real
server on loopback with the Docker backend and the calc environment of tests/test_session_env.py.

What each test attacks (docs/sessions.md "Sessions on an environment", "Grading a session", "Fork and
snapshot"): paths out of the tree through `..`, absolute paths, links and /proc, and fifos that could
hang a reader; the hidden tests seen from the session during or after its grade; a grade taken while a
background process rewrites the tree; processes, output and commands that outlive or outgrow a shell
call; what a closed session leaves for the next one on the same container; what a fork inherits; the
fork and snapshot bounds under forks of forks and concurrent forks. A hole found is a test of the safe
behaviour marked xfail(strict) naming its class; what held is a plain test."""
from __future__ import annotations

import concurrent.futures
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from conftest import ServerProcess
from helpers import http_call, sandbox_config
from test_repo_service import calc_environments
from test_session_env import FIXED, GRADE, NEAR_MISS
from verifier.client import SessionLost, VerifierClient, VerifierError

pytestmark = pytest.mark.docker

MEMORY_MB = 200  # each session's; plus twice the tree's archive (a few MB)
TOTAL_MB = 700  # three such sessions fit under session_max_total_memory_mb, a fourth does not
HIDDEN_NAME = "test_quad_thre[e]"  # only in GRADE's test_patch; a pattern that does not match its own command line
# New empty files until /work (a tmpfs with its own inode cap) says ENOSPC: the tree's entries exhausted.
FILL_INODES = ("python3 -c \"import os\nos.mkdir('many')\ntry:\n    for i in range(100001): open(f'many/{i}', 'w').close()\n"
               "except OSError as e:\n    print(e.errno, i)\"")


@pytest.fixture(scope="module")
def environments(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return calc_environments(tmp_path_factory)


@pytest.fixture(scope="module")
def server(environments: Path) -> Iterator[ServerProcess]:
    sandbox_config("docker", languages=("python",))
    with ServerProcess("--workers", "1", "--sandbox-backend", "docker", "--sandbox-languages", "python",
                       "--sandbox-pool-size", "1", "--sandbox-repo-environments", str(environments),
                       "--session-max-fork", "4", "--session-max-total-memory-mb", str(TOTAL_MB),
                       "--session-snapshots-max-mb", "1", "--session-snapshot-ttl-s", "30") as s:
        yield s


@pytest.fixture(scope="module")
def client(server: ServerProcess) -> Iterator[VerifierClient]:
    with VerifierClient(server.target) as c:
        yield c


def _refused(call, *args) -> VerifierError:
    with pytest.raises(VerifierError) as e:
        call(*args)
    return e.value


def test_paths_out_of_the_tree_are_refused(client: VerifierClient) -> None:
    """Class 7: a path names a place below the tree only. `..`, an absolute path (taken below /work),
    /proc/self/root, and links the session made to /etc, to /proc and to a file outside: read, write
    and list never reach through them; a fifo does not hang a read or a write."""
    with client.session(environment="calc", time_limit_s=2, memory_limit_mb=MEMORY_MB) as s:
        made = s.shell("ln -s /etc etc_link && ln -s /etc/hostname host_link && ln -s /proc/self/root root_link"
                       " && ln -s .. up_link && mkdir -p d && ln -s /etc d/inner && mkfifo calc/pipe.py")
        assert made.exit_code == 0, made
        for path in ("../etc/hostname", "calc/../../etc/hostname", "etc_link/hostname", "host_link",
                     "root_link/etc/hostname", "up_link/etc/hostname", "d/inner/hostname", "/etc/hostname",
                     "/proc/self/root/etc/hostname", "calc/pipe.py"):
            e = _refused(s.read_file, path)
            assert e.code in (grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.NOT_FOUND), (path, e)
        for path in ("../x.py", "etc_link/x.py", "root_link/tmp/x.py", "d/inner/x.py", "host_link", "calc/pipe.py"):
            e = _refused(s.write_file, path, "X = 1\n")
            assert e.code == grpc.StatusCode.INVALID_ARGUMENT and "path" in e.message, (path, e)
        for path in ("..", "etc_link", "root_link", "up_link", "d/inner", "/proc", "calc/pipe.py"):
            e = _refused(s.list_dir, path)
            assert e.code == grpc.StatusCode.INVALID_ARGUMENT and "path" in e.message, (path, e)
        assert s.shell("test -p calc/pipe.py && ls /etc/hostname").exit_code == 0  # nothing was replaced


def test_a_path_of_more_parts_than_a_tree_holds_is_refused_naming_path(client: VerifierClient) -> None:
    """Red team 12 (class 5/9): a write made every folder of a path of thousands of parts in the box's PID 1, outside
    any cell's clock. Over PATH_PARTS_MAX parts, read, write and list are INVALID_ARGUMENT naming `path`, before any
    box walks it; a path of PATH_PARTS_MAX parts is written."""
    from verifier.sessions import PATH_PARTS_MAX
    deep = "a/" * PATH_PARTS_MAX + "f"
    with client.session(environment="calc", time_limit_s=2, memory_limit_mb=MEMORY_MB) as s:
        for call, args in ((s.write_file, (deep, "x")), (s.read_file, (deep,)), (s.list_dir, (deep,))):
            e = _refused(call, *args)
            assert e.code == grpc.StatusCode.INVALID_ARGUMENT and "path" in e.message and str(PATH_PARTS_MAX) in e.message, e
        assert s.write_file("a/" * (PATH_PARTS_MAX - 1) + "f", "x") == 1
        assert s.shell("find a -type d | wc -l").stdout.strip() == str(PATH_PARTS_MAX - 1)


def test_hidden_tests_never_enter_the_session(client: VerifierClient) -> None:
    """Class 3: a watcher the session leaves running (setsid) searches every place it can read for as long as
    the grade runs and once more after it (until told to stop, however long the grade takes under load), and the whole
    filesystem is searched after it: the hidden test's name is nowhere in the session's box. The watcher has
    stopped before that search, so the search's CPU limit and wall clock (twice it plus 1 s) are its own: the
    search reads the whole root filesystem (about 1 CPU-second quiet), and a 5 s limit shared with the
    watcher ran out at load 27-40."""
    watch = (f"(setsid sh -c 'while :; do grep -rls \"{HIDDEN_NAME}\" /work /tmp /dev/shm /proc/[0-9]*/cmdline"
             f" /proc/[0-9]*/environ >> /tmp/found 2>/dev/null; [ -e /tmp/stop ] && break; sleep 0.2; done; touch /tmp/stopped'"
             " </dev/null >/dev/null 2>&1 &); sleep 0.1")
    with client.session(environment="calc", time_limit_s=20, memory_limit_mb=MEMORY_MB) as s:
        s.write_file("calc/__init__.py", FIXED)
        assert s.shell(watch).exit_code == 0
        assert "while :" in s.shell("cat /proc/[0-9]*/cmdline").stdout  # the watcher runs on
        assert s.grade(GRADE)["verdict"] == "accepted"
        stopped = s.shell("touch /tmp/stop; while [ ! -e /tmp/stopped ]; do sleep 0.1; done; echo stopped")
        assert stopped.stdout == "stopped\n", stopped  # the watcher ran the whole grade: it searched after it too
        after = s.shell(f"cat /tmp/found; grep -rls '{HIDDEN_NAME}' / --exclude-dir=proc --exclude-dir=sys 2>/dev/null;"
                        " find / -xdev -name 'test_quad_more*' 2>/dev/null; echo end")
        assert after.stdout == "end\n", after


def test_a_grade_is_of_one_tree_while_a_process_rewrites_it(client: VerifierClient) -> None:
    """Class 3/5: a background process swaps the right and the near-miss file (by rename) while the tree is
    read for the grade: the verdict is the one of the patch reported, whichever it caught, and a
    rewrite after the grade changes nothing graded."""
    with client.session(environment="calc", time_limit_s=5, memory_limit_mb=MEMORY_MB) as s:
        s.write_file("calc/__init__.py", NEAR_MISS)
        assert s.shell("cp calc/__init__.py /tmp/bad").exit_code == 0
        s.write_file("calc/__init__.py", FIXED)
        flip = ("cp calc/__init__.py /tmp/good; cd /tmp && (setsid sh -c 'while :; do cp good t1 && mv t1 /work/calc/__init__.py;"
                " cp bad t2 && mv t2 /work/calc/__init__.py; done' </dev/null >/dev/null 2>&1 &); sleep 0.1")
        assert s.shell(flip).exit_code == 0
        for _ in range(2):
            r = s.grade(GRADE)
            caught_near = "8 if x == 2" in r["patch"]
            assert r["verdict"] == ("wrong_answer" if caught_near else "accepted"), r
            assert r["verdict"] != "infra_error"


def test_commands_that_never_end_or_flood(client: VerifierClient) -> None:
    """Class 5/9: a child holding the shell's pipes after it exits, a command that never returns and
    floods of output each come back within their limits; the session lives on."""
    with client.session(environment="calc", time_limit_s=1, memory_limit_mb=MEMORY_MB) as s:
        held = s.shell("(setsid sleep 600 &); (sleep 600 &); echo back")
        assert held.status == "ok" and held.exit_code == 0 and held.stdout == "back\n", held
        never = s.shell("sleep 600", time_limit_s=0.5)
        assert never.status == "time_limit" and never.exit_code is None, never
        flood = s.shell("yes; yes >&2", time_limit_s=0.5, max_output_bytes=100)
        assert flood.status == "time_limit" and len(flood.stdout) <= 100 and flood.stdout_truncated, flood
        burst = s.shell("head -c 50000000 /dev/zero; head -c 50000000 /dev/zero >&2", max_output_bytes=100)
        assert burst.exit_code == 0 and len(burst.stdout) == len(burst.stderr) == 100, burst
        assert s.shell("echo alive").stdout == "alive\n"


def test_background_processes_are_bounded_for_the_whole_session(client: VerifierClient) -> None:
    """Class 5: processes that left the shell's group (setsid, double fork) count against the session's
    pids limit (64 processes and threads, docs/sessions.md "Sessions")."""
    with client.session(environment="calc", time_limit_s=1, memory_limit_mb=MEMORY_MB) as s:
        r = s.shell("for i in $(seq 150); do (setsid sleep 600 </dev/null >/dev/null 2>&1 &); done 2>/dev/null; true")
        assert r.status in ("ok", "time_limit"), r
        count = s.shell("set -- /proc/[0-9]*; echo $#")  # builtins: there may be no process left to fork
        assert count.status == "ok" and int(count.stdout) <= 70, count


# A busy process left running, its heartbeat a counter in __pycache__ (never part of a grade's snapshot).
SPINNER = ("mkdir -p __pycache__; (setsid sh -c 'echo $$ > /tmp/spin.pid; i=0; while :; do i=$((i+1)); echo $i > /work/__pycache__/beat; done'"
           " </dev/null >/dev/null 2>&1 &); sleep 0.1")


def _until_beat_stops(s) -> bool:
    """Poll the spinner's heartbeat by file reads (no shell, no cell: neither restarts the idle clock)
    until four reads 0.5 s apart agree (it was killed, not merely starved under load), or a read answers
    "session lost" (the idle watch ended the session, killing it: every call then says so); False if it
    never stops within a minute."""
    last, same = b"", 0
    for _ in range(120):
        time.sleep(0.5)
        try:
            beat = s.read_file("__pycache__/beat")
        except SessionLost:
            return True
        same = same + 1 if beat and beat == last else 0  # an empty read is a rewrite caught midway
        # (the spinner truncates, then writes: most reads of a live spinner's beat are empty): it says
        # nothing. A kill that lands between the two ends the session: the next read says "session lost".
        if same == 3:
            return True
        last = beat
    return False


def test_a_busy_background_process_ends_the_session(client: VerifierClient) -> None:
    """Class 5: a spinner left between calls (setsid, out of the shell's group) burns the session's idle
    CPU budget, max(time_limit_s, 1) CPU-seconds, and is killed with the session: no core burnt until
    the idle TTL; the next shell call says the session is lost."""
    with client.session(environment="calc", time_limit_s=1, memory_limit_mb=MEMORY_MB) as s:
        assert s.shell(SPINNER).exit_code == 0
        for _ in range(3):  # a spinner starved under load looks stopped: then look again
            assert _until_beat_stops(s)
            try:
                s.shell("echo still")
            except SessionLost as e:
                assert "time_limit" in e.message, e
                return
        pytest.fail("the spinner was never stopped")


def test_a_session_its_limit_ended_is_not_graded(client: VerifierClient) -> None:
    """Class 5: a session that the idle watch ended over its CPU budget (docs/sessions.md "Sessions": "the
    next call gets session lost") must not be graded as if alive: PID 1 answered snapshot, delta, write
    and list without asking whether the session was ended (sandbox/harness/session_box.py serve_tool
    checked only for shell), so a policy that burns CPU in the background and then grades was paid.
    Only grades are sent after the spinner starts (a grade's snapshot leaves the idle clock running), so
    the first call to meet the ended session is a grade's and PID 1's own answer is what is tested, not
    the server's memory of a read that said "session lost" first; a grade while the spinner is still under
    its budget is the right tree's, accepted. (Polling the beat first failed at random: most reads of a
    live spinner's beat are empty, and three in a row read as a stopped one.)"""
    with client.session(environment="calc", time_limit_s=1, memory_limit_mb=MEMORY_MB) as s:
        s.write_file("calc/__init__.py", FIXED)
        assert s.shell(SPINNER).exit_code == 0
        for _ in range(120):
            time.sleep(0.5)
            try:
                result = s.grade(GRADE)
            except SessionLost as e:
                assert "time_limit" in e.message, e
                return
            assert result["verdict"] == "accepted", result
        pytest.fail("120 grades, each accepted, while a spinner burnt a 1 s budget: the session was never ended")


def test_a_spinner_is_bounded_across_calls(client: VerifierClient) -> None:
    """Class 5: the idle budget is "max(time_limit_s, 1) CPU-seconds in all" between cells, yet PID 1
    restarts its clock after every shell call and cell (session_box.py Box.idle): a policy that calls a
    cheap command every 0.3 s keeps a spinner burning a core for the session's whole life. The safe
    behaviour: the spinner's CPU between calls is counted in all, and the session ends."""
    with client.session(environment="calc", time_limit_s=1, memory_limit_mb=MEMORY_MB) as s:
        assert s.shell(SPINNER).exit_code == 0
        for _ in range(200):
            time.sleep(0.3)
            try:
                r = s.shell("read p < /tmp/spin.pid; cut -d' ' -f14,15 /proc/$p/stat")
            except SessionLost:
                return  # the budget held
            if r.status == "ok" and r.stdout.strip():
                ticks = sum(int(x) for x in r.stdout.split())
                if ticks > 150:  # over 1.5 CPU-seconds (100 ticks a second): past the 1 s budget "in all"
                    break
        pytest.fail("the background spinner used over 1.5 CPU-seconds between calls and the session lives on")


def test_finished_background_processes_free_their_pids(client: VerifierClient) -> None:
    """Class 5/8: 100 background processes that each finished at once must not hold the session's 64
    pids: PID 1 (sandbox/harness/session_box.py) is the orphans' parent and must reap them, else the
    session's later commands fail with "Cannot fork" for processes that no longer run."""
    with client.session(environment="calc", time_limit_s=2, memory_limit_mb=MEMORY_MB) as s:
        for _ in range(2):
            r = s.shell("for i in $(seq 50); do (true &); done; echo looped")
            assert r.exit_code == 0 and "fork" not in r.stderr, r.stderr[:200]
        count = s.shell("set -- /proc/[0-9]*; echo $#")
        assert int(count.stdout) < 10, count


def test_a_closed_session_leaves_nothing_for_the_next(client: VerifierClient) -> None:
    """Class 6: what a session leaves in its container (files in /tmp, /dev/shm and /work, xattrs, a
    process outside the group, an abstract socket) is gone for the next session, which may get the
    same container (SessionHost.give_back keeps a clean reset one)."""
    files = ("echo L > /tmp/leak_m; echo L > /dev/shm/leak_m; echo L > leak_m.py;"
             " python3 -c \"import os; os.setxattr('/work', 'user.leak_m', b'1')\" 2>/dev/null;"
             " (setsid python3 -c 'import time; time.sleep(600)' leak_m </dev/null >/dev/null 2>&1 &);")
    socket = (" (setsid python3 -c \"import socket,time; s=socket.socket(socket.AF_UNIX); s.bind('\\0leak_m'); s.listen(); time.sleep(600)\""
             " </dev/null >/dev/null 2>&1 &);")
    look = ("ls -a /tmp /dev/shm /work; for f in /proc/[0-9]*/cmdline; do tr '\\0' ' ' < $f; echo; done;"
            " echo unix=$(grep -c 'leak''_m' /proc/net/unix); python3 -c \"import os; print(os.listxattr('/work'))\"")
    # With the socket the reset is unclean and the container removed; without it the reset is clean and
    # the container kept: the next session may be on it (SessionHost.take_box takes the latest spare).
    for leave, sockets in ((files + socket, 1), (files, 0)):
        with client.session(environment="calc", time_limit_s=2, memory_limit_mb=MEMORY_MB) as a:
            assert a.shell(leave + " sleep 0.3; echo done").stdout.endswith("done\n")
            alive = a.shell("cat /proc/[0-9]*/cmdline | tr '\\0' ' '; grep -c 'leak''_m' /proc/net/unix")
            assert alive.stdout.count("leak_m") >= 1 + sockets and alive.stdout.endswith(f"{sockets}\n"), alive.stdout
        with client.session(environment="calc", time_limit_s=2, memory_limit_mb=MEMORY_MB) as b:
            seen = b.shell(look)
            assert "leak_m" not in seen.stdout and "unix=0\n" in seen.stdout and "[]\n" in seen.stdout, seen.stdout


def test_a_fork_carries_files_only(client: VerifierClient) -> None:
    """Class 6: a fork gets the parent's tree and nothing else (no /tmp, no process); a process the
    parent leaves writing into its tree after the fork never reaches the fork; a fork of a fork
    carries its grandparent's changes and its own; a fork's write never reaches the parent."""
    with client.session(environment="calc", time_limit_s=2, memory_limit_mb=MEMORY_MB) as p:
        p.write_file("calc/__init__.py", FIXED)
        assert p.shell("echo T > /tmp/parent_tmp; (setsid python3 -c 'import time; time.sleep(600)' parent_proc </dev/null >/dev/null 2>&1 &);"
                       " sleep 0.1").exit_code == 0
        (f,) = p.fork(1)
        with f:
            assert p.shell("(setsid sh -c 'sleep 0.3; echo late > /work/calc/late.py' </dev/null >/dev/null 2>&1 &); sleep 0.1").exit_code == 0
            assert "parent_proc" in p.shell("cat /proc/[0-9]*/cmdline").stdout  # left running in the parent
            seen = f.shell("ls /tmp; cat /proc/[0-9]*/cmdline 2>/dev/null | tr '\\0' ' '")
            assert "parent_tmp" not in seen.stdout and "parent_proc" not in seen.stdout, seen
            f.write_file("calc/second.py", "S = 1\n")
            (g,) = f.fork(1)
            with g:
                assert g.read_file("calc/__init__.py") == FIXED.encode()
                assert g.read_file("calc/second.py") == b"S = 1\n"
                late = p.shell("sleep 0.3; cat calc/late.py")
                assert late.stdout.startswith("late\n"), late
                for s in (f, g):
                    assert s.shell("test -e calc/late.py").exit_code == 1
                assert p.shell("test -e calc/second.py").exit_code == 1


def test_forks_of_forks_stay_within_the_servers_bounds(client: VerifierClient) -> None:
    """The fork bound: forks of forks, and forks racing from two sessions, never hold more sessions
    than session_max_total_memory_mb admits (three here); what is refused is RESOURCE_EXHAUSTED."""
    opened = []
    try:
        a = client.session(environment="calc", time_limit_s=2, memory_limit_mb=MEMORY_MB).__enter__()
        opened.append(a)
        b = client.session(environment="calc", time_limit_s=2, memory_limit_mb=MEMORY_MB).__enter__()
        opened.append(b)
        with concurrent.futures.ThreadPoolExecutor(4) as pool:  # one place left; four forks race for it
            calls = [pool.submit(s.fork, 1) for s in (a, b, a, b)]
            won, lost = [], []
            for c in calls:
                try:
                    won += c.result()
                except VerifierError as e:
                    lost.append(e)
        opened += won
        assert len(won) == 1 and all(e.code == grpc.StatusCode.RESOURCE_EXHAUSTED for e in lost), (won, lost)
        e = _refused(won[0].fork, 1)  # a fork of a fork is held to the same bound
        assert e.code == grpc.StatusCode.RESOURCE_EXHAUSTED and "session_max_total_memory_mb" in e.message
    finally:
        for s in opened:
            s.close()


def test_snapshot_and_session_ids_are_not_interchangeable(client: VerifierClient, server: ServerProcess) -> None:
    """Class 7: a snapshot id names no session (no shell, no grade, no close on it), a session id names
    no snapshot, and a made-up id names neither."""
    with client.session(environment="calc", time_limit_s=2, memory_limit_mb=MEMORY_MB) as s:
        s.write_file("calc/__init__.py", FIXED)
        kept = s.snapshot(ttl_s=5)
        for route, body in (("shell", {"command": "true"}), ("grade", {"task": GRADE}), ("fork", {"n": 1})):
            status, _, answer = http_call(server, "POST", f"/v1/sessions/{kept}/{route}", body)
            assert status == 404, (route, answer)
        for sid in (s.id, s.id[:-1] + ("A" if s.id[-1] != "A" else "B"), "../" + kept):
            status, _, answer = http_call(server, "POST", "/v1/sessions", {"snapshot": sid})
            assert status in (400, 404), (sid, answer)
        with client.session(snapshot=kept) as r:
            assert r.read_file("calc/__init__.py") == FIXED.encode()


def test_trees_a_patch_cannot_carry_are_the_sessions_wrong_answer(client: VerifierClient) -> None:
    """Class 8: a tree the session made unreadable to itself (mode 000 on a file, on a directory), a
    fifo, a link out of the tree and 100,001 entries are graded `wrong_answer`, never infra_error nor
    a service error; the session lives on."""
    cases = [("chmod 000 calc/__init__.py", "chmod 644 calc/__init__.py"),
             ("chmod 000 calc", "chmod 755 calc"),
             ("mkfifo calc/f.py", "rm calc/f.py"),
             ("ln -s /etc/passwd calc/l.py", "rm calc/l.py"),
             (FILL_INODES, "rm -r many")]
    with client.session(environment="calc", time_limit_s=8, memory_limit_mb=MEMORY_MB) as s:
        s.write_file("calc/__init__.py", FIXED)
        for make, undo in cases:
            made = s.shell(make, time_limit_s=8)
            assert made.exit_code == 0, (make, made.stderr)
            r = s.grade(GRADE)
            assert r["verdict"] == "wrong_answer" and r["score"] == 0.0, (make, r)
            assert s.shell(undo, time_limit_s=8).exit_code == 0, undo
        assert s.grade(GRADE)["verdict"] == "accepted"

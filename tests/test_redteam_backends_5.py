"""Red team rt34r of three changes (/work/shared/RED-TEAM.md classes): Docker's runsc runtime giving a checker its
doubled room from its first run (Backend.over_limit_ends_sandbox, sandbox/job.py _with_room), the start of runsc and
the userns launch through backend.dies_with_server (issue 34), and fx34z's walks of a fork (sandbox/harness/
session_tools.py _Dirs, DEPTH_MAX; docs/sessions.md "Fork and snapshot"), attacked as a program and as session
commands would. Each open hole is a strict xfail that fails because the attack works; the attacks that held are plain
tests. The sessions' servers, clients and environment are tests/test_session_fork.py's (module-scoped here too); the
depth bound itself on both backends is tests/test_redteam_backends_4.py's."""
from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from test_session_fork import client, environments, server  # noqa: F401 (module-scoped fixtures)

pytestmark = pytest.mark.docker


@pytest.fixture(scope="module", params=["docker", "gvisor"])
def sandbox_backend(request: pytest.FixtureRequest) -> str:
    """tests/test_session_fork.py's servers run on this backend."""
    from tests.helpers import sandbox_config

    sandbox_config(request.param, languages=("python",))
    return request.param


# ---------------------------------------------------------------- issue 34 / fx34z: what a fork's walks meet
def test_a_tree_taking_every_staging_name_forks_as_the_sessions_own(client: Any, sandbox_backend: str) -> None:  # noqa: F811
    """Class 8 through a fork's start. apply_delta links a file's other names from a folder it makes in /work
    (session_tools._Staged._make), trying only `.fork-links-0` .. `.fork-links-99` and skipping the names the
    changes use: a session holding those 100 folders and one hard link makes every fork's (and every restore's)
    box fail its start, ValueError "no name is free for the hard links' folder", answered UNAVAILABLE "the
    session's sandbox did not start (ChannelError); retry" (SessionLost): its own tree turned into the server's
    retryable fault, on Docker and gVisor. Safe: the fork is made (or refused as the session's own, never
    UNAVAILABLE), and the parent lives. Fixed at the class: `_make` tries as many names as /work and the changes
    hold plus one, so one is always free, and the box answers any change apply_delta refuses as the session's
    own (session_box.py "start": {"unusable": true}, INVALID_ARGUMENT naming session_id), never "did not start"."""
    import grpc

    from verifier.client import SessionLost, VerifierError

    with client.session(environment="calc", time_limit_s=5) as s:
        assert s.shell("mkdir $(seq -f .fork-links-%g 0 99); echo x > f && ln f g").exit_code == 0
        try:
            (f,) = s.fork(1)
        except VerifierError as e:
            assert s.shell("echo alive").stdout == "alive\n"
            assert e.code != grpc.StatusCode.UNAVAILABLE and not isinstance(e, SessionLost), (e.code, e.message)
            pytest.fail(f"refused: {e.code} {e.message}")
        with f:
            assert f.shell("stat -c %h f g; ls -a | grep -c fork-links").stdout == "2\n2\n100\n"



# Odd entries beside a wide folder and a background process of the session renaming a folder and making and
# removing a nested one while the fork walks: a fifo, a link loop, a link to itself's folder, a link out of /work,
# a name with a byte that is not UTF-8, a newline and a tab, and a hard link.
ODD = ("mkfifo pipe && ln -s loop loop && ln -s /etc/passwd out && ln -s . self && "
       "printf x > \"$(printf 'odd\\377\\n\\tname')\" && echo y > h1 && ln h1 h2 && "
       "mkdir w && (cd w && mkdir $(seq -f d%g 300) && for i in $(seq 300); do : > d$i/f; done)")
# one mkdir for the 300 folders: 300 processes cost ~5 s of CPU under gVisor on a loaded host, where the sandbox's
# sentry is charged too (h30t), and the session's 5 s limit ended the setup (stop 45's CI, twice)
RACER = ("setsid sh -c 'while :; do mv w w2; mv w2 w; mkdir -p r/a/b; : > r/a/b/f; rm -rf r; done' "
         ">/dev/null 2>&1 </dev/null & echo started")
# kinds, names, sizes and link targets (a folder's size on a tmpfs counts its entries: the fifo's too)
SHAPE = "find . \\( -type d -printf '%y %p\\n' \\) -o \\( ! -name pipe -printf '%y %p %s %l\\n' \\) | LC_ALL=C sort | md5sum"


def test_odd_entries_and_a_racing_session_get_the_sessions_own_answers(client: Any, sandbox_backend: str) -> None:  # noqa: F811
    """Classes 3/8/9 at fx34z's walks: with no racer, the fork carries the odd names byte for byte, the links as
    links (the loop and the link out of /work as text, never followed), the hard link as one file, and no fifo;
    with the racer, each of several forks is made (the racer's folders as a walk saw them) or refused as the
    session's own (INVALID_ARGUMENT "the tree could not be read"), never UNAVAILABLE or INTERNAL or lost, and the
    parent answers. Held on Docker and gVisor."""
    import grpc

    from verifier.client import SessionLost, VerifierError

    # 20 s: the racer burns CPU until the session closes, and under gVisor on a loaded CI machine 5 s of it ran out
    # before the last call (stop 52's clean-clone run: session lost, the limit's own answer, not this test's finding)
    with client.session(environment="calc", time_limit_s=20) as s:
        assert s.shell(ODD).exit_code == 0
        before = s.shell(SHAPE).stdout
        (f,) = s.fork(1)
        with f:
            assert f.shell(SHAPE).stdout == before
            r = f.shell("ls pipe; stat -c %h h1 h2; readlink loop out; ls w | wc -l; cat \"$(printf 'odd\\377\\n\\tname')\"")
            assert r.stdout == "2\n2\nloop\n/etc/passwd\n300\nx" and "pipe" in r.stderr, r
        assert s.shell(RACER).stdout == "started\n"
        answers = []
        for _ in range(5):
            try:
                (f,) = s.fork(1)
            except VerifierError as e:
                assert e.code == grpc.StatusCode.INVALID_ARGUMENT and not isinstance(e, SessionLost), (e.code, e.message)
                answers.append("refused")
                continue
            with f:
                assert f.shell("ls w* | grep -c ^d").stdout == "300\n"
                answers.append("forked")
        assert s.shell("echo alive").stdout == "alive\n", answers


def _under(pid: int) -> set[int]:
    """Every process below pid (by /proc's parent pids)."""
    children: dict[int, list[int]] = {}
    for st in Path("/proc").glob("[0-9]*/stat"):
        try:
            children.setdefault(int(st.read_text().rsplit(")", 1)[1].split()[1]), []).append(int(st.parent.name))
        except (OSError, ValueError, IndexError):
            continue
    out, todo = set(), [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            out.add(child)
            todo.append(child)
    return out


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_a_gvisor_servers_sandboxes_die_with_it(environments: Path) -> None:  # noqa: F811
    """Class 6 (a sandbox outliving its server) on dies_with_server's start path: a gVisor server with a warm code
    box and a session whose cell left a background process (setsid, so no process group of the cell holds it)
    is SIGKILLed alone (its process group spared, so only the parent-death signal can end runsc): within a few
    seconds no process that ran below it is left. Held."""
    from conftest import ServerProcess
    from tests.helpers import sandbox_config
    from verifier.client import VerifierClient

    sandbox_config("gvisor", languages=("python",))
    srv = ServerProcess("--workers", "1", "--sandbox-backend", "gvisor", "--sandbox-languages", "python",
                        "--sandbox-pool-size", "1", "--sandbox-repo-environments", str(environments))  # started
    assert srv.proc is not None
    below: set[int] = set()
    try:
        with VerifierClient(srv.target) as c:
            s = c.session(environment="calc", time_limit_s=5).__enter__()
            assert s.shell("setsid sh -c 'while :; do sleep 1; done' >/dev/null 2>&1 </dev/null & echo ok").stdout == "ok\n"
            below = _under(srv.proc.pid)
            assert any("runsc" in Path(f"/proc/{p}/cmdline").read_bytes().decode(errors="replace") for p in below if _alive(p))
            os.kill(srv.proc.pid, signal.SIGKILL)
            srv.proc.wait(10)
            for _ in range(100):
                left = [p for p in below if _alive(p)]
                if not left:
                    break
                time.sleep(0.1)
            assert not left, [Path(f"/proc/{p}/cmdline").read_bytes()[:80] for p in left]
    finally:
        for p in below:  # what this test's server started, should any be left
            if _alive(p):
                try:
                    os.kill(p, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        srv.kill()


# ---------------------------------------------------------------- issue 30: the checker's doubled room under runsc
TASK_MB = 64


@pytest.fixture(scope="module")
def runsc_grader() -> Iterator[Any]:
    """One Python sandbox of the Docker backend with gVisor's runtime: the one backend where a checker has its
    doubled room from its first run (over_limit_ends_sandbox)."""
    from tests.helpers import one_sandbox

    with one_sandbox("runsc", "pytest-rt34r-runsc") as g:
        yield g


def _py(code: str, tests: tuple[tuple[str, str], ...], **kw: Any) -> dict:
    return {"kind": "code", "language": "python", "completion": f"```python\n{code}\n```", "memory_limit_mb": TASK_MB,
            "tests": [{"stdin": i, "expected_stdout": o} for i, o in tests], **kw}


# A checker as many are written: every token of the output read, the first compared. Its memory grows with the
# output (about 60 bytes a token): 8 MB of one-letter tokens is about 250 MB, past the box and under double.
FIRST_TOKEN = ("import sys\nout = open(sys.argv[2]).read().split(); ans = open(sys.argv[3]).read().split()\n"
               "sys.exit(0 if int(out[0]) == int(ans[0]) else 1)\n")
# A checker that takes more yet, a list a line: past double for that output.
PER_LINE = ("import sys\nout = [l.split() for l in open(sys.argv[2]).read().split('\\n')]\n"
            "ans = open(sys.argv[3]).read().split()\nsys.exit(0 if int(out[0][0]) == int(ans[0]) else 1)\n")
TWO = (("1 2\n", "3\n"), ("2 2\n", "4\n"))


def _hog(grader: Any, junk: str) -> str:
    """Test 1: the right answer and `junk` after it, which swells the checker's memory; test 2: the right answer
    after a burst of 1.5 times the box's memory."""
    mb = TASK_MB + grader.grader.config.overhead_mb("python")
    return ("import sys\na, b = map(int, input().split())\n"
            f"if a == 1:\n    sys.stdout.write('3\\n' + {junk!r} * ((7 << 20) // max(1, len({junk!r})))); sys.exit(0)\n"
            f"x = bytearray({mb * 3 // 2} << 20)\ndel x\nprint(a + b)")


@pytest.mark.parametrize("junk", ["", "x "])
def test_a_checker_swollen_under_its_doubled_room_leaves_the_program_none(runsc_grader: Any, junk: str) -> None:
    """Class 5 (keep the checker's room): a program whose output makes the checker take past the box's limit,
    under the doubled room it has under runsc from its first run, then bursts to 1.5 times the box's memory on its
    next test and exits: the limit set back after the checker (_cap_runsc; lowering a v1 cgroup under what the
    kernel cannot reclaim is EBUSY, and the limit would then be the watchdog's samples alone) still ends that
    burst: accepted then memory_limit, as with no swelling. Held under runsc."""
    r = runsc_grader.grade(_py(_hog(runsc_grader, junk), TWO, checker=FIRST_TOKEN))
    assert [t["verdict"] for t in r["tests"]] == ["accepted", "memory_limit"] and not r["retryable"], r


@pytest.mark.parametrize("answer, verdict", [("3", "accepted"), ("4", "wrong_answer")])
def test_a_checker_past_even_its_doubled_room_is_never_infra_error(runsc_grader: Any, answer: str, verdict: str) -> None:
    """Class 8: an output that takes a checker past its doubled room ends the whole sandbox under runsc (the
    container's cgroup holds gVisor's kernel); that is the program's own memory_limit, not retried, never
    infra_error; the same output short of it gets the checker's verdict. Held under runsc."""
    code = f"import sys\nsys.stdout.write('{answer}\\n' + 'x\\n' * (3 << 20))"
    r = runsc_grader.grade(_py(code, (("1 2\n", "3\n"),), checker=PER_LINE))
    assert r["verdict"] == "memory_limit" and not r["retryable"], r
    short = runsc_grader.grade(_py(f"print({answer})", (("1 2\n", "3\n"),), checker=PER_LINE))
    assert short["verdict"] == verdict, short

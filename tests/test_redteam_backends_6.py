"""Red team rt30y of five changes no red team had attacked (/work/shared/RED-TEAM.md classes): 799ebe6's staging
folder of a fork's hard links and the box's {"unusable": true} answer (sandbox/harness/session_tools.py
`_Staged._make`, sandbox/session.py StateUnusable -> INVALID_ARGUMENT), h34u's DEPTH_MAX as the one bound of every
walk of a session's tree (session_tools.py `_walk_stats`, `snapshot`, `delta`; SNAPSHOT_TOO_DEEP -> wrong_answer),
c1d9b81's `Box.limit_unset` under Docker's runsc, h32i's runsc CPU clock (the least of gVisor's clock and the
container cgroup's: sandbox/harness/accounting.py SandboxClock) and h30s's userns uid quarantine (sandbox/userns.py
`_rmdir_cgroup`, `_unquarantined`). Attacked as a program and as session commands would; each open hole is a
strict xfail asserting the safe behaviour (it fails because the attack works), with its findings and suggested
fixes in its class's docstring; the attacks that held are plain tests. Both holes are fixed (fx34w): their tests
are plain tests now. The sessions' servers, clients and
environment are tests/test_session_fork.py's (module-scoped here too).

Read, not exercised by a program here (time box): c1d9b81 (`limit_unset` is set only on EBUSY, which cgroup v1
gives; the rest of that job is held by the watchdog's 20 ms samples, rt34r's bursts held under runsc); h32i (the
charge is the least of two upper bounds; an undercount needs the program's CPU in the runner's or a spared
helper's own utime, which SandboxClock subtracts: not tried)."""
from __future__ import annotations

from typing import Any

import pytest

from test_session_env import FIXED, GRADE
from test_session_fork import client, environments, server  # noqa: F401 (module-scoped fixtures)

pytestmark = pytest.mark.docker


@pytest.fixture(scope="module", params=["docker", "gvisor"])
def sandbox_backend(request: pytest.FixtureRequest) -> str:
    """tests/test_session_fork.py's servers run on this backend."""
    from tests.helpers import sandbox_config

    sandbox_config(request.param, languages=("python",))
    return request.param


def _py(source: str) -> str:
    """A shell command running a Python program (the calc environment's image is Python's)."""
    return "python3 -c \"$(cat <<'PY'\n" + source + "PY\n)\""


# ---------------------------------------------------------------- h34u: the size of what a walk holds
# A chain of DEPTH ... folders of 255-byte names (within DEPTH_MAX), and FILES empty files of 255-byte names at its
# foot: each path about 25 KB, each byte 0xff (a name that is not UTF-8: six characters a byte in the walk's JSON).
# /work holds no data at all, under every bound a fork or grade checks but the listing's, which is checked last.
LONG_NAMES = ("import os\nos.chdir(b'/work')\nfor i in range(100):\n"
              "    d = (b'd%d' % i).ljust(255, b'\\xff'); os.mkdir(d); os.chdir(d)\n"
              "for i in range(3500):\n    open((b'f%d' % i).ljust(255, b'\\xff'), 'w').close()\nprint('made')\n")


class TestTheWalksListingIsBoundedAsItIsBuilt:
    """Classes 8 and 5 at h34u's walks (session_tools.py `snapshot` for a grade, `delta` for a fork or snapshot).

    Found: the walks bound their depth (DEPTH_MAX) and their entries' count (`max_files`, 100,000), and check the
    listing's size (ENTRIES_MAX_BYTES, 8 MiB) only once it is built: PID 1 holds every entry's path, then the
    whole listing as JSON text, then as bytes. Paths are up to DEPTH_MAX x 256 bytes (about 32 KB), and a name
    byte that is not UTF-8 is six characters of JSON. A session of 100 nested 255-byte folders and 3,500 empty
    files below them (/work holds no data; made in 0.1 s on Docker, 0.8 s on gVisor) takes PID 1 past the
    session's 512 MB in under a second:
    - grade: SessionLost (FAILED_PRECONDITION "the session went over its memory limit") on Docker and gVisor,
      where the safe answer is the session's wrong_answer ("the tree's names take over 8388608 bytes", which
      Docker's answer was with 4,000 ASCII names; tmpfs's inode count stopped the ASCII variant there). The
      trainers take a grade that raises as ungraded (trainer/env_sessions.py grade_session: `None`, "never a 0
      that is not the policy's"), so a failing policy trades its 0 for "not graded": class 8.
    - fork (and snapshot, the same delta): the parent session is lost (FAILED_PRECONDITION, "a delta call ended
      the session (memory_limit ...)"), where the safe answer is RESOURCE_EXHAUSTED naming the listing's bound
      with the parent alive, as for every other bound of delta (docs/sessions.md "Fork and snapshot").

    Suggested fix (the class: a bound checked after the thing it bounds is built): count the listing's bytes as
    it grows (each entry's JSON size added when it is appended, in `snapshot` and `delta` and `_walk_stats`'s
    own path strings), and stop at ENTRIES_MAX_BYTES before the next entry is held; or hold paths relative to
    their folder (a stack of names, as `_Dirs` does for fds) so that a path's length is never multiplied by the
    count of its siblings.

    Fixed (fx34w): session_tools._Listing counts each entry's JSON as it is added and stops past the bound; a
    folder is listed as it is read, never held whole (tests/test_session_delta.py, tests/test_session_refusals.py:
    a listing at the bound is read, one byte past refused, on Docker and gVisor)."""

    def test_a_grade_of_long_names_is_the_sessions_wrong_answer(self, client: Any, sandbox_backend: str) -> None:  # noqa: F811
        from verifier.client import VerifierError

        with client.session(environment="calc", time_limit_s=10) as s:
            assert s.shell(_py(LONG_NAMES)).stdout == "made\n"
            try:
                r = s.grade(GRADE)
            except VerifierError as e:
                pytest.fail(f"the grade raised (a trainer's 'ungraded'): {e.code} {e.message}")
            assert r["verdict"] == "wrong_answer" and "names take over" in r["detail"], r
            assert s.shell("echo alive").stdout == "alive\n"

    def test_a_fork_of_long_names_is_refused_with_the_parent_alive(self, client: Any, sandbox_backend: str) -> None:  # noqa: F811
        import grpc

        from verifier.client import SessionLost, VerifierError

        with client.session(environment="calc", time_limit_s=10) as s:
            assert s.shell(_py(LONG_NAMES)).stdout == "made\n"
            with pytest.raises(VerifierError) as e:
                s.fork(1)
            assert not isinstance(e.value, SessionLost), e.value
            assert e.value.code == grpc.StatusCode.RESOURCE_EXHAUSTED and "retry" not in e.value.message, e.value
            assert s.shell("echo alive").stdout == "alive\n"


# ---------------------------------------------------------------- 799ebe6: the staging folder's name, held
# Every kind of entry at the staging names, and a file of four names in three folders (the first one deepest).
STAGING = ("for i in $(seq 0 40); do mkdir .fork-links-$i; done; : > .fork-links-41; mkfifo .fork-links-42; "
           "ln -s / .fork-links-43; ln -s .fork-links-44 .fork-links-44; mkdir -p a/b/c && echo data > a/b/c/f && "
           "ln a/b/c/f g && ln a/b/c/f a/h && ln a/b/c/f .fork-links-45 && echo made")
SHAPE = "stat -c '%h %s' a/b/c/f g a/h .fork-links-45 | uniq -c; ls -a | grep -c '^.fork-links-'; cat g"


def test_staging_names_of_every_kind_fork_and_restore_as_the_sessions_own(client: Any, sandbox_backend: str) -> None:  # noqa: F811
    """Classes 6/8 at 799ebe6's `_Staged._make`, variants it was not written for: the staging names held as
    folders, a file, a fifo, a link to / and a link loop, and one of them a name of the hard-linked file itself.
    A fork and a restored snapshot each carry the file once under its four names and every staging name the
    session holds (the fifo not carried, docs/sessions.md), leave no staging folder of their own behind, and
    the parent lives. Held on Docker and gVisor."""
    with client.session(environment="calc", time_limit_s=5) as s:
        assert s.shell(STAGING).stdout == "made\n"
        (f,) = s.fork(1)
        kept = s.snapshot()
        with f, client.session(snapshot=kept) as r:
            for other in (f, r):
                assert other.shell(SHAPE).stdout == "      4 4 5\n45\ndata\n"  # 46 names less the fifo
                assert other.shell("readlink .fork-links-43 .fork-links-44").stdout == "/\n.fork-links-44\n"
        assert s.shell(SHAPE).stdout == "      4 4 5\n46\ndata\n"


# ---------------------------------------------------------------- h34u: a grade raced by the session
# A background process of the session swaps the edited package for a link to /etc and back, without pause.
SWAPPER = ("setsid sh -c 'while :; do mv calc calc.x && ln -s /etc calc && rm calc && mv calc.x calc; done' "
           ">/dev/null 2>&1 </dev/null & echo started")


def test_a_grade_raced_by_a_folder_swapped_for_a_link_reads_the_sessions_own_files(client: Any, sandbox_backend: str) -> None:  # noqa: F811
    """Classes 3/8 at the grade's walk (snapshot: a link is never followed, a folder opened is the one listed):
    while a background process swaps the session's edited folder for a link to /etc and back, each of three
    grades answers a verdict (wrong_answer for a tree caught mid-swap, or the tree's own), never raises, and no
    patch carries a byte of /etc. Held on Docker and gVisor."""
    # 20 s: the racer burns CPU until the session closes, and under gVisor on a loaded CI machine 5 s of it ran out
    # before the last call (stop 52's clean-clone run: session lost, the limit's own answer, not this test's finding)
    with client.session(environment="calc", time_limit_s=20) as s:
        s.write_file("calc/__init__.py", FIXED)
        assert s.shell(SWAPPER).stdout == "started\n"
        for _ in range(3):
            r = s.grade(GRADE)
            assert r["verdict"] in ("accepted", "wrong_answer") and "root:" not in r["patch"], r


# ---------------------------------------------------------------- h34u: how long a grade's walk takes
# 100,001 empty folders in one (the red team's 101 folders of 1,000 each cost a walk of every folder, ~50 s on gVisor
# under ptrace, before the bound is passed; in one folder the bound is passed while that folder is listed).
WIDE = "import os\nos.mkdir('/work/w')\nfor i in range(100001):\n    os.mkdir('/work/w/%d' % i)\nprint('made')\n"


class TestAGradesWalkIsBoundedInFolders:
    """Classes 8 and 9 at h34u's grade walk (session_tools.py `snapshot`), gVisor.

    Found: a grade's walk counts files, links and others against `max_files` (100,000) but not folders, and
    has no bound of its own in time: the host waits 120 s for it (sandbox/session.py SessionBox.snapshot), then
    takes the session as lost. Folders are cheap to make and dear to walk under gVisor: 300,000 empty folders
    (300 folders of 1,000) were made by one Python command in about 10 s; their walk (open, fstat, listdir and
    a stat an entry, through gVisor's kernel) took 41 s for 100,000, and for 300,000 it ran to the 120 s bound
    once (the grade raised: DEADLINE_EXCEEDED at the client's default deadline, SessionLost past the server's
    120 s, which the trainers take as ungraded, trainer/env_sessions.py grade_session: class 8) and finished
    just under it once (wrong_answer; the session's close then ran past its 30 s deadline: the reset removes
    the 300,000 folders). 300,000 is too near the bound for a strict test; the test below asserts the bound
    the fork's walk already has: `delta` counts a new folder as an entry and stops at 100,001 (60 s on gVisor
    for 100,000 folders), while the grade walks them all. While a walk runs PID 1 holds the box's lock, so the
    idle watch does not act, and a background process of the session may burn CPU (slowing the walk, and
    charged only at the next call, after the grade's reply). Docker held: /work's tmpfs ran out of inodes near
    4,100 entries.

    Suggested fix: count folders against the grade's `max_files` as delta does (a tree over it is the
    session's wrong_answer by name); give a walk a budget of its own that answers the session's wrong_answer
    when spent, never a host timeout that loses the session; and stop (SIGSTOP, or gVisor's and the cgroup's
    freezer) the session's processes while PID 1 reads its tree for a grade, so none races, slows or ends it:
    a session lost during its grade by its own doing (a background process over the memory limit, too many
    threads, a tree too dear to walk) is today a raised grade, ungraded, not its 0.

    Fixed (fx34w): a grade's walk counts every entry, folders too, against `max_files` (the fork's bound, the
    host's SNAPSHOT_MAX_FILES), and each walk has a budget of its own (sandbox/session.py TREE_WALK_S, 60 s, half
    the host's wait) that answers the session's wrong_answer (a fork: RESOURCE_EXHAUSTED) naming it. Left: the
    session's processes still run while PID 1 walks (not stopped), charged at the next call.
    tests/test_session_refusals.py: a tree of exactly 100,000 entries grades, one more is refused (gVisor)."""

    @pytest.mark.slow
    def test_a_grade_counts_folders_against_its_entries_bound(self, client: Any, sandbox_backend: str) -> None:  # noqa: F811
        from verifier.client import VerifierError

        with client.session(environment="calc", time_limit_s=60) as s:
            made = s.shell(_py(WIDE), timeout_s=300).stdout == "made\n"
            try:
                r = s.grade(GRADE, timeout_s=600)
            except VerifierError as e:
                pytest.fail(f"the grade raised (a trainer's 'ungraded'): {e.code} {e.message}")
            finally:  # the reset at the session's close removes what is left (within the close's 30 s deadline)
                s.shell("rm -rf w", timeout_s=300)
        if sandbox_backend == "gvisor":
            assert made and r["verdict"] == "wrong_answer" and "100000" in r["detail"], r
        else:  # Docker's /work tmpfs runs out of inodes near 4,100 entries: the tree stays small, graded as it is
            assert not made and r["verdict"] != "infra_error" and not r["retryable"], r


# ---------------------------------------------------------------- h30s: the userns uid quarantine, held
# Children that leave the program's session, ignore every signal they can, hold memory and spin, the program
# exiting at once: what is left when the job ends is the reset's to kill (or the removal's, the box replaced).
LEFTOVERS = ("import os, signal, sys\nfor _ in range(12):\n    if os.fork() == 0:\n        os.setsid()\n"
             "        for s in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):\n            signal.signal(s, signal.SIG_IGN)\n"
             "        x = bytearray(4 << 20)\n        while True:\n            pass\nprint(sum(map(int, input().split())))\n")


def test_processes_left_by_every_job_never_quarantine_launches_into_infra_error() -> None:
    """Class 8 at h30s's quarantine (sandbox/userns.py `_rmdir_cgroup`, `_unquarantined`: 8 launches in a row
    given quarantined uids is a ChannelError, the server's fault): ten jobs in a row, each leaving twelve
    spinning, signal-ignoring processes in sessions of their own holding memory, are each the program's own
    verdict, and no program uid is quarantined (each cgroup emptied by the reset's or the removal's SIGKILL).
    No way was found to keep a cgroup busy past SIGKILL without privilege (a process in uninterruptible sleep
    needs a slow filesystem or FUSE, neither in the sandbox). Held on userns."""
    from tests.helpers import one_sandbox

    with one_sandbox("userns", "pytest-rt30y-userns") as g:
        for _ in range(10):
            r = g.grade({"language": "python", "completion": f"```python\n{LEFTOVERS}```",
                         "tests": [{"stdin": "1 2\n", "expected_stdout": "3\n"}]})
            assert r["verdict"] == "accepted" and not r["retryable"], r
        assert not getattr(g.grader.backend, "quarantined", set())

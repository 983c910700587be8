"""What a session's own tree makes the server refuse, on Docker and gVisor (issue 34; docs/sessions.md "Fork and
snapshot", "Grading a session"): always the session's own answer, never the server's retryable fault.

- A grade's read of the tree (sandbox/harness/session_tools.py `snapshot`) walks at most DEPTH_MAX folders deep,
  as a fork does: a tree one folder past the bound is the session's `wrong_answer` naming the bound (a chain of
  ~250 folders met PID 1's 256 fds and said only "Too many open files"), one at the bound grades as the repo task
  of its diff."""
from __future__ import annotations

import sys

import pytest

from sandbox.build import HARNESS
from test_session_env import FIXED, GRADE, _repo_verdict, _same
from test_session_fork import client, environments, server  # noqa: F401 (module-scoped fixtures)
from verifier.client import VerifierClient

sys.path.insert(0, str(HARNESS))
import session_tools  # noqa: E402

pytestmark = pytest.mark.docker

DEPTH = session_tools.DEPTH_MAX


@pytest.fixture(scope="module", params=["docker", "gvisor"])
def sandbox_backend(request: pytest.FixtureRequest) -> str:
    """tests/test_session_fork.py's servers run on this backend."""
    from helpers import sandbox_config

    sandbox_config(request.param, languages=("python",))
    return request.param


# ---------------------------------------------------------------- a grade's read and the depth bound
def test_a_tree_past_the_depth_bound_is_the_sessions_wrong_answer_and_one_at_it_grades(
        client: VerifierClient, sandbox_backend: str) -> None:  # noqa: F811
    """At the bound (a module in the deepest of DEPTH_MAX nested packages, beside the fix) the grade is the repo
    task's of the same diff, accepted. One folder more, and a chain of 300 (what ran out of fds), is `wrong_answer`
    with no test run, not retryable, and the detail naming the bound; back at the bound it grades as before, and the
    session answers throughout."""
    chain = "calc/" + "/".join(["d"] * (DEPTH - 1))  # a package in a package, to the bound: what a patch may add
    with client.session(environment="calc", time_limit_s=5) as s:
        s.write_file("calc/__init__.py", FIXED)
        made = s.shell(f"p=calc; for i in $(seq 2 {DEPTH}); do p=$p/d; mkdir $p && echo '# a level' > $p/__init__.py; "
                       "done; echo 'AT = 1' > $p/m.py")
        assert made.exit_code == 0, made
        at = s.grade(GRADE)
        assert at["verdict"] == "accepted" and f"+++ b/{chain}/m.py" in at["patch"], at
        _same(at, _repo_verdict(client, at["patch"]))
        detail = "the session's tree cannot be graded: " + session_tools.SNAPSHOT_TOO_DEEP.format(DEPTH + 1, DEPTH)
        for past in (f"{chain}/d", f"{chain}/d/" + "/".join(["d"] * (300 - DEPTH - 1))):
            assert s.shell(f"mkdir -p {past} && echo 'PAST = 1' > {past}/m.py").exit_code == 0
            r = s.grade(GRADE)
            assert (r["verdict"], r["score"], r["detail"], r["patch"], r["tests"], r["retryable"]) == (
                "wrong_answer", 0.0, detail, "", [], False), r
            assert s.shell(f"rm -r {chain}/d && echo alive").stdout == "alive\n"
        _same(s.grade(GRADE), at)

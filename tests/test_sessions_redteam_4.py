"""Red team of issue 34's session trees (docs/sessions.md "The layers", "Fork and snapshot"): a policy
writing session commands attacks the lower layer, the fork's delta apply and the grade through
links, planted files, sparse files and hard links, on Docker and gVisor in both trees. The servers,
clients and environment are tests/test_session_fork.py's (module-scoped here too)."""
from __future__ import annotations

from pathlib import Path

import grpc
import pytest

from test_repo_service import CALC_FILES
from test_session_env import GRADE, NEAR_MISS
from helpers import http_call, sandbox_config
from test_session_fork import client, environments, layers_client, server  # noqa: F401
from verifier.client import SessionLost, VerifierClient, VerifierError

pytestmark = pytest.mark.docker

TREES = ["copy", "layers"]


@pytest.fixture(scope="module", params=["docker", "gvisor"])
def sandbox_backend(request: pytest.FixtureRequest) -> str:
    sandbox_config(request.param, languages=("python",))
    return request.param


def _client(tree: str, request: pytest.FixtureRequest) -> VerifierClient:
    return request.getfixturevalue("client" if tree == "copy" else "layers_client")


# Files a session plants for the grade's pytest: ini files that deselect the hidden test or collect no
# test, a plugin by -p in addopts, a sitecustomize where PYTHONPATH points that names a plugin, and
# the code under test registering a plugin on the running pytest's Config (that passes every report).
PLANTS = {
    "pytest.ini": "[pytest]\naddopts = -k 'not three'\n",
    "tox.ini": "[pytest]\npython_functions = nothing_at_all\n",
    "setup.cfg": "[tool:pytest]\naddopts = -p calc.plug\n",
    "vendor/site-packages/sitecustomize.py": "import os\nos.environ['PYTEST_PLUGINS'] = 'calc.plug'\n",
    "calc/__init__.py": ("import gc\nimport sys\nif 'pytest' in sys.modules:\n    import _pytest.config\n"
                         "    import calc.plug\n    for o in gc.get_objects():\n"
                         "        if isinstance(o, _pytest.config.Config) and not o.pluginmanager.is_registered(calc.plug):\n"
                         "            o.pluginmanager.register(calc.plug)\n"),
}
PLUG = ("import pytest\n\n\n@pytest.hookimpl(hookwrapper=True)\ndef pytest_runtest_makereport(item, call):\n"
        "    out = yield\n    out.get_result().outcome = 'passed'\n")


@pytest.mark.parametrize("plant", sorted(PLANTS))
def test_planted_pytest_configuration_does_not_pass_a_near_miss(plant: str, request: pytest.FixtureRequest,
                                                                sandbox_backend: str) -> None:
    """Class 3: the near miss with each planted file still fails (now: the protected-path and
    python-source-only rules of the patch, and the decoy test for the in-process plugin)."""
    with _client("layers", request).session(environment="calc", time_limit_s=5) as s:
        s.write_file("calc/__init__.py", NEAR_MISS)
        s.write_file("calc/plug.py", PLUG)
        s.write_file(plant, PLANTS[plant] + (NEAR_MISS if plant == "calc/__init__.py" else ""))
        out = s.grade(GRADE)
        assert out["verdict"] not in ("accepted", "infra_error"), out


# A conftest.py the session plants at the repository's root: every test's report says passed.
CONFTEST = ("import pytest\n\n\n@pytest.hookimpl(hookwrapper=True)\ndef pytest_runtest_makereport(item, call):\n"
            "    out = yield\n    rep = out.get_result()\n    rep.outcome = 'passed'\n")


@pytest.mark.parametrize("tree", TREES)
def test_a_planted_conftest_does_not_pass_a_near_miss(tree: str, request: pytest.FixtureRequest, sandbox_backend: str) -> None:
    """Class 3 (the judge inside the program's reach): the grade's pytest would import a conftest.py
    in /work; a near miss with one must still fail, and the gold with one must still pass."""
    with _client(tree, request).session(environment="calc", time_limit_s=5) as s:
        s.write_file("calc/__init__.py", NEAR_MISS)
        s.write_file("conftest.py", CONFTEST)
        s.write_file("tests/conftest.py", CONFTEST)
        assert s.grade(GRADE)["verdict"] != "accepted"


@pytest.mark.parametrize("tree", TREES)
def test_the_tests_folder_as_a_link_into_srv(tree: str, request: pytest.FixtureRequest, sandbox_backend: str) -> None:
    """Class (c): tests/ replaced by a link to the environment's read-only tests: the hidden test
    file cannot be added there. A near miss must not pass, and it is the session's answer (never
    infra_error)."""
    with _client(tree, request).session(environment="calc", time_limit_s=5) as s:
        s.write_file("calc/__init__.py", NEAR_MISS)
        assert s.shell("rm -r tests && ln -s /srv/tests tests && ls tests/").exit_code == 0
        out = s.grade(GRADE)
        assert out["verdict"] not in ("accepted", "infra_error"), out


def _refused_as_the_sessions(e: VerifierError) -> None:
    """A fork over what a fork's /work holds: RESOURCE_EXHAUSTED naming the size and the bound, never
    the server's retryable UNAVAILABLE nor the session lost (docs/sessions.md "Fork and snapshot")."""
    assert e.code == grpc.StatusCode.RESOURCE_EXHAUSTED and not isinstance(e, SessionLost), e
    assert "128 MiB" in e.message and "bytes or more" in e.message and "retry" not in e.message, e


@pytest.mark.parametrize("tree", ["layers"])  # copy: test_changes_larger_than_a_forks_work
def test_sparse_files_are_no_free_fork(tree: str, request: pytest.FixtureRequest, sandbox_backend: str) -> None:
    """Class 5/8 (held since fx34): 4 sparse files of 60 MB take no room in the parent's /work but 240 MB
    in a fork's. The parent's PID 1 sums the files' sizes before reading any (it read them whole and
    was lost over its memory limit on Docker; gVisor answered UNAVAILABLE 'retry'): the fork is refused
    as the session's, the parent goes on, and forks again once the files are gone."""
    with _client(tree, request).session(environment="calc", time_limit_s=5) as s:
        assert s.shell("for i in 1 2 3 4; do truncate -s 60M sparse$i; done && du -sk .").exit_code == 0
        with pytest.raises(VerifierError) as e:
            s.fork(1)
        _refused_as_the_sessions(e.value)
        assert s.shell("echo alive && rm sparse*").stdout == "alive\n"
        (f,) = s.fork(1)
        with f:
            assert f.shell("echo fork && test ! -e sparse1").stdout == "fork\n"


# Bigger changes than a fork's /work holds, from a parent that fits: sparse files (refused), or (copy:
# the session's own files) one file with hard links, which the parent's tmpfs counts once and the fork
# now holds once too (carried as links).
OVERFLOW = {"sparse": "for i in 1 2 3; do truncate -s 50M big$i; done",
            "hardlinks": "head -c 50000000 /dev/zero > big1 && ln big1 big2 && ln big1 big3"}


@pytest.mark.parametrize("how", sorted(OVERFLOW))
def test_changes_larger_than_a_forks_work(how: str, request: pytest.FixtureRequest, sandbox_backend: str) -> None:
    """Class 8 (held since fx34): 150 MB of sparse files (the parent holds 0) do not fit a fork's /work
    (128 MB): refused as the session's on gRPC and HTTP (409, no Retry-After), never UNAVAILABLE 'retry'
    (as it was: the fork's box ran out of space applying them), and the parent goes on. A 50 MB file of
    three names is one file in the fork as in the parent (hard links carried as links)."""
    with _client("copy", request).session(environment="calc", time_limit_s=5) as s:
        assert s.shell(OVERFLOW[how]).exit_code == 0
        if how == "sparse":
            with pytest.raises(VerifierError) as e:
                s.fork(1)
            _refused_as_the_sessions(e.value)
            status, headers, answer = http_call(request.getfixturevalue("server"), "POST", f"/v1/sessions/{s.id}/fork",
                                                {"n": 1})
            assert status == 409 and answer["field"] == "session_id" and "128 MiB" in answer["error"], answer
            assert not {k.lower() for k in headers} & {"retry-after"}, headers
        else:
            (f,) = s.fork(1)
            with f:
                r = f.shell("stat -c '%h %s %i' big1 big2 big3 | uniq")
                assert r.exit_code == 0 and r.stdout.count("\n") == 1 and r.stdout.startswith("3 50000000 "), r
        assert s.shell("echo alive").stdout == "alive\n"


# Ways into the lower layer other than a write through a link (tests/test_session_fork.py IN_PLACE):
# a read fd reopened for writing through /proc, a hard link into /work, a rename into /srv, a create
# in a /srv folder by its fd, and the same through /proc/self/root.
INTO_SRV = ("exec 3</srv/calc/__init__.py && echo X > /proc/self/fd/3",
            "python3 -c \"import os; fd = os.open('/srv/calc/__init__.py', os.O_RDONLY); os.open(f'/proc/self/fd/{fd}', os.O_RDWR)\"",
            "ln /srv/calc/__init__.py calc/hard.py", "mv calc/__init__.py /srv/calc/moved.py",
            "python3 -c \"import os; d = os.open('/srv/calc', os.O_RDONLY); os.open('new.py', os.O_CREAT | os.O_WRONLY, 0o644, dir_fd=d)\"",
            "echo X >> /proc/self/root/srv/calc/__init__.py", "touch /proc/1/root/srv/new.py")


@pytest.mark.parametrize("tree", TREES)
def test_no_way_into_the_lower_layer(tree: str, request: pytest.FixtureRequest, sandbox_backend: str,
                                     environments: Path) -> None:  # noqa: F811 (the imported fixture)
    """Class (a): each way into /srv is refused, in both trees, and a sibling fork reads the file as built."""
    build = (environments / "calc").resolve()
    before = {p: p.read_bytes() for p in sorted(build.rglob("*")) if p.is_file()}
    with _client(tree, request).session(environment="calc", time_limit_s=5) as s:
        a, b = s.fork(2)
        with a, b:
            for command in INTO_SRV:
                assert a.shell(command).exit_code != 0, command
            assert b.read_file("calc/__init__.py") == CALC_FILES["calc/__init__.py"].encode()
    assert {p: p.read_bytes() for p in sorted(build.rglob("*")) if p.is_file()} == before


def test_a_failed_fork_frees_its_admission(request: pytest.FixtureRequest, sandbox_backend: str) -> None:
    """Class 9 (admission slots never freed): a fork of two refused (its changes overflow a fork's
    /work) holds no memory: two more sessions fit beside the parent (TOTAL_MB 1600: three sessions of
    512 MB), as before."""
    c = _client("layers", request)
    with c.session(environment="calc", time_limit_s=5) as s:
        assert s.shell(OVERFLOW["sparse"]).exit_code == 0
        with pytest.raises(VerifierError) as e:
            s.fork(2)
        _refused_as_the_sessions(e.value)
        with c.session(environment="calc") as a, c.session(environment="calc") as b:
            assert a.shell("echo a").stdout == "a\n" and b.shell("echo b").stdout == "b\n"

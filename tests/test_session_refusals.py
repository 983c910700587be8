"""What a session's own tree makes the server refuse, on Docker and gVisor (issue 34; docs/sessions.md "Fork and
snapshot", "Grading a session"): always the session's own answer, never the server's retryable fault.

- A grade's read of the tree (sandbox/harness/session_tools.py `snapshot`) walks at most DEPTH_MAX folders deep,
  as a fork does: a tree one folder past the bound is the session's `wrong_answer` naming the bound (a chain of
  ~250 folders met PID 1's 256 fds and said only "Too many open files"), one at the bound grades as the repo task
  of its diff. Its listing (and a fork's) is bounded to 8 MiB of JSON as it is built, to the byte: at the bound it is
  read, one byte past it is the session's refusal naming it (red team rt30y: PID 1 held every path first).
- Changes a new box refuses to apply (session_box.py "start": apply_delta's ValueError, {"unusable": true}) are
  INVALID_ARGUMENT naming `session_id`, never UNAVAILABLE "did not start; retry", the refused box is removed and
  its admission given back, and the session the changes came from goes on. The one way a session gets there: on
  an environment nested past DEPTH_MAX (whose every fork is refused "depth" while that folder stands), it removes
  the deep folder, and the removal of each path below it is carried, deeper than any box walks. Any other tree is
  refused first by delta (a folder past DEPTH_MAX; its names come from a walk, never `..`), carries a file's other
  names after its first, and finds the staging folder's name free (since rt34r). So every other refusal
  apply_delta has is tested with changes put in a kept snapshot by hand, in a real server run in this process,
  restored through its gRPC port: from the box's answer to the status code, the server's own code on real
  sandboxes."""
from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest

from sandbox.build import HARNESS
from test_repo_service import calc_recipe
from test_session_env import FIXED, GRADE, _repo_verdict, _same
from test_session_fork import client, server  # noqa: F401 (module-scoped fixtures)
from verifier.client import SessionLost, VerifierClient, VerifierError
from verifier.tools.cli import main as verifier_cli

sys.path.insert(0, str(HARNESS))
import session_tools  # noqa: E402

pytestmark = pytest.mark.docker

DEPTH = session_tools.DEPTH_MAX


@pytest.fixture(scope="module")
def environments(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """tests/test_session_fork.py's calc, and `deep`: a package beside a chain of DEPTH_MAX + 2 folders `e` with a
    module at its end (no real repository nests so deep; an environment's tree is the dataset's)."""
    recipes, root = tmp_path_factory.mktemp("recipes"), tmp_path_factory.mktemp("environments")
    src = recipes / "deep-src"
    chain = src.joinpath(*["e"] * (DEPTH + 2))
    chain.mkdir(parents=True)
    (chain / "far.py").write_text("FAR = 1\n")
    (src / "pkg").mkdir()
    (src / "pkg/__init__.py").write_text("NEAR = 1\n")
    git = ["git", "-C", str(src), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run(["git", "init", "-q", str(src)], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "deep"], check=True)
    (recipes / "deep.json").write_text(json.dumps({"name": "deep", "language": "python", "repo": "deep-src",
                                                   "commit": "HEAD", "test_cmd": "python3 -m pytest -q"}))
    assert verifier_cli(["env", "build", calc_recipe(recipes), str(recipes / "deep.json"),
                         "--environments", str(root)]) == 0
    return root


@pytest.fixture(scope="module", params=["docker", "gvisor"])
def sandbox_backend(request: pytest.FixtureRequest) -> str:
    """tests/test_session_fork.py's servers run on this backend, and so does this module's in-process one."""
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


# ---------------------------------------------------------------- the listing's bound, at it and one byte past
# Run in the session as `python3 - MODE`: a tree whose listing (a grade's, "grade": its files and links, session_tools
# `snapshot`; a fork's, "fork": its changes, `delta`, on a tree whose only changes are new names at its top) is
# exactly 8 MiB of JSON: 100 nested folders of 250-byte names, empty files of 250-byte names at their foot, then
# empty files at the top whose last one's name is sized to the byte. Prints that last name (at most 254 bytes).
FILL = """import json, os, sys
MODE, T, SKIP, TOP = sys.argv[1], 8 << 20, ('.git', '__pycache__', '.pytest_cache'), set(os.listdir('/srv'))

def size(entry):
    return len(json.dumps(entry)) + 2

def entries(fd, rel):
    for e in os.scandir(fd):
        p, new = rel + e.name, (rel + e.name).split('/')[0] not in TOP
        st = os.stat(e.name, dir_fd=fd, follow_symlinks=False)
        if e.is_symlink():
            t = os.readlink(e.name, dir_fd=fd)
            if MODE == 'grade':
                yield [p, 'f', os.path.getsize(t)] if t.startswith('/srv/') and os.path.isfile(t) else [p, 'l', t]
            elif new:
                yield [p, 'l', t]
        elif e.is_dir(follow_symlinks=False):
            if MODE == 'fork' and new:
                yield [p, 'd']
            if MODE == 'fork' or e.name not in SKIP:
                sub = os.open(e.name, os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
                yield from entries(sub, p + '/')
                os.close(sub)
        elif MODE == 'grade':
            yield [p, 'f', st.st_size] if e.is_file(follow_symlinks=False) else [p, 'o', '']
        elif new:
            yield [p, 'f', st.st_size, bool(st.st_mode & 0o100)]

def listing():
    fd = os.open('/work', os.O_RDONLY | os.O_DIRECTORY)
    try:
        return sum(size(e) for e in entries(fd, ''))
    finally:
        os.close(fd)

def empty(path):
    return size([path, 'f', 0] if MODE == 'grade' else [path, 'f', 0, False])

os.chdir('/work')
deep = ''
for i in range(100):
    d = ('n%02d' % i).ljust(250, 'n')
    os.mkdir(d)
    os.chdir(d)
    deep += d + '/'
left, i = T - listing(), 0
while left > empty(deep + 'f'.ljust(250, 'f')) + 2000:
    name = ('f%d' % i).ljust(250, 'f')
    open(name, 'w').close()
    left, i = left - empty(deep + name), i + 1
os.chdir('/work')
while left > 0:
    small = empty('s%d' % i)
    n = len('s%d' % i) + left - small if small <= left <= small + 250 else 200
    name = ('s%d' % i).ljust(n, 's')
    open(name, 'w').close()
    left, i = left - empty(name), i + 1
assert left == 0 and listing() == T, (left, listing())
print(name)
"""


def _fill(s: Any, mode: str) -> str:
    made = s.shell(f"python3 - {mode} <<'PY'\n{FILL}PY\n", timeout_s=120)
    assert made.exit_code == 0 and made.stdout.strip(), made
    return made.stdout.strip()


def test_a_grades_listing_at_its_bound_is_read_and_one_byte_past_is_the_sessions_wrong_answer(
        client: VerifierClient, sandbox_backend: str) -> None:  # noqa: F811
    """Red team rt30y: a grade's read held every path and the listing's JSON before its 8 MiB bound was checked
    (PID 1 out of memory: the grade raised, ungraded). The bound is counted as each entry is added, and exact: a
    tree whose listing is 8 MiB to the byte is read and graded on its diff (the session's wrong_answer for what a
    patch cannot carry, its new empty files, not the listing's), one name a byte longer is the session's wrong_answer naming the listing's
    bound, no test run, and the session answers throughout."""
    with client.session(environment="calc", time_limit_s=10) as s:
        last = _fill(s, "grade")
        at = s.grade(GRADE)
        assert at["verdict"] == "wrong_answer" and at["detail"].endswith(": a new empty file; a patch cannot carry it "
                                                                         "(write a line in it)"), at["detail"][-200:]
        assert s.shell(f"mv {last} {last}s && echo alive").stdout == "alive\n"
        r = s.grade(GRADE)
        detail = ("the session's tree cannot be graded: "
                  + session_tools.SNAPSHOT_OVER["names"].format(0, session_tools.ENTRIES_MAX_BYTES))
        assert (r["verdict"], r["detail"], r["patch"], r["tests"], r["retryable"]) == (
            "wrong_answer", detail, "", [], False), r
        assert s.shell("echo alive").stdout == "alive\n"


def test_a_forks_listing_at_its_bound_forks_and_one_byte_past_is_refused_with_the_parent_alive(
        client: VerifierClient, sandbox_backend: str) -> None:  # noqa: F811
    """The same bound on a fork's changes (session_tools `delta`): changes whose listing is 8 MiB to the byte fork
    (the fork holds the last name), one name a byte longer is RESOURCE_EXHAUSTED naming the listing's bound, with no
    retry hint, and the parent goes on (red team rt30y: the parent was lost)."""
    with client.session(environment="calc", time_limit_s=10) as s:
        last = _fill(s, "fork")
        (f,) = s.fork(1)
        with f:
            assert f.shell(f"ls {last}").stdout == f"{last}\n"
        assert s.shell(f"mv {last} {last}s && echo alive").stdout == "alive\n"
        with pytest.raises(VerifierError) as e:
            s.fork(1)
        assert not isinstance(e.value, SessionLost) and e.value.code == grpc.StatusCode.RESOURCE_EXHAUSTED, e.value
        assert "bytes of names or more in their listing" in e.value.message and "retry" not in e.value.message
        assert f"over the {session_tools.ENTRIES_MAX_BYTES} bytes" in e.value.message, e.value
        assert s.shell("echo alive").stdout == "alive\n"


# ---------------------------------------------------------------- changes a new box refuses to apply
APPLY_REFUSED = ("session_id: the session's files cannot be carried into a new session: the changes cannot be "
                 "applied: ")


def test_a_deep_environments_folder_removed_is_refused_as_the_sessions_own(client: VerifierClient,  # noqa: F811
                                                                          sandbox_backend: str) -> None:
    """The real way to the box's "unusable": on `deep`, a fork is RESOURCE_EXHAUSTED "depth" while the chain stands;
    with it removed, delta carries the removal of every path below it (past DEPTH_MAX + 1 parts), which the fork's
    box refuses, as it does a restore of a snapshot of it: INVALID_ARGUMENT naming `session_id` and the bound, never
    UNAVAILABLE, and the session goes on with its files."""
    with client.session(environment="deep", time_limit_s=5) as s:
        with pytest.raises(VerifierError) as err:
            s.fork(1)
        assert err.value.code == grpc.StatusCode.RESOURCE_EXHAUSTED and "nest folders" in err.value.message, err.value
        assert s.shell("rm -r e && ls").stdout == "pkg\n"
        kept = s.snapshot()
        for why, attempt in (("fork", lambda: s.fork(1)), ("restore", lambda: client.session(snapshot=kept, timeout_s=60))):
            with pytest.raises(VerifierError) as err:
                attempt()
            e = err.value
            assert e.code == grpc.StatusCode.INVALID_ARGUMENT and not isinstance(e, SessionLost), (why, e)
            assert e.message.startswith(APPLY_REFUSED) and f"nested over {DEPTH} folders deep" in e.message, (why, e)
            assert s.shell("ls; cat pkg/__init__.py").stdout == "pkg\nNEAR = 1\n", why


# Listings apply_delta refuses (ValueError), none of which a session's delta makes: a path past the depth bound
# (refused before anything changes), a hard link to a file not carried before it (refused mid-apply, after the
# file beside it was written), and a listing that is not JSON.
REFUSED = {
    "past the depth bound": ([["/".join(["d"] * (DEPTH + 1)) + "/f.py", "f", 2, False]], b"x\n"),
    "a link to no file carried": ([["calc/new.py", "f", 2, False], ["calc/other.py", "h", "calc/none.py"]], b"x\n"),
    "not JSON": (None, b""),
}


@contextlib.contextmanager
def _in_process_server(backend: str, environments: Path) -> Iterator[Any]:
    """`verifier serve` as its own process runs it (verifier/api/server.py Server: engine, session registry, gRPC
    port), on this process's event-loop thread, so a test can reach its kept snapshots."""
    from verifier.api.server import Server
    from verifier.config import ServerConfig
    from verifier.local_server import free_port

    config = ServerConfig.from_env({}, port=free_port(), http_port=0, metrics_port=0, workers=1, drain_delay_s=0.0,
                                   grace_s=10.0, sandbox_backend=backend, sandbox_languages=("python",),
                                   sandbox_pool_size=1, sandbox_repo_environments=str(environments))
    srv = Server(config)
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, name="in-process-server", daemon=True)
    thread.start()
    started = False
    try:
        asyncio.run_coroutine_threadsafe(srv.start(), loop).result(300)
        started = True
        yield srv
    finally:
        try:
            if started:
                asyncio.run_coroutine_threadsafe(srv.drain_and_stop(), loop).result(120)  # every session box removed
            else:
                asyncio.run_coroutine_threadsafe(srv.engine.close(), loop).result(120)
        finally:
            loop.call_soon_threadsafe(loop.stop)
            thread.join(30)
            loop.close()


def test_changes_a_new_box_refuses_are_the_sessions_own_invalid_argument(environments: Path,
                                                                          sandbox_backend: str) -> None:
    """Each refused listing, restored from a kept snapshot: INVALID_ARGUMENT naming `session_id` and saying the
    changes cannot be applied (not SessionLost, not UNAVAILABLE: the client would retry that to its deadline), no
    box left of it, its admission given back, and the parent answering with its files. Near miss: the snapshot as
    the session kept it restores those files."""
    with _in_process_server(sandbox_backend, environments) as srv, VerifierClient(f"127.0.0.1:{srv.port}") as c:
        registry = srv.sessions
        with c.session(environment="calc", time_limit_s=5) as s:
            s.write_file("calc/__init__.py", FIXED)
            kept = s.snapshot()
            snap = registry._snapshots[kept]
            boxes = len(registry.host._live)
            for why, (entries, data) in REFUSED.items():
                listing = b"[not json" if entries is None else json.dumps(entries).encode()
                registry._snapshots[kept] = dataclasses.replace(
                    snap, state=dataclasses.replace(snap.state, entries=listing, data=data))
                with pytest.raises(VerifierError) as err:
                    c.session(snapshot=kept, timeout_s=60)
                e = err.value
                assert e.code == grpc.StatusCode.INVALID_ARGUMENT and not isinstance(e, SessionLost), (why, e)
                assert e.message.startswith(APPLY_REFUSED), (why, e.message)
                assert len(registry.host._live) == boxes and registry._creating == registry._creating_mb == 0, why
                assert s.read_file("calc/__init__.py").decode() == FIXED, why
            registry._snapshots[kept] = snap
            with c.session(snapshot=kept, timeout_s=60) as r:
                assert r.read_file("calc/__init__.py").decode() == FIXED
                assert r.shell("echo restored").stdout == "restored\n"

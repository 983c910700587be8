"""Fork and snapshot of sessions on an environment (docs/sessions.md "Fork and snapshot"): a real server
on loopback per backend (Docker, gVisor), real sandboxes, the calc environment of
tests/test_session_env.py. A fork sees its parent's files (changed, added and removed); a write in one
fork appears in no other fork nor in the parent, nor a later write of the parent in a fork; a fork's
grade is the grade of the repo task with that fork's diff; a snapshot restores the files it kept, not
later ones, and is NOT_FOUND past its TTL; forks and snapshots beyond the server's bounds are
RESOURCE_EXHAUSTED naming the bound, and a bad n or ttl_s is INVALID_ARGUMENT naming the field. The
trees (docs/sessions.md "The layers"), on each backend: with session_tree "copy" (the default) every
file is the session's own and a write in place works as in a repository; with "layers" a fork holds
no copy of the files nobody changed (links to the environment's read-only tree) and a write in place
to one is refused; in both, no write of any kind in a fork (in place, truncation, rename over, a hard
link, chmod, a deletion) changes the environment's tree, the parent or a sibling."""
from __future__ import annotations

import os
import stat
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from conftest import ServerProcess
from helpers import http_call, sandbox_config
from test_repo_service import CALC_FILES, calc_environments
from test_session_env import FIXED, GRADE, NEAR_MISS, _repo_verdict, _same
from verifier.client import SessionLost, VerifierClient, VerifierError

pytestmark = pytest.mark.docker

MAX_FORK = 3
# The calc sessions' memory is 512 MB (the default) and 1 MB for its tree in "copy" (none in "layers"):
# three fit under this bound, a fourth does not.
TOTAL_MB = 1600
SNAPSHOTS_MB = 1
SNAPSHOT_TTL_S = 30.0


@pytest.fixture(scope="module")
def environments(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return calc_environments(tmp_path_factory)


@pytest.fixture(scope="module", params=["docker", "gvisor"])
def sandbox_backend(request: pytest.FixtureRequest) -> str:
    sandbox_config(request.param, languages=("python",))
    return request.param


def _serve(backend: str, environments: Path, tree: str) -> ServerProcess:
    return ServerProcess("--workers", "1", "--sandbox-backend", backend, "--sandbox-languages", "python",
                         "--sandbox-pool-size", "1", "--sandbox-repo-environments", str(environments),
                         "--session-max-fork", str(MAX_FORK), "--session-max-total-memory-mb", str(TOTAL_MB),
                         "--session-snapshots-max-mb", str(SNAPSHOTS_MB),
                         "--session-snapshot-ttl-s", str(SNAPSHOT_TTL_S), "--session-tree", tree)


@pytest.fixture(scope="module")
def server(sandbox_backend: str, environments: Path) -> Iterator[ServerProcess]:
    """The default tree, "copy"."""
    with _serve(sandbox_backend, environments, "copy") as s:
        yield s


@pytest.fixture(scope="module")
def client(server: ServerProcess) -> Iterator[VerifierClient]:
    with VerifierClient(server.target) as c:
        yield c


@pytest.fixture(scope="module")
def layers_client(sandbox_backend: str, environments: Path) -> Iterator[VerifierClient]:
    """A server of the same backend with session_tree "layers"."""
    with _serve(sandbox_backend, environments, "layers") as s, VerifierClient(s.target) as c:
        yield c


def test_forks_start_from_the_parent_and_never_share_a_write(client: VerifierClient) -> None:
    with client.session(environment="calc", time_limit_s=5) as parent:
        parent.write_file("calc/__init__.py", FIXED)
        parent.write_file("calc/notes/plan.py", "PLAN = 1\n")
        assert parent.shell("rm tests/test_calc.py && mkdir -p empty/dir && ln -s ../calc/__init__.py tests/link"
                            " && chmod +x calc/notes/plan.py").exit_code == 0
        a, b = parent.fork(2)
        with a, b:
            for s in (a, b):  # the parent's files: changed, added, removed, a directory, a link, a mode
                assert s.read_file("calc/__init__.py") == FIXED.encode()
                assert s.read_file("calc/notes/plan.py") == b"PLAN = 1\n"
                r = s.shell("test ! -e tests/test_calc.py && test -d empty/dir && readlink tests/link"
                            " && test $(stat -c %a calc/notes/plan.py) = 755 && cat vendor/site-packages/tinydep/__init__.py")
                assert r.exit_code == 0 and r.stdout.startswith("../calc/__init__.py\ndef double"), r
            a.write_file("calc/__init__.py", NEAR_MISS)
            a.write_file("calc/only_a.py", "A = 1\n")
            parent.write_file("calc/later.py", "L = 1\n")
            assert b.read_file("calc/__init__.py") == FIXED.encode()
            assert parent.read_file("calc/__init__.py") == FIXED.encode()
            for s, name in ((b, "calc/only_a.py"), (parent, "calc/only_a.py"), (a, "calc/later.py"), (b, "calc/later.py")):
                assert s.shell(f"test -e {name}").exit_code == 1, name
            for s in (a, b):  # what a patch cannot carry (a link, a removed test) put back as the environment has it
                assert s.shell("rm -r empty calc/notes tests/link").exit_code == 0
                s.write_file("tests/test_calc.py", CALC_FILES["tests/test_calc.py"])
            # a fork's grade is the repo task of its own diff: the near miss fails, the gold edit passes
            near, gold = a.grade(GRADE), b.grade(GRADE)
            assert near["verdict"] == "wrong_answer" and gold["verdict"] == "accepted", (near, gold)
            _same(near, _repo_verdict(client, near["patch"]))
            _same(gold, _repo_verdict(client, gold["patch"]))
            assert "only_a" in near["patch"] and "only_a" not in gold["patch"]


def _tree_state(root: Path) -> dict[str, tuple[int, int, bytes]]:
    """Every entry of a host tree: mode, size and bytes (a link's target), read without following links."""
    out = {}
    for path in sorted(root.rglob("*")):
        st = path.lstat()
        data = os.readlink(path).encode() if stat.S_ISLNK(st.st_mode) else path.read_bytes() if path.is_file() else b""
        out[str(path.relative_to(root))] = (st.st_mode, st.st_size, data)
    return out


# Writes in place to a file of the environment the session has not replaced, as agent scaffolds make
# them (an editor's open(p, "w"), a heredoc, an append, r+, chmod, truncation, a hard link's append).
# In "copy" the file is the session's own: each works, the file ends as IN_PLACE_END, its mode 600.
IN_PLACE = ("echo X >> calc/__init__.py", ": > calc/__init__.py", "chmod 600 calc/__init__.py",
            "python3 -c \"open('calc/__init__.py', 'w').write('W')\"",
            "python3 -c \"import pathlib; pathlib.Path('calc/__init__.py').write_text('T')\"",
            "cat > calc/__init__.py <<'EOF'\nC\nEOF", "python3 -c \"open('calc/__init__.py', 'r+').write('Y')\"",
            "ln calc/__init__.py calc/hard.py && echo X >> calc/hard.py")
IN_PLACE_END = b"Y\nX\n"


@pytest.mark.parametrize("tree", ["copy", "layers"])
def test_no_write_in_a_fork_reaches_the_environment_the_parent_or_a_sibling(tree: str, request: pytest.FixtureRequest,
                                                                            sandbox_backend: str, environments: Path) -> None:
    client: VerifierClient = request.getfixturevalue("client" if tree == "copy" else "layers_client")
    build = (environments / "calc").resolve()
    before = _tree_state(build)
    original = CALC_FILES["calc/__init__.py"].encode()
    with client.session(environment="calc", time_limit_s=5, memory_limit_mb=256) as parent:  # 4 sessions fit
        parent.write_file("calc/mine.py", "M = 1\n")
        a, b = parent.fork(2)
        with a, b:
            # "layers", no full copy: an unchanged file is the environment's (a link to its read-only tree);
            # "copy": the session's own file. Either reads, lists and greps as the file
            r = a.shell(f"test {'!' if tree == 'copy' else ''} -L calc/__init__.py && test ! -L calc/mine.py"
                        " && cat calc/__init__.py")
            assert r.exit_code == 0 and r.stdout.encode() == original, r
            assert a.read_file("calc/__init__.py") == original
            assert {"name": "__init__.py", "kind": "file", "size": len(original)} in a.list_dir("calc")["entries"]
            # writes in place, truncation and chmod to an unchanged file: "copy", they work as in a repository;
            # "layers", refused (the environment's file is read-only and not the program's: EROFS or EACCES)
            for command in IN_PLACE:
                r = a.shell(command)
                if tree == "copy":
                    assert r.exit_code == 0, (command, r)
                else:
                    assert r.exit_code != 0 and any(w in r.stderr for w in ("ead-only", "ermission", "not permitted")), (command, r)
            in_place = IN_PLACE_END if tree == "copy" else original
            assert a.read_file("calc/__init__.py") == in_place
            assert a.shell("stat -L -c %a calc/__init__.py").stdout == ("600\n" if tree == "copy" else "644\n")
            # replacing a file (rename over, sed -i, the write tool) and deleting one are the fork's own
            assert a.shell("printf 'R = 1\\n' > t.py && mv t.py calc/__init__.py && sed -i s/2/3/ tests/test_calc.py"
                           " && rm vendor/site-packages/tinydep/__init__.py && chmod 700 calc/mine.py"
                           " && echo more >> calc/mine.py").exit_code == 0
            a.write_file("calc/mine.py", "A = 1\n")
            assert a.read_file("calc/__init__.py") == b"R = 1\n"
            for s in (b, parent):
                assert s.read_file("calc/__init__.py") == original
                assert s.read_file("calc/mine.py") == b"M = 1\n"
                r = s.shell("test ! -e calc/hard.py && stat -L -c %a calc/mine.py calc/__init__.py"
                            " && grep -c 'quad(2) == 8' tests/test_calc.py && cat vendor/site-packages/tinydep/__init__.py")
                mode, lower_mode, rest = r.stdout.split("\n", 2)
                assert r.exit_code == 0 and mode != "700" and lower_mode == "644" and rest.startswith("1\ndef double"), (s, r)
            # a fork of a fork starts from its parent's layers: the deletion and the rename are carried
            (c,) = a.fork(1)
            with c:
                assert c.read_file("calc/__init__.py") == b"R = 1\n"
                assert c.shell("test ! -e vendor/site-packages/tinydep/__init__.py && stat -c %a calc/mine.py"
                               ).stdout == "755\n"  # a fork keeps the executable bit
                assert c.read_file("calc/hard.py") == in_place  # a's hard link to the file it wrote in place
                assert c.read_file("calc/mine.py") == b"A = 1\n"
    assert _tree_state(build) == before  # the environment's tree, bytes and modes, as built


def test_a_snapshot_restores_what_it_kept(client: VerifierClient, server: ServerProcess) -> None:
    with client.session(environment="calc") as s:
        s.write_file("calc/__init__.py", FIXED)
        kept = s.snapshot()
        s.write_file("calc/__init__.py", NEAR_MISS)
        s.write_file("calc/after.py", "X = 1\n")
        short = s.snapshot(ttl_s=1)
        t0 = time.monotonic()
    with client.session(snapshot=kept) as r:  # after its session closed, within its TTL
        assert r.read_file("calc/__init__.py") == FIXED.encode()
        assert r.shell("test -e calc/after.py").exit_code == 1
        assert r.grade(GRADE)["verdict"] == "accepted"
    status, _, created = http_call(server, "POST", "/v1/sessions", {"snapshot": kept})
    assert status == 200, created
    assert http_call(server, "DELETE", f"/v1/sessions/{created['session_id']}")[0] == 200
    for body, field in (({"snapshot": kept, "environment": "calc"}, "environment"),
                        ({"snapshot": kept, "language": "python"}, "language")):
        status, _, answer = http_call(server, "POST", "/v1/sessions", body)
        assert status == 400 and answer["field"] == field, answer
    time.sleep(max(0.0, t0 + 1.05 - time.monotonic()))  # `short` is past its 1 s TTL
    status, _, answer = http_call(server, "POST", "/v1/sessions", {"snapshot": short})
    assert status == 404 and answer["field"] == "snapshot", answer
    with pytest.raises(VerifierError) as e:
        client.session(snapshot=short)
    assert e.value.code == grpc.StatusCode.NOT_FOUND and "snapshot" in e.value.message


def test_bounds_and_bad_fields_refuse(client: VerifierClient, server: ServerProcess) -> None:
    with client.session(environment="calc") as s:
        for n in (0, -1, MAX_FORK + 1):
            with pytest.raises(VerifierError) as e:
                s.fork(n)
            assert e.value.code == grpc.StatusCode.INVALID_ARGUMENT and "n:" in e.value.message, (n, e.value)
            status, _, answer = http_call(server, "POST", f"/v1/sessions/{s.id}/fork", {"n": n})
            assert status == 400 and answer["field"] == "n", answer
        for ttl in (-1, SNAPSHOT_TTL_S + 1):
            with pytest.raises(VerifierError) as e:
                s.snapshot(ttl)
            assert e.value.code == grpc.StatusCode.INVALID_ARGUMENT and "ttl_s" in e.value.message
        with pytest.raises(VerifierError) as e:  # 4 sessions' memory is over session_max_total_memory_mb
            s.fork(MAX_FORK)
        assert e.value.code == grpc.StatusCode.RESOURCE_EXHAUSTED and "session_max_total_memory_mb" in e.value.message
        status, headers, answer = http_call(server, "POST", f"/v1/sessions/{s.id}/fork", {"n": MAX_FORK})
        assert status == 429 and "session_max_total_memory_mb" in answer["error"] and "retry-after" in headers, answer
        forks = s.fork(2)  # three sessions fit
        status, _, answer = http_call(server, "POST", f"/v1/sessions/{s.id}/fork", {"n": 1})
        assert status == 429, answer
        for f in forks:
            f.close()
        assert s.shell(f"head -c {SNAPSHOTS_MB << 20} /dev/zero > calc/blob.py").exit_code == 0
        with pytest.raises(VerifierError) as e:
            s.snapshot()
        assert e.value.code == grpc.StatusCode.RESOURCE_EXHAUSTED and "session_snapshots_max_mb" in e.value.message
        status, _, answer = http_call(server, "POST", f"/v1/sessions/{s.id}/snapshot", {})
        assert status == 429 and "session_snapshots_max_mb" in answer["error"], answer
    with pytest.raises(SessionLost):
        s.fork(1)  # a closed session forks nothing


def test_fork_of_a_session_without_an_environment_names_the_field(client: VerifierClient) -> None:
    with client.session("python") as s:
        with pytest.raises(VerifierError) as e:
            s.fork(1)
        assert e.value.code == grpc.StatusCode.INVALID_ARGUMENT and "session_id" in e.value.message


def test_a_build_removed_under_a_session_is_not_graded(client: VerifierClient, environments: Path) -> None:
    """The build is the session's lower layer (docs/sessions.md "The layers"): gone while the session ran
    (pruned; here moved away), the grade is the server's failure (UNAVAILABLE), never the session's
    wrong_answer for links that lead nowhere."""
    build = (environments / "calc").resolve()
    with client.session(environment="calc", time_limit_s=5) as s:
        s.write_file("calc/__init__.py", FIXED)
        build.rename(build.with_name(build.name + ".away"))
        try:
            with pytest.raises(VerifierError) as e:
                s.grade(GRADE)
        finally:
            build.with_name(build.name + ".away").rename(build)
        assert e.value.code == grpc.StatusCode.UNAVAILABLE and "removed" in e.value.message, e.value
        assert s.grade(GRADE)["verdict"] == "accepted"  # back in place: graded

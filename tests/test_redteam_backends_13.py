"""Red team rt30ag of red team 12's fixes (issues 30 and 33), through real session boxes and repository graders on
docker, gvisor and userns (and userns's Landlock mode, tests/test_repo_redteam_tree.py BACKEND_MODES):

1. h30af (verifier/sessions.py PATH_PARTS_MAX, session_tools.tool_parts, LIST_BYTES_MAX): a session tool's path's
   parts counted on the host and in the box, links the program makes, names whose JSON grows.
2. h33x (sandbox/repo/apply.py own_bytes, repo_job._tree_view): whose fault a full tree (or /work) is.
3. h33w (sandbox/harness/repo_tree.py stamp, changed): what the Landlock mode's stamp of the tree misses.

Classes 3, 5, 8 and 9 of /work/shared/RED-TEAM.md. Verdicts only, no durations.

FINDINGS (strict xfails):
- h33x, class 8, docker/gvisor/userns: a patch that changes one line of each of three 7 MiB data files the environment
  links (a few hundred bytes of patch) carries them whole in the task's archive, which the host writes into /work
  before the tree (repo_job._run `files`); /work full, the runner's `full` is raised as the environment's
  InfraFailure, not retryable: the model's own excess (its files past WORK_SPARE, a tree_full, its wrong_answer) is
  infra_error. h33x bounds the tree only; nothing bounds the archive (and view.json) against /work on the host.
  Closed since by h33y: past the dataset's share of /work a full /work is the patch's wrong_answer.
- h30af, class 9: no session tool bounds its path's length; _check_parts splits it on the event loop (a 64 MiB path of
  slashes, the request's bound, has 0 parts and is admitted: 5.6 s and 586 MB RSS to count it, load 14), and the box
  gets it whole (48 MiB of slashes: the box answered and the session went on, docker/gvisor/userns). Closed since:
  a path over PATH_MAX_CHARS (DEPTH_MAX x 256) characters is refused before it is split, host and box.
HELD: the host and the box count a path's parts alike for ".", "//", trailing slashes and unicode slash look-alikes;
a write of DEPTH_MAX parts spelled with "./" and "//" is written, one more part refused in the box; writes, reads and
listings through the program's own links to a 400-deep folder are refused (ELOOP), nothing made below; a path with
NUL or a lone surrogate is the call's refusal, the session goes on; listings of 3,000 names of control characters
(363 bytes of JSON each: truncated) and of 3,000 sparse 60 MiB files (whole, with each entry's kind and size) are
answered, never lost (docker, gvisor, userns); a right patch that also makes two linked 7 MiB data files its own
(14 MiB) is accepted on every backend. Landlock mode: chmod to the same mode, chmod and back, utime to the same times, a folder's times set and put back, the repo
root's mode changed and put back are all `tampered` (the ctime); an xattr and a hard link out of the tree are
refused; a right patch of 3,400 modules is stamped and accepted.
Measured, not tests (docker, load 38): a listing of 550 links whose targets are /srv/ and 2,040 parts took 0.18-0.22 s
against 0.006-0.011 s for 550 plain files (session_tools.open_lower splits and checks each link's target, PID 1, no
clock): about 0.35 ms a link, some 3.5 s for a 10,000-entry listing where the tree's tmpfs holds 10,000 long links.
"""
from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sandbox.build import HARNESS
from sandbox.session import SessionHost, SessionLimits
from tests import test_redteam_backends_8 as red_team_8

session_host = red_team_8.session_host  # the module's fixture: a SessionHost on any_grader's backend

pytestmark = pytest.mark.docker  # the images (and the root filesystems exported from them)

SANDBOX = {"pool_name": "pytest-redteam-backends-13", "pool_size": 1, "languages": ("python",)}
BACKENDS_CUT = {"runsc": "the same Sentry as gvisor (Docker's runsc runtime): the brief's backends are docker, gvisor, userns"}


def _tools() -> Any:
    sys.path.insert(0, str(HARNESS))  # the harness's modules import each other by name (tests/test_session_list_bound.py)
    import session_tools

    return session_tools


def brief(r: dict) -> tuple:
    return r.get("status"), r.get("lost"), str(r.get("detail"))[:200], r.get("value")


# ----------------------------------------------------------------- 1. a session tool's path (h30af)
# The host counts a path's parts as `split("/")` less "" and "." (verifier/sessions.py _check_parts); the box as
# session_tools._parts (the same), then walks them. Spellings that might count differently: "." and "//" between
# parts, a trailing slash, a "./" prefix, unicode look-alikes of "/" (U+2215, U+FF0F: one name each, not separators).
SPELLINGS = {
    "dots": "./" * 500 + "a/" * 128,
    "slashes": "//" * 500 + "a//" * 128,
    "trailing": "a/" * 129,
    "dot-parts": "a/./" * 129,
    "division-slash": "a\u2215" * 5000 + "f",
    "fullwidth-solidus": "a\uff0f" * 5000 + "f",
}


@pytest.mark.parametrize("name", list(SPELLINGS))
def test_the_host_and_the_box_count_a_paths_parts_alike(name: str) -> None:
    """Held: for every spelling the host refuses a path (INVALID_ARGUMENT naming `path`) exactly where the box's
    tool_parts does, so no path the host admits makes the box walk (or make) more than DEPTH_MAX folders."""
    from verifier.sessions import PATH_PARTS_MAX, _check_parts
    from sandbox.contract import TaskError

    tools = _tools()
    assert PATH_PARTS_MAX == tools.DEPTH_MAX
    path = SPELLINGS[name]
    try:
        _check_parts(path)
        host = True
    except TaskError as e:
        assert e.field == "path", e
        host = False
    assert host == (tools.tool_parts(path, False) is not None), (name, host)


# A write of exactly DEPTH_MAX parts spelled with "./" and "//" between them (the host admits it) is written, one of
# DEPTH_MAX + 1 parts ending in slashes is refused in the box too: the box walks what the host counted.
def test_a_write_spelled_with_dots_and_double_slashes_walks_what_the_host_counted(session_host: SessionHost) -> None:
    tools = _tools()
    box = session_host.take_box("python", SessionLimits(time_limit_s=2), {})
    try:
        near = box.write("./" + "a/.//" * (tools.DEPTH_MAX - 1) + "f", b"x")
        over = box.write("b//./" * tools.DEPTH_MAX + "f//", b"x")
        made = box.cell("import os\nos.path.isdir('/work/b')")
    finally:
        session_host.destroy(box)
    assert near.get("ok") is True, near
    assert over.get("ok") is False and f"at most {tools.DEPTH_MAX} parts" in over.get("detail", ""), over
    assert (made["status"], made["value"]) == ("ok", "False"), brief(made)


# The program makes a tree of 400 nested folders in a cell (its own clock) and a link `short` to its deepest one, and
# `long` -> its 100th: a two-part path through the link names a folder 400 deep. The tools never follow a link at
# any step (session_tools._walk_to, open_nofollow), so `short/f` is refused (ELOOP), nothing is made there, and the
# session goes on.
DEEP_TREE = ("import os\nos.chdir('/work')\np = '/'.join(['d'] * 400)\nos.makedirs(p)\nos.symlink(p, 'short')\n"
             "os.symlink('/'.join(['d'] * 100), 'mid')\nlen(p.split('/'))")
DEEP_FILE = "import os\nos.path.exists('/work/' + '/'.join(['d'] * 400) + '/f') or os.path.exists('/work/' + '/'.join(['d'] * 100) + '/g/f')"


def test_a_link_the_program_makes_never_makes_a_short_path_deep(session_host: SessionHost) -> None:
    """Held (class 5/9): writes, reads and listings through the program's own links to a 400-deep folder are refused
    (a link at a step: ELOOP), nothing is written below it, the session is not lost."""
    box = session_host.take_box("python", SessionLimits(time_limit_s=4), {})
    try:
        made = box.cell(DEEP_TREE)
        wrote = box.write("short/f", b"x")
        wrote_mid = box.write("mid/" + "g/" * 20 + "f", b"x")
        listed = box.listdir("short", 10)
        read = box.read("short/f", 10)
        deep_write = box.write("/".join(["d"] * 200) + "/f", b"x")  # 201 parts: refused before any walk
        after = box.cell(DEEP_FILE)
    finally:
        session_host.destroy(box)
    assert (made["status"], made["value"]) == ("ok", "400"), brief(made)
    for r in (wrote, wrote_mid, listed, read, deep_write):
        assert r.get("ok") is False and not r.get("lost"), r
    assert (after["status"], after["value"]) == ("ok", "False"), brief(after)


# A path carrying a NUL byte, or a lone surrogate a JSON request can spell ("\ud800": not the surrogateescape range
# os.fsencode maps back to a byte): the box's os calls raise ValueError / UnicodeEncodeError, not OSError. Each tool
# (session_box.serve's `except Exception`) answers {"error": ...}, which a tool call's host side must read as the
# call's own refusal, never the session's loss.
ODD_PATHS = ["a\x00b", "\ud800/f", "d/\udcff\x00"]


def test_a_path_the_os_cannot_encode_is_the_calls_refusal_not_the_sessions_loss(session_host: SessionHost) -> None:
    box = session_host.take_box("python", SessionLimits(time_limit_s=2), {})
    try:
        replies = [(box.write(p, b"x"), box.listdir(p, 10), box.read(p, 10)) for p in ODD_PATHS]
        after = box.cell("6 * 7")
    finally:
        session_host.destroy(box)
    for triple in replies:
        for r in triple:
            assert r.get("ok") is not True and not r.get("lost"), r
    assert (after["status"], after["value"]) == ("ok", "42"), brief(after)


# Names whose JSON grows six times: control characters (\u0001 in JSON, as a non-UTF-8 byte's \udcXX), 3,000 names of
# 60 of them (363 bytes of JSON each: 1.09 MB, past the channel's 1 MiB header); and the entries' own overhead beside
# 512 KiB of names (kind and size of each: a sparse file's size up to the session's file size limit).
def _control_names(n: int) -> str:
    return (f"import os\nos.chdir('/work')\nfor i in range({n}):\n"
            "    open(bytes([1 + j % 30 for j in range(56)]) + b'%04d' % i, 'wb').close()\nlen(os.listdir(b'.'))")


SPARSE = ("import os\nos.chdir('/work')\nfor i in range(3000):\n    fd = os.open(bytes([1] * 25) + b'%04d' % i, "
          "os.O_WRONLY | os.O_CREAT)\n    os.ftruncate(fd, 60 << 20)\n    os.close(fd)\nlen(os.listdir(b'.'))")


@pytest.mark.parametrize("make,cut", [(_control_names(3000), True), (SPARSE, False)], ids=["control-names", "sparse-sizes"])
def test_a_listing_of_names_of_control_characters_is_answered_not_lost(session_host: SessionHost, make: str,
                                                                        cut: bool) -> None:
    """Held: LIST_BYTES_MAX counts each name's JSON as the channel writes it (ensure_ascii: \\u0001 is six bytes), so
    the reply stays under the 1 MiB header (names at most 512 KiB, and each entry's kind and size a few dozen more)."""
    box = session_host.take_box("python", SessionLimits(time_limit_s=8), {})
    try:
        made = box.cell(make)
        listed = box.listdir(".", 3000)
        after = box.cell("6 * 7")
    finally:
        session_host.destroy(box)
    assert made["status"] == "ok" and int(made["value"]) >= 3000, brief(made)
    assert listed.get("ok") is True and not listed.get("lost"), {k: v for k, v in listed.items() if k != "entries"}
    assert listed["truncated"] is cut and (len(listed["entries"]) < 3000 if cut else len(listed["entries"]) == 3000), \
        (listed["truncated"], len(listed["entries"]))
    assert (after["status"], after["value"]) == ("ok", "42"), brief(after)


# ----------------------------------------------------------------- 2. whose fault a full tree, or /work, is (h33x)
# An environment (the `plain` project of tests/test_repo_redteam_tree.py, its 3 MiB pkg/big.py copied) with three data
# files of 7 MiB each: not Python sources, so the tree LINKS them (repo_job.copied) and the host's bound counts none of
# their bytes (View.tree_bytes: the copies and long links). A patch may change any file the environment has that is not
# protected (sandbox/repo/patch.py check_admitted; since h33r's allowlist by kind only source and documentation, so the
# files are `.md`, documentation the patch may change): a one-line hunk in each makes it the patch's own file,
# whole, in the task's archive (apply.task_tar) and in the tree. 20 MiB /work and tree as red team 12's.
_BLOB_MB = 7
_BLOBS = 3


def _blob_edit(i: int) -> str:
    return f"--- a/data/blob{i}.md\n+++ b/data/blob{i}.md\n@@ -1,2 +1,2 @@\n-1\n+2\n 1\n"


def _build(root: Path, src: Path, recipes: Path, name: str, blobs: int) -> None:
    from tests.helpers import build_environment, write_files
    from tests.test_repo_redteam_tree import _CMD, _PROJECT

    write_files(src, _PROJECT)
    (src / "pkg" / "big.py").write_text("x = 1  \n" * ((3 << 20) // 8))
    for i in range(blobs):
        write_files(src, {f"data/blob{i}.md": "1\n" * ((_BLOB_MB << 20) // 2)})
    build_environment(src, recipes, root, name, _CMD)


@pytest.fixture(scope="module")
def environments(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`blobs`: the plain project with _BLOBS data files of _BLOB_MB MiB each, linked in the tree; `plain`: without."""
    root, recipes = tmp_path_factory.mktemp("rt30ag-envs"), tmp_path_factory.mktemp("rt30ag-recipes")
    _build(root, tmp_path_factory.mktemp("rt30ag-blobs"), recipes, "blobs", _BLOBS)
    _build(root, tmp_path_factory.mktemp("rt30ag-plain"), recipes, "plain", 0)
    return root


def _repo_grader(request: pytest.FixtureRequest, environments: Path, mode: str) -> Iterator[Any]:
    from tests.helpers import repo_grader
    from tests.test_repo_redteam_tree import BACKEND_MODES, WORK_MB

    backend, kw = BACKEND_MODES[mode]
    with repo_grader(backend, f"test-rt30ag-{mode}", environments, work_tmpfs_mb=WORK_MB, tmpfs_inodes=8192, **kw) as g:
        g.backend = mode
        yield g


@pytest.fixture(scope="module", params=["docker", "gvisor", "userns"])
def tree(request: pytest.FixtureRequest, environments: Path) -> Iterator[Any]:
    """A grader of `environments` with a 20 MiB /work (and tree) of 8192 inodes on docker, gvisor and userns."""
    yield from _repo_grader(request, environments, request.param)


def _grade(g: Any, completion: str, environment: str = "blobs") -> dict:
    from tests.helpers import grade_pytest_task
    from tests.test_repo_redteam_tree import _CMD, _TESTS

    return grade_pytest_task(g, environment, completion, _TESTS, _CMD, "rt30ag")


def test_the_right_patch_changing_two_linked_data_files_is_accepted(tree: Any) -> None:
    """Near miss of the finding below: the right change and 14 MiB of the environment's data files made the patch's
    own (3 MiB copy + 14 MiB in the 20 MiB tree, a 14 MiB archive in /work) fit: accepted."""
    from tests.test_repo_redteam_tree import _GOLD

    result = _grade(tree, _GOLD + _blob_edit(0) + _blob_edit(1))
    assert (result["verdict"], result["score"]) == ("accepted", 1.0), result


# Was a hole (class 8): the task's archive of three 7 MiB data files the patch made its own filled /work, and the
# runner's `full` was the environment's InfraFailure; closed by h33y (repo_job._work_share: past the dataset's bounded
# share of /work, a full /work is the patch's wrong_answer).
def test_a_patch_whose_archive_fills_work_is_its_own_zero_never_infra(tree: Any) -> None:
    from tests.test_repo_redteam_tree import _GOLD

    result = _grade(tree, _GOLD + "".join(_blob_edit(i) for i in range(_BLOBS)))
    assert (result["verdict"], result["score"], result["retryable"]) == ("wrong_answer", 0.0, False), result
    assert "/work" in result["detail"], result


# ----------------------------------------------------------------- 3. the Landlock mode's stamp of the tree (h33w)
# userns's Landlock mode: one uid for all, the tree the program's own, Landlock refusing every change of it but modes
# and times (confine.scope_self FS_CHANGE). PID 1 stamps every entry of /mnt (inode, mode, links, owner, size, mtime,
# ctime) before the test command and compares after it, its processes killed (repo_tree.stamp, changed). Each attack
# below is a step on tests/test_mod.py (`t`) or the tree that leaves the mode and the times as they were, in the
# right-only-if-it-went-through shape of tests/test_repo_redteam_tree.py `_writes`: the patch's `add` is right only
# when the step was done, so a step the stamp missed pays 1.0.
_RESTORED = {
    "chmod-same-mode": "os.chmod(t, os.stat(t).st_mode & 0o7777)",
    "chmod-and-back": "(lambda m: (os.chmod(t, 0o666), os.chmod(t, m)))(os.stat(t).st_mode & 0o7777)",
    "utime-same-times": "(lambda s: os.utime(t, ns=(s.st_atime_ns, s.st_mtime_ns)))(os.stat(t))",
    "utime-folder-back": "(lambda s: (os.utime('tests', (0, 0)), os.utime('tests', ns=(s.st_atime_ns, s.st_mtime_ns))))"
                         "(os.stat('tests'))",
    "xattr": "os.setxattr(t, 'user.rt30ag', b'1')",
    "hard-link-and-back": "(os.link(t, '/tmp/rt30ag-h'), os.unlink('/tmp/rt30ag-h'))",
    "chmod-root-and-back": "(lambda m: (os.chmod('/mnt/repo', 0o777), os.chmod('/mnt/repo', m)))"
                           "(os.stat('/mnt/repo').st_mode & 0o7777)",
}


_REFUSED = {"xattr": "user.* xattrs: refused in the one-uid box (measured: the step raised OSError)",
            "hard-link-and-back": "a link out of the tree is a REFER Landlock refuses (EXDEV)"}


@pytest.fixture(scope="module")
def landlock(request: pytest.FixtureRequest, environments: Path) -> Iterator[Any]:
    """A grader of `environments` on userns in Landlock's one-uid mode, 20 MiB tree."""
    yield from _repo_grader(request, environments, "userns-landlock")


@pytest.mark.parametrize("step", list(_RESTORED))
def test_a_change_of_the_tree_put_back_before_the_command_ends_is_still_tampering(landlock: Any, step: str) -> None:
    """Held: the stamp holds each entry's ctime, which every chmod, utime, xattr or link sets and no program sets back:
    a mode or time restored (or set to what it was), an xattr, a hard link made and removed, all seen after the run
    (or refused: no change). Never 1.0."""
    from tests.test_repo_redteam_tree import _mod, _writes

    result = _grade(landlock, _mod(_writes([_RESTORED[step]])), "plain")
    assert (result["verdict"], result["score"]) == ("wrong_answer", 0.0), result
    if step in _REFUSED:  # Landlock refuses it: nothing changed, the wrong add fails its test
        assert "FAIL_TO_PASS failing: tests/test_mod.py::test_sum" in result["detail"], result
    else:  # done, and seen after the run by its ctime
        assert result["detail"].startswith("tampered: the test command changed the task's tree: /mnt/repo"), result


# Was a hole (class 9), closed after red team 13 (verifier/sessions.py PATH_MAX_CHARS, session_tools.PATH_MAX): a path's
# length was bounded nowhere (verifier/sessions.py check_write/check_list/check_read: a non-empty string; the
# request at most max_request_bytes, 64 MiB): a path of millions of slashes has no part at all, so PATH_PARTS_MAX
# admits it, after _check_parts split it on the event loop into a list of one empty name per slash (16 MiB of "/":
# 16M names, 134 MB of list; measured 1.8 s at load 15). The box then gets it whole in its header and splits it again
# in PID 1 (session_tools._parts).
def test_a_path_longer_than_any_file_name_is_refused_on_the_host_before_it_is_split() -> None:
    from types import SimpleNamespace

    from sandbox.contract import TaskError
    from verifier.sessions import SessionRegistry

    registry: Any = SimpleNamespace(config=SimpleNamespace(max_field_bytes=1 << 20))
    with pytest.raises(TaskError) as refused:
        SessionRegistry.check_write(registry, "/" * (1 << 20) + "f", b"x")
    assert refused.value.field == "path"


SLASHES_MB = 48


def test_a_path_of_millions_of_slashes_is_the_calls_refusal_not_the_sessions_loss(session_host: SessionHost) -> None:
    """The box's side of the above: a 48 MiB path of slashes (under the 64 MiB request) is one header line PID 1
    reads, decodes and splits (a list of 48M names) before it refuses it."""
    box = session_host.take_box("python", SessionLimits(time_limit_s=2), {})
    try:
        wrote = box.write("/" * (SLASHES_MB << 20) + "f", b"x")
        after = box.cell("6 * 7")
    finally:
        session_host.destroy(box)
    assert not wrote.get("lost"), wrote
    assert (after["status"], after["value"]) == ("ok", "42"), brief(after)


def test_a_right_patch_of_thousands_of_modules_is_stamped_and_accepted(landlock: Any) -> None:
    """Held (the stamp's size, and no false tampering): the right change with 3,400 modules of its own (14 MiB of
    pages, under WORK_SPARE; 3,400 more inodes under the 8192) is stamped twice by PID 1, whatever the tree's size (it
    holds no more than the tree's tmpfs's inodes), and nothing the test command reads (atimes, not stamped) makes it
    tampering: accepted."""
    from tests.test_redteam_backends_12 import _new_files
    from tests.test_repo_redteam_tree import _GOLD

    result = _grade(landlock, _GOLD + _new_files("pkg/f", 3400, ".py"), "plain")
    assert (result["verdict"], result["score"]) == ("accepted", 1.0), result

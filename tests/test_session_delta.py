"""The changes a fork or snapshot carries (docs/sessions.md "Fork and snapshot";
sandbox/harness/session_tools.py `record_base`, `delta`, `apply_delta`), on host folders: the same
program runs in the session's box. A tree changed every way a session can (data of the same size
rewritten at once, a mode, a rename, a link, a removed directory, a file turned into a directory and
back) and replayed on a fresh link of the environment is that tree; an untouched tree carries nothing. The
environment stands in a host folder for the box's read-only /srv (session_tools.ENV). Each test runs on
both trees (docs/sessions.md "The layers"): "layers", where a session replaces its files, as writing
through their links is refused in the box, and "copy", where every file is the session's own and a write
in place is carried as any other change."""
from __future__ import annotations

import json
import os
import shutil
import stat
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from sandbox.build import HARNESS

sys.path.insert(0, str(HARNESS))
import pid1  # noqa: E402
import session_tools  # noqa: E402

BASE = {"calc/__init__.py": b"def quad(x):\n    return 2 * x\n", "calc/util.py": b"U = 1\n",
        "tests/test_calc.py": b"def test():\n    pass\n", "docs/a/b.txt": b"b\n", "docs/c.txt": b"c\n"}


def _environment(root: Path) -> None:
    for name, data in BASE.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(data)


def _linked(monkeypatch: pytest.MonkeyPatch, work: Path, tree: str) -> None:
    """`work` stands for a fresh box's /work: the environment linked (or copied) into it and recorded."""
    monkeypatch.setattr(pid1, "WORK", str(work))
    monkeypatch.setattr(session_tools, "BASE", {})
    monkeypatch.setattr(session_tools, "SETTLED", {})
    work.mkdir()
    session_tools.link_tree(tree)
    session_tools.record_base()


def _put(path: Path, data: bytes) -> None:
    """What a session's write does to a file of the environment: its own file replaces the link."""
    if path.is_symlink():
        path.unlink()
    path.write_bytes(data)


@pytest.fixture(params=["copy", "layers"])
def tree(request: pytest.FixtureRequest) -> str:
    """How the environment becomes /work (session_tools.link_tree)."""
    return request.param


@pytest.fixture
def work(tree: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A folder standing for the box's /work, the environment (a folder standing for /srv) linked in it."""
    (tmp_path / "env").mkdir()
    _environment(tmp_path / "env")
    (tmp_path / "env/calc/util.py").chmod(0o755)  # an executable file: "copy" keeps its bit
    monkeypatch.setattr(session_tools, "ENV", str(tmp_path / "env"))
    _linked(monkeypatch, tmp_path / "parent", tree)
    yield tmp_path / "parent"
    assert {str(p.relative_to(tmp_path / "env")): p.read_bytes() for p in (tmp_path / "env").rglob("*") if p.is_file()} == BASE


def _tree(root: Path) -> dict[str, tuple]:
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            p = Path(dirpath) / name
            rel = str(p.relative_to(root))
            st = p.lstat()
            if stat.S_ISLNK(st.st_mode):
                out[rel] = ("l", os.readlink(p))
            elif stat.S_ISDIR(st.st_mode):
                out[rel] = ("d",)
            else:
                out[rel] = ("f", p.read_bytes(), bool(st.st_mode & 0o100))
    return out


def _replay(work: Path, monkeypatch: pytest.MonkeyPatch, tree: str) -> tuple[dict, Path]:
    reply, blobs = session_tools.delta({"max": 64 << 20, "max_files": 1000, "walk_s": 60})
    assert reply["ok"], reply
    fork = work.parent / "fork"
    _linked(monkeypatch, fork, tree)
    session_tools.apply_delta(blobs["entries"], blobs["data"])
    return json.loads(blobs["entries"]), fork


def test_every_change_is_carried(work: Path, monkeypatch: pytest.MonkeyPatch, tree: str) -> None:
    _put(work / "calc/__init__.py", b"def quad(x):\n    return 4 * x\n")
    _put(work / "calc/util.py", BASE["calc/util.py"])
    (work / "calc/util.py").write_bytes(b"U = 2\n")  # the session's own file, rewritten at once, same size
    (work / "calc/util.py").chmod(0o755)
    (work / "docs/c.txt").rename(work / "docs/moved.txt")
    os.symlink("../calc/util.py", work / "tests/link")
    (work / "docs/a/b.txt").unlink()
    (work / "docs/a").rmdir()
    (work / "tests/test_calc.py").unlink()
    (work / "tests/test_calc.py").mkdir()
    (work / "tests/test_calc.py/inner.py").write_bytes(b"I = 1\n")
    (work / "new/deep").mkdir(parents=True)
    entries, fork = _replay(work, monkeypatch, tree)
    assert _tree(fork) == _tree(work)
    assert not any(e[0] == "calc" or e[0] == "tests" for e in entries)  # unchanged directories are not sent
    assert ["docs/a/b.txt", "x"] in entries and ["docs/c.txt", "x"] in entries


def test_an_untouched_tree_carries_nothing(work: Path, monkeypatch: pytest.MonkeyPatch, tree: str) -> None:
    (work / "calc/util.py").read_bytes()
    entries, fork = _replay(work, monkeypatch, tree)
    assert entries == [] and _tree(fork) == _tree(work)


def test_a_file_put_back_as_it_was_is_still_carried(work: Path, monkeypatch: pytest.MonkeyPatch, tree: str) -> None:
    """Rewritten with the same bytes, the file is sent (ctime moved): extra bytes, never a missed change.
    ("copy": rewritten in place, it keeps the environment's executable bit; "layers": a new file.)"""
    _put(work / "calc/util.py", BASE["calc/util.py"])
    entries, fork = _replay(work, monkeypatch, tree)
    assert entries == [["calc/util.py", "f", len(BASE["calc/util.py"]), tree == "copy"]] and _tree(fork) == _tree(work)


def test_a_bad_path_in_a_delta_is_refused(work: Path) -> None:
    for path in ("../escape", "calc/../../escape", ""):
        with pytest.raises(ValueError):
            session_tools.apply_delta(json.dumps([[path, "f", 1, False]]).encode(), b"x")
    assert not (work.parent / "escape").exists()


def test_a_folder_of_links_changed_any_way_is_read_again(work: Path, monkeypatch: pytest.MonkeyPatch, tree: str) -> None:
    """A folder holding only links is skipped while its inode and ctime are as recorded (SETTLED): a
    link swapped for another to another file, a link added, and one moved elsewhere each move the
    folder's ctime, so each is carried."""
    (work / "calc/__init__.py").unlink()
    os.symlink(f"{session_tools.ENV}/calc/util.py", work / "calc/__init__.py")
    os.symlink(f"{session_tools.ENV}/docs/c.txt", work / "calc/extra")
    (work / "docs/a/b.txt").rename(work / "tests/b.txt")
    entries, fork = _replay(work, monkeypatch, tree)
    assert _tree(fork) == _tree(work)
    assert {e[0] for e in entries} == {"calc/__init__.py", "calc/extra", "docs/a/b.txt", "tests/b.txt"}, entries


def test_copy_is_the_sessions_own_files_and_a_write_in_place_is_carried(work: Path, monkeypatch: pytest.MonkeyPatch, tree: str) -> None:
    """"copy": no link into the environment, its bytes and executable bit kept; a write in place, an
    append, a truncation and a chmod change the session's file (never the environment's: the fixture
    checks) and are carried. "layers": every file a link to the environment."""
    files = [p for p in work.rglob("*") if not p.is_dir()]
    if tree == "layers":
        assert files and all(p.is_symlink() for p in files)
        return
    assert not any(p.is_symlink() for p in files)
    assert {str(p.relative_to(work)): p.read_bytes() for p in files} == BASE
    assert os.stat(work / "calc/util.py").st_mode & 0o777 == 0o755 and os.stat(work / "docs/c.txt").st_mode & 0o777 == 0o644
    with open(work / "calc/__init__.py", "r+b") as fh:
        fh.write(b"class")
    with open(work / "calc/util.py", "ab") as fh:
        fh.write(b"V = 2\n")
    with open(work / "docs/c.txt", "w") as fh:
        fh.truncate(0)
    (work / "tests/test_calc.py").chmod(0o700)
    entries, fork = _replay(work, monkeypatch, tree)
    assert _tree(fork) == _tree(work)
    assert sorted(e[0] for e in entries) == ["calc/__init__.py", "calc/util.py", "docs/c.txt", "tests/test_calc.py"]


def test_changes_past_the_bound_are_refused_before_any_file_is_read(work: Path, monkeypatch: pytest.MonkeyPatch,
                                                                    tree: str) -> None:
    """Red team rt34: sparse files hold nothing in the parent's /work but are written out in full in a
    fork's. delta sums every file's apparent size (in pages; "copy": the tree's own files too) from its
    stat and answers `too_large` past `max` with no file read, naming what it would hold and the bound."""
    for i in range(3):
        with open(work / f"big{i}", "wb") as fh:
            fh.truncate(50 << 20)
    monkeypatch.setattr(session_tools, "_read_regular", lambda *a: pytest.fail("a file was read past the bound"))
    reply, blobs = session_tools.delta({"max": 128 << 20, "max_files": 1000, "walk_s": 60})
    assert reply["too_large"] == "work" and not reply["ok"] and blobs == {}, reply
    assert 128 << 20 < reply["need"] <= 150 << 20 and reply["max"] == 128 << 20 and str(128 << 20) in reply["detail"]


def test_a_sparse_file_within_the_bound_is_carried_whole(work: Path, monkeypatch: pytest.MonkeyPatch, tree: str) -> None:
    """Within the bound the same files are carried, the zeros written out: the bound counts what the fork holds."""
    with open(work / "sparse", "wb") as fh:
        fh.truncate(3 << 20)
    reply, _ = session_tools.delta({"max": 3 << 20, "max_files": 1000, "walk_s": 60})
    assert bool(reply.get("too_large")) == (tree == "copy"), reply  # "copy": the tree's own files count too
    entries, fork = _replay(work, monkeypatch, tree)
    assert (fork / "sparse").stat().st_size == 3 << 20 and _tree(fork) == _tree(work)


def test_changes_a_forks_memory_cannot_take_are_refused_unread(work: Path, monkeypatch: pytest.MonkeyPatch,
                                                              tree: str) -> None:
    """With `mem` (what a fork's memory limit leaves beside its processes), a fork's box must also take
    the changes in memory (three copies while they arrive): 1 MiB of changes needs 3 MiB, refused at 2
    with no file read, taken at 4."""
    (work / "one").write_bytes(b"x" * (1 << 20))
    read = session_tools._read_regular
    monkeypatch.setattr(session_tools, "_read_regular", lambda *a: pytest.fail("a file was read past the bound"))
    reply, blobs = session_tools.delta({"max": 64 << 20, "max_files": 1000, "walk_s": 60, "mem": 2 << 20})
    assert reply["too_large"] == "memory" and blobs == {} and str(3 << 20) in reply["detail"], reply
    monkeypatch.setattr(session_tools, "_read_regular", read)
    reply, blobs = session_tools.delta({"max": 64 << 20, "max_files": 1000, "walk_s": 60, "mem": 4 << 20})
    assert reply["ok"] and bytes(blobs["data"]) == b"x" * (1 << 20), reply


def test_hard_links_are_carried_as_links_and_counted_once(work: Path, monkeypatch: pytest.MonkeyPatch, tree: str) -> None:
    """A file of three names (red team rt34: one 50 MB file linked 3 times was 150 MB in a fork) is one
    file in the fork as in the parent: sent once, linked twice, its bytes counted once under the bound."""
    (work / "sub").mkdir()
    (work / "big").write_bytes(b"x" * (1 << 20))
    os.link(work / "big", work / "sub/big2")
    os.link(work / "big", work / "sub/big3")
    reply, _ = session_tools.delta({"max": (1 << 20) + (64 << 10), "max_files": 1000, "walk_s": 60})
    assert reply["ok"], reply
    entries, fork = _replay(work, monkeypatch, tree)
    assert _tree(fork) == _tree(work)
    assert sorted(e for e in entries if e[1] in "fh" and e[0] in ("big", "sub/big2", "sub/big3")) == [
        ["big", "f", 1 << 20, False], ["sub/big2", "h", "big"], ["sub/big3", "h", "big"]]  # a folder's order is its own
    assert len({(fork / p).stat().st_ino for p in ("big", "sub/big2", "sub/big3")}) == 1


def test_a_deep_tree_is_applied_with_one_open_a_folder(work: Path, monkeypatch: pytest.MonkeyPatch, tree: str) -> None:
    """Red team rt34: 1,000 nested folders took 4.1 s (Docker) and 45.5 s (gVisor) to fork, every
    entry walked from /work again (quadratic). Folders are reached from the longest prefix open
    (_Dirs): a chain at the depth bound, a file in each, costs a few opens a folder in delta and in
    apply_delta (about 128 * 128 / 2 a pass walked from /work)."""
    deep = work
    for i in range(session_tools.DEPTH_MAX):
        deep = deep / f"d{i}"
        deep.mkdir()
        (deep / "f").write_bytes(b"%d\n" % i)
    opens = _counted_opens(monkeypatch)
    entries, fork = _replay(work, monkeypatch, tree)
    assert _tree(fork) == _tree(work) and len(entries) == 2 * session_tools.DEPTH_MAX
    assert opens[0] < 10 * session_tools.DEPTH_MAX, opens


def _counted_opens(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    opens = [0]
    real = session_tools.open_nofollow

    def counted(*args, **kwargs):
        opens[0] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(session_tools, "open_nofollow", counted)
    return opens


def _chain(root: Path, depth: int) -> Path:
    """`depth` nested folders below root (one name each); the deepest."""
    deep = root / "/".join(["d"] * depth)
    deep.mkdir(parents=True)
    return deep


def test_a_tree_nested_past_the_depth_bound_is_refused_by_name(work: Path, monkeypatch: pytest.MonkeyPatch, tree: str) -> None:
    """A walk holds an fd a level (docs/sessions.md "Fork and snapshot"), so a folder nested past
    DEPTH_MAX is refused as the session's own ("depth", nothing read), one at the bound forks; a listing
    deeper than the bound (delta makes one only when the session removes a deep environment's folder:
    tests/test_session_refusals.py) is refused by apply_delta before it changes anything."""
    deep = _chain(work, session_tools.DEPTH_MAX)
    (deep / "f").write_bytes(b"at the bound\n")
    (deep / "d").mkdir()
    reply, blobs = session_tools.delta({"max": 64 << 20, "max_files": 1000, "walk_s": 60})
    assert reply["too_large"] == "depth" and blobs == {}, reply
    assert f"nest folders {session_tools.DEPTH_MAX + 1} deep, over the {session_tools.DEPTH_MAX} levels" in reply["detail"]
    (deep / "d").rmdir()
    entries, fork = _replay(work, monkeypatch, tree)
    assert _tree(fork) == _tree(work)
    too_deep = "/".join(["d"] * (session_tools.DEPTH_MAX + 1)) + "/f"
    before = _tree(fork)
    with pytest.raises(ValueError, match=f"is nested over {session_tools.DEPTH_MAX} folders deep"):
        session_tools.apply_delta(json.dumps([["calc/util.py", "x"], [too_deep, "f", 1, False]]).encode(), b"x")
    assert _tree(fork) == before


def test_a_walk_holds_an_fd_a_level_however_wide_or_deep(work: Path, monkeypatch: pytest.MonkeyPatch, tree: str) -> None:
    """PID 1 may open 256 files (sandbox/config.py nofile_limit). Under a limit of what is open now plus
    DEPTH_MAX and a few, a folder of 300 folders (each held open while its siblings were walked, before)
    and a chain at the bound, with a file at its deepest level linked at every level above (each link
    walked to its first name, before), are carried and applied whole, and the fork's tree read whole for
    a grade (snapshot)."""
    import resource

    for i in range(300):
        (work / "wide" / f"w{i:03}").mkdir(parents=True)
    deep = _chain(work, session_tools.DEPTH_MAX - 1)
    (deep / "f").write_bytes(b"f\n")
    for level in range(session_tools.DEPTH_MAX - 1):
        os.link(deep / "f", work / "/".join(["d"] * level) / f"h{level}")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (len(os.listdir("/proc/self/fd")) + session_tools.DEPTH_MAX + 8, hard))
    try:
        opens = _counted_opens(monkeypatch)
        entries, fork = _replay(work, monkeypatch, tree)
        graded, _ = session_tools.snapshot({"max": 64 << 20, "max_files": 100_000, "walk_s": 60})  # a grade's read of the fork
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    assert _tree(fork) == _tree(work) and (fork / "h0").stat().st_nlink == session_tools.DEPTH_MAX
    assert not [p for p in fork.iterdir() if p.name.startswith(".fork-links")]
    assert sum(e[1] == "h" for e in entries) == session_tools.DEPTH_MAX - 1
    assert opens[0] < 10 * (300 + session_tools.DEPTH_MAX), opens
    assert graded["ok"], graded


def test_a_grades_read_stops_at_the_depth_bound_with_a_clear_detail(work: Path, tree: str) -> None:
    """A grade's read (snapshot) walks at most DEPTH_MAX folders deep, as a fork does: a chain at the bound
    with a file at its deepest level is read whole; one folder more is refused by name before it is opened,
    nothing read; and a chain of 300 under PID 1's fd limit (what is open now plus DEPTH_MAX and a few) gets
    the same refusal, never "Too many open files" (its walk was unbounded: 256 fds near 250 levels)."""
    import resource

    deep = _chain(work, session_tools.DEPTH_MAX)
    (deep / "m.py").write_bytes(b"AT = 1\n")
    head = {"max": 64 << 20, "max_files": 100_000, "walk_s": 60}
    reply, blobs = session_tools.snapshot(head)
    assert reply["ok"], reply
    path = "/".join(["d"] * session_tools.DEPTH_MAX) + "/m.py"
    assert [path, "f", 7] in json.loads(blobs["entries"]) and b"AT = 1\n" in blobs["data"]
    refused = session_tools.SNAPSHOT_TOO_DEEP.format(session_tools.DEPTH_MAX + 1, session_tools.DEPTH_MAX)
    assert f"{session_tools.DEPTH_MAX + 1} or more levels deep, over the {session_tools.DEPTH_MAX} levels" in refused
    (deep / "d").mkdir()
    assert session_tools.snapshot(head) == ({"ok": False, "detail": refused}, {})
    _chain(deep / "d", 300 - session_tools.DEPTH_MAX - 1)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (len(os.listdir("/proc/self/fd")) + session_tools.DEPTH_MAX + 8, hard))
    try:
        assert session_tools.snapshot(head) == ({"ok": False, "detail": refused}, {})
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    shutil.rmtree(deep / "d")  # back at the bound: read whole again
    assert session_tools.snapshot(head)[0]["ok"]


HEAD = {"max": 64 << 20, "max_files": 100_000, "walk_s": 60}


def _long_names(work: Path, files: int, fill: bytes = b"\xff", length: int = 255) -> bytes:
    """Red team rt30y's tree: 100 nested folders of 255-byte names (0xff: six characters of JSON a byte, the
    name not UTF-8) and `files` empty files of such names at its foot, made a level at a time (each path
    is about 25 KB, past PATH_MAX); the deepest folder's path."""
    fd = os.open(work, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for i in range(100):
            name = (b"d%d" % i).ljust(length, fill)
            os.mkdir(name, dir_fd=fd)
            sub = os.open(name, os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
            os.close(fd)
            fd = sub
        for i in range(files):
            os.close(os.open((b"f%d" % i).ljust(length, fill), os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd))
    finally:
        os.close(fd)
    return b"/".join((b"d%d" % i).ljust(length, fill) for i in range(100))


def _held(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The most entries a walk's listing held at once (_Listing.add)."""
    most = [0]
    real = session_tools._Listing.add

    def add(self, entry: list) -> None:
        real(self, entry)
        most[0] = max(most[0], len(self.entries))

    monkeypatch.setattr(session_tools._Listing, "add", add)
    return most


def test_a_walks_listing_is_bounded_as_it_is_built(work: Path, monkeypatch: pytest.MonkeyPatch, tree: str) -> None:
    """Red team rt30y: a grade's and a fork's walk held every path, then the listing as JSON text and bytes,
    before measuring it (PID 1 over the session's memory). Each entry's JSON is counted as it is added: past
    ENTRIES_MAX_BYTES the grade's read and the fork's changes are refused by name, the walk stopped within one
    entry of the bound (a path here is about 150 KB of JSON: 56 of them fill 8 MiB, of 3,500)."""
    _long_names(work, 3500)
    most = _held(monkeypatch)
    reply, blobs = session_tools.snapshot(HEAD)
    refused = session_tools.SNAPSHOT_OVER["names"].format(0, session_tools.ENTRIES_MAX_BYTES)
    assert (reply, blobs) == ({"ok": False, "detail": refused}, {}) and "names take over 8388608 bytes" in refused
    assert most[0] < 60, most
    most[0] = 0
    reply, blobs = session_tools.delta(HEAD)
    assert reply["too_large"] == "names" and blobs == {} and reply["max"] == session_tools.ENTRIES_MAX_BYTES, reply
    assert "bytes of names or more in their listing (as JSON), over the 8388608 bytes" in reply["detail"]
    assert most[0] < 160, most  # the chain's 100 folders are changes too


@pytest.mark.parametrize("read", ["grade", "fork"])
def test_a_listing_at_its_bound_is_read_and_one_byte_past_is_refused(work: Path, monkeypatch: pytest.MonkeyPatch,
                                                                     tree: str, read: str) -> None:
    """The listing's bound is exact: a listing of exactly ENTRIES_MAX_BYTES (here set to what a tree's listing
    takes: 100 nested folders of 254-byte names and 20 files at their foot) is read whole, the very bytes
    json.dumps makes, and one byte more (a name one character longer) is refused by name."""
    deep = _long_names(work, 20, b"n", 254)
    walk = session_tools.snapshot if read == "grade" else session_tools.delta
    reply, blobs = walk(HEAD)
    assert reply["ok"], reply
    size = len(blobs["entries"])
    assert blobs["entries"] == json.dumps(json.loads(blobs["entries"])).encode() and size > 100 * 254 * 20
    monkeypatch.setattr(session_tools, "ENTRIES_MAX_BYTES", size)
    reply, at = walk(HEAD)
    assert reply["ok"] and at["entries"] == blobs["entries"], reply
    fd = os.open(work, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for part in deep.split(b"/"):
            fd, parent = os.open(part, os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd), fd
            os.close(parent)
        name = b"f0".ljust(254, b"n")
        os.rename(name, name + b"n", src_dir_fd=fd, dst_dir_fd=fd)  # one byte more in one name
    finally:
        os.close(fd)
    reply, _ = walk(HEAD)
    assert not reply["ok"] and f"{size} bytes" in reply["detail"] and "names" in reply["detail"], reply
    assert reply.get("need", size + 1) == size + 1 and reply.get("too_large") == (None if read == "grade" else "names")


def _walked(root: Path) -> int:
    """The entries a grade's read walks: every one below root, what SKIP_DIRS hold left out."""
    count = 0
    for _, dirs, files in os.walk(root):
        count += len(dirs) + len(files)
        dirs[:] = [d for d in dirs if d not in session_tools.SKIP_DIRS]
    return count


def test_a_grades_read_counts_folders_against_its_entries_bound(work: Path, tree: str) -> None:
    """Red team rt30y: a grade's read counted files, links and others against `max_files`, never folders (a
    fork's counts them): 300,000 empty folders were walked whole, past the host's wait on gVisor. Every entry
    walked counts: a tree of exactly `max_files` entries (most of them empty folders, one a .git folder whose
    contents are not read) is read, one folder more is the session's to fix, by name."""
    for i in range(300):
        (work / "w" / str(i)).mkdir(parents=True)
    (work / ".git/objects").mkdir(parents=True)
    head = {**HEAD, "max_files": _walked(work)}
    reply, blobs = session_tools.snapshot(head)
    assert reply["ok"], reply
    (work / "w/300").mkdir()
    refused = session_tools.SNAPSHOT_OVER["entries"].format(head["max_files"] + 1, head["max_files"])
    assert session_tools.snapshot(head) == ({"ok": False, "detail": refused}, {})
    assert f"over {head['max_files']} entries (files, links, folders" in refused


def test_a_forks_changes_count_every_entry_against_the_bound(work: Path, monkeypatch: pytest.MonkeyPatch,
                                                             tree: str) -> None:
    """A fork's changes are counted as they are found, a fifo (named, not carried) too: at `max_files` they are
    carried, one more is `too_large` "entries" (RESOURCE_EXHAUSTED at the server), and the fifos named are at
    most SKIPPED_NAMED however many there are."""
    for i in range(30):
        os.mkfifo(work / f"fifo{i}")
    (work / "w").mkdir()
    for i in range(100):
        (work / "w" / str(i)).write_bytes(b"x")
    head = {**HEAD, "max_files": 131}
    reply, _ = session_tools.delta(head)
    assert reply["ok"] and len(reply["skipped"]) == session_tools.SKIPPED_NAMED, reply
    (work / "w/100").mkdir()
    reply, blobs = session_tools.delta(head)
    assert (reply["too_large"], reply["need"], reply["max"], blobs) == ("entries", 132, 131, {}), reply
    assert "carry 132 changed entries or more" in reply["detail"]


@pytest.mark.parametrize("read", ["grade", "fork"])
def test_a_walk_past_its_time_budget_is_refused_by_name(work: Path, tree: str, read: str) -> None:
    """Each walk has a budget of its own (`walk_s`, sandbox/session.py TREE_WALK_S, well under the host's wait):
    spent, a grade's read is the session's to fix, named, and a fork's changes `too_large` "time", never the host's
    wait run out (red team rt30y: 300,000 folders on gVisor walked to the host's 120 s, an ungraded grade). Within
    it the same tree is read."""
    for i in range(50):
        (work / "w" / str(i)).mkdir(parents=True)
    walk = session_tools.snapshot if read == "grade" else session_tools.delta
    assert walk(HEAD)[0]["ok"]
    reply, blobs = walk({**HEAD, "walk_s": 1e-9})  # spent before the second entry
    assert not reply["ok"] and blobs == {}, reply
    if read == "grade":
        assert reply["detail"] == session_tools.SNAPSHOT_OVER["time"].format(0, 0), reply
    else:
        assert reply["too_large"] == "time" and "take over 0 s to read" in reply["detail"], reply

"""The changes a fork or snapshot carries (docs/sessions.md "Fork and snapshot";
sandbox/harness/session_tools.py `record_base`, `delta`, `apply_delta`), on host folders: the same
program runs in the session's box. A tree changed every way a session can (data of the same size
rewritten at once, a mode, a rename, a link, a removed directory, a file turned into a directory and
back) and replayed on a fresh unpack of the environment is that tree; an untouched tree carries nothing."""
from __future__ import annotations

import io
import json
import os
import stat
import sys
import tarfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from sandbox.build import HARNESS

sys.path.insert(0, str(HARNESS))
import pid1  # noqa: E402
import session_tools  # noqa: E402

BASE = {"calc/__init__.py": b"def quad(x):\n    return 2 * x\n", "calc/util.py": b"U = 1\n",
        "tests/test_calc.py": b"def test():\n    pass\n", "docs/a/b.txt": b"b\n", "docs/c.txt": b"c\n"}


def _archive() -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w") as tar:  # as sandbox/repo/apply.py tree_tar: directories first
        for folder in sorted({str(Path(n).parents[i]) for n in BASE for i in range(len(Path(n).parents) - 1)}):
            info = tarfile.TarInfo(f"repo/{folder}")
            info.type, info.mode = tarfile.DIRTYPE, 0o755
            tar.addfile(info)
        for name, data in BASE.items():
            info = tarfile.TarInfo(f"repo/{name}")
            info.size, info.mode = len(data), 0o644
            tar.addfile(info, io.BytesIO(data))
    return out.getvalue()


@pytest.fixture
def work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A folder standing for the box's /work, the environment unpacked and recorded in it."""
    monkeypatch.setattr(pid1, "WORK", str(tmp_path / "parent"))
    monkeypatch.setattr(session_tools, "BASE", {})
    (tmp_path / "parent").mkdir()
    session_tools.unpack_tree(_archive())
    session_tools.record_base()
    yield tmp_path / "parent"


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


def _replay(work: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[dict, Path]:
    reply, blobs = session_tools.delta({"max": 1 << 20, "max_files": 1000})
    assert reply["ok"], reply
    fork = work.parent / "fork"
    fork.mkdir()
    monkeypatch.setattr(pid1, "WORK", str(fork))
    monkeypatch.setattr(session_tools, "BASE", {})
    session_tools.unpack_tree(_archive())
    session_tools.record_base()
    session_tools.apply_delta(blobs["entries"], blobs["data"])
    return json.loads(blobs["entries"]), fork


def test_every_change_is_carried(work: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (work / "calc/__init__.py").write_bytes(b"def quad(x):\n    return 4 * x\n")  # same size, at once
    (work / "calc/util.py").chmod(0o755)
    (work / "docs/c.txt").rename(work / "docs/moved.txt")
    os.symlink("../calc/util.py", work / "tests/link")
    (work / "docs/a/b.txt").unlink()
    (work / "docs/a").rmdir()
    (work / "tests/test_calc.py").unlink()
    (work / "tests/test_calc.py").mkdir()
    (work / "tests/test_calc.py/inner.py").write_bytes(b"I = 1\n")
    (work / "new/deep").mkdir(parents=True)
    entries, fork = _replay(work, monkeypatch)
    assert _tree(fork) == _tree(work)
    assert not any(e[0] == "calc" or e[0] == "tests" for e in entries)  # unchanged directories are not sent
    assert ["docs/a/b.txt", "x"] in entries and ["docs/c.txt", "x"] in entries


def test_an_untouched_tree_carries_nothing(work: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (work / "calc/util.py").read_bytes()
    entries, fork = _replay(work, monkeypatch)
    assert entries == [] and _tree(fork) == _tree(work)


def test_a_file_put_back_as_it_was_is_still_carried(work: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Rewritten with the same bytes, the file is sent (ctime moved): extra bytes, never a missed change."""
    (work / "calc/util.py").write_bytes(BASE["calc/util.py"])
    entries, fork = _replay(work, monkeypatch)
    assert entries == [["calc/util.py", "f", len(BASE["calc/util.py"]), False]] and _tree(fork) == _tree(work)


def test_a_bad_path_in_a_delta_is_refused(work: Path) -> None:
    for path in ("../escape", "calc/../../escape", ""):
        with pytest.raises(ValueError):
            session_tools.apply_delta(json.dumps([[path, "f", 1, False]]).encode(), b"x")
    assert not (work.parent / "escape").exists()

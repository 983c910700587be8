"""Red team rt30w of issue 30's checker room (sandbox/job.py _with_room, _starved) and issue 34's bounded
forks (sandbox/harness/session_tools.py delta, apply_delta; docs/sessions.md "Fork and snapshot"),
attacked as a program and as session commands would (/work/shared/RED-TEAM.md classes). Each open hole
is a strict xfail that fails because the attack works; the attacks that held are kept as plain tests.
The sessions' servers, clients and environment are tests/test_session_fork.py's (module-scoped here too)."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from sandbox.build import HARNESS

sys.path.insert(0, str(HARNESS))
import pid1  # noqa: E402
import session_tools  # noqa: E402


def _linked(monkeypatch: pytest.MonkeyPatch, work: Path) -> None:
    """`work` stands for a fresh box's /work: a one-file environment linked in it and recorded
    (as tests/test_session_delta.py _linked)."""
    monkeypatch.setattr(pid1, "WORK", str(work))
    monkeypatch.setattr(session_tools, "BASE", {})
    monkeypatch.setattr(session_tools, "SETTLED", {})
    work.mkdir()
    session_tools.link_tree("layers")
    session_tools.record_base()


def _counted_opens(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    opens = [0]
    real = session_tools.open_nofollow

    def counted(*args, **kwargs):
        opens[0] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(session_tools, "open_nofollow", counted)
    return opens


ZIGZAG_DEPTH = 200


def _zigzag(work: Path, depth: int) -> None:
    """A chain of `depth` folders `a`, each with a side folder `z` holding one empty file: walk order
    (a folder's entries, then its folders', the last pushed first) visits a/../z/f, then a/../a/..,
    which is not below it, so _Dirs walks from /work again for every level."""
    deep = work
    for _ in range(depth):
        (deep / "z").mkdir()
        (deep / "z" / "f").write_bytes(b"")
        deep = deep / "a"
        deep.mkdir()


@pytest.mark.xfail(strict=True, reason="open: a zig-zag deep tree (a side folder with a file at each level) is "
                                       "walked from /work for every level in delta and apply_delta: quadratic (rt30w)")
def test_a_zigzag_deep_tree_is_applied_with_a_few_opens_a_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Class 9 (quadratic work on a session's input), a variant of rt34's chain that fx34's _Dirs was not
    written for: _Dirs reuses its fd only when the next folder is below the last one opened, and a side
    folder between two levels of the chain moves it off the chain. Measured on the host: 1,500 levels
    (within the 8 MiB listing) cost 1.13 M opens, 9 s in delta and 23 s in apply_delta; rt34's chain of
    1,000 was 4.1 s on Docker and 45.5 s on gVisor. The bound is test_session_delta.py's: a few opens a folder."""
    (tmp_path / "env").mkdir()
    (tmp_path / "env" / "x").write_bytes(b"x\n")
    monkeypatch.setattr(session_tools, "ENV", str(tmp_path / "env"))
    _linked(monkeypatch, tmp_path / "parent")
    _zigzag(tmp_path / "parent", ZIGZAG_DEPTH)
    opens = _counted_opens(monkeypatch)
    reply, blobs = session_tools.delta({"max": 64 << 20, "max_files": 100_000})
    assert reply["ok"], reply
    in_delta, opens[0] = opens[0], 0
    _linked(monkeypatch, tmp_path / "fork")
    session_tools.apply_delta(blobs["entries"], blobs["data"])
    assert len(json.loads(blobs["entries"])) == 3 * ZIGZAG_DEPTH
    folders = 2 * ZIGZAG_DEPTH
    assert in_delta < 10 * folders and opens[0] < 10 * folders, (in_delta, opens[0])

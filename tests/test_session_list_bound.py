"""A session's list_dir reads at most LIST_READ_MAX names (sandbox/harness/session_tools.py `_first_names`): gVisor's
tmpfs has no inode cap, so a folder of millions of names (memory alone bounds it) was read and sorted whole by the
box's PID 1, outside any cell's clock (issue 30, stop 49's note). Pure: host folders, the bound made small."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from sandbox.build import HARNESS

sys.path.insert(0, str(HARNESS))
import session_tools  # noqa: E402


def names_of(folder: Path, cap: int) -> tuple[list[str], bool]:
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        return session_tools._first_names(fd, cap)
    finally:
        os.close(fd)


@pytest.mark.parametrize("count, cap, want, more", [
    (8, 10, [f"n{i:02d}" for i in range(8)], False),   # all, in order
    (8, 8, [f"n{i:02d}" for i in range(8)], False),    # exactly the cap: nothing more
    (8, 5, [f"n{i:02d}" for i in range(5)], True),     # the first 5 in order, more left
    (0, 5, [], False),
])
def test_a_listing_is_the_first_names_in_order(tmp_path, count, cap, want, more):
    for i in reversed(range(count)):
        (tmp_path / f"n{i:02d}").touch()
    assert names_of(tmp_path, cap) == (want, more)


def test_a_folder_past_the_read_bound_is_listed_from_what_was_read(tmp_path, monkeypatch):
    monkeypatch.setattr(session_tools, "LIST_READ_MAX", 10)
    for i in range(25):
        (tmp_path / f"n{i:02d}").touch()
    got, more = names_of(tmp_path, 1000)
    assert more and len(got) == 10 and got == sorted(got), got  # 10 read, not 25: truncated
    assert set(got) <= {f"n{i:02d}" for i in range(25)}


def test_the_hosts_path_bound_is_the_boxs():
    """One bound, two places: the host refuses a tool's path first (verifier/sessions.py PATH_PARTS_MAX), the box
    again (session_tools.DEPTH_MAX, which the grade's walk holds too)."""
    from verifier.sessions import PATH_PARTS_MAX
    assert PATH_PARTS_MAX == session_tools.DEPTH_MAX
    assert session_tools.tool_parts("a/" * session_tools.DEPTH_MAX, False) is not None
    assert session_tools.tool_parts("a/" * (session_tools.DEPTH_MAX + 1), False) is None


def test_the_hosts_path_length_bound_is_the_boxs():
    """Red team 13: a path's characters are bounded before it is split, in both places alike: DEPTH_MAX names of
    NAME_MAX (255) with their slashes still pass; one character more, or millions of slashes (no parts), do not."""
    from sandbox.contract import TaskError
    from verifier.sessions import PATH_MAX_CHARS, _check_parts

    assert PATH_MAX_CHARS == session_tools.PATH_MAX
    from verifier.sessions import SHELL_COMMAND_MAX_BYTES
    assert SHELL_COMMAND_MAX_BYTES == session_tools.ARG_STRLEN_MAX - 1  # exec's bound, host and box
    longest = "/".join(["n" * 255] * session_tools.DEPTH_MAX)
    _check_parts(longest)
    assert session_tools.tool_parts(longest, False) is not None
    for path in (longest + "/" * (PATH_MAX_CHARS - len(longest) + 1), "/" * (1 << 20) + "f"):
        with pytest.raises(TaskError) as refused:
            _check_parts(path)
        assert refused.value.field == "path" and f"at most {PATH_MAX_CHARS} characters" in str(refused.value)
        assert session_tools.tool_parts(path, False) is None

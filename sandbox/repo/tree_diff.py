"""A session's tree as a patch against its environment (docs/sessions.md "Grading a session").

`session_patch` turns a snapshot of a session's working tree (sandbox/harness/session_tools.py
`snapshot`) into the unified diff a model would have written, so that grading the session is
grading a `repo` task with that diff as the completion, through the one reader, the one admission
allowlist and the one applier (docs/repo-tasks.md "Trust model"): the same verdict by
construction. Only what a patch can carry is admitted; anything else is PatchError naming the path
(the session's failure, never infra_error): a changed or new link, a special file, a binary or
carriage-return text edit, a new empty file. Directories the snapshot skips (SKIP_DIRS: caches a
test run writes) are compared on neither side.
"""
from __future__ import annotations

import difflib
import itertools
import os
import stat
from collections.abc import Iterable

from .patch import PATCH_MAX, PatchError

SKIP_DIRS = frozenset({".git", "__pycache__", ".pytest_cache"})  # session_tools.SKIP_DIRS: the same names
NO_NEWLINE = "\\ No newline at end of file\n"
# The last line of a diff cut at its bound (`DiffTooLarge.head`): never a line a diff can hold, so a cut
# diff does not read as a whole one.
DIFF_CUT = "[the diff is cut here: it is over {} bytes, the most a grade takes]\n"


class DiffTooLarge(PatchError):
    """The session's diff is over `max_bytes` (`session_patch`): the diff was built only that far.
    `head` is its start, whole lines within the bound and the DIFF_CUT line, at most `max_bytes`
    bytes of UTF-8 in all (what a grade's reply carries: docs/sessions.md "Grading a session")."""

    def __init__(self, max_bytes: int, head: str) -> None:
        super().__init__(f"the session's diff is over {max_bytes} bytes, the most a grade takes (a patch's bound): "
                         "no test ran; the reply's patch is its start, cut")
        self.head = head


def environment_files(root: str) -> tuple[dict[str, bytes], dict[str, str]]:
    """(regular files, links) of an environment's tree, paths relative to it, SKIP_DIRS left out."""
    files: dict[str, bytes] = {}
    links: dict[str, str] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        rel = os.path.relpath(dirpath, root)
        dirnames[:] = [d for d in dirnames if d not in SKIP_DIRS and not os.path.islink(os.path.join(dirpath, d))]
        for name in filenames + [d for d in os.listdir(dirpath) if os.path.islink(os.path.join(dirpath, d))
                                 and os.path.isdir(os.path.join(dirpath, d))]:
            path = name if rel == "." else f"{rel}/{name}"
            full = os.path.join(dirpath, name)
            st = os.lstat(full)
            if stat.S_ISLNK(st.st_mode):
                links[path] = os.readlink(full)
            elif stat.S_ISREG(st.st_mode):
                with open(full, "rb") as fh:
                    files[path] = fh.read()
    return files, links


def read_snapshot(entries: Iterable, data: bytes) -> tuple[dict[str, bytes], dict[str, str]]:
    """The snapshot's (files, links), checked: every entry well-formed, sizes adding up to the data."""
    files: dict[str, bytes] = {}
    links: dict[str, str] = {}
    at = 0
    for entry in entries:
        if not (isinstance(entry, list) and len(entry) == 3 and isinstance(entry[0], str)):
            raise ValueError("a snapshot entry is malformed")
        path, kind, value = entry
        _check_name(path)
        if kind == "f" and isinstance(value, int) and 0 <= value <= len(data) - at:
            files[path], at = data[at:at + value], at + value
        elif kind == "l" and isinstance(value, str):
            links[path] = value
        elif kind == "o":
            raise PatchError(f"{path}: not a regular file, directory or link; a patch cannot carry it")
        else:
            raise ValueError("a snapshot entry is malformed")
    if at != len(data):
        raise ValueError("the snapshot's sizes do not add up")
    return files, links


def _check_name(path: str) -> None:
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        raise PatchError(f"{path.encode('utf-8', 'replace')!r}: a file name that is not UTF-8; a patch cannot carry it") from None


def session_patch(root: str, files: dict[str, bytes], links: dict[str, str], max_bytes: int = PATCH_MAX) -> str:
    """The diff from the environment's tree at `root` to the session's `files` and `links`; "" when
    they are the same. Raises PatchError for what a patch cannot carry (module docstring), and
    DiffTooLarge as soon as the diff passes `max_bytes` of UTF-8: no more of it is built (a file whose
    size alone puts the diff past the bound is not diffed at all)."""
    env_files, env_links = environment_files(root)
    for path in sorted(set(links) | set(env_links)):
        if links.get(path) != env_links.get(path):
            raise PatchError(f"{path}: a link made, changed or removed; a patch carries regular files only")
    changed = []
    for path in sorted(set(files) | set(env_files)):
        old, new = env_files.get(path), files.get(path)
        if old == new:
            continue
        if path in env_links or path in links:
            raise PatchError(f"{path}: a link replaced by a file; a patch carries regular files only")
        changed.append((path, old, new))
    out = _Bounded(max_bytes)
    for path, old, new in changed:
        # Each byte added or removed is on a line of the diff: the diff is at least the size difference.
        out.at_least(abs(len(new or b"") - len(old or b"")))
        _file_diff(out, path, _text(path, old), _text(path, new))
    return out.text()


class _Bounded:
    """A diff's lines, kept while they fit in `max_bytes` of UTF-8; DiffTooLarge the moment they do not."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes, self.size = max_bytes, 0
        self.lines: list[str] = []

    def at_least(self, more: int) -> None:
        if self.size + more > self.max_bytes:
            self._over()

    def add(self, line: str) -> None:
        self.size += len(line.encode("utf-8", "surrogatepass"))
        if self.size > self.max_bytes:
            self._over()
        self.lines.append(line)

    def text(self) -> str:
        return "".join(self.lines)

    def _over(self) -> None:
        cut = DIFF_CUT.format(self.max_bytes)
        room, keep = self.max_bytes - len(cut.encode()), []
        for line in self.lines:
            room -= len(line.encode("utf-8", "surrogatepass"))
            if room < 0:
                break
            keep.append(line)
        raise DiffTooLarge(self.max_bytes, "".join(keep) + cut)


def _text(path: str, data: bytes | None) -> str | None:
    if data is None:
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise PatchError(f"{path}: a binary file changed; a patch carries text only") from None
    if "\r" in text:
        raise PatchError(f"{path}: a carriage return in a changed file; a patch carries LF line ends only")
    return text


def _lines(text: str) -> list[str]:
    parts = text.split("\n")
    return [p + "\n" for p in parts[:-1]] + ([parts[-1]] if parts[-1] else [])


def _file_diff(out: _Bounded, path: str, old: str | None, new: str | None) -> None:
    if new == "" and old is None:
        raise PatchError(f"{path}: a new empty file; a patch cannot carry it (write a line in it)")
    out.add(f"diff --git a/{path} b/{path}\n")
    if old is None:
        head = ["new file mode 100644\n", "--- /dev/null\n", f"+++ b/{path}\n"]
    elif new is None:
        head = ["deleted file mode 100644\n", f"--- a/{path}\n", "+++ /dev/null\n"]
    else:
        head = [f"--- a/{path}\n", f"+++ b/{path}\n"]
    for line in head:
        out.add(line)
    lines = difflib.unified_diff(_lines(old or ""), _lines(new or ""), n=3)
    for line in itertools.islice(lines, 2, None):  # difflib's own ---/+++ lines: ours are above
        out.add(line if line.endswith("\n") else line + "\n" + NO_NEWLINE)

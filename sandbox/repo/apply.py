"""Applying a read patch to an environment's tree, on the host, strictly (docs/repo-tasks.md "Running a
task"): the images have neither git nor patch, and the host must not run a tool over a tree the
model wrote. The tree is never copied or changed: the patched files are kept as overrides (path ->
new bytes, None for a deletion) over the environment's directory; `task_tar` writes them as one
archive for the sandbox and `view_listing` lists the rest, which the sandbox links to (docs/repo-tasks.md
"Warm environments"); `tree_tar` writes the whole patched tree.

Rules, as `git apply` without fuzz: each hunk's old lines must match the file exactly (no whitespace
leniency), at the line its header says or the nearest line after the previous hunk where they match
(an offset, as git allows); a new file must not exist, a deleted or edited one must, and a deletion
must remove every line. Paths are walked from the tree's root without following a symbolic link. A
failure is `PatchError` naming the file and hunk: the model's failure, never the host's.
"""
from __future__ import annotations

import io
import json
import os
import stat
import tarfile
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .patch import Patch, PatchError

Overrides = dict[str, bytes | None]
TREE_MAX_BYTES = 256 << 20  # the patched tree as one archive (/work is a tmpfs of the sandbox's memory)
PAGE = 4096  # a tmpfs file's bytes are whole pages
INLINE_LINK = 127  # Linux's tmpfs keeps a link's target of up to this many bytes in its inode (shmem's SHORT_SYMLINK_LEN, 128 with its NUL); a longer one takes a page
NAME_MAX, PATH_MAX = 255, 4096  # bytes of one path part and of a whole path (Linux's limits)
# Line comparisons one patch may cost while its hunks are looked for (the offset search): a patch of
# many hunks whose headers point far from their text must not hold the planning thread for minutes.
SEARCH_BUDGET = 2_000_000


def apply_patch(root: str, patch: Patch, overrides: Overrides, who: str = "the patch") -> None:
    """Apply `patch` to the tree at `root` seen through `overrides`, updating `overrides`."""
    from unidiff import PatchSet

    budget = [SEARCH_BUDGET]
    dirs = {p for path, data in overrides.items() if data is not None for p in _parents(path)}
    for f, edit in zip(PatchSet(patch.text), patch.files, strict=True):
        _check_shape(edit.path, overrides, dirs, who)
        old = _current(root, edit.path, overrides)
        if edit.change == "added":
            if old is not None:
                raise PatchError(f"{who} adds {edit.path}, which already exists")
            overrides[edit.path] = _apply_hunks([], f, edit.path, who, budget)
            dirs.update(_parents(edit.path))
            continue
        if old is None:
            raise PatchError(f"{who} changes {edit.path}, which does not exist")
        new = _apply_hunks(old.decode("utf-8", "surrogateescape").splitlines(keepends=True), f, edit.path, who, budget)
        if edit.change == "deleted":
            if new:
                raise PatchError(f"{who} deletes {edit.path} but does not remove all of its lines")
            overrides[edit.path] = None
        else:
            overrides[edit.path] = new


def _parents(path: str) -> list[str]:
    parts = path.split("/")
    return ["/".join(parts[:k]) for k in range(1, len(parts))]


def _check_shape(path: str, overrides: Mapping[str, bytes | None], dirs: set[str], who: str) -> None:
    """A file the patches wrote is not a directory of another, nor the other way round (the tree on
    disk is checked as it is walked: `_open_in`)."""
    if path in dirs:
        raise PatchError(f"{who} writes {path}, a directory of files written before it")
    for parent in _parents(path):
        if overrides.get(parent) is not None:
            raise PatchError(f"{who} writes {path}, under {parent}, a file written before it")


def _apply_hunks(lines: list[str], f: object, path: str, who: str, budget: list[int]) -> bytes:
    out: list[str] = []
    at = 0  # the first line of `lines` not yet copied to `out`
    hunks: Any = f
    for n, hunk in enumerate(hunks, 1):
        old, new = _hunk_sides(hunk)
        start = _find(lines, old, max(hunk.source_start - 1, 0) if old else hunk.source_start, at, budget)
        if budget[0] < 0:
            raise PatchError(f"{who} does not apply: {path}, hunk {n}: its hunks are too far from the lines their "
                             "headers give (the search for them ran out)")
        if start is None:
            raise PatchError(f"{who} does not apply: {path}, hunk {n} (@@ -{hunk.source_start},{hunk.source_length} @@): "
                             "its context and removed lines are not in the file")
        out += lines[at:start] + new
        at = start + len(old)
    return "".join(out + lines[at:]).encode("utf-8", "surrogateescape")


def _hunk_sides(hunk: object) -> tuple[list[str], list[str]]:
    """A hunk's old and new lines, each with its line end; `\\ No newline at end of file` takes the
    end off the line before it."""
    old: list[str] = []
    new: list[str] = []
    last: list[list[str]] = []
    for line in hunk:  # type: ignore[attr-defined]
        t, value = line.line_type, line.value
        if t == "\\":
            for side in last:
                side[-1] = side[-1].removesuffix("\n")
            continue
        text = value if value.endswith("\n") else value + "\n"
        last = [old, new] if t == " " else [old] if t == "-" else [new] if t == "+" else []
        for side in last:
            side.append(text)
    return old, new


def _find(lines: list[str], old: list[str], want: int, after: int, budget: list[int]) -> int | None:
    """Where `old` matches `lines` exactly at or after `after`: the match nearest to `want` (the
    earlier of two as near), looked for outward from it. Each comparison is taken from `budget`."""
    if not old:
        return want if after <= want <= len(lines) else None
    last = len(lines) - len(old)
    want = min(max(want, after), max(last, after))
    for d in range(max(want - after, last - want) + 1):
        for i in (want - d, want + d) if d else (want,):
            if after <= i <= last:
                budget[0] -= 1
                if lines[i] == old[0]:
                    budget[0] -= len(old)
                    if lines[i:i + len(old)] == old:
                        return i
            if budget[0] < 0:
                return None
    return None


def _current(root: str, path: str, overrides: Mapping[str, bytes | None]) -> bytes | None:
    """A file's bytes in the patched tree so far (None: absent), read without following links. The
    path is the patch's: a name the file system refuses (too long, say) is the patch's PatchError."""
    if path in overrides:
        return overrides[path]
    _check_lengths(path)
    try:
        fd = _open_in(root, path)
    except OSError as e:
        raise PatchError(f"{path[:120]!r}: the file system refuses this path ({os.strerror(e.errno or 0)})") from None
    if fd is None:
        return None
    with os.fdopen(fd, "rb") as fh:
        return fh.read()


def read_current(root: str, path: str, overrides: Mapping[str, bytes | None]) -> bytes | None:
    """A file of the patched tree (None: absent, or a path the file system refuses)."""
    try:
        return _current(root, path, overrides)
    except PatchError:
        return None


def _check_lengths(path: str) -> None:
    """PatchError for a path no Linux file system takes (a part over NAME_MAX bytes, the whole over
    PATH_MAX): refused here, not when the sandbox unpacks the tree."""
    raw = path.encode("utf-8", "surrogateescape")
    if len(raw) > PATH_MAX or any(len(p) > NAME_MAX for p in raw.split(b"/")):
        raise PatchError(f"{path[:120]!r}...: a file name is over {NAME_MAX} bytes or the path over {PATH_MAX}")


def _open_in(root: str, path: str) -> int | None:
    """The regular file `path` under `root`, opened part by part with O_NOFOLLOW; None if absent.
    A link or other special file on the way is PatchError (a patch edits regular files only)."""
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC
    parts = path.split("/")
    fd = os.open(root, flags | os.O_DIRECTORY)
    try:
        for k, part in enumerate(parts):
            last = k == len(parts) - 1
            try:
                st = os.stat(part, dir_fd=fd, follow_symlinks=False)
            except FileNotFoundError:
                return None
            if last and stat.S_ISREG(st.st_mode):
                return os.open(part, flags, dir_fd=fd)
            if last or not stat.S_ISDIR(st.st_mode):
                raise PatchError(f"{path}: {'/'.join(parts[:k + 1])} is not a regular file or directory of the repository")
            nxt = os.open(part, flags | os.O_DIRECTORY, dir_fd=fd)
            os.close(fd)
            fd = nxt
        return None
    finally:
        os.close(fd)


def tree_kind(root: str, path: str) -> str | None:
    """What the environment's tree has at `path`: "file", "dir" or None (absent, a link, anything else,
    or a name the file system refuses), looked up part by part without following a link."""
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_DIRECTORY
    parts = path.split("/")
    try:
        fd = os.open(root, flags)
    except OSError:
        return None
    try:
        for k, part in enumerate(parts):
            st = os.stat(part, dir_fd=fd, follow_symlinks=False)
            if k == len(parts) - 1:
                return "file" if stat.S_ISREG(st.st_mode) else "dir" if stat.S_ISDIR(st.st_mode) else None
            if not stat.S_ISDIR(st.st_mode):
                return None
            nxt = os.open(part, flags, dir_fd=fd)
            os.close(fd)
            fd = nxt
    except OSError:
        return None
    finally:
        os.close(fd)
    return None


def config_texts(root: str, overrides: Mapping[str, bytes | None]) -> tuple[dict[str, str], dict[str, str]]:
    """pyproject.toml's and setup.cfg's texts at the root before and after the patch (check_config_sections)."""
    before, after = {}, {}
    for name in ("pyproject.toml", "setup.cfg"):
        was = _current(root, name, {})
        now = _current(root, name, overrides)
        before[name] = (was or b"").decode("utf-8", "replace")
        after[name] = (now or b"").decode("utf-8", "replace")
    return before, after


def tree_tar(root: str, overrides: Mapping[str, bytes | None]) -> bytes:
    """The patched tree as an uncompressed tar (regular files, directories and links as the
    environment has them; `.git` left out). Members are named `repo/...`; sorted, with fixed owners
    and times, so the same tree is the same bytes. Each member is added once, and TREE_MAX_BYTES
    bounds the whole archive: the environment's part over it, or unreadable, is the environment's
    fault (OSError: the caller's InfraFailure), the patch's files taking it over are the patch's (PatchError).
    A task's sandbox gets `task_tar` and `view_listing` instead (docs/repo-tasks.md "Warm environments"):
    this whole copy is for a session's tree and a baseline's `docker run`."""
    buf = io.BytesIO()
    dirs: set[str] = set()  # the directories in the archive, relative to the tree's root
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.PAX_FORMAT) as tar:
        _add(tar, "repo", None, 0o755)
        _add_environment(tar, root, overrides, dirs)
        if buf.tell() > TREE_MAX_BYTES:
            raise OSError(f"the environment's tree is over {TREE_MAX_BYTES >> 20} MiB")
        _add_overrides(tar, buf, overrides, dirs)
    return buf.getvalue()


def task_tar(overrides: Mapping[str, bytes | None]) -> bytes:
    """The task's own files as an uncompressed tar: what its patch, its test patch and the decoys
    wrote (every new or changed file, `repo/...`, with the directories above it once each), and
    nothing of the environment's, which the sandbox links to (`view_listing`). TREE_MAX_BYTES bounds
    it: the patch's files over it are the patch's failure (PatchError)."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.PAX_FORMAT) as tar:
        _add(tar, "repo", None, 0o755)
        _add_overrides(tar, buf, overrides, set())
    return buf.getvalue()


def _add_overrides(tar: tarfile.TarFile, buf: io.BytesIO, overrides: Mapping[str, bytes | None], dirs: set[str]) -> None:
    """The patch's files, each new directory once (`dirs`: those in the archive already)."""
    try:  # the patch's files: what goes wrong with them is the patch's (docs/repo-tasks.md "Verdicts")
        for path, data in sorted(overrides.items()):
            if data is None:
                continue
            for parent in _parents(path):  # a new file's directories the environment lacks, once each
                if parent not in dirs:
                    dirs.add(parent)
                    _add(tar, "repo/" + parent, None, 0o755)
            _add(tar, "repo/" + path, data, 0o644)
            if buf.tell() > TREE_MAX_BYTES:
                raise PatchError(f"the patched tree is over {TREE_MAX_BYTES >> 20} MiB as an archive")
    except (OSError, ValueError, tarfile.TarError) as e:
        if isinstance(e, PatchError):
            raise
        raise PatchError(f"the patched tree cannot be written as an archive: {type(e).__name__}: {str(e)[:200]}") from None


@dataclass(frozen=True)
class View:
    """The environment's part of a task's tree, as the sandbox makes it (docs/repo-tasks.md "Warm
    environments"): its directories (made), its files (each a link to the read-only tree), its own
    links (copied), the files it holds as copies of the read-only tree's (`copies`: what code may resolve
    its own path from, sandbox/repo_job.py `copied`), every path relative to the tree's root, parents
    first; the patched and deleted files left out (the task's own, `task_tar`)."""

    dirs: tuple[str, ...]
    files: tuple[str, ...]
    links: tuple[tuple[str, str], ...]
    size: int = 0  # the listed files' sizes, links' and copies': what a test run may read of the tree (and its kernel cache)
    copies: tuple[str, ...] = ()
    copy_bytes: int = 0  # the copies' sizes, each rounded up to a 4 KiB page: what they take of /work (a tmpfs)
    link_bytes: int = 0  # a page for each link (a file's or its own) whose target is too long for its inode (INLINE_LINK)

    def tree_bytes(self) -> int:
        """What the environment's part takes of the tree's tmpfs (sandbox/backend.py TREE_MOUNT): its copies and its
        long links' pages (red team rt33s: 4,600 links at long paths filled a 20 MiB tree the copies alone fit)."""
        return self.copy_bytes + self.link_bytes

    def entries(self) -> int:
        return len(self.dirs) + len(self.files) + len(self.links) + len(self.copies)

    def json(self) -> bytes:
        return json.dumps([self.dirs, self.files, self.links, self.copies], separators=(",", ":")).encode()


def view_listing(root: str, overrides: Mapping[str, bytes | None], copy: Callable[[str], bool] = lambda path: False,
                 link_root: str = "") -> View:
    """The environment's tree less what the task overrides (View; the regular files `copy` names as
    copies, the others as links to `link_root`/PATH: sandbox/backend.py ENV_MOUNT). OSError when it cannot be read,
    or when a file or folder of it is writable by others than its owner or owned by another user
    than root or this server (`sealed`): the environment's fault, never the patch's."""
    dirs: list[str] = []
    files: list[str] = []
    links: list[tuple[str, str]] = []
    copies: list[str] = []
    size = copy_bytes = link_bytes = 0
    sealed(os.lstat(root), ".")
    for dirpath, dirnames, filenames in os.walk(root, onerror=_raise):
        dirnames[:] = sorted(d for d in dirnames if d != ".git")
        rel = os.path.relpath(dirpath, root)
        prefix = "" if rel == "." else rel + "/"
        for name in sorted(filenames + [d for d in dirnames if os.path.islink(os.path.join(dirpath, d))]):
            path = prefix + name
            if path in overrides:
                continue
            st = os.lstat(os.path.join(dirpath, name))
            sealed(st, path)
            if stat.S_ISLNK(st.st_mode):
                links.append((path, os.readlink(os.path.join(dirpath, name))))
                link_bytes += _link_page(links[-1][1])
            elif stat.S_ISREG(st.st_mode):
                size += st.st_size
                if copy(path):
                    copies.append(path)
                    copy_bytes += pages(st.st_size)
                else:
                    files.append(path)
                    link_bytes += _link_page(f"{link_root}/{path}")
        dirnames[:] = [d for d in dirnames if not os.path.islink(os.path.join(dirpath, d))]
        for d in dirnames:
            sealed(os.lstat(os.path.join(dirpath, d)), prefix + d)
        dirs.extend(prefix + d for d in dirnames)
    return View(tuple(dirs), tuple(files), tuple(links), size, tuple(copies), copy_bytes, link_bytes)


def pages(size: int) -> int:
    """The bytes a file of `size` bytes takes of a tmpfs (the tree's, sandbox/backend.py TREE_MOUNT): whole 4 KiB pages,
    on Linux's tmpfs and gVisor's alike (a one-line file is a page; an empty one none)."""
    return -(-size // PAGE) * PAGE


def own_bytes(overrides: Mapping[str, bytes | None], paths: Iterable[str]) -> int:
    """What the task's own files at `paths` (of `overrides`: the archive task_tar writes into the tree) take of the
    tree's tmpfs, a file's bytes in pages (`pages`); a deleted file (None) takes none. The host's bound adds the
    dataset's part (test patch, decoys, support files) to the environment's (View.tree_bytes): sandbox/repo_job.py
    `_tree_view`."""
    return sum(pages(len(data)) for path in paths if (data := overrides.get(path)) is not None)


def _link_page(target: str) -> int:
    """The bytes of the tree's tmpfs a link to `target` takes: a page past INLINE_LINK, none within its inode."""
    return PAGE if len(os.fsencode(target)) > INLINE_LINK else 0


def sealed(st: os.stat_result, path: str) -> None:
    """An environment's file or folder must not be writable by a task through permissions alone: the
    read-only mount is not enough under gVisor, whose runsc (0.0~20240729.0) let a task's
    `open(path, "w")` truncate a file writable by others at a read-only bind (docs/repo-tasks.md
    "Warm environments"). So none is writable by group or others, and each is owned by root or by
    this server (gVisor shows another host user's files as `nobody`, the program's own uid there)."""
    if not stat.S_ISLNK(st.st_mode) and (st.st_mode & 0o022 or st.st_uid not in (0, os.getuid())):
        raise OSError(f"{path} is writable by others than its owner or owned by another user "
                      f"(mode {stat.S_IMODE(st.st_mode):o}, uid {st.st_uid}): `chmod -R go-w` the environment")


def _raise(e: OSError) -> None:
    raise e


def _add_environment(tar: tarfile.TarFile, root: str, overrides: Mapping[str, bytes | None], dirs: set[str]) -> None:
    """The environment's own members (every file the patch does not override), noting its directories."""
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d != ".git")
        rel = os.path.relpath(dirpath, root)
        for d in dirnames:
            if os.path.islink(os.path.join(dirpath, d)):
                continue  # a link to a directory: os.walk does not enter it; added with the files below
            dirs.add(_member(rel, d)[len("repo/"):])
            _add(tar, _member(rel, d), None, 0o755)
        for name in sorted(filenames + [d for d in dirnames if os.path.islink(os.path.join(dirpath, d))]):
            path = _member(rel, name)[len("repo/"):]
            if path in overrides:
                continue
            full = os.path.join(dirpath, name)
            st = os.lstat(full)
            if stat.S_ISLNK(st.st_mode):
                info = tarfile.TarInfo(_member(rel, name))
                info.type, info.linkname, info.mode = tarfile.SYMTYPE, os.readlink(full), 0o777
                tar.addfile(info)
            elif stat.S_ISREG(st.st_mode):
                with open(full, "rb") as fh:
                    _add(tar, _member(rel, name), fh.read(), 0o755 if st.st_mode & 0o100 else 0o644)
        if tar.fileobj.tell() > TREE_MAX_BYTES:
            return  # the caller raises: stop reading an environment that is too big


def _member(rel: str, name: str) -> str:
    return "repo/" + (name if rel == "." else f"{rel}/{name}")


def _add(tar: tarfile.TarFile, name: str, data: bytes | None, mode: int) -> None:
    info = tarfile.TarInfo(name)
    info.mode, info.mtime = mode, 0
    if data is None:
        info.type = tarfile.DIRTYPE
        tar.addfile(info)
    else:
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))

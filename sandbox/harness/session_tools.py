"""The tools of a session on a repository environment (docs/sessions.md "Sessions on an environment").
Standard library only; run by PID 1 (session_box.py), whose effective uid is the program's, so every
file it writes or reads here is with the program's rights, never the judge's.

- `link_tree`: the session's tree in /work over the environment's, read-only at ENV: a link per
  file (the lower layer), replaced by a file of the session's own when it writes one (the upper).
- `run_shell`: one `sh -c COMMAND` as the program's uid, its own CPU and wall limit and output
  cap; on a limit its process group is killed and the session goes on.
- `write_file`, `list_dir`: below /work, never through a link at any step.
- `snapshot`: the tree's regular files and links as data, what the host diffs against the
  environment to grade the session (sandbox/session.py).
- `record_base`, `delta`, `apply_delta`: fork and snapshot (docs/sessions.md "Fork and snapshot"):
  what changed since the environment's tree was unpacked, found by inode and ctime (a change to a
  file's data, mode or name sets its ctime, which no process of the program can set back), so only
  the changed files are read and sent; a fork links the environment and applies them.
"""
from __future__ import annotations

import errno
import heapq
import itertools
import json
import os
import select
import selectors
import signal
import socket
import stat
import sys
import time
from collections.abc import Iterator

import accounting
import job_protocol
import pid1
import program_limits

SKIP_DIRS = (".git", "__pycache__", ".pytest_cache")  # never part of a snapshot (docs/sessions.md)
FSIZE_MAX = 64 << 20
ENTRIES_MAX_BYTES = 8 << 20  # the snapshot's listing (sandbox/session.py reads at most this)
ENV = "/srv"  # the environment's tree, read-only (sandbox/backend.py ENV_MOUNT)
DEPTH_MAX = 128
"""Folders nested below /work at most, for every walk of a session's tree out of its box: a fork's or
snapshot's changes (`delta`, `apply_delta`) and a grade's read (`snapshot`) (docs/sessions.md "Fork and
snapshot", "Grading a session"). A walk holds an open fd per level, and PID 1 may open 256 files
(sandbox/config.py nofile_limit), some already its own; a real repository's tree is a few dozen levels
deep at most. Past it the session's tree is refused by name as its own ("depth" for a fork or snapshot,
`wrong_answer` for a grade), never read until the fds run out (a grade's unbounded walk met "Too many
open files" near 250 levels, a detail that named no bound)."""
PATH_MAX = DEPTH_MAX * 256  # a tool path's characters at most (NAME_MAX 255 and a slash a part): verifier/sessions.py PATH_MAX_CHARS
EXIT_GRACE_S = 0.2  # after the shell exits, how long its output may still come from what it left
# The environment's tree as unpacked (record_base): relative path -> (kind, inode, ctime_ns, size).
BASE: dict[str, tuple[str, int, int, int]] = {}
# Folders (relative path with its "/", "" for /work) that held only links and folders when recorded:
# path -> (inode, ctime_ns, ((name, kind), ...)) (_walk_stats `settled`).
SETTLED: dict[str, tuple[int, int, tuple[tuple[str, str], ...]]] = {}


TREES = ("copy", "layers")  # verifier/config.py session_tree


def link_tree(tree: str = "layers") -> None:
    """The session's tree over the environment's, read-only at ENV (docs/sessions.md "The layers"):
    its folders made in /work, the environment's own links copied, and for every file either a link
    to ENV/PATH (`tree` "layers": the lower layer, shared by every box of the environment, never
    copied; what the session writes replaces a link with a file of its own, the upper layer, and a
    write in place through a link is refused, EROFS) or a copy of it, the session's own file
    (`tree` "copy": a write in place works as in a real repository). Read by file type (scandir),
    one syscall an entry: a spare box of the environment does this before its session comes
    (session_box.py "prepare"), so a fork pays only for the changes in either mode."""
    if tree not in TREES:
        raise ValueError(f"tree must be one of {TREES}, not {tree!r}")
    stack = [""]
    while stack:
        rel = stack.pop()
        with os.scandir(f"{ENV}/{rel}") as it:
            for entry in it:
                if entry.name == ".git":
                    continue  # the environment has none (env build removes it); never a layer's
                dest = f"{pid1.WORK}/{rel}{entry.name}"
                if entry.is_symlink():
                    os.symlink(os.readlink(entry.path), dest)
                elif entry.is_dir(follow_symlinks=False):
                    os.mkdir(dest, 0o755)
                    stack.append(f"{rel}{entry.name}/")
                elif entry.is_file(follow_symlinks=False) and tree == "layers":
                    os.symlink(f"{ENV}/{rel}{entry.name}", dest)
                elif entry.is_file(follow_symlinks=False):
                    _copy_lower(entry.path, dest)


def _copy_lower(src: str, dest: str) -> None:
    """A file of the environment copied into /work as the session's own (link_tree "copy"): its
    bytes, and 0755 when the environment's is executable by its owner, else 0644 (as a repo job's
    tree: sandbox/repo/apply.py). The source is opened without following a link."""
    fd = os.open(src, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise OSError(errno.EINVAL, f"{src} is not a regular file")
        mode = 0o755 if st.st_mode & 0o100 else 0o644
        out = os.open(dest, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, mode)
        try:
            os.fchmod(out, mode)  # past PID 1's umask (pid1.py), as a repo job's tree
            left = st.st_size
            while left > 0:
                sent = os.sendfile(out, fd, None, min(left, 1 << 24))
                if sent == 0:
                    break
                left -= sent
        finally:
            os.close(out)
    finally:
        os.close(fd)


def open_lower(dir_fd: int, name: str) -> int | None:
    """A file of the lower layer that the link `name` in dir_fd leads to (a link link_tree made, or
    one the session moved or copied: its target is ENV/PATH), opened read-only without following a
    link below ENV; None when `name` is no such link or leads to no regular file. So a file the
    session did not change reads, lists and grades as the file it stands for."""
    try:
        target = os.readlink(name, dir_fd=dir_fd)
    except OSError:
        return None
    parts = target[len(ENV) + 1:].split("/") if target.startswith(ENV + "/") else []
    if not parts or any(p in ("", ".", "..") for p in parts):
        return None
    fd = os.open(ENV, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for part in parts[:-1]:
            nfd = open_nofollow(fd, part, os.O_RDONLY | os.O_DIRECTORY)
            os.close(fd)
            fd = nfd
        out = open_nofollow(fd, parts[-1], os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return None
    finally:
        os.close(fd)
    if not stat.S_ISREG(os.fstat(out).st_mode):
        os.close(out)
        return None
    return out


def _walk_stats(settled: bool = False, max_depth: int = 0, skip: tuple[str, ...] = (),
                stats: bool = True) -> Iterator[tuple[str, str, os.stat_result | None, int, str]]:
    """(relative path, kind, stat, dir fd, name) of every entry below /work, depth first, never
    following a link; `kind` is f (regular), l (link), d (directory) or o (other). With `settled`, a
    folder that SETTLED holds unchanged (the same inode and ctime: no entry of it was added, removed,
    renamed or replaced since record_base) yields its recorded entries with no stat (None): they are
    links and folders, and a link cannot change in place. So a fork reads one stat per folder of the
    environment, not one per file (gVisor: 97 ms for 2,048 files before). Without `stats` (a grade's
    read) no entry is stat'ed: its kind is the folder listing's (the file's own checks come when it is
    opened: open_nofollow).

    One open fd per level (the folder being listed and its ancestors, each holding the names of its
    folders still to walk), so a walk holds at most its depth plus one, however wide a folder is;
    with `max_depth`, a folder nested deeper raises TooDeep before it is opened (docs/sessions.md
    "Fork and snapshot"). A folder named in `skip` is yielded, never walked. A folder is listed as it
    is read, an entry at a time, never held whole: the walk's caller counts each entry and stops at its
    bound (_Listing), so a folder of a million names costs PID 1 what its caller keeps, no more (red
    team rt30y). The order within a folder is the folder's own, not sorted (sorting holds every name)."""
    frames: list[tuple[str, int, list[str]]] = []  # (relative path, fd, its folders not walked yet)
    try:
        frames.append(("", os.open(pid1.WORK, os.O_RDONLY | os.O_DIRECTORY), []))
        yield from _folder_stats(*frames[-1], settled, skip, stats)
        while frames:
            rel, fd, todo = frames[-1]
            if not todo:
                frames.pop()
                os.close(fd)
                continue
            name = todo.pop()
            if max_depth and rel.count("/") + 1 > max_depth:
                raise TooDeep(rel.count("/") + 1)
            frames.append((f"{rel}{name}/", open_nofollow(fd, name, os.O_RDONLY | os.O_DIRECTORY), []))
            yield from _folder_stats(*frames[-1], settled, skip, stats)
    finally:
        for _, fd, _ in frames:
            os.close(fd)


def _folder_stats(rel: str, fd: int, todo: list[str], settled: bool, skip: tuple[str, ...], stats: bool = True
                  ) -> Iterator[tuple[str, str, os.stat_result | None, int, str]]:
    """_walk_stats's entries of one open folder, read as they come (scandir), its folders' names added
    to `todo` once yielded (walked last first)."""
    known = None
    if settled:
        st_dir = os.fstat(fd)
        known = SETTLED.get(rel)
        if known is not None and known[:2] != (st_dir.st_ino, st_dir.st_ctime_ns):
            known = None
    if known is not None:
        for name, kind in known[2]:
            yield f"{rel}{name}", kind, None, fd, name
            if kind == "d":
                todo.append(name)
        return
    with os.scandir(fd) as it:
        for entry in it:
            name = entry.name
            st = entry.stat(follow_symlinks=False) if stats else None
            if st is not None:
                kind = ("d" if stat.S_ISDIR(st.st_mode) else "l" if stat.S_ISLNK(st.st_mode)
                        else "f" if stat.S_ISREG(st.st_mode) else "o")
            else:
                kind = ("d" if entry.is_dir(follow_symlinks=False) else "l" if entry.is_symlink()
                        else "f" if entry.is_file(follow_symlinks=False) else "o")
            yield f"{rel}{name}", kind, st, fd, name
            if kind == "d" and name not in skip:
                todo.append(name)


class TooDeep(Exception):
    """A folder nested deeper than DEPTH_MAX (its depth: the first one found past it)."""

    def __init__(self, depth: int) -> None:
        super().__init__(depth)
        self.depth = depth


class Over(Exception):
    """A walk past one of its bounds (_Listing's "entries", "names" or "time"; delta's "work"): what it
    reached (at least) and the bound."""

    def __init__(self, bound: str, need: int, cap: int) -> None:
        super().__init__(bound, need, cap)
        self.bound, self.need, self.cap = bound, need, cap


class _Listing:
    """A walk's listing as it is built (`snapshot` for a grade, `delta` for a fork or snapshot), every bound
    checked as the thing it bounds grows, never after (red team rt30y: 100 nested 255-byte folders and 3,500
    files below them, each path about 25 KB of JSON six characters a byte, were held whole, then as JSON text,
    then as bytes, and only then measured: PID 1 went over the session's memory). `count` an entry walked
    (Over "entries" past the head's `max_files`), `add` an entry held, its JSON and separator counted before
    it is kept (Over "names" past ENTRIES_MAX_BYTES: the listing is json.dumps of the list, whose size is
    that sum), and both check the walk's time (Over "time" past the head's `walk_s`, the host's budget for
    the walk, well under its wait for the answer: sandbox/session.py TREE_WALK_S)."""

    def __init__(self, head: dict) -> None:
        self.entries: list[list] = []
        self.size = self.counted = 0
        self.max_entries, self.walk_s = int(head["max_files"]), float(head["walk_s"])
        self.deadline = time.monotonic() + self.walk_s

    def tick(self) -> None:
        if time.monotonic() > self.deadline:
            raise Over("time", int(self.walk_s), int(self.walk_s))

    def count(self) -> None:
        self.counted += 1
        if self.counted > self.max_entries:
            raise Over("entries", self.counted, self.max_entries)
        self.tick()

    def add(self, entry: list) -> None:
        self.size += len(json.dumps(entry)) + 2  # ", " before each but the first, "[" and "]" around
        if self.size > ENTRIES_MAX_BYTES:
            raise Over("names", self.size, ENTRIES_MAX_BYTES)
        self.entries.append(entry)
        self.tick()

    def dump(self) -> bytes:
        return json.dumps(self.entries).encode()


def record_base() -> None:
    """Remember the tree just linked (delta compares with it: each entry, and SETTLED for each folder
    holding only links and folders), then wait until the clock that stamps ctime has moved past every
    stamp recorded: a change made later never carries a stamp equal to one recorded (the kernel's
    file clock is coarse, a few ms a tick)."""
    BASE.clear()
    SETTLED.clear()
    newest = 0
    folders: dict[str, list[tuple[str, str]] | None] = {"": []}
    for rel, kind, st, _, name in _walk_stats():
        assert st is not None
        BASE[rel] = (kind, st.st_ino, st.st_ctime_ns, st.st_size)
        newest = max(newest, st.st_ctime_ns)
        parent = rel[:len(rel) - len(name)]
        if kind == "d":
            folders[rel + "/"] = []
        children = folders.get(parent)
        if children is not None:
            folders[parent] = children + [(name, kind)] if kind in "ld" else None
    for rel, children in folders.items():
        st = os.stat(f"{pid1.WORK}/{rel}", follow_symlinks=False)
        if children is not None:
            SETTLED[rel] = (st.st_ino, st.st_ctime_ns, tuple(children))
        newest = max(newest, st.st_ctime_ns)
    probe = os.path.join("/tmp", ".session-clock")
    with open(probe, "wb"):
        pass
    try:
        for _ in range(1000):
            os.utime(probe)
            if os.stat(probe).st_ctime_ns > newest:
                break
            time.sleep(0.001)
    finally:
        os.unlink(probe)


PAGE = 4096  # a tmpfs holds a file in whole pages


def _pages(size: int) -> int:
    return -(-size // PAGE) * PAGE


def delta(head: dict) -> tuple[dict, dict[str, bytes | bytearray]]:
    """What changed below /work since record_base: entries [path, "f", size, executable] (data in
    the `data` blob, in order), [path, "h", first] (a hard link to the file carried at `first`),
    [path, "l", target], [path, "d"] and [path, "x"] (removed); at most `max_files` entries. A fifo,
    socket or device is not carried (named in `skipped`). Unchanged means the same inode, ctime and
    size as linked, or a folder unchanged that held only links and folders (SETTLED).

    Bounded where it is built (docs/sessions.md "Fork and snapshot"): `max` is what a fork's /work
    holds, and the files a box started from these changes would hold (each inode's apparent size in
    whole pages: a sparse file written out in full, hard links once, the copied tree's unchanged files
    too) are summed from their stats first; past `max` the answer is `too_large` with no file read, so
    PID 1 never holds more than a fork can take (red-team rt34: 240 MB of sparse files read whole lost
    the parent on Docker, and a fork's box ran out of /work applying 150 MB). Then, before any file is
    read, the changed files' bytes are held to `max_data` (what the server keeps) and, with `mem` (the
    bytes a fork's memory limit leaves beside its processes), what the fork's box needs to take them
    (_memory_need). A folder nested over DEPTH_MAX deep is refused the same way ("depth"), so every walk
    here and in apply_delta holds at most DEPTH_MAX + 1 open folders (red-team rt30w). The changes' count
    (`max_files`: a fifo, socket or device counted too), their listing's size (ENTRIES_MAX_BYTES) and the
    walk's time (`walk_s`) are checked as each entry is added (_Listing: "entries", "names", "time"), so
    PID 1 holds no more than a fork takes (red-team rt30y); what it keeps of the unchanged tree is only
    the environment's own paths (`seen`, BASE's)."""
    cap = int(head["max"])
    max_data, mem = int(head.get("max_data") or cap), int(head.get("mem") or 0)
    listing = _Listing(head)
    entries = listing.entries
    skipped: list[str] = []
    try:
        seen, held = _changes(listing, cap, skipped)
        changed = sum(int(e[2]) for e in entries if e[1] == "f")
        if changed > max_data:
            return _too_large("data", changed, max_data)
        if mem and _memory_need(changed, held) > mem:
            return _too_large("memory", _memory_need(changed, held), mem)
        data = _read_changed(entries, min(cap - held, max_data - changed), listing)
        if data is None:  # a file grew while it was read
            return _too_large("work", cap + 1, cap)
        for rel in BASE:
            if rel not in seen:
                listing.add([rel, "x"])
    except TooDeep as e:
        return _too_large("depth", e.depth, DEPTH_MAX)
    except Over as e:
        return _too_large(e.bound, e.need, e.cap)
    except OSError as e:
        return {"ok": False, "detail": f"the tree could not be read: {e.strerror}"}, {}
    return {"ok": True, "skipped": skipped}, {"entries": listing.dump(), "data": data}


def _changes(listing: _Listing, cap: int, skipped: list[str]) -> tuple[set[str], int]:
    """delta's walk: each change added to `listing` (a fifo, socket or device counted, the first
    SKIPPED_NAMED named in `skipped`); the environment's paths still there, and what a box started from
    the changes holds in /work (Over "work" past `cap`, no file read)."""
    seen: set[str] = set()  # the environment's paths still there (the rest are removed: "x")
    inodes: dict[tuple[int, int], str | None] = {}  # a linked file's inode -> its path carried as "f", if any
    held = 0
    for rel, kind, st, fd, name in _walk_stats(settled=True, max_depth=DEPTH_MAX):
        listing.tick()
        if rel in BASE:
            seen.add(rel)
        if st is None:  # in a folder unchanged since record_base: a link or a folder as recorded
            continue
        key = (st.st_dev, st.st_ino)
        if kind == "f" and (st.st_nlink < 2 or key not in inodes):
            held += _pages(st.st_size)
            if held > cap:
                raise Over("work", held, cap)
            if st.st_nlink > 1:
                inodes[key] = None
        change = _change(rel, kind, st, fd, name, inodes)
        if change is None:
            continue
        listing.count()
        if change[1] != "o":
            listing.add(change)
        elif len(skipped) < SKIPPED_NAMED:
            skipped.append(rel)
    return seen, held


SKIPPED_NAMED = 20  # a delta's fifos, sockets and devices named in its answer (the rest counted, never held)


def _change(rel: str, kind: str, st: os.stat_result, fd: int, name: str,
            inodes: dict[tuple[int, int], str | None]) -> list | None:
    """delta's entry for one entry of /work, None when it is as record_base saw it; kind "o" for one
    not carried. A file of several names is carried once, as "f" at the first name delta changes, and
    as "h" (a hard link to it) at the others: a fork holds it once, as its parent does."""
    if BASE.get(rel) == (kind, st.st_ino, st.st_ctime_ns, st.st_size) and kind != "d":
        return None
    if kind == "d":
        return None if BASE.get(rel, ("",))[0] == "d" else [rel, "d"]
    if kind == "l":
        return [rel, "l", os.readlink(name, dir_fd=fd)]
    if kind != "f":
        return [rel, "o"]
    key = (st.st_dev, st.st_ino)
    first = inodes.get(key)
    if first is not None:
        return [rel, "h", first]
    if st.st_nlink > 1:
        inodes[key] = rel
    return [rel, "f", st.st_size, bool(st.st_mode & 0o100)]


def _memory_need(changed: int, held: int) -> int:
    """About what a box needs in memory, beside its processes, to start from changes of `changed` bytes
    whose /work holds `held`: PID 1 receives the changes (framing.Inbox: its buffer, a slice and the
    bytes, three copies for a moment), then writes them into /work (a tmpfs of its memory) beside the
    rest, one copy still held."""
    return max(3 * changed, changed + held)


TOO_LARGE = {  # delta's bounds, by what they hold (the host names the setting behind each)
    "work": "hold {} bytes or more in /work (each file at its apparent size, a sparse file in full, in whole "
            "pages), over the {} bytes a session's /work holds",
    "data": "carry {} bytes of changed files, over the {} bytes kept for a fork or snapshot",
    "memory": "need about {} bytes of memory to take them (the changed files' bytes three times while they arrive, "
              "or once beside what /work holds), over the {} bytes its memory limit leaves",
    "depth": "nest folders {} deep, over the {} levels a fork or snapshot walks (an open folder a level)",
    "entries": "carry {} changed entries or more (files, links, folders and others), over the {} a fork or "
               "snapshot carries",
    "names": "carry {} bytes of names or more in their listing (as JSON), over the {} bytes a fork's or "
             "snapshot's listing holds",
    "time": "take over {} s to read (the walk of its tree), over the {} s a fork or snapshot may take",
}


def _too_large(bound: str, need: int, cap: int) -> tuple[dict, dict[str, bytes | bytearray]]:
    """delta's answer past one of its bounds (TOO_LARGE): what a box would need (at least), and the bound."""
    return {"ok": False, "too_large": bound, "need": need, "max": cap,
            "detail": "a session started from these files would " + TOO_LARGE[bound].format(need, cap)}, {}


def _read_changed(entries: list[list], slack: int, listing: _Listing) -> bytearray | None:
    """The bytes of the "f" entries, read by path in order (after delta's stats: none read when the
    changes are too large), each at most its stat's size plus `slack` (what is left of the bound: a
    file that grew since) and its entry's size set to what was read; None past the bound. One
    bytearray, sent as it is (framing writes any buffer): no second copy in PID 1. The walk's time
    (`listing`) is checked a file."""
    data = bytearray()
    dirs = _Dirs()
    try:
        for entry in entries:
            if entry[1] != "f":
                continue
            listing.tick()
            parts = entry[0].split("/")
            blob = _read_regular(dirs.open(parts[:-1]), parts[-1], int(entry[2]) + slack)
            if blob is None:
                return None
            slack -= _pages(len(blob)) - _pages(int(entry[2]))
            if slack < 0:
                return None
            entry[2] = len(blob)
            data += blob
    finally:
        dirs.close()
    return data


class _Dirs:
    """A folder below /work by its parts, opened without following a link at any step: a stack of
    fds, /work's and one for each folder down to the last one opened, so a path reuses the longest
    prefix it shares with the last and opens only the levels below it. Paths in walk order (a
    folder's entries, then its folders') cost one open a folder in all, whatever the tree's shape;
    any order at most one a level (DEPTH_MAX) per path. Red team rt34: a chain of 1,000 folders
    walked from /work per entry (4.1 s on Docker, 45.5 s on gVisor to fork it); rt30w: a side folder
    at every level moved the one fd kept then off the chain (1,500 levels: 1.13 M opens, 32 s).
    `open` lends the fd (closed here); over DEPTH_MAX levels is a ValueError."""

    def __init__(self, create: bool = False) -> None:
        self.create = create
        self.parts: list[str] = []
        self.fds: list[int] = []  # fds[i]: the folder parts[:i]

    def open(self, parts: list[str]) -> int:
        if len(parts) > DEPTH_MAX:
            raise ValueError(f"{'/'.join(parts)!r} is over {DEPTH_MAX} folders deep")
        if not self.fds:
            self.fds.append(os.open(pid1.WORK, os.O_RDONLY | os.O_DIRECTORY))
        keep = 0
        while keep < min(len(parts), len(self.parts)) and parts[keep] == self.parts[keep]:
            keep += 1
        self._keep(keep)
        for part in parts[keep:]:
            if self.create:
                try:
                    os.mkdir(part, 0o755, dir_fd=self.fds[-1])
                except FileExistsError:
                    pass
            self.fds.append(open_nofollow(self.fds[-1], part, os.O_RDONLY | os.O_DIRECTORY))
            self.parts.append(part)
        return self.fds[-1]

    def _keep(self, levels: int) -> None:
        """Close the folders below the first `levels` of the last path."""
        while len(self.parts) > levels:
            self.parts.pop()
            os.close(self.fds.pop())

    def forget(self, parts: list[str]) -> None:
        """`parts` (or a folder below it) is about to be removed or replaced: never reuse its fd (its
        parent's is kept)."""
        if self.parts[:len(parts)] == parts:
            self._keep(len(parts) - 1)

    def close(self) -> None:
        self._keep(0)
        while self.fds:
            os.close(self.fds.pop())


def _remove_at(dir_fd: int, name: str) -> None:
    """Remove `name` in the folder dir_fd (a file, a link, or a folder and all below it, each folder
    opened from its parent's fd: one open a folder, one fd a level)."""
    try:
        st = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
        if not stat.S_ISDIR(st.st_mode):
            os.unlink(name, dir_fd=dir_fd)
            return
        sub = open_nofollow(dir_fd, name, os.O_RDONLY | os.O_DIRECTORY)
        try:
            for child in os.listdir(sub):
                _remove_at(sub, child)
        finally:
            os.close(sub)
        os.rmdir(name, dir_fd=dir_fd)
    except FileNotFoundError:
        pass


class _Staged:
    """Files of several names while a delta is applied: each "f" entry that an "h" entry names is
    linked once more, under its number, into a folder made in /work for the apply (one fd), and each
    other name is linked from there, so no name walks to its first one (in any order of names, one
    open folder). The folder is removed when the apply ends."""

    def __init__(self, entries: list[list]) -> None:
        self.firsts = {"/".join(_parts(e[2], False) or []) for e in entries if e[1] == "h"}
        self.tops = {(_parts(e[0], False) or [""])[0] for e in entries}
        self.names: dict[str, str] = {}
        self.name, self.fd = "", -1

    def keep(self, parts: list[str], dir_fd: int) -> None:
        """The file just written at `parts` (in dir_fd), staged when an "h" entry names it."""
        path = "/".join(parts)
        if path not in self.firsts:
            return
        if self.fd < 0:
            self._make()
        staged = self.names[path] = str(len(self.names))
        os.link(parts[-1], staged, src_dir_fd=dir_fd, dst_dir_fd=self.fd, follow_symlinks=False)

    def link(self, first: str, name: str, dir_fd: int) -> None:
        staged = self.names.get("/".join(_parts(first, False) or []))
        if staged is None:
            raise ValueError(f"{first!r} is not a file carried before its link")
        os.link(staged, name, src_dir_fd=self.fd, dst_dir_fd=dir_fd, follow_symlinks=False)

    def _make(self) -> None:
        """The folder, under the first `.fork-links-N` that neither /work nor the changes hold: one is always
        free among as many names as both hold plus one (a session that made `.fork-links-0..99` once made a
        fixed list of 100 run out, and its fork failed as the server's "did not start; retry": red team
        rt34r)."""
        root = os.open(pid1.WORK, os.O_RDONLY | os.O_DIRECTORY)
        try:
            for i in range(len(os.listdir(root)) + len(self.tops) + 1):
                name = f".fork-links-{i}"
                if name in self.tops:
                    continue
                try:
                    os.mkdir(name, 0o700, dir_fd=root)
                except FileExistsError:
                    continue
                self.name, self.fd = name, open_nofollow(root, name, os.O_RDONLY | os.O_DIRECTORY)
                return
            raise ValueError("no name is free for the hard links' folder")
        finally:
            os.close(root)

    def close(self) -> None:
        if self.fd < 0:
            return
        for staged in self.names.values():
            try:
                os.unlink(staged, dir_fd=self.fd)
            except FileNotFoundError:
                pass
        os.close(self.fd)
        self.fd = -1
        os.rmdir(f"{pid1.WORK}/{self.name}")


def apply_delta(listing: bytes, data: bytes) -> None:
    """A delta (the host's copy of another session's `delta`) onto the environment's tree just
    unpacked: removals first (children before their folder, each reached through _Dirs), then what
    stands where a file, link or hard link will be (so /work never holds more at once than it will
    at the end: the bound `delta` checked), then directories, files, links and hard links by path
    (_Staged). Each folder is reached from the longest prefix open (_Dirs), so in delta's walk order
    one open a folder in all. Paths are checked as write_file's, and none nests over DEPTH_MAX
    folders; raises ValueError on a bad one."""
    entries = json.loads(listing)
    for entry in entries:
        parts = _parts(entry[0], False)
        if parts is None:
            raise ValueError(f"bad path {entry[0]!r}")
        if len(parts) > DEPTH_MAX + 1:  # never a folder delta walked; a path of a deep environment removed ("x")
            raise ValueError(f"{entry[0][:60]!r}... is nested over {DEPTH_MAX} folders deep (DEPTH_MAX)")
    _remove_all(sorted((_parts(e[0], False) or [] for e in entries if e[1] == "x"), reverse=True))
    staged = _Staged(entries)
    try:
        for create in (False, True):
            dirs, offset = _Dirs(create), 0
            try:
                for entry in entries:
                    parts = _parts(entry[0], False) or []
                    if not create and entry[1] in ("f", "h", "l"):
                        _clear(dirs, parts)
                    elif create and entry[1] != "x":
                        offset = _apply_one(dirs, parts, entry, data, offset, staged)
            finally:
                dirs.close()
    finally:
        staged.close()


def _remove_all(paths: list[list[str]]) -> None:
    """Remove what stands at each path, in the order given (reverse name order: a folder's entries
    before it, and its subtree's paths together, so _Dirs walks each folder once)."""
    dirs = _Dirs()
    try:
        for parts in paths:
            try:
                fd = dirs.open(parts[:-1])
            except OSError:  # no folder there (missing, a file, a link): nothing to remove below it
                continue
            dirs.forget(parts)
            _remove_at(fd, parts[-1])
    finally:
        dirs.close()


def _clear(dirs: _Dirs, parts: list[str]) -> None:
    """Remove what stands at `parts` (a file, a link, a folder and all below it), its folder reached
    through `dirs`; nothing when there is no folder above it."""
    try:
        fd = dirs.open(parts[:-1])
        st = os.stat(parts[-1], dir_fd=fd, follow_symlinks=False)
    except OSError:
        return
    if stat.S_ISDIR(st.st_mode):
        dirs.forget(parts)
        _remove_at(fd, parts[-1])
    else:
        os.unlink(parts[-1], dir_fd=fd)


def _apply_one(dirs: _Dirs, parts: list[str], entry: list, data: bytes, offset: int, staged: _Staged) -> int:
    """One entry of apply_delta onto what stands at `parts`; the data offset after it."""
    kind = entry[1]
    fd = dirs.open(parts[:-1])
    try:
        now = os.stat(parts[-1], dir_fd=fd, follow_symlinks=False)
    except FileNotFoundError:
        now = None
    if now is not None and not (kind == "d" and stat.S_ISDIR(now.st_mode)):
        _clear(dirs, parts)
    if kind == "d":
        if now is None or not stat.S_ISDIR(now.st_mode):
            os.mkdir(parts[-1], 0o755, dir_fd=fd)
    elif kind == "l":
        os.symlink(str(entry[2]), parts[-1], dir_fd=fd)
    elif kind == "h":
        staged.link(str(entry[2]), parts[-1], fd)
    elif kind == "f":
        size = int(entry[2])
        out = os.open(parts[-1], os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW,
                      0o755 if entry[3] else 0o644, dir_fd=fd)
        try:
            os.fchmod(out, 0o755 if entry[3] else 0o644)
            view = memoryview(data)[offset:offset + size]
            offset += size
            while view:
                view = view[os.write(out, view):]
        finally:
            os.close(out)
        staged.keep(parts, fd)
    else:
        raise ValueError(f"bad kind {kind!r}")
    return offset


def open_nofollow(dir_fd: int, name: str, flags: int, mode: int = 0o777) -> int:
    """`name` in `dir_fd`, never a link: O_NOFOLLOW, and the opened file must be the one lstat saw
    (gVisor followed a link to a directory under O_DIRECTORY | O_NOFOLLOW; found by
    tests/test_session_env.py). OSError(ELOOP) for a link."""
    try:
        before = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
    except FileNotFoundError:
        if not flags & os.O_CREAT:
            raise
        before = None
    if before is not None and stat.S_ISLNK(before.st_mode):
        raise OSError(errno.ELOOP, os.strerror(errno.ELOOP))
    fd = os.open(name, flags | os.O_NOFOLLOW, mode, dir_fd=dir_fd)
    try:
        after, now = os.fstat(fd), os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
    except OSError:
        os.close(fd)
        raise
    seen = [(st.st_ino, st.st_dev) for st in (before, now) if st is not None]
    if stat.S_ISLNK(now.st_mode) or any(s != (after.st_ino, after.st_dev) for s in seen):
        os.close(fd)
        raise OSError(errno.ELOOP, "a link, or changed while opened")
    return fd


def _walk_to(parts: list[str], create: bool, start: int = -1) -> int:
    """A directory fd for parts below /work (or below the folder `start`, left open), opened without
    following a link at any step."""
    fd = os.open(pid1.WORK, os.O_RDONLY | os.O_DIRECTORY) if start < 0 else os.dup(start)
    try:
        for part in parts:
            if create:
                try:
                    os.mkdir(part, 0o755, dir_fd=fd)
                except FileExistsError:
                    pass
            nfd = open_nofollow(fd, part, os.O_RDONLY | os.O_DIRECTORY)
            os.close(fd)
            fd = nfd
    except BaseException:
        os.close(fd)
        raise
    return fd


def tool_parts(path: str, allow_root: bool) -> list[str] | None:
    """A session tool's path (read, write, list) as its parts; None with `..`, naming no file where one is
    needed, or over DEPTH_MAX parts: a write made every folder its path names in PID 1, outside any cell's
    clock (red team 12: 20,000 nested folders in 9.5 s on gVisor), which the grade then refuses anyway.
    The host refuses such a path first (verifier/sessions.py PATH_PARTS_MAX)."""
    if len(path) > PATH_MAX:  # before the split: millions of slashes are no parts but a list of millions (red team 13)
        return None
    parts = _parts(path, allow_root)
    return None if parts is None or len(parts) > DEPTH_MAX else parts


TOOL_PATH_RULE = f"without '..', at most {DEPTH_MAX} parts"


def _parts(path: str, allow_root: bool) -> list[str] | None:
    parts = [p for p in str(path).split("/") if p not in ("", ".")]
    if ".." in parts or (not parts and not allow_root):
        return None
    return parts


def write_file(head: dict, data: bytes) -> dict:
    """A regular file below /work, its directories made as needed; replaced whole."""
    parts = tool_parts(head.get("path", ""), False)
    if parts is None:
        return {"ok": False, "detail": f"path must name a file below the working dir, {TOOL_PATH_RULE}"}
    try:
        fd = _walk_to(parts[:-1], True)
    except OSError as e:
        return {"ok": False, "detail": f"cannot open the directory of {'/'.join(parts)}: {e.strerror}"}
    try:
        lower = open_lower(fd, parts[-1])
        if lower is not None:  # a file of the lower layer: the session's own copy replaces its link
            os.close(lower)
            os.unlink(parts[-1], dir_fd=fd)
        try:
            out = open_nofollow(fd, parts[-1], os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NONBLOCK, 0o644)
        except OSError as e:
            return {"ok": False, "detail": f"cannot write {'/'.join(parts)}: {e.strerror}"}
        try:
            if not stat.S_ISREG(os.fstat(out).st_mode):
                return {"ok": False, "detail": "not a regular file"}
            view = memoryview(data)
            while view:
                view = view[os.write(out, view):]
        finally:
            os.close(out)
        return {"ok": True, "size": len(data)}
    finally:
        os.close(fd)


def list_dir(head: dict) -> dict:
    """A directory's entries below /work: name, kind (file, dir, link, other) and size, sorted; at most `max`."""
    parts = tool_parts(head.get("path", ""), True)
    if parts is None:
        return {"ok": False, "detail": f"path must name a directory below the working dir, {TOOL_PATH_RULE}"}
    try:
        fd = _walk_to(parts, False)
    except OSError as e:
        return {"ok": False, "detail": f"cannot open {'/'.join(parts) or '.'}: {e.strerror}"}
    cap = int(head.get("max", 1000))
    try:
        names, more = _first_names(fd, cap)
        entries, size = [], 0
        for name in names:
            size += len(json.dumps(name))
            if size > LIST_BYTES_MAX:  # the reply's names in JSON (a non-UTF-8 byte takes 6): the channel's header bounds it
                more = True
                break
            try:
                st = os.stat(name, dir_fd=fd, follow_symlinks=False)
            except OSError:
                continue
            if stat.S_ISLNK(st.st_mode) and (lower := open_lower(fd, name)) is not None:
                st = os.fstat(lower)  # a file of the lower layer lists as the file it stands for
                os.close(lower)
            kind = ("file" if stat.S_ISREG(st.st_mode) else "dir" if stat.S_ISDIR(st.st_mode)
                    else "link" if stat.S_ISLNK(st.st_mode) else "other")
            entries.append([name, kind, st.st_size if kind == "file" else 0])
        return {"ok": True, "entries": entries, "truncated": more}
    finally:
        os.close(fd)


LIST_BYTES_MAX = 512 << 10  # a listing's names, as JSON, at most (red team 12: 1,000 names of 255 non-UTF-8 bytes
# were 1.5 MB, past the channel's 1 MiB header: the session lost by a listing of its own folder)
LIST_READ_MAX = 1 << 16  # names a listing reads at most: gVisor's tmpfs has no inode cap (docs/sessions.md "Sessions")


def _first_names(fd: int, cap: int) -> tuple[list[str], bool]:
    """The directory's first `cap` names in order, from at most LIST_READ_MAX read (a folder of millions
    of names, which memory alone bounds on gVisor, is not read and sorted whole outside any cell's
    clock); and whether there were more. Past LIST_READ_MAX the listing is of the names read."""
    with os.scandir(fd) as it:
        read = list(itertools.islice((e.name for e in it), LIST_READ_MAX + 1))
    return heapq.nsmallest(cap, read[:LIST_READ_MAX]), len(read) > min(cap, LIST_READ_MAX)


# A grade's read past DEPTH_MAX (TooDeep's depth: the first level past it, however deep the tree goes).
SNAPSHOT_TOO_DEEP = ("a folder is nested {} or more levels deep, over the {} levels a grade reads (DEPTH_MAX: an open "
                     "folder a level); remove the deep folders to grade it")
# A grade's read past one of its other bounds (_Listing's Over, by bound: what it reached and the bound).
SNAPSHOT_OVER = {
    "entries": "the tree has over {1} entries (files, links, folders and others, each counted; what .git, "
               "__pycache__ and .pytest_cache hold is not read), the most a grade reads",
    "names": "the tree's names take over {1} bytes (its listing of files and links as JSON), the most a grade reads",
    "time": "the tree took over {1} s to read, the most a grade's read of it may take (its walk's budget); "
            "fewer files and folders read faster",
}


def snapshot(head: dict) -> tuple[dict, dict[str, bytes | bytearray]]:
    """Every regular file and link below /work (SKIP_DIRS left out) as [path, "f", size] / [path, "l",
    target] (a JSON blob of at most ENTRIES_MAX_BYTES: the channel's header is 1 MiB), with the files'
    bytes in one blob, at most `max` bytes; anything else (a fifo, a socket, a device) is named so the
    host refuses it. Read without following a link at any step: a process of the session swapping a
    directory for a link while this runs changes what is read, never where. Walked as delta's
    (_walk_stats: an open folder a level, however wide a folder is, each listed as it is read), at most
    DEPTH_MAX folders deep: a folder nested deeper is refused by name before it is opened
    (SNAPSHOT_TOO_DEEP), so the walk never runs out of fds. Every entry walked, folders too, counts
    against `max_files` (the bound a fork's changes have: the host's one); the listing's size is counted
    as each entry is added and the walk's time against `walk_s` (_Listing): past any, the tree is the
    session's to fix, refused by name (SNAPSHOT_OVER), never PID 1 out of memory or the host's wait out
    of time (red team rt30y: 3,500 paths of 25 KB lost the session; 300,000 empty folders, uncounted,
    walked past the host's 120 s on gVisor)."""
    cap = int(head["max"])
    listing = _Listing(head)
    data = bytearray()
    try:
        for path, kind, _, fd, name in _walk_stats(max_depth=DEPTH_MAX, skip=SKIP_DIRS, stats=False):
            listing.count()
            if kind == "d":
                continue
            if kind == "l" and (lower := open_lower(fd, name)) is None:
                listing.add([path, "l", os.readlink(name, dir_fd=fd)])
            elif kind in ("l", "f"):
                blob = _read_regular(fd, name, cap - len(data), lower if kind == "l" else None)
                if blob is None:
                    return {"ok": False, "detail": f"the tree is over {cap} bytes"}, {}
                listing.add([path, "f", len(blob)])
                data += blob
            else:
                listing.add([path, "o", ""])
    except TooDeep as e:
        return {"ok": False, "detail": SNAPSHOT_TOO_DEEP.format(e.depth, DEPTH_MAX)}, {}
    except Over as e:
        return {"ok": False, "detail": SNAPSHOT_OVER[e.bound].format(e.need, e.cap)}, {}
    except OSError as e:
        return {"ok": False, "detail": f"the tree could not be read: {e.strerror}"}, {}
    return {"ok": True}, {"entries": listing.dump(), "data": data}  # sent as it is: no second copy in PID 1


def _read_regular(dir_fd: int, name: str, room: int, lower: int | None = None) -> bytes | None:
    """A regular file's bytes (None when over `room`, unread when its size says so): `name` in dir_fd,
    or the lower file already opened."""
    fd = open_nofollow(dir_fd, name, os.O_RDONLY | os.O_NONBLOCK) if lower is None else lower
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise OSError(0, f"{name} is no longer a regular file")
        if st.st_size > room:
            return None
        out = bytearray()
        while len(out) <= room and (chunk := os.read(fd, min(1 << 16, room + 1 - len(out)))):
            out += chunk
        return None if len(out) > room else bytes(out)
    finally:
        os.close(fd)


def _toolchain_env(head: dict) -> dict[str, str]:
    """The host's toolchain settings (sandbox/session.py SHELL_ENV): plain names and values only."""
    env = head.get("env") or {}
    return {str(k): str(v) for k, v in env.items() if str(k).replace("_", "").isalnum() and "\0" not in str(v)}


SPAWN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "session_spawn.py")
ARG_STRLEN_MAX = 32 * 4096  # Linux's MAX_ARG_STRLEN: one argument's bytes with its NUL; exec refuses more (E2BIG)
LINE_MAX = 256  # a launcher's reply line at most ("pid N", "exit N CODE"); more is no reply of ours
LAUNCHER_START_S = 30.0  # a launcher's Python start at most (a loaded gVisor host: a second or two)
RESUME_S = 0.05  # how often a wait on a launcher resumes it (SIGCONT: it may have been stopped)


class SpawnRefused(OSError):
    """The launcher answered `error N`: the command never started. The launcher is the program's, so its
    own limits may be the program's doing (`prlimit $PPID`: RLIMIT_NOFILE 4 or RLIMIT_NPROC 0, red team 14):
    it is closed, and serve_tool asks a fresh one once before the refusal is the command's (`not_started`)."""


class LauncherFailed(OSError):
    """No launcher could be started for a command (its fork or exec refused, EAGAIN where the session's processes
    fill its process limit; or no `ready` within LAUNCHER_START_S or the command's wall limit): during a session that is the program's doing
    as much as a refusal is, so it is the command's own `not_started`, never the session's loss (session_box._shell);
    the next command asks for a launcher again, which starts once the program's processes let it."""


NOT_STARTED_EXIT = 126  # a command that could not start: the shell's own code for "found but cannot execute"


def not_started(head: dict, clock: accounting.SandboxClock, exc: OSError) -> tuple[dict, dict[str, bytes]]:
    """The reply of a command the session's launcher could not start (exec's E2BIG, EAGAIN where the
    session's processes fill its process limit): the command's own exit 126 with the reason on stderr, as
    a shell's failed fork or exec is; never the session's loss."""
    err = f"session: the command could not start: {exc.strerror or exc}\n".encode()
    return ({"status": "ok", "detail": "", "exit_code": NOT_STARTED_EXIT,
             "cpu_s": round(max(clock.settle(float(head["cpu_s"])), 0.0), 6), "wall_s": 0.0,
             "stdout_bytes": 0, "stderr_bytes": len(err)}, {"stdout": b"", "stderr": err})


class Launcher:
    """PID 1's end of session_spawn.py, the session's shell launcher (its docstring says why: posix_spawn
    from a small process of the program's, not a fork of PID 1 per command). Started as the session's
    interpreter is (the program's uid for all three, program_limits.apply, its own session), so what it
    starts has exactly the limits a command started here had. The launcher is the program's: it may be
    killed, stopped or traced by the session's processes, so every wait on it is bounded and a launcher
    that is gone or does not answer is killed and replaced at the next command; nothing it says but its
    own command's pid and exit status is used."""

    def __init__(self, start_s: float = LAUNCHER_START_S) -> None:
        """Start one and wait at most start_s for its `ready` (a command's start is bounded by its wall limit)."""
        mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)  # never a pipe (module docstring)

        def child() -> None:
            program_limits.apply(program_limits.spec(pid1.APART, False, None, FSIZE_MAX))

        deadline = time.monotonic() + start_s  # one bound for its exec and its `ready`
        try:
            self.proc = pid1.start([sys.executable, "-I", "-S", SPAWN, str(theirs.fileno())], (-1, -1, -1),
                                   (theirs.fileno(),), pid1.WORK, dict(job_protocol.BASE_ENV), child,
                                   start_s=start_s)  # no pipe: pid1.start
        except OSError as e:  # fork, the limits (setuid past RLIMIT_NPROC: EAGAIN) or exec refused, or its exec
            # not reached in start_s (ETIME: the session's processes stopped it once it was theirs, red team 17)
            mine.close()
            code = e.errno or errno.EAGAIN
            raise LauncherFailed(code, f"the session's shell launcher could not start: {os.strerror(code)}") from e
        except BaseException:
            mine.close()
            raise
        finally:
            theirs.close()
        self.sock, self.buf, self.gone = mine, b"", False
        try:  # its start done before the caller's clocks run: counted in a session's idle CPU with the interpreter's
            ready = self._line(deadline)  # start, it passed a 2 s budget on a loaded gVisor
        except OSError:
            ready = None
        self.sock.setblocking(False)
        if ready != b"ready":
            self.close()
            raise LauncherFailed(errno.EIO, f"the session's shell launcher did not start in {start_s:g} s")

    def alive(self) -> bool:
        """Between commands a launcher never writes: anything to read (its EOF, or bytes) ends it."""
        if self.gone:
            return False
        try:
            self.sock.recv(1, socket.MSG_PEEK)
        except BlockingIOError:
            return True
        except OSError:
            pass
        self.close()
        return False

    def close(self) -> None:
        """Kill it (its uid is the program's, which is PID 1's effective uid) and close our end; the
        idle watch or the next command reaps it (session_box.reap, which sets `proc.returncode`: a
        launcher reaped is never signalled again, as its pid may be another process's by then)."""
        self.gone = True
        if self.proc.returncode is None:
            try:
                os.kill(self.proc.pid, signal.SIGKILL)
            except OSError:
                pass
        self.sock.close()

    def resume(self) -> None:
        """SIGCONT to a launcher the session's processes may have stopped (harmless when it runs)."""
        if self.proc.returncode is not None:  # reaped: its pid is no longer its
            return
        try:
            os.kill(self.proc.pid, signal.SIGCONT)
        except OSError:
            pass

    def spawn(self, argv: list[bytes], env: dict[str, str], fds: tuple[int, int], wait_s: float) -> int | None:
        """Start argv with fds as its stdout and stderr; its pid, or None when the launcher died or did
        not answer within wait_s (then it is killed: the command may not have started)."""
        body = b"\0".join(argv) + b"\0\0" + b"\0".join(f"{k}={v}".encode() for k, v in env.items())
        msg = len(body).to_bytes(4, "big") + body
        self.resume()  # a launcher the session's processes stopped between commands
        deadline = time.monotonic() + wait_s  # one bound for the whole exchange (red team 18: each part had its own)
        try:
            self.sock.settimeout(wait_s)
            sent = socket.send_fds(self.sock, [msg], list(fds))
            if sent < len(msg):  # sendall's timeout bounds its whole send (Python 3.5+)
                self.sock.settimeout(max(deadline - time.monotonic(), 0.001))
                self.sock.sendall(msg[sent:])
            line = self._line(deadline)
        except OSError:
            line = None
        finally:
            if not self.gone:
                self.sock.setblocking(False)
        if line is not None and line.startswith(b"error "):
            code = int(line[6:]) if line[6:].isdigit() else errno.EIO
            self.close()  # a launcher that cannot start a command may hold the program's limits: never reused
            raise SpawnRefused(code, os.strerror(code))
        if line is None or not line.startswith(b"pid ") or not line[4:].isdigit():
            self.close()
            return None
        return int(line[4:])

    def _line(self, deadline: float) -> bytes | None:
        """The next reply line, waiting until deadline; None at EOF, past the deadline, or a line too long.
        Resumed every RESUME_S meanwhile: a command may stop its launcher before it said the pid."""
        while b"\n" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0 or len(self.buf) > LINE_MAX:
                return None
            self.sock.settimeout(min(left, RESUME_S))
            try:
                chunk = self.sock.recv(LINE_MAX)
            except TimeoutError:
                self.resume()
                continue
            if not chunk:
                return None
            self.buf += chunk
        line, _, self.buf = self.buf.partition(b"\n")
        return line

    def pump(self, proc: Spawned) -> bool:
        """Read what the launcher sent (never blocking): an exit line for `proc` sets its returncode;
        False when the launcher is gone (EOF, or what it sent is no reply: then it is killed), after
        which `reap` gets the command's status: its orphans, the command among them, are PID 1's."""
        eof = False
        try:
            while len(self.buf) <= LINE_MAX:
                chunk = self.sock.recv(LINE_MAX)
                if not chunk:
                    eof = True
                    break
                self.buf += chunk
        except BlockingIOError:
            pass
        except OSError:
            eof = True
        bad = False
        while b"\n" in self.buf:
            line, _, self.buf = self.buf.partition(b"\n")
            parts = line.split()
            if (len(parts) == 3 and parts[0] == b"exit" and parts[1] == str(proc.pid).encode()
                    and parts[2].lstrip(b"-").isdigit() and len(parts[2]) < 8):
                proc.returncode = int(parts[2]) if proc.returncode is None else proc.returncode
            else:
                bad = True
        if eof or bad or len(self.buf) > LINE_MAX:
            self.close()
            return False
        return True


class Spawned:
    """A command the launcher started (what run_shell needs of a Popen): its pid (its process group's
    too: setsid) and its returncode, from the launcher's exit line or, if the launcher is gone, from
    PID 1's own reap of it (session_box.reap sets `returncode` on what it is given)."""

    def __init__(self, launcher: Launcher, pid: int) -> None:
        self.launcher, self.pid = launcher, pid
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None and not self.launcher.gone:
            self.launcher.pump(self)
        if self.returncode is None and self.launcher.gone and not _exists(self.pid):
            self.returncode = -signal.SIGKILL  # reaped by a launcher that died before it said how it ended
        return self.returncode

    def wait(self, reap, wait_s: float = 2.0) -> None:
        """After its process group was killed: its status, within wait_s (a launcher that does not say
        it by then is killed, and the command's status is then PID 1's reap's, or SIGKILL's)."""
        deadline = time.monotonic() + wait_s
        while self.poll() is None and time.monotonic() < deadline:
            reap(self)
            if self.returncode is None and not self.launcher.gone:
                select.select([self.launcher.sock], [], [], min(accounting.POLL_S, max(0.0, deadline - time.monotonic())))
            elif self.returncode is None:
                time.sleep(accounting.POLL_S)
        if self.returncode is None:
            self.launcher.close()
            reap(self)
            self.returncode = -signal.SIGKILL if self.returncode is None else self.returncode


def _exists(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def run_shell(head: dict, command: bytes, clock: accounting.SandboxClock, reap,  # noqa: C901 - one command's pipes, clocks and launcher stay in one frame
              launcher: Launcher) -> tuple[dict, dict[str, bytes]]:
    """`sh -c COMMAND` in /work as the program's uid (the cells' limits: program_limits, applied to the
    session's `launcher`, which starts it with posix_spawn), until it exits or goes over its CPU time
    (every process of the session from now on, `clock`: session_box.cpu_since, the host's figure where
    it answers) or wall time; then its process group is killed. Output past `out_max` is read and
    counted, never kept. `reap(proc)` reaps every dead child of PID 1 while it runs (orphans of the
    command), the shell's status kept."""
    arg = command.decode("utf-8", "replace").encode("utf-8", "surrogateescape")
    if b"\0" in arg:
        raise ValueError("embedded null byte")
    if len(arg) >= ARG_STRLEN_MAX:  # what exec answers (the host refuses it first: verifier/sessions.py)
        raise SpawnRefused(errno.E2BIG, os.strerror(errno.E2BIG))
    out, err = accounting.Capture(int(head["out_max"]), clock), accounting.Capture(int(head["out_max"]), clock)
    t0, limit, wall_max = time.monotonic(), float(head["cpu_s"]), float(head["wall_s"])
    out_r, out_w = pid1.std_pipe()  # the command's own output
    err_r, err_w = pid1.std_pipe()
    try:
        pid = launcher.spawn([b"/bin/sh", b"-c", arg], {**job_protocol.BASE_ENV, **_toolchain_env(head)},
                             (out_w, err_w), wall_max)
    except BaseException:
        os.close(out_r)
        os.close(err_r)
        raise
    finally:
        os.close(out_w)
        os.close(err_w)
    if pid is None:
        os.close(out_r)
        os.close(err_r)
        return ({"status": "time_limit", "exit_code": None, "cpu_s": round(max(clock.settle(limit), 0.0), 6),
                 "wall_s": round(time.monotonic() - t0, 6), "stdout_bytes": 0, "stderr_bytes": 0,
                 "detail": "the command's launcher, a process of the session's, was killed or stopped before it "
                           f"started the command (wall limit {head['wall_s']} s)"}, {"stdout": b"", "stderr": b""})
    proc = Spawned(launcher, pid)
    sel = selectors.DefaultSelector()
    pipes = {out_r: out, err_r: err}
    for fd, cap in pipes.items():
        os.set_blocking(fd, False)
        sel.register(fd, selectors.EVENT_READ, cap)
    sel.register(launcher.sock, selectors.EVENT_READ, None)
    status, detail, exited = "ok", "", 0.0
    try:
        while True:
            for key, _ in sel.select(timeout=accounting.POLL_S):
                if key.data is None:  # the launcher: the command's exit line (or its end)
                    if not launcher.pump(proc):
                        sel.unregister(key.fd)
                    continue
                try:
                    chunk = os.read(key.fd, 1 << 16)
                except BlockingIOError:
                    continue
                if chunk:
                    key.data.add(chunk)
                else:
                    sel.unregister(key.fd)
                    del pipes[key.fd]
            reap(proc)
            if proc.poll() is not None and not pipes:
                break
            if not pipes and not launcher.gone:  # the output closed, the exit line not come: a launcher
                launcher.resume()                # the command stopped (`kill -STOP $PPID`) says it once resumed
            over, wall = clock.over(limit), time.monotonic() - t0
            if over or wall > wall_max:
                status = "time_limit"
                detail = (f"the command used {clock.settle(limit):.1f} s of CPU (limit {head['cpu_s']} s)" if over
                          else f"the command ran {wall:.1f} s (wall limit {head['wall_s']} s)")
                break
            if proc.poll() is not None:
                exited = exited or time.monotonic()
                if time.monotonic() - exited > EXIT_GRACE_S:
                    break  # exited, but a process it left holds the pipes: stop reading (it is killed below)
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except OSError:
            pass
        sel.close()
        proc.wait(reap)
        os.close(out_r)
        os.close(err_r)
    code = proc.returncode
    return ({"status": status, "detail": detail, "exit_code": None if status != "ok" else code,
             "cpu_s": round(max(clock.settle(limit), 0.0), 6), "wall_s": round(time.monotonic() - t0, 6),
             "stdout_bytes": out.total, "stderr_bytes": err.total},
            {"stdout": bytes(out.data), "stderr": bytes(err.data)})

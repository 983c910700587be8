"""The inode cap where the kernel does not hold it (SandboxConfig.tmpfs_inodes): gVisor's tmpfs ignores
`nr_inodes` (statvfs reports 0 inodes), so the runner counts a sandbox's files itself, before it writes
its own and while a program runs (docs/sandboxes.md "Sandbox backends")."""
from __future__ import annotations

import errno
import os

import pid1

INODES_ENV = "SANDBOX_INODES"  # SandboxConfig.tmpfs_inodes: counted here where the kernel ignores it (check_inodes)
FILES_POLL_S = 0.05  # how often the runner counts a program's files where the kernel does not (inodes_cap)


def check_inodes(path: str, adding: int) -> None:
    """Raise ENOSPC where `adding` more inodes do not fit in /work (SandboxConfig.tmpfs_inodes), on a
    kernel that does not hold the cap itself (inodes_cap): a program's file-count bomb leaves the
    runner's own files no room, as on Docker, and the host judges that as it does an ENOSPC."""
    limit = inodes_cap()
    if adding > 0 and limit and count_inodes(pid1.WORK, limit) + adding > limit:
        raise OSError(errno.ENOSPC, f"no inode left in {pid1.WORK} (tmpfs_inodes={limit}, counted by the runner)")


_INODES_CAP: list[int] = []
_INODES_SET = int(os.environ.get(INODES_ENV) or 0)  # read at start: a forked child clears the environment


def inodes_cap() -> int:
    """SandboxConfig.tmpfs_inodes where the runner must count it, else 0. Linux's tmpfs holds its
    nr_inodes itself (statvfs reports it); gVisor's ignores the option (statvfs reports 0 inodes),
    so there the runner counts: before it writes its own files (check_inodes) and every
    FILES_POLL_S while a program runs (over_inodes; docs/sandboxes.md "Sandbox backends")."""
    if not _INODES_CAP:
        limit = _INODES_SET
        _INODES_CAP.append(limit if limit > 0 and os.statvfs(pid1.WORK).f_files == 0 else 0)
    return _INODES_CAP[0]


def over_inodes() -> bool:
    """Whether /work or /tmp holds more inodes than the cap (inodes_cap), read while a program runs."""
    limit = inodes_cap()
    return bool(limit) and any(count_inodes(d, limit, fix_modes=False) > limit for d in (pid1.WORK, "/tmp"))


def count_inodes(path: str, cap: int, fix_modes: bool = True) -> int:
    """The inodes of the tree at path, itself included as Linux's tmpfs counts its root (a hard link
    once), stopping past cap. By directory fds, one open at a time (a child opened from its parent,
    the parent again by ".."): a tree thousands deep neither recurses nor builds paths past PATH_MAX,
    and no chdir (safe while a program runs). With fix_modes (no program runs), a directory that
    cannot be opened is given back its mode first, as wipe does (we own it); one that still cannot
    counts alone."""
    seen: set[int] = set()
    try:
        fd = os.open(path, _DIR_FLAGS)
    except OSError:
        return 1
    stack: list[list[str]] = []
    try:
        while True:
            stack.append(_list_dir(fd, seen))
            if len(seen) >= cap:
                return len(seen) + 1
            while (child := _open_next(fd, stack[-1], fix_modes)) < 0:
                stack.pop()
                if not stack:
                    return len(seen) + 1
                parent = os.open("..", _DIR_FLAGS, dir_fd=fd)
                os.close(fd)
                fd = parent
            os.close(fd)
            fd = child
    except OSError:
        return len(seen) + 1
    finally:
        os.close(fd)


_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


def _list_dir(fd: int, seen: set[int]) -> list[str]:
    """Add the entries of the directory at fd to seen (by inode); its subdirectories' names."""
    subs: list[str] = []
    try:
        with os.scandir(fd) as it:
            for e in it:
                if e.inode() not in seen:
                    seen.add(e.inode())
                    if e.is_dir(follow_symlinks=False):
                        subs.append(e.name)
    except OSError:
        pass
    return subs


def _open_next(fd: int, subs: list[str], fix_modes: bool) -> int:
    """An fd of the next of subs (below the directory at fd) that opens; -1 when none is left."""
    while subs:
        name = subs.pop()
        for attempt in range(2 if fix_modes else 1):
            try:
                return os.open(name, _DIR_FLAGS, dir_fd=fd)
            except OSError:
                if attempt == 0 and fix_modes:
                    try:
                        os.chmod(name, 0o700, dir_fd=fd)
                    except OSError:
                        break
    return -1

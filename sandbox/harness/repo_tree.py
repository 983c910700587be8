"""A repository task's tree (docs/repo-tasks.md "Warm environments", "Trust model"), made by PID 1 before its test
command runs, never by the program's uid. Standard library only.

The tree is made under TREE, a tmpfs of the judge's uid (mode 0755) that a repository box has besides the
environment's read-only tree at ENV (sandbox/backend.py TREE_MOUNT, ENV_MOUNT), by a child of ours whose effective
uid is the judge's (our real uid: pid1.drop_privileges; `as_judge`). So every folder, link, copy and
patched file of it is the judge's and not writable by others: the test command, the patch's code it imports and
the test runner it starts (the program's uid) can read the tree and cannot change, add, remove or rename anything
in it, nor TREE/repo itself (TREE is the judge's): the test files, every conftest.py and configuration file and the
runner script pytest or the command reads are the dataset's and the environment's for the whole run. Only the
names the host lists (`writable`: Go's go.mod and go.sum, which the go command rewrites in place) are left
writable by all, in place. The program's scratch is /tmp and the job's directory in /work (the reports).

With one uid for all (the userns backend's Landlock mode) there is no other uid to own the tree: it is made as
here, the program's by its owner, and the program's Landlock domain (confine.scope_self with `tree`) keeps it from
changing anything in it but the `writable` names; what Landlock cannot refuse there (modes and times) PID 1 sees
changed after the run (`stamp`, `changed`), and the host pays that run 0.
"""
from __future__ import annotations

import json
import os
import shutil
import tarfile
from collections.abc import Callable

import leftovers
import pid1

TREE = "/mnt"  # sandbox/backend.py TREE_MOUNT
ENV = "/srv"  # sandbox/backend.py ENV_MOUNT
VIEW, ARCHIVE = "view.json", "repo.tar"  # written into the job's directory by the host (sandbox/repo_job.py)


def as_judge(work: Callable[[], None]) -> None:
    """`work` in a child of ours whose effective uid is the judge's (our real uid), with a umask that leaves what it
    makes readable by the program and writable by nobody else; OSError naming what failed there. A child, because we
    could not come back: our saved uid is the judge's too (pid1.drop_privileges), so the program's effective uid,
    once left, is no uid of ours any more."""
    r, w = pid1.channel()  # what failed there, never on a pipe a program could open (pid1.channel)
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        code = 0
        try:
            os.close(r)
            os.umask(0o022)
            if os.getuid() != os.geteuid():
                os.setresuid(-1, os.getuid(), -1)
            work()
        except BaseException as e:  # noqa: BLE001 - reported to the parent, whatever it is
            os.write(w, json.dumps([getattr(e, "errno", None) or 0, f"{type(e).__name__}: {e}"[:300]]).encode())
            code = 1
        finally:
            os._exit(code)
    os.close(w)
    try:
        with os.fdopen(r, "rb") as fh:
            said = fh.read()
    finally:
        os.waitpid(pid, 0)
    if said:
        errno_, why = json.loads(said)
        raise OSError(errno_, why)


def make(job_dir: str, writable: list[str]) -> str:
    """The task's tree at TREE/repo from the host's listing (VIEW: the environment's folders, a link to ENV/PATH
    for each of its files, its own links, the files to copy from ENV with their mode and times) and the task's own
    files (ARCHIVE), both read here and removed from the job's directory; its path. OSError where it cannot be made
    (TREE full: the caller decides whose fault)."""
    with open(os.path.join(job_dir, VIEW), "rb") as fh:
        dirs, files, links, copies = json.load(fh)
    with open(os.path.join(job_dir, ARCHIVE), "rb") as archive:
        for name in (VIEW, ARCHIVE):  # the job's directory is the program's: nothing of ours is left there
            os.unlink(os.path.join(job_dir, name))
        repo = os.path.join(TREE, "repo")

        def build() -> None:
            clear()
            os.mkdir(repo, 0o755)
            for p in dirs:
                os.mkdir(os.path.join(repo, p), 0o755)
            for p in files:
                os.symlink(f"{ENV}/{p}", os.path.join(repo, p))
            for p, target in links:
                os.symlink(target, os.path.join(repo, p))
            for p in copies:  # a copy's times keep the environment's bytecode valid for it
                src, dst = f"{ENV}/{p}", os.path.join(repo, p)
                shutil.copyfile(src, dst)
                st = os.stat(src)
                os.chmod(dst, st.st_mode & 0o755)
                os.utime(dst, ns=(st.st_atime_ns, st.st_mtime_ns))
            with tarfile.open(fileobj=archive) as tar:
                tar.extractall(TREE)  # noqa: S202 - the host's archive (sandbox/repo/apply.py task_tar): no link, no `..`
            for p in writable:
                path = os.path.join(repo, p)
                if os.path.isfile(path) and not os.path.islink(path):
                    os.chmod(path, os.stat(path).st_mode & 0o777 | 0o666)
        as_judge(build)
    return repo


STAMP_MAX = 5  # how many changed entries `changed` names


def stamp(writable: list[str]) -> dict[str, tuple[int, ...]]:
    """Each entry of TREE (TREE itself too, links not followed) but the `writable` files -> what a change of it changes:
    its inode, mode, links, owner, size, mtime and ctime. Taken by PID 1 once the tree is made, before the program
    runs, and again after it (`changed`): with one uid for all (the userns backend's Landlock mode) the tree is the
    program's own, and Landlock has no right for chmod or utime, so its modes and times are the program's to change
    (a test file's times set back to those of a stale bytecode of it make Python load that bytecode); the ctime,
    which no program sets, says it did. Bounded by the tree's inodes (its tmpfs's nr_inodes)."""
    skip = {os.path.join(TREE, "repo", p) for p in writable}
    out: dict[str, tuple[int, ...]] = {}
    for top, dirs, files in os.walk(TREE):
        for name in (top, *(os.path.join(top, n) for n in (*dirs, *files))):
            if name not in out and name not in skip:
                try:
                    st = os.lstat(name)
                except OSError:
                    continue
                out[name] = (st.st_ino, st.st_mode, st.st_nlink, st.st_uid, st.st_gid, st.st_size, st.st_mtime_ns,
                             st.st_ctime_ns)
    return out


def changed(before: dict[str, tuple[int, ...]], writable: list[str]) -> list[str]:
    """The entries of TREE (at most STAMP_MAX) that are not as `stamp` found them before the run, or new, or gone."""
    after = stamp(writable)
    return sorted(p for p in before.keys() | after.keys() if before.get(p) != after.get(p))[:STAMP_MAX]


def clear() -> None:
    """Remove the last task's tree (as the judge: `make`, and the runner's reset through `reset`)."""
    if os.path.isdir(TREE):
        leftovers.wipe(TREE)  # which leaves TREE itself 0700
        os.chmod(TREE, 0o755)


def reset() -> list[str]:
    """The runner's reset (job_protocol.py): the tree removed; what is left of it (none: the box is clean)."""
    if not os.path.isdir(TREE) or not os.listdir(TREE):
        return []
    as_judge(clear)
    return [os.path.join(TREE, e) for e in os.listdir(TREE)]

"""What a job leaves behind (docs/sandboxes.md "What a job leaves behind"): the files in /work, /tmp,
/dev/shm and /dev/mqueue, the directories' own attributes, SysV IPC objects and bound sockets, each
listed and wiped by PID 1 once no process of the program is left, or reported so that the box is
replaced. Standard library only."""
from __future__ import annotations

import ctypes
import fcntl
import os
import stat
import struct

import pid1

WIPE_DIRS = ("/work", "/tmp", "/dev/shm", "/dev/mqueue")
FS_IOC_GETFLAGS, FS_IOC_SETFLAGS = 0x80086601, 0x40086602  # linux/fs.h (_IOR/_IOW 'f' 1 and 2, long)
FRESH_FLAGS: dict[str, int | None] = {}  # each kept root's inode flags as the box started (note_fresh_flags)


def restore_modes(cwd: str) -> None:
    """Give /work and the job dir back their mode (the program may have chmod-ed them; we own
    them): its next test or the checker then starts, and only its own output judges it."""
    for d in (pid1.WORK, cwd):
        try:
            os.chmod(d, 0o700, follow_symlinks=False)
        except (OSError, NotImplementedError):  # a link in its place: Linux cannot chmod one (Python raises
            pass                                # NotImplementedError), and what it points to is the program's


def remove_dir(d: str) -> bool:
    """Delete d and everything in it; True when it is gone."""
    if not os.path.lexists(d):
        return True
    wipe(d)
    try:
        os.rmdir(d)
    except OSError:
        return not os.path.lexists(d)
    return True


def safe_name(name: str) -> str:
    if not name or "/" in name or name in (".", "..") or "\0" in name:
        raise ValueError(f"bad file name {name!r}")
    return name


def wipe(path: str) -> None:
    """Delete everything under path, first making every directory writable (the program may
    have chmod-ed them; it runs as our effective uid, so we own them). Iterative, one directory at a time
    by chdir: a program's tree thousands of levels deep (one inode each) neither recurses past
    Python's limit (os.walk, shutil.rmtree: RecursionError, once infra_error) nor builds paths
    past PATH_MAX. Only ever called when no process of the program is left to move things."""
    names: list[str] = []  # the directories we are in below path
    stuck: set[tuple[int, int]] = set()  # directories that could not be emptied: never re-entered
    try:
        if not stat.S_ISDIR(os.lstat(path).st_mode):
            return
        try:
            os.chmod(path, 0o700, follow_symlinks=False)
        except (OSError, NotImplementedError):
            pass  # not ours (/tmp is root's, mode 1777): writable as it is
        os.chdir(path)
    except OSError:
        return  # the caller sees what is left
    try:
        while True:
            sub = _empty_files_find_dir(stuck)
            if sub is not None:
                try:
                    os.chmod(sub, 0o700, follow_symlinks=False)
                    os.chdir(sub)
                    names.append(sub)
                    continue
                except (OSError, NotImplementedError):
                    stuck.add(_dev_ino(sub))
                    continue
            if not names:
                return
            here = _dev_ino(".")
            os.chdir("..")
            try:
                os.rmdir(names.pop())
            except OSError:
                stuck.add(here)
    finally:
        os.chdir("/")


def _dev_ino(name: str) -> tuple[int, int]:
    try:
        st = os.lstat(name)
    except OSError:
        return -1, -1
    return st.st_dev, st.st_ino


def _empty_files_find_dir(stuck: set[tuple[int, int]]) -> str | None:
    """Unlink every non-directory in the current dir; return a subdirectory to descend into (None:
    none left but those already found stuck, or the dir cannot be read: the caller sees what is left)."""
    try:
        it = os.scandir(".")
    except OSError:
        return None
    with it:
        for e in it:
            try:
                if e.is_dir(follow_symlinks=False):
                    st = e.stat(follow_symlinks=False)
                    if (st.st_dev, st.st_ino) not in stuck:
                        return e.name
                else:
                    os.unlink(e.name)
            except OSError:
                pass
    return None


def sysv_ipc() -> list[tuple[str, int]]:
    """SysV shared memory, queues and semaphores of the container's IPC namespace: they outlive
    their processes, so a program could pass data or hold memory across jobs. Listed by
    /proc/sysvipc, or where there is none (gVisor: red team of issue 22) by the kernel's own
    index (SHM_INFO then SHM_STAT per slot, and the same for queues and semaphores)."""
    found = []
    for kind in ("shm", "msg", "sem"):
        try:
            with open(f"/proc/sysvipc/{kind}", "rb") as f:
                found += [(kind, int(line.split()[1])) for line in f.readlines()[1:] if line.strip()]
        except FileNotFoundError:
            found += sysv_by_index(kind)
        except (OSError, ValueError, IndexError):
            continue
    return found


# INFO and STAT commands of shmctl, msgctl and semctl, and which int of the INFO struct counts the
# objects in use (shm_info.used_ids, msginfo.msgpool, seminfo.semusz): linux/shm.h, msg.h, sem.h
SYSV_CMDS = {"shm": (14, 13, 0), "msg": (12, 11, 0), "sem": (19, 18, 7)}
SYSV_MAX_SLOTS = 1 << 15  # above any kernel's SHMMNI / MSGMNI / SEMMNI (32768)


def sysv_by_index(kind: str) -> list[tuple[str, int]]:
    """One kind's SysV objects, slot by slot up to the highest in use; one (kind, -1) per object in
    use that no slot named (gVisor's STAT does not name every one): the reset then cannot remove it
    and reports it, so the container is replaced rather than passing it on."""
    info, stat_cmd, count_at = SYSV_CMDS[kind]
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        buf = ctypes.create_string_buffer(512)  # larger than struct shm_info / msginfo / seminfo and the *_ds
        ctl = {"shm": lambda i, c: libc.shmctl(i, c, buf), "msg": lambda i, c: libc.msgctl(i, c, buf),
               "sem": lambda i, c: libc.semctl(i, 0, c, buf)}[kind]
        top = ctl(0, info)
        in_use = ctypes.c_int.from_buffer(buf, 4 * count_at).value if top >= 0 else 0
        ids = [i for i in (ctl(slot, stat_cmd) for slot in range(min(top + 1, SYSV_MAX_SLOTS))) if i >= 0]
        return [(kind, i) for i in ids] + [(kind, -1)] * max(0, in_use - len(ids))
    except (OSError, AttributeError, ValueError):
        return []


def remove_sysv_ipc() -> list[str]:
    """IPC_RMID every SysV object (all are ours: one uid); return those still there."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        rm = {"shm": lambda i: libc.shmctl(i, 0, None), "msg": lambda i: libc.msgctl(i, 0, None),
              "sem": lambda i: libc.semctl(i, 0, 0)}
        for kind, ident in sysv_ipc():
            if ident >= 0:
                rm[kind](ident)
    except (OSError, AttributeError):
        pass
    return [f"sysv {kind} {ident}" for kind, ident in sysv_ipc()]


def scrub() -> None:
    """Empty /tmp, /dev/shm and /dev/mqueue and remove SysV IPC objects (not /work: the job's files
    are there). Before a checker: a program could leave a directory where the checker writes a
    fixed /tmp path, failing it on its output and on the reference answer alike (infra_error)."""
    for d in WIPE_DIRS[1:]:
        if os.path.isdir(d):
            wipe(d)
    remove_sysv_ipc()


def clear_root_attrs(path: str) -> list[str]:
    """Remove the extended attributes (user.*, POSIX ACLs) of a wiped directory itself and set its
    times to now: they outlive its contents, and /work is the program's, so a job could leave data
    there for the next job or session (red-team finding: os.setxattr('/work', 'user.x', data)).
    Returns the attributes still there."""
    try:
        for name in os.listxattr(path, follow_symlinks=False):
            try:
                os.removexattr(path, name, follow_symlinks=False)
            except OSError:
                pass
        try:
            os.utime(path, follow_symlinks=False)
        except OSError:
            pass
        left = [f"{path}: xattr {name}" for name in os.listxattr(path, follow_symlinks=False)]
    except OSError:  # no xattr support there: nothing could be left on it
        left = []
    return left + restore_flags(path)


def inode_flags(path: str, new: int | None = None) -> int | None:
    """A directory's inode flags (FS_IOC_GETFLAGS), set to `new` first when given (FS_IOC_SETFLAGS);
    None where its filesystem has none (gVisor's tmpfs, mqueue: ENOTTY) or it cannot be opened."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        if new is not None:
            fcntl.ioctl(fd, FS_IOC_SETFLAGS, struct.pack("i", new))
        return int(struct.unpack("i", fcntl.ioctl(fd, FS_IOC_GETFLAGS, struct.pack("i", 0)))[0])
    except OSError:
        return None
    finally:
        os.close(fd)


def note_fresh_flags() -> None:
    """Read each kept root's inode flags once, at the box's start, before any program runs: the value
    every reset restores (restore_flags)."""
    FRESH_FLAGS.update({d: inode_flags(d) for d in WIPE_DIRS})


def restore_flags(path: str) -> list[str]:
    """Give a kept root back its fresh inode flags: its owner (the program, for /work) may set
    FS_NODUMP_FL and FS_NOATIME_FL without a capability (tmpfs since Linux 6.0), bits the next job
    would read (red team of issue 30). Returns the flags still not fresh: the box is then replaced."""
    fresh, now = FRESH_FLAGS.get(path), inode_flags(path)
    if now == fresh:
        return []
    if fresh is not None and inode_flags(path, fresh) == fresh:
        return []
    return [f"{path}: inode flags {now if now is None else hex(now)}, fresh {fresh if fresh is None else hex(fresh)}"]


NET_TABLES = ("unix", "tcp", "tcp6", "udp", "udp6", "raw", "raw6")  # /proc/net/*: what a socket bound
FRESH_SOCKETS: dict[str, int] = {}  # the namespace's sockets as the box started (note_fresh_sockets)
FRESH_TCP_OPENS = [-1]  # the namespace's TCP connections opened, as the box started (note_fresh_sockets, tcp_opens)


def socket_counts() -> dict[str, int]:
    """Every socket of the sandbox's network namespace, whatever its family or protocol (a bound
    netlink port id, a UDP-Lite port, a unix name, one no table lists): /proc/net/sockstat's
    `sockets: used` ("all"), and per protocol /proc/net/protocols' `sockets` column, which names
    what is over. Both are the namespace's own counts (Linux; measured under Docker: 1 in a fresh
    container, the kernel's own netlink socket). {} where neither is readable (gVisor, whose /proc
    has no sockstat and lists no counts: bound_sockets' tables are its every kind)."""
    counts: dict[str, int] = {}
    try:
        with open("/proc/net/sockstat", "rb") as f:
            for line in f:
                if line.startswith(b"sockets: used "):
                    counts["all"] = int(line.split()[2])
        with open("/proc/net/protocols", "rb") as f:
            for row in f.read().splitlines()[1:]:
                cols = row.split()
                if len(cols) > 2 and cols[2].isdigit():
                    counts[cols[0].decode(errors="replace")] = int(cols[2])
    except (OSError, ValueError, IndexError):
        pass
    return counts


def note_fresh_sockets() -> None:
    """The namespace's socket counts once, at the box's start, its helpers running (the runner's and
    its helpers' socket pairs): what every reset compares with (bound_sockets)."""
    FRESH_SOCKETS.update(socket_counts())
    FRESH_TCP_OPENS[0] = tcp_opens()


def sockets_over_fresh(now: dict[str, int] | None = None) -> list[str]:
    """The protocols with more sockets than the fresh box had, once every process but ours is gone:
    a socket that outlives its job (sent in flight to itself: SCM_RIGHTS, a cycle no process holds)
    is one of the job's, whatever name it bound, so the box is replaced (docs/sandboxes.md "What a
    job leaves behind"). Such a cycle of unix sockets is freed by the kernel's garbage collector,
    which runs on its own schedule after the processes end (measured by the red team of issue 30:
    the next job found the name gone in some runs): read before it has run, the box is replaced.
    `now`: socket_counts() read already."""
    now = socket_counts() if now is None else now
    return [f"{now[k]} {k} socket(s), {FRESH_SOCKETS.get(k, 0)} in the fresh box" for k in sorted(now)
            if now[k] > FRESH_SOCKETS.get(k, 0)]


def bound_sockets() -> list[str]:
    """Sockets left in the sandbox's network namespace once every process but ours is gone: more
    of any protocol than the fresh box had (sockets_over_fresh, the whole namespace where Linux
    counts it), and those bound to a name or port (/proc/net's tables, what gVisor lists). A socket
    passed in flight to itself outlives its job, and its abstract name or port, netlink port id or
    UDP-Lite port, seen by the next job's bind, carries bits (issue 30: under runc and gVisor
    alike). None can be removed from here: the reset reports them and the box is replaced. The
    runner and its helpers bind nothing (socket pairs only)."""
    counts, tw = socket_counts(), tcp_time_wait()
    found = sockets_over_fresh(counts) + time_wait_unlisted(tw)
    skip = TCP_TABLES if tcp_tables_empty(counts, tw) else ()
    for table in NET_TABLES:
        if table in skip:
            continue
        try:
            with open(f"/proc/net/{table}", "rb") as f:
                rows = f.read().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            cols = row.split()
            if table != "unix":
                found.append(f"{table} socket {cols[1].decode(errors='replace')}" if len(cols) > 1 else table)
            elif len(cols) >= 8:  # a unix socket with a name (a path, or @ and an abstract name)
                found.append(f"unix socket {cols[7].decode(errors='replace')[:40]}")
    return found


TCP_TABLES = ("tcp", "tcp6")  # /proc/net's tables of TCP: read only where the counts cannot say they are empty
TCP_PROTOCOLS = ("TCP", "TCPv6")  # their sockets in /proc/net/protocols (socket_counts)


def tcp_tables_empty(counts: dict[str, int], tw: int) -> bool:
    """Whether the namespace's own counts prove that /proc/net/tcp and tcp6 list nothing: no TCP socket
    (`counts`: /proc/net/protocols' TCP and TCPv6 columns, every socket those tables list but one in
    TIME_WAIT) and none in TIME_WAIT (/proc/net/sockstat's `tw`: such a socket is no socket the columns
    count, and the port it holds, refused to the next job's bind, carries a bit). Reading the two tables
    walks the host's whole TCP hash, not the namespace's: 3.4 ms each on this 2-core host, more on a host
    with more memory, a fifth of a HumanEval job's CPU (issue 32). False where a count is missing
    (gVisor: the tables are its every kind), so the tables are read. A connection half open (SYN_RECV)
    is in neither count, but none outlives its listener's processes (measured, kernel 6.18: a listener
    with six connections it never accepted, its queue full, killed, left the table empty at once). `tw`: tcp_time_wait()."""
    return all(counts.get(p, -1) == 0 for p in TCP_PROTOCOLS) and tw == 0


def tcp_time_wait() -> int:
    """TCP sockets in TIME_WAIT in the namespace, IPv4 and IPv6 (/proc/net/sockstat's `tw`: the
    namespace's own count); -1 where it cannot be read."""
    try:
        with open("/proc/net/sockstat", "rb") as f:
            for line in f:
                if line.startswith(b"TCP: "):
                    words = line.split()
                    return int(words[words.index(b"tw") + 1])
    except (OSError, ValueError, IndexError):
        pass
    return -1


def tcp_opens() -> int:
    """TCP connections the namespace has opened, actively or passively, since it was made (/proc/net/snmp's Tcp
    ActiveOpens + PassiveOpens: the namespace's own counters, under Linux and gVisor alike); -1 where unreadable."""
    try:
        with open("/proc/net/snmp", "rb") as f:
            rows = [line.split() for line in f if line.startswith(b"Tcp:")]
        names, values = rows[0], rows[1]
        return int(values[names.index(b"ActiveOpens")]) + int(values[names.index(b"PassiveOpens")])
    except (OSError, ValueError, IndexError):
        return -1


def time_wait_unlisted(tw: int) -> list[str]:
    """Where the namespace cannot count its sockets in TIME_WAIT (`tw` -1: gVisor, whose /proc has no sockstat and
    whose /proc/net/tcp lists no TIME_WAIT socket), any TCP connection opened since the fresh box may hold its port
    for the next job's bind (red team of h32h: a FIN_WAIT2 or TIME_WAIT end outlives the job's processes), so the box
    is replaced: known clean only while no connection was made (tcp_opens unchanged). Linux counts `tw`, and its
    tables list such a socket (bound_sockets reads them), so there nothing is added."""
    if tw >= 0:
        return []
    opened = tcp_opens()
    if opened >= 0 and opened == FRESH_TCP_OPENS[0]:
        return []
    return [f"TCP connections opened since the fresh box: {opened} against {FRESH_TCP_OPENS[0]} (a port may be in "
            "TIME_WAIT, which this kernel neither counts nor lists)"]


def unlisted_kinds() -> list[str]:
    """Kinds of kernel object a job could have made that this reset cannot list, so the box is
    replaced rather than reset (docs/sandboxes.md "What a job leaves behind")."""
    if os.path.ismount("/dev/mqueue") or pid1.MQ_DENIED[0]:
        return []
    return ["posix message queues: /dev/mqueue is no mount and mq_open is not denied"]

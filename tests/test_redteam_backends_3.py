"""Red team 3 of the backends (issue 30, rt30g), after the stop that gave gVisor an exact CPU clock (fx30f: PID 1
mounts gVisor's cgroupfs cpuacct at /dev/cpuacct, sandbox/harness/accounting.py mount_cpu_clock and SandboxClock), named
the program's uid in /run/ids (h30e: sandbox/harness/pid1.py write_ids), gave each userns sandbox's program a host uid
of its own (h30e: sandbox/userns_launch.py program_id) and made a session's PID 1 reap every child under one idle CPU
budget (fx34f: sandbox/harness/session_box.py). Programs written as a reward-hunting policy and a hostile tenant would
write them, through the real grader (tests/conftest.py `any_grader`: docker, gvisor, userns; one module-scoped pool
each) and real session boxes (sandbox/session.py SessionHost on that pool's backend). Each test asserts the safe
behaviour; a hole is a strict xfail.

Fixed (fx30h), was an open strict xfail: capabilities regained in a user namespace of the program's own (gvisor;
runsc the same, measured): gVisor's kernel admitted unshare(CLONE_NEWUSER | CLONE_NEWNS), whose new namespace starts
with every capability (CapBnd 0x1ffffffffff inside it, whatever PID 1 dropped from the bounding set after the clock's
mount). The program mapped itself root there and mounted gVisor's cgroupfs (cpuacct), a tmpfs and a writable bind of
/dev/cpuacct, and could make PID namespaces (an init of its own). No CPU was hidden with it: the clock's files are mode
0444 and owned by gVisor's root, unmapped in the program's namespace, so every write, mkdir and move was EACCES, and no
hard rlimit (NPROC, CPU, FSIZE, NOFILE) was raised and no signal, prlimit or ptrace reached PID 1 from it. The class
(admit only what is known safe): the gVisor backend had no seccomp allowlist of its own for the program. Now the
program syscall policy (sandbox/harness/syscalls.py, one home) is PID 1's on every backend (pid1.install_policy,
after the clock's mount and the uids): unshare, mount and setns are EPERM, clone's namespace flags too.

Held (plain tests):
- item 1, the CPU clock (docker, gvisor, userns): no write to cpuacct.usage, tasks or cgroup.procs, no mkdir, no
  rename of the mount, no file in /dev, no writable remount or unmount, no ambient CAP_SYS_ADMIN; and 1.6 s of CPU
  after all of it under a 0.5 s limit is time_limit. A second cgroupfs with more controllers is EBUSY.
- items 2 and 6, writable places and /run/ids (docker, gvisor, userns): a marker left in every folder a job could
  write (three levels, bar the system trees) is gone for the next job; /etc/passwd, /run/ids and the image's ids
  can be neither appended to nor replaced, and the next job's getpwuid answers as before.
- item 3, processes past a job or a session's reset (docker, gvisor, userns; sessions gvisor and userns): a chain
  that forks and exits without pause and an init of a PID namespace of its own ignoring every signal are both gone
  for the next job and the next session in the same container; a background process burning in 40 ms bursts with
  cheap cells every 0.1 s ends its session ("between cells") once the one idle budget is spent.
- item 4, host uids (docker, userns; gvisor a kernel each): a grading box's program and a live session box's
  program never share a host uid.
- item 5 and class 5, memory no process maps (docker, gvisor, userns): 224 MB in memfds held open by an orphan (the
  parent gone, the pages unmapped) is memory_limit; so is 224 MB in SysV segments no process is attached to
  (measured, not kept: CI's seconds).

Noticed, not a finding of this stop: the limit a program meets is the test's plus the language's overhead
(sandbox/config.py overhead_mb: 160 MB for a 64 MB Python test here): 112 MB held in one process is accepted on every
backend, by an orphan on docker and userns (docs/sandboxes.md "Parallel tests of one job: measured, not built" says so). Under
the gvisor backend 112 MB held by an orphan (two forked interpreters besides) was memory_limit where 112 MB of memfds
in the one process was accepted. Measured since (h30u): not the orphan. gVisor leaves a program 17-35 MB less of the
same limit, whoever holds it (its memory file holds the page cache of the box's mapped files and more of each
interpreter's pages), and 112 MB fell between the backends' flips: now a plain test pins each backend's room
(test_an_orphans_memory_meets_the_limit_within_each_backends_tolerance; docs/sandboxes.md "Sandbox backends: Docker
or gVisor without a daemon", its paragraph on the tolerance per backend).
Read, then fixed (h30s): a userns program's host uid is its launch's host pid (program_id), reused only once that
pid is free: the box's removal kills bubblewrap, whose sandbox dies with it (--die-with-parent), and waits for its
cgroup to empty; a cgroup still busy after 50 tries was only logged (sandbox/cgroups.py rmdir), so a sandbox
whose processes outlived that could share its uid with a later one. Now the removal SIGKILLs what the cgroup still
holds, and a uid whose cgroup stays busy even so is quarantined: a launch given its pid is made again
(tests/test_sandbox_userns_quarantine.py).

Docker's runsc runtime is cut (BACKENDS_CUT): every attack gave the gvisor backend's result there.
"""
from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from sandbox.contract import LanguageLimits
from sandbox.session import SessionHost, SessionLimits
from sandbox.sync import SyncGrader
from tests.helpers import kernel_differs, on_backend

pytestmark = pytest.mark.docker  # the images (and the root filesystems exported from them)

# Every backend's grader (tests/conftest.py `any_grader`): one Python sandbox per backend. The memory limit is the
# pool's (64 MB for every Python task), and no task names its own (every backend takes a task's own now, Docker's
# runsc runtime too: tests/test_sandbox_gvisor.py test_a_task_with_its_own_memory_limit_is_graded_under_runsc). A
# wide wall-clock backstop: what is checked is the CPU clock itself.
SANDBOX = {"pool_name": "pytest-redteam-backends-3", "wall_factor": 20.0, "pool_size": 1, "languages": ("python",),
           "limits": {"python": LanguageLimits(default_time_limit_s=4.0, max_time_limit_s=20.0,
                                               default_memory_limit_mb=64)}}
BACKENDS_CUT = {"runsc": "Docker's runsc runtime runs gVisor's kernel as the gvisor backend does: every attack here "
                         "gave the gvisor backend's result there too (measured at rt30g, and the program syscall "
                         "policy's refusal of a user namespace at fx30h), and its pool and runs added about 20 s to this module"}


def run(g: SyncGrader, source: str, **kw) -> dict:
    """A Python program's verdict, with its stdout (return_output)."""
    return g.grade({"language": "python", "completion": source, "return_output": True, **kw})


def stdout(r: dict) -> str:
    return r["tests"][0].get("stdout", "").strip() if r.get("tests") else ""


# ----------------------------------------------------------------- item 1: gVisor's cgroupfs CPU clock
# PID 1 mounts gVisor's cgroupfs cpuacct read-only at /dev/cpuacct (sandbox/harness/accounting.py mount_cpu_clock) and
# reads its root cpuacct.usage for the whole sandbox (SandboxClock). A program that could reset that clock, move its
# tasks to a cgroup of its own below another mount, or remount it writable would run past time_limit. Each attempt is
# one line of what it managed; a user namespace of its own (unshare) is not a finding by itself, what it mounts is.
CLOCK_ATTACKS = r"""import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
bad = []
def wrote(p, data):
    try:
        with open(p, 'w') as f:
            f.write(data)
        return True
    except OSError:
        return False
for name, data in (('cpuacct.usage', '0'), ('tasks', str(os.getpid())), ('cgroup.procs', str(os.getpid()))):
    if wrote('/dev/cpuacct/' + name, data):
        bad.append('wrote clock ' + name)
for what, act in (('mkdir in clock', lambda: os.mkdir('/dev/cpuacct/hide')),
                  ('renamed clock', lambda: os.rename('/dev/cpuacct', '/dev/cpuacct.x')),
                  ('file in /dev', lambda: open('/dev/rt30g', 'w').close())):
    try:
        act()
        bad.append(what)
    except OSError:
        pass
if libc.mount(None, b'/dev/cpuacct', None, 32 | 4096, None) == 0:  # MS_REMOUNT | MS_BIND, writable
    bad.append('remounted clock')
if libc.umount2(b'/dev/cpuacct', 2) == 0:  # MNT_DETACH
    bad.append('unmounted clock')
if libc.prctl(47, 2, 21, 0, 0) == 0:  # PR_CAP_AMBIENT_RAISE CAP_SYS_ADMIN
    bad.append('ambient CAP_SYS_ADMIN')
powers = []  # what a user namespace of its own lets it do (inside it, with every capability of it)
if libc.unshare(0x10000000 | 0x20000) == 0:  # CLONE_NEWUSER | CLONE_NEWNS
    powers.append('userns')
    for name, data in (('uid_map', f'0 {os.getuid()} 1'), ('gid_map', f'0 {os.getgid()} 1')):
        if wrote('/proc/self/' + name, data):
            powers.append(name)
    os.makedirs('/tmp/cg', exist_ok=True)
    if libc.mount(b'cgroup', b'/tmp/cg', b'cgroup', 0, b'cpuacct') == 0:
        powers.append('own cgroupfs')
        if wrote('/tmp/cg/cpuacct.usage', '0'):
            bad.append('reset clock')
        try:
            os.mkdir('/tmp/cg/hide')
            bad.append('own cgroup')
            if wrote('/tmp/cg/hide/cgroup.procs', str(os.getpid())):
                bad.append('moved out')
        except OSError:
            pass
    if libc.mount(None, b'/dev/cpuacct', None, 32 | 4096, None) == 0:
        powers.append('remounted clock')
        if wrote('/dev/cpuacct/cpuacct.usage', '0'):
            bad.append('reset clock in own ns')
    os.makedirs('/tmp/t', exist_ok=True)
    if libc.mount(b'tmpfs', b'/tmp/t', b'tmpfs', 0, None) == 0:
        powers.append('tmpfs')
    import resource  # the namespace's capabilities over what is outside it: none
    for name in ('RLIMIT_NPROC', 'RLIMIT_CPU', 'RLIMIT_FSIZE', 'RLIMIT_NOFILE'):
        try:
            resource.setrlimit(getattr(resource, name), (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
            bad.append('raised ' + name)
        except (ValueError, OSError):
            pass
    for what, act in (('signalled PID 1', lambda: os.kill(1, 0)),
                      ('prlimit on PID 1', lambda: resource.prlimit(1, resource.RLIMIT_CPU, (1, 1)))):
        try:
            act()
            bad.append(what)
        except OSError:
            pass
    if libc.ptrace(16, 1, None, None) == 0:  # PTRACE_ATTACH
        bad.append('ptraced PID 1')
print(' '.join(bad) or 'none')
print(' '.join(powers) or 'none')
"""
BURN = "import time\nt = time.process_time()\nwhile time.process_time() - t < 1.6:\n    pass\nprint('burned')\n"


def test_the_cpu_clock_is_neither_written_remounted_nor_escaped(any_grader: SyncGrader) -> None:
    """Every backend: no write to the clock's files, no cgroup of its own to move to, no rename or writable remount
    of the clock's mount, no file in /dev, no ambient CAP_SYS_ADMIN; in a user namespace of its own (where one is
    made) no reset of the clock through a cgroupfs or a remount of its own, no hard rlimit raised, and no signal,
    prlimit or ptrace reaching PID 1."""
    r = run(any_grader, CLOCK_ATTACKS)
    assert r["verdict"] == "accepted" and stdout(r).splitlines()[:1] == ["none"], r


def test_a_program_gets_no_capability_back_in_a_user_namespace(any_grader: SyncGrader) -> None:
    """PID 1 drops CAP_SYS_ADMIN and CAP_SETPCAP from the bounding set after the clock's mount (accounting.py
    mount_cpu_clock), but a new user namespace starts with a full set (CapBnd 0x1ffffffffff measured inside it), and
    gVisor's kernel let the program make one (rt30g): it mapped itself root there and mounted gVisor's cgroupfs
    (cpuacct), a tmpfs and a writable bind of /dev/cpuacct. On every backend the program syscall policy
    (sandbox/harness/syscalls.py DENIED: unshare, mount, setns) refuses it now, so it gains no power at all. Without
    the policy (rt30g's tree) the second line on gvisor and runsc named its powers: the strict xfail this was."""
    r = run(any_grader, CLOCK_ATTACKS)
    assert r["verdict"] == "accepted" and stdout(r).splitlines() == ["none", "none"], r


def test_cpu_after_every_attempt_on_the_clock_is_still_counted(any_grader: SyncGrader) -> None:
    """The attempts, then 1.6 s of CPU under a 0.5 s limit: time_limit, stopped by its CPU. Near miss: the attempts alone
    (above) are accepted, so the verdict is the burn's."""
    r = run(any_grader, CLOCK_ATTACKS + BURN, time_limit_s=0.5)
    assert r["verdict"] == "time_limit" and not r["retryable"], r


# ----------------------------------------------------------------- items 2 and 6: a writable place the reset misses
# The reset wipes /work, /tmp and /dev/shm (sandbox/harness/leftovers.py WIPE_DIRS) and replaces a box it finds
# unclean; /etc/passwd and /etc/group link into /run/ids, which PID 1 writes as root under Docker with runc (pid1.py
# write_ids) and the image fills elsewhere. A job tries to leave a marker in every folder it can reach (three levels
# down, bar the read-only system trees) and to forge the ids file (append, replace, or a /run/ids of its own); the
# next job looks for any marker and reads who it is.
MARK = ".rt30g-left"
WALK = r"""import os, pwd
SKIP = ('/proc', '/sys', '/usr', '/lib', '/lib32', '/lib64', '/bin', '/sbin', '/boot', '/opt/sandbox/harness')
def folders():
    for root, dirs, _ in os.walk('/'):
        dirs[:] = [d for d in dirs if not os.path.join(root, d).startswith(SKIP) and root.count('/') < 3]
        yield root
"""
LEAVE = WALK + r"""left = []
for d in folders():
    try:
        os.close(os.open(os.path.join(d, '%s'), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
        left.append(d)
    except OSError:
        pass
forged = []
line = 'sandbox:x:0:0:forged:/:/bin/sh\n'
for p in ('/etc/passwd', '/run/ids/passwd', '/opt/sandbox/ids/passwd'):
    try:
        with open(p, 'a') as f:
            f.write(line)
        forged.append('appended ' + p)
    except OSError:
        pass
try:
    os.rename('/run/ids', '/run/ids.old')
    os.mkdir('/run/ids')
    with open('/run/ids/passwd', 'w') as f:
        f.write(line)
    forged.append('replaced /run/ids')
except OSError:
    pass
print('left=' + ','.join(left))
print('forged=' + ','.join(forged))
""" % MARK
LOOK = WALK + r"""found = [d for d in folders() if os.path.lexists(os.path.join(d, '%s'))]
print('found=' + ','.join(found))
print('me=' + pwd.getpwuid(os.getuid()).pw_name + ':' + str(pwd.getpwuid(os.getuid()).pw_uid))
print('root=' + pwd.getpwnam('root').pw_name + ':' + str(pwd.getpwnam('root').pw_uid))
print('forged=' + str('forged' in open('/etc/passwd').read()))
""" % MARK


def _kv(text: str) -> dict[str, str]:
    return dict(w.split("=", 1) for w in text.strip().splitlines() if "=" in w)


def _fields(r: dict) -> dict[str, str]:
    return _kv(stdout(r))


def test_no_folder_and_no_ids_file_carry_a_job_to_the_next(any_grader: SyncGrader) -> None:
    """Every backend: the markers a job leaves (in /work, /tmp, /dev/shm at least: near miss, the job itself made
    them) are gone for the next job, and the ids it reads are the image's or PID 1's, never the last job's."""
    before = _fields(run(any_grader, LOOK))
    r = run(any_grader, LEAVE)
    made = _fields(r)
    assert r["verdict"] == "accepted" and "/tmp" in made.get("left", "").split(","), r
    after = _fields(run(any_grader, LOOK))
    assert after.get("found") == "" and after.get("forged") == "False", (made, after)
    assert after["me"] == before["me"] and after["root"] == before["root"], (before, after, made)
    assert made.get("forged") == "", made  # not even the job itself changed them


# ----------------------------------------------------------------- items 3 and 6: a process that outlives its job
# Two ways a process may hope to miss the reset's kill(-1) (sandbox/harness/job_protocol.py kill_all_others): a chain
# that forks and exits without pause (always a new pid, racing the kill), and where the kernel lets it (gVisor) the
# init of a PID namespace of its own, ignoring every signal it can. Each names itself (comm) so the next job can
# count what is left of it in /proc.
GHOST = r"""import ctypes, os, signal, time
libc = ctypes.CDLL(None, use_errno=True)
def away(name):
    null = os.open('/dev/null', os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.setsid()
    libc.prctl(15, name, 0, 0, 0)  # PR_SET_NAME
if os.fork() == 0:
    away(b'rt30g-ghost-a')
    while True:
        try:
            if os.fork():
                os._exit(0)
        except OSError:
            pass
if os.fork() == 0:
    away(b'rt30g-ghost-b')
    libc.unshare(0x10000000 | 0x20000000)  # CLONE_NEWUSER | CLONE_NEWPID, where admitted
    if os.fork() == 0:
        for s in range(1, 32):
            try:
                signal.signal(s, signal.SIG_IGN)
            except (OSError, ValueError):
                pass
        while True:
            time.sleep(0.05)
    os._exit(0)
time.sleep(0.2)
"""
GHOSTS = r"""import os
names = []
for p in os.listdir('/proc'):
    try:
        names.append(open(f'/proc/{p}/comm').read().strip()) if p.isdigit() else None
    except OSError:
        pass
print('ghosts=' + ','.join(sorted(n for n in names if n.startswith('rt30g-'))))
"""


def test_no_process_of_a_job_outlives_it(any_grader: SyncGrader) -> None:
    """Every backend: the next job finds none of the last job's processes. Near miss: the job itself sees its two."""
    r = run(any_grader, GHOST + GHOSTS)
    assert r["verdict"] == "accepted" and _fields(r).get("ghosts", "").count("rt30g-ghost-") >= 2, r
    later = run(any_grader, GHOSTS)
    assert later["verdict"] == "accepted" and _fields(later).get("ghosts") == "", later


# ----------------------------------------------------------------- item 5 and class 5: memory no process maps
# The pool's limit for the whole sandbox is the test's 64 MB plus the language's overhead (sandbox/config.py
# overhead_mb: 160 MB here); a program holds 224 MB where no process of it maps them: in memfds an orphan holds open
# (the parent gone, the pages unmapped), or in a SysV segment no process is attached to. Under gVisor that is the
# watchdog's memory file (sandbox/watchdog.py), elsewhere the memory cgroup.
HIDDEN = {
    "memfd_held_by_an_orphan": r"""import mmap, os, time
PART = 16 << 20
fds = [os.memfd_create('held') for _ in range({parts})]
r, w = os.pipe()
if os.fork() == 0:
    if os.fork():
        os._exit(0)
    null = os.open('/dev/null', os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    for fd in fds:
        os.ftruncate(fd, PART)
        m = mmap.mmap(fd, PART)
        for i in range(0, PART, 4096):
            m[i] = 1
        m.close()
        os.write(w, b'x')
    os.close(w)
    time.sleep(60)
    os._exit(0)
os.close(w)
os.wait()
for fd in fds:
    os.close(fd)
n = 0
while os.read(r, 1):
    n += 1
time.sleep(0.5)
print(f'held={{n * 16}}')
""",
    "sysv_segment_no_one_attached": r"""import ctypes, time
libc = ctypes.CDLL(None, use_errno=True)
libc.shmat.restype = ctypes.c_void_p
n = 0
for _ in range({parts}):
    sid = libc.shmget(0, ctypes.c_size_t(16 << 20), 0o1600)
    p = libc.shmat(sid, None, 0)
    ctypes.memset(p, 1, 16 << 20)
    libc.shmdt(ctypes.c_void_p(p))
    n += 16
time.sleep(1)
print(f'held={{n}}')
""",
}


def test_memory_no_process_maps_counts_for_the_sandbox(any_grader: SyncGrader) -> None:
    """Every backend: 224 MB held either way is memory_limit. Near miss: 16 MB held so is accepted, and says so (the
    two ways held on every backend, measured; the memfd one is kept, CI's seconds)."""
    small = run(any_grader, HIDDEN["memfd_held_by_an_orphan"].format(parts=1))
    assert small["verdict"] == "accepted" and _fields(small).get("held") == "16", small
    r = run(any_grader, HIDDEN["memfd_held_by_an_orphan"].format(parts=14))
    assert r["verdict"] == "memory_limit", r



# An orphan (double fork: its parent gone before the program's main process exits) holding N MB of its own pages,
# with a 64 MB test limit (the pool's: 160 MB for the whole sandbox with the language's overhead). Measured flips (N
# accepted / memory_limit, 2 loaded cores, issue 30): docker and userns 125 / 127 (the same program holding them in its
# main process 128 / 130: the cgroup, whose rest is 31-34 MB of anonymous memory); gvisor 106 / 108 (main process
# 111 / 113), with the warm fork on (VERIFIER_TEST_WARM_FORK) 90 / 92 (103 / 104). gVisor's memory file holds what a
# cgroup does not hold against the program: the page cache of the files its processes map (12.5 MB for a Python box
# at rest, gVisor's /proc/meminfo Cached; under Docker that cache is the host's, reclaimable, charged to whoever read it
# first) and more private memory per interpreter (a fork's pages: 5 MB for two forks, 12 MB as forks of the zygote,
# against 3 MB under Linux). docs/sandboxes.md "Sandbox backends: Docker or gVisor without a daemon", its paragraph
# on the tolerance per backend. h30x: under runc and userns a step's room is no longer the fixed 96 MB allowance but
# what the box holds at rest when its job begins plus the capture bound (Backend.overhead_mb: 33 MB for the defaults),
# so there the program has its limit plus at most that, and 116 MB under 64 MB is memory_limit on every backend.
ORPHAN_HOLDS = r"""import os, time
N = {mb}
r, w = os.pipe()
if os.fork() == 0:
    if os.fork():
        os._exit(0)
    x = bytearray(N << 20)
    x[::4096] = b'\x01' * (N << 8)
    os.write(w, b'x')
    time.sleep(30)
    os._exit(0)
os.close(w)
os.wait()
held = os.read(r, 1)
time.sleep(0.5)
print(f'held={{N if held else 0}}')
"""
ORPHAN_UNDER_MB, ORPHAN_BETWEEN_MB, ORPHAN_OVER_MB = 80, 116, 144  # under every flip, between them, over every flip


def test_an_orphans_memory_meets_the_limit_within_each_backends_tolerance(any_grader: SyncGrader, backend: str) -> None:
    """Every backend: an orphan holding 80 MB under a 64 MB test limit (the limit's tolerance: 16 MB of it) is
    accepted and says so, and one holding 144 MB (80 MB over) is memory_limit. 116 MB, between the flips before h30x,
    was accepted on docker and userns (the fixed allowance: the module's comment above) and is memory_limit on every
    backend now that runc's and userns's room is the box's rest plus the capture bound (Backend.overhead_mb)."""
    under = run(any_grader, ORPHAN_HOLDS.format(mb=ORPHAN_UNDER_MB))
    assert under["verdict"] == "accepted" and _fields(under).get("held") == str(ORPHAN_UNDER_MB), under
    between = run(any_grader, ORPHAN_HOLDS.format(mb=ORPHAN_BETWEEN_MB))
    assert between["verdict"] == "memory_limit", between
    over = run(any_grader, ORPHAN_HOLDS.format(mb=ORPHAN_OVER_MB))
    assert over["verdict"] == "memory_limit", over

# ----------------------------------------------------------------- item 3: a session's PID 1, its reset and idle budget
# Session boxes straight from the sandbox layer (sandbox/session.py SessionHost, on the module's grader's backend, as
# verifier/sessions.py makes it: no server), on every backend; the server's session suites are
# tests/test_sessions_redteam.py (Docker) and tests/test_sessions_attacks.py.
@pytest.fixture(scope="module")
def session_host(any_grader: SyncGrader) -> Iterator[SessionHost]:
    host = SessionHost(any_grader.grader.config, max_sessions=2, spares=1, backend=any_grader.grader.backend)
    try:
        yield host
    finally:
        host.remove_all()


def _cell(box, code: str) -> dict:
    r = box.cell(code)
    assert r.get("status") == "ok", r
    return r


SESSION_BACKENDS = pytest.mark.parametrize("backend", ["gvisor", "userns"], indirect=True, scope="module")  # the
# backends whose sessions no suite attacks (tests/test_sessions_redteam.py is Docker's); the module's pools serve them


@SESSION_BACKENDS
def test_no_process_of_a_session_outlives_its_reset(session_host: SessionHost) -> None:
    """gVisor and userns: a session's fork racer and PID-namespace init are gone for the next session in the same
    container (reset: job_protocol.reset), or the container is replaced. Near miss: the session sees its two."""
    limits = SessionLimits(time_limit_s=2)
    box = session_host.take_box("python", limits, {})
    _cell(box, f"exec({GHOST!r})")
    assert _cell(box, f"exec({GHOSTS!r})")["stdout"].count("rt30g-ghost-") >= 2
    session_host.give_back(box)
    box = session_host.take_box("python", limits, {})
    try:
        assert _cell(box, f"exec({GHOSTS!r})")["stdout"].strip() == "ghosts=", box
    finally:
        session_host.give_back(box)  # clean: the next test's session may start in it


# ----------------------------------------------------------------- item 4: one host uid per sandbox
# The kernel keeps per-user counts by host uid (processes for RLIMIT_NPROC, pipe pages, message queue bytes, pending
# signals): two live sandboxes whose programs share one would share them. Under userns the program's uid maps to a
# host uid of its launch (sandbox/userns_launch.py program_id), under Docker with runc to one of the container's
# (sandbox/backend.py PROGRAM_UID_BASE). The program reads its host uid from its user namespace's map.
HOST_UID = r"""import os
uid = os.getuid()
for line in open('/proc/self/uid_map'):
    inside, outside, n = map(int, line.split())
    if inside <= uid < inside + n:
        print(f'host_uid={outside + uid - inside}')
"""


def test_two_live_sandboxes_never_share_the_programs_host_uid(any_grader: SyncGrader, session_host: SessionHost,
                                                              backend: str) -> None:
    """Docker (runc) and userns: a grading box's program and a live session box's program have two host uids. Near
    miss: the same box asked twice gives one. Under gVisor each sandbox is a kernel of its own, whose per-user counts
    no other sandbox shares: both are its uid 65534 there."""
    box = session_host.take_box("python", SessionLimits(time_limit_s=2), {})
    try:
        in_session = _kv(_cell(box, HOST_UID)["stdout"])["host_uid"]
        graded = [_fields(run(any_grader, HOST_UID))["host_uid"] for _ in range(2)]
    finally:
        session_host.give_back(box)
    assert graded[0] == graded[1], graded
    same = on_backend(backend, False, kernel_differs(True, "each gVisor sandbox is a kernel of its own: its per-user "
                                                           "counts are its own whatever uid its program has"))
    assert (in_session == graded[0]) == same, (in_session, graded)


# A process left by a cell burns 40 ms, sleeps 10 ms, forever (most of a core, never all); cheap cells come every 0.1 s. The
# session's one idle budget (max(time_limit_s, 1) = 1 s in all; docs/sessions.md "Sessions") must end it.
BURSTS = """import os, time
if os.fork() == 0:
    null = os.open('/dev/null', os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.setsid()
    while True:
        t = time.process_time()
        while time.process_time() - t < 0.04:
            pass
        time.sleep(0.01)
"""


@SESSION_BACKENDS
def test_a_bursting_background_process_ends_its_session(session_host: SessionHost) -> None:
    """gVisor and userns: the session is lost ("between cells") well before the 30 s this waits at most (its budget is
    spent in about 1.5 s of wall). Near miss: the cheap cells themselves answer until then."""
    box = session_host.take_box("python", SessionLimits(time_limit_s=1), {})
    try:
        _cell(box, BURSTS)
        deadline, r = time.monotonic() + 30, {}
        while time.monotonic() < deadline:
            r = box.cell("1")
            if r.get("status") != "ok":
                break
            time.sleep(0.1)
        assert r.get("status") == "lost" and "between cells" in r.get("detail", ""), r
    finally:
        session_host.destroy(box)

"""Red team 2 of the backends (issue 30): after the stop that gave each Docker container's program a host uid of its own
(sandbox/backend.py PROGRAM_UID_BASE) and made the userns backend refuse without a cgroup (sandbox/userns.py NO_CGROUP).
Programs written as a reward-hunting policy would write them, through the real grader (tests/conftest.py `any_grader`,
one module-scoped pool per backend); each test asserts the safe behaviour, so a finding is a test that fails. The
claims: docs/sandboxes.md "Sandbox backends" (a limit holds for the whole sandbox, on every backend) and "CPU time
without a cgroup"; docs/sandboxes.md "Code sandboxes" (the program's own uid per container).

Found (each test below fails on main where it says):
- class 5, CPU measured by sampling: under gVisor (backend gvisor, and Docker's runsc runtime) a job's CPU is
  gVisor's per-task accounting read every POLL_S in whole clock ticks (sandbox/harness/accounting.py TaskClock), and a
  child the kernel reaps itself (its parent ignores SIGCHLD) counts only as far as a reading saw it. The design rests
  on a fork costing its parent more than one period under gVisor; a child made with clone(CLONE_VM | CLONE_VFORK)
  shares its parent's memory and costs it little, so children that each burn just under a tick are mostly unseen.
  Fixed: the runner mounts gVisor's own cgroupfs and reads its cpuacct clock, which counts every task exactly
  (sandbox/harness/accounting.py mount_cpu_clock).
- a right answer that looks up its own user: under Docker (runc) the program's uid (sandbox/backend.py
  PROGRAM_UID_BASE) has no /etc/passwd entry, so Python's getpass.getuser()/pwd.getpwuid, C's getpwuid and Node's
  os.userInfo() fail, and a program that works on every other backend and any normal machine is runtime_error there.
- class 6, a bound name the reset does not list: a netlink port id or a UDP-Lite port (IPv4 or IPv6) bound by a
  socket sent in flight to itself stays bound for the next job under Docker (runc) and userns (the reset reads only
  /proc/net's unix, tcp, tcp6, udp, udp6, raw and raw6: sandbox/harness/leftovers.py NET_TABLES), until the kernel's
  unix garbage collector runs, which the reset does not wait for (so a run may find it gone: measured on main, the
  next job found it taken in most runs). Fixed: the reset counts every socket of the namespace against the fresh
  box's counts (sandbox/harness/leftovers.py sockets_over_fresh), whatever its family.

The module's sandboxes have a wide wall-clock backstop (wall_factor): what is checked is the CPU accounting itself,
and a busy CI host must not turn a CPU time limit the accounting missed into a wall-clock one."""
from __future__ import annotations

import re

import pytest

from sandbox.sync import SyncGrader
from tests.helpers import kernel_differs, on_backend

pytestmark = pytest.mark.docker  # the images (and the root filesystems exported from them)

# Every backend's grader (tests/conftest.py `any_grader`): one sandbox per language with these settings.
SANDBOX = {"pool_name": "pytest-redteam-backends-2", "wall_factor": 20.0, "pool_size": 1,
           "languages": ("python", "c", "javascript")}


def code(language: str, source: str, expected: str = "3\n", **kw) -> dict:
    return {"kind": "code", "language": language, "completion": f"```{language}\n{source}\n```",
            "tests": [{"stdin": "1 2\n", "expected_stdout": expected}], **kw}


# ----------------------------------------------------------------- class 5: CPU the sampling does not see
# Each child shares the parent's memory (CLONE_VM) and the parent sleeps until it exits (CLONE_VFORK), so making one is
# a task, not an address space, under gVisor too; the parent ignores SIGCHLD, so the kernel reaps each child itself
# and adds its time to no one (docs/sandboxes.md "CPU time without a cgroup"). Each burns 9 ms of its own CPU: under
# one clock tick (/proc/PID/stat counts whole ticks of 10 ms) and one of the runner's readings (POLL_S) apart, so the
# ledger keeps at most a tick of it, and mostly none. 200 children are 1.8 s of CPU under a 1 s limit. Measured on
# main on the loaded 2-core host: 250 x 9 ms under 1 s accepted 3 of 3 (gvisor), 400 x 9 ms accepted under runsc;
# what is seen moves with the host's load (400 x 9 ms was time_limit at 1.02 s under gvisor, 2 of 2).
VFORK_BURN = r"""#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>
static char stack[1 << 16];
static double cpu(void) { struct timespec t; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); return t.tv_sec + t.tv_nsec / 1e9; }
static int burn(void *arg) { double t = cpu(); while (cpu() - t < 0.009) {} _exit(0); }
int main(void) {
    int a, b, n;
    if (scanf("%d %d %d", &a, &b, &n) != 3) return 1;
    signal(SIGCHLD, SIG_IGN);
    for (int i = 0; i < n; i++)
        if (clone(burn, stack + sizeof stack, CLONE_VM | CLONE_VFORK | SIGCHLD, NULL) < 0) { perror("clone"); return 1; }
    printf("%d\n", a + b);
    return 0;
}"""


def vfork_burn(n: int) -> dict:
    """n children, n on stdin: one source, so the near miss reuses the first run's build."""
    return {**code("c", VFORK_BURN, time_limit_s=1), "tests": [{"stdin": f"1 2 {n}\n", "expected_stdout": "3\n"}]}


def test_cpu_of_short_children_that_cost_their_parent_nothing_counts(any_grader: SyncGrader) -> None:
    """Found under gVisor (gvisor, runsc): 1.8-3.6 s of CPU in children the kernel reaps under a 1 s limit was accepted
    (sandbox/harness/accounting.py TaskClock: the ledger misses what a task used after its last reading, and each
    child lives less than one reading apart). Near miss: a tenth of them fits."""
    r = any_grader.grade(vfork_burn(200))
    counted = re.search(r"\(([0-9.]+)s CPU", r["detail"])
    assert r["verdict"] == "time_limit" and not r["retryable"], r
    assert counted is None or float(counted.group(1)) >= 1, r  # stopped by its CPU, not by the wide wall clock
    small = any_grader.grade(vfork_burn(20))
    assert small["verdict"] == "accepted", small


# The clock's price (sandbox/harness/accounting.py mount_cpu_clock): under gVisor PID 1 starts with gVisor's CAP_SYS_ADMIN
# and CAP_SETPCAP to mount the clock, so the program must hold neither, in no set, bounding included, and must not be
# able to write the clock (cgroup v1's cpuacct.usage takes a write of 0 as a reset) or mount one of its own.
CAPS = r"""import ctypes, os
st = dict(l.split(':', 1) for l in open('/proc/self/status'))
bad = [k for k in ('CapEff', 'CapPrm', 'CapInh', 'CapAmb') if int(st.get(k, '0'), 16)] + (['CapBnd'] if int(st['CapBnd'], 16) & ~0xC0 else [])
for p in ('/dev/cpuacct/cpuacct.usage', '/sys/fs/cgroup/cpuacct/cpuacct.usage', '/sys/fs/cgroup/cpu.stat'):
    try:
        with open(p, 'w') as f:
            f.write('0')
        bad.append('wrote ' + p)
    except OSError:
        pass
os.makedirs('/tmp/cg', exist_ok=True)
if ctypes.CDLL(None, use_errno=True).mount(b'cgroup', b'/tmp/cg', b'cgroup', 0, b'cpuacct') == 0:
    bad.append('mounted')
print(' '.join(bad) or 'none')"""


def test_the_program_holds_nothing_the_cpu_clock_needed(any_grader: SyncGrader, backend: str) -> None:
    """Every backend: no capability in any set (the bounding set at most CAP_SETUID and CAP_SETGID, which the runner's
    uids make useless), no write to the CPU clock, no cgroupfs of its own."""
    want = on_backend(backend, "none", {"userns": ("CapInh CapBnd", "bubblewrap leaves its user namespace's inheritable "
                                                    "and bounding sets full (no clock is mounted there: the host's cgroup "
                                                    "is its clock); no-new-privileges and no file capabilities leave "
                                                    "them nothing to grant")})
    r = any_grader.grade({"language": "python", "completion": CAPS, "return_output": True})
    assert r["verdict"] == "accepted" and r["tests"][0].get("stdout", "").strip() == want, r


# ----------------------------------------------------------------- a right answer that asks who it is
# Programs that look up their own user name as any program on a normal machine may (a log line, a cache folder named
# after the user, a library that does it at import). The uid the sandbox gives the program must have a name; under
# Docker with runc each container's program is a host uid of its own (sandbox/backend.py PROGRAM_UID_BASE), which
# no /etc/passwd of the images lists. Each program prints the sum only once the look-up answered.
WHO_AM_I = {
    "python": "import getpass, os, pwd\nname = getpass.getuser()\nassert pwd.getpwuid(os.getuid()).pw_name == name\n"
              "assert os.path.expanduser('~') and pwd.getpwuid(os.getuid()).pw_dir\n"
              "a, b = map(int, input().split())\nprint(a + b{near})",
    "c": '#include <pwd.h>\n#include <grp.h>\n#include <stdio.h>\n#include <unistd.h>\n'
         'int main(void) {\n    struct passwd *p = getpwuid(getuid());\n    struct group *g = getgrgid(getgid());\n'
         '    if (!p || !g || !p->pw_name[0]) { fprintf(stderr, "who am I?\\n"); return 1; }\n'
         '    int a, b;\n    if (scanf("%d %d", &a, &b) != 2) return 1;\n    printf("%d\\n", a + b{near});\n    return 0;\n}',
    "javascript": 'const os = require("os");\nconst me = os.userInfo();\nif (!me.username) throw new Error("who am I?");\n'
                  'const s = require("fs").readFileSync(0, "utf8").trim().split(/\\s+/).map(Number);\n'
                  "console.log(s[0] + s[1]{near});",
}


@pytest.mark.parametrize("language", list(WHO_AM_I))
def test_a_program_that_looks_up_its_own_user_is_graded_as_on_any_machine(any_grader: SyncGrader, language: str) -> None:
    """Found under Docker (runc): `getpass.getuser()` raised, `getpwuid` returned NULL and `os.userInfo()` threw
    (ENOENT: the uid is in no /etc/passwd), each a right answer's runtime_error, where every other backend (uid 65534,
    `nobody`) accepts it. Near miss: the same program off by one is wrong_answer, so the look-up answers and the
    comparison still bites."""
    right = any_grader.grade(code(language, WHO_AM_I[language].replace("{near}", "")))
    assert right["verdict"] == "accepted", right
    near = any_grader.grade(code(language, WHO_AM_I[language].replace("{near}", " + 1")))
    assert near["verdict"] == "wrong_answer", near


# ----------------------------------------------------------------- class 6: a bound name the reset does not list
# The reset replaces a box whose network namespace still has a bound socket, found in /proc/net's unix, tcp, tcp6,
# udp, udp6, raw and raw6 tables (sandbox/harness/leftovers.py NET_TABLES; docs/sandboxes.md "What a job leaves
# behind"). A socket sent in flight to itself (SCM_RIGHTS, a cycle no process holds) stays bound after its job, and
# other families bind names too: a netlink socket its port id (any the program picks), a UDP-Lite socket a loopback
# port (its own table, /proc/net/udplite). The next job's bind of that name fails: bits carried between jobs.
# Now the reset also counts every socket of the namespace (/proc/net/sockstat, /proc/net/protocols) against the fresh
# box's counts, whatever the family (leftovers.sockets_over_fresh): one test per backend, every kind in one job.
BOUND = {
    "netlink_port_id": ("socket.AF_NETLINK, socket.SOCK_RAW, socket.NETLINK_ROUTE", "(0x7a31, 0)"),
    "udplite_port": ("socket.AF_INET, socket.SOCK_DGRAM, 136", "('127.0.0.1', 30031)"),
    "udplite6_port": ("socket.AF_INET6, socket.SOCK_DGRAM, 136", "('::1', 30032)"),
}
PROBE = """import errno, socket
KINDS = {kinds}
def bound(family, name):
    s = socket.socket(*family)
    try:
        s.bind(name)
    except OSError:
        return None
    return s
def taken(family, name):
    try:
        s = socket.socket(*family)
    except OSError:
        return 'no such family'
    try:
        s.bind(name)
    except OSError as e:
        return 'taken' if e.errno == errno.EADDRINUSE else 'no such family'
    s.close()
    return 'free'
""".format(kinds="{" + ", ".join(f"{k!r}: (({f}), {n})" for k, (f, n) in BOUND.items()) + "}")
# Each kind bound (where the family exists), all sent in flight to a socket pair of their own; the maker's own probe
# of each name is its near miss (the probe sees a leftover).
MAKE_BOUND = """held = {k: None if taken(*v) == 'no such family' else bound(*v) for k, v in KINDS.items()}
x, y = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)
socket.send_fds(x, [b'k'], [s.fileno() for s in held.values() if s is not None] + [x.fileno(), y.fileno()])
print('\\n'.join(f'{k}={taken(*v) if held[k] else "no such family"}' for k, v in KINDS.items()))"""
LOOK = "print('\\n'.join(f'{k}={taken(*v)}' for k, v in KINDS.items()))"


def _stdout(g: SyncGrader, source: str) -> tuple[dict, dict[str, str]]:
    r = g.grade({"language": "python", "completion": source, "return_output": True})
    out = r["tests"][0].get("stdout", "") if r["tests"] else ""
    return r, dict(w.split("=", 1) for w in out.splitlines() if "=" in w)


def test_a_name_a_job_keeps_bound_does_not_reach_the_next_job(any_grader: SyncGrader, backend: str) -> None:
    """A job binds a netlink port id and UDP-Lite ports (IPv4, IPv6) and sends the sockets in flight to themselves; the
    next job must find every name free (a box replaced is as good as reset). Near miss: the job itself finds each
    taken, so the probe sees a leftover. Found under Docker (runc) and userns: each stayed bound for the next job (the
    reset read no /proc/net/netlink or udplite; now it counts every socket of the namespace:
    sandbox/harness/leftovers.py sockets_over_fresh)."""
    r, made = _stdout(any_grader, PROBE + MAKE_BOUND)
    for kind in BOUND:
        want = on_backend(backend, ("taken", "no such family"), kernel_differs(
            ("free", "no such family"), "gVisor's netlink gives a port id to any socket that asks, so no bind of it is "
            "refused (measured: the maker's own probe finds it free) and no name is carried; gVisor has no UDP-Lite")
            if kind == "netlink_port_id" else {})
        assert r["verdict"] == "accepted" and made.get(kind) in want, (kind, r, made)
    r, later = _stdout(any_grader, PROBE + LOOK)
    assert r["verdict"] == "accepted" and set(later) == set(BOUND), (r, later)
    assert all(v in ("free", "no such family") for v in later.values()), (later, r)


# A TCP port a job leaves in TIME_WAIT (its connection's active close): for 60 s the next job's bind of it is refused,
# a bit carried between jobs, and a socket in TIME_WAIT is no socket /proc/net/protocols counts. The reset finds it in
# /proc/net/tcp (or tcp6), or, where it leaves those tables unread because the namespace's counts prove them empty
# (leftovers.tcp_tables_empty, issue 32), in /proc/net/sockstat's `tw`: the box is replaced either way.
TIME_WAIT = """import errno, socket, time
PORT = 30041
def taken():
    s = socket.socket()
    try:
        s.bind(('127.0.0.1', PORT))
    except OSError as e:
        return 'taken' if e.errno == errno.EADDRINUSE else 'error %d' % e.errno
    s.close()
    return 'free'
"""
MAKE_TIME_WAIT = """l = socket.socket()
l.bind(('127.0.0.1', 30042))
l.listen()
c = socket.socket()
c.bind(('127.0.0.1', PORT))
c.connect(('127.0.0.1', 30042))
s, _ = l.accept()
c.close()  # the active close: PORT's end goes to TIME_WAIT once s closes too
time.sleep(0.05)
s.close()
l.close()
time.sleep(0.05)
print('tw=' + taken())"""


def test_a_port_a_job_leaves_in_time_wait_does_not_reach_the_next_job(any_grader: SyncGrader) -> None:
    """A job closes a loopback connection first, so its port stays in TIME_WAIT after every process is gone; the next
    job must find the port free (a box replaced is as good as reset). Near miss: the job itself finds it taken.
    Found (h32h, issue 32's helper): under gVisor the next job found the port taken (gVisor neither counts nor lists
    TIME_WAIT); closed since: there a TCP connection made since the fresh box replaces it (leftovers.time_wait_unlisted)."""
    r, made = _stdout(any_grader, TIME_WAIT + MAKE_TIME_WAIT)
    assert r["verdict"] == "accepted" and made.get("tw") == "taken", (r, made)
    r, later = _stdout(any_grader, TIME_WAIT + "print('tw=' + taken())")
    assert r["verdict"] == "accepted" and later.get("tw") == "free", (r, later)

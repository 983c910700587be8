"""The judge of assert-style tests (test_code): trusted, in its own process (docs/sandboxes.md "How
assert-style tests are judged"). Standard library only; runs as `python3 -I judge.py` in the job dir
(started by the runner as a fork of itself: sandbox/harness/job_protocol.py, fork_judge).

Before it reads anything, the judge sets its saved uid to its real uid, the judge's (the runner
started it with the program's uid as effective uid only: sandbox/harness/pid1.py), makes itself
non-dumpable, and starts the program's process: a new interpreter, never a fork (the judge is a
fork of the runner, whose memory holds the job's request: start_program). It takes the program's
uid for all three (so it can signal, prlimit or ptrace no process of the judge's uid), holds no fd
of the judge's but its socket pair (serve.py: channel()), takes /dev/null as stdin, runs prog.py and
then only answers calls. The tests, the nonce and the result fd never exist in the program's
process. The tests run here, in a fresh
namespace where each function of the program is a proxy: arguments and results cross as typed
data (wire.py, wire_rich.py), exceptions by builtin type (or a loaded library's class:
library_exception), mutated arguments come back. On the result fd, `<nonce> {"result": "ok"}` when
every assert passed, "assert" when one failed (every line the judge writes there carries the nonce:
kinds.Emitter).

`judge.py KIND` (KIND: call, pytest, unittest, or assert with the task's entry_point) reads a JSON
spec line after the nonce and runs those tests here too (kinds.py), one result line per test; each
call then has a time limit, and a program process that timed out or died is replaced by a fresh
one (serve.py started as a new interpreter: nothing of the judge's memory reaches it). A call's
CPU time is the container's less the judge's own, so children the program never waited for count;
its wall-clock limit bounds a reply begun and never finished too; at either limit every process of
the program's uid is killed (docs/sandboxes.md "How assert-style tests are judged").
"""
from __future__ import annotations

import ast
import builtins
import ctypes
import importlib
import json
import os
import resource
import select
import signal
import socket
import sys
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # -I leaves our own (read-only) dir out
import confine  # noqa: E402
import kinds  # noqa: E402
import pid1  # noqa: E402
import serve  # noqa: E402
import wire  # noqa: E402


POLL_S = 0.05  # how often a running call's CPU time is read
CGROUP_CPU = ("/sys/fs/cgroup/cpuacct/cpuacct.usage", "/sys/fs/cgroup/cpu,cpuacct/cpuacct.usage",
              "/sys/fs/cgroup/cpu.stat")  # the container's CPU time, as the runner reads it (v1, v2)
PROGRAM_UID = -1  # the program's uid when the judge holds another (keep_apart); -1: one uid for both


def keep_apart() -> int:
    """Real and saved uid the judge's, effective uid the program's (for its files and to kill its
    processes): return the program's uid, or -1 when the runner gave us one uid only."""
    ruid, euid, _ = os.getresuid()
    if ruid == euid:
        return -1
    os.setresuid(-1, -1, ruid)
    return euid


def as_program() -> None:
    """In a child that becomes the program's process: every uid the program's."""
    if PROGRAM_UID >= 0:
        os.setresuid(PROGRAM_UID, PROGRAM_UID, PROGRAM_UID)
    if confine.ON[0]:  # one uid for both: its own domain and filter (harness/confine.py)
        confine.confine()


def container_cpu() -> float | None:
    """CPU seconds of every process of the container (its cgroup), or None where none is readable."""
    for path in CGROUP_CPU:
        try:
            with open(path, "rb") as f:
                if not path.endswith("cpu.stat"):
                    return int(f.read()) / 1e9
                for line in f:
                    if line.startswith(b"usage_usec"):
                        return int(line.split()[1]) / 1e6
        except (OSError, ValueError):
            continue
    return None


def uid_cpu(uid: int) -> float:
    """Without cgroup accounting: CPU seconds of every live process of uid but this one (those it
    waited for included), from /proc."""
    total, me = 0, os.getpid()
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == me:
            continue
        try:
            with open(f"/proc/{name}/status", "rb") as f:
                real = next(int(line.split()[1]) for line in f if line.startswith(b"Uid:"))
            if real != uid:
                continue
            with open(f"/proc/{name}/stat", "rb") as f:
                fields = f.read().rpartition(b")")[2].split()
            total += sum(int(x) for x in fields[11:15])
        except (OSError, ValueError, IndexError, StopIteration):
            continue
    return total / os.sysconf("SC_CLK_TCK")


class Late(BaseException):
    """The call's wall-clock limit passed while a reply was being read (signal.setitimer)."""


def _late(signum, frame) -> None:
    raise Late


def undumpable() -> None:
    """PR_SET_DUMPABLE=0: a same-uid process can no longer ptrace us or open /proc/<pid>/*."""
    ctypes.CDLL(None, use_errno=True).prctl(4, 0, 0, 0, 0)


def channel() -> tuple[int, int]:
    """(read end, write end) of a socket pair where a pipe would do, as sandbox/harness/pid1.py's channel():
    under gVisor a program could reopen the judge's end of a pipe through /proc/<pid>/fd; a socket
    cannot be reopened by path (docs/sandboxes.md "Sandbox backends")."""
    r, w = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    r.shutdown(socket.SHUT_WR)
    w.shutdown(socket.SHUT_RD)
    return r.detach(), w.detach()


KEEPER: list = []  # the runner's keeper socket under warm mode (KEEPER_FD: sandbox/harness/warm_keeper.py keep_program)


def start_program() -> tuple[int, int, int]:
    """A fresh program process running serve.py with every uid the program's; return (pid, fd to
    it, fd from it). Never a fork of this process: the judge holds the job's tests and expected
    values, and under exec mode is a fork of the runner, whose memory holds the request (red-team
    finding: a forked program walked its stack to the runner's frame, read the call tests' expected
    values and returned them). Under warm mode the runner forks it from the zygote, which never held
    a test (warm_program); else, or when that fails, it is a new interpreter."""
    to_r, to_w = channel()
    from_r, from_w = channel()
    pid = warm_program(to_r, from_w)
    if not pid:
        try:  # reaped by Program.kill()
            pid = pid1.start([sys.executable, "-I", serve.__file__, str(to_r), str(from_w)], (-1, 1, 2), (to_r, from_w),
                             os.getcwd(), dict(os.environ), as_program, new_session=False).pid
        except OSError as e:  # never an OSError a test's `except OSError` or `pytest.raises(OSError)` could take
            for fd in (to_r, to_w, from_r, from_w):
                os.close(fd)
            raise wire.WireError(f"the program could not be started: {e}") from None
    os.close(to_r)
    os.close(from_w)
    try:  # the interpreter's start, before any of the program runs: never charged to the program's limits
        wire.recv(from_r)
    except wire.WireError:
        pass  # it died before (the next read says so, as the program's failure)
    return pid, to_w, from_r


def warm_program(to_r: int, from_w: int) -> int:
    """Under warm mode, the pid of a program process the runner forked from the zygote with /dev/null,
    our stdout and stderr, and the two channel ends (sandbox/harness/warm_keeper.py keep_program); 0 otherwise.
    It is the runner's child, not ours: reap() waits for it."""
    if not KEEPER:
        return 0
    null = os.open(os.devnull, os.O_RDWR)
    try:
        socket.send_fds(KEEPER[0], [b"serve"], [null, 1, 2, to_r, from_w])
        reply = json.loads(KEEPER[0].recv(4096))
        return int(reply.get("pid") or 0) if type(reply) is dict else 0
    except (OSError, ValueError, TypeError):
        return 0
    finally:
        os.close(null)


def kill_program(pid: int) -> None:
    """SIGKILL the program's process, and with two uids every process of the program's uid: kill(-1)
    with our real uid set to the program's for the call reaches exactly the processes whose real or
    saved uid is the program's (kill(2): pid1.kill_as), as the runner's kill_sparing does; never the warm
    interpreter's two, whose real and saved uid are the judge's (with our own real uid, they died too)."""
    if PROGRAM_UID < 0:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
        if confine.ON[0]:  # one uid: its processes are those with its filter (harness/confine.py kill_confined)
            confine.kill_confined()
        return
    pid1.kill_as(PROGRAM_UID)


def reap(pid: int) -> None:
    """Wait for the program process to end: ours (waitpid), or the runner's (warm_program): until
    /proc shows it a zombie or gone (the runner reaps it at our next request or after the job, never
    while we wait: its pid is not reused meanwhile)."""
    try:
        os.waitpid(pid, 0)
        return
    except ChildProcessError:
        pass
    deadline = time.monotonic() + 5.0
    while time.monotonic() < deadline:
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                state = f.read().rpartition(b")")[2].split()[0]
        except (OSError, IndexError):
            return
        if state in (b"Z", b"X"):
            return
        time.sleep(0.001)


class Program:
    """The judge's side of the channel: calls by name, plain data both ways. With limits (cpu_s,
    wall_s > 0), a call past them raises kinds.CallTimeout and the program's processes are killed;
    the next call starts a fresh one."""

    def __init__(self, to_fd: int, from_fd: int, pid: int = 0, cpu_s: float = 0.0, wall_s: float = 0.0) -> None:
        self.to_fd, self.from_fd, self.pid = to_fd, from_fd, pid
        self.cpu_s, self.wall_s, self.dead, self.last_s = cpu_s, wall_s, False, 0.0
        self.used = False  # the tests called a function of the program or read its data

    def call(self, name: str, args: tuple, kwargs: dict, method: bool = False) -> object:
        self.used = True
        try:
            enc = {"call": name, "args": wire.encode(list(args)), "kwargs": wire.encode(kwargs)}
        except TypeError as e:
            raise TypeError(f"an argument to {name}() {e}") from None
        if method:
            enc["method"] = True
        if self.dead:
            self.restart()
        cpu0, t0 = self.cpu(), time.monotonic()
        try:
            wire.send(self.to_fd, enc)
            reply = self.recv()
        except (wire.WireError, OSError) as e:  # its process ended (os._exit, a crash): a fresh one next
            self.last_s = time.monotonic() - t0
            self.kill()
            raise wire.WireError(str(e)) from None
        self.last_s = time.monotonic() - t0
        used = self.cpu() - cpu0
        if self.cpu_s and used > self.cpu_s:
            self.kill()  # its children too: one left working would be charged to the next call
            raise kinds.CallTimeout(f"{name}() used {used:.2f}s CPU, over the {self.cpu_s:g}s limit")
        if self.wall_s and self.last_s > self.wall_s:
            self.kill()
            raise kinds.CallTimeout(f"{name}() took {self.last_s:.2f}s, over the {self.wall_s:g}s wall-clock limit")
        if "exc" in reply:
            raise exception(reply.get("exc"), reply.get("msg"), reply.get("cls"))
        if "bad" in reply:
            raise kinds.NotPlain(f"{name}() returned a value that {str(reply['bad'])[:200]}")
        if "ok" not in reply:
            raise wire.WireError("bad reply")
        after, result = self.decode([reply.get("args", ["N"]), reply["ok"]], t0)
        if type(after) is list and len(after) == len(args):
            for old, new in zip(args, after):
                update_in_place(old, new)
        return result

    def decode(self, values: list, t0: float) -> list:
        """The reply's values, decoded within what is left of the call's wall-clock limit: decoding
        is the judge's CPU, which no CPU limit of the program counts, and crafted data (a set of
        ints sharing one hash) costs quadratic time. Red-team finding: the job's whole budget went
        on one reply."""
        if not self.wall_s:
            return [wire.decode(v) for v in values]
        # pandas' uniqueness checks (categories, MultiIndex levels) are one C loop each, quadratic
        # on crafted hashes, which no Python-level timer interrupts: past this much CPU of the
        # judge's own, SIGVTALRM's default action ends the judge (the unfinished tests are the
        # program's failure: sandbox/job.py)
        signal.signal(signal.SIGVTALRM, signal.SIG_DFL)
        signal.setitimer(signal.ITIMER_VIRTUAL, self.wall_s + 1.0)
        try:
            return self.within(t0, lambda: [wire.decode(v) for v in values], "decoding its reply")
        finally:
            signal.setitimer(signal.ITIMER_VIRTUAL, 0)

    def recv(self) -> dict:
        """The next frame, within the limits of a call when there are: its wall-clock backstop,
        and its CPU time (polled while it runs, as the runner does for a whole program). A frame
        begun in time must end in time too: a program that writes half a reply and hangs meets
        the same wall-clock limit (an interval timer interrupts the read)."""
        if not self.wall_s:
            return wire.recv(self.from_fd)
        t0, cpu0 = time.monotonic(), self.cpu()
        while not select.select([self.from_fd], [], [], POLL_S)[0]:
            wall, cpu = time.monotonic() - t0, self.cpu() - cpu0
            if wall > self.wall_s or (self.cpu_s and cpu > self.cpu_s):
                self.timeout(wall, f"time limit exceeded ({cpu:.2f}s CPU, {wall:.2f}s wall)")
        return self.within(t0, lambda: wire.recv(self.from_fd), "a reply begun and not finished")

    def within(self, t0: float, work, what: str):
        """work(), interrupted (an interval timer) once the call's wall-clock limit from t0 passes."""
        old = signal.signal(signal.SIGALRM, _late)
        try:
            try:
                signal.setitimer(signal.ITIMER_REAL, max(0.001, self.wall_s - (time.monotonic() - t0)))
                return work()
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
        except Late:
            wall = time.monotonic() - t0
            self.timeout(wall, f"time limit exceeded ({what} in {wall:.2f}s wall)")
        finally:
            signal.signal(signal.SIGALRM, old)

    def timeout(self, wall: float, why: str) -> None:
        self.last_s = wall
        self.kill()
        raise kinds.CallTimeout(why)

    def cpu(self) -> float:
        """CPU seconds of the program: every process of the container but this judge (the runner's
        few milliseconds of polling included), so a child it never waited for counts; without
        cgroup accounting, every process of the program's uid (or, with one uid, its process)."""
        total = container_cpu()
        if total is not None:
            me = resource.getrusage(resource.RUSAGE_SELF)
            return total - me.ru_utime - me.ru_stime
        if PROGRAM_UID >= 0:
            return uid_cpu(PROGRAM_UID)
        if confine.ON[0]:
            return confine.confined_cpu()
        try:
            with open(f"/proc/{self.pid}/stat", "rb") as f:
                fields = f.read().rpartition(b")")[2].split()
            return sum(int(x) for x in fields[11:15]) / os.sysconf("SC_CLK_TCK")
        except (OSError, ValueError, IndexError):
            return 0.0

    def kill(self) -> None:
        """End the program's process and, with two uids, every other process of the program's uid
        (children it started, waited for or not; kill(-1) spares this judge, and the runner is the
        container's init, which a signal from inside cannot kill)."""
        self.dead = True
        for fd in (self.to_fd, self.from_fd):
            try:
                os.close(fd)
            except OSError:
                pass
        kill_program(self.pid)
        reap(self.pid)

    def restart(self) -> None:
        """A fresh program process (start_program); its load failure is the program's."""
        self.pid, self.to_fd, self.from_fd = start_program()
        self.dead = False
        hello = self.recv()
        if "load_error" in hello:
            self.kill()
            raise wire.WireError("the program failed when started again")

# Library exception classes the tests may expect (`assertRaises(json.JSONDecodeError)`,
# `np.linalg.LinAlgError`), found by name among modules the judge has already loaded; never a
# framework's (unittest.SkipTest would skip the test the program fails, and skipped tests do not count).
LIBRARY_ROOTS = (set(sys.stdlib_module_names) - {"unittest", "doctest", "test", "builtins"}) | {"numpy", "pandas", "scipy"}


def library_exception(cls_name: object) -> type[Exception] | None:
    """The exception class [module, qualname] names, if it is an Exception defined in (its own
    __module__ and __qualname__) a library module the judge loaded itself (trusted code; nothing is
    imported here), else None."""
    if type(cls_name) is not list or len(cls_name) != 2 or not all(type(x) is str for x in cls_name):
        return None
    module, qualname = cls_name
    mod = sys.modules.get(module)
    if mod is None or module.partition(".")[0] not in LIBRARY_ROOTS or len(qualname) > 200:
        return None
    first, _, rest = qualname.partition(".")
    obj = vars(mod).get(first)  # never the module's __getattr__ (numpy's and scipy's import submodules)
    for part in rest.split(".") if rest else ():
        obj = getattr(obj, part, None)
    skip = getattr(sys.modules.get("unittest"), "SkipTest", ())
    if not (isinstance(obj, type) and issubclass(obj, Exception)) or (skip and issubclass(obj, skip)):
        return None
    # only at its own home: a path through a library's attributes reached other modules' classes
    # (numpy.testing's utils imports unittest: unittest.case._ShouldStop, which unittest swallows
    # inside a test, so the test passed). The program's side sends the class's own names (serve.py).
    if getattr(obj, "__module__", None) != module or getattr(obj, "__qualname__", None) != qualname:
        return None
    return obj


def exception(name: object, msg: object, cls_name: object = None) -> BaseException:
    """The exception the program raised: its own class if a library's the judge has loaded
    (library_exception), else the builtin one by name, never one of the program's own classes. A
    StopIteration (or StopAsyncIteration) becomes RuntimeError, as PEP 479 does for generators:
    raised through the tests' map() or next(), it would end their loop early, as if passed."""
    lib = library_exception(cls_name)
    if lib is not None and not issubclass(lib, (StopIteration, StopAsyncIteration)):
        try:
            e = lib.__new__(lib)  # without __init__: JSONDecodeError, CalledProcessError take more than a message
            e.args = (str(msg)[:1000],)
            try:
                str(e)
            except Exception:  # noqa: BLE001 - its __str__ reads what __init__ sets (CalledProcessError.returncode)
                plain: type[Exception] = type(lib.__name__, (lib,), {"__str__": BaseException.__str__, "__module__": lib.__module__})
                e = plain.__new__(plain)
                e.args = (str(msg)[:1000],)
            return e
        except Exception:  # noqa: BLE001 - a library class that cannot be made this way: the builtin one
            pass
    cls = getattr(builtins, name, None) if type(name) is str else None
    if not (isinstance(cls, type) and issubclass(cls, Exception)):
        cls = Exception
    if issubclass(cls, (StopIteration, StopAsyncIteration)):
        return RuntimeError(f"{name} raised by the program: {str(msg)[:1000]}")
    for base in cls.__mro__:  # UnicodeDecodeError, ExceptionGroup take more than a message: the
        try:  # nearest base that takes one (UnicodeError), never the TypeError of a failed build,
            return base(str(msg)[:1000])  # which a test's pytest.raises(TypeError) took for the program's
        except TypeError:
            continue
    return Exception(str(msg)[:1000])


def update_in_place(old: object, new: object) -> None:
    """An argument the program mutated (a list it sorted, a dict it filled) changes here too."""
    if type(old) is list and type(new) is list:
        old[:] = new
    elif type(old) is type(new) and type(old) in (dict, set):
        old.clear()  # type: ignore[attr-defined]  # a dict or a set: type(old) checked above
        old.update(new)  # type: ignore[attr-defined]


def proxy(program: Program, name: str):
    def call(*args, **kwargs):
        return program.call(name, args, kwargs)
    call.__name__ = call.__qualname__ = name
    call.__test__ = False  # type: ignore[attr-defined]  # a program's `def test_x` is never collected as one of the task's tests
    return call


def entry_names(tree: ast.AST) -> set[str]:
    """The names the program must supply: those passed bare to a `check(...)` call (HumanEval:
    `check(find_zero)`); with no check call (MBPP: `assert f(1) == 2`), the names the tests call
    or pass bare to a call (`map(f, xs)`) that are not builtins (a program's `def abs(x): return 0` must not change the tests' abs).
    Nothing else is the program's: a helper the tests read (HumanEval's `poly`) that a program
    could redefine must come with the tests, or it is a NameError in the judge."""
    calls = [n for n in ast.walk(tree) if type(n) is ast.Call and type(n.func) is ast.Name]
    # c.func is an ast.Name (calls above) and so is a; mypy does not narrow through a comprehension
    checked = {a.id for c in calls if c.func.id == "check" for a in c.args if type(a) is ast.Name}  # type: ignore[attr-defined]
    free = {c.func.id for c in calls} | {a.id for c in calls for a in c.args if type(a) is ast.Name}  # type: ignore[attr-defined]
    return checked or {name for name in free if not hasattr(builtins, name)} | builtins_under_test(tree)


LITERAL = (ast.Constant, ast.List, ast.Tuple, ast.Set, ast.Dict, ast.UnaryOp, ast.USub, ast.UAdd, ast.Load)


def builtins_under_test(tree: ast.AST) -> set[str]:
    """Builtin names the tests use only as the function under test: every load is `f(literals)`
    as an asserted value or a comparison's left side (MBPP's `assert max(1, 2) == 2` for a task
    whose function is named max). Left to the builtin, the tests passed without calling the
    program at all: any program was accepted."""
    shaped: set[int] = set()
    loads: dict[str, list[int]] = {}
    for n in ast.walk(tree):
        if type(n) is ast.Name and type(n.ctx) is ast.Load:
            loads.setdefault(n.id, []).append(id(n))
        if type(n) is not ast.Assert:
            continue
        todo = [n.test]
        while todo:
            e = todo.pop()
            if type(e) is ast.BoolOp:
                todo.extend(e.values)
                continue
            if type(e) is ast.UnaryOp and type(e.op) is ast.Not:
                todo.append(e.operand)
                continue
            e = e.left if type(e) is ast.Compare else e
            if type(e) is ast.Call and type(e.func) is ast.Name and all(
                    type(x) in LITERAL for a in e.args + [k.value for k in e.keywords] for x in ast.walk(a)):
                shaped.add(id(e.func))
    return {name for name, ids in loads.items() if hasattr(builtins, name) and all(i in shaped for i in ids)}


def missing(name: str):
    """An entry name the program does not define: calling it fails as the program's error (a
    builtin of that name must not answer for it)."""
    def call(*args, **kwargs):
        raise NameError(f"name {name!r} is not defined (the program defines no {name})")
    return call


def loaded_names(tests: bytes) -> tuple[set[str], set[str]]:
    """(entry names, every non-builtin name the tests read): proxies only for the first; the
    second may take the standard-library modules the program imported."""
    tree = ast.parse(tests, "tests.py")
    entry = entry_names(tree)
    return entry, {n.id for n in ast.walk(tree) if type(n) is ast.Name
                   and (n.id in entry or not hasattr(builtins, n.id))}


def namespace(program: Program, names: dict, wanted: tuple[set[str], set[str]]) -> dict:
    """The tests' globals: the program's functions as proxies and its plain-data constants, only
    for the entry names (entry_names), and each standard-library module the tests read by its own
    name (`math`; imported here, from the image: -I keeps /work off sys.path). Nothing else comes
    from the program, not even its module aliases (`import datetime as dt`): a name the tests read
    that only the program's import supplied let a wrong program leave the import out and turn
    its failure into the tests' "undefined name" (infra_error, reward None)."""
    g = {"__name__": "__main__", "__builtins__": builtins}
    entry, read = wanted
    t0 = time.monotonic()  # its constants decode within one call's wall-clock limit (Program.decode)
    for name, what in names.items():
        if name not in read or type(what) is not list or not what:
            continue
        if what[0] in ("call", "data") and name not in entry:
            continue
        if what[0] == "call":
            g[name] = proxy(program, name)
        elif what[0] == "data":
            g[name] = program.decode([what[1]], t0)[0]
            program.used = True
    for name in entry - g.keys():
        if hasattr(builtins, name):
            g[name] = missing(name)
    for name in read - g.keys() - entry:
        if name in sys.stdlib_module_names:
            try:
                g[name] = importlib.import_module(name)
            except ImportError:
                continue
    return g


def main() -> None:
    global PROGRAM_UID
    PROGRAM_UID = keep_apart()
    result_fd = int(os.environ.pop("RESULT_FD"))
    keeper = os.environ.pop("KEEPER_FD", None)
    if keeper is not None:
        KEEPER.append(socket.socket(fileno=int(keeper)))
        KEEPER[0].settimeout(30.0)
    undumpable()
    pid, to_fd, from_fd = start_program()
    # after the fork: the tests' own objects may cross to the program (wire.test_object), never back
    wire.TEST_MODULES = frozenset({"__main__", "tests", "test_solution"})
    data = sys.stdin.buffer.read()
    nonce, _, tests = data.partition(b"\n")
    del data
    if len(sys.argv) > 1:
        spec_line, _, tests = tests.partition(b"\n")
        return run_kind(sys.argv[1], json.loads(spec_line), tests, kinds.Emitter(result_fd, nonce), pid,
                        to_fd, from_fd)
    hello = wire.recv(from_fd)
    if "load_error" in hello:  # the program itself failed (exception, exit): its runtime error
        sys.stderr.write(str(hello["load_error"])[-4000:])
        sys.exit(1)
    names = hello.get("names")
    code = compile(tests, "tests.py", "exec")
    wanted = loaded_names(tests)
    program = Program(to_fd, from_fd, pid)
    g = namespace(program, names if type(names) is dict else {}, wanted)
    emit = kinds.Emitter(result_fd, nonce)
    try:
        exec(code, g)  # noqa: S102 - the task's tests: trusted code, in this trusted process
    except (AssertionError, kinds.NotPlain):
        emit.line({"result": "assert"})
        traceback.print_exc()
        sys.exit(1)
    except NameError as e:  # a name the tests read and nobody may supply: the dataset's bug
        # The program's own NameError crosses without .name; an entry name (the function under
        # test) is the program's to define: a program that lacks it fails (runtime error), or any
        # wrong program could delete its function and get infra_error (reward None) instead of 0.
        if not e.name or e.name in wanted[0]:
            raise
        emit.line({"undefined": e.name[:200]})
        traceback.print_exc()
        sys.exit(1)
    if not program.used:  # tests that never reach the program would accept any program
        emit.line({"unused": True})
        sys.exit(1)
    emit.line({"result": "ok"})
    os.close(to_fd)  # the program's process sees EOF and leaves
    reap(pid)


def run_kind(kind: str, spec: dict, tests: bytes, emit: kinds.Emitter, pid: int, to_fd: int, from_fd: int) -> None:
    """Call tests, a test file, or asserts taking only the task's entry_point from the program."""
    limit = spec.get("time_limit_s") or 0.0
    program = Program(to_fd, from_fd, pid, cpu_s=limit, wall_s=spec.get("call_wall_s") or 0.0)
    try:
        hello = program.recv()
    except kinds.CallTimeout:
        emit.line({"load_error": "the program did not finish loading within the time limit", "time_limit": True})
        return emit.done()
    if "load_error" in hello:  # the program itself failed (exception, exit): its runtime error
        emit.line({"load_error": str(hello["load_error"])[-kinds.DETAIL:]})
        return emit.done()
    names = hello.get("names") if type(hello.get("names")) is dict else {}
    ep = spec.get("entry_point") or ""
    if kind == "call":
        kinds.run_calls(program, names, spec, emit)
    elif kind in ("pytest", "unittest"):
        try:
            g = kinds.framework_globals(names, program, ep, namespace)
        except kinds.CallTimeout:
            emit.line({"load_error": "the program's constants did not decode within the time limit", "time_limit": True})
            return emit.done()
        kinds.forward_seeds(program, tests)
        (kinds.run_pytest if kind == "pytest" else kinds.run_unittest)(tests, g, emit, bool(spec.get("stop_first")))
        # tests that all passed without reaching the program: any program would pass (the task's
        # fault). A failing test is the program's 0: a program that defines none of the names the
        # tests call (so nothing reached it) must not turn its failure into infra_error.
        if not program.used and emit.count and not emit.failed:
            emit.line({"unused": True})
    else:
        program.cpu_s = program.wall_s = 0.0  # asserts: the job's own limit, as without entry_point
        run_asserts(program, names, ep, tests, emit)  # type: ignore[arg-type]  # a dict: its type checked where read
    emit.done()
    program.kill()


def run_asserts(program: Program, names: dict, ep: str, tests: bytes, emit: kinds.Emitter) -> None:
    """Assert-style tests with the task's entry_point as the only name taken from the program (a
    method of a fresh Solution() when the program defines no such function)."""
    read = loaded_names(tests)[1]
    g = namespace(program, names, ({ep}, read))
    if not kinds._is_call(names.get(ep)) and kinds._is_call(names.get("Solution")):
        g[ep] = lambda *args, **kwargs: program.call(ep, args, kwargs, method=True)
    t0 = time.monotonic()
    try:
        exec(compile(tests, "tests.py", "exec"), g)  # noqa: S102 - the task's tests: trusted code
    except NameError as e:
        if e.name and e.name != ep:  # a helper nobody supplies: the task's bug
            emit.line({"undefined": e.name[:200]})
            return
        emit.test("runtime_error", f"NameError: {e}", time.monotonic() - t0)
        return
    except BaseException as e:  # noqa: BLE001 - the verdict of the one test the asserts are
        emit.test(*kinds.verdict_of(e), time.monotonic() - t0)
        return
    if not program.used:  # tests that never reach the program would accept any program
        emit.line({"unused": True})
        return
    emit.test("accepted", "asserts passed", time.monotonic() - t0)


if __name__ == "__main__":
    main()

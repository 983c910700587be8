"""The one-uid confinement of a program's processes (sandbox/harness/confine.py; docs/sandboxes.md "Sandbox
backends"), on this host's kernel: a confined process reaches no process outside its Landlock domain by signal,
/proc (ptrace's read check) or abstract socket, and prlimit, setpriority, sched_set* and ioprio_set act on itself
only; the same calls from an unconfined process of the same uid reach the target (the control: each check can
fail). kill_confined ends the confined processes, orphans included, and none other. Each scenario runs in a pid
namespace of its own (`unshare -Urpf --mount-proc`): kill_confined there sees only the scenario's processes."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap

import pytest

from sandbox.build import HARNESS

SCRIPT = textwrap.dedent('''
    import ctypes, json, os, resource, signal, socket, sys, time
    sys.path.insert(0, sys.argv[1])
    import confine
    libc = ctypes.CDLL(None, use_errno=True)

    def reach(target, confined):
        """What a child (confined or not) can do to `target`: {call: True when the kernel let it}."""
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(r)
            if confined:
                confine.confine()
            nice = os.getpriority(os.PRIO_PROCESS, target)
            cpus = os.sched_getaffinity(target)
            io = libc.syscall(252, 1, target)
            def abstract():
                s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                s.connect(b"\\0confine-test-" + str(target).encode())
            calls = {
                "kill": lambda: os.kill(target, 0),
                "pidfd_send_signal": lambda: signal.pidfd_send_signal(os.pidfd_open(target), 0),
                "prlimit": lambda: resource.prlimit(target, resource.RLIMIT_NOFILE),
                "setpriority": lambda: os.setpriority(os.PRIO_PROCESS, target, nice),
                "setpriority_user": lambda: os.setpriority(os.PRIO_USER, 0, os.getpriority(os.PRIO_USER, 0)),
                "sched_setaffinity": lambda: os.sched_setaffinity(target, cpus),
                "sched_setscheduler": lambda: os.sched_setscheduler(target, os.SCHED_OTHER, os.sched_param(0)),
                "sched_setparam": lambda: os.sched_setparam(target, os.sched_param(0)),
                "ioprio_set": lambda: confine._check(libc.syscall(251, 1, target, io), "ioprio_set"),
                "proc_environ": lambda: open(f"/proc/{target}/environ", "rb").read(),
                "abstract_socket": abstract,
                # the caller itself, always allowed
                "own_prlimit": lambda: resource.setrlimit(resource.RLIMIT_CORE, (0, 0)),
                "own_nice": lambda: os.setpriority(os.PRIO_PROCESS, 0, os.getpriority(os.PRIO_PROCESS, 0)),
                "own_affinity": lambda: os.sched_setaffinity(0, os.sched_getaffinity(0)),
            }
            out = {}
            for name, call in calls.items():
                try:
                    call()
                    out[name] = True
                except OSError:
                    out[name] = False
            kid = os.fork()  # its own child: in its domain, its to signal
            if kid == 0:
                time.sleep(30)
                os._exit(0)
            try:
                os.kill(kid, signal.SIGKILL)
                out["own_child"] = True
            except OSError:
                out["own_child"] = False
            os.write(w, json.dumps(out).encode())
            os._exit(0)
        os.close(w)
        data = os.read(r, 65536)
        os.waitpid(pid, 0)
        return json.loads(data)

    def kill_scene():
        """A sleeper left alone, a confined process with a child and an orphan (its parent gone, so
        it is PID 1's): kill_confined from a process with fewer filters ends the confined three."""
        alone = os.fork()
        if alone == 0:
            time.sleep(60)
            os._exit(0)
        r, w = os.pipe()
        prog = os.fork()
        if prog == 0:
            confine.confine()
            if os.fork() == 0:  # the orphan's parent, gone at once
                if os.fork() == 0:
                    os.write(w, str(os.getpid()).encode() + b" ")
                    time.sleep(60)
                    os._exit(0)
                os._exit(0)
            if os.fork() == 0:
                os.write(w, str(os.getpid()).encode() + b" ")
                time.sleep(60)
                os._exit(0)
            time.sleep(60)
            os._exit(0)
        os.close(w)
        got = b""
        while got.count(b" ") < 2:
            got += os.read(r, 100)
        others = [int(x) for x in got.split()]
        done = confine.kill_confined()
        time.sleep(0.05)
        def gone(pid):
            try:
                with open(f"/proc/{pid}/stat") as f:
                    return f.read().rsplit(")", 1)[1].split()[0] in "ZX"
            except OSError:
                return True
        out = {"done": done, "program": gone(prog), "others": [gone(p) for p in others], "alone": gone(alone)}
        os.kill(alone, signal.SIGKILL)
        return out

    target = os.fork()
    if target == 0:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.bind(b"\\0confine-test-" + str(os.getpid()).encode())
        s.listen(8)
        time.sleep(60)
        os._exit(0)
    time.sleep(0.1)
    result = {"probe": confine.probe(), "abi": confine.landlock_abi(),
              "confined": reach(target, True), "control": reach(target, False), "kill": kill_scene()}
    os.kill(target, signal.SIGKILL)
    print(json.dumps(result))
''')


@pytest.fixture(scope="module")
def scene() -> dict:
    if not shutil.which("unshare"):
        pytest.fail("needs util-linux's unshare")
    out = subprocess.run(["unshare", "-Urpf", "--mount-proc", sys.executable, "-I", "-c", SCRIPT, str(HARNESS)],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout)


REACH = ("kill", "pidfd_send_signal", "prlimit", "setpriority", "setpriority_user", "sched_setaffinity",
         "sched_setscheduler", "sched_setparam", "ioprio_set", "proc_environ", "abstract_socket")
OWN = ("own_prlimit", "own_nice", "own_affinity", "own_child")


def test_the_kernel_confines_here(scene):
    assert scene["abi"] >= 6 and scene["probe"] == "", scene


def test_a_confined_process_reaches_no_process_outside_its_domain(scene):
    assert {k: scene["confined"][k] for k in REACH} == dict.fromkeys(REACH, False)


def test_an_unconfined_process_of_the_same_uid_reaches_it(scene):
    """The control: every check above would fail without the confinement."""
    assert {k: scene["control"][k] for k in REACH} == dict.fromkeys(REACH, True)


def test_a_confined_process_still_acts_on_itself_and_its_children(scene):
    assert {k: scene["confined"][k] for k in OWN} == dict.fromkeys(OWN, True)


def test_kill_confined_ends_the_program_and_its_orphans_only(scene):
    assert scene["kill"] == {"done": True, "program": True, "others": [True, True], "alone": False}


def test_the_filter_decides_by_the_calls_low_words():
    """self_only_filter's shape: every SELF_ONLY call is tested, the program ends in an allow; and what
    `confine` installs (PREPARED, built once per process) is that program, its length in instructions."""
    sys.path.insert(0, str(HARNESS))
    import confine
    prog = confine.PREPARED.prog
    assert prog == confine.self_only_filter() and confine.PREPARED.fprog.len == len(prog) // 8
    assert len(prog) % 8 == 0 and prog[-8:] == confine._insn(confine.RET, 0, 0, confine.RET_ALLOW)
    tested = {int.from_bytes(prog[i + 4:i + 8], "little") for i in range(0, len(prog), 8)
              if prog[i:i + 2] == confine.JEQ.to_bytes(2, "little")}
    assert {nr for nr, _ in confine.SELF_ONLY.values()} <= tested
    assert os.path.basename(confine.__file__) == "confine.py"


TREE_SCRIPT = textwrap.dedent('''
    import json, os, sys
    sys.path.insert(0, sys.argv[1])
    import confine
    hidden, d = sys.argv[2], sys.argv[3]

    def attempts(tree):
        """What a child confined with `tree` (None: a plain program's domain) may do in d (under `hidden`)."""
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(r)
            confine.confine(tree)
            def write(path, mode="w"):
                with open(path, mode) as f:
                    f.write("x")
            calls = {"read": lambda: open(os.path.join(d, "test_x.py")).read(),
                     "write_writable": lambda: write(os.path.join(d, "go.mod"), "r+"),
                     "truncate_writable": lambda: write(os.path.join(d, "go.mod")),
                     "rewrite_test": lambda: write(os.path.join(d, "test_x.py")),
                     "create": lambda: write(os.path.join(d, "conftest.py")),
                     "unlink": lambda: os.unlink(os.path.join(d, "test_y.py")),
                     "rename": lambda: os.rename(os.path.join(d, "test_x.py"), os.path.join(d, "moved.py")),
                     "mkdir": lambda: os.mkdir(os.path.join(d, "sub")),
                     "dev_null": lambda: write("/dev/null")}
            out = {}
            for name, call in calls.items():
                try:
                    call()
                    out[name] = True
                except OSError:
                    out[name] = False
            os.write(w, json.dumps(out).encode())
            os._exit(0)
        os.close(w)
        data = os.read(r, 65536)
        os.waitpid(pid, 0)
        return json.loads(data)

    print(json.dumps({"tree": attempts([hidden, os.path.join(d, "go.mod")])}))
    print(json.dumps({"control": attempts(None)}))
''')


def test_a_repository_task_s_tree_is_read_only_to_a_confined_program(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The Landlock mode's read-only tree (confine.scope_self `tree`; docs/repo-tasks.md "Warm environments"): a
    program confined with the tree's root (here the top-level folder the test's files are under) reads it and writes
    the writable file in place, and changes nothing else there; it still writes elsewhere (/dev/null). The control, a
    plain program's domain, changes all of it (each check can fail)."""
    d = tmp_path_factory.mktemp("tree")
    (d / "test_x.py").write_text("def test_x():\n    assert 1\n")
    (d / "test_y.py").write_text("def test_y():\n    assert 1\n")
    (d / "go.mod").write_text("module m\n")
    hidden = "/" + d.resolve().parts[1]
    out = subprocess.run([sys.executable, "-I", "-c", TREE_SCRIPT, str(HARNESS), hidden, str(d)], capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0, out.stderr[-3000:]
    tree, control = (json.loads(line) for line in out.stdout.splitlines())
    assert tree["tree"] == {"read": True, "write_writable": True, "truncate_writable": True, "rewrite_test": False,
                            "create": False, "unlink": False, "rename": False, "mkdir": False, "dev_null": True}
    assert all(control["control"].values()), control

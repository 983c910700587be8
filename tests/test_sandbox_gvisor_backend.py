"""The gVisor backend's own rules (issue 19, docs/sandboxes.md "Sandbox backends"): the gVisor behaviours the
backend corrects (signals to PID 1, memory without cgroups, /proc/<pid>/fd of pipes)."""
from __future__ import annotations

import pytest

from tests.helpers import one_sandbox

pytestmark = pytest.mark.docker


@pytest.fixture(scope="module")
def gvisor():
    with one_sandbox("gvisor", "pytest-gvisor-backend") as g:
        yield g


def py(code: str, expected: str = "3\n", **kw) -> dict:
    return {"language": "python", "completion": code, "tests": [{"stdin": "1 2\n", "expected_stdout": expected}], **kw}


@pytest.mark.parametrize("task", [
    {"language": "python", "completion": "def f(x):\n    return x", "test_code": "assert f(1) == 1"},
    {"language": "python", "completion": "def f(x):\n    return x", "entry_point": "f",
     "call_tests": [{"args": [1], "expected": 1}]},
    {"language": "python", "completion": "def f(x):\n    return x", "test_framework": "pytest",
     "test_code": "from solution import f\n\ndef test_f():\n    assert f(1) == 1\n"},
    {"language": "python", "completion": "def f(x):\n    return x", "test_framework": "unittest",
     "test_code": "import unittest\nfrom solution import f\n\nclass T(unittest.TestCase):\n    def test_f(self):\n"
                  "        self.assertEqual(f(1), 1)\n"},
])
def test_tasks_judged_inside_the_sandbox_are_judged(gvisor, task):
    """Once refused here (a program could open a judge's pipes through gVisor's /proc): every channel
    of the runner and judge is a socket now (sandbox/harness/runner.py channel()). Near miss: off by one fails."""
    assert gvisor.grade(task)["verdict"] == "accepted"
    r = gvisor.grade(dict(task, completion="def f(x):\n    return x + 1"))
    assert r["verdict"] == "wrong_answer" and r["score"] == 0.0, r


def test_stdin_tests_and_checkers_are_judged(gvisor):
    assert gvisor.grade(py("a, b = map(int, input().split())\nprint(a + b)"))["verdict"] == "accepted"
    assert gvisor.grade(py("print(4)"))["verdict"] == "wrong_answer"
    checker = "import sys\nsys.exit(0 if open(sys.argv[2]).read().split() == ['3'] else 1)"
    assert gvisor.grade(py("print(3)", checker=checker))["verdict"] == "accepted"
    assert gvisor.grade(py("print(33)", checker=checker))["verdict"] == "wrong_answer"


@pytest.mark.parametrize("sig", [9, 15, 2])
def test_a_program_cannot_signal_the_runner(gvisor, sig):
    """gVisor delivers a signal to PID 1 that Linux would ignore; the runner's uid being another
    than the program's (sandbox/harness/runner.py) makes it EPERM there too, and the runner stays."""
    r = gvisor.grade(py(f"import os\nos.kill(1, {sig})\nprint(3)"))
    assert r["verdict"] == "runtime_error" and "PermissionError" in r["detail"], r
    assert gvisor.grade(py("print(3)"))["verdict"] == "accepted"  # the runner answered: same sandbox


def test_a_program_printing_megabytes_does_not_get_its_sandbox_replaced(gvisor):
    """Red team of issue 22: a reply of several MB fills the host socket, and the runner's write meets
    EAGAIN until the host reads: backpressure, not the stalled read the reset replaces a box for
    (sandbox/harness/runner.py Inbox). Counted as a stall, every job printing a few MB made its box
    unclean (stalls 10-13 a job): any program could force a fresh sandbox per job."""
    big = py("import sys\nsys.stdout.write('x' * (8 << 20))")
    gvisor.grade(big)  # a box that served once
    before = gvisor.grader.stats()["containers_recycled"]
    for _ in range(3):
        assert gvisor.grade(big)["verdict"] == "wrong_answer"
    assert gvisor.grade(py("a, b = map(int, input().split())\nprint(a + b)"))["verdict"] == "accepted"
    assert gvisor.grader.stats()["containers_recycled"] == before


def test_memory_over_the_limit_is_the_programs_verdict_and_the_sandbox_stays(gvisor):
    before = gvisor.grader.stats()["containers_recycled"]
    r = gvisor.grade(py("x = []\nwhile True: x.append(b'x' * (1 << 20))", memory_limit_mb=128, time_limit_s=10))
    assert r["verdict"] == "memory_limit", r["detail"]
    under = gvisor.grade(py("x = b'x' * (60 << 20)\nprint(3)", memory_limit_mb=128))  # near miss: fits
    assert under["verdict"] == "accepted", under["detail"]
    assert gvisor.grader.stats()["containers_recycled"] == before  # only the program was killed


HOLD_ONE = """import sys
from sandbox.gvisor import GvisorBackend
from tests.helpers import sandbox_config
b = GvisorBackend(sandbox_config("gvisor", languages=("python",)))
b.probe()
box = b.start("python", b.find_images(("python",))[0]["python"], 512)
print("started", flush=True)
sys.stdin.read()
b.close()
"""


def test_sandboxes_of_two_servers_on_one_host_do_not_collide(gvisor):
    """runsc names a sandbox's control socket after its id, in the host's network namespace: two
    servers on one host (an HPC node, parallel test runs) that both number their sandboxes
    python-1, python-2 ... had every start of the second fail with 'address already in use'
    (infra_error). Another process holds a sandbox while this one starts two, in two backends."""
    import subprocess
    import sys
    from pathlib import Path

    from sandbox.gvisor import GvisorBackend

    other = subprocess.Popen([sys.executable, "-c", HOLD_ONE], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                             cwd=Path(__file__).resolve().parent.parent)
    backends = [GvisorBackend(gvisor.grader.config) for _ in range(2)]
    try:
        assert other.stdout.readline().strip() == "started"
        for b in backends:
            b.probe()
            b.start("python", b.find_images(("python",))[0]["python"], 512)  # raises on a collision
    finally:
        for b in backends:
            b.close()
        other.communicate("")
    assert other.returncode == 0


def test_reap_removes_state_of_dead_servers_only(gvisor):
    """State folders are '<pid>-<start ticks>-<backend count>': a live process's other backend
    keeps its folder, a dead server's goes."""
    import os
    import subprocess
    import sys

    from sandbox.backend import STARTED
    from sandbox.gvisor import GvisorBackend, state_base

    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    mine = state_base() / f"{os.getpid()}-{STARTED}-999"
    gone = state_base() / f"{dead.stdout.strip()}-1-1"
    for d in (mine, gone):
        (d / "state").mkdir(parents=True)
    try:
        GvisorBackend(gvisor.grader.config).reap()
        assert mine.is_dir() and not gone.exists()
    finally:
        subprocess.run(["rm", "-rf", str(mine), str(gone)])


def test_each_sandbox_is_in_a_cpu_cgroup_of_its_own_that_goes_with_it(gvisor):
    """Where the server may make cgroups (root here), runsc and every process it starts are in the
    sandbox's own CPU cgroup from before runsc runs, whose host CPU checks gVisor's clock past a limit
    (docs/sandboxes.md "CPU time without a cgroup"); the folder goes with the sandbox, and a dead
    server's folder with the next reap. Near miss: a live server's folder stays."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    from sandbox import cgroups, watchdog
    from sandbox.backend import STARTED
    from sandbox.gvisor import CGROUP_PREFIX, GvisorBackend, _descendants

    backend = GvisorBackend(gvisor.grader.config)
    assert backend._cgroup_base, "this host's server (root) may make cgroups"
    backend.probe()
    folder = ""
    try:
        box = backend.start("python", gvisor.grader._images["python"], 256)
        (folder,) = box.container.cgroups.values()
        inside = {int(p) for p in Path(folder, "cgroup.procs").read_text().split()}
        assert set(_descendants(box.container.proc.pid)) | {box.container.proc.pid} == inside
        assert box.channel.host_cpu is not None and (watchdog.cgroup_cpu(box.container.cgroups) or {}).get("cgroup", 0) > 0
    finally:
        backend.close()
    assert folder and not os.path.exists(folder) and not any(os.path.exists(d) for d in backend._cgroup_base.values())
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    parent = next(iter(backend._parents.values()))
    gone, live = Path(parent, f"{CGROUP_PREFIX}{dead.stdout.strip()}-1-1"), Path(parent, f"{CGROUP_PREFIX}{os.getpid()}-{STARTED}-999")
    for d in (gone / "python-1", live):
        d.mkdir(parents=True)
    try:
        GvisorBackend(gvisor.grader.config).reap()
        assert not gone.exists() and live.is_dir()
    finally:
        for d in (gone / "python-1", gone, live):
            cgroups.rmdir(str(d))


def test_without_a_cgroup_gvisors_clock_decides_alone_and_the_server_says_so(gvisor, monkeypatch, caplog):
    """A server that may make no cgroup (an unprivileged pod) starts its sandboxes as before, with no
    host figure of their CPU, and says at start, at warning, that a loaded host can then make an
    innocent program time_limit (the documented tolerance). Near miss: its sandbox starts and answers."""
    import logging

    from sandbox import gvisor as gvisor_module

    monkeypatch.setattr(gvisor_module.host_cgroups, "own_cgroups", lambda *a, **kw: {})
    backend = gvisor_module.GvisorBackend(gvisor.grader.config)
    with caplog.at_level(logging.WARNING, logger="sandbox.gvisor"):
        backend.probe()
    try:
        assert "no cgroup of its own" in caplog.text and "time_limit" in caplog.text, caplog.text
        assert "gVisor's clock alone" in backend.describe()
        box = backend.start("python", gvisor.grader._images["python"], 256)
        assert box.container.cgroups == {} and box.channel.host_cpu is None
        head, _ = box.channel.request({"op": "ping"})
        assert head.get("ok"), head
        backend.remove(box)
    finally:
        backend.close()

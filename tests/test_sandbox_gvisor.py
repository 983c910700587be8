"""The sandbox under gVisor (runsc): same verdicts, a user-space kernel between code and host.

`make test` registers runsc with dockerd (scripts/ensure_gvisor.sh); without it these tests are
skipped, saying so.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from sandbox import SandboxConfig
from sandbox.backend import LABEL_OWNER, LABEL_POOL, OWNER, RUNSC_HOST_PIDS_MARGIN
from sandbox.sync import SyncGrader
from sandbox import watchdog
from sandbox.watchdog import cgroup_dirs, cgroup_usage
from tests.helpers import RUNSC_MISSING, one_sandbox, runsc_registered, sandbox_config

pytestmark = pytest.mark.docker


@pytest.fixture(scope="module")
def gvisor():
    with one_sandbox("runsc", "gvisor-test") as g:
        yield g


def _task(code: str, expected: str = "ok\n", **kw) -> dict:
    return {"id": "g", "kind": "code", "language": "python", "completion": code,
            "tests": [{"stdin": "", "expected_stdout": expected}], **kw}


# gVisor's Sentry reports its own kernel version; runc shows the host's.
PROBE = "print('4.4.0' in open('/proc/version').read())"


def test_code_runs_under_gvisor_and_not_under_runc(gvisor):
    assert gvisor.grade(_task(PROBE, "True\n"))["verdict"] == "accepted"
    runc = SyncGrader(SandboxConfig(languages=("python",), pool_name="gvisor-test-runc", pool_size=1))
    try:
        assert runc.grade(_task(PROBE, "True\n"))["verdict"] == "wrong_answer"  # the probe tells them apart
    finally:
        runc.close()


FORK_BOMB = ("import os\nn = 0\ntry:\n    while n < 5000:\n        if os.fork() == 0:\n            os.execv('/bin/sleep', ['sleep', '30'])\n"
             "        n += 1\nexcept OSError:\n    pass\nprint('ok' if 20 < n < 200 else f'forked {n}')")


@pytest.mark.parametrize("code, verdict", [
    ("print('ok')", "accepted"),
    ("print('no')", "wrong_answer"),
    ("raise SystemExit(3)", "runtime_error"),
    ("while True: pass", "time_limit"),
    ("x = bytearray(700 * 1024 * 1024)\nprint('ok')", "memory_limit"),  # the OOM takes the whole sandbox
    ("import socket\ntry:\n    socket.create_connection(('1.1.1.1', 80), timeout=2)\n    print('net')\n"
     "except OSError:\n    print('ok')", "accepted"),
    ("import os\ntry:\n    open('/etc/x', 'w')\n    print('rw')\nexcept OSError:\n    print('ok' if os.getuid() else 'root')",
     "accepted"),
])
def test_verdicts_and_hardening_under_gvisor(gvisor, code, verdict):
    result = gvisor.grade(_task(code, time_limit_s=1, memory_limit_mb=256))
    assert result["verdict"] == verdict, result["detail"]


def test_a_fork_bomb_stops_at_the_process_limit_and_the_sandbox_lives():
    """Under runsc the pids cgroup counts gVisor's own host threads, not the program's processes: at
    the program's limit it ended the sandbox (Go's thread start failed, exit 2) and the job was
    infra_error. The program's processes are counted by RLIMIT_NPROC there (sandbox/backend.py
    limit_pids): its forks fail past the limit and the job is its own. 40 processes: 128 sleeping
    ones take 1.2-2k host threads, past host_threads_per_sandbox (the next test)."""
    with one_sandbox("runsc", "gvisor-test-nproc", pids_limit=40) as grader:
        result = grader.grade(_task(FORK_BOMB, time_limit_s=10))
        assert result["verdict"] == "accepted", result["detail"]
        assert grader.grade(_task("print('ok')"))["verdict"] == "accepted"


@pytest.mark.parametrize("backend", ["gvisor", "runsc"])
def test_a_fork_bomb_at_the_default_process_limit_is_the_programs_and_the_pool_serves_on(backend, request):
    """128 sleeping processes may pass the host-thread budget (measured 1.2-2k, unbounded before:
    the runsc cgroup's 2048 ended the sandbox, infra_error): the program's verdict either way."""
    grader = request.getfixturevalue("gvisor_backend" if backend == "gvisor" else "gvisor")
    result = grader.grade(_task(FORK_BOMB, time_limit_s=10))
    assert result["verdict"] == "accepted" or "host threads" in result["detail"], result["detail"]
    assert grader.grade(_task("print('ok')"))["verdict"] == "accepted"


# Red team (issue 22): ~120 processes that each make system calls without pause. Under runsc's ptrace
# platform every process's stub gets a host thread for each of the Sentry's threads that ever ran it,
# so host threads grow with processes x Sentry threads: 4096 of them (the old budget) were reached
# with 127 such processes and the sandbox died (exit 2), a program's own doing made infra_error; with
# no bound they reached 5.4k in one sandbox (the gVisor backend), and pid_max is 32768 on some hosts.
BUSY_PROCESSES = ("import os, time\nn = 0\ntry:\n    while n < 200:\n        if os.fork() == 0:\n"
                  "            os.execv('/bin/sh', ['sh', '-c', 'i=0; while [ $i -lt 400000 ]; do i=$((i+1)); "
                  "read x < /proc/self/stat; done'])\n        n += 1\nexcept OSError:\n    pass\n"
                  "t = time.time()\nwhile time.time() - t < 6:\n    os.getppid()\nprint('ok')")


@pytest.fixture(scope="module")
def gvisor_backend():
    """The gVisor backend (rootless runsc, no Docker): its sandboxes are this process's children."""
    g = SyncGrader(sandbox_config("gvisor", languages=("python",), pool_name="gvisor-test-backend", pool_size=1))
    assert g.grader.available, g.grader.unavailable_reason()
    yield g
    g.close()


def _runsc_threads() -> int:
    """Host threads of the gVisor backend's sandboxes: every process below this one (runsc, its
    kernel, gofer and the ptrace platform's stubs)."""
    from sandbox.gvisor import _descendants
    total = 0
    for pid in _descendants(os.getpid()):  # read here, not through the watchdog's own table
        try:
            total += int(Path(f"/proc/{pid}/status").read_text().split("Threads:")[1].split()[0])
        except (OSError, IndexError, ValueError):
            continue  # exited meanwhile
    return total


def _container_threads(pool_name: str) -> int:
    """Host threads (pids cgroup tasks) of this process's runsc containers of the pool, read from the host."""
    import docker
    client = docker.from_env()
    try:
        total = 0
        for c in client.containers.list(filters={"label": [f"{LABEL_POOL}={pool_name}", f"{LABEL_OWNER}={OWNER}"]}):
            try:
                total += cgroup_usage(cgroup_dirs(c.attrs["State"]["Pid"])).threads
            except (OSError, KeyError):
                continue  # exited meanwhile
        return total
    finally:
        client.close()


def _graded_while_counting(grader, task: dict, count) -> tuple[dict, int]:
    """Grade `task` while reading the host's thread count every 20 ms: (result, the peak read)."""
    peak, done = 0, threading.Event()
    result: dict = {}
    worker = threading.Thread(target=lambda: (result.update(grader.grade(task)), done.set()))
    worker.start()
    while not done.wait(0.02):
        peak = max(peak, count())
    worker.join()
    return result, peak


@pytest.mark.parametrize("backend", ["gvisor", "runsc"])
def test_busy_processes_stay_under_the_host_thread_budget_and_the_sandbox_is_the_programs(backend, request):
    """The host's watchdog (sandbox/watchdog.py) holds a sandbox's host threads to
    host_threads_per_sandbox: the program gets runtime_error naming the budget (its own verdict,
    never infra_error), its sandbox never nears what the host has, and the next job is served.
    Under Docker's runsc the pids cgroup's backstop (budget + RUNSC_HOST_PIDS_MARGIN) stays unreached.
    Near miss: with the watchdog's thread check off, the peak read here went past 3.8k."""
    grader = request.getfixturevalue("gvisor_backend" if backend == "gvisor" else "gvisor")
    budget = SandboxConfig().host_threads_per_sandbox
    count = _runsc_threads if backend == "gvisor" else lambda: _container_threads("gvisor-test")
    for _ in range(2):
        # the job's CPU counts every process now (docs/sandboxes.md "CPU time without a cgroup"):
        # 200 busy processes reach even the largest limit (13-16 s in 1.5-2.2 s of wall at 10 s),
        # so time_limit is theirs too; at 20 s the threads grow past the budget first, mostly
        result, peak = _graded_while_counting(grader, _task(BUSY_PROCESSES, time_limit_s=20), count)
        assert result["verdict"] in ("runtime_error", "accepted", "time_limit"), result["detail"]
        if result["verdict"] == "runtime_error":
            assert f"more than {budget} host threads" in result["detail"], result["detail"]
        assert peak < budget + RUNSC_HOST_PIDS_MARGIN, (peak, result["detail"])
    assert grader.grade(_task("print('ok')"))["verdict"] == "accepted"


def _busy_children(n: int, seconds: float) -> str:
    """n processes making system calls for `seconds`, waited for: an ordinary multi-process program."""
    return (f"import os, time\nkids = []\nfor i in range({n}):\n    pid = os.fork()\n    if pid == 0:\n"
            f"        t = time.time()\n        while time.time() - t < {seconds}:\n            os.getppid()\n"
            "        os._exit(0)\n    kids.append(pid)\nfor k in kids:\n    os.waitpid(k, 0)\nprint('ok')")


@pytest.mark.parametrize("backend", ["gvisor", "runsc"])
def test_host_threads_a_job_leaves_behind_never_count_against_the_next_job(backend):
    """Go keeps the threads a burst of processes made, so under gVisor each job left its sandbox more
    host threads (measured: 152, 193, 312, 389, 497, 622 after six multi-process jobs) and a later,
    innocent job crossed host_threads_per_sandbox and got runtime_error for its predecessors' threads
    (red team of issue 22: test_large_output_accepted_and_endless_output_limited failed after the
    fork-bomb test). A box past half the budget is replaced after its job (Backend.at_rest), so every
    job here, each well under the budget alone, is accepted."""
    config = sandbox_config("gvisor", languages=("python",), pool_name=f"worn-{backend}", pool_size=1,
                            host_threads_per_sandbox=400)
    if backend == "runsc":
        if not runsc_registered():
            pytest.skip(RUNSC_MISSING)
        config = SandboxConfig(runtime="runsc", languages=("python",), pool_name="worn-runsc", pool_size=1,
                               host_threads_per_sandbox=400)
    with SyncGrader(config) as grader:
        verdicts = [grader.grade(_task(_busy_children(16, 0.6), time_limit_s=20)) for _ in range(8)]
    assert [r["verdict"] for r in verdicts] == ["accepted"] * 8, [r["detail"] for r in verdicts]


@pytest.mark.parametrize("mb", [128, 512])
def test_a_task_with_its_own_memory_limit_is_graded_under_runsc(gvisor, mb):
    """Red team (issue 22): the job sets the box's memory limit per step (docker update), which
    Debian's runsc 20221219 does not implement (`runsc update`: usage, exit 128): every task whose
    memory_limit_mb was not the pool's default was infra_error. Its limit must still hold."""
    assert gvisor.grade(_task("print('ok')", memory_limit_mb=mb))["verdict"] == "accepted"
    bomb = f"x = bytearray({mb + 200} * 1024 * 1024)\nprint('ok')"
    assert gvisor.grade(_task(bomb, memory_limit_mb=mb))["verdict"] == "memory_limit"


@pytest.mark.in_process  # blinds this process's watchdog
def test_a_burst_between_the_watchdogs_samples_is_stopped_by_the_cgroup_under_runsc(gvisor, monkeypatch):
    """Issue 30: under Docker's runsc the watchdog samples memory every 20 ms, and a burst between two
    samples escaped it. A limit holds for the whole sandbox deterministically: with the watchdog blind
    for the run, the cgroup each job sets (the step's limit plus what gVisor held besides the sandbox's
    memory when the job began, no margin: sandbox/backend.py DockerBackend._cap_runsc) stops 150 MB
    under a 64 MB limit (the box: 152 MB with the runner's room), and the 330 MB of a SysV segment
    and an array under 256 MB (test_gvisor_attacks.py: `accepted` under load while the cgroup kept a 64 MB
    margin over the limit plus a rest read once). 60 MB is the near miss, within the limit and accepted."""
    from tests.test_gvisor_attacks import SHM
    monkeypatch.setattr(watchdog.Watchdog, "_check", lambda self, box: None)
    assert gvisor.grade(_task("x = bytearray(60 << 20)\nprint('ok')", memory_limit_mb=64))["verdict"] == "accepted"
    r = gvisor.grade(_task("x = bytearray(150 << 20)\nprint('ok')", memory_limit_mb=64))  # 500 MB before: 150 is closer
    assert r["verdict"] == "memory_limit" and not r["retryable"], r
    both = SHM.format(key=0x4324, mb=150) + "\nx = bytearray(180 << 20)"
    r = gvisor.grade(_task(both, memory_limit_mb=256))
    assert r["verdict"] == "memory_limit" and not r["retryable"], r


# issue 16 under gVisor: the Sentry keeps the runner's two uids (sandbox/harness/runner.py), so the judge
# stays out of the program's reach and a call's CPU counts a child it never waited for. Debian's
# runsc ignores PR_SET_DUMPABLE in /proc, so the runner's and judge's channels are sockets, which
# /proc/<pid>/fd cannot reopen (sandbox/harness/runner.py channel(), docs/sandboxes.md "Sandbox backends").
STOP_JUDGE = ("import os, signal, time\n"
              "def f(x):\n    judge = os.getppid()\n    for sig in (signal.SIGSTOP, signal.SIGKILL):\n        try:\n"
              "            os.kill(judge, sig)\n        except OSError:\n            pass\n"
              "    if x == 2:\n        r, w = os.pipe()\n        if os.fork() == 0:\n            t = time.process_time()\n"
              "            while time.process_time() - t < 3:\n                pass\n            os.write(w, b'x')\n"
              "            os._exit(0)\n        os.read(r, 1)\n    return [list(os.getresuid()), 2 * x]")


def test_the_judge_is_out_of_the_programs_reach_under_gvisor(gvisor):
    task = {"id": "g", "kind": "code", "language": "python", "completion": STOP_JUDGE, "entry_point": "f",
            "time_limit_s": 1, "scoring": "fraction",
            "call_tests": [{"args": [x], "expected": [[65534] * 3, 2 * x]} for x in (1, 2, 3)]}
    result = gvisor.grade(task)
    assert [t["verdict"] for t in result["tests"]] == ["accepted", "time_limit", "accepted"], result


@pytest.mark.parametrize("how", ["stdin", "call_tests"])
def test_no_fd_of_the_runner_or_judge_opens_through_proc_under_runsc(gvisor, how):
    """Docker's attached stdio reaches the runner as host FIFOs (root's, mode 0600) and every other
    channel is a socket (sandbox/harness/runner.py channel()): a program opens none of them, so it can
    neither read a request (a checker's carries the expected output) nor write a reply."""
    from tests.test_sandbox_security import OTHERS_FDS
    task = {"id": "g", "kind": "code", "language": "python", "completion": OTHERS_FDS, "return_output": True,
            "time_limit_s": 10}
    if how == "stdin":
        task["completion"] += "print(others_fds())\n"
        task["tests"] = [{"stdin": "", "expected_stdout": "[]\n"}]
    else:
        task.update(entry_point="others_fds", call_tests=[{"args": [], "expected": []}])
    result = gvisor.grade(task)
    assert result["verdict"] == "accepted", result


# Eight processes, each a short fixed loop (about 40 ms of CPU on a quiet core), waited for: an
# innocent program. gVisor's clock charges each of them by the wall clock while it waits for the
# host's cores, so on a loaded host it read past the limit (docs/sandboxes.md "CPU time without a cgroup").
RUNNABLE_CHILDREN = ("import os\nkids = []\nfor i in range(8):\n    pid = os.fork()\n    if pid == 0:\n"
                     "        x = 0\n        for j in range(500000):\n            x += j\n        os._exit(0)\n"
                     "    kids.append(pid)\nfor k in kids:\n    os.waitpid(k, 0)\nprint('ok')")


@contextlib.contextmanager
def _hogs(n: int = 2) -> Iterator[None]:
    """n host processes that spin while the block runs: the loaded host of CI or a busy trainer node."""
    procs = [subprocess.Popen([sys.executable, "-c", "while 1: pass"]) for _ in range(n)]
    try:
        yield
    finally:
        for p in procs:
            p.kill()
            p.wait()


# Both gVisor paths: the host's figure is the container's cgroup under Docker's runsc, and under the
# gVisor backend the CPU cgroup the server puts each sandbox in (this host lets it make one: root).
# serial: its two host hogs load the other worker's tests, and the other worker's load adds to the hogs
@pytest.mark.serial
@pytest.mark.parametrize("backend, limit_s", [("runsc", 2), ("gvisor", 1)])
def test_an_innocent_program_on_a_loaded_host_is_never_time_limit(backend, limit_s, request):
    """Charged the least of gVisor's clock and the host CPU of the sandbox's own host processes (a
    cgroup's, counting exited ones), a program that uses little CPU is accepted however loaded the
    host: before, gVisor's clock alone (capped at its cores x the wall clock) read 1.1-1.8 s in
    0.5-0.9 s of wall for it under two hogs (both paths failed here), time_limit at 1 s. Under
    Docker's runsc it runs at 2 s, whose wall-clock backstop (5 s) a loaded host does not reach; the
    gVisor backend at 1 s (backstop 3 s, 0.5-0.6 s of wall here), where its clock alone read
    1.06-1.29 s, time_limit in 4 runs of 4, until each sandbox had a cgroup of its own (issue 30;
    at 2 s it read under the limit on 2 cores: its cap, cores x wall, held it). Near miss: a busy loop under the same hogs is still
    time_limit (the host's figure is an upper bound too, so the least of them never lets a program
    past its limit)."""
    grader = request.getfixturevalue("gvisor_backend" if backend == "gvisor" else "gvisor")
    with _hogs():
        results = [grader.grade(_task(RUNNABLE_CHILDREN, time_limit_s=limit_s)) for _ in range(3)]
        busy = grader.grade(_task("while True: pass", time_limit_s=1))
    assert [r["verdict"] for r in results] == ["accepted"] * 3, [r["detail"] for r in results]
    assert busy["verdict"] == "time_limit", busy["detail"]

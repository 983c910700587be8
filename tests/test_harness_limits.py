"""One home of a program's limits (sandbox/harness/program_limits.py): a run the runner execs
(job_protocol.exec_limits, its preexec_fn, also what fork_judge applies) and a run forked from the
warm interpreter (warm_keeper.fork_request, which zygote.py become applies) set the same limits, for
programs, judges and a judge's program processes. Pure: the system calls are recorded, not made
(the real processes' limits are compared in real containers: tests/test_sandbox_warm.py)."""
from __future__ import annotations

import resource
import signal
import sys

import pytest

from sandbox.build import HARNESS

sys.path.insert(0, str(HARNESS))
import confine  # noqa: E402
import job_protocol  # noqa: E402
import pid1  # noqa: E402
import program_limits  # noqa: E402
import warm_keeper  # noqa: E402


class _Opened:
    def __init__(self, calls: list, path: str) -> None:
        self.calls, self.path = calls, path

    def __enter__(self) -> _Opened:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def write(self, text: str) -> None:
        self.calls.append(("write", self.path, text))


def _applied(monkeypatch: pytest.MonkeyPatch, step) -> list:
    """The limit-setting calls `step` makes, in order (uids, rlimits, the OOM score, signals)."""
    calls: list = []
    with monkeypatch.context() as m:
        m.setattr(program_limits.os, "setresuid", lambda *uids: calls.append(("setresuid", uids)))
        m.setattr(program_limits.resource, "setrlimit", lambda which, v: calls.append(("setrlimit", which, tuple(v))))
        m.setattr(program_limits.signal, "signal", lambda sig, how: calls.append(("signal", sig, how)))
        m.setattr(program_limits, "open", lambda path, mode: _Opened(calls, path), raising=False)
        m.setattr(program_limits.confine, "confine", lambda tree=None: calls.append(("confine", tree)))
        step()
    return calls


@pytest.mark.parametrize("confined", [False, True])
@pytest.mark.parametrize("apart", [True, False])
@pytest.mark.parametrize("kind", ["program", "judge", "serve"])
@pytest.mark.parametrize("cpu_s,fsize", [(1.0, 64 << 20), (2.5, 1 << 20), (0.01, 0)])
def test_an_exec_and_a_warm_fork_set_the_same_limits(monkeypatch, confined, apart, kind, cpu_s, fsize):
    monkeypatch.setattr(pid1, "APART", apart)
    monkeypatch.setattr(confine, "ON", [confined])  # PID 1's one-uid mode (confine.separate)
    judge = kind == "judge"
    execd = _applied(monkeypatch, job_protocol.exec_limits(cpu_s, fsize, judge))
    request = warm_keeper.fork_request(kind, ["python3", "-I", "x.py"], "/work/j", {}, (), cpu_s, fsize)
    forked = _applied(monkeypatch, lambda: program_limits.apply(request["limits"]))
    assert execd == forked
    hard = program_limits.cpu_hard_s(cpu_s)
    assert ("setrlimit", resource.RLIMIT_CPU, (hard, hard + 1)) in execd and hard >= cpu_s + 1
    assert ("setrlimit", resource.RLIMIT_CORE, (0, 0)) in execd
    assert ("setrlimit", resource.RLIMIT_FSIZE, (fsize, fsize)) in execd
    assert ("write", "/proc/self/oom_score_adj", "1000") in execd
    assert [c for c in execd if c[0] == "signal"] == [("signal", s, signal.SIG_DFL) for s in program_limits.HANDLED_SIGNALS]
    uids = [c for c in execd if c[0] == "setresuid"]
    assert len(uids) == (1 if apart and not judge else 0)  # a judge keeps its real and saved uid (pid1.py)
    # a program (a judge's call-test server too) of a confining PID 1 enters its own domain, after every other
    # limit; never a judge, which must stay able to signal and kill it (confine.py)
    assert [c for c in execd if c[0] == "confine"] == ([("confine", None)] if confined and apart and not judge else [])
    assert ("confine", None) not in execd[:-1]


def test_a_sessions_interpreter_has_no_cpu_rlimit_and_the_programs_uids():
    """session_box.py's interpreter runs many cells (its supervisor clocks each): no RLIMIT_CPU."""
    spec = program_limits.spec(True, False, None, 1 << 20)
    assert spec == {"all_uids": True, "confine": False, "cpu_hard": None, "fsize": 1 << 20, "tree": None}


def test_a_sessions_interpreter_is_confined_where_pid1_confines(monkeypatch):
    """session_box.py's interpreter and its cells, with one uid for all (confine.separate): confined."""
    monkeypatch.setattr(confine, "ON", [True])
    assert program_limits.spec(True, False, None, 1 << 20)["confine"] is True
    assert program_limits.spec(True, True, None, 1 << 20)["confine"] is False  # a judge: never



def test_a_child_stopped_before_its_exec_fails_its_start_in_time_and_is_reaped(tmp_path):
    """pid1.start waits for the child's exec at most start_s (red team 17 of the backends: the program's processes
    stopped a session launcher's child once preexec made it theirs, and PID 1 waited for ever): the start fails with
    ETIME and the child is killed and reaped. The near miss: the same child resumed before the bound starts."""
    import errno
    import os
    import threading
    from pathlib import Path

    said = tmp_path / "pid"

    def stop_self() -> None:  # in the child: say who it is, then stop before its exec
        said.write_text(str(os.getpid()))
        os.kill(os.getpid(), signal.SIGSTOP)

    with pytest.raises(OSError) as failed:
        pid1.start(["/bin/true"], (-1, -1, -1), (), "/", {}, stop_self, start_s=0.5)
    assert failed.value.errno == errno.ETIME
    assert not Path(f"/proc/{said.read_text()}").exists()  # killed and reaped, not left stopped or a zombie
    said.unlink()

    def resume() -> None:
        while not done.is_set():
            if said.exists() and said.read_text():
                os.kill(int(said.read_text()), signal.SIGCONT)
            done.wait(0.05)

    done = threading.Event()
    helper = threading.Thread(target=resume)
    helper.start()
    try:
        started = pid1.start(["/bin/true"], (-1, -1, -1), (), "/", {}, stop_self, start_s=60)
    finally:
        done.set()
        helper.join()
    assert started.wait() == 0

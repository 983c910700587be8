"""Under gVisor a job's CPU is the least of gVisor's own clock and the host CPU of the sandbox's own
host processes (docs/sandboxes.md "CPU time without a cgroup"): the runner's side
(sandbox/harness/accounting.py SandboxClock.over), the host's readings (sandbox/watchdog.py
host_cpu_since) and the ask between them over a real socket pair (watchdog.WatchedChannel)."""
from __future__ import annotations

import json
import os
import socket
import sys
import threading
import time

import pytest

from sandbox import watchdog
from sandbox.build import HARNESS

sys.path.insert(0, str(HARNESS))
import accounting  # noqa: E402


class Asks:
    """A host that answers each ask with the next of `answers` (host CPU s, cores), counting asks."""

    def __init__(self, *answers: tuple[float, int] | None) -> None:
        self.answers, self.n = list(answers), 0

    def __call__(self) -> tuple[float, int] | None:
        self.n += 1
        return self.answers.pop(0)


@pytest.fixture
def gvisor_clock(monkeypatch):
    """A SandboxClock as under gVisor (its cgroupfs mounted at CPU_MOUNT) whose reading we set."""
    reading = {"s": 0.0}
    monkeypatch.setattr(accounting, "CPU_V1", f"{accounting.CPU_MOUNT}/cpuacct.usage")
    monkeypatch.setattr(accounting, "CPUS", 64)  # the wall-clock cap out of the way: gVisor's reading decides
    monkeypatch.setattr(accounting, "cgroup_cpu_s", lambda: reading["s"])
    monkeypatch.setattr(accounting, "self_cpu_s", lambda: 0.0)

    def make(ask):
        clock = accounting.SandboxClock(set(), ask)
        clock.t0 -= 10.0  # ten seconds of wall: CPUS x wall is far above every reading here
        return clock
    return make, reading


def test_a_reading_inflated_by_a_loaded_host_is_checked_against_the_hosts_and_stays_under(gvisor_clock):
    make, reading = gvisor_clock
    ask = Asks((0.3, 2))
    clock = make(ask)
    reading["s"] = 5.0  # gVisor charged runnable tasks by the wall clock: 5 s against a 1 s limit
    assert not clock.over(1.0) and ask.n == 1
    assert clock.used() < 1.0  # what the run reports is the least too
    assert not clock.over(1.0) and ask.n == 1  # the host's bound (0.3 s + 2 cores x a moment) holds without asking


def test_a_program_that_used_its_cpu_by_both_clocks_is_over(gvisor_clock):
    make, reading = gvisor_clock
    ask = Asks((1.2, 2))
    clock = make(ask)
    reading["s"] = 1.5
    assert clock.over(1.0) and ask.n == 1


def test_under_the_limit_by_gvisors_clock_the_host_is_never_asked(gvisor_clock):
    make, reading = gvisor_clock
    ask = Asks()
    reading["s"] = 0.9
    assert not make(ask).over(1.0) and ask.n == 0


def test_where_the_host_cannot_read_gvisors_clock_decides_alone(gvisor_clock):
    make, reading = gvisor_clock
    ask = Asks(None)
    clock = make(ask)
    reading["s"] = 1.5
    assert clock.over(1.0) and ask.n == 1
    assert clock.over(1.0) and ask.n == 1  # not asked again this run


def test_the_hosts_bound_grows_with_the_wall_clock_and_it_is_asked_again(gvisor_clock):
    make, reading = gvisor_clock
    ask = Asks((0.5, 2), (1.4, 2))
    clock = make(ask)
    reading["s"] = 3.0
    assert not clock.over(1.0)
    at, cpu_s, cores = clock.host
    clock.host = (at - 1.0, cpu_s, cores)  # a second later, the host's 0.5 s may have become 2.5 s
    assert clock.over(1.0) and ask.n == 2  # asked again: it did use 1.4 s


def test_a_slow_answer_is_not_taken_for_cpu_used(gvisor_clock, monkeypatch):
    """The host's answer took 0.4 s on a loaded host: its bound counts from the answer, or those
    0.4 s on 2 cores alone put an innocent program past 1 s (measured: time_limit at 0.5-0.7 s)."""
    make, reading = gvisor_clock
    clock = make(None)
    clock.ask = lambda: (time.sleep(0.4), (0.3, 2))[1]
    reading["s"] = 3.0
    assert not clock.over(1.0)


def test_the_runs_charge_is_settled_by_a_reading_after_the_program_ended(gvisor_clock):
    make, reading = gvisor_clock
    ask = Asks((0.3, 2), (1.3, 2))
    clock = make(ask)
    reading["s"] = 3.0
    assert not clock.over(1.0)
    assert clock.settle(1.0) == pytest.approx(1.3, abs=0.05) and ask.n == 2  # past the limit: time_limit
    ask = Asks((0.3, 2), (0.4, 2))
    reading["s"] = 0.0
    clock = make(ask)
    reading["s"] = 3.0
    assert not clock.over(1.0) and clock.settle(1.0) < 1.0 and ask.n == 2
    ask = Asks((0.3, 2), None)
    reading["s"] = 0.0
    clock = make(ask)
    reading["s"] = 3.0
    assert not clock.over(1.0) and clock.settle(1.0) == pytest.approx(3.0)  # unreadable at the end: gVisor's


def test_a_clock_with_a_cgroup_of_its_own_never_asks(monkeypatch):
    monkeypatch.setattr(accounting, "CPU_V1", "/sys/fs/cgroup/cpuacct/cpuacct.usage")  # Docker's runc
    monkeypatch.setattr(accounting, "cgroup_cpu_s", lambda: 5.0)
    clock = accounting.SandboxClock(set(), Asks())
    monkeypatch.setattr(accounting, "cgroup_cpu_s", lambda: 7.0)
    assert clock.over(1.0)


def test_the_hosts_figure_counts_new_processes_whole_and_gives_up_when_one_is_gone():
    base = {(10, 1): 1.0, (11, 1): 2.0}
    assert watchdog.host_cpu_since(base, {(10, 1): 1.5, (11, 1): 2.0, (12, 5): 0.7}) == pytest.approx(1.2)
    assert watchdog.host_cpu_since(base, {(10, 1): 1.5}) is None  # its time may have left the tree with it
    assert watchdog.host_cpu_since(base, {(10, 1): 1.5, (11, 9): 0.1, (11, 1): 2.0}) == pytest.approx(0.6)
    assert watchdog.host_cpu_since(None, base) is None and watchdog.host_cpu_since(base, None) is None


def test_the_tree_reading_is_this_process_by_pid_and_start_time():
    got = watchdog.tree_cpu([os.getpid(), 2 ** 22 + 7])  # the second is no process
    assert got is not None and [k[0] for k in got] == [os.getpid()]  # type: ignore[index]


def _runner(sock: socket.socket, seen: list, ask: bool) -> None:
    """A runner that asks once mid-request (when `ask`), then answers the request."""
    f = sock.makefile("rb")
    seen.append(json.loads(f.readline()))
    if ask:
        sock.sendall(b'{"ask":"host_cpu"}\n')
        seen.append(json.loads(f.readline()))
    sock.sendall(b'{"exit_code":0}\n')


@pytest.mark.parametrize("readable", [True, False])
def test_the_host_answers_the_runners_ask_over_the_channel(readable):
    from sandbox.gvisor import RawChannel

    host, runner = socket.socketpair()
    readings = iter([{"cgroup": 1.0}, {"cgroup": 1.25}] if readable else [None])
    ch = RawChannel(host)
    ch.host_cpu = lambda _fresh: next(readings)
    seen: list = []
    t = threading.Thread(target=_runner, args=(runner, seen, readable))
    t.start()
    reply, _ = ch.request({"op": "exec"}, timeout_s=10)
    t.join()
    assert reply == {"exit_code": 0}
    assert seen[0]["host_cpu"] is readable  # unreadable at the start: the runner is told not to ask
    if readable:
        assert seen[1]["host_cpu_s"] == pytest.approx(0.25) and seen[1]["cores"] >= 1
    host.close()
    runner.close()

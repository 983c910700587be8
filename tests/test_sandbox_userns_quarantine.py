"""The userns backend's program uids are one per launch (sandbox/userns_launch.py program_id: a fixed base
plus the launch's pid). A sandbox whose cgroup stays busy when it is removed may still have processes
running as its uid, and a later launch given the same pid would share it (issue 30). So removing a
cgroup folder ends by SIGKILL to whatever it holds, and a uid whose cgroup outlived even that is
quarantined: no later launch may have it. Pure logic: folders stand in for cgroups (`os.rmdir` patched
to say busy), real child processes for the sandboxes' processes and launches."""
from __future__ import annotations

import errno
import os
import signal
import socket
import subprocess
import tempfile

import pytest

from sandbox import SandboxConfig, cgroups, userns
from sandbox.box import Box
from sandbox.channel import ChannelError
from sandbox.userns import Launch, Sandbox, UsernsBackend
from sandbox.userns_launch import program_id


def sleeper() -> subprocess.Popen:
    return subprocess.Popen(["sleep", "600"])


@pytest.fixture
def busy_while(monkeypatch):
    """os.rmdir says EBUSY while the given test's `holds()` is true (a cgroup with processes in it),
    and counts its calls; `cgroups.RMDIR_TRIES` is cut to 3 so the tries take no time."""
    state = {"calls": 0, "holds": lambda: True}

    def rmdir(path, *a, **kw):
        state["calls"] += 1
        if state["holds"]():
            raise OSError(errno.EBUSY, "Device or resource busy", path)

    monkeypatch.setattr(cgroups.os, "rmdir", rmdir)
    monkeypatch.setattr(cgroups, "RMDIR_TRIES", 3)
    return state


def test_a_cgroups_processes_that_outlive_the_tries_are_killed_and_it_is_removed(tmp_path, busy_while):
    """The folder's own processes (its cgroup.procs) get SIGKILL once the plain tries are spent, and
    the folder then goes; a process the folder does not list is left alone."""
    inside, outside = sleeper(), sleeper()
    try:
        (tmp_path / "cgroup.procs").write_text(f"{inside.pid}\n")
        busy_while["holds"] = lambda: inside.poll() is None
        assert cgroups.rmdir(str(tmp_path)) is True
        assert busy_while["calls"] > cgroups.RMDIR_TRIES  # the plain tries came first: nothing was killed then
        assert inside.wait(timeout=10) == -signal.SIGKILL
        assert outside.poll() is None  # near miss: not in the folder, not signalled
    finally:
        for p in (inside, outside):
            p.kill()
            p.wait()


def backend_with_box(mode: str, tmp_path) -> tuple[UsernsBackend, Box, subprocess.Popen]:
    """A userns backend (no probe: nothing is started) holding one box whose launch is a real child
    process and whose cgroup is a folder."""
    b = UsernsBackend(SandboxConfig(backend="userns"))
    b.mode = mode
    (tmp_path / "cgroup.procs").write_text("")
    launch = sleeper()
    mine, theirs = socket.socketpair()
    theirs.close()
    sb = Sandbox(id=f"python-test-{mode}", proc=launch, cgroups={"": str(tmp_path)})
    box = Box(language="python", container=sb, channel=userns.RawChannel(mine), mem_mb=256)
    b._boxes[sb.id] = box
    return b, box, launch


@pytest.mark.parametrize("mode", ["uids", "landlock"])
def test_a_cgroup_that_stays_busy_quarantines_its_program_uid(tmp_path, busy_while, mode):
    """A folder still busy after SIGKILL: its launch's program uid is quarantined (uids mode; in the
    Landlock mode every program has the same uid, so there is nothing to keep apart). A folder that
    goes quarantines nothing."""
    b, box, launch = backend_with_box(mode, tmp_path)
    b.remove(box)
    assert launch.returncode == -signal.SIGKILL  # removed: its launch is killed and reaped
    assert b.quarantined == ({program_id(launch.pid)} if mode == "uids" else set())
    assert box.container.id not in b._boxes

    busy_while["holds"] = lambda: False  # near miss: the same removal where the folder goes
    b2, box2, launch2 = backend_with_box(mode, tmp_path)
    b2.remove(box2)
    assert b2.quarantined == set()


def fake_launch() -> Launch:
    """A Launch as UsernsBackend._launch makes one (a process that waits; the server's ends)."""
    r1, w1 = os.pipe()
    r2, w2 = os.pipe()
    r3, w3 = os.pipe()
    for fd in (w1, r2, w3):  # the launch's ends, closed after its start as _launch does
        os.close(fd)
    mine, theirs = socket.socketpair()
    theirs.close()
    return Launch(sleeper(), mine, r1, w2, r3, tempfile.TemporaryFile())


def test_a_launch_given_a_quarantined_uids_pid_is_refused_and_another_made(tmp_path):
    """The first launch's pid maps to a quarantined uid: it never goes on. It stays unreaped while the
    next launch starts (so that one cannot be given its pid), then is killed; the next is taken."""
    b = UsernsBackend(SandboxConfig(backend="userns"))
    launches: list[Launch] = []
    held: list[bool] = []

    def launch() -> Launch:
        if launches:  # the refused one still holds its pid while this one starts
            held.append(launches[0].proc.poll() is None)
        launches.append(fake_launch())
        if len(launches) == 1:
            b.quarantined.add(program_id(launches[0].proc.pid))
        return launches[-1]

    try:
        got = b._unquarantined(launch)
        assert len(launches) == 2 and got is launches[1] and held == [True]
        assert launches[0].proc.returncode == -signal.SIGKILL and launches[0].mine.fileno() == -1
        assert got.proc.poll() is None and got.mine.fileno() != -1  # near miss: the one taken is untouched
        assert program_id(got.proc.pid) not in b.quarantined
    finally:
        for la in launches:
            if la.proc.returncode is None:
                la.discard()


def test_launches_that_keep_getting_quarantined_uids_fail_the_start(monkeypatch):
    """LAUNCH_TRIES launches in a row, each given a quarantined uid's pid: the start fails (a
    ChannelError, as any failed start), and every one of them is killed."""
    monkeypatch.setattr(userns, "LAUNCH_TRIES", 3)
    b = UsernsBackend(SandboxConfig(backend="userns"))
    launches: list[Launch] = []

    def launch() -> Launch:
        launches.append(fake_launch())
        b.quarantined.add(program_id(launches[-1].proc.pid))
        return launches[-1]

    with pytest.raises(ChannelError, match="quarantined"):
        b._unquarantined(launch)
    assert len(launches) == 3
    assert [la.proc.returncode for la in launches] == [-signal.SIGKILL] * 3

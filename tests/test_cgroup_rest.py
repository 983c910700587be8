"""Where a job or a session begins on a box with a memory cgroup (docker's runc, userns), the one begin hook
(sandbox/backend.py `Backend.begins`) reads the cgroup's OOM kills and its rest (usage less the page cache, less the
stash: `Backend.rest_now`); the readings themselves (`sentry_mb`, `rest_now`) change nothing. A job's rest, which its
limit adds (`Backend.overhead_mb`), is never more than the box's rest at its birth, and a box whose rest grew past it
by `REST_GROWTH_MB` is replaced after its job (`Backend.at_rest`): kernel memory a job leaves charged to the box (a
stat storm's dentries, red team rt30ab, tests/test_redteam_backends_9.py) is never the next job's room. Pure logic on
the backend's bookkeeping over cgroup folders written here (v1 and v2 layouts); no Docker."""
from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from sandbox import SandboxConfig
from sandbox.backend import REST_GROWTH_MB, DockerBackend
from sandbox.box import Box

MB = 1 << 20


class Cgroup:
    """A memory cgroup folder as the kernel shows it: usage = rest + page cache; OOM kills."""

    def __init__(self, folder: Path, v1: bool) -> None:
        self.folder, self.v1 = folder, v1
        self.dirs = {"memory": str(folder)} if v1 else {"": str(folder)}

    def write(self, rest_mb: int, cache_mb: int = 0, oom: int = 0) -> None:
        used = (rest_mb + cache_mb) * MB
        half = cache_mb * MB // 2
        if self.v1:
            (self.folder / "memory.usage_in_bytes").write_text(f"{used}\n")
            (self.folder / "memory.stat").write_text(
                f"cache {cache_mb * MB}\nrss {rest_mb * MB}\ntotal_shmem 0\ntotal_active_file {half}\n"
                f"total_inactive_file {cache_mb * MB - half}\n")
            (self.folder / "memory.oom_control").write_text(f"oom_kill_disable 0\nunder_oom 0\noom_kill {oom}\n")
        else:
            (self.folder / "memory.current").write_text(f"{used}\n")
            (self.folder / "memory.stat").write_text(
                f"anon {rest_mb * MB}\nfile {cache_mb * MB}\nshmem 0\nsock 0\nactive_file {half}\n"
                f"inactive_file {cache_mb * MB - half}\n")
            (self.folder / "memory.events").write_text(f"low 0\nhigh 0\nmax 0\noom 0\noom_kill {oom}\n")


@pytest.fixture(params=[True, False], ids=["v1", "v2"])
def runc(request, tmp_path: Path) -> tuple[DockerBackend, Box, Cgroup]:
    backend = DockerBackend(SandboxConfig())
    box = Box(language="python", container=SimpleNamespace(id="c0ffee"), channel=None, mem_mb=256)  # type: ignore[arg-type]
    cg = Cgroup(tmp_path, v1=request.param)
    backend._cgroups[box.container.id] = cg.dirs
    return backend, box, cg


def test_the_begin_hook_reads_oom_kills_and_rest_and_the_readings_change_nothing(runc) -> None:
    backend, box, cg = runc
    cg.write(rest_mb=29, cache_mb=40, oom=2)
    assert backend.sentry_mb(box) == -1 and backend.rest_now(box) == 29
    assert (box.oom_base, box.rest_mb, box.rest_birth_mb, box.sentry_base) == (-1, -1, -1, -1)
    backend.begins(box)
    assert (box.oom_base, box.rest_mb, box.rest_birth_mb) == (2, 29, 29)
    fixed = backend.config.overhead_mb("python")
    assert backend.overhead_mb(box, "python") == min(fixed, 29 + backend.config.capture_mb())


def test_kernel_memory_a_job_leaves_is_never_the_next_jobs_room_and_its_box_is_replaced(runc) -> None:
    """rt30ab: a storm's dentries, charged to the box, outlive the reset (95 MB of rest against 29 at birth)."""
    backend, box, cg = runc
    cg.write(rest_mb=29)
    backend.begins(box)
    room = backend.overhead_mb(box, "python")
    cg.write(rest_mb=95)
    assert not backend.at_rest(box)
    backend.begins(box)  # were the box kept: its birth rest, not the storm's
    assert box.rest_mb == 29 and box.rest_birth_mb == 29 and backend.overhead_mb(box, "python") == room


def test_a_box_whose_rest_grew_within_the_margin_serves_on_with_its_birth_rest(runc) -> None:
    """An innocent job grows the rest a few MB (the scientific stack: 3 MB under runc); page cache is no rest."""
    backend, box, cg = runc
    cg.write(rest_mb=29)
    backend.begins(box)
    cg.write(rest_mb=29 + REST_GROWTH_MB, cache_mb=500, oom=1)
    assert backend.at_rest(box)
    backend.begins(box)
    assert (box.rest_mb, box.oom_base) == (29, 1)
    cg.write(rest_mb=20)  # less than at birth: what it holds now
    backend.begins(box)
    assert box.rest_mb == 20 and box.rest_birth_mb == 29


def test_the_stash_is_no_rest(runc) -> None:
    """The test sets the runner keeps (Box.stash) are added per step (sandbox/job.py _stash_mb): not a growth."""
    backend, box, cg = runc
    cg.write(rest_mb=29)
    backend.begins(box)
    box.stash["a" * 64] = 40 * MB
    cg.write(rest_mb=29 + 40)
    assert backend.rest_now(box) == 29 and backend.at_rest(box)


def test_a_box_with_no_cgroup_to_read_keeps_the_fixed_allowance(tmp_path: Path) -> None:
    backend = DockerBackend(SandboxConfig())
    box = Box(language="python", container=SimpleNamespace(id="c0ffee"), channel=None, mem_mb=256)  # type: ignore[arg-type]
    backend._cgroups[box.container.id] = {"memory": str(tmp_path / "gone")}
    backend.begins(box)
    assert (box.oom_base, box.rest_mb, box.rest_birth_mb) == (-1, -1, -1)
    assert backend.overhead_mb(box, "python") == backend.config.overhead_mb("python") and backend.at_rest(box)


# ------------------------------------------------- a rest that held since the box's last begin (issue 32)
def _counted(backend: DockerBackend) -> list[int]:
    """The readings `begins` takes of the rest from here on, in order (rest_now counted, not changed)."""
    seen: list[int] = []
    read = backend.rest_now

    def counting(box: Box) -> int:
        seen.append(read(box))
        return seen[-1]
    backend.rest_now = counting  # type: ignore[method-assign]
    return seen


def test_a_rest_that_held_since_the_last_begin_is_read_once(runc) -> None:
    """The box's last settled rest, read SETTLE_GAP_S or more ago, and a first reading within SETTLE_MB of it are
    watchdog.settled's pair: no second reading (issue 32: its 20 ms wait was a third of a HumanEval job in its box).
    Near misses: the first begin of a box (no prior), a prior too recent, a rest that moved past SETTLE_MB: two
    readings or more, as before."""
    import time

    from sandbox import watchdog

    backend, box, cg = runc
    seen = _counted(backend)
    cg.write(rest_mb=29)
    backend.begins(box)  # the birth: no prior, settled by two readings
    assert len(seen) == 2 and box.rest_read is not None and box.rest_read[0] == 29
    seen.clear()
    box.rest_read = (29, time.monotonic() - 2 * watchdog.SETTLE_GAP_S)  # as a job later
    cg.write(rest_mb=29 + watchdog.SETTLE_MB)
    backend.begins(box)
    assert seen == [29 + watchdog.SETTLE_MB] and box.rest_mb == 29  # read once; never over the birth rest
    seen.clear()
    box.rest_read = (29, time.monotonic() + 60)  # not yet SETTLE_GAP_S old: no pair
    cg.write(rest_mb=29)
    backend.begins(box)
    assert seen == [29, 29]
    seen.clear()
    box.rest_read = (29, time.monotonic() - 1.0)
    cg.write(rest_mb=29 + watchdog.SETTLE_MB + 1)  # moved: settled again, by two readings
    backend.begins(box)
    assert len(seen) == 2 and box.rest_mb == 29


def test_a_transient_is_never_settled_by_an_old_reading() -> None:
    """watchdog.settled with a prior: a first reading far from it (the 347 MB transient of issue 30) is read
    again as before, and the value two readings agree on is the one acted on; a box gone reads -1 at once."""
    from sandbox import watchdog

    def reads(*values: int):
        it = iter(values)
        return lambda: next(it)
    old = (14, 0.0)  # time.monotonic() 0: long ago
    assert watchdog.settled(reads(15), prior=old) == 15
    assert watchdog.settled(reads(347, 14, 15), prior=old) == 15
    assert watchdog.settled(reads(-1), prior=old) == -1
    assert watchdog.settled(reads(14, 16), prior=(-1, 0.0)) == 16  # no prior reading: two as before

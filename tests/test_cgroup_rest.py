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

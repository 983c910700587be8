"""Under Docker's runsc runtime the server sets each step's memory limit on the container's cgroup
(sandbox/backend.py `DockerBackend._cap_runsc`). After a checker's doubled room the limit is lowered again; a
lowering the kernel refuses (EBUSY: the cgroup holds more than the new limit) leaves the box above its limit
for the rest of the job, held by the watchdog's samples alone, so the box must never serve another job (red
team rt34r). Pure logic on the backend's bookkeeping: the cgroup write is the one stand-in."""
from __future__ import annotations

import errno
from types import SimpleNamespace

import pytest

from sandbox import SandboxConfig
from sandbox import watchdog
from sandbox.backend import DockerBackend
from sandbox.box import Box


def _backend_and_box(monkeypatch: pytest.MonkeyPatch, failure: int) -> tuple[DockerBackend, Box]:
    backend = DockerBackend(SandboxConfig(runtime="runsc"))
    box = Box(language="python", container=SimpleNamespace(id="c0ffee"), channel=None, mem_mb=256)  # type: ignore[arg-type]
    box.gvisor_rest_mb = 16
    backend._watched[box.container.id] = (box, {"memory": "/nonexistent"})

    def refuse(folders: dict, mb: int) -> None:
        raise OSError(failure, "refused")

    monkeypatch.setattr(watchdog, "set_cgroup_memory", refuse)
    monkeypatch.setattr(backend, "host_threads", lambda b: 0)
    return backend, box


def test_a_limit_the_kernel_would_not_lower_retires_the_box(monkeypatch: pytest.MonkeyPatch) -> None:
    backend, box = _backend_and_box(monkeypatch, errno.EBUSY)
    assert backend.at_rest(box)
    backend._cap_runsc(box)
    assert box.limit_unset and not backend.at_rest(box)


def test_a_cgroup_the_server_may_not_write_keeps_the_box(monkeypatch: pytest.MonkeyPatch) -> None:
    """Not root on the host: no box would do better, so the watchdog holds the limit and the box serves on."""
    backend, box = _backend_and_box(monkeypatch, errno.EACCES)
    backend._cap_runsc(box)
    assert not box.limit_unset and backend.at_rest(box)

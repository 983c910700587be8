"""Which runs start as forks of the warm interpreter (sandbox/config.py: SandboxConfig.warm)."""
from __future__ import annotations

import pytest

from sandbox import SandboxConfig
from sandbox.backend import sandbox_env


@pytest.mark.parametrize(("backend", "mode", "program", "judge", "container"), [
    ("docker", "auto", True, True, True),
    ("gvisor", "auto", False, True, True),  # a judge never forks from the runner's memory; a program only when on (sandbox/config.py warm)
    ("gvisor", "on", True, True, True),
    ("docker", "off", False, False, False),
])
def test_which_runs_fork(backend, mode, program, judge, container):
    c = SandboxConfig(backend=backend, warm_fork=mode)
    assert (c.warm("python"), c.warm("python", judge=True), c.warm_container("python")) == (program, judge, container)
    assert not c.warm("c", judge=True) and not c.warm_container("javascript")
    assert sandbox_env(c, "python")["SANDBOX_WARM"] == ("1" if container else "0")
    assert c.overhead_mb("python") - c.overhead_mb("c") == (32 if container else 0)


def test_a_bad_mode_is_refused():
    with pytest.raises(ValueError, match="warm_fork"):
        SandboxConfig(warm_fork="yes")

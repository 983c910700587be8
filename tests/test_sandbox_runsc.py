"""Which gVisor platform the backend runs (sandbox/runsc.py; docs/sandboxes.md "gVisor's platform"), against a
stand-in runsc whose probe sandboxes succeed, fail or hang as a host's would."""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

from sandbox import SandboxConfig
from sandbox import runsc


def fake_runsc(tmp_path: Path, platforms: str, works: str, hangs: str = "") -> str:
    """A runsc that lists `platforms` and whose `do` runs on those in `works`, hangs on those in `hangs`."""
    path = tmp_path / "runsc"
    path.write_text(f"""#!/bin/sh
[ "$1" = help ] && {{ printf '%s\\n' {platforms}; exit 0; }}
for a in "$@"; do case "$a" in --platform=*) p=${{a#--platform=}};; esac; done
case " {hangs} " in *" $p "*) exec sleep 60;; esac
case " {works} " in *" $p "*) exit 0;; esac
echo "cannot start on $p" >&2; exit 3
""")
    path.chmod(0o755)
    return str(path)


@pytest.fixture(autouse=True)
def fresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Each test's own cache folder and no answer kept in this process."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.setattr(runsc, "PROBE_S", 0.5)
    runsc.choose.cache_clear()
    runsc.supported.cache_clear()
    yield
    runsc.choose.cache_clear()
    runsc.supported.cache_clear()


def test_auto_takes_systrap_where_kvm_hangs_and_says_why(tmp_path):
    fake = fake_runsc(tmp_path, "ptrace kvm systrap", works="systrap ptrace", hangs="kvm")
    platform, why = runsc.choose(fake, "auto")
    assert platform == "systrap", why
    assert "systrap: a probe sandbox ran" in why and "kvm: " in why


def test_auto_takes_ptrace_where_the_runsc_has_no_systrap(tmp_path):
    """Debian bookworm's runsc: ptrace and kvm only (near miss of the one above: the same host, an older runsc)."""
    fake = fake_runsc(tmp_path, "ptrace kvm", works="ptrace")
    platform, why = runsc.choose(fake, "auto")
    assert platform == "ptrace" and "systrap: not in this runsc" in why, why


def test_auto_passes_over_a_systrap_whose_probe_fails(tmp_path):
    fake = fake_runsc(tmp_path, "ptrace kvm systrap", works="ptrace")
    platform, why = runsc.choose(fake, "auto")
    assert platform == "ptrace" and "cannot start on systrap" in why, why


def test_kvm_is_taken_where_it_works(tmp_path):
    if not os.access("/dev/kvm", os.R_OK | os.W_OK):
        pytest.fail("needs a /dev/kvm this user can open (the hosts this project runs on have one)")
    fake = fake_runsc(tmp_path, "ptrace kvm systrap", works="kvm systrap ptrace")
    assert runsc.choose(fake, "auto")[0] == "kvm"


def test_auto_is_kept_for_this_runsc_and_probed_again_for_another(tmp_path):
    fake = fake_runsc(tmp_path, "ptrace kvm systrap", works="systrap ptrace", hangs="kvm")
    assert runsc.choose(fake, "auto")[0] == "systrap"
    runsc.choose.cache_clear()  # another server process, same boot: no probe (systrap's would fail now)
    fake_runsc(tmp_path, "ptrace kvm systrap", works="ptrace" + " " * 7)  # same size, new mtime: another binary
    os.utime(fake, ns=(1, 1))
    assert runsc.choose(fake, "auto")[0] == "ptrace"
    runsc.choose.cache_clear()
    platform, why = runsc.choose(fake, "auto")
    assert platform == "ptrace" and why.startswith("kept from this boot's probe"), why


def test_a_platform_named_must_be_the_runscs():
    fake = fake_runsc(Path(tempfile.gettempdir()), "ptrace kvm", works="ptrace kvm")
    assert runsc.choose(fake, "ptrace") == ("ptrace", "asked for by name (gvisor_platform)")
    with pytest.raises(RuntimeError, match="gvisor_platform 'systrap'.*ptrace, kvm"):
        runsc.choose(fake, "systrap")


def test_the_setting_takes_only_known_platforms():
    assert SandboxConfig(gvisor_platform="systrap").gvisor_platform == "systrap"
    with pytest.raises(ValueError, match="gvisor_platform"):
        SandboxConfig(gvisor_platform="fast")

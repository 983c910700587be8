"""Image builds take the Debian mirror from the machine's apt sources, never from the repository."""

from __future__ import annotations

from pathlib import Path

import pytest

from sandbox.apt_sources import apt_entries, debian_mirror

ROOT = Path(__file__).resolve().parent.parent

DEB822 = """Types: deb
URIs: http://mirror.example/debian
Suites: bookworm bookworm-updates
Components: main

Types: deb
URIs: http://mirror.example/debian-security
Suites: bookworm-security
Components: main
"""


@pytest.fixture
def apt_dir(tmp_path, monkeypatch):
    monkeypatch.delenv("SANDBOX_DEBIAN_MIRROR", raising=False)
    (tmp_path / "sources.list.d").mkdir()
    return tmp_path


def test_deb822_source_serving_the_suite(apt_dir):
    (apt_dir / "sources.list.d" / "debian.sources").write_text(DEB822)
    assert debian_mirror("bookworm", apt_dir) == "http://mirror.example/debian"
    assert debian_mirror("bookworm-security", apt_dir) == "http://mirror.example/debian-security"


def test_one_line_entries_with_options_and_comments(apt_dir):
    (apt_dir / "sources.list").write_text(
        "# deb http://commented.example/debian bookworm main\n"
        "deb-src http://src.example/debian bookworm main\n"
        "deb [arch=amd64 signed-by=/k.gpg] http://opts.example/debian bookworm main\n")
    assert debian_mirror("bookworm", apt_dir) == "http://opts.example/debian"


def test_disabled_stanzas_and_other_suites_are_skipped(apt_dir):
    (apt_dir / "sources.list.d" / "a.sources").write_text(
        "Types: deb\nURIs: http://off.example/debian\nSuites: bookworm\nEnabled: no\n\n"
        "Types: deb\nURIs: http://trixie.example/debian\nSuites: trixie\n")
    assert apt_entries(apt_dir) == [("http://trixie.example/debian", ["trixie"])]
    assert debian_mirror("bookworm", apt_dir) == ""  # debootstrap's own default


def test_environment_overrides_the_machine(apt_dir, monkeypatch):
    (apt_dir / "sources.list.d" / "debian.sources").write_text(DEB822)
    monkeypatch.setenv("SANDBOX_DEBIAN_MIRROR", "http://override.example/debian")
    assert debian_mirror("bookworm", apt_dir) == "http://override.example/debian"


@pytest.mark.parametrize("path", ["sandbox/build.py", "deploy/build_offline.sh", "sandbox/apt_sources.py"])
def test_build_scripts_name_no_host(path):
    text = (ROOT / path).read_text()
    assert "http://" not in text and "https://" not in text

"""The CLI's front door: `--version`, `python -m verifier`, and the package's typing marker."""

from __future__ import annotations

import importlib.metadata
import importlib.resources
import subprocess
import sys

import pytest

from verifier.cli import main


def test_version_flag_prints_installed_version(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out.strip() == f"verifier {importlib.metadata.version('grpo-verifier')}"


def test_python_dash_m_runs_the_cli():
    proc = subprocess.run([sys.executable, "-m", "verifier", "--help"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    for command in ("serve", "grade", "sandbox", "train"):
        assert command in proc.stdout


@pytest.mark.parametrize("package", ["verifier", "sandbox", "trainer"])
def test_packages_ship_py_typed(package):
    assert importlib.resources.files(package).joinpath("py.typed").is_file()

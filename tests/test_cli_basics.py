"""The CLI's front door: `--version`, `python -m verifier`, and the package's typing marker."""

from __future__ import annotations

import importlib.metadata
import importlib.resources
import subprocess
import sys

import pytest

from verifier.tools.cli import main


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


def _cli(*args: str, env: dict[str, str] | None = None, timeout: float = 60) -> subprocess.CompletedProcess:
    import os

    full_env = {**os.environ, **(env or {})}
    return subprocess.run([sys.executable, "-m", "verifier", *args], capture_output=True, text=True,
                          timeout=timeout, env=full_env)


def _one_line_error(proc: subprocess.CompletedProcess, *words: str) -> None:
    assert proc.returncode != 0
    assert "Traceback" not in proc.stderr, proc.stderr
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, proc.stderr
    for word in words:
        assert word in lines[0]


def test_missing_input_file_is_one_line(tmp_path):
    _one_line_error(_cli("grade", str(tmp_path / "nope.jsonl")), "nope.jsonl", "does not exist")


@pytest.mark.parametrize("name,value", [("VERIFIER_WORKERS", "abc"), ("VERIFIER_CODE", "perhaps"),
                                        ("VERIFIER_DEFAULT_MATH_TIMEOUT_S", "5s")])
def test_bad_environment_value_is_one_line(tmp_path, name, value):
    data = tmp_path / "in.jsonl"
    data.write_text("")
    _one_line_error(_cli("grade", str(data), env={name: value}), name, repr(value))


def test_unreadable_token_file_is_one_line(tmp_path):
    data = tmp_path / "in.jsonl"
    data.write_text("")
    _one_line_error(_cli("grade", str(data), "--server", "127.0.0.1:1", "--token-file", str(tmp_path / "none")),
                    "token file")


def test_taken_metrics_port_is_one_line():
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        proc = _cli("serve", "--port", "0", "--workers", "1", "--no-code", "--metrics-port", str(port), timeout=120)
    _one_line_error(proc, f"127.0.0.1:{port}", "--metrics-port")

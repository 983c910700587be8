"""The client-only install: `pip install grpo-verifier` into a fresh virtualenv (a real install, with
its dependencies) gives the client, the CLI's client commands and the adapters, and none of the
grading engine (math-verify, sympy, docker, pebble)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ("math_verify", "sympy", "docker", "pebble", "prometheus_client")

CHECK = f"""
import importlib.util, json, sys
import verifier.client, verifier.tools.cli, trainer.remote, trainer.verl, trainer.openrlhf, trainer.slime, trainer.trl_sync, trainer.sessions, trainer.env_sessions, trainer.slime_agent
engine = {ENGINE!r}
print(json.dumps({{"installed": [m for m in engine if importlib.util.find_spec(m)],
                  "loaded": sorted(m for m in sys.modules if m.split(".")[0] in engine)}}))
"""


@pytest.fixture(scope="module")
def client_venv(tmp_path_factory) -> Path:
    """A venv with `pip install <copy of this repo>` (no extras); the copy keeps build files out of the tree."""
    base = tmp_path_factory.mktemp("client-install")
    src = base / "src"
    shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns(".git", ".venv", "__pycache__", "*.egg-info", "build", "wheels", "runs",
                                                             ".pytest_cache", "dist"))
    venv = base / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    proc = subprocess.run([str(venv / "bin/python"), "-m", "pip", "install", "-q", "--disable-pip-version-check",
                           str(src)], capture_output=True, text=True, env=env, timeout=900, check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return venv


def _run(venv: Path, *args: str, **env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return subprocess.run(args, capture_output=True, text=True, timeout=120, cwd=venv.parent, check=False,
                          env={**clean, "PATH": f"{venv / 'bin'}:{clean.get('PATH', '')}", **env})


@pytest.mark.slow
def test_client_and_adapters_import_without_the_engine(client_venv):
    proc = _run(client_venv, str(client_venv / "bin/python"), "-c", CHECK)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {"installed": [], "loaded": []}


@pytest.mark.slow
def test_server_commands_say_what_to_install(client_venv, tmp_path):
    assert _run(client_venv, "verifier", "--help").returncode == 0
    assert _run(client_venv, "verifier", "--version").stdout.startswith("verifier 0.")
    tasks = tmp_path / "tasks.jsonl"
    tasks.write_text('{"id": "1", "kind": "math", "completion": "\\\\boxed{2}", "gold": "2"}\n')
    for args in (("serve",), ("grade", str(tasks)), ("sandbox", "build"), ("train", "--tiny")):
        proc = _run(client_venv, "verifier", *args)
        assert proc.returncode == 2
        extra = "train" if args[0] == "train" else "server"
        assert f"grpo-verifier[{extra}]" in proc.stderr and "Traceback" not in proc.stderr
        assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr


@pytest.mark.slow
def test_client_install_grades_against_a_server(client_venv, verifier_server, tmp_path):
    """`verifier grade --server` and an adapter, run from the client-only venv, get real verdicts."""
    tasks = tmp_path / "tasks.jsonl"
    tasks.write_text('{"id": "a", "kind": "math", "completion": "\\\\boxed{\\\\frac{1}{2}}", "gold": "0.5"}\n'
                     '{"id": "b", "kind": "math", "completion": "\\\\boxed{\\\\frac{1}{3}}", "gold": "0.5"}\n')
    proc = _run(client_venv, "verifier", "grade", str(tasks), "--server", verifier_server.target)
    assert proc.returncode == 0, proc.stderr
    rows = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [(r["id"], r["verdict"]) for r in rows] == [("a", "correct"), ("b", "incorrect")]
    script = ("from trainer.verl import compute_score_batch as f; "
              "print([r['score'] for r in f(['m'] * 2, ['\\\\boxed{4}', '\\\\boxed{5}'], ['4', '4'], None)])")
    proc = _run(client_venv, str(client_venv / "bin/python"), "-c", script, VERIFIER_TARGET=verifier_server.target)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[1.0, 0.0]"

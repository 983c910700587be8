"""The CLI and its configuration: `verifier grade` offers only the flags that apply, its exit codes
tell an outage from a run, and every VERIFIER_* name in deploy/ and examples/ is a real setting."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from verifier.tools.cli import build_parser

ROOT = Path(__file__).resolve().parent.parent
SERVER_ONLY = ("--host", "--port", "--http-port", "--metrics-port", "--metrics-host", "--drain-delay-s", "--grace-s",
               "--max-connection-age-s", "--allow-insecure-bind", "--tls-cert", "--tls-key", "--max-queued-items")
CLIENT = ("--server", "--ca-cert", "--tls", "--token", "--token-file", "--timeout-s")
ENGINE = ("--workers", "--default-math-timeout-s", "--code", "--no-code",
          "--sandbox-max-concurrent-jobs", "--sandbox-pool-size", "--sandbox-runtime", "--sandbox-limits")

MATH_OK = {"id": "m", "kind": "math", "completion": "\\boxed{2}", "gold": "2"}
CODE = {"id": "c", "kind": "code", "language": "python", "completion": "```python\nprint(1)\n```",
        "tests": [{"stdin": "", "expected_stdout": "1\n"}]}


def _help(command: str) -> str:
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    return sub.choices[command].format_help()


def _flags(text: str) -> set[str]:
    return {word.rstrip(",") for word in text.split() if word.startswith("--")}


def test_grade_help_shows_client_and_engine_flags_only():
    flags = _flags(_help("grade"))
    assert not flags & set(SERVER_ONLY), sorted(flags & set(SERVER_ONLY))
    assert set(CLIENT) <= flags and set(ENGINE) <= flags
    assert "client (with --server)" in _help("grade") and "in-process engine (without --server)" in _help("grade")


def test_serve_help_keeps_every_server_flag():
    assert set(SERVER_ONLY) | set(ENGINE) <= _flags(_help("serve"))


def test_grade_refuses_a_server_only_flag(tmp_path):
    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps(MATH_OK) + "\n")
    proc = _grade(src, "--metrics-port", "0")
    assert proc.returncode == 2 and "unrecognized arguments: --metrics-port" in proc.stderr


def _grade(src: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "verifier", "grade", str(src), *extra], capture_output=True,
                          text=True, cwd=ROOT, timeout=300)


def _write(tmp_path: Path, *rows: dict) -> Path:
    src = tmp_path / "in.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return src


def test_nothing_graded_exits_4(tmp_path):
    """Code tasks with code grading off all come back infra_error: an outage, not a run."""
    proc = _grade(_write(tmp_path, CODE, {**CODE, "id": "c2"}), "--workers", "1", "--no-code")
    assert proc.returncode == 4, proc.stderr
    assert "nothing could be graded" in proc.stderr
    assert [json.loads(line)["verdict"] for line in proc.stdout.splitlines()] == ["infra_error", "infra_error"]


def test_nothing_graded_through_an_unreachable_server_exits_4(tmp_path):
    proc = _grade(_write(tmp_path, MATH_OK), "--server", "127.0.0.1:1", "--timeout-s", "2")
    assert proc.returncode == 4, proc.stderr


def test_fail_on_infra_error(tmp_path):
    src = _write(tmp_path, MATH_OK, CODE)
    assert _grade(src, "--workers", "1", "--no-code").returncode == 0  # one item graded: a run
    proc = _grade(src, "--workers", "1", "--no-code", "--fail-on", "timeout,infra_error")
    assert proc.returncode == 3, proc.stderr
    assert "--fail-on: 1 infra_error" in proc.stderr


def test_fail_on_repeatable_and_only_on_named_verdicts(tmp_path):
    src = _write(tmp_path, MATH_OK, {**MATH_OK, "id": "w", "completion": "\\boxed{3}"})
    assert _grade(src, "--workers", "1", "--no-code", "--fail-on", "infra_error", "--fail-on", "timeout").returncode == 0
    proc = _grade(src, "--workers", "1", "--no-code", "--fail-on", "infra_error", "--fail-on", "incorrect")
    assert proc.returncode == 3 and "1 incorrect" in proc.stderr


def test_fail_on_unknown_verdict_is_one_line(tmp_path):
    proc = _grade(_write(tmp_path, MATH_OK), "--fail-on", "infra-error")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "unknown verdict(s) infra-error" in proc.stderr


def test_grade_through_tls_server_with_ca_cert(server_factory, tmp_path):
    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
                    "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True)
    server = server_factory("--workers", "1", "--no-code", "--tls-cert", str(cert), "--tls-key", str(key))
    src = _write(tmp_path, MATH_OK)
    proc = _grade(src, "--server", server.target, "--ca-cert", str(cert))
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["verdict"] == "correct"
    # without the CA the handshake fails: nothing graded, and the exit says so
    assert _grade(src, "--server", server.target, "--timeout-s", "3").returncode == 4


@pytest.mark.parametrize("flag", ["--ca-cert"])
def test_missing_ca_cert_is_one_line(tmp_path, flag):
    proc = _grade(_write(tmp_path, MATH_OK), "--server", "127.0.0.1:1", flag, str(tmp_path / "nope.pem"))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and "nope.pem" in proc.stderr


# ---------------------------------------------------------------- trainer: token and TLS, never in a config

def test_reward_config_holds_a_client_config_and_no_token(tmp_path):
    from trainer.config import RewardConfig
    from verifier.client_config import ClientConfig

    cfg = RewardConfig(client={"timeout_s": 9.0, "root_cert": "ca.pem"})  # as YAML gives it
    assert isinstance(cfg.client, ClientConfig) and cfg.client.timeout_s == 9.0
    with pytest.raises(ValueError, match="client.token: put the token in VERIFIER_TOKEN"):
        RewardConfig(client=ClientConfig(token="s3cret"))
    with pytest.raises(ValueError, match=r"client: unknown key\(s\) \['retries'\]"):
        RewardConfig(client={"retries": 2})


def test_reward_client_config_resolves_token_and_tls_late(tmp_path):
    from trainer.config import RewardConfig

    secret = tmp_path / "token"
    secret.write_text("from-file\n")
    cfg = RewardConfig(token_file=str(secret), client={"root_cert": "ca.pem"})
    resolved = cfg.client_config({})
    assert (resolved.token, resolved.tls, resolved.root_cert, resolved.on_invalid) == ("from-file", True, "ca.pem", "result")
    assert cfg.client_config({"VERIFIER_TOKEN": "from-env"}).token == "from-env"  # the variable wins
    assert cfg.client.token == "" and "from-file" not in repr(cfg)  # resolved, never stored
    assert RewardConfig().client_config({"VERIFIER_TOKEN_FILE": str(secret)}).token == "from-file"
    with pytest.raises(ValueError, match="nope"):
        RewardConfig(token_file=str(tmp_path / "nope")).client_config({})


@pytest.mark.parametrize("rewards,message", [
    ({"token": "s3cret"}, "rewards.token: set VERIFIER_TOKEN or rewards.token_file"),
    ({"timeout_s": 120}, r"rewards: \['timeout_s'\] moved to rewards.client"),
])
def test_train_config_refuses_a_token_and_points_moved_keys(rewards, message):
    pytest.importorskip("yaml")
    from trainer.train import config_from_dict

    with pytest.raises(ValueError, match=message):
        config_from_dict({"model": "tiny", "rewards": rewards})


# ---------------------------------------------------------------- deploy/ and examples/ name real settings

def _deploy_and_example_files() -> list[Path]:
    return [p for d in ("deploy", "examples") for p in sorted((ROOT / d).rglob("*"))
            if p.is_file() and p.suffix in {".yaml", ".yml", ".sh", ".py", ".md", ""} and "schemas" not in p.parts]


def test_every_verifier_variable_in_deploy_and_examples_is_a_setting():
    import re

    from trainer.remote import ENVIRONMENT
    from verifier.config import flat_fields

    known = {f.env for f in flat_fields()} | set(ENVIRONMENT)
    used = {(p.relative_to(ROOT).as_posix(), name) for p in _deploy_and_example_files()
            for name in re.findall(r"VERIFIER_[A-Z0-9_]+", p.read_text(errors="replace"))}
    assert len({name for _, name in used}) >= 10  # the scan sees the manifests
    assert sorted((where, name) for where, name in used if name not in known) == []


def test_every_cli_flag_in_deploy_examples_and_readme_exists():
    import re

    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    checked = 0
    for path in [*_deploy_and_example_files(), ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for line in path.read_text(errors="replace").splitlines():
            for command, rest in re.findall(r"verifier (serve|grade)\b([^`#|;]*)", line):
                known = {s for a in sub.choices[command]._actions for s in a.option_strings}
                for flag in re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", rest):
                    checked += 1
                    assert flag in known, f"{path.name}: `verifier {command} {flag}` is not a flag"
    assert checked >= 5


def test_example_kubernetes_targets_name_a_deployed_service():
    import re

    import yaml

    services = set()
    for path in (ROOT / "deploy" / "k8s").glob("*.yaml"):
        for doc in yaml.safe_load_all(path.read_text()):
            if doc and doc.get("kind") == "Service":
                services.add(doc["metadata"]["name"])
    namespace = yaml.safe_load((ROOT / "deploy" / "k8s" / "kustomization.yaml").read_text())["namespace"]
    hosts = [h for p in (ROOT / "examples").glob("*") if p.is_file() for h in re.findall(r"([\w.-]+)\.svc\.cluster\.local", p.read_text())]
    assert hosts
    for host in hosts:
        name, ns = host.split(".")[:2]
        assert (name in services, ns) == (True, namespace), host


# ---------------------------------------------------------------- one configuration tree

SAMPLES = {"int": ("7", 7), "float": ("2.5", 2.5), "str": ("x-1", "x-1"), "bool": ("false", False),
           "str | None": ("unix:///tmp/d.sock", "unix:///tmp/d.sock"), "tuple[str, ...]": ("python, c", ("python", "c"))}
FIELD_SAMPLES = {"host_threads_per_sandbox": ("512", 512)}  # at least 128 (sandbox/config.py)


def _sandbox_fields():
    import dataclasses

    from sandbox.config import SandboxConfig

    return dataclasses.fields(SandboxConfig)


# Settings that take one of a few words: a sample that is one of them, not the default.
CHOICES = {"backend": "gvisor", "warm_fork": "off", "gvisor_platform": "systrap", "userns_mode": "landlock"}


@pytest.mark.parametrize("field", _sandbox_fields(), ids=lambda f: f.name)
def test_every_sandbox_setting_is_a_serve_flag_and_a_variable(field):
    from verifier.config import ServerConfig

    flags = _flags(_help("serve"))
    assert f"--sandbox-{field.name.replace('_', '-')}" in flags
    if field.type.startswith("dict["):
        raw, check = '{"python": {"max_time_limit_s": 30}}', lambda v: v["python"].max_time_limit_s == 30 and "java" in v
    else:
        raw, want = (CHOICES[field.name],) * 2 if field.name in CHOICES else FIELD_SAMPLES.get(field.name, SAMPLES[field.type])
        check = want.__eq__
    from_env = ServerConfig.from_env({f"VERIFIER_SANDBOX_{field.name.upper()}": raw})
    assert check(getattr(from_env.sandbox, field.name))
    args = build_parser().parse_args(["serve", f"--sandbox-{field.name.replace('_', '-')}", raw])
    from verifier.tools.cli import _config

    assert check(getattr(_config(args).sandbox, field.name))


def test_a_host_thread_budget_below_gvisor_at_rest_is_refused_naming_the_field():
    """gVisor at rest runs ~75 host threads: a budget under 128 would kill every sandbox."""
    from sandbox.config import SandboxConfig

    with pytest.raises(ValueError, match="host_threads_per_sandbox 64"):
        SandboxConfig(host_threads_per_sandbox=64)
    assert SandboxConfig(host_threads_per_sandbox=128).host_threads_per_sandbox == 128  # near miss


def test_an_unknown_sandbox_backend_is_refused_naming_the_choices():
    proc = subprocess.run([sys.executable, "-m", "verifier", "serve", "--sandbox-backend", "podman"],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.returncode != 0 and "docker, gvisor" in proc.stderr and "podman" in proc.stderr, proc.stderr[-500:]


def test_one_code_concurrency_limit():
    """--sandbox-max-concurrent-jobs is the one bound: past the CPU count it reaches the grader."""
    import os

    from sandbox.grader import CodeGrader
    from verifier.tools.cli import _config
    from verifier.config import ServerConfig

    assert not hasattr(ServerConfig(), "code_concurrency")
    wanted = (os.cpu_count() or 2) * 4
    config = _config(build_parser().parse_args(["serve", "--sandbox-max-concurrent-jobs", str(wanted)]))
    assert config.sandbox.max_concurrent_jobs == wanted
    grader = CodeGrader(config.sandbox)
    try:
        assert grader._slots._value == wanted
    finally:
        grader._jobs.shutdown()
        grader._plan.shutdown()
        grader._ctl.shutdown()


@pytest.mark.parametrize("name,value,words", [
    ("VERIFIER_SANDBOX_LIMITS", "{bad", ["VERIFIER_SANDBOX_LIMITS", "not JSON"]),
    ("VERIFIER_SANDBOX_LIMITS", '{"python": {"cpu": 1}}', ["sandbox limits for 'python'", "max_time_limit_s"]),
    ("VERIFIER_SANDBOX_PIDS_LIMIT", "many", ["VERIFIER_SANDBOX_PIDS_LIMIT", "'many'"]),
])
def test_bad_sandbox_setting_is_one_line(tmp_path, name, value, words):
    import os

    src = _write(tmp_path, MATH_OK)
    proc = subprocess.run([sys.executable, "-m", "verifier", "grade", str(src), "--workers", "1"], capture_output=True,
                          text=True, cwd=ROOT, timeout=120, env={**os.environ, name: value})
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert proc.returncode == 2 and len(lines) == 1, proc.stderr
    for word in words:
        assert word in lines[0]

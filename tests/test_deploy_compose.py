"""deploy/compose.yaml and the service image: schema-valid, consistent, and really running.

The compose file is validated against the Compose Specification schema (vendored from Debian's
docker-compose package). The image test takes the image `make image` builds (deploy/build_offline.sh)
and runs it with the compose file's settings (read-only root, no capabilities, the Docker socket
through its group, a token), then grades over gRPC, checks the HEALTHCHECK probe and that
SIGTERM drains to exit code 0. The compose test runs the file as docs/deploy.md "Deploy" says,
through the real compose tool (scripts/ensure_compose.sh), and grades code in every language.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import time
from pathlib import Path

import jsonschema
import pytest
import yaml

from tests.helpers import every_language_tasks, verdicts_off

ROOT = Path(__file__).resolve().parent.parent
COMPOSE = ROOT / "deploy" / "compose.yaml"


def _compose() -> dict:
    return yaml.safe_load(COMPOSE.read_text())


def _interpolate(value: str, env: dict[str, str]) -> str:
    """Compose's ${VAR}, ${VAR:-default} and ${VAR:?error} for the variables this file uses."""
    def one(m: re.Match) -> str:
        name, op, arg = m.group(1), m.group(2) or "", m.group(3) or ""
        if env.get(name):
            return env[name]
        if op == ":?":
            raise KeyError(f"{name}: {arg}")
        return arg
    return re.sub(r"\$\{(\w+)(:-|:\?)?([^}]*)\}", one, value)


def test_compose_file_matches_the_compose_spec():
    schema = json.loads((ROOT / "deploy" / "schemas" / "compose-spec.json").read_text())
    validator = jsonschema.Draft7Validator(schema)  # the spec's keywords are draft-07's
    validator.validate(_compose())
    broken = _compose()
    broken["services"]["verifier"]["stop_grace_priod"] = "45s"
    with pytest.raises(jsonschema.ValidationError):
        validator.validate(broken)


def test_compose_settings_match_the_server_and_the_image():
    from verifier.config import flat_fields

    svc = _compose()["services"]["verifier"]
    env = svc["environment"]
    assert {k for k in env if k.startswith("VERIFIER_")} <= {f.env for f in flat_fields()}
    assert env["VERIFIER_SANDBOX_BACKEND"] == "docker"  # the image's default is gvisor; compose gives the socket
    grace = float(env["VERIFIER_GRACE_S"])
    assert float(svc["stop_grace_period"].rstrip("s")) > grace, "docker must not SIGKILL before the drain ends"
    assert "/var/run/docker.sock:/var/run/docker.sock" in svc["volumes"]
    assert svc["group_add"], "uid 10001 reaches the socket only through its group"
    assert all(p.startswith("127.0.0.1:") for p in svc["ports"]), "published on host loopback only by default"
    with pytest.raises(KeyError):
        _interpolate(env["VERIFIER_TOKEN"], {})
    dockerfile = (ROOT / "deploy" / "Dockerfile").read_text()
    exposed = set(re.search(r"^EXPOSE (.+)$", dockerfile, re.M).group(1).split())
    assert {p.rsplit(":", 1)[1] for p in svc["ports"]} <= exposed


def _docker_ok() -> bool:
    return subprocess.run(["docker", "info"], capture_output=True).returncode == 0


@pytest.fixture(scope="module")
def image(server_image) -> str:
    """The image `make image` builds (conftest.py server_image), here run as compose runs it."""
    if not _docker_ok():
        pytest.fail("no Docker daemon answers: run scripts/ensure_docker.sh (make test does)")
    return server_image


def _docker_run_args(svc: dict, env: dict[str, str], name: str, image: str) -> list[str]:
    """`docker run` flags equivalent to the compose service (what compose itself would pass)."""
    args = ["docker", "run", "-d", "--name", name]
    for key, value in svc["environment"].items():
        args += ["-e", f"{key}={_interpolate(str(value), env)}"]
    for port in svc["ports"]:
        args += ["-p", _interpolate(port, env)]
    for volume in svc["volumes"]:
        args += ["-v", volume]
    for group in svc["group_add"]:
        args += ["--group-add", _interpolate(group, env)]
    for tmpfs in svc["tmpfs"]:
        args += ["--tmpfs", tmpfs.replace(":size=", ":rw,size=")]
    args += ["--read-only"] if svc.get("read_only") else []
    args += [f"--cap-drop={c}" for c in svc["cap_drop"]]
    args += [f"--security-opt={o}" for o in svc["security_opt"]]
    return args + [image, *svc["command"]]


# serial: the server in the container (pool "default", another host to the host's servers) and every server of
# another worker with the default pool reap each other's sandboxes (sandbox/backend.py reap_decision)
@pytest.mark.serial
@pytest.mark.docker
@pytest.mark.slow
def test_image_serves_grades_reports_health_and_drains_on_sigterm(image):
    from verifier.local_server import free_port

    from verifier.client import ClientConfig, VerifierClient

    port = free_port()
    env = {"VERIFIER_TOKEN": "t0ken-for-test", "DOCKER_GID": str(os.stat("/var/run/docker.sock").st_gid),
           "PUBLISH_PORT": str(port), "PUBLISH_METRICS_PORT": str(free_port())}
    name = f"grpo-verifier-test-{os.getpid()}"
    svc = _compose()["services"]["verifier"]
    started = subprocess.run(_docker_run_args(svc, env, name, image), capture_output=True, text=True)
    assert started.returncode == 0, started.stderr
    try:
        probe = None
        for _ in range(120):  # bounded: 60 s for the worker pool to warm up
            probe = subprocess.run(["docker", "exec", name, "verifier-healthcheck", "--timeout-s", "2"],
                                   capture_output=True, text=True)
            if probe.returncode == 0:
                break
            time.sleep(0.5)
        assert probe.returncode == 0, probe.stderr + subprocess.run(["docker", "logs", name], capture_output=True, text=True).stderr[-2000:]
        user = subprocess.run(["docker", "exec", name, "id", "-u"], capture_output=True, text=True).stdout.strip()
        assert user == "10001"
        with VerifierClient(f"127.0.0.1:{port}", ClientConfig(token=env["VERIFIER_TOKEN"], timeout_s=60)) as client:
            results = client.grade([{"id": "half", "kind": "math", "completion": "so \\boxed{1/2}", "gold": "0.5"},
                                    {"id": "wrong", "kind": "math", "completion": "\\boxed{3}", "gold": "2"}])
        assert [r["verdict"] for r in results] == ["correct", "incorrect"]
        stop = subprocess.run(["docker", "stop", "-t", "45", name], capture_output=True, text=True)
        assert stop.returncode == 0, stop.stderr
        code = subprocess.run(["docker", "inspect", "-f", "{{.State.ExitCode}}", name], capture_output=True, text=True)
        assert code.stdout.strip() == "0", subprocess.run(["docker", "logs", name], capture_output=True, text=True).stderr[-2000:]
    finally:
        subprocess.run(["docker", "rm", "-f", name], capture_output=True)


def compose_tool() -> list[str]:
    """The compose a user has: the `docker compose` plugin where present, else Debian's
    `docker-compose` (the plugin is not in Debian's docker.io)."""
    if subprocess.run(["docker", "compose", "version"], capture_output=True).returncode == 0:
        return ["docker", "compose"]
    if shutil.which("docker-compose"):
        return ["docker-compose"]
    pytest.fail("no compose tool: run scripts/ensure_compose.sh (make test does)")


def _wait_healthy(container: str, timeout_s: float = 300) -> None:
    """Until Docker's own health check (the compose file's) says healthy; fail with the log if it
    never does or the container stops."""
    deadline = time.monotonic() + timeout_s
    state = ""
    while time.monotonic() < deadline:
        state = subprocess.run(["docker", "inspect", "-f", "{{.State.Status}} {{.State.Health.Status}}", container],
                               capture_output=True, text=True).stdout.strip()
        if state == "running healthy" or not state.startswith("running"):
            break
        time.sleep(1)
    logs = subprocess.run(["docker", "logs", "--tail", "40", container], capture_output=True, text=True)
    assert state == "running healthy", f"{state}: {logs.stdout[-1500:]}{logs.stderr[-1500:]}"


# serial: as the test above (pool "default" inside and on the host: each side reaps the other's sandboxes)
@pytest.mark.serial
@pytest.mark.docker
@pytest.mark.slow
def test_compose_up_serves_healthy_and_grades_code_in_every_language(image, tmp_path):
    """docs/deploy.md "Deploy", One host, as a user runs it: `make images`, then `compose up` of
    deploy/compose.yaml with the real compose tool. A right program and a near miss in every language
    the images serve, and math, grade through its published port (issue 30: every code task was
    infra_error "sandbox images missing", the server inside computing other image tags than the
    host's build)."""
    from sandbox.build import build_images
    from verifier.client import ClientConfig, VerifierClient
    from verifier.local_server import free_port

    build_images(progress=lambda _m: None)  # `make images`: instant when they are built
    project = f"pytest-compose-{os.getpid()}"
    compose = [*compose_tool(), "-p", project, "-f", str(COMPOSE)]
    if image != _compose()["services"]["verifier"]["image"]:  # VERIFIER_TEST_IMAGE: the file's, retagged
        override = tmp_path / "image.yaml"
        override.write_text(yaml.safe_dump({"services": {"verifier": {"image": image}}}))
        compose += ["-f", str(override)]
    port = free_port()
    env = {**os.environ, "VERIFIER_TOKEN": "t0ken-for-compose", "DOCKER_GID": str(os.stat("/var/run/docker.sock").st_gid),
           "PUBLISH_PORT": str(port), "PUBLISH_METRICS_PORT": str(free_port()), "PUBLISH_HTTP_PORT": str(free_port())}
    up = subprocess.run([*compose, "up", "-d", "--no-build"], env=env, capture_output=True, text=True, timeout=300)
    try:
        assert up.returncode == 0, up.stderr[-2000:]
        (container,) = subprocess.run([*compose, "ps", "-q", "verifier"], env=env, capture_output=True, text=True,
                                      check=True).stdout.split()
        _wait_healthy(container)
        tasks = every_language_tasks()
        with VerifierClient(f"127.0.0.1:{port}", ClientConfig(token=env["VERIFIER_TOKEN"], timeout_s=600)) as client:
            results = client.grade([t for t, _ in tasks])
        assert not verdicts_off(tasks, results), verdicts_off(tasks, results)
    finally:
        down = subprocess.run([*compose, "down", "-t", "45"], env=env, capture_output=True, text=True, timeout=300)
    assert down.returncode == 0, down.stderr[-2000:]

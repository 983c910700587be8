"""Code grading in an unprivileged pod (issue 19): the server's own image (`make image`,
deploy/build_offline.sh), run as deploy/k8s runs it: its own entrypoint and `serve`, the manifest's
environment (the gVisor backend, the root filesystems inside the image) and exactly the manifest's
security settings (non-root uid, every capability dropped, no privilege escalation, read-only root,
seccomp and AppArmor unconfined, unmasked /proc, /tmp a small tmpfs), with no Docker socket and not
privileged. From the host, through its gRPC port, it grades the tests/data/formats corpus (the
verdicts the Docker backend gives, which tests/test_formats_corpus.py checks), attacks on the pod
and a canary, and runs the attack suites (ATTACK_SUITES: every test of theirs that runs on every backend,
pointed at the pod by tests/conftest.py VERIFIER_TEST_SERVER); afterwards the host is clean: no
container, no runsc process left.

One difference from Kubernetes no Docker flag can mirror: `hostUsers: false` (a user namespace per
pod) is daemon-wide in Docker (userns-remap), so here uid 10001 is the host's 10001.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import grpc
import pytest
import yaml
from grpc_health.v1 import health_pb2, health_pb2_grpc

from sandbox import SandboxConfig
from sandbox.plan import make_plan
from verifier.formats import detect, to_task

pytestmark = pytest.mark.docker
ROOT = Path(__file__).resolve().parent.parent
CANARY = "canary-7f3a9c1e"  # the server's bearer token: a program must not find it
# The pod, sized for a CI machine: the corpus's languages, one warm sandbox each, two math workers.
SIZING = {"VERIFIER_WORKERS": "2", "VERIFIER_SANDBOX_LANGUAGES": "python,cpp,c", "VERIFIER_SANDBOX_POOL_SIZE": "1"}


# The pod's seccomp and AppArmor profile types as `docker run` security options (RuntimeDefault is
# Docker's default profile: no flag).
PROFILES = {"Unconfined": "unconfined", "RuntimeDefault": None}


def pod_flags(deployment: dict, groups: dict[int, int] | None = None) -> list[str]:
    """`docker run` flags for the pod's security settings, read from the manifest: every field of the
    pod's and the container's securityContext is mapped (an unknown one fails, so the test cannot
    drift from the manifest), and so is each volume: the /tmp emptyDir, a hostPath as a bind mount
    (the token and route Secrets are given as values: pod_env). `groups` maps a supplementalGroup of the
    manifest to this host's (the socket's group, which deploy/k8s-docker-socket says to patch)."""
    pod = deployment["spec"]["template"]["spec"]
    (container,) = pod["containers"]
    psc, csc = pod["securityContext"], container["securityContext"]
    flags = ["--user", f"{psc['runAsUser']}:{psc['runAsGroup']}", "--group-add", str(psc["fsGroup"])]
    for group in psc.get("supplementalGroups", ()):
        flags += ["--group-add", str((groups or {}).get(group, group))]
    assert psc["runAsNonRoot"] and csc["runAsNonRoot"] and psc["runAsUser"] != 0
    assert set(psc) - {"supplementalGroups"} == {"runAsNonRoot", "runAsUser", "runAsGroup", "fsGroup", "seccompProfile",
                                                 "appArmorProfile"}, psc
    assert set(csc) == {"allowPrivilegeEscalation", "readOnlyRootFilesystem", "runAsNonRoot", "capabilities", "procMount"}, csc
    assert not csc.get("privileged")
    for opt, key in (("seccomp", "seccompProfile"), ("apparmor", "appArmorProfile")):
        profile = PROFILES[psc[key]["type"]]
        flags += ["--security-opt", f"{opt}={profile}"] if profile else []
    assert csc["capabilities"] == {"drop": ["ALL"]}
    flags += ["--cap-drop", "ALL"]
    if csc["allowPrivilegeEscalation"] is False:
        flags += ["--security-opt", "no-new-privileges"]
    if csc["readOnlyRootFilesystem"]:
        flags.append("--read-only")
    assert csc["procMount"] in ("Default", "Unmasked")
    if csc["procMount"] == "Unmasked":
        flags += ["--security-opt", "systempaths=unconfined"]
    volumes = {v["name"]: v for v in pod["volumes"]}
    for mount in container["volumeMounts"]:
        volume = volumes[mount["name"]]
        if "hostPath" in volume:
            flags += ["-v", f"{volume['hostPath']['path']}:{mount['mountPath']}"]
        elif mount["name"] == "tmp":
            assert volume["emptyDir"]["medium"] == "Memory" and volume["emptyDir"]["sizeLimit"].endswith("Mi")
            flags += ["--tmpfs", f"{mount['mountPath']}:rw,size={volume['emptyDir']['sizeLimit'][:-2]}m"]
        else:
            assert mount["name"] in ("token", "route-secret") and "secret" in volume, mount
    return flags


def pod_env(deployment: dict) -> dict[str, str]:
    """The manifest's literal environment, the token and the route secret given as values instead of
    Secret files (the route secret holds CANARY too: a sandbox must find neither)."""
    (container,) = deployment["spec"]["template"]["spec"]["containers"]
    env = {e["name"]: e["value"] for e in container["env"] if "value" in e and "$(" not in e["value"]}
    env.pop("VERIFIER_TOKEN_FILE")
    env.pop("VERIFIER_ROUTE_SECRET_FILE")
    # one replica, no pod IP to advertise (its "$(POD_IP)" value is dropped above): no peers to forward to
    env.pop("VERIFIER_PEER_SERVICE", None)
    return {**env, **SIZING, "VERIFIER_TOKEN": CANARY, "VERIFIER_ROUTE_SECRET": f"{CANARY}-route-secret-of-the-pod-test"}


FIND_CANARY = f"""
import os, glob
def read(p):
    try:
        return open(p, errors="replace").read()
    except OSError:  # unreadable (the runner is non-dumpable: the userns backend says so): not found
        return ""
hits = [p for p in ["/proc/1/environ", "/proc/1/cmdline", *glob.glob("/proc/*/environ")]
        if "{CANARY}" in read(p)] if os.path.isdir("/proc") else []
if "{CANARY}" in str(os.environ):
    hits.append("env")
print(hits or "absent")
"""
ATTACK = """
import os, socket
out = []
try:
    socket.create_connection(("10.0.0.1", 80), timeout=1); out.append("net")
except OSError:
    pass
for path in ("/var/run/docker.sock", "/opt/rootfs", "/opt/venv", "/home/verifier", "/var/run/secrets"):
    if os.path.exists(path):
        out.append(path)
for sig in (9, 15):
    try:
        os.kill(1, sig)
    except OSError:
        pass
print(out or "contained")
"""

def _task(tid: str, lang: str, code: str, expected: str = "3\n", **kw) -> dict:
    return {"id": tid, "kind": "code", "language": lang, "completion": f"```{lang}\n{code}\n```",
            "tests": [{"stdin": "1 2\n", "expected_stdout": expected}], **kw}


# The attack suites the pod runs whole (issue 30 "One suite, every backend"): every test of theirs that takes the
# backend parameter, graded through the pod (tests/conftest.py VERIFIER_TEST_SERVER), bar those marked
# `in_process` (they read or break the in-process pool itself). The modules' own in-process graders run
# them on every backend; here the same tests meet the pod's settings and posture. Not here:
# tests/test_sandbox_warm_attacks.py, whose tests read their programs' output (return_output, which the wire does
# not carry) and attack warm_fork "on", where the manifest runs "auto" (on gVisor, judges only).
ATTACK_SUITES = ("tests/test_sandbox_security.py", "tests/test_judge_attacks.py")
# Fewer passing tests than this means the selection shrank (a fixture or mark change): the suites hold more.
ATTACK_SUITES_MIN = 100

# Attacks on the pod itself and the canary, with the verdicts the Docker backend gives them.
TASKS = [
    (_task("canary-right", "python", "a, b = map(int, input().split())\nprint(a + b)"), "accepted"),
    (_task("canary-wrong", "python", "a, b = map(int, input().split())\nprint(a - b)"), "wrong_answer"),
    (_task("canary-right-c", "c", '#include <stdio.h>\nint main(){int a,b;scanf("%d %d",&a,&b);printf("%d\\n",a+b);}'),
     "accepted"),
    (_task("canary-wrong-c", "c", '#include <stdio.h>\nint main(){int a,b;scanf("%d %d",&a,&b);printf("%d\\n",a*b);}'),
     "wrong_answer"),
    (_task("attack", "python", ATTACK, "contained\n"), "accepted"),
    (_task("secret", "python", FIND_CANARY, "absent\n"), "accepted"),
]


def corpus() -> list[dict]:
    rows = []
    for f in sorted((ROOT / "tests" / "data" / "formats").glob("*.jsonl")):
        rows += [{**json.loads(line), "corpus_row": f"{f.stem}:{n}"}
                 for n, line in enumerate(f.read_text().splitlines(), start=1) if line.strip()]
    return rows


def judged(row: dict) -> bool:
    """Whether the row's tests run inside the sandbox (asserts, call tests, test files): the grader's
    own plan says so."""
    plan = make_plan(to_task(row, detect(row)), SandboxConfig())
    return not isinstance(plan, dict) and bool(plan.judged_tests())


def _pod_processes(container_id: str) -> dict[int, str]:
    """Host processes of the pod (its cgroup names the container), pid -> program: the server and
    its runsc sandboxes while it runs, nothing once it is gone. Other tests' runsc are not counted."""
    out = {}
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            if container_id in (proc / "cgroup").read_text():
                out[int(proc.name)] = (proc / "cmdline").read_bytes().split(b"\0")[0].decode(errors="replace")
        except OSError:
            pass
    return out


def _wait_serving(target: str, container: str, timeout_s: float = 240) -> None:
    """Until the server's health says SERVING (the image's own readiness), or fail with its log."""
    deadline = time.monotonic() + timeout_s
    with grpc.insecure_channel(target) as ch:
        stub = health_pb2_grpc.HealthStub(ch)
        while time.monotonic() < deadline:
            try:
                if stub.Check(health_pb2.HealthCheckRequest(service="verifier.v1.Verifier"), timeout=2).status == 1:
                    return
            except grpc.RpcError:
                pass
            time.sleep(1)
    logs = subprocess.run(["docker", "logs", "--tail", "40", container], capture_output=True, text=True)
    pytest.fail(f"the pod's server never became ready: {logs.stdout[-2000:]}{logs.stderr[-2000:]}")


def _grade(target: str, src: Path, *extra: str) -> list[dict]:
    out = src.with_suffix(".out.jsonl")
    proc = subprocess.run([sys.executable, "-m", "verifier.tools.cli", "grade", str(src), "-o", str(out), "--server", target,
                           "--token", CANARY, "--timeout-s", "300", *extra],
                          capture_output=True, text=True, cwd=ROOT, timeout=900)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return [json.loads(line) for line in out.read_text().splitlines()]


def _run_attack_suites(target: str) -> None:
    """ATTACK_SUITES' backend-parametrized tests, in a pytest of their own, graded through the pod at `target`."""
    from tests.conftest import SERVER_BACKEND_ENV, SERVER_ENV, TOKEN_ENV

    env = {**os.environ, SERVER_ENV: target, TOKEN_ENV: CANARY, SERVER_BACKEND_ENV: "gvisor"}
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rfE", "-p", "no:cacheprovider", *ATTACK_SUITES],
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=2400)
    assert proc.returncode == 0, proc.stdout[-8000:] + proc.stderr[-2000:]
    passed = re.search(r"(\d+) passed", proc.stdout)
    assert passed and int(passed.group(1)) >= ATTACK_SUITES_MIN, proc.stdout[-3000:]


# the image's build when its sources changed (minutes), the corpus, and the attack suites through the pod (262 s
# measured on a loaded 2-core machine): past the suite's default per-test timeout
# serial: 3 min of the suite's heaviest load (a pod, its gVisor sandboxes and a pytest of the attack suites, whose
# verdicts at the calls' limits are timed): beside another worker a miss costs a 3-minute run once more
@pytest.mark.serial
@pytest.mark.timeout(1800)
def test_the_servers_image_grades_code_in_an_unprivileged_pod(tmp_path, server_image):
    (deployment,) = [d for d in yaml.safe_load_all((ROOT / "deploy/k8s/deployment.yaml").read_text()) if d]
    env = pod_env(deployment)
    assert env["VERIFIER_SANDBOX_BACKEND"] == "gvisor" and "hostPath" not in json.dumps(deployment)
    name = f"pytest-pod-{os.getpid()}"
    run = ["docker", "run", "-d", "--name", name, *pod_flags(deployment), "-p", f"127.0.0.1::{env['VERIFIER_PORT']}",
           *(a for k, v in env.items() for a in ("-e", f"{k}={v}")), server_image, *deployment["spec"]["template"]["spec"]["containers"][0]["args"]]
    assert "docker.sock" not in " ".join(run) and "--privileged" not in run
    started = subprocess.run(run, capture_output=True, text=True, timeout=120)
    assert started.returncode == 0, started.stderr
    container_id = started.stdout.strip()
    try:
        port = subprocess.run(["docker", "port", name, env["VERIFIER_PORT"]], capture_output=True, text=True,
                              check=True).stdout.split()[0].rpartition(":")[2]
        target = f"127.0.0.1:{port}"
        _wait_serving(target, name)
        # the corpus, rows as the datasets store them
        rows = corpus()
        src = tmp_path / "corpus.jsonl"
        src.write_text("".join(json.dumps(r) + "\n" for r in rows))
        graded = {r["corpus_row"]: r for r in _grade(target, src, "--format", "auto")}
        wrong = [f"{row['corpus_row']} ({row['case']}): expected {row['expect']}, got {got['verdict']}: {got['detail'][:200]}"
                 for row in rows if (got := graded[row["corpus_row"]])["verdict"] != row["expect"]]
        assert not wrong, "\n".join(wrong)
        # both kinds are in it: stdin/stdout tests compared on the host, and tests judged inside the sandbox
        assert sum(not judged(r) for r in rows) >= 25 and sum(judged(r) for r in rows) >= 40
        # attacks on the pod and the canary
        src = tmp_path / "tasks.jsonl"
        src.write_text("".join(json.dumps(t) + "\n" for t, _ in TASKS))
        got = {r["id"]: r for r in _grade(target, src)}
        assert {t["id"]: (got[t["id"]]["verdict"], got[t["id"]]["detail"][:300]) for t, _ in TASKS} == \
            {t["id"]: (v, got[t["id"]]["detail"][:300]) for t, v in TASKS}
        _run_attack_suites(target)
        assert any("runsc" in p for p in _pod_processes(container_id).values())  # its sandboxes, seen from the host
        # a graceful stop (SIGTERM through tini) ends the server and its sandboxes
        stop = subprocess.run(["docker", "stop", "-t", "60", name], capture_output=True, text=True, timeout=120)
        assert stop.returncode == 0, stop.stderr
        state = subprocess.run(["docker", "inspect", name, "--format", "{{.State.ExitCode}}"], capture_output=True, text=True)
        assert state.stdout.strip() == "0", subprocess.run(["docker", "logs", "--tail", "30", name], capture_output=True,
                                                           text=True).stderr[-2000:]
    finally:
        subprocess.run(["docker", "rm", "-f", name], capture_output=True, timeout=120)
    # The host is clean: the pod is gone and no process of it is left (it made no Docker container:
    # it has no socket; its runsc state was in its own /tmp).
    assert not subprocess.run(["docker", "ps", "-aq", "--filter", f"name={name}"], capture_output=True, text=True).stdout.split()
    assert not _pod_processes(container_id)


# The userns backend in the same pod (issues 30 and 32): the pod gives its server no cgroup it may write (a pod's
# /sys/fs/cgroup is read-only), and the userns backend holds its limits only with one (docs/sandboxes.md "Sandbox
# backends"): it refuses, naming gVisor, which grades every language in this same pod (the test above). Math still
# grades, and a code task is infra_error saying why (not retryable: the host, not the program).
@pytest.mark.timeout(600)
def test_the_userns_backend_refuses_in_an_unprivileged_pod_that_gives_it_no_cgroup(tmp_path, server_image):
    """The manifest's pod, its backend set to userns: the backend does not start (no cgroup of its own), the reason
    names gVisor and how to delegate a cgroup; math grades, and the pod leaves nothing once it stops."""
    from tests.helpers import math_task

    (deployment,) = [d for d in yaml.safe_load_all((ROOT / "deploy/k8s/deployment.yaml").read_text()) if d]
    env = {**pod_env(deployment), "VERIFIER_SANDBOX_BACKEND": "userns", "VERIFIER_SANDBOX_LANGUAGES": "python"}
    name = f"pytest-pod-userns-{os.getpid()}"
    run = ["docker", "run", "-d", "--name", name, *pod_flags(deployment), "-p", f"127.0.0.1::{env['VERIFIER_PORT']}",
           *(a for k, v in env.items() for a in ("-e", f"{k}={v}")), server_image, *deployment["spec"]["template"]["spec"]["containers"][0]["args"]]
    started = subprocess.run(run, capture_output=True, text=True, timeout=120)
    assert started.returncode == 0, started.stderr
    container_id = started.stdout.strip()
    try:
        port = subprocess.run(["docker", "port", name, env["VERIFIER_PORT"]], capture_output=True, text=True,
                              check=True).stdout.split()[0].rpartition(":")[2]
        target = f"127.0.0.1:{port}"
        _wait_serving(target, name)
        src = tmp_path / "tasks.jsonl"
        tasks = [math_task("math", "so the answer is $\\boxed{\\frac{1}{2}}$", "0.5"), TASKS[0][0]]
        src.write_text("".join(json.dumps(t) + "\n" for t in tasks))
        got = {r["id"]: r for r in _grade(target, src)}
        assert got["math"]["verdict"] == "correct", got["math"]
        code = got["canary-right"]
        assert code["verdict"] == "infra_error", code
        for words in ("no cgroup of its own", "--sandbox-backend gvisor", "chowned to the server's uid"):
            assert words in code["detail"], code["detail"]
        assert not any(p.endswith("bwrap") for p in _pod_processes(container_id).values())  # no sandbox started
        stop = subprocess.run(["docker", "stop", "-t", "60", name], capture_output=True, text=True, timeout=120)
        assert stop.returncode == 0, stop.stderr
    finally:
        subprocess.run(["docker", "rm", "-f", name], capture_output=True, timeout=120)
    assert not _pod_processes(container_id)


def test_the_docker_socket_overlay_grades_code_in_every_language(tmp_path, server_image):
    """deploy/k8s-docker-socket (docs/deploy.md "Deploy", Nodes with Docker), as the test above runs
    the base: the same image, the overlay's rendered Deployment (the Docker backend, the node's socket
    through its group, default seccomp and AppArmor), its own entrypoint and `serve`, the node's daemon
    holding the sandbox images `make images` built. A right program and a near miss in every language,
    and math, grade through its gRPC port (issue 30: every code task was infra_error, the server
    computing other image tags than the node's build); a graceful stop leaves none of its sandboxes."""
    from sandbox.backend import LABEL_POOL
    from sandbox.build import build_images
    from tests.helpers import every_language_tasks, verdicts_off
    from tests.test_deploy_k8s import DOCKER_OVERLAY, render

    build_images(progress=lambda _m: None)  # `make images` on the node: instant when they are built
    (deployment,) = [d for d in render(DOCKER_OVERLAY) if d["kind"] == "Deployment"]
    name = f"pytest-pod-docker-{os.getpid()}"
    env = {**pod_env(deployment), "VERIFIER_SANDBOX_LANGUAGES": ",".join(SandboxConfig().languages),
           "VERIFIER_SANDBOX_POOL_NAME": name}
    assert env["VERIFIER_SANDBOX_BACKEND"] == "docker"
    socket_group = {g: os.stat("/var/run/docker.sock").st_gid for g in deployment["spec"]["template"]["spec"]["securityContext"]["supplementalGroups"]}
    run = ["docker", "run", "-d", "--name", name, *pod_flags(deployment, socket_group), "-p", f"127.0.0.1::{env['VERIFIER_PORT']}",
           *(a for k, v in env.items() for a in ("-e", f"{k}={v}")), server_image, *deployment["spec"]["template"]["spec"]["containers"][0]["args"]]
    assert "/var/run/docker.sock:/var/run/docker.sock" in run and "--privileged" not in run
    started = subprocess.run(run, capture_output=True, text=True, timeout=120)
    assert started.returncode == 0, started.stderr
    try:
        port = subprocess.run(["docker", "port", name, env["VERIFIER_PORT"]], capture_output=True, text=True,
                              check=True).stdout.split()[0].rpartition(":")[2]
        target = f"127.0.0.1:{port}"
        _wait_serving(target, name)
        tasks = every_language_tasks()
        src = tmp_path / "tasks.jsonl"
        src.write_text("".join(json.dumps(t) + "\n" for t, _ in tasks))
        results = _grade(target, src)
        assert not verdicts_off(tasks, results), verdicts_off(tasks, results)
        stop = subprocess.run(["docker", "stop", "-t", "60", name], capture_output=True, text=True, timeout=120)
        assert stop.returncode == 0, stop.stderr
        state = subprocess.run(["docker", "inspect", name, "--format", "{{.State.ExitCode}}"], capture_output=True, text=True)
        assert state.stdout.strip() == "0", subprocess.run(["docker", "logs", "--tail", "30", name], capture_output=True,
                                                           text=True).stderr[-2000:]
        # its sandboxes were the node daemon's containers, labelled with its pool: none is left
        left = subprocess.run(["docker", "ps", "-aq", "--filter", f"label={LABEL_POOL}={name}"], capture_output=True, text=True)
        assert not left.stdout.split(), left.stdout
    finally:
        subprocess.run(["docker", "rm", "-f", name], capture_output=True, timeout=120)

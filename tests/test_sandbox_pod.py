"""Code grading in an unprivileged pod (issue 19): the gVisor backend inside a container with exactly
the security settings of deploy/k8s (non-root uid, every capability dropped, no-new-privileges, no
Docker socket, not privileged, read-only root, seccomp and AppArmor unconfined, unmasked /proc)
grades right and wrong programs, limits, an attack and a canary; afterwards the host is clean.

The container is a sandbox image with this checkout, its virtual environment, runsc and the root
filesystems mounted read-only (building the server's image with the root filesystems inside takes
minutes and gigabytes: README "Deploy" has the image recipe); what is tested is the pod's settings.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sandbox.build import image_tag
from tests.helpers import sandbox_config

pytestmark = pytest.mark.docker
ROOT = Path(__file__).resolve().parent.parent
CANARY = "canary-7f3a9c1e"
POD_SECURITY = ["--user", "10001:10001", "--cap-drop", "ALL", "--security-opt", "no-new-privileges",
                "--security-opt", "seccomp=unconfined", "--security-opt", "apparmor=unconfined",
                "--security-opt", "systempaths=unconfined", "--read-only", "--tmpfs", "/tmp:rw,size=512m",
                "--network", "none"]

FIND_CANARY = f"""
import os, glob
hits = []
for path in ["/tmp/pod-canary", "/proc/1/environ", "/proc/1/cmdline", *glob.glob("/proc/*/environ")]:
    try:
        if "{CANARY}" in open(path, errors="replace").read():
            hits.append(path)
    except OSError:
        pass
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
for path in ("/var/run/docker.sock", "/rootfs", "/opt/venv", "/repo"):
    if os.path.exists(path):
        out.append(path)
try:
    os.kill(1, 9)
except OSError:
    pass
print(out or "contained")
"""


def _task(tid: str, lang: str, code: str, expected: str, **kw) -> dict:
    return {"id": tid, "kind": "code", "language": lang, "completion": f"```{lang}\n{code}\n```",
            "tests": [{"stdin": "1 2\n", "expected_stdout": expected}], **kw}


TASKS = [
    (_task("ok", "python", "a, b = map(int, input().split())\nprint(a + b)", "3\n"), "accepted"),
    (_task("near-miss", "python", "a, b = map(int, input().split())\nprint(a - b)", "3\n"), "wrong_answer"),
    (_task("c-ok", "c", '#include <stdio.h>\nint main(){int a,b;scanf("%d %d",&a,&b);printf("%d\\n",a+b);}', "3\n"), "accepted"),
    (_task("spin", "python", "while True: pass", "3\n", time_limit_s=1), "time_limit"),
    (_task("hog", "python", "x = []\nwhile True: x.append(b'x' * (1 << 20))", "3\n", memory_limit_mb=128, time_limit_s=5), "memory_limit"),
    (_task("attack", "python", ATTACK, "contained\n"), "accepted"),
    (_task("canary", "python", FIND_CANARY, "absent\n"), "accepted"),
]


def _runsc_pids() -> set[int]:
    out = set()
    for cmd in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            if b"runsc" in cmd.read_bytes().split(b"\0")[0]:
                out.add(int(cmd.parent.name))
        except OSError:
            pass
    return out


GVISOR = "--sandbox-backend gvisor --sandbox-rootfs-dir /rootfs --sandbox-languages python,c --sandbox-pool-size 1"
# In-process (`verifier grade`), and `verifier serve` as that ordinary user with a client beside it
# (the HPC case: no Docker, no root): the same verdicts.
MODES = {
    "grade": f"exec /opt/py/bin/python3 -m verifier grade /data/tasks.jsonl {GVISOR}",
    "serve": (f"(/opt/py/bin/python3 -m verifier serve --host 127.0.0.1 --port 50051 --workers 1 {GVISOR} "
              "> /tmp/serve.log 2>&1 &) && for i in $(seq 180); do VERIFIER_PORT=50051 /opt/py/bin/python3 "
              "/repo/deploy/healthcheck.py >/dev/null 2>&1 && break; sleep 1; done && "
              "exec /opt/py/bin/python3 -m verifier grade --server 127.0.0.1:50051 /data/tasks.jsonl"),
}


@pytest.mark.parametrize("mode", sorted(MODES))
def test_an_unprivileged_pod_grades_code_with_gvisor(tmp_path, mode):
    config = sandbox_config("gvisor", languages=("python", "c"))  # root filesystems exported
    venv = Path(sys.prefix)
    python = Path(os.path.realpath(sys.executable)).parent.parent  # the interpreter's prefix
    (tmp_path / "tasks.jsonl").write_text("".join(json.dumps(t) + "\n" for t, _ in TASKS))
    tmp_path.chmod(0o755)
    (tmp_path / "tasks.jsonl").chmod(0o644)
    name = f"pytest-pod-{os.getpid()}"
    before = _runsc_pids()
    script = f"echo {CANARY} > /tmp/pod-canary && {MODES[mode]}"
    proc = subprocess.run(
        ["docker", "run", "--rm", "--name", name, *POD_SECURITY,
         "-v", f"{python}:/opt/py:ro", "-v", f"{venv}:/opt/venv:ro", "-v", f"{ROOT}:/repo:ro",
         "-v", f"{config.rootfs_dir}:/rootfs:ro", "-v", "/usr/bin/runsc:/usr/local/bin/runsc:ro",
         "-v", f"{tmp_path}:/data:ro", "-e", "HOME=/tmp", "-e", f"POD_SECRET={CANARY}", "-e", "LD_LIBRARY_PATH=/opt/py/lib",
         "-e", f"PYTHONPATH=/repo:/opt/venv/lib/python{sys.version_info.major}.{sys.version_info.minor}/site-packages",
         "-w", "/repo", image_tag("python"), "sh", "-c", script],
        capture_output=True, text=True, timeout=600)
    rows = {r["id"]: r for r in map(json.loads, (line for line in proc.stdout.splitlines() if line.startswith("{")))}
    assert len(rows) == len(TASKS), proc.stderr[-2000:]
    for task, verdict in TASKS:
        r = rows[task["id"]]
        assert r["verdict"] == verdict, (task["id"], r["detail"])
    # The host is clean: the pod is gone and no runsc process it started is left (the pod made no
    # Docker container: it has no socket).
    assert not subprocess.run(["docker", "ps", "-aq", "--filter", f"name={name}"], capture_output=True, text=True).stdout.split()
    assert not (_runsc_pids() - before)

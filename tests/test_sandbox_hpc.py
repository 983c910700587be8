"""HPC (issue 19): `verifier serve` as an ordinary user, on a host where that user has no Docker and
no root, grades code with each Docker-free backend (gVisor, and userns in its Landlock mode: issue 32), started with
the flags of the Slurm recipe in docs/deploy.md "Deploy": a right program and a near miss in every language the images
serve, and math. The userns backend needs a cgroup of its own (issue 30): the user, given none, is refused, naming
gVisor; given one as a node's setup delegates it (cgroup v1 folders owned by the user, the server started in them:
delegated_cgroup), it grades.

The user is `nobody` (setpriv: its uid and group only, no capabilities, no-new-privileges), which
cannot reach the Docker socket and gets DOCKER_HOST pointing nowhere. It runs the host's Debian
python3.11 with this checkout and the project's dependencies on its path (the venv's interpreter
lives under root's home, which nobody cannot enter), and the root filesystem is a hard-linked
copies of the exported ones in a folder it can read, as on a shared file system.
"""
from __future__ import annotations

import contextlib
import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from sandbox.build import image_tag, rootfs_name
from tests.conftest import ServerProcess
from tests.helpers import every_language_tasks, request, sandbox_config, stub, verdicts_off
from verifier.schema import verdict_from_proto

pytestmark = pytest.mark.docker
ROOT = Path(__file__).resolve().parent.parent
USER = "nobody"
PYTHON = f"/usr/bin/python{sys.version_info.major}.{sys.version_info.minor}"
TOKEN = "hpc-token-5d1e"


def slurm_serve_flags() -> list[str]:
    """The `verifier serve` flags of the Slurm recipe (docs/deploy.md "Deploy"), with $VARIABLES unexpanded."""
    text = (ROOT / "docs" / "deploy.md").read_text()
    (block,) = re.findall(r"#SBATCH.*?```", text, re.S)
    (cmd,) = re.findall(r"verifier serve (.*?)'", block.replace("\\\n", " "), re.S)
    return shlex.split(cmd)


SETPRIV = ("setpriv", f"--reuid={USER}", "--regid=nogroup", "--clear-groups", "--inh-caps=-all",
           "--bounding-set=-all", "--no-new-privs")


class UserServer(ServerProcess):
    """`verifier serve` as USER with nothing of root's: setpriv drops the uid, groups and capabilities."""

    python = (*SETPRIV, PYTHON)


def _task(tid: str, code: str, stdin: str = "1 2\n", expected: str = "3\n") -> dict:
    return {"id": tid, "kind": "code", "language": "python", "completion": f"```python\n{code}\n```",
            "tests": [{"stdin": stdin, "expected_stdout": expected}]}


SANDBOX_PROGRAM = {"gvisor": b"runsc", "userns": b"bwrap"}  # each backend's host process per sandbox


def _runsc_of(uid: int, program: bytes = b"runsc") -> list[int]:
    out = []
    for cmd in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            if program in cmd.read_bytes().split(b"\0")[0] and cmd.parent.stat().st_uid == uid:
                out.append(int(cmd.parent.name))
        except OSError:
            pass
    return out


def _graded(target: str, tasks: list[dict]) -> list[dict]:
    """The results of one Grade call. No retry: the sandbox that once failed to start here (a cpp box's runner
    channel broke at start, "runsc said nothing") was runsc's start crashing in a `preexec_fn` child of the
    threaded server, fixed by `backend.dies_with_server` (docs/sandboxes.md "Sandbox backends")."""
    reply = stub(target).Grade(request(tasks), timeout=600, metadata=[("authorization", f"Bearer {TOKEN}")])
    return [{"id": r.id, "verdict": verdict_from_proto(r.verdict), "detail": r.detail} for r in reply.results]


# What only the userns backend's Landlock mode is asked here: that it is the mode (the sandbox's user namespace maps
# one uid), and that a shared anonymous mapping counts against the limit (the delegated cgroup's).
USERNS_TASKS = [
    (_task("one-uid", "print(open('/proc/self/uid_map').read().split()[2])", "", "1\n"), "accepted"),
    ({**_task("shared-memory", "import mmap\nm = mmap.mmap(-1, 300 << 20)\nfor i in range(0, 300 << 20, 4096): m[i] = 1\n"
              "print(3)"), "memory_limit_mb": 64, "time_limit_s": 10}, "memory_limit"),
]


CGROUP_V1 = ("memory", "pids", "cpu", "cpuacct")  # the hierarchies the userns backend makes its cgroups in (userns.py)
JOIN = 'for d in {dirs}; do echo $$ > "$d/cgroup.procs" || exit 1; done; exec "$@"'


@contextlib.contextmanager
def delegated_cgroup(uid: int) -> Iterator[tuple[str, ...]]:
    """What a node's setup does for a service user (systemd's Delegate=yes, by hand on this cgroup v1 host): a
    folder in each hierarchy the backend uses, owned by `uid` with its cgroup.procs; yields the command prefix that
    starts a process in them. Removed after (the server has removed its own folders below)."""
    dirs = [Path(f"/sys/fs/cgroup/{c}/pytest-hpc-{os.getpid()}") for c in CGROUP_V1]
    try:
        for d in dirs:
            d.mkdir(exist_ok=True)
            for f in (d, d / "cgroup.procs", d / "tasks"):
                os.chown(f, uid, -1)
        yield ("/bin/sh", "-c", JOIN.format(dirs=" ".join(map(str, dirs))), "sh")
    finally:
        for d in dirs:
            for _ in range(100):
                try:
                    d.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:  # the server's last processes are exiting
                    time.sleep(0.05)


REFUSE = ("from sandbox import SandboxConfig\nfrom sandbox.userns import UsernsBackend\n"
          "UsernsBackend(SandboxConfig(backend='userns')).probe()")


def _refused_without_a_cgroup(env: dict) -> None:
    """The user with no cgroup of its own: the userns backend refuses to start, pointing at gVisor and at delegation."""
    out = subprocess.run([*SETPRIV, PYTHON, "-c", REFUSE], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode != 0 and "no cgroup of its own" in out.stderr and "--sandbox-backend gvisor" in out.stderr, out.stderr[-2000:]


@pytest.mark.parametrize("backend", ["gvisor", "userns"])
def test_an_ordinary_user_without_docker_serves_code_with_the_slurm_recipe(backend):
    tool = {"gvisor": "runsc", "userns": "bwrap"}[backend]
    if not shutil.which(tool) or not os.path.exists(PYTHON):
        pytest.fail(f"needs {tool} and {PYTHON} (`make gvisor`, `make bubblewrap`; Debian's python3)")
    # the user has no Docker: it cannot even open the socket
    assert subprocess.run([*SETPRIV, "test", "-w", "/var/run/docker.sock"]).returncode != 0
    config = sandbox_config("gvisor")  # every language's root filesystem exported
    names = [rootfs_name(image_tag(lang, config.image_prefix)) for lang in config.languages]
    shared = Path(tempfile.mkdtemp(prefix="pytest-hpc-"))  # a folder the user can read, as /shared is
    uid = 65534
    try:
        shared.chmod(0o755)
        (shared / "rootfs").mkdir()
        for name in names:
            subprocess.run(["cp", "-al", str(Path(config.rootfs_dir) / name), str(shared / "rootfs" / name)], check=True)
        (shared / "token").write_text(TOKEN)
        (shared / "token").chmod(0o644)
        recipe = slurm_serve_flags()
        values = {"--host": None, "--port": None, "--token-file": str(shared / "token"), "--workers": "1",
                  "--sandbox-backend": backend, "--sandbox-rootfs-dir": str(shared / "rootfs"),
                  "--sandbox-pool-size": "1", "--sandbox-max-concurrent-jobs": "2"}
        assert recipe[::2] == list(values), recipe  # the recipe's flags, in its order: each is set here
        assert recipe[recipe.index("--sandbox-backend") + 1] == "gvisor"
        flags = [a for k, v in values.items() if v is not None for a in (k, v)]  # host and port: LocalServer's
        env = {"PYTHONPATH": f"{ROOT}:{sysconfig.get_paths()['purelib']}", "HOME": str(shared),
               "DOCKER_HOST": "unix:///nonexistent/docker.sock", "PATH": "/usr/local/bin:/usr/bin:/bin",
               "XDG_RUNTIME_DIR": "", "VERIFIER_SANDBOX_LANGUAGES": ",".join(config.languages),
               "VERIFIER_SANDBOX_POOL_NAME": "pytest-hpc"}
        env["VERIFIER_SANDBOX_POOL_NAME"] = f"pytest-hpc-{backend}"
        with contextlib.ExitStack() as stack:
            python = UserServer.python
            if backend == "userns":
                _refused_without_a_cgroup(env)
                python = (*stack.enter_context(delegated_cgroup(uid)), *python)
            _serve(type("Server", (UserServer,), {"python": python}), flags, env, config.languages, backend, uid)
    finally:
        shutil.rmtree(shared, ignore_errors=True)


def _serve(server_class: type[UserServer], flags: list[str], env: dict, languages: tuple[str, ...], backend: str,
           uid: int) -> None:
    """The server as the user: it grades every language, its sandboxes are the user's processes, and none is left."""
    server = server_class(*flags, env=env, start_timeout_s=180)
    try:
        pid = server.proc.pid
        status = Path(f"/proc/{pid}/status").read_text()
        assert re.search(rf"^Uid:\s+{uid}\s", status, re.M) and re.search(r"^CapEff:\s+0+$", status, re.M), status
        tasks = [*every_language_tasks(languages),
                 (_task("contained", "import os\nprint(os.path.exists('/var/run/docker.sock'))", "", "False\n"), "accepted"),
                 *(USERNS_TASKS if backend == "userns" else [])]
        results = _graded(server.target, [t for t, _ in tasks])
        assert not verdicts_off(tasks, results), verdicts_off(tasks, results)
        assert _runsc_of(uid, SANDBOX_PROGRAM[backend])  # its sandboxes are the user's own processes
        assert server.stop() == 0
    finally:
        server.kill()
    # its sandboxes and their state went with it (the last runsc processes may take a moment to exit)
    for _ in range(150):
        if not _runsc_of(uid, SANDBOX_PROGRAM[backend]):
            break
        time.sleep(0.1)
    left = _runsc_of(uid, SANDBOX_PROGRAM[backend])
    assert not left, [Path(f"/proc/{p}/cmdline").read_bytes() for p in left]
    assert not list(Path(f"/tmp/grpo-verifier-runsc-{uid}").glob(f"{pid}-*"))

"""Shared fixtures: real `verifier serve` subprocesses on loopback ports."""

from __future__ import annotations

import os
import re
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from verifier.local_server import LocalServer

ROOT = Path(__file__).resolve().parent.parent
SESSION_START = time.time()


def pytest_sessionfinish(session, exitstatus) -> None:
    """The suite leaves no sandbox running (issue 19): a Docker container still running whose
    server, started by this session, is gone fails the run. Stopped ones (a killed server's runner
    ends when its stdin closes) are removed here, as the next server on the host would. Containers
    without the owner's start time are older checkouts' (a daemon shared with them): not judged.
    Under pytest-xdist (make test's parallel phase) only the controller judges, once every worker has
    ended: a worker that ended first would remove the containers of a server that another worker's test
    has just killed and is still looking at (tests/test_sandbox_reap.py)."""
    if hasattr(session.config, "workerinput"):
        return
    try:
        import docker

        from sandbox.backend import LABEL, LABEL_OWNER, LABEL_STARTED, owner_alive
        client = docker.from_env(timeout=30)
        containers = client.containers.list(all=True, filters={"label": [LABEL]})
    except Exception:  # no Docker here: nothing of ours can be left in it
        return
    leaked = []
    for c in containers:
        created = c.attrs.get("Created", "")
        if LABEL_STARTED not in c.labels or owner_alive(c.labels.get(LABEL_OWNER, ""), c.labels[LABEL_STARTED]) is not False or created[:19] < time.strftime(
                "%Y-%m-%dT%H:%M:%S", time.gmtime(SESSION_START)):
            continue
        if _still_running(c, grace_s=LEAK_GRACE_S):
            leaked.append(f"{c.name} (owner {c.labels.get(LABEL_OWNER)}, image {c.attrs.get('Config', {}).get('Image')}, "
                          f"created {created[:19]})")
        try:
            c.remove(force=True)
        except docker.errors.APIError:  # being removed by another session on the shared daemon (409) or gone
            pass
    client.close()
    if leaked:
        print(f"\nsandbox containers left running by dead servers of this session: {', '.join(leaked)}", file=sys.stderr)
        session.exitstatus = 1


# A dead server's runner ends when its stdin closes, which takes a moment after the server dies (a
# test that kills one just before the session ends): only one still running after this is a leak.
LEAK_GRACE_S = 30.0


def _still_running(container, grace_s: float) -> bool:
    """Whether the container is running and keeps running for `grace_s` seconds."""
    deadline = time.monotonic() + grace_s
    while container.status == "running":
        if time.monotonic() > deadline:
            return True
        time.sleep(1.0)
        try:
            container.reload()
        except Exception:  # removed meanwhile: not running
            return False
    return False


# `make check`'s tests (docs/architecture.md "Gates"): pure logic that starts no server, sandbox or
# browser, each module a few seconds. A module joins here when it is fast and starts no process; the
# full suite (`make test`) runs every module whatever this says.
UNIT_MODULES = frozenset({
    "test_apt_sources", "test_contract", "test_docs", "test_end_tokens", "test_formats", "test_harness_kinds", "test_harness_limits", "test_host_cpu_clock",
    "test_math_adversarial", "test_math_cases", "test_math_extract", "test_math_grade", "test_math_juxtaposed", "test_math_objects",
    "test_math_peer_fixes", "test_math_workers", "test_repo_apply", "test_repo_formats", "test_repo_patch", "test_repo_redteam", "test_repo_results", "test_reuse_keys", "test_runsc_cgroup_lowering",
    "test_runner_inbox", "test_sandbox_checks", "test_sandbox_harness", "test_sandbox_runsc", "test_sandbox_userns_quarantine", "test_session_delta", "test_sandbox_warm_config", "test_schema",
    "test_schema_kinds",
})


def pytest_collection_modifyitems(config, items) -> None:
    """Marks the tests of UNIT_MODULES `unit`, unless they need Docker or are slow. Against a running server
    (VERIFIER_TEST_SERVER), keeps only the tests that run on every backend (they take `backend`) and grade only
    through the grader's `grade`/`grade_many` (no `in_process` mark)."""
    if os.environ.get(SERVER_ENV):
        keep = [i for i in items if "backend" in getattr(i, "fixturenames", ()) and not i.get_closest_marker("in_process")]
        config.hook.pytest_deselected(items=[i for i in items if i not in keep])
        items[:] = keep
    for item in items:
        module = item.module.__name__.rpartition(".")[2] if item.module else ""
        if module in UNIT_MODULES and not any(next(item.iter_markers(name), None) for name in ("docker", "slow", "gpu")):
            item.add_marker(pytest.mark.unit)


class ServerProcess(LocalServer):
    """A `verifier serve` child process, with the probes tests need (metrics, worker PIDs)."""

    def metric(self, name: str, **labels: str) -> float:
        """Sum of a metric's samples matching the labels (0 when absent)."""
        text = urllib.request.urlopen(self.metrics_url, timeout=5).read().decode()
        total = 0.0
        for line in text.splitlines():
            m = re.match(r"^([a-zA-Z_:][\w:]*)(\{[^}]*\})?\s+(\S+)$", line)
            if not m or m.group(1) != name:
                continue
            got = dict(re.findall(r'(\w+)="([^"]*)"', m.group(2) or ""))
            if all(got.get(k) == v for k, v in labels.items()):
                total += float(m.group(3))
        return total

    def descendants(self) -> list[int]:
        """PIDs of every process below the server (forkserver, math workers, ...)."""
        children: dict[int, list[int]] = {}
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
        out, todo = [], [self.proc.pid]
        while todo:
            for child in children.get(todo.pop(), []):
                out.append(child)
                todo.append(child)
        return out

    def math_workers(self) -> list[int]:
        """Worker processes: the grandchildren forked by the forkserver."""
        direct = set()
        for pid in self.descendants():
            try:
                if int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1]) == self.proc.pid:
                    direct.add(pid)
            except OSError:
                pass
        return [p for p in self.descendants() if p not in direct]


# Pointing the backend-parametrized tests at a running server instead (issue 30: the unprivileged-pod test runs the
# whole attack suite through the pod's gRPC port; tests/test_sandbox_pod.py sets these): its target, its bearer token,
# and the sandbox backend it runs (the backend expectations are keyed by). Unset: in-process graders, every backend.
SERVER_ENV, TOKEN_ENV, SERVER_BACKEND_ENV = "VERIFIER_TEST_SERVER", "VERIFIER_TEST_TOKEN", "VERIFIER_TEST_SERVER_BACKEND"


def _backend_params() -> tuple[str, ...]:
    from tests.helpers import BACKENDS

    return (os.environ.get(SERVER_BACKEND_ENV, "gvisor"),) if os.environ.get(SERVER_ENV) else BACKENDS


def pytest_generate_tests(metafunc) -> None:
    """A test taking `backend` (or `any_grader`) runs once per backend: every one of tests/helpers.py BACKENDS, bar
    those its module's `BACKENDS_CUT` names (backend -> why a run there adds too little for its CI time), a
    module-scoped parameter so each backend's pool is made once per module. A test parametrizing `backend`
    itself keeps its own."""
    if "backend" not in metafunc.fixturenames or any(
            "backend" in str(m.args[0]) for m in metafunc.definition.iter_markers("parametrize")):
        return
    cut = getattr(metafunc.module, "BACKENDS_CUT", {})
    assert all(cut.values()), "a backend cut from a module's tests says why"
    backends = [b for b in _backend_params() if b not in cut or os.environ.get(SERVER_ENV)]
    metafunc.parametrize("backend", backends, indirect=True, scope="module")


@pytest.fixture(scope="module")
def backend(request) -> str:
    """The sandbox backend a test runs on (pytest_generate_tests parametrizes it)."""
    return request.param


@pytest.fixture(scope="module")
def any_grader(request, backend: str):
    """The test module's grader on `backend`, made from the module's `SANDBOX` settings (tests/helpers.py
    one_sandbox's arguments); on docker, the module's Docker-only
    `grader` fixture when it has one (one pool for both). With VERIFIER_TEST_SERVER set, a grader grading through
    that server instead (RemoteGrader)."""
    from tests.helpers import RemoteGrader, one_sandbox

    if os.environ.get(SERVER_ENV):
        with RemoteGrader(os.environ[SERVER_ENV], os.environ.get(TOKEN_ENV, ""), backend) as g:
            yield g
        return
    if backend == "docker" and callable(getattr(request.module, "grader", None)):
        yield request.getfixturevalue("grader")
        return
    settings = dict(request.module.SANDBOX)
    if backend != "docker":  # a pool removes its own pool name's containers when it closes: the Docker one's too
        settings["pool_name"] = f"{settings['pool_name']}-{backend}"
    with one_sandbox(backend, **settings) as g:
        yield g


@pytest.fixture(scope="session")
def server_image() -> str:
    """The service image `make image` builds (deploy/build_offline.sh, tagged with the version in
    pyproject.toml, or VERIFIER_TEST_IMAGE), of this checkout's sources: built here, once, when it is
    missing or its label names other sources (after `make image` nothing is rebuilt)."""
    import os
    import subprocess
    import tomllib

    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    tag = os.environ.get("VERIFIER_TEST_IMAGE") or f"grpo-verifier:{version}"
    script = ["bash", str(ROOT / "deploy" / "build_offline.sh")]
    want = subprocess.run([*script, "--source-hash"], capture_output=True, text=True, check=True).stdout.strip()
    have = subprocess.run(["docker", "image", "inspect", tag, "--format", '{{index .Config.Labels "io.grpo-verifier.source"}}'],
                          capture_output=True, text=True).stdout.strip()
    if have != want:
        out = subprocess.run([*script, "--tag", tag], capture_output=True, text=True, timeout=1800)
        assert out.returncode == 0, out.stderr[-3000:]
        print(out.stdout.strip())
    return tag


@pytest.fixture(scope="session")
def verifier_server() -> Iterator[ServerProcess]:
    """One math-only server for the session (2 workers)."""
    server = ServerProcess("--workers", "2", "--no-code")
    yield server
    server.kill()


@pytest.fixture(scope="session")
def repo_docker_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServerProcess, Path]]:
    """One Docker server for the repo kind's red-team modules (tests/test_repo_redteam*.py), and the folder of
    environments it serves: each module builds its environments there first (a server reads an environment
    when a task names it, docs/repo-tasks.md "Running a task"), so the modules share one server's start."""
    from helpers import sandbox_config

    root = tmp_path_factory.mktemp("repo-environments")
    sandbox_config("docker", languages=("python", "go"))
    server = ServerProcess("--workers", "1", "--sandbox-backend", "docker", "--sandbox-languages", "python,go",
                           "--sandbox-pool-size", "1", "--sandbox-repo-environments", str(root))
    yield server, root
    server.kill()


@pytest.fixture
def server_factory() -> Iterator:
    """Start servers with custom flags; all are killed at the end of the test."""
    started: list[ServerProcess] = []

    def start(*args: str, **kwargs) -> ServerProcess:
        server = ServerProcess(*args, **kwargs)
        started.append(server)
        return server

    yield start
    for server in started:
        server.kill()


@pytest.fixture(autouse=True)
def _fresh_math_verdicts() -> Iterator[None]:
    """Each test starts without the math worker's reused verdicts (verifier/math/grade.py), so a test
    that replaces a comparison function sees it called."""
    import sys

    grade = sys.modules.get("verifier.math.grade")
    if grade is not None:
        grade._COMPARED.clear()
    yield

"""Agentic sessions on a repository environment, measured on Docker and on gVisor in one run
(docs/sessions.md "Sessions on an environment"; issue 34 "Done when").

A small environment is built first (`verifier env build`, as tests/test_session_env.py builds one: a
Python package with a visible test; the hidden test is a test_patch added at grading only). Then, per
backend (a server of its own each), every line with the backend and the load average:

1. open: the time to open a session on the warm environment (open + close, one at a time: ended
   sessions' containers are reset and reused), p50 and p99 (target p50 <= 50 ms on Docker);
2. shell: a trivial command (`true`) at --sessions concurrent sessions, p50 and p99 (target p99 <
   100 ms on Docker; the client runs on the same cores as the server);
3. fork: a session with a 200 MB tree forked (target <= 100 ms, no full copy), by `bench._agent_fork`
   on a session host of its own (two rounds with --quick, three without), one line per session_tree
   ("copy", the default, and "layers": docs/sessions.md "The layers"), each saying whether it meets it;
4. memory and disk per idle session: Docker, the container's memory cgroup and its writable layer;
   gVisor, the growth of the server's process tree's resident memory (runsc and its gofer; shared
   pages counted in each) per session, disk not measured (the session's own files are in /work, a
   tmpfs of its memory; the tree is the environment's, read-only: docs/sessions.md "The layers");
5. rollouts: --turns shell turns and a final grade, in a session (ours) against replaying every
   command so far in a fresh session each turn, then grading (baseline: what a rollout without
   sessions must do); CPU-seconds of the server's process tree, the Docker daemon and the server's
   containers, and the ratio (target >= 5x fewer), also without the daemon (shared with anyone
   else using it). Under gVisor the sandboxes are the server's descendants: "containers" is then
   the CPU of every process below the server (runsc, its gofer, the math workers), "server" the
   server process's own (TreeMeter).

Usage: python bench/agent_sessions.py [--quick] [--backends docker,gvisor] [--sessions 64] [--turns 20]
       [--only open,shell,fork,rollout]
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import docker  # noqa: E402

from bench import _agent_fork as agent_fork  # noqa: E402
from bench.sessions import Meter, daemon_cpu, load  # noqa: E402
from verifier.client import AsyncVerifierClient, ClientConfig  # noqa: E402
from verifier.local_server import LocalServer  # noqa: E402
from verifier.tools.cli import main as verifier_cli  # noqa: E402

ENV = "agentcalc"
SOURCE = "def double(x):\n    return 2 * x\n\n\ndef quad(x):\n    return double(x)\n"
FIXED = SOURCE.replace("return double(x)", "return double(double(x))")
HIDDEN = "tests/test_hidden.py"
SETTLE_S = 3.0
PARTS = ("open", "shell", "fork", "rollout")  # --only: the parts below, in this order
SESSION_BOUND_MB = 1024  # per session, for the server's session_max_total_memory_mb (a sum of limits, not use)
GRADE = {"test_patch": f"--- /dev/null\n+++ b/{HIDDEN}\n@@ -0,0 +1,5 @@\n+from calc import quad\n+\n+\n"
                       "+def test_quad_three():\n+    assert quad(3) == 12\n",
         "test_cmd": "python3 -m pytest -p no:cacheprovider -rA tests",
         "fail_to_pass": [f"{HIDDEN}::test_quad_three", "tests/test_calc.py::test_quad"],
         "pass_to_pass": ["tests/test_calc.py::test_double"]}


def build(root: Path) -> Path:
    """The environment: a git project with a package and a visible test, built by `verifier env build`."""
    src = root / "src"
    files = {"calc/__init__.py": SOURCE,
             "tests/test_calc.py": "from calc import double, quad\n\n\ndef test_quad():\n    assert quad(2) == 8\n\n\n"
                                   "def test_double():\n    assert double(3) == 6\n"}
    for name, text in files.items():
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        (src / name).write_text(text)
    git = ["git", "-C", str(src), "-c", "user.name=b", "-c", "user.email=b@b"]
    subprocess.run(["git", "init", "-q", str(src)], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "calc"], check=True)
    (root / f"{ENV}.json").write_text(json.dumps({"name": ENV, "language": "python", "repo": "src", "commit": "HEAD",
                                                  "test_cmd": GRADE["test_cmd"]}))
    envs = root / "environments"
    assert verifier_cli(["env", "build", str(root / f"{ENV}.json"), "--environments", str(envs)]) == 0
    return envs


def turns(n: int) -> list[str]:
    """A rollout's shell commands: explore, run the tests, edit, check (the edit at the last-but-one turn)."""
    look = ["ls -la", "cat calc/__init__.py", "cat tests/test_calc.py", "grep -n double calc/__init__.py",
            "python3 -c 'import calc; print(calc.quad(2))'", "wc -l calc/__init__.py tests/test_calc.py"]
    out = [look[i % len(look)] for i in range(max(0, n - 2))]
    out.append("sed -i 's/return double(x)$/return double(double(x))/' calc/__init__.py")
    out.append("python3 -m pytest -q -p no:cacheprovider tests")
    return out[-n:] if n < 2 else out


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * q))]


async def open_time(client: AsyncVerifierClient, n: int, backend: str) -> None:
    took = []
    for _ in range(n):
        t = time.perf_counter()
        s = await client.session(environment=ENV)
        took.append(time.perf_counter() - t)
        await s.close()
    print(f"[{backend}] open on a warm environment, {n} one at a time: p50 {pct(took, 0.5) * 1000:.1f} ms, "
          f"p99 {pct(took, 0.99) * 1000:.1f} ms (target p50 <= 50 ms on Docker) | {load()}", flush=True)


async def shell_latency(client: AsyncVerifierClient, n: int, calls: int, backend: str, dc: docker.DockerClient,
                        owner: int, meter: Meter) -> None:
    """`true` at n concurrent sessions, with the CPU per call (server, daemon, containers: `meter`, so a
    run on a machine shared with other jobs still compares); then memory and disk per idle session."""
    t0 = time.monotonic()
    rss0 = tree_rss(owner)
    sessions = await asyncio.gather(*(client.session(environment=ENV) for _ in range(n)))
    opened = time.monotonic() - t0
    lat: list[float] = []

    async def one(s) -> None:
        for _ in range(calls):
            t = time.perf_counter()
            r = await s.shell("true")
            lat.append(time.perf_counter() - t)
            assert r.status == "ok" and r.exit_code == 0, r

    await asyncio.sleep(SETTLE_S)  # the opens' container starts settled: not the calls' CPU
    before = meter.read()
    await asyncio.gather(*(one(s) for s in sessions))
    cpu = [x / len(lat) * 1000 for x in Meter.delta(before, meter.read())]
    print(f"[{backend}] shell `true` at {n} sessions, {len(lat)} calls: p50 {pct(lat, 0.5) * 1000:.1f} ms, "
          f"p99 {pct(lat, 0.99) * 1000:.1f} ms, mean {statistics.mean(lat) * 1000:.1f} ms (target p99 < 100 ms on Docker); "
          f"CPU per call {sum(cpu):.2f} ms (server {cpu[0]:.2f}, daemon {cpu[1]:.2f}, containers {cpu[2]:.2f}); "
          f"{n} sessions opened at once in {opened:.1f} s | {load()}", flush=True)
    await asyncio.sleep(1.0)
    print(f"[{backend}] {idle_usage(backend, dc, owner, n, rss0)} | {load()}", flush=True)
    await asyncio.gather(*(s.close() for s in sessions))


class TreeMeter(Meter):
    """gVisor's CPU: its sandboxes are the server's descendants (runsc, its gofer), so the containers'
    part is theirs. Each process's own utime+stime is sampled every 0.2 s and its highest reading kept,
    so a process reaped in a window counts what it spent while seen (its last 0.2 s may be lost), never
    its whole life at once, as a parent's children's time would."""

    def __init__(self, server: LocalServer, dc: docker.DockerClient):
        assert server.proc is not None
        self.root = server.proc.pid
        self.seen_pid: dict[int, float] = {}
        super().__init__(server, dc)

    def _containers(self) -> float:
        kids: dict[int, list[int]] = {}
        cpu: dict[int, float] = {}
        for p in Path("/proc").glob("[0-9]*"):
            try:
                fields = p.joinpath("stat").read_text().rpartition(")")[2].split()
                kids.setdefault(int(fields[1]), []).append(int(p.name))
                cpu[int(p.name)] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
            except (OSError, ValueError, IndexError):
                continue
        todo = list(kids.get(self.root, []))
        with self._lock:
            while todo:
                pid = todo.pop()
                self.seen_pid[pid] = max(cpu.get(pid, 0.0), self.seen_pid.get(pid, 0.0))
                todo.extend(kids.get(pid, []))
            return sum(self.seen_pid.values())

    def read(self) -> tuple[float, dict[int, float], float]:
        own = Path(f"/proc/{self.root}/stat").read_text().rpartition(")")[2].split()
        return (int(own[11]) + int(own[12])) / os.sysconf("SC_CLK_TCK"), daemon_cpu(), self._containers()


def tree_rss(root: int) -> int:
    """Resident bytes of a process and its descendants."""
    kids: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for p in Path("/proc").glob("[0-9]*"):
        try:
            fields = p.joinpath("stat").read_text().rpartition(")")[2].split()
            kids.setdefault(int(fields[1]), []).append(int(p.name))
            rss[int(p.name)] = int(fields[21]) * os.sysconf("SC_PAGE_SIZE")
        except (OSError, ValueError, IndexError):
            continue
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        total += rss.get(pid, 0)
        todo.extend(kids.get(pid, []))
    return total


def idle_usage(backend: str, dc: docker.DockerClient, owner: int, n: int, rss0: int) -> str:
    if backend == "gvisor":
        grew = (tree_rss(owner) - rss0) / n
        return (f"per idle session (gVisor): memory {grew / 2**20:.1f} MiB (server tree's resident growth / {n}, shared "
                f"pages counted in each), disk not measured (the session's own files are in /work, a tmpfs of its "
                f"memory; the tree is the environment's, read-only)")
    mem, disk = [], []
    label = f"grpo-verifier.owner={os.uname().nodename}:{owner}"
    for c in dc.api.containers(filters={"label": [label, "grpo-verifier.session"]}, size=True):
        cid = c["Id"]
        for path in (f"/sys/fs/cgroup/memory/docker/{cid}/memory.usage_in_bytes",
                     f"/sys/fs/cgroup/system.slice/docker-{cid}.scope/memory.current"):
            try:
                mem.append(int(Path(path).read_text()))
                break
            except OSError:
                continue
        disk.append(int(c.get("SizeRw") or 0))
    if not mem:
        return "per idle session (Docker): no container's memory cgroup could be read"
    return (f"per idle session (Docker): memory median {statistics.median(mem) / 2**20:.1f} MiB, max "
            f"{max(mem) / 2**20:.1f} MiB (memory cgroup, /work's tmpfs included); disk median "
            f"{statistics.median(disk) / 2**10:.0f} KiB (writable layer) over {len(mem)} containers")


async def fork(backend: str, rounds: int) -> None:
    """Fork of a session with a 200 MB tree (issue 34 item 3; docs/sessions.md "Fork and snapshot"), measured
    by bench/_agent_fork.py on a session host of its own, in each session_tree ("The layers")."""
    for tree in ("copy", "layers"):
        print(f"[{backend}] {await agent_fork.measure(backend, tree_mb=200, n=1, rounds=rounds, tree=tree)}", flush=True)


async def measured(meter: Meter, way) -> tuple[float, float, float]:
    """(server, daemon, containers) CPU-seconds of one way, after the pool's replacement of the last
    grading container has settled (SETTLE_S: its daemon work is no way's)."""
    await asyncio.sleep(SETTLE_S)
    before = meter.read()
    await way()
    await asyncio.sleep(SETTLE_S)  # the way's own grading container replaced: its share counted
    return Meter.delta(before, meter.read())


async def rollouts(client: AsyncVerifierClient, meter: Meter, n_turns: int, backend: str) -> None:
    plan = turns(n_turns)

    async def ours() -> None:
        async with client.session(environment=ENV) as s:
            for cmd in plan:
                assert (await s.shell(cmd)).status == "ok"
            assert (await s.grade(GRADE))["verdict"] == "accepted"

    async def replay() -> None:
        for k in range(1, len(plan) + 1):
            async with client.session(environment=ENV) as s:
                for cmd in plan[:k]:
                    assert (await s.shell(cmd)).status == "ok"
                if k == len(plan):
                    assert (await s.grade(GRADE))["verdict"] == "accepted"

    await ours()  # untimed: steady state (spare containers, the grading pool warm)
    o = await measured(meter, ours)
    b = await measured(meter, replay)
    print(f"[{backend}] rollout, {len(plan)} shell turns + grade: session {sum(o):.3f} CPU-s (server {o[0]:.3f}, daemon "
          f"{o[1]:.3f}, containers {o[2]:.3f}), replay in a fresh session each turn {sum(b):.3f} CPU-s (server {b[0]:.3f}, "
          f"daemon {b[1]:.3f}, containers {b[2]:.3f}); replay/session {sum(b) / max(1e-9, sum(o)):.1f}x, "
          f"{(b[0] + b[2]) / max(1e-9, o[0] + o[2]):.1f}x without the daemon's share (target >= 5x) | {load()}", flush=True)


async def one_backend(backend: str, envs: Path, args: argparse.Namespace, dc: docker.DockerClient) -> None:
    with LocalServer("--workers", "1", "--sandbox-backend", backend, "--sandbox-languages", "python",
                     "--sandbox-pool-size", "1", "--max-sessions", str(args.sessions + 4),
                     # the bound sums each session's memory limit (512 MB + the tree's): the default 32 GiB
                     # admits 63 of this environment's, so 64 sessions waited at the client's retry forever
                     "--session-max-total-memory-mb", str((args.sessions + 4) * SESSION_BOUND_MB),
                     "--sandbox-repo-environments", str(envs)) as server:
        assert server.proc is not None
        client = AsyncVerifierClient(server.target, ClientConfig(timeout_s=600))
        async with client.session(environment=ENV) as s:  # warm: one container started, kept as a spare
            await s.shell("true")
        if "open" in args.only:
            await open_time(client, args.opens, backend)
        meter = (TreeMeter if backend == "gvisor" else Meter)(server, dc)
        if "shell" in args.only:
            await shell_latency(client, args.sessions, args.calls, backend, dc, server.proc.pid, meter)
        if "fork" in args.only:
            await fork(backend, 2 if args.quick else 3)  # the first round starts a box: a later one finds it spare
        if "rollout" in args.only:
            await rollouts(client, meter, args.turns, backend)
        await client.close()


async def main(args: argparse.Namespace) -> None:
    dc = docker.from_env()
    with tempfile.TemporaryDirectory(prefix="agent-sessions-") as tmp:
        envs = build(Path(tmp))
        only = "" if len(args.only) == len(PARTS) else f" --only {','.join(args.only)}"
        print(f"bench/agent_sessions.py{' --quick' if args.quick else ''}{only}: {args.sessions} sessions x {args.calls} "
              f"calls, {args.opens} opens, {args.turns} turns, {os.cpu_count()} cores | {load()}", flush=True)
        for backend in args.backends.split(","):
            await one_backend(backend, envs, args, dc)


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="16 sessions x 5 calls, 10 opens (a smoke run, minutes)")
    ap.add_argument("--backends", default="docker,gvisor")
    ap.add_argument("--sessions", type=int, default=64)
    ap.add_argument("--calls", type=int, default=20, help="trivial shell calls per session")
    ap.add_argument("--opens", type=int, default=50)
    ap.add_argument("--turns", type=int, default=20)
    ap.add_argument("--only", default=",".join(PARTS), help=f"the parts to run, of {','.join(PARTS)} (A/B runs of one part)")
    parsed = ap.parse_args()
    parsed.only = parsed.only.split(",")
    if not set(parsed.only) <= set(PARTS):
        ap.error(f"--only: parts are {','.join(PARTS)}")
    if parsed.quick:
        parsed.sessions, parsed.calls, parsed.opens = min(parsed.sessions, 16), min(parsed.calls, 5), min(parsed.opens, 10)
    asyncio.run(main(parsed))

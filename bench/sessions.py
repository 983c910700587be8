"""Sessions against the stateless way, measured in the same run on this machine (docs/sessions.md "Sessions").

A ReTool-like rollout is a list of short cells that build on each other. Two ways to serve it:

- sessions (ours): one session per rollout, one RunCell per turn;
- stateless (baseline): each turn re-runs the whole history so far through Execute (what a
  rollout must do without sessions: quadratic work, side effects run again).

Printed, each line with the load average (the machine may be shared):
1. CPU-seconds per rollout at --turns turns, both ways, and their ratio. Counted: the server's
   process tree, the Docker daemon's processes (dockerd, containerd, shims, runc: shared with
   anyone else using this daemon, so printed apart too), and the CPU of this server's containers
   (cgroup cpuacct), for two cell mixes: light (math only) and numpy (its import in cell 1).
   Both measured after one untimed round (steady state: ended sessions' containers are reset and
   reused; the first session on a fresh server pays a container start, ~0.3 daemon CPU-seconds).
2. Latency of trivial cells at --sessions concurrent sessions of 10-30 cells each: cells/s, p50,
   p99, with a uniform 0..2x --think-ms of "generation" between a session's cells, then 10x that
   (the client runs on the same cores as the server: it competes for them).
3. Memory per idle session (its container's memory cgroup).

Targets (issue 22): >= 5x fewer CPU-seconds per rollout than stateless at 20 turns; p99 < 100 ms
for a trivial cell at 64 sessions on 2 cores.
Usage: python bench/sessions.py [--turns 20] [--rollouts 8] [--sessions 64] [--think-ms 50]
"""
from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import docker  # noqa: E402

from verifier.client import AsyncVerifierClient, ClientConfig  # noqa: E402
from verifier.local_server import LocalServer  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")
DAEMONS = ("dockerd", "containerd", "containerd-shim", "containerd-shim-runc-v2", "runc", "docker-init")


def load() -> str:
    return "load %.2f %.2f %.2f" % os.getloadavg()


def cells(turns: int, heavy: bool) -> list[str]:
    """A ReTool-like rollout: set up, compute step by step, print intermediate results."""
    out = ["import numpy as np\nimport math" if heavy else "import math\nfrom fractions import Fraction"]
    out.append("acc = 0\nvals = []")
    for i in range(2, turns):
        out.append(f"vals.append(math.comb({i + 10}, 3) % 97)\nacc += vals[-1]\n"
                   + ("print(acc)" if i % 3 else "acc"))
    return out[:turns]


def _proc_cpu(pid: int) -> tuple[float, int, str]:
    """(utime+stime+cutime+cstime seconds, ppid, name) of a process; (0, 0, '') when gone."""
    try:
        head, _, rest = Path(f"/proc/{pid}/stat").read_text().rpartition(")")
        fields = rest.split()
        name = head.partition("(")[2]
        return sum(int(x) for x in fields[11:15]) / TICKS, int(fields[1]), name
    except (OSError, ValueError, IndexError):
        return 0.0, 0, ""


def tree_cpu(root: int) -> float:
    """CPU seconds of a process, its live descendants, and its reaped children."""
    stats = {int(p.name): _proc_cpu(int(p.name)) for p in Path("/proc").glob("[0-9]*")}
    kids: dict[int, list[int]] = {}
    for pid, (_, ppid, _) in stats.items():
        kids.setdefault(ppid, []).append(pid)
    total, todo = 0.0, [root]
    while todo:
        pid = todo.pop()
        total += stats.get(pid, (0.0, 0, ""))[0]
        todo.extend(kids.get(pid, []))
    return total


def daemon_cpu() -> dict[int, float]:
    """CPU seconds of each Docker daemon process (by pid: shims come and go with containers)."""
    out = {}
    for p in Path("/proc").glob("[0-9]*"):
        cpu, _, name = _proc_cpu(int(p.name))
        if name.startswith(DAEMONS):
            out[int(p.name)] = cpu
    return out


def daemon_delta(before: dict[int, float], after: dict[int, float]) -> float:
    """What the daemon's processes spent in between; a process gone by the end is not counted (its
    last moments are lost: an undercount, small next to a container start)."""
    return sum(cpu - before.get(pid, 0.0) for pid, cpu in after.items())


def container_cpu(client: docker.DockerClient, owner_pid: int) -> dict[str, float]:
    """CPU seconds of each container this server owns (pool and sessions), by id, from their cgroups."""
    out: dict[str, float] = {}
    owner = f"grpo-verifier.owner={os.uname().nodename}:{owner_pid}"
    for c in client.containers.list(filters={"label": [owner]}, sparse=True):  # sparse: no inspect of one gone since
        for path in (f"/sys/fs/cgroup/cpuacct/docker/{c.id}/cpuacct.usage",
                     f"/sys/fs/cgroup/system.slice/docker-{c.id}.scope/cpu.stat"):
            try:
                text = Path(path).read_text()
            except OSError:
                continue
            out[c.id] = int(text) / 1e9 if path.endswith("usage") else int(text.split()[1]) / 1e6
            break
    return out


class Meter:
    """CPU seconds spent by the server, the daemon and the server's containers between two reads.

    A recycled container's cgroup vanishes with it, so a plain sum over the containers alive at each
    read went negative (the numpy row printed -1.2 s). The meter keeps each container's last reading,
    sampled every 0.2 s, so the containers' total only grows: a container's last 0.2 s may be lost."""

    def __init__(self, server: LocalServer, dc: docker.DockerClient):
        self.server, self.dc = server, dc
        self.seen: dict[str, float] = {}
        self._lock = threading.Lock()
        threading.Thread(target=self._sample, daemon=True, name="container-cpu").start()

    def _sample(self) -> None:
        while True:
            try:
                self._containers()
            except docker.errors.APIError:  # the daemon busy or a container gone mid-read: the next sample
                pass
            time.sleep(0.2)

    def _containers(self) -> float:
        now = container_cpu(self.dc, self.server.proc.pid)
        with self._lock:
            for cid, cpu in now.items():
                self.seen[cid] = max(cpu, self.seen.get(cid, 0.0))
            return sum(self.seen.values())

    def read(self) -> tuple[float, dict[int, float], float]:
        return tree_cpu(self.server.proc.pid), daemon_cpu(), self._containers()

    @staticmethod
    def delta(before: tuple, after: tuple) -> tuple[float, float, float]:
        """(server, daemon, containers) CPU seconds between two reads."""
        return after[0] - before[0], daemon_delta(before[1], after[1]), after[2] - before[2]


async def session_rollouts(client: AsyncVerifierClient, rollouts: int, plan: list[str], meter: Meter) -> tuple[float, ...]:
    """(server, daemon, containers) CPU seconds for `rollouts` concurrent session rollouts, close included."""
    before = meter.read()
    sessions = await asyncio.gather(*(client.session("python") for _ in range(rollouts)))

    async def one(s) -> None:
        for code in plan:
            r = await s.run(code)
            assert r.ok, (r.status, r.detail, r.error)

    await asyncio.gather(*(one(s) for s in sessions))
    await asyncio.gather(*(s.close() for s in sessions))
    return meter.delta(before, meter.read())  # closed containers count to their last reading


async def stateless_rollouts(client: AsyncVerifierClient, rollouts: int, plan: list[str], meter: Meter) -> tuple[float, ...]:
    """The same rollouts without sessions: turn k re-runs cells 1..k through Execute."""
    before = meter.read()

    async def one() -> None:
        for k in range(1, len(plan) + 1):
            r = await client.execute("\n".join(plan[:k]), time_limit_s=10)
            assert r["status"] == "ok", r

    await asyncio.gather(*(one() for _ in range(rollouts)))
    return meter.delta(before, meter.read())


async def latency(client: AsyncVerifierClient, n: int, think_s: float, dc: docker.DockerClient, owner: int,
                  memory: bool) -> None:
    """Trivial cells at n concurrent sessions of 10-30 cells; then memory per idle session."""
    t0 = time.monotonic()
    sessions = await asyncio.gather(*(client.session("python") for _ in range(n)))
    open_s = time.monotonic() - t0
    lat: list[float] = []
    rng = random.Random(7)

    async def one(s) -> None:
        await s.run("x = 0")
        for _ in range(rng.randint(10, 30)):
            if think_s:
                await asyncio.sleep(rng.uniform(0, 2 * think_s))
            t = time.perf_counter()
            r = await s.run("x += 1\nx")
            lat.append(time.perf_counter() - t)
            assert r.ok

    t0 = time.monotonic()
    await asyncio.gather(*(one(s) for s in sessions))
    wall = time.monotonic() - t0
    lat.sort()
    p50, p99 = lat[len(lat) // 2], lat[min(len(lat) - 1, int(len(lat) * 0.99))]
    print(f"latency: {n} sessions, {len(lat)} trivial cells, think {think_s * 1000:.0f} ms: {len(lat) / wall:.0f} cells/s, "
          f"p50 {p50 * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms, mean {statistics.mean(lat) * 1000:.1f} ms "
          f"(target p99 < 100 ms); {n} sessions opened in {open_s:.1f} s | {load()}", flush=True)
    if not memory:
        await asyncio.gather(*(s.close() for s in sessions))
        return
    await asyncio.sleep(1.0)
    mem = []
    owner_label = f"grpo-verifier.owner={os.uname().nodename}:{owner}"
    for c in dc.containers.list(filters={"label": [owner_label, "grpo-verifier.session"]}):
        try:
            mem.append(int(Path(f"/sys/fs/cgroup/memory/docker/{c.id}/memory.usage_in_bytes").read_text()))
        except OSError:
            pass
    if mem:
        print(f"memory per idle session (after a few cells): median {statistics.median(mem) / 2**20:.1f} MiB, "
              f"max {max(mem) / 2**20:.1f} MiB over {len(mem)} containers | {load()}", flush=True)
    await asyncio.gather(*(s.close() for s in sessions))


async def main(args: argparse.Namespace) -> None:
    dc = docker.from_env()
    with LocalServer("--workers", "1", "--sandbox-languages", "python", "--sandbox-pool-size", str(args.pool),
                     "--max-sessions", str(max(args.sessions, args.rollouts) + 4)) as server:
        print(f"bench/sessions.py: {args.turns} turns, {args.rollouts} rollouts at once, {args.sessions} sessions for "
              f"latency, {os.cpu_count()} cores | {load()}", flush=True)
        client = AsyncVerifierClient(server.target, ClientConfig(timeout_s=600))
        meter = Meter(server, dc)
        await client.execute("print(1)")  # warm
        async with client.session("python") as s:
            await s.run("1")
        for heavy in (False, True):
            plan = cells(args.turns, heavy)
            # one untimed round each way: a training run's steady state, where ended sessions' containers
            # are reset and reused (sandbox/session.py) and Execute's pool is warm
            await session_rollouts(client, args.rollouts, plan, meter)
            await stateless_rollouts(client, 1, plan, meter)
            ours = await session_rollouts(client, args.rollouts, plan, meter)
            base = await stateless_rollouts(client, args.rollouts, plan, meter)
            o, b = sum(ours) / args.rollouts, sum(base) / args.rollouts
            mix = "numpy" if heavy else "light"
            no_daemon = (base[0] + base[2]) / max(1e-9, ours[0] + ours[2])
            print(f"cpu per rollout, {args.turns} turns, {mix} cells, {args.rollouts} concurrent: sessions {o:.3f} s "
                  f"(server {ours[0] / args.rollouts:.3f}, daemon {ours[1] / args.rollouts:.3f}, containers "
                  f"{ours[2] / args.rollouts:.3f}), stateless {b:.3f} s (server {base[0] / args.rollouts:.3f}, daemon "
                  f"{base[1] / args.rollouts:.3f}, containers {base[2] / args.rollouts:.3f}); stateless/sessions "
                  f"{b / o:.1f}x, {no_daemon:.1f}x without the daemon's share (target >= 5x) | {load()}", flush=True)
        for think_ms in (args.think_ms, 10 * args.think_ms):
            await latency(client, args.sessions, think_ms / 1000, dc, server.proc.pid, memory=think_ms != args.think_ms)
        await client.close()


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--turns", type=int, default=20)
    ap.add_argument("--rollouts", type=int, default=8)
    ap.add_argument("--sessions", type=int, default=64)
    ap.add_argument("--think-ms", type=float, default=50.0)
    ap.add_argument("--pool", type=int, default=2, help="warm containers for Execute (the baseline)")
    asyncio.run(main(ap.parse_args()))

"""Load and fault harness: open-loop arrivals against real `verifier serve` processes on loopback.

    python bench/load.py                       # steady, faults, then the knee sweep
    python bench/load.py --scenario steady --clients 4 --rate 8 --batch 16 --seconds 10
    python bench/load.py --scenario knee --rates 2,4,8,16,32

Open loop (a fixed arrival rate, not "send when the last one returned") avoids coordinated
omission: when the server slows down, work keeps arriving and the queue shows it. Each scenario
prints one `load ...` line: items/s, item latency p50/p99 (call start to that item's result),
items rejected (RESOURCE_EXHAUSTED) or refused (UNAVAILABLE), and items lost (missing from a call
that ended OK) or duplicated (answered twice): those two must be 0. Everything is bounded: the
number of arrivals, outstanding calls, each call's deadline, the wait for servers; servers bind
127.0.0.x only. On a 2-core machine the generator and the server share CPUs: read the numbers as
regression signals, not capacity.

Faults, injected half-way through: `kill-worker` (SIGKILL the math workers), `kill-replica`
(SIGKILL one of two replicas; through VerifierClient, which resubmits what the dead one owed),
`cancel` (a client cancelling its streams after the first result), `docker-restart` (runs
--dockerd-restart-cmd; without it the scenario is skipped, because restarting a shared daemon
breaks everyone else's containers).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import subprocess
import sys
import time
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import grpc

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from verifier.client import AsyncVerifierClient, ClientConfig  # noqa: E402
from verifier.local_server import LocalServer  # noqa: E402
from verifier.schema import task_to_proto  # noqa: E402
from verifier.v1 import verifier_pb2 as pb  # noqa: E402
from verifier.v1 import verifier_pb2_grpc as pb_grpc  # noqa: E402

MAX_OUTSTANDING = 512  # calls in flight at once; arrivals beyond it are counted as overrun


class Server(LocalServer):
    """One `verifier serve` child in its own process group (a kill takes its workers too)."""

    def metric(self, name: str) -> float:
        """Sum of one metric's samples (0 when unreachable)."""
        try:
            text = urllib.request.urlopen(self.metrics_url, timeout=5).read().decode()
        except OSError:
            return 0.0
        return sum(float(line.rsplit(" ", 1)[1]) for line in text.splitlines()
                   if line.startswith(name) and not line.startswith("#") and line[len(name)] in " {")


def start_server(host: str, args: argparse.Namespace) -> Server:
    """Start `verifier serve` on a loopback address and wait (bounded) until it listens."""
    assert host.startswith("127."), "loopback only"
    flags = ["--workers", str(args.workers), "--max-queued-items", str(args.max_queued_items),
             "--max-tasks-per-call", str(min(1024, args.max_queued_items))]
    return Server(*flags, *([] if args.code else ["--no-code"]), host=host)


_SERIAL = iter(range(1, 1 << 62))


def make_batch(prefix: str, n: int, code_fraction: float) -> list[dict]:
    """Distinct tasks, also across batches (the server dedups and caches identical ones, which
    would measure its cache): mostly math, some code. The math carries \\pi, so workers grade it
    (plain fractions take the server's in-process fast path and would not load the workers)."""
    n_code = int(round(n * code_fraction))
    tasks = []
    for i in range(n - n_code):
        k = next(_SERIAL)
        tasks.append({"id": f"{prefix}-m{i}", "kind": "math", "gold": f"\\frac{{{k}}}{{{2 * k + 1}}}\\pi",
                      "completion": f"... so the answer is $\\boxed{{\\frac{{{2 * k}}}{{{4 * k + 2}}}\\pi}}$"})
    tasks += [{"id": f"{prefix}-c{i}", "kind": "code", "language": "python",
               "completion": f"```python\na, b = map(int, input().split())\nprint(a + b + {i} - {i})\n```",
               "tests": [{"stdin": f"{i} 2\n", "expected_stdout": f"{i + 2}\n"}]} for i in range(n_code)]
    return tasks


@dataclass
class Stats:
    """What one run saw, item by item."""

    sent: int = 0
    done: int = 0
    latencies: list[float] = field(default_factory=list)
    codes: Counter = field(default_factory=Counter)  # items per failing status code
    verdicts: Counter = field(default_factory=Counter)
    lost: int = 0
    dup: int = 0
    overrun: int = 0
    ungraded: int = 0

    def line(self, name: str, seconds: float, extra: str = "") -> str:
        lat = sorted(self.latencies)

        def pct(q: float) -> float:
            return 1000 * lat[min(len(lat) - 1, int(q * len(lat)))] if lat else float("nan")
        return (f"load scenario={name} sent_items={self.sent} done_items={self.done} "
                f"items_per_s={self.done / seconds:.1f} p50_ms={pct(0.50):.0f} p99_ms={pct(0.99):.0f} "
                f"rejected_items={self.codes['RESOURCE_EXHAUSTED']} unavailable_items={self.codes['UNAVAILABLE']} "
                f"other_error_items={sum(v for k, v in self.codes.items() if k not in ('RESOURCE_EXHAUSTED', 'UNAVAILABLE'))} "
                f"infra_error={self.verdicts['infra_error']} ungraded={self.ungraded} overrun={self.overrun} "
                f"lost={self.lost} dup={self.dup}{extra}")


async def raw_call(stub: pb_grpc.VerifierStub, tasks: list[dict], stats: Stats, timeout_s: float) -> None:
    """One GradeStream call: every item answered exactly once, or the call fails visibly."""
    request = pb.GradeRequest(tasks=[task_to_proto(t) for t in tasks])
    wanted = {t["id"] for t in tasks}
    seen: Counter = Counter()
    t0 = time.monotonic()
    try:
        async for r in stub.GradeStream(request, timeout=timeout_s):
            seen[r.id] += 1
            stats.latencies.append(time.monotonic() - t0)
            stats.verdicts[pb.Verdict.Name(r.verdict).removeprefix("VERDICT_").lower()] += 1
    except grpc.aio.AioRpcError as exc:
        stats.codes[exc.code().name] += len(wanted - set(seen))
    else:
        stats.lost += len(wanted - set(seen))
    stats.dup += sum(c - 1 for c in seen.values()) + sum(c for i, c in seen.items() if i not in wanted)
    stats.done += sum(1 for i in seen if i in wanted)


async def client_call(client: AsyncVerifierClient, tasks: list[dict], stats: Stats, timeout_s: float) -> None:
    """One VerifierClient.grade call (retries, resubmission): one result per task, in order."""
    t0 = time.monotonic()
    report = await client.grade_detailed(tasks, timeout_s)
    elapsed = time.monotonic() - t0
    ids = [r["id"] for r in report.results]
    want = [t["id"] for t in tasks]
    stats.lost += len(set(want) - set(ids))
    stats.dup += len(ids) - len(set(ids)) + len(set(ids) - set(want))
    stats.ungraded += report.ungraded
    for r in report.results:
        stats.verdicts[r["verdict"]] += 1
    stats.done += len(ids) - report.ungraded
    stats.latencies += [elapsed] * (len(ids) - report.ungraded)


async def drive(targets: list[str], args: argparse.Namespace, name: str, rate: float,
                fault=None, use_client: bool = False) -> Stats:
    """Open-loop arrivals at `rate` batches/s over `args.clients` channels for `args.seconds`."""
    stats = Stats()
    channels, callers = [], []
    for i in range(args.clients):
        if use_client:
            config = ClientConfig(timeout_s=args.call_timeout_s, max_retries=8, backoff_max_s=1.0)
            callers.append(AsyncVerifierClient(",".join(targets), config))
        else:
            channel = grpc.aio.insecure_channel(targets[i % len(targets)])
            channels.append(channel)
            callers.append(pb_grpc.VerifierStub(channel))
    outstanding: set[asyncio.Task] = set()
    n_arrivals = max(1, int(rate * args.seconds))
    start = time.monotonic()
    fault_task = None
    for i in range(n_arrivals):
        await asyncio.sleep(max(0.0, start + i / rate - time.monotonic()))
        if fault and fault_task is None and time.monotonic() - start >= args.seconds / 2:
            fault_task = asyncio.create_task(fault())
        if len(outstanding) >= MAX_OUTSTANDING:
            stats.overrun += args.batch
            continue
        tasks = make_batch(f"{name}-{i}", args.batch, args.code_fraction)
        stats.sent += len(tasks)
        caller = callers[i % len(callers)]
        coro = (client_call if use_client else raw_call)(caller, tasks, stats, args.call_timeout_s)
        task = asyncio.create_task(coro)
        outstanding.add(task)
        task.add_done_callback(outstanding.discard)
    if outstanding:
        await asyncio.wait(outstanding, timeout=args.call_timeout_s + 30)
    if fault_task:
        await fault_task
    for c in callers:
        if use_client:
            await c.close()
    for ch in channels:
        await ch.close()
    stats.elapsed = time.monotonic() - start  # type: ignore[attr-defined]
    return stats


def _descendants(pid: int) -> list[int]:
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        for task in Path(f"/proc/{p}/task").glob("*"):
            try:
                kids = [int(k) for k in (task / "children").read_text().split()]
            except OSError:
                continue
            out += kids
            todo += kids
    return out


def math_workers(server: Server) -> list[int]:
    """Worker processes: descendants of the server that are not its direct children (pebble forks
    them from a forkserver); the newest-started first would be a respawn, so order by pid."""
    direct = set(int(k) for t in Path(f"/proc/{server.proc.pid}/task").glob("*")
                 for k in (t / "children").read_text().split())
    return sorted(p for p in _descendants(server.proc.pid) if p not in direct)


def run(args: argparse.Namespace, name: str, coro_factory) -> None:
    """Run one scenario and print its line; never lets one scenario's failure hide the others."""
    try:
        print(asyncio.run(coro_factory()), flush=True)
    except Exception as exc:  # noqa: BLE001 - a harness reports and goes on
        print(f"load scenario={name} error={type(exc).__name__}: {exc}", flush=True)


async def scenario_steady(args) -> str:
    server = start_server("127.0.0.2", args)
    try:
        s = await drive([server.target], args, "steady", args.rate)
        return s.line("steady", s.elapsed)
    finally:
        server.stop()


async def scenario_kill_worker(args) -> str:
    server = start_server("127.0.0.2", args)
    killed: list[int] = []

    async def fault() -> None:
        # Every worker, so one surely had an item on it (an idle worker's death is silent).
        for pid in math_workers(server):
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)

    try:
        s = await drive([server.target], args, "kill-worker", args.rate, fault)
        restarts = server.metric("verifier_worker_restarts_total")
        return s.line("kill-worker", s.elapsed, f" killed_pids={killed} worker_restarts={restarts:.0f}")
    finally:
        server.stop()


async def scenario_kill_replica(args) -> str:
    a, b = start_server("127.0.0.2", args), start_server("127.0.0.3", args)

    async def fault() -> None:
        await asyncio.to_thread(b.kill)

    try:
        s = await drive([a.target, b.target], args, "kill-replica", args.rate, fault, use_client=True)
        return s.line("kill-replica", s.elapsed, f" survivor_items={a.metric('verifier_items_total'):.0f}")
    finally:
        a.stop()
        b.kill()


async def scenario_cancel(args) -> str:
    server = start_server("127.0.0.2", args)
    cancelled = 0

    async def canceller() -> None:
        nonlocal cancelled
        async with grpc.aio.insecure_channel(server.target) as channel:
            stub = pb_grpc.VerifierStub(channel)
            for i in range(max(1, int(args.seconds))):
                request = pb.GradeRequest(tasks=[task_to_proto(t) for t in make_batch(f"cx{i}", 64, 0.0)])
                call = stub.GradeStream(request, timeout=args.call_timeout_s)
                async for _ in call:
                    break
                call.cancel()
                cancelled += 1
                await asyncio.sleep(0.5)

    try:
        background = asyncio.create_task(canceller())
        s = await drive([server.target], args, "cancel", args.rate)
        await background
        await asyncio.sleep(2)
        queued = server.metric("verifier_queue_items") + server.metric("verifier_inflight_items")
        return s.line("cancel", s.elapsed, f" cancelled_calls={cancelled} queued_after={queued:.0f}")
    finally:
        server.stop()


async def scenario_docker_restart(args) -> str:
    if not args.dockerd_restart_cmd:
        return ("load scenario=docker-restart skipped=no --dockerd-restart-cmd given: restarting the shared "
                "daemon would kill other users' containers; point DOCKER_HOST at a private dockerd and pass its restart command")
    server = start_server("127.0.0.2", args)

    async def fault() -> None:
        await asyncio.to_thread(subprocess.run, args.dockerd_restart_cmd, shell=True, timeout=120)

    try:
        s = await drive([server.target], args, "docker-restart", args.rate, fault, use_client=True)
        return s.line("docker-restart", s.elapsed)
    finally:
        server.stop()


async def scenario_knee(args) -> str:
    """Rising arrival rates against one server with a small admission bound."""
    server = start_server("127.0.0.2", args)
    lines, knee = [], None
    try:
        for rate in [float(r) for r in args.rates.split(",")]:
            s = await drive([server.target], args, f"knee{rate}", rate)
            lines.append(s.line(f"knee rate={rate:g}/s", s.elapsed))
            if knee is None and s.codes["RESOURCE_EXHAUSTED"]:
                knee = rate
        lines.append(f"load knee_rate={knee if knee is not None else 'not reached'} batches/s of {args.batch} items "
                     f"(max_queued_items={args.max_queued_items}, workers={args.workers})")
        return "\n".join(lines)
    finally:
        server.stop()


SCENARIOS = {"steady": scenario_steady, "kill-worker": scenario_kill_worker, "kill-replica": scenario_kill_replica,
             "cancel": scenario_cancel, "docker-restart": scenario_docker_restart, "knee": scenario_knee}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", default="all", choices=["all", *SCENARIOS])
    parser.add_argument("--clients", type=int, default=4, help="channels the arrivals are spread over")
    parser.add_argument("--rate", type=float, default=4.0, help="batches per second (fault scenarios)")
    parser.add_argument("--rates", default="8,16,32,64", help="batches per second for the knee sweep")
    parser.add_argument("--batch", type=int, default=16, help="tasks per batch")
    parser.add_argument("--seconds", type=float, default=8.0, help="arrival window of each run")
    parser.add_argument("--workers", type=int, default=2, help="math workers per server")
    parser.add_argument("--max-queued-items", type=int, default=256, help="server admission bound")
    parser.add_argument("--call-timeout-s", type=float, default=60.0, help="deadline of one call")
    parser.add_argument("--code-fraction", type=float, default=0.0, help="share of code tasks (needs sandbox images)")
    parser.add_argument("--code", action=argparse.BooleanOptionalAction, default=False, help="servers grade code")
    parser.add_argument("--dockerd-restart-cmd", default="", help="shell command restarting the daemon DOCKER_HOST names")
    args = parser.parse_args(argv)
    if args.seconds > 120 or args.clients > 64 or args.batch > 1024:
        parser.error("bounded harness: --seconds <= 120, --clients <= 64, --batch <= 1024")
    names = list(SCENARIOS) if args.scenario == "all" else [args.scenario]
    print(f"load config clients={args.clients} rate={args.rate}/s batch={args.batch} seconds={args.seconds} "
          f"workers={args.workers} max_queued_items={args.max_queued_items} code_fraction={args.code_fraction}", flush=True)
    for name in names:
        run(args, name, lambda name=name: SCENARIOS[name](args))
    return 0


if __name__ == "__main__":
    sys.exit(main())

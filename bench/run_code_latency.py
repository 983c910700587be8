"""`POST /run_code` latency at low concurrency: our sandboxed service against an unsandboxed server
run the SandboxFusion way, with the same client, in one run (issue 20: "p99 of /run_code at
concurrency 2 and 8 for trivial programs").

The baseline is SandboxFusion's `isolation: none` path rebuilt small (its server is not installed
here): a Starlette app under uvicorn (SandboxFusion is FastAPI, i.e. Starlette, under uvicorn) that
writes the program into a fresh temp dir and runs `python3` on it as an asyncio subprocess, as root
on the host, no limits but the timeout. Ours: a real `verifier serve` (defaults: 2 warm containers,
a recycle every 50 jobs per container).

Each line: p50/p90/p99/max of per-request latency, requests/s, the load average; then the ratio.
`slow` lists the request numbers over 3x the median, so a stall that comes every N jobs shows as a
period. `--before TREE` adds a third server run from another checkout (e.g. /work/main: the code
before a change), interleaved with the others so all three see the same load.
Usage: python bench/run_code_latency.py [--n 600] [--concurrency 2,8] [--before TREE]
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def serve_baseline(port: int) -> None:
    """The SandboxFusion way (isolation none): temp dir, program file, `python3 file` per request."""
    import asyncio
    import tempfile

    import uvicorn
    from starlette.applications import Starlette
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    exe = "/usr/bin/python3" if Path("/usr/bin/python3").exists() else sys.executable

    async def run_code(request):
        body = await request.json()
        with tempfile.TemporaryDirectory() as d:
            Path(d, "main.py").write_text(body["code"])
            t0 = time.perf_counter()
            proc = await asyncio.create_subprocess_exec(exe, "main.py", cwd=d, stdin=asyncio.subprocess.PIPE,
                                                        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
            try:
                out, err = await asyncio.wait_for(proc.communicate(body.get("stdin", "").encode()),
                                                  float(body.get("run_timeout") or 10))
                status = "Finished"
            except asyncio.TimeoutError:
                proc.kill()
                out, err = await proc.communicate()
                status = "TimeLimitExceeded"
        ok = status == "Finished" and proc.returncode == 0
        return JSONResponse({"status": "Success" if ok else "Failed", "run_result": {
            "status": status, "return_code": proc.returncode, "stdout": out.decode(), "stderr": err.decode(),
            "execution_time": time.perf_counter() - t0}})

    app = Starlette(routes=[Route("/run_code", run_code, methods=["POST"])])
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")


def _wait_listening(port: int, timeout_s: float = 60.0) -> None:
    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        try:
            http.client.HTTPConnection("127.0.0.1", port, timeout=1).connect()
            return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"nothing listens on 127.0.0.1:{port} after {timeout_s:.0f}s")


def drive(host: str, port: int, n: int, concurrency: int, tag: str) -> tuple[list[tuple[int, float]], float]:
    """n requests over `concurrency` keep-alive connections, each program distinct (no cache can
    answer it). Returns [(request number, seconds)] and the wall time."""
    counter = iter(range(n))
    lock = threading.Lock()
    out: list[tuple[int, float]] = []
    bad: list[str] = []

    def worker() -> None:
        conn = http.client.HTTPConnection(host, port, timeout=120)
        while True:
            with lock:
                i = next(counter, None)
            if i is None:
                break
            body = json.dumps({"code": f"print(int(input()) + {i})  # {tag}", "stdin": "1\n", "language": "python",
                               "run_timeout": 5, "compile_timeout": 5, "memory_limit_MB": 256})
            t0 = time.perf_counter()
            conn.request("POST", "/run_code", body, {"Content-Type": "application/json"})
            answer = json.loads(conn.getresponse().read())
            dt = time.perf_counter() - t0
            if answer.get("status") != "Success" or answer["run_result"]["stdout"] != f"{i + 1}\n":
                bad.append(str(answer)[:200])
            with lock:
                out.append((i, dt))
        conn.close()

    threads = [threading.Thread(target=worker) for _ in range(concurrency)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if bad:
        raise RuntimeError(f"{len(bad)} wrong answers, first: {bad[0]}")
    return sorted(out), time.perf_counter() - t0


def summary(name: str, samples: list[tuple[int, float]], wall: float) -> tuple[str, dict]:
    lat = sorted(dt for _, dt in samples)

    def pct(q: float) -> float:
        return 1000 * lat[min(len(lat) - 1, int(q * len(lat)))]
    stats = {"p50": pct(0.5), "p90": pct(0.9), "p99": pct(0.99), "max": 1000 * lat[-1], "rps": len(lat) / wall}
    slow = [i for i, dt in samples if dt * 1000 > 3 * stats["p50"]]
    line = (f"{name}: p50 {stats['p50']:.1f} ms  p90 {stats['p90']:.1f}  p99 {stats['p99']:.1f}  max {stats['max']:.0f}  "
            f"{stats['rps']:.1f} req/s  slow(>3x p50) {len(slow)}: {slow[:12]}  [load {os.getloadavg()[0]:.2f}]")
    return line, stats


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=600, help="requests per concurrency level and side")
    ap.add_argument("--concurrency", default="2,8")
    ap.add_argument("--rounds", type=int, default=10, help="turns the servers take (load drifts over all alike)")
    ap.add_argument("--serve-baseline", type=int, default=0, help=argparse.SUPPRESS)
    ap.add_argument("--ours-only", action="store_true", help="skip the baseline (quick checks)")
    ap.add_argument("--server-args", default="", help="more `verifier serve` flags for ours")
    ap.add_argument("--before", default="", help="a checkout whose code runs a third server (before a change)")
    args = ap.parse_args()
    if args.serve_baseline:
        serve_baseline(args.serve_baseline)
        return
    from verifier.local_server import LocalServer, free_port

    port = free_port()
    base = None if args.ours_only else subprocess.Popen([sys.executable, __file__, "--serve-baseline", str(port)])
    servers = {}
    trees = {"ours": str(Path(__file__).resolve().parent.parent)}
    if args.before:
        trees = {"before": str(Path(args.before).resolve()), **trees}
    for name, tree in trees.items():
        servers[name] = LocalServer("--workers", "1", "--sandbox-languages", "python", "--sandbox-pool-name",
                                    f"bench-rc{os.getpid()}-{name}", *args.server_args.split(),
                                    env={**os.environ, "PYTHONPATH": tree})
    try:
        if base:
            _wait_listening(port)
        for s in servers.values():
            _wait_listening(s.http_port)
        for c in [int(x) for x in args.concurrency.split(",")]:
            targets = {**({"baseline": port} if base else {}), **{k: s.http_port for k, s in servers.items()}}
            rows = {}
            for name, p in targets.items():
                drive("127.0.0.1", p, 20, c, "warm")  # the pool's containers up and warm
            # Rounds in turn (the order rotating), so a shared machine's load drifts over all alike.
            samples: dict[str, list] = {name: [] for name in targets}
            walls = dict.fromkeys(targets, 0.0)
            per = max(1, args.n // args.rounds)
            for r in range(args.rounds):
                names = list(targets)
                for name in names[r % len(names):] + names[:r % len(names)]:
                    got, wall = drive("127.0.0.1", targets[name], per, c, f"{name}{r}")
                    samples[name] += [(r * per + i, dt) for i, dt in got]
                    walls[name] += wall
            for name in targets:
                label = {"baseline": "baseline (unsandboxed, SandboxFusion way)", "before": f"before ({args.before})",
                         "ours": "ours (this tree)"}[name]
                line, rows[name] = summary(f"run_code c={c} n={per * args.rounds} {label}", samples[name], walls[name])
                print(line, flush=True)
            for ref in ("baseline", "before"):
                if ref in rows:
                    o, b = rows["ours"], rows[ref]
                    print(f"ratio ours/{ref} c={c}: p50 {o['p50'] / b['p50']:.2f}x  p99 {o['p99'] / b['p99']:.2f}x  "
                          f"max {o['max'] / b['max']:.2f}x  req/s {o['rps'] / b['rps']:.2f}x  [load {os.getloadavg()[0]:.2f}]",
                          flush=True)
    finally:
        for s in servers.values():
            s.stop(timeout_s=60)
            s.kill()
        if base:
            base.terminate()
            base.wait(10)


if __name__ == "__main__":
    main()

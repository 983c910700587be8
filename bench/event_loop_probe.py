"""Does one adversarial completion delay everyone else? A probe, not a test (docs/service.md "The service").

Starts a server (code grading on when Docker and the images are there), measures the latency of a
health check and of a tiny math item while idle, then again while 256 KB adversarial completions are
being graded: fence lines that made the old extraction regex quadratic (11 minutes on 256 KB),
"class a class a ..." for Java main-class detection, and brace and anchor floods for math
extraction, and 1 MiB math completions of word soup (the answer reader's slowest input per byte, about
0.1 s each, which read on the event loop stalled every call for as long as a call's 16 of them took).
Prints the worst and median latencies of both phases, the ratio busy/idle, and the load average.
Target: the worst under load stays within a fraction of a second.
Usage: python bench/event_loop_probe.py [--seconds 10]
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import threading
import time
from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from verifier.client import VerifierClient  # noqa: E402
from verifier.local_server import LocalServer  # noqa: E402

N = 256 << 10
SOUP = 1 << 20
_WORDS = ("the answer is so we get x + 1.5 = 1.5 , \\frac{1}{2} \\boxed{6} and then Tom has 2,500 apples. ( ) [ ] "
          "{ } $ $ : * ** \\[ \\] \n The final answer is: Answer: \\( \\) = k").split(" ")


def soup(seed: int) -> str:
    """1 MiB of math prose's tokens in random order: no answer, every reader's rule tried everywhere."""
    rng = random.Random(seed)
    return " ".join(rng.choice(_WORDS) for _ in range(SOUP // 3))[:SOUP]


def adversarial() -> list[dict]:
    fence = "```" + " " * (N - 4) + "`"
    java = [fence, "class a " * (N // 8), "/* " + "public class X { " * (N // 17)]
    math = ["{" * N, "The answer is " * (N // 14), "\\boxed{" * (N // 7), "$" * N]
    tasks = [{"id": f"j{i}", "kind": "code", "language": "java", "completion": c,
              "tests": [{"stdin": "", "expected_stdout": ""}]} for i, c in enumerate(java)]
    tasks += [{"id": f"p{i}", "kind": "code", "language": "python", "completion": fence,
               "tests": [{"stdin": "", "expected_stdout": ""}]} for i in range(2)]
    tasks += [{"id": f"m{i}", "kind": "math", "completion": c, "gold": "1", "profile": p}
              for i, (c, p) in enumerate((c, p) for c in math for p in ("strict", "lenient"))]
    tasks += [{"id": f"s{i}", "kind": "math", "completion": soup(i), "gold": "6", "profile": ("strict", "lenient")[i % 2]}
              for i in range(16)]
    return tasks


def probe(target: str, seconds: float) -> tuple[list[float], list[float]]:
    """Latencies (s) of health checks and of one-item math calls, back to back for `seconds`."""
    health = health_pb2_grpc.HealthStub(grpc.insecure_channel(target))
    health_s, math_s = [], []
    with VerifierClient(target) as client:
        end = time.monotonic() + seconds
        i = 0
        while time.monotonic() < end:
            t0 = time.perf_counter()
            health.Check(health_pb2.HealthCheckRequest(service="verifier.v1.Verifier"), timeout=60)
            health_s.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            [r] = client.grade([{"id": "x", "kind": "math", "completion": f"\\boxed{{{i}}}", "gold": str(i)}])
            math_s.append(time.perf_counter() - t0)
            assert r["verdict"] == "correct", r
            i += 1
            time.sleep(0.02)
    return health_s, math_s


def line(name: str, values: list[float], idle: list[float] | None = None) -> str:
    ratio = f"   worst busy/idle {max(values) / max(idle):6.1f}x" if idle else ""
    return (f"{name:<28} n={len(values):<4} median {statistics.median(values) * 1000:7.1f} ms   worst "
            f"{max(values) * 1000:7.1f} ms{ratio}  [load {os.getloadavg()[0]:.2f}]")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=10.0)
    args = ap.parse_args()
    server = LocalServer("--workers", "1", "--sandbox-pool-size", "1", "--sandbox-pool-name", "bench-probe")
    try:
        with VerifierClient(server.target) as client:
            info = client.server_info()
        print(f"code grading {'on' if info.code_available else 'off (no Docker: only math is probed)'}")
        probe(server.target, 1.0)  # warm-up: the first calls start workers and fill caches
        idle = probe(server.target, args.seconds / 2)
        done: list[dict] = []

        def load() -> None:
            with VerifierClient(server.target) as c:
                while not stop.is_set():
                    done.extend(c.grade(adversarial(), timeout_s=600))

        stop = threading.Event()
        worker = threading.Thread(target=load, daemon=True)
        worker.start()
        time.sleep(0.2)
        busy = probe(server.target, args.seconds)
        stop.set()
        worker.join(600)
        print(line("health, idle", idle[0]))
        print(line("math item, idle", idle[1]))
        print(line("health, under load", busy[0], idle[0]))
        print(line("math item, under load", busy[1], idle[1]))
        verdicts = sorted({r["verdict"] for r in done})
        print(f"adversarial items graded: {len(done)} (verdicts: {', '.join(verdicts)})")
    finally:
        server.kill()


if __name__ == "__main__":
    main()

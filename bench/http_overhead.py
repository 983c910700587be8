"""HTTP/JSON port vs gRPC port of one server: throughput on fresh items, and per-call overhead.

1. Throughput: N distinct math items (no cache hits) in calls of 256, through gRPC and through
   ``POST /v1/grade``; both wait on the same workers, so the ratio shows what JSON costs on top.
2. Per-call overhead: one cached item per call (answered from the result cache, no worker), so
   the time is the front end's own: a gRPC unary call vs an HTTP/1.1 POST on a kept-alive connection.

Target: HTTP throughput within 1.2x of gRPC. Usage: python bench/http_overhead.py [--n 2000] [--calls 300]
"""
from __future__ import annotations

import argparse
import http.client
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from verifier.client import VerifierClient
from verifier.local_server import LocalServer


def items(n: int, prefix: str, k: int = 2) -> list[dict]:
    """n distinct right answers, unreduced by a factor k (another k: other items, the same work)."""
    return [{"id": f"{prefix}{i}", "kind": "math", "gold": f"\\frac{{{i + 1}}}{{{2 * i + 3}}}",
             "completion": f"so $\\boxed{{\\frac{{{k * (i + 1)}}}{{{k * (2 * i + 3)}}}}}$"} for i in range(n)]


def http_post(conn: http.client.HTTPConnection, tasks: list[dict]) -> list[dict]:
    body = json.dumps({"tasks": tasks})
    try:
        conn.request("POST", "/v1/grade", body, {"Content-Type": "application/json"})
        resp = conn.getresponse()
    except (BrokenPipeError, ConnectionResetError, http.client.RemoteDisconnected):  # idle past keep-alive
        conn.close()
        conn.request("POST", "/v1/grade", body, {"Content-Type": "application/json"})
        resp = conn.getresponse()
    body = json.loads(resp.read())
    assert resp.status == 200, body
    return body["results"]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=2000)
    parser.add_argument("--calls", type=int, default=300)
    args = parser.parse_args()
    with LocalServer("--workers", "2", "--no-code") as server:
        client = VerifierClient(server.target)
        conn = http.client.HTTPConnection("127.0.0.1", server.http_port, timeout=600)
        client.grade(items(8, "warm-g"))
        http_post(conn, items(8, "warm-h"))

        # chunks alternate between the ports, so both see the same machine load (this box is shared)
        grpc_tasks = items(args.n, "g")
        http_tasks = items(args.n, "h", k=3)  # not the gRPC run's answers: nothing from the result cache
        grpc_s = http_s = 0.0
        for i in range(0, args.n, 256):
            t0 = time.perf_counter()
            assert {r["verdict"] for r in client.grade(grpc_tasks[i:i + 256])} == {"correct"}
            t1 = time.perf_counter()
            assert {r["verdict"] for r in http_post(conn, http_tasks[i:i + 256])} == {"correct"}
            grpc_s, http_s = grpc_s + t1 - t0, http_s + time.perf_counter() - t1
        print(f"throughput, {args.n} fresh items: gRPC {args.n / grpc_s:.0f} items/s, "
              f"HTTP {args.n / http_s:.0f} items/s, HTTP/gRPC time ratio {http_s / grpc_s:.2f} (target <= 1.2)")

        cached = items(1, "c")
        client.grade(cached)
        t0 = time.perf_counter()
        for _ in range(args.calls):
            client.grade(cached)
        grpc_call = (time.perf_counter() - t0) / args.calls
        http_post(conn, cached)
        t0 = time.perf_counter()
        for _ in range(args.calls):
            http_post(conn, cached)
        http_call = (time.perf_counter() - t0) / args.calls
        print(f"per call, 1 cached item: gRPC {grpc_call * 1e3:.2f} ms, HTTP {http_call * 1e3:.2f} ms, "
              f"ratio {http_call / grpc_call:.2f}")
        client.close()
        conn.close()


if __name__ == "__main__":
    main()

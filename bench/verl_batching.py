"""verl's per-sample compute_score from many threads: the micro-batcher vs one RPC per call.

verl's thread- and process-pool reward managers call `compute_score` once per sample, concurrently.
Runs N distinct math samples from T threads through trainer.verl twice against one local server:
(a) the micro-batcher as shipped (linger VERIFIER_LINGER_MS, default 5 ms) and (b) batches of one
(every call its own RPC), and prints the wall times, RPC counts and their ratio.

Usage: python bench/verl_batching.py [--n 1024] [--threads 32]
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from trainer import verl
from trainer.remote import env_config
from verifier.local_server import LocalServer


def run(n: int, threads: int, batcher: verl.MicroBatcher, offset: int) -> tuple[float, float]:
    """Wall seconds and mean score of n distinct samples (right answers, so every one must score 1)."""
    verl._BATCHER = (os.getpid(), batcher)

    def one(i: int) -> float:
        k = i + offset
        return verl.compute_score("m", f"so \\boxed{{\\frac{{{2 * (k + 1)}}}{{{2 * (2 * k + 3)}}}}}",
                                  f"\\frac{{{k + 1}}}{{{2 * k + 3}}}")["score"]

    start = time.perf_counter()
    with ThreadPoolExecutor(threads) as pool:
        scores = list(pool.map(one, range(n)))
    return time.perf_counter() - start, sum(scores) / n


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=1024)
    ap.add_argument("--threads", type=int, default=32)
    args = ap.parse_args()
    with LocalServer("--workers", "2", "--no-code") as server:
        os.environ["VERIFIER_TARGET"] = server.target
        cfg = env_config()
        verl._BATCHER = (os.getpid(), verl.MicroBatcher(cfg))
        run(64, args.threads, verl._BATCHER[1], 10 ** 6)  # warm up workers and the channel
        batched = verl.MicroBatcher(cfg)
        t_batched, s_batched = run(args.n, args.threads, batched, 0)
        single = verl.MicroBatcher(cfg, linger_s=0.0, max_batch=1)
        t_single, s_single = run(args.n, args.threads, single, args.n)  # distinct items: no cache hits
    print(f"verl_batching n={args.n} threads={args.threads} micro-batched: {t_batched:.2f}s in {batched.calls} RPCs "
          f"(mean score {s_batched:.3f}); one RPC per call: {t_single:.2f}s in {single.calls} RPCs "
          f"(mean score {s_single:.3f}); speedup {t_single / t_batched:.2f}x")


if __name__ == "__main__":
    main()

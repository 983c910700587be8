"""A GRPO batch's time to its last result (p100: the trainer waits for the slowest item), before and
after a change, through real servers in one run (issue 20 item 3).

The batch (bench/grpo_batch.py): P problems x 16 completions, 8 stdin tests each, scoring
"fraction", time limit 1 s; per group 8 right, 4 wrong, 1 slow (time limit on the large test only),
1 hang (time limit on every test: 8 of them under "fraction"), 2 crashing. Two shapes: `distinct`
(every program differs by a comment: every one runs) and `repeats` (the completions of one kind in a
group are the same program, as a policy that has converged writes them; the prose around each
differs), `straggler`: one group of 16 whose last completion sleeps on every test (the batch's
tail is that one job, 8 x the wall-clock backstop, not the total work: as on a machine with more
containers than long jobs), and `sizes`: three problems with 2, 4 and 24 tests, the largest last in the call (no
hanging program: the tail is the large problem's group), as a batch mixing datasets has them.
`--before TREE` runs a second server from another checkout (e.g. /work/main); the two
alternate, round by round, so both see the same load. Each line: time to the last result, items/s,
unexpected verdicts, the load average. Usage: python bench/grpo_tail.py [--problems 4] [--rounds 2]
[--before /work/main]
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import grpo_batch  # noqa: E402
from verifier.client import ClientConfig, VerifierClient  # noqa: E402
from verifier.local_server import LocalServer  # noqa: E402

MIX = ("right",) * 8 + ("wrong",) * 4 + ("slow", "hang") + ("crash",) * 2


def shaped(problems: int, distinct: bool, salt: int) -> list[grpo_batch.Item]:
    """The batch; with repeats, each completion's prose differs (only the extracted code repeats)."""
    items = grpo_batch.batch(problems=problems, distinct=distinct, mix=MIX, seed=salt)
    for i, item in enumerate(items):
        item.task = dict(item.task, id=f"r{salt}-{item.task['id']}",
                         completion=f"Attempt {i} of round {salt}. " + item.task["completion"])
    return items


MIX_SIZES = ("right",) * 10 + ("wrong",) * 4 + ("slow", "crash")


def sized(salt: int) -> list[grpo_batch.Item]:
    """Problems of 2, 4 and 24 tests (16 distinct completions each), the largest last."""
    items = []
    for p, n in enumerate((2, 4, 24)):
        for item in grpo_batch.batch(problems=1, tests=n, mix=MIX_SIZES, seed=salt * 10 + p):
            item.task = dict(item.task, id=f"s{salt}-{p}-{item.task['id']}")
            items.append(item)
    return items


MIX_STRAGGLER = ("right",) * 13 + ("wrong", "crash", "sleep")


def one(server: LocalServer, items: list[grpo_batch.Item]) -> tuple[float, int]:
    with VerifierClient(server.target, ClientConfig(timeout_s=1800, max_retries=0)) as client:
        t0 = time.perf_counter()
        results = client.grade([i.task for i in items])
        wall = time.perf_counter() - t0
    return wall, sum(r["verdict"] != i.expect for r, i in zip(results, items))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--problems", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--shapes", default="distinct,repeats,straggler,sizes")
    ap.add_argument("--before", default="", help="a checkout whose code runs the comparison server")
    args = ap.parse_args()
    trees = {"ours": str(ROOT)}
    if args.before:
        trees = {"before": str(Path(args.before).resolve()), **trees}
    servers = {name: LocalServer("--workers", "1", "--sandbox-languages", "python", "--sandbox-pool-name",
                                 f"bench-tail{os.getpid()}-{name}", env={**os.environ, "PYTHONPATH": tree})
               for name, tree in trees.items()}
    try:
        for s in servers.values():
            one(s, shaped(1, True, 999)[:4])  # warm
        for shape in args.shapes.split(","):
            walls: dict[str, list[float]] = {name: [] for name in servers}
            for r in range(args.rounds):
                for name, s in servers.items():
                    if shape == "straggler":
                        items = grpo_batch.batch(problems=1, mix=MIX_STRAGGLER, seed=r)
                    else:
                        items = sized(r) if shape == "sizes" else shaped(args.problems, shape == "distinct", r)
                    wall, wrong = one(s, items)
                    walls[name].append(wall)
                    print(f"grpo-tail {shape} round {r} {name}: last result {wall:.2f} s, {len(items) / wall:.1f} items/s, "
                          f"{len(items)} items, {wrong} verdicts unexpected [load {os.getloadavg()[0]:.2f}]", flush=True)
            if "before" in walls:
                b, o = sum(walls["before"]) / args.rounds, sum(walls["ours"]) / args.rounds
                print(f"grpo-tail {shape} ratio ours/before: last result {o / b:.2f}x ({o:.2f} s vs {b:.2f} s, "
                      f"mean of {args.rounds}) [load {os.getloadavg()[0]:.2f}]", flush=True)
    finally:
        for s in servers.values():
            s.stop(timeout_s=60)
            s.kill()


if __name__ == "__main__":
    main()

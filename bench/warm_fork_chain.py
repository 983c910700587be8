"""CPU and wall time per warm fork inside a Python sandbox container (docs/benchmarks.md, "Where a
trivial /run_code request's time goes"): the zygote's two ways to make a process PID 1's child,
side by side in one container with the zygote's imports loaded. The baseline is the middle process
(fork, fork, exit: zygote.fork_through_middle), ours is clone(CLONE_PARENT) (zygote.clone_parent).
CPU is the container's children's rusage, which holds on a loaded machine; wall does not.

    export PYTHONPATH=$PWD && .venv/bin/python bench/warm_fork_chain.py [--n 300] [--rounds 3]
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from sandbox.build import image_tag  # noqa: E402

INSIDE = r'''
import os, resource, sys, time
sys.path.insert(0, "/opt/sandbox/harness")
import zygote
zygote.warm_up()
n, rounds = int(sys.argv[1]), int(sys.argv[2])

def run(method):
    """A zygote (PID 1's child) forks n processes that exit at once; PID 1 reaps them all."""
    ru0, t0 = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    if os.fork() == 0:
        for _ in range(n):
            if (zygote.clone_parent() if method == "clone" else zygote.fork_through_middle(None)) == 0:
                os._exit(0)
        os._exit(0)
    while True:
        try:
            os.waitpid(-1, 0)
        except ChildProcessError:
            break
    wall, ru1 = time.perf_counter() - t0, resource.getrusage(resource.RUSAGE_CHILDREN)
    return ((ru1.ru_utime - ru0.ru_utime) + (ru1.ru_stime - ru0.ru_stime)) / n * 1e3, wall / n * 1e3

rss = int([l for l in open("/proc/self/status") if l.startswith("VmRSS")][0].split()[1]) >> 10
for _ in range(rounds):
    (mc, mw), (cc, cw) = run("middle"), run("clone")
    load = os.getloadavg()[0]
    print(f"warm fork + exit ({rss} MB interpreter, {n} forks): middle process CPU {mc:.2f} ms wall {mw:.2f} ms | "
          f"clone(CLONE_PARENT) CPU {cc:.2f} ms wall {cw:.2f} ms | ratio CPU {cc / mc:.2f}x wall {cw / mw:.2f}x [load {load:.2f}]",
          flush=True)
'''


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=300, help="forks per side and round")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    subprocess.run(["docker", "run", "--rm", "--network", "none", "--entrypoint", "python3", image_tag("python"),
                    "-c", INSIDE, str(args.n), str(args.rounds)], check=True)


if __name__ == "__main__":
    main()

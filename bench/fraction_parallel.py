"""Would running the tests of one `fraction` job in parallel inside its container pay? (issue 20,
item 2, third bullet; the decision is in docs/sandboxes.md, "Parallel tests of one job").

The ceiling of what in-container parallelism can gain, measured with the sandbox image itself: one
container per line with the pool's CPU quota (`container_cpus`, docker's --cpus) and no network, in
which the same N tests run one after another (today's order) and then with K in flight, each test
a fresh `python3 -I` program as on the exec path. Two kinds of test: CPU-bound (a loop) and waiting
(a sleep, as a program blocked on I/O). Lines for the pool's default share and for 2 CPUs, on
runc and (when the daemon has it) runsc. Each line prints serial / parallel seconds, the ratio
parallel/serial (<1 is a gain) and the load average; serial and parallel run back to back in the
same container, a fresh one per round. First, what is built, through the grader (two lines): the same
accepting job scored "fraction" (its tests split across the pool's containers, plan.split_plan)
against "all" (one container, one test after another). Usage: python bench/fraction_parallel.py [--n 8] [--k 4] [--rounds 2]
[--service-only]
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sandbox import SandboxConfig, image_tag  # noqa: E402
from sandbox.sync import SyncGrader  # noqa: E402

PROGRAMS = {
    "cpu": "s = 0\nfor i in range(1_500_000):\n    s += i\nprint(s)",
    "wait": "import time\ntime.sleep(0.2)\nprint(0)",
}

# Runs inside the container: N tests serial, then N tests with K in flight; prints both times (JSON).
DRIVER = r"""
import json, subprocess, sys, time
from concurrent.futures import ThreadPoolExecutor
prog, n, k = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
def one(_):
    return subprocess.run(["python3", "-I", "-c", prog], capture_output=True, check=True).stdout
one(0)
t0 = time.perf_counter(); [one(i) for i in range(n)]; serial = time.perf_counter() - t0
t0 = time.perf_counter()
with ThreadPoolExecutor(k) as ex:
    list(ex.map(one, range(n)))
parallel = time.perf_counter() - t0
print(json.dumps({"serial": serial, "parallel": parallel}))
"""


def runtimes() -> list[str]:
    """runc always; runsc when the daemon lists it (docs/sandboxes.md "Sandbox backends")."""
    out = subprocess.run(["docker", "info", "--format", "{{json .Runtimes}}"], capture_output=True, text=True).stdout
    return ["runc"] + (["runsc"] if "runsc" in out else [])


def measure(runtime: str, cpus: float, kind: str, n: int, k: int) -> dict:
    """Serial and parallel seconds for N tests of `kind` in one fresh container."""
    name = f"fraction-bench-{os.getpid()}"
    subprocess.run(["docker", "run", "-d", "--rm", "--name", name, "--runtime", runtime, "--network", "none",
                    f"--cpus={cpus}", "--memory=512m", "--entrypoint", "sleep", image_tag("python"), "300"],
                   check=True, capture_output=True)
    try:
        out = subprocess.run(["docker", "exec", name, "python3", "-c", DRIVER, PROGRAMS[kind], str(n), str(k)],
                             check=True, capture_output=True, text=True, timeout=240).stdout
        return json.loads(out.strip().splitlines()[-1])
    finally:
        subprocess.run(["docker", "rm", "-f", name], capture_output=True)


def service_split(kind: str, n: int) -> tuple[float, float]:
    """What is built, through the grader with its defaults (pool_size containers): the same
    accepting job scored "fraction" (split across containers, plan.split_plan) and "all" (no split:
    every test passes, so all of them run one after another in one container). Seconds each."""
    task = {"language": "python", "completion": PROGRAMS[kind], "compare": "tokens",
            "tests": [{"stdin": "", "expected_stdout": "0\n" if kind == "wait" else f"{sum(range(1_500_000))}\n"}] * n}
    took = {}
    with SyncGrader(SandboxConfig(languages=("python",), pool_name="bench-fraction")) as g:
        g.grade(dict(task, tests=task["tests"][:1]))  # warm caches
        for scoring in ("all", "fraction"):
            t0 = time.perf_counter()
            r = g.grade(dict(task, scoring=scoring))
            took[scoring] = time.perf_counter() - t0
            assert r["verdict"] == "accepted" and len(r["tests"]) == n, r["detail"]
    return took["all"], took["fraction"]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=8, help="tests in the job")
    ap.add_argument("--k", type=int, default=4, help="tests in flight when parallel")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--runtimes", default=None, help="comma-separated (default: runc and runsc if present)")
    ap.add_argument("--service-only", action="store_true")
    a = ap.parse_args()
    for kind in PROGRAMS:
        one, split = service_split(kind, a.n)
        print(f"service {kind:4s}: one container (scoring all) {one:.2f} s, split across containers (fraction) {split:.2f} s, "
              f"ratio split/one {split / one:.2f}x; load average {os.getloadavg()[0]:.2f}", flush=True)
    if a.service_only:
        return
    share = SandboxConfig().container_cpus
    print(f"# {os.cpu_count()} host cores; the pool's container_cpus default {share}; N={a.n} tests, K={a.k} in flight", flush=True)
    for runtime in (a.runtimes.split(",") if a.runtimes else runtimes()):
        for cpus in sorted({share, 2.0}):
            for kind in PROGRAMS:
                for r in range(a.rounds):
                    m = measure(runtime, cpus, kind, a.n, a.k)
                    print(f"{runtime} cpus={cpus:g} {kind:4s} round {r + 1}: serial {m['serial']:.2f} s, "
                          f"parallel K={a.k} {m['parallel']:.2f} s, ratio parallel/serial {m['parallel'] / m['serial']:.2f}x; "
                          f"load average {os.getloadavg()[0]:.2f}", flush=True)


if __name__ == "__main__":
    main()

"""One side of an interleaved A/B of a pooled test's cost on the gVisor backend (docs/benchmarks.md "Where a
gVisor test's time goes"): N stdin tests of one program in one job, JOBS jobs in one one-sandbox pool, each
job's wall time and host CPU per test. Host CPU is this process and every process below it (the grader, runsc,
its Sentry, gofer and stubs, with the children each reaped), which a shared machine's load leaves as it is.
Run it from each tree in turn (it imports the tree it is run from, whose harness is in that tree's root
filesystem), alternating, several rounds:

    (cd TREE && python bench/gvisor_per_test.py LABEL on 100 2)
    python bench/gvisor_per_test.py LABEL WARM_FORK N JOBS [PROGRAM [EXPECTED_STDOUT]]
"""
from __future__ import annotations

import os
import sys
import time

sys.path.insert(0, os.getcwd())

import psutil  # noqa: E402

from sandbox import SandboxConfig  # noqa: E402
from sandbox.sync import SyncGrader  # noqa: E402


def tree_cpu_s() -> float:
    """CPU seconds of this process and every live one below it, with the children each has waited for."""
    me = psutil.Process()
    total = 0.0
    for proc in [me, *me.children(recursive=True)]:
        try:
            t = proc.cpu_times()
        except psutil.Error:
            continue  # ended meanwhile: its parent's children_* times hold it once reaped
        total += t.user + t.system + t.children_user + t.children_system
    return total


def main() -> None:
    label, warm, n, jobs = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    program = sys.argv[5] if len(sys.argv) > 5 else "pass"
    expected = sys.argv[6] if len(sys.argv) > 6 else ""
    config = SandboxConfig(backend="gvisor", languages=("python",), pool_size=1, warm_fork=warm,
                           pool_name=f"bench-gvisor-per-test-{os.getpid()}")
    task = {"language": "python", "completion": program, "compare": "exact",
            "tests": [{"stdin": "1 2\n", "expected_stdout": expected} for _ in range(n)]}
    with SyncGrader(config) as g:
        if not g.grader.available:
            sys.exit(f"gvisor sandbox unavailable: {g.grader.unavailable_reason()}")
        g.grade(dict(task, tests=task["tests"][:2]))  # the sandbox started, the zygote warm
        for _ in range(jobs):
            c0, t0 = tree_cpu_s(), time.perf_counter()
            r = g.grade(task)
            wall, cpu = time.perf_counter() - t0, tree_cpu_s() - c0
            assert len(r["tests"]) == n, r["detail"]
            print(f"[{label}, warm_fork={warm}] per test: wall {wall / n * 1e3:.1f} ms, host CPU {cpu / n * 1e3:.1f} ms "
                  f"({n} tests in one job, verdict {r['verdict']}); load average {os.getloadavg()[0]:.2f}", flush=True)


if __name__ == "__main__":
    main()

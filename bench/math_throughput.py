"""Math grading throughput: a plain math-verify loop vs the service, on GRPO-shaped workloads.

64 problems x 8 completions (1-2k characters of reasoning each, ending in an answer), graded as 8
training steps of 64 completions. Completions in a group repeat answers as real groups do. Two
workloads: answers inside the fast path's grammar (target >= 3x), and answers outside it that only
sympy can decide (nested radicals, trig and log forms, rational functions, products with
exponentials; target >= 2x on 2 cores, i.e. per item no slower than plain math-verify).
(a) baseline: an in-process loop of math-verify `verify(parse(gold), parse(completion))`, as TRL's
    accuracy_reward does; (b) ours: `VerifierClient.grade` against `verifier serve` on loopback.
Prints both throughputs, the ratio, p50/p99 item latency, and how adversarial items fare.

    .venv/bin/python bench/math_throughput.py [--workers N] [--only fast|symbolic]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from verifier.client import ClientConfig, VerifierClient
from verifier.local_server import LocalServer

WORDS = ("we", "consider", "the", "equation", "so", "then", "substituting", "gives", "hence", "note", "that",
         "simplify", "both", "sides", "factor", "check", "case", "therefore", "value", "term")


def _problem(rng: random.Random, i: int) -> tuple[str, list[str], list[str]]:
    """A gold, equivalent correct forms, and wrong answers."""
    a, b = rng.randint(1, 40), rng.randint(2, 41)
    kind = i % 6
    if kind == 0:
        n = a * b
        return str(n), [str(n), f"{n}.0"], [str(n + 1), str(n - a)]
    if kind == 1:
        return f"\\frac{{{a}}}{{{b}}}", [f"\\frac{{{a}}}{{{b}}}", f"\\frac{{{2 * a}}}{{{2 * b}}}", f"{a}/{b}"], [f"\\frac{{{b}}}{{{a}}}", f"\\frac{{{a + 1}}}{{{b}}}"]
    if kind == 2:
        return f"{a}\\sqrt{{2}}", [f"{a}\\sqrt{{2}}", f"\\sqrt{{{2 * a * a}}}"], [f"{a}\\sqrt{{3}}", f"{a + 1}\\sqrt{{2}}"]
    if kind == 3:
        return f"({a}, {b})", [f"({a}, {b})", f"({a},{b})"], [f"({b}, {a})", f"({a}, {b + 1})"]
    if kind == 4:
        return f"x^2 + {a + b}x + {a * b}", [f"x^2 + {a + b}x + {a * b}", f"(x+{a})(x+{b})"], [f"(x+{a})(x-{b})", f"x^2 + {a * b}"]
    return f"[{-a}, {b}]", [f"[{-a}, {b}]", f"[-{a},{b}]"], [f"({-a}, {b})", f"[{-a}, {b + 1}]"]


def _reasoning(rng: random.Random) -> str:
    parts = []
    while sum(map(len, parts)) < rng.randint(1000, 2000):
        parts.append(" ".join(rng.choice(WORDS) for _ in range(12)) + f" $x_{rng.randint(1, 9)} = {rng.randint(1, 99)}$.")
    return " ".join(parts)


def _symbolic_problem(rng: random.Random, i: int) -> tuple[str, list[str], list[str]]:
    """Outside the fast path's grammar (issue 17, item 4): nested radicals, trig and log forms,
    rational functions, products with exponentials. A gold, equivalent forms, near misses."""
    a, b, c = rng.randint(2, 9), rng.randint(2, 9), rng.randint(1, 9)
    kind = i % 5
    if kind == 0:
        m, n = a, a + b  # (sqrt m + sqrt n)^2 = m + n + 2 sqrt(mn)
        return (f"\\sqrt{{{m}}} + \\sqrt{{{n}}}", [f"\\sqrt{{{m + n} + 2\\sqrt{{{m * n}}}}}", f"\\sqrt{{{n}}} + \\sqrt{{{m}}}"],
                [f"\\sqrt{{{m + n} + \\sqrt{{{m * n}}}}}", f"\\sqrt{{{m}}} + \\sqrt{{{n + 1}}}"])
    if kind == 1:
        return (f"\\sin({2 * a}x)", [f"2\\sin({a}x)\\cos({a}x)", f"\\sin({2 * a}x)"],
                [f"\\sin({a}x)\\cos({a}x)", f"2\\sin({a}x)\\cos({a + 1}x)"])
    if kind == 2:
        return (f"\\ln({a * b})", [f"\\ln({a}) + \\ln({b})", f"\\ln {a * b}"], [f"\\ln({a + b})", f"\\ln({a}) \\cdot \\ln({b})"])
    if kind == 3:
        return (f"\\frac{{x + {a}}}{{x - {b}}}", [f"\\frac{{x^2 + {a + c}x + {a * c}}}{{(x - {b})(x + {c})}}", f"\\frac{{x + {a}}}{{x - {b}}}"],
                [f"\\frac{{x^2 + {a + c}x + {a * c}}}{{(x + {b})(x + {c})}}", f"\\frac{{x + {a + 1}}}{{x - {b}}}"])
    k = rng.randint(2, 12)
    return (f"{k}x e^{{{k}x}} + e^{{{k}x}}", [f"e^{{{k}x}}({k}x + 1)", f"({k}x + 1)e^{{{k}x}}"],
            [f"e^{{{k}x}}({k}x + 2)", f"e^{{{k + 1}x}}({k + 1}x + 1)"])


def workload(seed: int = 0, problem=_problem) -> list[dict]:
    rng = random.Random(seed)
    tasks = []
    for p in range(64):
        gold, right, wrong = problem(rng, p)
        group_answers = [rng.choice(right), rng.choice(right), rng.choice(wrong)]  # a group repeats itself
        for c in range(8):
            text = _reasoning(rng)
            if rng.random() < 0.1:
                completion = text  # truncated: no final answer
            else:
                completion = f"{text}\n\nTherefore the final answer is $\\boxed{{{rng.choice(group_answers)}}}$."
            tasks.append({"id": f"p{p}-c{c}", "kind": "math", "completion": completion, "gold": f"${gold}$"})
    return tasks


def baseline(tasks: list[dict]) -> tuple[float, list[float], list[bool]]:
    from math_verify import parse, verify

    verify(parse("$1$"), parse("$1$"))  # warm-up, as the service's workers warm up
    latencies, verdicts = [], []
    start = time.perf_counter()
    for t in tasks:
        t0 = time.perf_counter()
        verdicts.append(bool(verify(parse(t["gold"]), parse(t["completion"]))))
        latencies.append(time.perf_counter() - t0)
    return time.perf_counter() - start, latencies, verdicts


def ours(server: LocalServer, tasks: list[dict]) -> tuple[float, list[float], list[dict]]:
    client = VerifierClient(server.target, ClientConfig(timeout_s=600))
    client.grade([{**tasks[0], "id": "warm", "gold": "$0$"}])  # connect and fetch limits before timing
    results = []
    start = time.perf_counter()
    for step in range(0, len(tasks), 64):  # one call per training step
        results += client.grade(tasks[step:step + 64])
    elapsed = time.perf_counter() - start
    client.close()
    return elapsed, [r["queue_s"] + r["exec_s"] for r in results], results


def pct(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100)[q - 1] if len(values) > 1 else values[0]


ADVERSARIAL = {  # name: (completion, gold)
    "power tower 5^5^5^5^5": ("\\boxed{5^{5^{5^{5^{5}}}}}", "1"),
    "9^9^9": ("\\boxed{9^{9^{9}}}", "1"),
    "(10^6)!": ("\\boxed{(10^{6})!}", "1"),
    "50-deep parentheses": ("\\boxed{" + "(" * 50 + "1" + ")" * 50 + "}", "1"),
    "3000 nested \\frac": ("\\boxed{" + "\\frac{1}{" * 3000 + "2" + "}" * 3000 + "}", "1"),
    "1 MB completion": ("x " * 500_000 + "\nSo the answer is \\boxed{1}", "1"),
    "sympy simplify loop": ("\\boxed{\\sin(\\tan(-4x^2-3)^3)}", "1 + x"),  # sympy #27320's family
}


def adversarial(server: LocalServer, deadline_s: float = 2.0) -> None:
    client = VerifierClient(server.target, ClientConfig(timeout_s=120))
    for name, (completion, gold) in ADVERSARIAL.items():
        t0 = time.perf_counter()
        [r] = client.grade([{"id": "x", "kind": "math", "completion": completion, "gold": gold, "timeout_s": deadline_s}])
        took = time.perf_counter() - t0
        flag = "ok" if took <= deadline_s + 1 else "OVER deadline+1s"
        print(f"adversarial  {name:<24} {r['verdict']:<10} {took:6.2f} s  (deadline {deadline_s:g} s: {flag})  [{load()}]")
    client.close()


def load() -> str:
    """The 1-minute load average: the machine is shared, so every measured line carries it."""
    return f"load {os.getloadavg()[0]:.2f}"


WORKLOADS = {  # name: (tasks, ratio target)
    "fast-path grammar (numbers, fractions, surds, tuples, polynomials, intervals)": (workload, 3.0),
    "outside the fast path (nested radicals, trig, logs, rational functions, exponentials)":
        (lambda: workload(1, _symbolic_problem), 2.0),
}


def compare(server: LocalServer, name: str, tasks: list[dict], target: float) -> None:
    """One workload: the math-verify loop, then the service, then their ratio and agreement."""
    print(f"== {name}: {len(tasks)} completions, "
          f"{statistics.mean(len(t['completion']) for t in tasks):.0f} chars on average  [{load()}]")
    b_time, b_lat, b_verdicts = baseline(tasks)
    b_rate = len(tasks) / b_time
    print(f"baseline (math-verify loop): {b_rate:8.1f} items/s  p50 {pct(b_lat, 50) * 1000:7.1f} ms"
          f"  p99 {pct(b_lat, 99) * 1000:7.1f} ms  [{load()}]")
    o_time, o_lat, o_results = ours(server, tasks)
    o_rate = len(tasks) / o_time
    print(f"ours (service, {len(tasks) // 64} calls x 64): {o_rate:7.1f} items/s  p50 {pct(o_lat, 50) * 1000:7.1f} ms"
          f"  p99 {pct(o_lat, 99) * 1000:7.1f} ms  [{load()}]")
    print(f"ratio (ours / baseline): {o_rate / b_rate:.2f}x   (target >= {target:g})  [{load()}]")
    agree = sum((r["verdict"] == "correct") == v for r, v in zip(o_results, b_verdicts))
    print(f"verdict agreement with math-verify: {agree}/{len(tasks)} = {100 * agree / len(tasks):.1f}%  [{load()}]")
    for t, r, v in zip(tasks, o_results, b_verdicts):
        if (r["verdict"] == "correct") != v:
            print(f"  differs: gold {t['gold']}  answer {r['extracted']}  ours {r['verdict']} ({r['detail']})"
                  f"  math-verify {'correct' if v else 'incorrect'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=len(os.sched_getaffinity(0)))
    parser.add_argument("--only", choices=("fast", "symbolic"), help="run one workload")
    args = parser.parse_args()
    print(f"{args.workers} workers; the baseline is one in-process loop  [{load()}]")
    server = LocalServer("--workers", str(args.workers), "--no-code")
    try:
        for i, (name, (make, target)) in enumerate(WORKLOADS.items()):
            if args.only is None or args.only == ("fast", "symbolic")[i]:
                compare(server, name, make(), target)
        adversarial(server)
    finally:
        server.kill()


if __name__ == "__main__":
    main()

"""What each test kind costs per test, against stdin tests measured in the same run.

One job of N tests of each kind (docs/tasks.md "Task schema"): stdin/stdout (one process per test),
call_tests (one judge, calls over its channel), a pytest file and a unittest file in the judge, and
a BigCodeBench-style unittest file whose task_func returns a 100-row DataFrame compared with
pandas.testing.assert_frame_equal (it crosses the judge's typed channel: sandbox/harness/wire_rich.py).
Prints ms per job, ms per test, the ratio to stdin tests and the load average on each line.
Usage: python bench/code_kinds.py [--n 20] [--repeat 3]
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sandbox import SandboxConfig  # noqa: E402
from sandbox.sync import SyncGrader  # noqa: E402

ADD = "def f(a, b):\n    return a + b"
FRAME = ("import pandas as pd\ndef task_func(k):\n"
         "    return pd.DataFrame({'i': range(100), 'v': [i * k / 7 for i in range(100)], 's': [str(i) for i in range(100)]})")


def tasks(n: int) -> dict[str, dict]:
    base = {"kind": "code", "language": "python"}
    unittest_file = "import unittest\nclass T(unittest.TestCase):\n" + "".join(
        f"    def test_{i}(self):\n        self.assertEqual(f({i}, {i}), {2 * i})\n" for i in range(n))
    return {
        "stdin": {**base, "completion": "print(sum(map(int, input().split())))",
                  "tests": [{"stdin": f"{i} {i}\n", "expected_stdout": f"{2 * i}\n"} for i in range(n)]},
        "call_tests": {**base, "completion": ADD, "entry_point": "f",
                       "call_tests": [{"args": [i, i], "expected": 2 * i} for i in range(n)]},
        "pytest": {**base, "completion": ADD, "test_framework": "pytest",
                   "test_code": "import pytest\nfrom solution import f\n@pytest.mark.parametrize('i', range(%d))\n"
                                "def test_f(i):\n    assert f(i, i) == 2 * i\n" % n},
        "unittest": {**base, "completion": ADD, "test_framework": "unittest", "test_code": unittest_file},
        "unittest frames": {**base, "completion": FRAME, "test_framework": "unittest", "entry_point": "task_func",
                            "time_limit_s": 10, "memory_limit_mb": 512,
                            "test_code": "import unittest\nimport pandas as pd\nclass T(unittest.TestCase):\n" + "".join(
                                f"    def test_{i}(self):\n        pd.testing.assert_frame_equal(task_func({i}), pd.DataFrame("
                                f"{{'i': range(100), 'v': [j * {i} / 7 for j in range(100)], 's': [str(j) for j in range(100)]}}))\n"
                                for i in range(n))},
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=20)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    g = SyncGrader(SandboxConfig(pool_size=1, pool_name="bench-code-kinds", languages=("python",)))
    try:
        best: dict[str, float] = {}
        for name, task in tasks(args.n).items():
            g.grade(task)  # warm
            times = []
            for _ in range(args.repeat):
                t0 = time.monotonic()
                r = g.grade(task)
                times.append(time.monotonic() - t0)
                if r["verdict"] != "accepted" or len(r["tests"]) != args.n:
                    raise SystemExit(f"{name}: {r['verdict']} {r['detail']}")
            best[name] = min(times)
        for name, s in best.items():
            print(f"{name:16s} {args.n} tests: {s * 1000:6.0f} ms per job, {s * 1000 / args.n:5.1f} ms per test, "
                  f"{s / best['stdin']:.2f}x stdin tests, load {os.getloadavg()[0]:.1f}")
    finally:
        g.close()


if __name__ == "__main__":
    main()

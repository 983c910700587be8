"""Per-test cost of each non-Python language through the pool, against the same program run bare
on the host (issue 20: "compiled languages already exec a binary, so measure them and leave them
if they are at the floor"; JavaScript "where cheap").

For each language: a program that reads two numbers and prints their sum. Ours: the marginal
wall time of one stdin test in a job (a job of N+1 tests minus a job of 1, so the compile and the
job's round trips are not counted), through a one-container Docker pool. Floor: the same source
compiled on the host with the same command line (sandbox/languages.py), then run N times bare
(`subprocess.run` with the same stdin). A language whose toolchain the host lacks says so.
Usage: python bench/lang_per_test.py [--n 100] [--languages javascript,c,...]
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sandbox import SandboxConfig  # noqa: E402
from sandbox.languages import LANGUAGES, fill  # noqa: E402
from sandbox.sync import SyncGrader  # noqa: E402

SUM = {
    "javascript": 'const s=require("fs").readFileSync(0,"utf8").trim().split(/\\s+/).map(Number);console.log(s[0]+s[1]);',
    "c": '#include <stdio.h>\nint main(){int a,b;scanf("%d %d",&a,&b);printf("%d\\n",a+b);return 0;}',
    "cpp": "#include <iostream>\nint main(){long a,b;std::cin>>a>>b;std::cout<<a+b<<std::endl;}",
    "rust": "use std::io::*;\nfn main(){let mut s=String::new();stdin().read_to_string(&mut s).unwrap();"
            "let v:Vec<i64>=s.split_whitespace().map(|x|x.parse().unwrap()).collect();println!(\"{}\",v[0]+v[1]);}",
    "go": 'package main\nimport "fmt"\nfunc main(){var a,b int\nfmt.Scan(&a,&b)\nfmt.Println(a+b)}',
    "java": "import java.util.*;\npublic class Main{public static void main(String[] a){Scanner s=new Scanner(System.in);"
            "System.out.println(s.nextLong()+s.nextLong());}}",
}
MEM_MB = 512  # {mem} of the run command (JavaScript's and Java's heap cap), as a test's default limit


def load() -> str:
    return f"load average {os.getloadavg()[0]:.2f}"


def ours(lang: str, n: int) -> float:
    """Marginal seconds per stdin test in one job, through a one-container pool."""
    test = {"stdin": "2 3\n", "expected_stdout": "5\n"}
    task = {"language": lang, "completion": SUM[lang], "time_limit_s": 5}
    config = SandboxConfig(languages=(lang,), pool_size=1, max_concurrent_jobs=1, pool_name=f"langbench{os.getpid()}")
    with SyncGrader(config) as g:
        if not g.grader.available:
            sys.exit(f"sandbox unavailable: {g.grader.unavailable_reason()}")
        for _ in range(2):  # warm: the container's first job, caches
            g.grade(dict(task, tests=[test]))
        best = float("inf")
        for _ in range(2):
            t0 = time.perf_counter()
            r1 = g.grade(dict(task, tests=[test]))
            t1 = time.perf_counter()
            rn = g.grade(dict(task, tests=[test] * (n + 1)))
            t2 = time.perf_counter()
            assert r1["verdict"] == rn["verdict"] == "accepted", (r1["detail"], rn["detail"])
            best = min(best, ((t2 - t1) - (t1 - t0)) / n)
    return best


def floor(lang: str, n: int) -> float | None:
    """Seconds per bare run on the host of the same program, compiled the same way; None without
    the host toolchain."""
    spec = LANGUAGES[lang]
    tools = [spec.run[0]] + ([spec.compile[0]] if spec.compile else [])
    if any(shutil.which(t) is None and not t.startswith("./") for t in tools):
        return None
    with tempfile.TemporaryDirectory() as d:
        values = {"mem": MEM_MB, "main": "Main"}
        Path(d, spec.source.format(**values)).write_text(SUM[lang])
        env = {**os.environ, **{k: v.replace("/tmp", d) for k, v in spec.env}}  # the image's env, in this folder
        if spec.compile:
            subprocess.run(fill(spec.compile, **values), cwd=d, env=env, check=True, capture_output=True)
        argv = fill(spec.run, **values)
        subprocess.run(argv, cwd=d, env=env, input=b"2 3\n", check=True, capture_output=True)
        best = float("inf")
        for _ in range(2):
            t0 = time.perf_counter()
            for _ in range(n):
                out = subprocess.run(argv, cwd=d, env=env, input=b"2 3\n", capture_output=True)
                assert out.stdout.strip() == b"5", out
            best = min(best, (time.perf_counter() - t0) / n)
    return best


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=100, help="tests per job (and bare runs) per round; best of 2 rounds")
    ap.add_argument("--languages", default=",".join(SUM))
    args = ap.parse_args()
    for lang in args.languages.split(","):
        bare = floor(lang, args.n)
        pool = ours(lang, args.n)
        if bare is None:
            print(f"[{lang}] per test: pool {pool * 1e3:.1f} ms | bare on the host: no {lang} toolchain here; {load()}")
        else:
            print(f"[{lang}] per test: pool {pool * 1e3:.1f} ms | bare on the host {bare * 1e3:.1f} ms; "
                  f"ratio pool/bare {pool / bare:.2f}x; {load()}")


if __name__ == "__main__":
    main()

"""A GRPO call's test set sent once per container, against sent with every test (issue 20 item 2).

One call = 32 completions of one problem (distinct programs: none is shared as a duplicate), 16
stdin tests with inputs from 1 KB to 1 MB (about 3 MB in all), a C++ checker that reads the input,
the output and the answer (compiled once per server either way), and its support header. Side by
side in one run, interleaved, each call a fresh problem (a cold stash at its start):
baseline: `call_cache_mb=0` (every test sends its input, and every checker run its input, answer,
support file and binary: what the service did before); ours: the default (sandbox/job.py _stash).
The daemon's CPU counts every container on it (other servers' too, on a shared machine). Each line: seconds per job, bytes sent to and received from the containers per job, CPU of this
process and the Docker daemon per job, and the load average; the last line the ratios. The mini testlib header (tests/data) weighs 1 KB; a real testlib.h weighs about
250 KB, sent per checker run by the baseline, so the baseline's bytes here are a floor.

Usage: python bench/call_files.py [--jobs 32] [--rounds 2] [--tests 16] [--light]
"""
from __future__ import annotations

import argparse
import hashlib
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sandbox import SandboxConfig  # noqa: E402
from sandbox.channel import Channel  # noqa: E402
from sandbox.sync import SyncGrader  # noqa: E402

TESTLIB = (Path(__file__).resolve().parent.parent / "tests" / "data" / "mini_testlib.h").read_text()
CHECKER = """#include "testlib.h"
int main(int argc, char* argv[]) {
    registerTestlibCmd(argc, argv);
    long long n = inf.readLong(), sum = 0;
    for (long long i = 0; i < n; i++) sum += inf.readLong();
    long long got = ouf.readLong();
    quitf(got == sum && ans.readLong() == sum ? _ok : _wa, "the sum");
}
"""
PROGRAM = "import sys\n# completion {i}\nd = sys.stdin.buffer.read().split()\nprint(sum(map(int, d[1:])){off})"
# --light: a program as quick as a C++ one on big inputs (it reads the count only), the checker the same
LIGHT_CHECKER = """#include "testlib.h"
int main(int argc, char* argv[]) {
    registerTestlibCmd(argc, argv);
    long long n = inf.readLong();
    quitf(ouf.readLong() == n && ans.readLong() == n ? _ok : _wa, "the count");
}
"""
LIGHT = "# completion {i}\nprint(int(input()){off})"
COUNTED = {"sent": 0, "received": 0}


def count_bytes() -> None:
    """Count the blob bytes of every runner request and reply (every backend's channel is a Channel)."""
    request = Channel.request

    def counting(self, head, blobs=None, timeout_s=30.0):
        COUNTED["sent"] += sum(len(v) for v in (blobs or {}).values())
        reply, got = request(self, head, blobs, timeout_s)
        COUNTED["received"] += sum(len(v) for v in got.values())
        return reply, got

    Channel.request = counting


def daemon_cpu_s() -> float:
    """CPU seconds of the Docker daemon and containerd (with their shims) so far: they copy every
    byte of the channel between this process and the containers."""
    total = 0.0
    for d in Path("/proc").iterdir():
        try:
            if d.name.isdigit() and (d / "comm").read_text().startswith(("dockerd", "containerd")):
                fields = (d / "stat").read_text().rsplit(")", 1)[1].split()
                total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, ValueError, IndexError):
            continue
    return total


def problem(seed: int, n_tests: int, light: bool = False) -> list[dict]:
    """n_tests inputs of N numbers: sizes doubling from 1 KB to 1 MB, the rest 1 KB."""
    rng = random.Random(seed)
    sizes = [min(1 << 20, 1024 << k) for k in range(11)]
    sizes = (sizes + [1024] * n_tests)[:n_tests]
    tests = []
    for size in sizes:
        nums = [rng.randint(-10**6, 10**6) for _ in range(max(1, size // 8))]
        answer = len(nums) if light else sum(nums)
        tests.append({"stdin": f"{len(nums)}\n" + " ".join(map(str, nums)) + "\n", "expected_stdout": f"{answer}\n"})
    return tests


def call(g: SyncGrader, tests: list[dict], jobs: int, light: bool = False) -> tuple[float, int, int, int, float]:
    """One call: (seconds, bytes sent, bytes received, accepted, CPU seconds of this process and the
    Docker daemon); every 4th completion is off by one."""
    tasks = [{"language": "python", "completion": (LIGHT if light else PROGRAM).format(i=i, off=" + 1" if i % 4 == 3 else ""),
              "tests": tests, "checker": LIGHT_CHECKER if light else CHECKER, "checker_language": "cpp", "files": {"testlib.h": TESTLIB},
              "scoring": "fraction"} for i in range(jobs)]
    s0, r0 = COUNTED["sent"], COUNTED["received"]
    t0, c0 = time.perf_counter(), time.process_time() + daemon_cpu_s()
    results = g.grade_many(tasks)
    dt, cpu = time.perf_counter() - t0, time.process_time() + daemon_cpu_s() - c0
    ok = sum(r["verdict"] == "accepted" for r in results)
    want = sum(i % 4 != 3 for i in range(jobs))
    if ok != want or any(r["verdict"] != "wrong_answer" for i, r in enumerate(results) if i % 4 == 3):
        sys.exit(f"wrong verdicts: {ok} accepted, {want} expected: {[r['detail'] for r in results][:4]}")
    return dt, COUNTED["sent"] - s0, COUNTED["received"] - r0, ok, cpu


def channel_cost(g: SyncGrader, mb: int = 2, n: int = 20) -> tuple[float, float]:
    """Seconds of one `files` request carrying `mb` MB, sent (baseline) and named from the stash
    (ours), in one idle container, interleaved: the cost per test the stash takes away."""
    box = g.grader._pool._idle["python"]._boxes[0]
    data = os.urandom(mb << 20)
    digest = hashlib.sha256(data).hexdigest()
    head, _ = box.channel.request({"op": "stash", "drop": []}, {digest: data}, timeout_s=60)
    assert head.get("ok"), head
    took = {"sent": 0.0, "ref": 0.0}
    for i in range(n):
        for how in took:
            t0 = time.perf_counter()
            refs, blobs = ({"input.txt": digest}, {}) if how == "ref" else ({}, {"input.txt": data})
            head, _ = box.channel.request({"op": "files", "dir": f"b{how}{i}", "files": [["input.txt", 0o600]],
                                           "refs": refs}, blobs, timeout_s=60)
            took[how] += time.perf_counter() - t0
            assert head.get("ok"), head
    box.channel.request({"op": "stash", "drop": [digest]}, timeout_s=60)
    box.channel.request({"op": "reset"}, timeout_s=60)
    return took["sent"] / n, took["ref"] / n


def one_at_a_time(graders: dict[str, SyncGrader], n_tests: int, jobs: int, light: bool) -> None:
    """Jobs of one call one at a time, alternating sides job by job, the median per side: robust
    to a loaded machine's swings, which the whole calls above are not."""
    tests = problem(1000, n_tests, light)
    took: dict[str, list[float]] = {name: [] for name in graders}
    for i in range(jobs):
        for name in (("baseline", "ours") if i % 2 == 0 else ("ours", "baseline")):
            task = {"language": "python", "completion": (LIGHT if light else PROGRAM).format(i=i, off=""),
                    "tests": tests, "checker": LIGHT_CHECKER if light else CHECKER, "checker_language": "cpp",
                    "files": {"testlib.h": TESTLIB}, "scoring": "fraction"}
            t0 = time.perf_counter()
            r = graders[name].grade(task)
            took[name].append(time.perf_counter() - t0)
            assert r["verdict"] == "accepted", r["detail"]
    b, o = statistics.median(took["baseline"]), statistics.median(took["ours"])
    print(f"one job at a time{' light' if light else ''}, median of {jobs}: baseline {b * 1e3:.0f} ms | ours {o * 1e3:.0f} ms | "
          f"ours/baseline {o / b:.2f}x; load average {os.getloadavg()[0]:.2f}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, default=32, help="completions per call")
    ap.add_argument("--rounds", type=int, default=2, help="calls per side, interleaved")
    ap.add_argument("--tests", type=int, default=16)
    ap.add_argument("--light", action="store_true", help="a program that reads only the first number (as quick as C++)")
    args = ap.parse_args()
    count_bytes()
    graders = {name: SyncGrader(SandboxConfig(languages=("python",), pool_name=f"bench-callfiles-{name}",
                                              call_cache_mb=mb))
               for name, mb in (("baseline", 0), ("ours", 64))}
    try:
        for g in graders.values():
            if not g.grader.available:
                sys.exit(f"sandbox unavailable: {g.grader.unavailable_reason()}")
            call(g, problem(-1, 2, args.light), 2, args.light)  # the checker compiled, the warm interpreters up
        sent_s, ref_s = channel_cost(graders["ours"])
        print(f"one 2 MB file into a container: sent {sent_s * 1e3:.1f} ms | named from the stash {ref_s * 1e3:.1f} ms | "
              f"{sent_s / ref_s:.1f}x; load average {os.getloadavg()[0]:.2f}", flush=True)
        one_at_a_time(graders, args.tests, args.jobs, args.light)
        total = {name: [0.0, 0, 0.0] for name in graders}
        for rnd in range(args.rounds):
            tests = problem(rnd, args.tests, args.light)
            mb = sum(len(t["stdin"]) for t in tests) / 1e6
            for name in (("baseline", "ours") if rnd % 2 == 0 else ("ours", "baseline")):  # neither always first
                g = graders[name]
                dt, sent, received, ok, cpu = call(g, tests, args.jobs, args.light)
                for k, v in enumerate((dt, sent, cpu)):
                    total[name][k] += v
                print(f"call {rnd + 1}{' light' if args.light else ''} {name:8s}: {args.jobs} jobs x {args.tests} tests ({mb:.1f} MB of inputs), "
                      f"{dt / args.jobs * 1e3:.0f} ms/job, sent {sent / args.jobs / 1e6:.2f} MB/job, received "
                      f"{received / args.jobs / 1e6:.3f} MB/job, host+daemon CPU {cpu / args.jobs * 1e3:.0f} ms/job, {ok} accepted; load average {os.getloadavg()[0]:.2f}",
                      flush=True)
        b, o = total["baseline"], total["ours"]
        print(f"ours/baseline over {args.rounds} calls: time {o[0] / b[0]:.2f}x, bytes sent {o[1] / max(1, b[1]):.3f}x "
              f"({b[1] / 1e6:.0f} MB -> {o[1] / 1e6:.1f} MB), host+daemon CPU {o[2] / b[2]:.2f}x; load average {os.getloadavg()[0]:.2f}")
    finally:
        for g in graders.values():
            g.close()


if __name__ == "__main__":
    main()

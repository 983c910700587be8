"""Where a gVisor test's time goes: the operations of a pooled test's path, each timed inside one gVisor
sandbox, per platform, rounds interleaved (docs/benchmarks.md "Where a gVisor test's time goes").

Each operation runs N times in `runsc --rootless --network=none --platform=P do python3 -I -c INSIDE` (the
host's root filesystem, read-only), the best round's wall time per operation printed, with the same run on
the host's own kernel as the floor. The pinned runsc of `make gvisor` (sandbox/runsc.py) where installed.
The machine may be shared: every line carries the load average.

    python bench/gvisor_costs.py [--n 100] [--rounds 3] [--platforms systrap,ptrace]
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sandbox.runsc import find_runsc  # noqa: E402

# Runs inside the sandbox: {operation: seconds per operation}, as JSON on stdout.
INSIDE = r'''
import json, os, resource, subprocess, sys, time
N = int(sys.argv[1])
def per(f, n=N):
    t0 = time.perf_counter()
    for _ in range(n):
        f()
    return (time.perf_counter() - t0) / n
def fork_exit():
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)
def spawn(argv):
    return lambda: os.waitpid(os.posix_spawn(argv[0], argv, {}), 0)
def popen_preexec(argv):
    return lambda: subprocess.run(argv, preexec_fn=lambda: None, stdout=subprocess.DEVNULL)
def task_clock():  # the sandbox's few tasks (on the host: this one and the echo; its listdir is longer)
    os.listdir("/proc")
    for p in (os.getpid(), echo):
        with open(f"/proc/{p}/stat", "rb") as f:
            int(f.read().rsplit(b")", 1)[1].split()[11])
def proc_stat():
    with open("/proc/self/stat", "rb") as f:
        f.read()
r, w = os.pipe(); r2, w2 = os.pipe()
echo = os.fork()
if echo == 0:
    while os.read(r, 1):
        os.write(w2, b"x")
    os._exit(0)
def pipe_rtt():
    os.write(w, b"x"); os.read(r2, 1)
py = sys.executable
try:
  out = {
    "pipe round trip (one byte there and back, two processes)": per(pipe_rtt),
    "getrusage(RUSAGE_CHILDREN)": per(lambda: resource.getrusage(resource.RUSAGE_CHILDREN), N * 10),
    "open+read /proc/self/stat": per(proc_stat, N * 10),
    "TaskClock reading (listdir /proc, 2 x /proc/PID/stat)": per(task_clock, N * 10),
    "fork+_exit+wait of this interpreter": per(fork_exit),
    "posix_spawn /bin/true + wait": per(spawn(["/bin/true"])),
    "subprocess.run /bin/true with preexec_fn (the runner's fork+exec)": per(popen_preexec(["/bin/true"])),
    "python3 -I -S -c pass": per(spawn([py, "-I", "-S", "-c", "pass"])),
    "python3 -I -c pass": per(spawn([py, "-I", "-c", "pass"])),
    "python3 -I -c 'from typing import List'": per(spawn([py, "-I", "-c", "from typing import List"])),
  }
  big = bytearray(64 << 20)
  for i in range(0, len(big), 4096):
      big[i] = 1
  out["fork+_exit+wait with 64 MB touched"] = per(fork_exit)
finally:
  os.kill(echo, 9)  # it holds stdout: the host's read of it ends only when the echo is gone
  os.waitpid(echo, 0)
print(json.dumps(out))
'''


def run(runsc: str, platform: str, n: int) -> dict[str, float]:
    """One round on `platform` ('host': the host's kernel, no sandbox)."""
    argv = [sys.executable if platform == "host" else "/usr/bin/python3", "-I", "-c", INSIDE, str(n)]
    with tempfile.TemporaryDirectory(prefix="grpo-gvisor-costs-") as root:
        if platform != "host":
            argv = [runsc, "--rootless", "--network=none", "--ignore-cgroups", f"--platform={platform}",
                    f"--root={root}", "do", *argv]
        out = subprocess.run(argv, capture_output=True, text=True, timeout=900, cwd=root)
    if out.returncode:
        sys.exit(f"{platform}: exit {out.returncode}: {out.stderr[-500:]}")
    return json.loads(out.stdout)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=100)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--platforms", default="systrap,ptrace")
    args = ap.parse_args()
    runsc = find_runsc()
    version = subprocess.run([runsc, "--version"], capture_output=True, text=True).stdout.split("\n")[0]
    platforms = ["host", *args.platforms.split(",")]
    best: dict[str, dict[str, float]] = {p: {} for p in platforms}
    loads = []
    for _ in range(args.rounds):  # interleaved: load drifts between platforms
        for p in platforms:
            for op, s in run(runsc, p, args.n).items():
                best[p][op] = min(best[p].get(op, 1e9), s)
            loads.append(os.getloadavg()[0])
    print(f"{version} ({runsc}); best of {args.rounds} interleaved rounds, {args.n} each; "
          f"load average {min(loads):.2f}-{max(loads):.2f}")
    for op in best["host"]:
        cells = " | ".join(f"{p} {best[p][op] * 1e3:.3f} ms" for p in platforms)
        print(f"  {op}: {cells}")


if __name__ == "__main__":
    main()

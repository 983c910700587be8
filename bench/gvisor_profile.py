"""Where gVisor's kernel (the Sentry) spends a forked test's time: its Go CPU profile while a process
with the warm interpreter's imports (sandbox/harness/zygote.py WARM, then gc.freeze, as warm_up does)
forks N children that each run a trivial program and exit (docs/benchmarks.md "Where a gVisor test's
time goes"). `runsc --profile --profile-cpu=FILE do` of the host's root filesystem, read-only; the
profile's functions are printed flat and cumulative, with the host CPU of the whole runsc tree. Then,
in a second sandbox without the profile, how gVisor breaks copy-on-write: the cost of a fork whose
child writes 32 pages within 2 MB against 32 pages 2 MB apart. The pinned runsc of `make gvisor` (sandbox/runsc.py) where installed. `--profile`
loosens the Sentry's seccomp filter: a measurement, never a server's flag.

    python bench/gvisor_profile.py [--n 200] [--platform systrap] [--top 25]
"""
from __future__ import annotations

import argparse
import collections
import gzip
import json
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "sandbox" / "harness"))

from sandbox.runsc import find_runsc  # noqa: E402
from zygote import WARM  # noqa: E402

# Runs inside the sandbox: {measure: ms per fork}, as JSON on stdout.
INSIDE = r'''
import gc, importlib, json, os, sys, time
n, mode, warm = int(sys.argv[1]), sys.argv[2], sys.argv[3].split(",")
for name in warm:
    try:
        importlib.import_module(name)
    except ImportError:
        pass
gc.collect(); gc.freeze()
def per(child, k=n):
    t0 = time.perf_counter()
    for _ in range(k):
        pid = os.fork()
        if pid == 0:
            child()
            os._exit(0)
        os.waitpid(pid, 0)
    return (time.perf_counter() - t0) / k * 1e3
def program():
    exec(compile("import sys\nfrom typing import List\nx = sys.stdin", "/p.py", "exec", dont_inherit=True), {"__name__": "__main__"})
    gc.collect()
if mode == "program":
    print(json.dumps({"fork of the warm process, a trivial program, exit": per(program)}))
    sys.exit(0)
big = bytearray(64 << 20)
for i in range(0, len(big), 4096):
    big[i] = 1
def writes(stride):
    def child():
        for j in range(32):
            big[j * stride] = 2
    return child
k = max(5, n // 10)
print(json.dumps({"fork, the child writes 32 pages within 2 MB": per(writes(4096), k),
                  "fork, the child writes 32 pages 2 MB apart": per(writes(2 << 20), k)}))
'''


def varint(b: bytes, i: int) -> tuple[int, int]:
    r = s = 0
    while True:
        x = b[i]
        i += 1
        r |= (x & 0x7F) << s
        s += 7
        if x < 0x80:
            return r, i


def fields(b: bytes) -> list[tuple[int, int, object]]:
    """One protobuf message's (field, wire type, value) in order (varint, 64-bit, bytes, 32-bit)."""
    out: list[tuple[int, int, object]] = []
    i = 0
    while i < len(b):
        k, i = varint(b, i)
        f, t = k >> 3, k & 7
        if t == 0:
            v, i = varint(b, i)
            out.append((f, t, v))
        elif t == 2:
            size, i = varint(b, i)
            out.append((f, t, b[i:i + size]))
            i += size
        else:
            size = 8 if t == 1 else 4
            out.append((f, t, b[i:i + size]))
            i += size
    return out


def ints(t: int, v: object) -> list[int]:
    """A repeated integer field, packed or not."""
    if t == 0:
        return [v]  # type: ignore[list-item]
    out, i = [], 0
    assert isinstance(v, bytes)
    while i < len(v):
        x, i = varint(v, i)
        out.append(x)
    return out


def profile_top(path: str) -> tuple[float, collections.Counter, collections.Counter]:
    """A pprof file (gzipped profile.proto): total seconds, flat and cumulative seconds by function."""
    strings: list[str] = []
    samples: list[tuple[list[int], list[int]]] = []
    locations: dict[int, list[int]] = {}
    functions: dict[int, int] = {}
    for f, t, v in fields(gzip.decompress(Path(path).read_bytes())):
        if f == 6 and isinstance(v, bytes):
            strings.append(v.decode(errors="replace"))
        elif f == 2 and isinstance(v, bytes):
            locs: list[int] = []
            vals: list[int] = []
            for g, tt, w in fields(v):
                (locs if g == 1 else vals if g == 2 else []).extend(ints(tt, w))
            samples.append((locs, vals))
        elif f == 4 and isinstance(v, bytes):
            lid, fns = 0, []
            for g, _, w in fields(v):
                if g == 1:
                    lid = w  # type: ignore[assignment]
                elif g == 4 and isinstance(w, bytes):
                    fns += [x for h, _, x in fields(w) if h == 1]
            locations[lid] = fns  # type: ignore[assignment]
        elif f == 5 and isinstance(v, bytes):
            parts = {g: w for g, _, w in fields(v)}
            functions[parts.get(1, 0)] = parts.get(2, 0)  # type: ignore[index,assignment]
    flat: collections.Counter = collections.Counter()
    cum: collections.Counter = collections.Counter()
    total = 0
    for locs, vals in samples:
        total += vals[-1]
        names = [strings[functions[fid]] for loc in locs for fid in locations.get(loc, [])]
        if names:
            flat[names[0]] += vals[-1]
        for name in set(names):
            cum[name] += vals[-1]
    return total / 1e9, flat, cum


def inside(runsc: str, platform: str, root: str, flags: list[str], n: int, mode: str) -> dict[str, float]:
    """One `runsc do` of INSIDE: its {measure: ms per fork}."""
    argv = [runsc, "--rootless", "--network=none", "--ignore-cgroups", f"--platform={platform}", f"--root={root}",
            *flags, "do", "/usr/bin/python3", "-I", "-c", INSIDE, str(n), mode, ",".join(WARM)]
    out = subprocess.run(argv, capture_output=True, text=True, timeout=900, cwd=root)
    if out.returncode:
        sys.exit(f"{mode}: exit {out.returncode}: {out.stderr[-500:]}")
    return json.loads(out.stdout)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=200)
    ap.add_argument("--platform", default="systrap")
    ap.add_argument("--top", type=int, default=25)
    args = ap.parse_args()
    runsc = find_runsc()
    version = subprocess.run([runsc, "--version"], capture_output=True, text=True).stdout.split("\n")[0]
    loads = [os.getloadavg()[0]]
    with tempfile.TemporaryDirectory(prefix="grpo-gvisor-profile-") as root:
        prof = os.path.join(root, "cpu.prof")
        ru0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        program = inside(runsc, args.platform, root, ["--profile", f"--profile-cpu={prof}"], args.n, "program")
        ru1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        total, flat, cum = profile_top(prof)
    loads.append(os.getloadavg()[0])
    with tempfile.TemporaryDirectory(prefix="grpo-gvisor-profile-") as root:
        cow = inside(runsc, args.platform, root, [], args.n, "cow")
    loads.append(os.getloadavg()[0])
    host = (ru1.ru_utime - ru0.ru_utime) + (ru1.ru_stime - ru0.ru_stime)
    print(f"{version}, {args.platform}, {args.n} forks; load average {min(loads):.2f}-{max(loads):.2f}")
    for what, ms in {**program, **cow}.items():
        print(f"  {what}: {ms:.1f} ms")
    print(f"  host CPU of the runsc tree: {host:.2f} s, {host / args.n * 1e3:.1f} ms a fork (user {ru1.ru_utime - ru0.ru_utime:.2f}, "
          f"system {ru1.ru_stime - ru0.ru_stime:.2f}); the Sentry's profile: {total:.2f} s")
    for title, counts in (("flat", flat), ("cumulative", cum)):
        print(f"  the Sentry's CPU, {title}:")
        for name, v in counts.most_common(args.top):
            print(f"    {v / 1e9 / total * 100:5.1f}%  {name}")


if __name__ == "__main__":
    main()

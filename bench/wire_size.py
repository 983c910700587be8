"""What a GRPO group of code completions costs on the wire, with and without test sets.

A group is G completions of one problem with the same tests (docs/service.md "The service": test sets). Before
test sets every task carried its own copy; now the client sends each distinct list once per call.
Prints the serialized request bytes, the client's time to build the request, and the server's time
to accept it (parse + validate + the dicts the engine takes, in process: what a Grade call does
before any grading), then one real Grade call over loopback to a server without sandboxes.

Usage: python bench/wire_size.py [--group 64] [--tests 100] [--mb 10]
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sandbox.contract import Limits, parse_task  # noqa: E402
from verifier.schema import (default_languages, protos_with_test_sets, server_limits,  # noqa: E402
                             task_to_proto, validate_tasks)
from verifier.config import ServerConfig  # noqa: E402
from verifier.v1 import verifier_pb2 as pb  # noqa: E402


def group(n: int, tests: int, mb: float) -> list[dict]:
    """n completions of one problem; its tests hold `mb` megabytes (half stdin, half expected output).
    Each row gets its own equal copy of the tests, as a trainer's rows do."""
    half = int(mb * 1e6 / tests / 2)
    row = [{"stdin": f"{j} " + "7" * (half - 3) + "\n", "expected_stdout": f"{j} " + "9" * (half - 3) + "\n"}
           for j in range(tests)]
    return [{"id": f"c{i}", "kind": "code", "language": "python", "completion": f"```python\nprint({i})\n```",
             "tests": [{k: "".join(v) for k, v in t.items()} for t in row]} for i in range(n)]


def accept(data: bytes, limits: Limits) -> tuple[float, int]:
    """Seconds the server spends on a request before grading: parse and validate into the models the
    engine takes."""
    t0 = time.perf_counter()
    request = pb.GradeRequest.FromString(data)
    models = validate_tasks(request.tasks, limits, request.test_sets)
    return time.perf_counter() - t0, len(models)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--group", type=int, default=64, help="completions per group")
    ap.add_argument("--tests", type=int, default=100, help="tests of the problem")
    ap.add_argument("--mb", type=float, default=10.0, help="megabytes of tests")
    ap.add_argument("--no-server", action="store_true", help="skip the real Grade call over loopback")
    args = ap.parse_args()
    config = ServerConfig(max_request_bytes=(2 << 30) - 1)  # in process: accept the inline request too, to time it
    limits = server_limits(config, default_languages())
    tasks = group(args.group, args.tests, args.mb)
    print(f"group: {args.group} completions, {args.tests} tests, {args.mb:g} MB of tests; "
          f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")

    t0 = time.perf_counter()
    before = pb.GradeRequest(tasks=[task_to_proto(t, f"tasks[{i}]") for i, t in enumerate(tasks)])
    before_data = before.SerializeToString()
    build_before = time.perf_counter() - t0
    t0 = time.perf_counter()
    protos, sets = protos_with_test_sets([parse_task(t) for t in tasks])
    after_data = pb.GradeRequest(tasks=protos, test_sets=sets).SerializeToString()
    build_after = time.perf_counter() - t0
    del before

    accept_before, n1 = accept(before_data, limits)
    accept_after, n2 = accept(after_data, limits)
    assert n1 == n2 == args.group
    mib = 1 << 20
    calls = -(-len(before_data) // int(ServerConfig().max_request_bytes * 0.9))
    print(f"request bytes: inline tests {len(before_data) / mib:.1f} MiB (over the default "
          f"{ServerConfig().max_request_bytes / mib:.0f} MiB limit: {calls} calls) | test sets "
          f"{len(after_data) / mib:.2f} MiB ({len(sets)} set) | {len(before_data) / len(after_data):.0f}x smaller")
    print(f"client build: inline {build_before:.2f} s | test sets {build_after:.2f} s")
    print(f"server accept (parse + validate into models): inline {accept_before:.2f} s | test sets "
          f"{accept_after:.3f} s | {accept_before / accept_after:.0f}x faster")
    if not args.no_server:
        loopback(tasks)


def loopback(tasks: list[dict]) -> None:
    """One Grade call through the client to a real server without sandboxes (code: infra_error)."""
    from verifier.client import ClientConfig, VerifierClient
    from verifier.local_server import LocalServer

    server = LocalServer("--workers", "1", "--no-code")
    try:
        with VerifierClient(server.target, ClientConfig(max_retries=0)) as client:
            client.server_info()
            t0 = time.perf_counter()
            results = client.grade(tasks)
            dt = time.perf_counter() - t0
        assert len(results) == len(tasks)
        print(f"loopback Grade of the group (client build + send + server accept + answers): {dt:.2f} s")
    finally:
        server.kill()


if __name__ == "__main__":
    main()

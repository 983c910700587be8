"""Client-side balancing over real replicas on loopback addresses (127.0.0.1-3)."""

from __future__ import annotations

import threading
import time

from helpers import math_task, unique_batch
from verifier.client import ClientConfig, VerifierClient


def _replicas(server_factory, n: int, *flags: str) -> list:
    return [server_factory("--workers", "1", "--no-code", *flags, host=f"127.0.0.{i + 1}") for i in range(n)]


def test_load_spreads_over_all_replicas(server_factory):
    replicas = _replicas(server_factory, 3)
    with VerifierClient(",".join(r.target for r in replicas)) as client:
        for i in range(12):
            assert client.grade([math_task(f"x{i}", "\\boxed{2}", "2")])[0]["verdict"] == "correct"
    counts = [r.metric("verifier_items_total", kind="math") for r in replicas]
    assert all(c >= 1 for c in counts), counts
    assert sum(counts) == 12


def test_replica_killed_mid_batch_loses_and_doubles_nothing(server_factory):
    replicas = _replicas(server_factory, 3, "--max-tasks-per-call", "50")
    tasks = unique_batch(900, "b")
    box: dict = {}
    client = VerifierClient(",".join(r.target for r in replicas), ClientConfig(timeout_s=240, max_inflight_calls=6))
    thread = threading.Thread(target=lambda: box.update(report=client.grade_detailed(tasks)))
    thread.start()
    victim = replicas[1]
    while victim.metric("verifier_items_total", kind="math") < 10:  # it is mid-batch
        time.sleep(0.01)
    victim.kill()
    thread.join(300)
    client.close()
    report = box["report"]
    assert [r["id"] for r in report.results] == [t["id"] for t in tasks]  # each once, in order
    assert {r["verdict"] for r in report.results} == {"correct"}
    assert report.retries >= 1 and report.ungraded == 0
    survivors = sum(r.metric("verifier_items_total", kind="math") for r in (replicas[0], replicas[2]))
    assert survivors >= 900 - 50 * 6  # the survivors took over what the victim lost

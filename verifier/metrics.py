"""Prometheus metrics of the service, on their own port and registry.

Names follow Prometheus conventions: `verifier_` prefix, base units, `_total` for counters, and no
per-request or per-item labels (their cardinality would be unbounded).
"""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, start_http_server

_LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300)


class Metrics:
    """All service metrics, in a registry of their own (tests can run several servers per process)."""

    def __init__(self) -> None:
        r = self.registry = CollectorRegistry()
        self.items = Counter("verifier_items", "Items graded, by kind and verdict.", ["kind", "verdict"], registry=r)
        self.queue_seconds = Histogram("verifier_item_queue_seconds", "Seconds an item waited for a worker or sandbox.",
                                       ["kind"], buckets=_LATENCY_BUCKETS, registry=r)
        self.exec_seconds = Histogram("verifier_item_exec_seconds", "Seconds spent grading an item.",
                                      ["kind"], buckets=_LATENCY_BUCKETS, registry=r)
        self.queue_items = Gauge("verifier_queue_items", "Items admitted and waiting for a worker or sandbox.", ["kind"], registry=r)
        self.inflight_items = Gauge("verifier_inflight_items", "Items being graded now.", ["kind"], registry=r)
        self.worker_restarts = Counter("verifier_worker_restarts", "Math workers replaced, by reason.", ["reason"], registry=r)
        self.rejections = Counter("verifier_rejections", "Calls refused, by reason.", ["reason"], registry=r)
        self.dedup_hits = Counter("verifier_dedup_hits", "Items answered from an identical item of their call (math: same gold and answer; code: same program, tests and limits).",
                                  ["kind"], registry=r)
        self.rpcs = Counter("verifier_rpcs", "Calls handled, by method and gRPC status code.", ["method", "code"], registry=r)
        self.http_requests = Counter("verifier_http_requests", "HTTP/JSON requests handled, by route and status code.",
                                     ["route", "code"], registry=r)
        self.batch_items = Histogram("verifier_batch_items", "Tasks per call.",
                                     buckets=(1, 4, 16, 64, 256, 1024, 4096), registry=r)
        self.test_sets = Counter("verifier_test_sets", "Test sets received (GradeRequest.test_sets: each sent once per call "
                                 "however many tasks name it).", registry=r)
        self.request_bytes = Histogram("verifier_request_bytes", "Bytes of each Grade/GradeStream request.",
                                       buckets=tuple(4 ** k for k in range(5, 15)), registry=r)
        self.build_info = Gauge("verifier_build_info", "Versions of the service and its graders.",
                                ["version", "math_verify", "sympy"], registry=r)
        self.sessions = Gauge("verifier_sessions", "Sessions open now (docs/sessions.md \"Sessions\").", registry=r)
        self.cells = Counter("verifier_session_cells", "Session cells run, by status.", ["status"], registry=r)
        self.cell_seconds = Histogram("verifier_session_cell_seconds", "Seconds a session cell took, as the server saw it.",
                                      buckets=_LATENCY_BUCKETS, registry=r)
        for kind in ("math", "code"):
            self.queue_items.labels(kind).set(0)
            self.inflight_items.labels(kind).set(0)

    def serve(self, host: str, port: int):
        """Expose /metrics over HTTP; returns the server so it can be shut down."""
        server, _thread = start_http_server(port, addr=host, registry=self.registry)
        return server

#!/usr/bin/env python3
"""gRPC health probe for the container HEALTHCHECK (compose, plain docker).

Kubernetes uses its native `grpc:` probes instead; this script exists because the usual Go
`grpc_health_probe` binary cannot be fetched offline, and grpcio is in the image anyway.
Exit 0 when the named health service is SERVING, 1 otherwise (Docker's convention).

Reads the same environment as `verifier serve`: VERIFIER_PORT, VERIFIER_TOKEN or
VERIFIER_TOKEN_FILE (sent as a bearer token in case the server checks it on health calls),
VERIFIER_TLS_CERT (the server's own certificate, trusted as the root for the probe).
"""

from __future__ import annotations

import argparse
import os
import sys

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc


def _token() -> str:
    """The bearer token the server expects, or "" when it runs without one."""
    path = os.environ.get("VERIFIER_TOKEN_FILE", "")
    if path and os.path.isfile(path):
        with open(path, encoding="utf-8") as f:
            return f.read(4096).strip()
    return os.environ.get("VERIFIER_TOKEN", "")


def _channel(target: str) -> grpc.Channel:
    """Plaintext unless the server runs TLS; then trust its own certificate for localhost."""
    cert = os.environ.get("VERIFIER_TLS_CERT", "")
    if not cert:
        return grpc.insecure_channel(target)
    with open(cert, "rb") as f:
        creds = grpc.ssl_channel_credentials(root_certificates=f.read())
    return grpc.secure_channel(target, creds, options=[("grpc.ssl_target_name_override", "localhost")])


def check(target: str, service: str, timeout_s: float) -> bool:
    """True when `service` reports SERVING at `target` within `timeout_s`."""
    token = _token()
    metadata = (("authorization", f"Bearer {token}"),) if token else None
    with _channel(target) as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        try:
            reply = stub.Check(health_pb2.HealthCheckRequest(service=service), timeout=timeout_s, metadata=metadata)
        except grpc.RpcError as err:
            print(f"health {service or '<process>'}: {err.code().name}", file=sys.stderr)
            return False
    ok = reply.status == health_pb2.HealthCheckResponse.SERVING
    if not ok:
        print(f"health {service or '<process>'}: {health_pb2.HealthCheckResponse.ServingStatus.Name(reply.status)}", file=sys.stderr)
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", default=f"127.0.0.1:{os.environ.get('VERIFIER_PORT', '50051')}")
    parser.add_argument("--service", default="verifier.v1.Verifier", help='"" checks only that the process answers')
    parser.add_argument("--timeout-s", type=float, default=3.0)
    args = parser.parse_args(argv)
    return 0 if check(args.target, args.service, args.timeout_s) else 1


if __name__ == "__main__":
    sys.exit(main())

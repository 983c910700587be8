"""A small JSON-over-HTTP caller for the adapters: bearer token, TLS, bounded retries.

Settings come from the environment, so a framework that loads the adapter by path or by module
name needs no code of ours in its launch script:

- ``VERIFIER_HTTP_URL``: base URL of the service's HTTP/JSON port (default ``http://127.0.0.1:8080``).
- ``VERIFIER_TOKEN`` or ``VERIFIER_TOKEN_FILE``: the bearer token, when the server requires one.
- ``VERIFIER_CA_CERT``: PEM file to trust for an ``https://`` URL with a private CA.
- ``VERIFIER_TIMEOUT_S``: total budget of one call, retries included (default 600).
"""

from __future__ import annotations

import json
import os
import random
import ssl
import time
import urllib.error
import urllib.request
from typing import Any

RETRYABLE = {429, 502, 503, 504}


def base_url() -> str:
    return os.environ.get("VERIFIER_HTTP_URL", "http://127.0.0.1:8080").rstrip("/")


def _token() -> str:
    if os.environ.get("VERIFIER_TOKEN"):
        return os.environ["VERIFIER_TOKEN"]
    path = os.environ.get("VERIFIER_TOKEN_FILE")
    if path:
        with open(path, encoding="utf-8") as fh:
            return fh.read().strip()
    return ""


def post_json(path: str, body: Any, timeout_s: float | None = None) -> Any:
    """POST `body` to base_url() + path; retries 429/5xx and refused connections (honouring
    Retry-After) until the budget is spent, then raises. A 4xx other than 429 raises at once:
    retrying a bad request cannot help."""
    budget = timeout_s if timeout_s is not None else float(os.environ.get("VERIFIER_TIMEOUT_S", "600"))
    deadline = time.monotonic() + budget
    headers = {"Content-Type": "application/json"}
    token = _token()
    if token:
        headers["Authorization"] = f"Bearer {token}"
    cafile = os.environ.get("VERIFIER_CA_CERT") or None
    context = ssl.create_default_context(cafile=cafile) if base_url().startswith("https:") else None
    data = json.dumps(body).encode()
    delay = 0.5
    while True:
        wait = delay * (0.5 + random.random())
        try:
            req = urllib.request.Request(base_url() + path, data=data, headers=headers)
            remaining = max(1.0, deadline - time.monotonic())
            with urllib.request.urlopen(req, timeout=remaining, context=context) as resp:
                return json.loads(resp.read())
        except urllib.error.HTTPError as e:
            detail = e.read().decode("utf-8", "replace")[:500]
            if e.code not in RETRYABLE:
                raise RuntimeError(f"verifier {path}: HTTP {e.code}: {detail}") from None
            retry_after = e.headers.get("Retry-After", "")
            wait = float(retry_after) if retry_after.isdigit() else wait
            error = f"HTTP {e.code}: {detail}"
        except (urllib.error.URLError, OSError) as e:  # refused, reset, timed out
            error = str(e)
        if time.monotonic() + wait > deadline:
            raise RuntimeError(f"verifier {path}: gave up after {budget:.0f} s: {error}")
        time.sleep(wait)
        delay = min(delay * 2, 10.0)

#!/usr/bin/env bash
# promtool (Debian's prometheus package) for tests/test_deploy_observability.py, which parses the
# alert rules and dashboard queries and unit-tests the alerts with it. Only the promtool binary is
# taken out of the .deb into DEST (default .venv/bin): installing the package would also start a
# Prometheus server on hosts with systemd, on the port our metrics use. Does nothing when promtool exists.
set -euo pipefail

DEST="${1:-.venv/bin}"
if command -v promtool >/dev/null 2>&1 || [ -x "$DEST/promtool" ]; then
    exit 0
fi

echo "ensure_promtool: extracting promtool from Debian's prometheus package into $DEST" >&2
mkdir -p "$DEST"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(cd "$work" && { apt-get download prometheus >/dev/null 2>&1 || { apt-get update -q >/dev/null && apt-get download prometheus >/dev/null; }; })
dpkg-deb -x "$work"/prometheus_*.deb "$work/root"
install -m 0755 "$work/root/usr/bin/promtool" "$DEST/promtool"
"$DEST/promtool" --version 2>&1 | head -n 1 >&2

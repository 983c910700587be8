#!/usr/bin/env bash
# Make sure a headless browser exists for the report test (tests/test_report_browser.py renders
# `verifier report` output in it). Fresh machines of our kind have only Python and apt: install
# Debian's chromium when /usr/bin/chromium is missing; do nothing otherwise.
set -euo pipefail

CHROMIUM="${CHROMIUM:-/usr/bin/chromium}"
if [ -x "$CHROMIUM" ]; then
    exit 0
fi

echo "ensure_chromium: installing chromium from Debian (headless browser for the report test)" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get install -y -q --no-install-recommends chromium >/dev/null 2>&1 \
    || { apt-get update -q >/dev/null && apt-get install -y -q --no-install-recommends chromium >/dev/null; }
# Fonts: without any, text renders as boxes in screenshots.
apt-get install -y -q --no-install-recommends fonts-dejavu-core >/dev/null 2>&1 || true
"$CHROMIUM" --version >&2

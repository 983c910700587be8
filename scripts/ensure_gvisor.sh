#!/usr/bin/env bash
# Register gVisor's runsc as a Docker runtime (not the default), so sandboxes can opt into it with
# `--sandbox-runtime runsc` and the gVisor test runs. Installs Debian's `runsc` when missing and
# reloads a running dockerd with SIGHUP (runtimes are reloadable: running containers are untouched).
# runsc's own networking must be off (`--network=none`): the sandboxes have no network anyway, and
# runsc refuses to start in the root network namespace otherwise (deploy/gvisor.md).
#
# It also installs a pinned newer runsc (Debian trixie's, a static binary with the systrap platform;
# bookworm's has only ptrace and kvm) at sandbox/runsc.py PINNED, beside Debian's: one package by exact
# version, fetched by its pool path from the Debian mirror this host's apt sources name (the system's
# sources stay as they are), checked against its pinned sha256. The gVisor backend prefers it. Docker's
# runtime is registered with Debian's runsc (its suites have not run on the pinned one yet: RUNSC_FOR_DOCKER=pinned
# registers that) and the platform sandbox/runsc.py's `auto` takes for it (docs/sandboxes.md "gVisor's platform").
# GVISOR_PLATFORM=ptrace|systrap|kvm names one instead; DAEMON_JSON another daemon config (tests).
set -euo pipefail

CONF=${DAEMON_JSON:-/etc/docker/daemon.json}
RUNSC_VERSION=0.0~20240729.0  # sandbox/runsc.py PINNED_VERSION
RUNSC_DEB=pool/main/g/golang-gvisor-gvisor/runsc_0.0~20240729.0-4+b7_amd64.deb
RUNSC_SHA256=3c25a5130dfac2f71237d5baad56ac86a255de87a0400f11b36a555156dc325a
PINNED=/usr/local/lib/grpo-verifier/runsc/$RUNSC_VERSION/runsc
HERE=$(cd "$(dirname "$0")/.." && pwd)

if ! command -v runsc >/dev/null 2>&1; then
    echo "ensure_gvisor: installing runsc from Debian" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -q runsc >/dev/null 2>&1 || { apt-get update -q >/dev/null && apt-get install -y -q runsc >/dev/null; }
fi

# The Debian mirror of this host's apt sources (deb822 URIs: or one-line deb entries), the first one.
mirror() {
    { grep -hs '^URIs:' /etc/apt/sources.list.d/*.sources || true
      grep -hs '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list || true; } \
        | awk '$1 == "URIs:" {print $2} $1 == "deb" {print ($2 ~ /^\[/ ? $3 : $2)}' | grep -v -- '-security' | head -1
}

if [ "$(uname -m)" = x86_64 ] && [ ! -x "$PINNED" ]; then
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    url="$(mirror)/$RUNSC_DEB"
    echo "ensure_gvisor: installing runsc $RUNSC_VERSION (pinned) at $PINNED" >&2
    if curl -fsSL --retry 2 -o "$tmp/runsc.deb" "$url" \
            && echo "$RUNSC_SHA256  $tmp/runsc.deb" | sha256sum -c --quiet -; then
        dpkg-deb -x "$tmp/runsc.deb" "$tmp/x"
        install -D -m 0755 "$tmp/x/usr/bin/runsc" "$PINNED.new" && mv "$PINNED.new" "$PINNED"
    else
        echo "ensure_gvisor: the pinned runsc could not be had ($RUNSC_DEB): Debian's runsc serves (ptrace)" >&2
    fi
fi

RUNSC=$(command -v runsc)
[ "${RUNSC_FOR_DOCKER:-debian}" = pinned ] && [ -x "$PINNED" ] && RUNSC=$PINNED
PLATFORM=${GVISOR_PLATFORM:-$(cd "$HERE" && python3 -m sandbox.runsc "$RUNSC" auto)}
"$RUNSC" help platforms | grep -x "$PLATFORM" >/dev/null || { echo "ensure_gvisor: $RUNSC has no platform $PLATFORM" >&2; exit 1; }

python3 - "$CONF" "$RUNSC" "$PLATFORM" <<'PY'
import json, os, sys
path, runsc, platform = sys.argv[1], sys.argv[2], sys.argv[3]
conf = json.load(open(path)) if os.path.exists(path) else {}
want = {"path": runsc, "runtimeArgs": ["--network=none", f"--platform={platform}"]}
if conf.get("runtimes", {}).get("runsc") != want:
    conf.setdefault("runtimes", {})["runsc"] = want
    os.makedirs(os.path.dirname(path), exist_ok=True)
    json.dump(conf, open(path, "w"), indent=2)
    print(f"ensure_gvisor: registered runsc in {path} ({runsc}, platform {platform})", file=sys.stderr)
PY

if [ -z "${DAEMON_JSON:-}" ] && pid=$(pgrep -x dockerd); then
    kill -HUP $pid
    for _ in $(seq 1 20); do
        docker info 2>/dev/null | grep -q "Runtimes:.*runsc" && exit 0
        sleep 0.25
    done
    echo "ensure_gvisor: dockerd did not pick up the runsc runtime" >&2
    exit 1
fi

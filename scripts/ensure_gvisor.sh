#!/usr/bin/env bash
# Register gVisor's runsc as a Docker runtime (not the default), so sandboxes can opt into it with
# `--sandbox-runtime runsc` and the gVisor test runs. Installs Debian's `runsc` when missing and
# reloads a running dockerd with SIGHUP (runtimes are reloadable: running containers are untouched).
# runsc's own networking must be off (`--network=none`): the sandboxes have no network anyway, and
# runsc refuses to start in the root network namespace otherwise (deploy/gvisor.md).
set -euo pipefail

CONF=/etc/docker/daemon.json

if ! command -v runsc >/dev/null 2>&1; then
    echo "ensure_gvisor: installing runsc from Debian" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -q runsc >/dev/null 2>&1 || { apt-get update -q >/dev/null && apt-get install -y -q runsc >/dev/null; }
fi

python3 - "$CONF" "$(command -v runsc)" <<'PY'
import json, os, sys
path, runsc = sys.argv[1], sys.argv[2]
conf = json.load(open(path)) if os.path.exists(path) else {}
want = {"path": runsc, "runtimeArgs": ["--network=none"]}
if conf.get("runtimes", {}).get("runsc") != want:
    conf.setdefault("runtimes", {})["runsc"] = want
    os.makedirs(os.path.dirname(path), exist_ok=True)
    json.dump(conf, open(path, "w"), indent=2)
    print(f"ensure_gvisor: registered runsc in {path}", file=sys.stderr)
PY

if pid=$(pgrep -x dockerd); then
    kill -HUP $pid
    for _ in $(seq 1 20); do
        docker info 2>/dev/null | grep -q "Runtimes:.*runsc" && exit 0
        sleep 0.25
    done
    echo "ensure_gvisor: dockerd did not pick up the runsc runtime" >&2
    exit 1
fi

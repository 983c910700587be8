#!/usr/bin/env bash
# Debian's bubblewrap (`bwrap`) for the userns backend (sandbox/userns.py): it makes each sandbox's
# pid, ipc, uts and net namespaces, its read-only root and its seccomp filter inside the user
# namespace the server maps (docs/sandboxes.md "Sandbox backends"). Installs it when missing.
set -euo pipefail

if ! command -v bwrap >/dev/null 2>&1; then
    echo "ensure_bubblewrap: installing bubblewrap from Debian" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -q bubblewrap >/dev/null 2>&1 || { apt-get update -q >/dev/null && apt-get install -y -q bubblewrap >/dev/null; }
fi
bwrap --version >/dev/null

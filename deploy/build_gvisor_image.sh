#!/usr/bin/env bash
# The server image for the gVisor backend, offline: `make image`'s image plus the sandboxes' root
# filesystems (`verifier sandbox build --rootfs`) and the host's runsc (Debian's package, a static
# binary). Usage: deploy/build_gvisor_image.sh [SERVER_TAG [LANG...]]  -> SERVER_TAG-gvisor
set -euo pipefail
cd "$(dirname "$0")/.."
SERVER="${1:-grpo-verifier:dev}"
shift || true
ctx="$(mktemp -d)"
trap 'rm -rf "$ctx"' EXIT
.venv/bin/verifier sandbox build --rootfs "$ctx/rootfs" "$@" >&2
install -m 0755 "$(command -v runsc)" "$ctx/runsc"
cp deploy/gvisor-image.Dockerfile "$ctx/Dockerfile"
t0=$(date +%s)
tar -C "$ctx" -c . | docker build -q -f Dockerfile --build-arg "SERVER=$SERVER" -t "$SERVER-gvisor" - >/dev/null
size="$(docker image inspect "$SERVER-gvisor" --format '{{.Size}}')"
echo "image $SERVER-gvisor size_mb $((size / 1048576)) rootfs_mb $(du -sm "$ctx/rootfs" | cut -f1) build_s $(( $(date +%s) - t0 ))"

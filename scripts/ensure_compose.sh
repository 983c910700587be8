#!/usr/bin/env bash
# Make sure a compose tool runs deploy/compose.yaml as a user would (docs/deploy.md "Deploy", One
# host): the `docker compose` plugin where present, else Debian's `docker-compose` (the plugin is
# not in Debian's docker.io), installed when missing. tests/test_deploy_compose.py runs it.
set -euo pipefail

if docker compose version >/dev/null 2>&1 || command -v docker-compose >/dev/null 2>&1; then
    exit 0
fi
echo "ensure_compose: installing docker-compose from Debian" >&2
export DEBIAN_FRONTEND=noninteractive
APT=(apt-get -o DPkg::Lock::Timeout=600)  # other setup steps may be installing at the same time
"${APT[@]}" install -y -q docker-compose >/dev/null 2>&1 || { "${APT[@]}" update -q >/dev/null && "${APT[@]}" install -y -q docker-compose >/dev/null; }
docker-compose version >/dev/null

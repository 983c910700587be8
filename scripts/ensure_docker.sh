#!/usr/bin/env bash
# Make sure a Docker daemon answers, so the sandbox can run code, and that debootstrap exists, so
# its images can be built offline. Fresh machines of our kind have neither: install Debian's
# docker.io and debootstrap when missing, start dockerd in the background (log: /tmp/dockerd.log)
# and wait, bounded, until it answers.
set -euo pipefail

apt_install() {
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -q "$@" >/dev/null 2>&1 || { apt-get update -q >/dev/null && apt-get install -y -q "$@" >/dev/null; }
}

if ! command -v debootstrap >/dev/null 2>&1; then
    echo "ensure_docker: installing debootstrap from Debian (offline image builds)" >&2
    apt_install debootstrap
fi

WAIT_S="${DOCKER_WAIT_S:-60}"
LOG="${DOCKERD_LOG:-/tmp/dockerd.log}"

if docker info >/dev/null 2>&1; then
    exit 0
fi

if ! command -v dockerd >/dev/null 2>&1; then
    echo "ensure_docker: installing docker.io from Debian" >&2
    apt_install docker.io
fi

if ! pgrep -x dockerd >/dev/null 2>&1; then
    echo "ensure_docker: starting dockerd (log: $LOG)" >&2
    # setsid: the daemon must outlive this script and the make/CI step that ran it.
    setsid dockerd --storage-driver=overlay2 >"$LOG" 2>&1 < /dev/null &
fi

for _ in $(seq 1 "$((WAIT_S * 2))"); do
    if docker info >/dev/null 2>&1; then
        echo "ensure_docker: daemon is up" >&2
        exit 0
    fi
    sleep 0.5
done
echo "ensure_docker: dockerd did not answer within ${WAIT_S}s; see $LOG" >&2
tail -n 20 "$LOG" >&2 || true
exit 1

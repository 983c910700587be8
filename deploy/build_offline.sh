#!/usr/bin/env bash
# Build the service image where no image registry is reachable (DESIGN.md section 5).
#
#   deploy/build_offline.sh                      # base rootfs from Debian packages (debootstrap)
#   deploy/build_offline.sh --base IMAGE         # any base with python3 + venv, e.g. python:3.11-slim-bookworm
#   deploy/build_offline.sh --tag NAME:TAG       # image name (default grpo-verifier:<version>)
#
# Steps: (1) debootstrap a minimal bookworm with python3, python3-venv, tini and CA certificates
# and `docker import` it as grpo-verifier-base:<hash of this recipe>, skipped when that tag
# exists; (2) `pip wheel` the project and its dependencies on the host into deploy/wheels (the
# host reaches PyPI, a build container may not); (3) `docker build --network none` from a tar of
# the git working tree, so .venv and other large ignored folders never enter the build context.
# Prints the image size and the seconds each step took.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
SUITE="${DEBIAN_SUITE:-bookworm}"
# The mirror: DEBIAN_MIRROR, else the machine's own apt source for the suite, else debootstrap's default.
MIRROR="${DEBIAN_MIRROR:-$(SANDBOX_DEBIAN_MIRROR= python3 "$ROOT/sandbox/apt_sources.py" "$SUITE")}"
PACKAGES="python3,python3-venv,tini,ca-certificates"
BASE=""
TAG=""
PY="${PYTHON:-$ROOT/.venv/bin/python}"
[ -x "$PY" ] || PY=python3

while [ $# -gt 0 ]; do
    case "$1" in
        --base) BASE="$2"; shift 2 ;;
        --tag) TAG="$2"; shift 2 ;;
        -h|--help) sed -n 2,13p "$0"; exit 0 ;;
        *) echo "build_offline: unknown argument $1" >&2; exit 2 ;;
    esac
done

VERSION="$(sed -n 's/^version = "\(.*\)"/\1/p' "$ROOT/pyproject.toml" | head -1)"
TAG="${TAG:-grpo-verifier:${VERSION:-dev}}"
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

# (1) Base image from Debian packages, tagged by a hash of its recipe: an unchanged recipe is
# never rebuilt.
t0="$(now)"
NETWORK=default  # a registry base may still need apt for tini
if [ -z "$BASE" ]; then
    NETWORK=none
    recipe_hash="$(printf '%s|%s|%s|v1' "$SUITE" "$PACKAGES" "minbase" | sha256sum | cut -c1-12)"
    BASE="grpo-verifier-base:$recipe_hash"
    if ! docker image inspect "$BASE" >/dev/null 2>&1; then
        command -v debootstrap >/dev/null 2>&1 || apt-get install -y -q debootstrap >/dev/null
        rootfs="$(mktemp -d /tmp/verifier-rootfs.XXXXXX)"
        trap 'rm -rf "$rootfs"' EXIT
        echo "build_offline: debootstrap $SUITE ($PACKAGES)" >&2
        debootstrap --variant=minbase --include="$PACKAGES" "$SUITE" "$rootfs" ${MIRROR:+"$MIRROR"} >/tmp/verifier-debootstrap.log 2>&1 \
            || { tail -n 20 /tmp/verifier-debootstrap.log >&2; exit 1; }
        # What a running service never reads: package lists, caches, docs, man pages, locales.
        rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/* "$rootfs"/usr/share/doc/* \
               "$rootfs"/usr/share/man/* "$rootfs"/usr/share/locale/* "$rootfs"/var/log/*
        tar -C "$rootfs" -c . | docker import \
            -c 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8' \
            -m "debootstrap $SUITE minbase + $PACKAGES" - "$BASE" >/dev/null
        rm -rf "$rootfs"
        trap - EXIT
    fi
fi
t1="$(now)"

# (2) Every wheel the service needs, built or fetched on the host.
WHEELS="$ROOT/deploy/wheels"
rm -rf "$WHEELS"
mkdir -p "$WHEELS"
"$PY" -m pip wheel -q --wheel-dir "$WHEELS" "$ROOT[server]" 2>&1 | grep -v '^WARNING: Location' >&2 || true
ls "$WHEELS"/grpo_verifier-*.whl >/dev/null 2>&1 || { echo "build_offline: pip wheel failed" >&2; exit 1; }
t2="$(now)"

# (3) Build from a tar of tracked and untracked-but-not-ignored files plus the wheels;
# --no-recursion keeps ignored files out, the folder names keep empty folders COPY-able.
cd "$ROOT"
{
    git ls-files -z --cached --others --exclude-standard
    printf '%s\0' proto verifier sandbox trainer deploy deploy/wheels
    find deploy/wheels -name '*.whl' -print0
} | tar --null --no-recursion --ignore-failed-read -T - -c 2>/dev/null \
  | docker build --network "$NETWORK" -q -f deploy/Dockerfile --build-arg "BASE=$BASE" -t "$TAG" - >/dev/null
t3="$(now)"

size="$(docker image inspect "$TAG" --format '{{.Size}}')"
base_size="$(docker image inspect "$BASE" --format '{{.Size}}' 2>/dev/null || echo 0)"
echo "image $TAG base $BASE size_mb $((size / 1048576)) base_size_mb $((base_size / 1048576)) base_s $(secs "$t0" "$t1") wheels_s $(secs "$t1" "$t2") build_s $(secs "$t2" "$t3") total_s $(secs "$t0" "$t3")"

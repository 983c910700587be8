#!/usr/bin/env bash
# Build the service image (`make image`) where no image registry is reachable (DESIGN.md section 5).
# The image grades code by itself, with no Docker daemon: runsc and bubblewrap (Debian's packages) and the
# sandboxes' root filesystems are inside, and it serves with the gVisor backend by default
# (docs/deploy.md "Deploy"; deploy/k8s runs it in an unprivileged pod).
#
#   deploy/build_offline.sh                      # base rootfs from Debian packages (debootstrap)
#   deploy/build_offline.sh --base IMAGE         # any base with python3 + venv, e.g. python:3.11-slim-bookworm
#   deploy/build_offline.sh --tag NAME:TAG       # image name (default grpo-verifier:<version in pyproject.toml>)
#   deploy/build_offline.sh --languages python,c # the sandboxes it carries (default: every language)
#   deploy/build_offline.sh --source-hash        # print the hash of the sources an image is built from
#
# Steps: (1) debootstrap a minimal bookworm with python3, python3-venv, tini, runsc, bubblewrap and CA
# certificates and `docker import` it as grpo-verifier-base:<hash of this recipe>, skipped when
# that tag exists; (2) `verifier sandbox build` the languages' images (offline, instant when built)
# and copy each one's filesystem into a layer of grpo-verifier-sandboxes:<hash> at
# /opt/rootfs/<image>-<hash>, the folder names the gVisor backend looks for (one layer per
# language: an unchanged recipe is an unchanged layer); (3) `pip wheel` the project and its
# dependencies on the host into deploy/wheels (the host reaches PyPI, a build container may not);
# (4) `docker build --network none` of deploy/Dockerfile on top of (2), from a tar of the git
# working tree, so .venv and other large ignored folders never enter the build context.
# Prints the image's size, each root filesystem's, and the seconds each step took.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
SUITE="${DEBIAN_SUITE:-bookworm}"
# The mirror: DEBIAN_MIRROR, else the machine's own apt source for the suite, else debootstrap's default.
MIRROR="${DEBIAN_MIRROR:-$(SANDBOX_DEBIAN_MIRROR= python3 "$ROOT/sandbox/apt_sources.py" "$SUITE")}"
PACKAGES="python3,python3-venv,tini,runsc,bubblewrap,ca-certificates"
BASE=""
TAG=""
LANGS=""
PY="${PYTHON:-$ROOT/.venv/bin/python}"
[ -x "$PY" ] || PY=python3
export PYTHONPATH="$ROOT${PYTHONPATH:+:$PYTHONPATH}"  # this checkout's sandbox recipes and CLI

# The checkout's files that deploy/Dockerfile copies (tracked, and untracked but not ignored), by
# content: the image's label io.grpo-verifier.source, so a test can tell an image built from these
# very sources.
source_hash() {
    (cd "$ROOT" && git ls-files -z --cached --others --exclude-standard -- pyproject.toml README.md proto verifier \
        sandbox trainer deploy | sort -z \
        | xargs -0 sha256sum 2>/dev/null | sha256sum | cut -c1-16)
}

while [ $# -gt 0 ]; do
    case "$1" in
        --base) BASE="$2"; shift 2 ;;
        --tag) TAG="$2"; shift 2 ;;
        --languages) LANGS="${2//,/ }"; shift 2 ;;
        --source-hash) source_hash; exit 0 ;;
        -h|--help) sed -n 2,23p "$0"; exit 0 ;;
        *) echo "build_offline: unknown argument $1" >&2; exit 2 ;;
    esac
done

VERSION="$(sed -n 's/^version = "\(.*\)"/\1/p' "$ROOT/pyproject.toml" | head -1)"
TAG="${TAG:-grpo-verifier:${VERSION:-dev}}"
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
mb() { docker image inspect "$1" --format '{{.Size}}' | awk '{ printf "%d", $1 / 1048576 }'; }

# (1) Base image from Debian packages, tagged by a hash of its recipe: an unchanged recipe is
# never rebuilt.
t0="$(now)"
NETWORK=default  # a registry base may still need apt for tini, runsc and bubblewrap
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
        tar -C "$rootfs" --exclude=./proc/* --exclude=./sys/* --exclude=./dev/* -c . | docker import \
            -c 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8' \
            -m "debootstrap $SUITE minbase + $PACKAGES" - "$BASE" >/dev/null
        rm -rf "$rootfs"
        trap - EXIT
    fi
fi
t1="$(now)"

# (2) The sandboxes' root filesystems, one layer per language, from the images `verifier sandbox
# build` makes from the same recipes (no export to disk: COPY --from reads the local image).
# shellcheck disable=SC2086
TAGS="$("$PY" -m sandbox.cli build $LANGS)"
SANDBOXES="grpo-verifier-sandboxes:$(printf '%s\n%s\n' "$BASE" "$TAGS" | sha256sum | cut -c1-12)"
if ! docker image inspect "$SANDBOXES" >/dev/null 2>&1; then
    {
        echo "FROM $BASE"
        echo "$TAGS" | while read -r _lang tag; do
            echo "COPY --from=$tag / /opt/rootfs/$(echo "$tag" | tr ':/' '-_')/"
        done
    } | docker build --network none -q -t "$SANDBOXES" - >/dev/null
fi
# Older sandboxes layers (5 GB each, one per recipe change) go once the new one exists: a disk that
# fills stops every later build (docs/deploy.md "Deploy"). `docker rmi` only untags an image that
# another image still builds on, and refuses one a container uses.
docker image ls --format '{{.Repository}}:{{.Tag}}' grpo-verifier-sandboxes | grep -vxF "$SANDBOXES" \
    | xargs -r docker rmi >/dev/null 2>&1 || true
t2="$(now)"

# (3) Every wheel the service needs, built or fetched on the host.
WHEELS="$ROOT/deploy/wheels"
rm -rf "$WHEELS"
mkdir -p "$WHEELS"
"$PY" -m pip wheel -q --wheel-dir "$WHEELS" "$ROOT[server]" 2>&1 | grep -v '^WARNING: Location' >&2 || true
ls "$WHEELS"/grpo_verifier-*.whl >/dev/null 2>&1 || { echo "build_offline: pip wheel failed" >&2; exit 1; }
t3="$(now)"

# (4) Build from a tar of tracked and untracked-but-not-ignored files plus the wheels;
# --no-recursion keeps ignored files out, the folder names keep empty folders COPY-able.
cd "$ROOT"
OLD_ID="$(docker image inspect "$TAG" --format '{{.Id}}' 2>/dev/null || true)"
{
    git ls-files -z --cached --others --exclude-standard
    printf '%s\0' proto verifier sandbox trainer deploy deploy/wheels
    find deploy/wheels -name '*.whl' -print0
} | tar --null --no-recursion --ignore-failed-read -T - -c 2>/dev/null \
  | docker build --network "$NETWORK" -q -f deploy/Dockerfile --build-arg "BASE=$BASE" --build-arg "SANDBOXES=$SANDBOXES" \
      --build-arg "SOURCE=$(source_hash)" -t "$TAG" - >/dev/null
t4="$(now)"
# The image this tag named before, now untagged: removed unless a container still uses it.
NEW_ID="$(docker image inspect "$TAG" --format '{{.Id}}')"
[ -z "$OLD_ID" ] || [ "$OLD_ID" = "$NEW_ID" ] || docker rmi "$OLD_ID" >/dev/null 2>&1 || true

rootfs_mb="$(echo "$TAGS" | while read -r lang tag; do printf '%s_mb %s ' "$lang" "$(mb "$tag")"; done)"
echo "image $TAG size_mb $(mb "$TAG") base_size_mb $(mb "$BASE") rootfs: ${rootfs_mb}base_s $(secs "$t0" "$t1") rootfs_s $(secs "$t1" "$t2") wheels_s $(secs "$t2" "$t3") build_s $(secs "$t3" "$t4") total_s $(secs "$t0" "$t4")"

#!/usr/bin/env bash
# The Docker-in-Docker node image of the multi-node swarm test (scripts/dind-swarm.sh), built
# offline: a Debian root made with debootstrap from the Debian mirror (docker.io, iptables and the
# few tools dockerd needs), imported with `docker import`. No registry. Idempotent: an image already
# tagged is kept. Usage: scripts/provision-dind-node.sh [tag]   (as root; about a minute the first time)
set -euo pipefail
TAG=${1:-perf-gate/dind-node:local}
if docker image inspect "$TAG" >/dev/null 2>&1; then
  echo "[provision-dind-node] $TAG is here"
  exit 0
fi
HERE=$(cd "$(dirname "$0")" && pwd)
SUITE=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
MIRROR=${MIRROR:-http://deb.debian.org/debian}
command -v debootstrap >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null; }
ROOT=$(mktemp -d /var/tmp/perf-gate-dind-root.XXXXXX)
trap 'rm -rf "$ROOT"' EXIT
echo "[provision-dind-node] debootstrap $SUITE into $ROOT"
debootstrap --variant=minbase --include=docker.io,iptables,ca-certificates,procps,iproute2,kmod \
  "$SUITE" "$ROOT" "$MIRROR" >/dev/null
install -m 0755 "$HERE/dind-entry.sh" "$ROOT/usr/local/bin/dind-entry"
rm -rf "$ROOT"/var/cache/apt/archives/*.deb "$ROOT"/var/lib/apt/lists/* "$ROOT"/usr/share/doc/* "$ROOT"/usr/share/man/*
tar -C "$ROOT" -c . | docker import \
  --change 'ENTRYPOINT ["/usr/local/bin/dind-entry"]' \
  --change 'CMD ["--host=unix:///var/run/docker.sock"]' \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  - "$TAG" >/dev/null
echo "[provision-dind-node] built $TAG"

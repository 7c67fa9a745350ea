#!/bin/bash
# Build the perf-gate Docker-in-Docker node image fully offline (no registry):
# debootstrap a Debian root (same suite as host) + docker.io, then `docker import`.
# Usage: ./build-node.sh [tag]   (run as root; the Debian root is made in root/ beside this script, git-ignored)
set -eu
TAG=${1:-perf-gate/dind-node:spike}
DIR=$(cd "$(dirname "$0")" && pwd)
SUITE=$(. /etc/os-release && echo "$VERSION_CODENAME")
MIRROR=${MIRROR:-http://deb.debian.org/debian}
INCLUDE=docker.io,iptables,ca-certificates,procps,iproute2,curl,kmod
command -v debootstrap >/dev/null || apt-get install -y debootstrap
cd "$DIR"
if [ ! -x root/usr/sbin/dockerd ]; then
  rm -rf root
  time debootstrap --variant=minbase --include="$INCLUDE" "$SUITE" root "$MIRROR"
fi
install -m 0755 ../../scripts/dind-entry.sh root/usr/local/bin/dind-entry
# slim the root a bit
rm -rf root/var/cache/apt/archives/*.deb root/var/lib/apt/lists/* root/usr/share/doc/* root/usr/share/man/*
time sh -c "tar -C root -c . | docker import \
  --change 'ENTRYPOINT [\"/usr/local/bin/dind-entry\"]' \
  --change 'CMD [\"--host=unix:///var/run/docker.sock\"]' \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  - '$TAG'"
docker image ls "$TAG"

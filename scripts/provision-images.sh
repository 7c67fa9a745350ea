#!/usr/bin/env bash
# Builds, without any registry, the images and services perf-gate's tests need:
#   perf-gate/node:local             Node from this host, no shell (scripts/provision-node-image.sh,
#   perf-gate/node-distroless:local  which needs no Go; the quickstart calls it alone)
#   fixtures/sut/bin/sut             the static Go test service the fixtures' compose files build FROM scratch
#   perf-gate/sut:local              that service as an image, for fixtures that do not build
#   fixtures/broker/bin/broker       the static Go WebSocket broker of the ws-broker seed (its one
#                                    module, gorilla/websocket, comes from the Go module proxy)
#   fixtures/grpc-search/bin/server  the static Go gRPC "vector database" of the gRPC seed (grpc-go and
#                                    protobuf from the Go module proxy; no protoc: messages coded by hand)
#   perf-gate/perf:local             sut.profile's perf helper: this host's Linux perf (Debian's
#                                    linux-perf, installed when missing), what it links, sh and sleep
# Needs Go (the Go module proxy for the broker's and the gRPC service's modules).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
log() { printf '[provision-images] %s\n' "$*" >&2; }

# the Node images: their own script, which needs no Go (the quickstart calls it alone)
bash "$root/scripts/provision-node-image.sh"

# the id of an image, or nothing
image_id() { docker image inspect --format '{{.Id}}' "$1" 2>/dev/null || true; }
# removes what a tag pointed to before it was rebuilt, so re-running this leaves no dangling images
drop_old() { local old="$1" tag="$2"; [ -n "$old" ] && [ "$old" != "$(image_id "$tag")" ] && docker rmi "$old" >/dev/null 2>&1 || true; }

log "static test service"
(cd "$root/fixtures/sut" && CGO_ENABLED=0 go build -trimpath -o bin/sut .)
log "built fixtures/sut/bin/sut"
# the same service as an image, for compose files that do not build (the A/B Action test boots
# it from a base tree where bin/sut, a build output, is not committed)
old_sut="$(image_id perf-gate/sut:local)"
docker build -q -t perf-gate/sut:local "$root/fixtures/sut" >/dev/null
drop_old "$old_sut" perf-gate/sut:local
log "built perf-gate/sut:local"

(cd "$root/fixtures/broker" && CGO_ENABLED=0 go build -trimpath -o bin/broker .)
log "built fixtures/broker/bin/broker"

(cd "$root/fixtures/grpc-search" && CGO_ENABLED=0 go build -trimpath -o bin/server .)
log "built fixtures/grpc-search/bin/server"

# the perf helper's image (sut.profile: perf): this host's perf and the libraries it links, a shell and
# sleep, nothing else (docs/profiling.md says what such an image needs)
if ! perf version >/dev/null 2>&1; then
  log "installing linux-perf (Debian)"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q linux-perf >/dev/null
fi
perf_root="$(mktemp -d)"
for f in /usr/bin/perf /bin/sh /bin/sleep \
  $(ldd /usr/bin/perf /bin/sh /bin/sleep | awk '$2 == "=>" && $3 ~ /^\// {print $3} $1 ~ /^\// && $1 !~ /:$/ {print $1}' | sort -u); do
  mkdir -p "$perf_root$(dirname "$f")"
  cp -L "$f" "$perf_root$f"
done
old_perf="$(image_id perf-gate/perf:local)"
tar -C "$perf_root" -c . | docker import - perf-gate/perf:local >/dev/null
rm -rf "$perf_root"
drop_old "$old_perf" perf-gate/perf:local
log "built perf-gate/perf:local ($(perf version))"

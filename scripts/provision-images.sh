#!/usr/bin/env bash
# Builds, without any registry, the images perf-gate's quickstart and tests need:
#   perf-gate/node:local             Node from this host (`docker import` of node + the libraries ldd lists);
#                                    no shell, no package manager: an air-gapped runner.image
#   perf-gate/node-distroless:local  the same with ENTRYPOINT ["/usr/bin/node"], like distroless images
#   fixtures/sut/bin/sut             the static Go test service the fixtures' compose files build FROM scratch
#   perf-gate/sut:local              that service as an image, for fixtures that do not build
# Air-gapped users can use the first recipe for their own runner.image.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
log() { printf '[provision-images] %s\n' "$*" >&2; }

node_bin="$(readlink -f "$(command -v node)")"
major="$("$node_bin" -p 'process.versions.node.split(".")[0]')"
if [ "$major" -lt 20 ]; then log "node >= 20 needed on the host, found $("$node_bin" --version)"; exit 1; fi

build_node_image() {
  local stage; stage="$(mktemp -d)"
  mkdir -p "$stage/usr/bin" "$stage/tmp" "$stage/etc"
  cp "$node_bin" "$stage/usr/bin/node"
  # the dynamic loader and every library node links against, at their own paths
  ldd "$node_bin" | awk '/=>/ {print $3} !/=>/ && /^[ \t]*\// {print $1}' | while read -r lib; do
    [ -n "$lib" ] && [ -e "$lib" ] || continue
    mkdir -p "$stage$(dirname "$lib")"
    cp -L "$lib" "$stage$lib"
  done
  printf 'root:x:0:0:root:/root:/sbin/nologin\nnobody:x:65534:65534:nobody:/nonexistent:/sbin/nologin\n' > "$stage/etc/passwd"
  printf 'root:x:0:\nnogroup:x:65534:\n' > "$stage/etc/group"
  chmod 1777 "$stage/tmp"
  tar -C "$stage" -c . | docker import \
    --change 'ENV PATH=/usr/local/bin:/usr/bin:/bin' \
    --change 'CMD ["node"]' \
    - perf-gate/node:local >/dev/null
  tar -C "$stage" -c . | docker import \
    --change 'ENV PATH=/usr/local/bin:/usr/bin:/bin' \
    --change 'ENTRYPOINT ["/usr/bin/node"]' \
    --change 'USER 65534:65534' \
    - perf-gate/node-distroless:local >/dev/null
  rm -rf "$stage"
}

log "node base images from $node_bin ($("$node_bin" --version))"
build_node_image
docker run --rm --network none perf-gate/node:local node -e 'process.exit(0)'
log "built perf-gate/node:local and perf-gate/node-distroless:local"

log "static test service"
(cd "$root/fixtures/sut" && CGO_ENABLED=0 go build -trimpath -o bin/sut .)
log "built fixtures/sut/bin/sut"
# the same service as an image, for compose files that do not build (the A/B Action test boots
# it from a base tree where bin/sut, a build output, is not committed)
docker build -q -t perf-gate/sut:local "$root/fixtures/sut" >/dev/null
log "built perf-gate/sut:local"

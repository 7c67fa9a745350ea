#!/usr/bin/env bash
# Builds, without any registry and without Go, the Node images an offline engine needs:
#   perf-gate/node:local             Node from this host (`docker import` of node + the libraries ldd lists);
#                                    no shell, no package manager: an air-gapped runner.image, and the
#                                    quickstart's service image where node:22-slim cannot be pulled
#   perf-gate/node-distroless:local  the same with ENTRYPOINT ["/usr/bin/node"], like distroless images
# Rebuilt only when the host's node binary changed. Needs Node >= 20 on the PATH and a Docker engine
# this user can reach (no root of its own). scripts/provision-images.sh calls it.
# Air-gapped users can use this recipe for their own runner.image.
set -euo pipefail
log() { printf '[provision-node-image] %s\n' "$*" >&2; }

if ! command -v node >/dev/null 2>&1; then log "node >= 20 needed on the PATH"; exit 1; fi
node_bin="$(readlink -f "$(command -v node)")"
major="$("$node_bin" -p 'process.versions.node.split(".")[0]')"
if [ "$major" -lt 20 ]; then log "node >= 20 needed on the host, found $("$node_bin" --version)"; exit 1; fi

# the id of an image, or nothing
image_id() { docker image inspect --format '{{.Id}}' "$1" 2>/dev/null || true; }
# removes what a tag pointed to before it was rebuilt, so re-running this leaves no dangling images
drop_old() { local old="$1" tag="$2"; [ -n "$old" ] && [ "$old" != "$(image_id "$tag")" ] && docker rmi "$old" >/dev/null 2>&1 || true; }

node_sha="$(sha256sum "$node_bin" | cut -c1-16)"

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
  local old_plain old_distroless
  old_plain="$(image_id perf-gate/node:local)"
  old_distroless="$(image_id perf-gate/node-distroless:local)"
  tar -C "$stage" -c . | docker import \
    --change 'ENV PATH=/usr/local/bin:/usr/bin:/bin' \
    --change 'CMD ["node"]' \
    --change "LABEL dev.perf-gate.node-sha=$node_sha" \
    - perf-gate/node:local >/dev/null
  tar -C "$stage" -c . | docker import \
    --change 'ENV PATH=/usr/local/bin:/usr/bin:/bin' \
    --change 'ENTRYPOINT ["/usr/bin/node"]' \
    --change 'USER 65534:65534' \
    --change "LABEL dev.perf-gate.node-sha=$node_sha" \
    - perf-gate/node-distroless:local >/dev/null
  rm -rf "$stage"
  drop_old "$old_plain" perf-gate/node:local
  drop_old "$old_distroless" perf-gate/node-distroless:local
}

label_of() { docker image inspect --format '{{ index .Config.Labels "dev.perf-gate.node-sha" }}' "$1" 2>/dev/null || true; }
if [ "$(label_of perf-gate/node:local)" = "$node_sha" ] && [ "$(label_of perf-gate/node-distroless:local)" = "$node_sha" ]; then
  log "node base images already built from $node_bin ($("$node_bin" --version))"
else
  log "node base images from $node_bin ($("$node_bin" --version))"
  build_node_image
fi
docker run --rm --network none perf-gate/node:local node -e 'process.exit(0)'
log "perf-gate/node:local and perf-gate/node-distroless:local ready"

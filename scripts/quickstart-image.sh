#!/usr/bin/env bash
# Prints the Node image the quickstart's service and load runner run in (stdout; what it does goes
# to stderr): PERF_GATE_NODE_IMAGE, default node:22-slim, when it is on the engine or can be pulled;
# otherwise perf-gate/node:local, built from this host's Node without any registry and without Go
# (scripts/provision-node-image.sh). Used by scripts/quickstart.sh and the dogfood workflow.
set -euo pipefail
cd "$(dirname "$0")/.."
log() { printf '[quickstart-image] %s\n' "$*" >&2; }

image="${PERF_GATE_NODE_IMAGE:-node:22-slim}"
if docker image inspect "$image" >/dev/null 2>&1; then
  log "$image is on the engine"
elif log "pulling $image" && docker pull "$image" >&2; then
  log "$image pulled"
else
  log "$image is not on the engine and cannot be pulled: building perf-gate/node:local from this host's Node"
  bash scripts/provision-node-image.sh >&2
  image=perf-gate/node:local
fi
printf '%s\n' "$image"

#!/usr/bin/env bash
# The README's first command on a fresh clone: sets up what is missing, then runs the quickstart.
# Needs a Docker engine with Compose v2 and Node >= 20; no Go, and root only when there is no engine.
#   1. a Docker engine and Compose v2, unless `docker info` and `docker compose version` answer
#      (scripts/provision-docker.sh: docker.io from the distribution, dockerd started, compose
#      built from the Go module proxy; as root, on Debian/Ubuntu);
#   2. the Node image the quickstart's service and load runner run in: PERF_GATE_NODE_IMAGE, default
#      node:22-slim, when it is on the engine or can be pulled; otherwise perf-gate/node:local, built
#      from this host's Node without any registry (scripts/quickstart-image.sh, which calls
#      scripts/provision-node-image.sh);
#   3. the quickstart: fixtures/quickstart/perf-gate.yml run with --mode update, which records a
#      baseline, then with --mode gate against that baseline. Both write into OUT_DIR, never into
#      baselines/; the gate run's exit code is the script's (0 pass, 1 regression; see docs/cli.md).
# No npm ci: dist/ is the committed, self-contained bundle.
# Usage: bash scripts/quickstart.sh [OUT_DIR]   (default: a new directory under $TMPDIR or /tmp)
set -euo pipefail
cd "$(dirname "$0")/.."
log() { printf '[quickstart] %s\n' "$*" >&2; }

if ! command -v node >/dev/null 2>&1; then log "Node >= 20 is needed on the PATH"; exit 1; fi
if [ "$(node -p 'process.versions.node.split(".")[0]')" -lt 20 ]; then
  log "Node >= 20 is needed, found $(node --version)"; exit 1
fi

if ! docker info >/dev/null 2>&1 || ! docker compose version >/dev/null 2>&1; then
  log "no Docker engine or no Compose v2: provisioning them"
  bash scripts/provision-docker.sh
fi

image="$(bash scripts/quickstart-image.sh)"
log "the service and the load runner run in $image"
# the compose file's service image; the runner's is given to each run
export PERF_GATE_NODE_IMAGE="$image"

out="${1:-$(mktemp -d "${TMPDIR:-/tmp}/perf-gate-quickstart.XXXXXX")}"
mkdir -p "$out"
config=fixtures/quickstart/perf-gate.yml

log "1 of 2: recording a baseline (--mode update) into $out/baselines"
node dist/cli.js run --config "$config" --runner-image "$image" --mode update --baseline-dir "$out/baselines" --out "$out/update"

log "2 of 2: gating the same code against that baseline (--mode gate)"
rc=0
node dist/cli.js run --config "$config" --runner-image "$image" --mode gate --baseline-dir "$out/baselines" --out "$out/gate" || rc=$?
log "the gate's report (the PR comment): $out/gate/perf-gate-report.md"
exit "$rc"

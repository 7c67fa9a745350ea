#!/usr/bin/env bash
# Installs what the benchmarks compare against (Debian packages) and builds what they drive:
# wrk, hey, nginx and oha, the bundled runner (dist/), and the static fixture service. Run as root on Debian/Ubuntu.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
if ! command -v wrk >/dev/null || ! command -v hey >/dev/null || ! command -v nginx >/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk hey nginx-light util-linux >/dev/null
fi
# oha, the open-loop anchor, from the crates registry (a few minutes to build)
command -v oha >/dev/null || cargo install --locked oha
(cd "$root" && npm run build >/dev/null)
(cd "$root/fixtures/sut" && CGO_ENABLED=0 go build -trimpath -o bin/sut .)
echo "bench: wrk, hey, dist/runner.mjs and fixtures/sut/bin/sut ready"

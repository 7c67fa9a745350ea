#!/usr/bin/env bash
# Installs what the benchmarks compare against (Debian packages) and builds what they drive:
# wrk, hey, nginx, h2load, oha, ghz and k6, the bundled runner (dist/), and the static fixture services. Run as root on Debian/Ubuntu.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
if ! command -v wrk >/dev/null || ! command -v hey >/dev/null || ! command -v nginx >/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk hey nginx-light util-linux >/dev/null
fi
# h2load, the HTTP/2 anchor (bench/h2.mjs)
command -v h2load >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nghttp2-client >/dev/null; }
# oha, the open-loop anchor, from the crates registry (a few minutes to build)
command -v oha >/dev/null || cargo install --locked oha
# ghz, the gRPC anchor, from the Go module proxy into $(go env GOPATH)/bin; the proxy's @latest is the
# old v0.93.0 (its version list holds no later tag), so the tag is named
command -v ghz >/dev/null || [ -x "$(go env GOPATH)/bin/ghz" ] || go install github.com/bojand/ghz/cmd/ghz@v0.120.0
# k6, the WebSocket anchor of bench/ws-k6.mjs, from the Go module proxy (a few minutes of compiling)
command -v k6 >/dev/null || [ -x "$(go env GOPATH)/bin/k6" ] || go install go.k6.io/k6@latest
(cd "$root" && npm run build >/dev/null)
(cd "$root/fixtures/sut" && CGO_ENABLED=0 go build -trimpath -o bin/sut .)
(cd "$root/fixtures/grpc-search" && CGO_ENABLED=0 go build -trimpath -o bin/server .)
echo "bench: wrk, hey, h2load, oha, ghz, k6, dist/runner.mjs, fixtures/sut/bin/sut and fixtures/grpc-search/bin/server ready"

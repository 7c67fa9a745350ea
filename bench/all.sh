#!/usr/bin/env bash
# Runs every benchmark in turn (about 10 minutes with the 5-minute memory run) and prints the tables
# that docs/benchmarks.md records. Not part of the test suite: no timing is asserted anywhere.
set -euo pipefail
cd "$(dirname "$0")/.."
node bench/throughput.mjs
node bench/accuracy.mjs
node bench/coordinated-omission.mjs
node bench/memory.mjs "${BENCH_MEMORY_MINUTES:-5}"
node bench/ws.mjs
node bench/grpc.mjs
node bench/pipelining.mjs

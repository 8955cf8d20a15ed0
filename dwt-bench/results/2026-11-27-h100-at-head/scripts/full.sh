#!/bin/bash
# The GPU tests and the full run of one build (this session: cbbb4fd, on an H100), in one call:
# .device/s24 holds the release dwt-bench (dwt-bench-new), the peers' wheels and the GPU test
# binaries (bin/, `cargo test -p dwt-cuda --no-run`, stripped). Everything lands in
# $OUT/run.tar (tests/ and full/), since a call brings back at most eight files.
set -u
start=$(date +%s)
root=$OUT; work=$(mktemp -d)
export DWT_CACHE_DIR=$(mktemp -d)
OUT=$work D=.device/s24 bash dwt-bench/scripts/gpu-tests.sh dwt_cuda cuda conformance
export DWT_CACHE_DIR=$(mktemp -d)   # the full run reports cold compile times: an empty cache
mkdir -p $work/full && OUT=$work/full D=.device/s24 bash dwt-bench/results/2026-11-25-grouped-taps/scripts/full.sh > /dev/null 2>&1; echo "full rc=$?"
( cd dwt-bench/floor && nvcc -O3 -arch=sm_90 floor.cu -o /tmp/floor && /tmp/floor > $work/full/floor.md ); echo "floor rc=$?"
grep -c . $work/full/dwt-bench.md; tail -3 $work/full/peers.log
tar -C $work -cf $root/run.tar tests full
echo "took $(( $(date +%s) - start )) s"

#!/bin/bash
# The full run of one build (5b83293, on an H200), in one call: .device/s74 holds the release
# dwt-bench (dwt-bench-new) and the peers' wheels. No GPU tests here: the same CUDA code's ran in
# the call before (../../2026-11-28-h200-opencl-programs-apart/run/tests-cuda.txt). Everything
# lands in $OUT/run.tar (full/), since a call brings back at most eight files.
set -u
start=$(date +%s)
root=$OUT; work=$(mktemp -d)
export DWT_CACHE_DIR=$(mktemp -d)   # the full run reports cold compile times: an empty cache
mkdir -p $work/full && OUT=$work/full D=.device/s74 bash dwt-bench/results/2026-11-25-grouped-taps/scripts/full.sh > /dev/null 2>&1; echo "full rc=$?"
( cd dwt-bench/floor && nvcc -O3 -arch=sm_90 floor.cu -o /tmp/floor && /tmp/floor > $work/full/floor.md ); echo "floor rc=$?"
grep -c . $work/full/dwt-bench.md; tail -3 $work/full/peers.log
tar -C $work -cf $root/run.tar full
echo "took $(( $(date +%s) - start )) s"

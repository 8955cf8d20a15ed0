#!/bin/bash
# The full run at 6fd1480 on whatever card the call gets (this session: an H200), with the
# peers and the floor, into $OUT/full: dwt-bench-new (a release build of 6fd1480) and the
# peers' wheels in .device/s23.
set -u
start=$(date +%s)
export DWT_CACHE_DIR=$(mktemp -d)
mkdir -p $OUT/full && OUT=$OUT/full D=.device/s23 bash dwt-bench/results/2026-11-25-grouped-taps/scripts/full.sh > /dev/null 2>&1; echo "full rc=$?"
( cd dwt-bench/floor && nvcc -O3 -arch=sm_90 floor.cu -o /tmp/floor && /tmp/floor > $OUT/full/floor.md ); echo "floor rc=$?"
grep -c . $OUT/full/dwt-bench.md; tail -3 $OUT/full/peers.log
echo "took $(( $(date +%s) - start )) s"

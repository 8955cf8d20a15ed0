#!/bin/bash
# Session 20: the full run at the pyramids' commit (dwt-bench-new), the peers, the floor.
set -u
start=$(date +%s)
export DWT_CACHE_DIR=$(mktemp -d)
mkdir -p $OUT/full && OUT=$OUT/full D=.device/s19 bash dwt-bench/results/2026-11-25-grouped-taps/scripts/full.sh > /dev/null 2>&1; echo "full rc=$?"
( cd dwt-bench/floor && nvcc -O3 -arch=sm_90 floor.cu -o /tmp/floor && /tmp/floor > $OUT/full/floor.md ); echo "floor rc=$?"
grep -c . $OUT/full/dwt-bench.md; tail -3 $OUT/full/peers.log; grep -i haar $OUT/full/compare.md | head -12
echo "took $(( $(date +%s) - start )) s"

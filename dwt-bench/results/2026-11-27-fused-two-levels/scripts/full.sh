#!/bin/bash
# The full run at this commit (dwt-bench-new in .device/s22 with the peers' wheels), the peers,
# compare, the floor: BENCHMARKS.md's first section (python3 dwt-bench/summary.py --write).
set -u
start=$(date +%s)
export DWT_CACHE_DIR=$(mktemp -d)
mkdir -p $OUT/full && OUT=$OUT/full D=.device/s22 bash dwt-bench/results/2026-11-25-grouped-taps/scripts/full.sh > /dev/null 2>&1; echo "full rc=$?"
( cd dwt-bench/floor && nvcc -O3 -arch=sm_90 floor.cu -o /tmp/floor && /tmp/floor > $OUT/full/floor.md ); echo "floor rc=$?"
grep -c . $OUT/full/dwt-bench.md; tail -3 $OUT/full/peers.log; grep -i "cdf 5/3\|Cdf53" $OUT/full/compare.md | head -12
echo "took $(( $(date +%s) - start )) s"

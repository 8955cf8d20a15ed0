#!/bin/bash
# Session 20: the GPU tests with the interleaved pyramids, then one build (dwt-bench-new) with
# `--pyramids off` against `--pyramids on`, Haar's programs, both layouts, 3 runs each,
# alternating.
set -u
start=$(date +%s)
source dwt-bench/scripts/gpu-tests.sh   # exports DWT_CACHE_DIR for the runs below
for layout in interleaved mallat; do
  S=$OUT/$layout; mkdir -p $S
  for i in 1 2 3; do for p in off on; do
    .device/s19/dwt-bench-new --wavelets HaarNoShift,HaarWithShift --no-3d --reps 30 \
      --default-plan-only --layout $layout --pyramids $p --out $S/$p-$i.md > $S/$p-$i.log 2>&1 || echo "FAIL $layout $p $i"
  done; done
  ( cd dwt-bench && python3 ab.py $S off on > $OUT/$layout-compare.md 2>&1; cat $OUT/$layout-compare.md )
done
echo "took $(( $(date +%s) - start )) s"

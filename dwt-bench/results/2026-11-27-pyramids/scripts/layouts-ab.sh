#!/bin/bash
# Session 20: the GPU tests with the interleaved pyramids, then one build (dwt-bench-new) with
# `--pyramids off` against `--pyramids on`, Haar's programs, both layouts, 3 runs each,
# alternating.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
start=$(date +%s)
export DWT_CACHE_DIR=$(mktemp -d)
mkdir -p $OUT/tests
( cd .device/s19/bin && for t in dwt_cuda cuda conformance; do
  timeout 240 ./$t --include-ignored > $OUT/tests/$t.txt 2>&1; echo "$t rc=$?"; grep "test result" $OUT/tests/$t.txt
done; grep -h -A8 "FAILED\|panicked" $OUT/tests/*.txt | head -30 )
echo "tests took $(( $(date +%s) - start )) s"
for layout in interleaved mallat; do
  S=$OUT/$layout; mkdir -p $S
  for i in 1 2 3; do for p in off on; do
    .device/s19/dwt-bench-new --wavelets HaarNoShift,HaarWithShift --no-3d --reps 30 \
      --default-plan-only --layout $layout --pyramids $p --out $S/$p-$i.md > $S/$p-$i.log 2>&1 || echo "FAIL $layout $p $i"
  done; done
  ( cd dwt-bench && python3 ab.py $S off on > $OUT/$layout-compare.md 2>&1; cat $OUT/$layout-compare.md )
done
echo "took $(( $(date +%s) - start )) s"

#!/bin/bash
# Session 20: the GPU tests with the pyramid kernels, then Haar's A/B: dwt-bench-new (a9b2b11,
# the tile kernel per level) against dwt-bench-pyr (the pyramids), 3 runs each, alternating.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
start=$(date +%s)
export DWT_CACHE_DIR=$(mktemp -d)
mkdir -p $OUT/tests
( cd .device/s19/bin && for t in dwt_cuda cuda conformance; do
  timeout 240 ./$t --include-ignored > $OUT/tests/$t.txt 2>&1; echo "$t rc=$?"; grep "test result" $OUT/tests/$t.txt
done; grep -h -A8 "FAILED\|panicked" $OUT/tests/*.txt | head -30; grep -h "pyramids on" $OUT/tests/*.txt )
echo "tests took $(( $(date +%s) - start )) s"
D=.device/s19 RUNS=3 REPS=30 BUILDS="new pyr" WAVELETS=HaarNoShift,HaarWithShift \
  bash dwt-bench/results/2026-11-25-address-walks/scripts/ab.sh
echo "took $(( $(date +%s) - start )) s"

#!/bin/bash
# Session 19: GPU tests of a9b2b11 (Haar's forward edges reaching back on every 2-D forward), then the full run and the floor.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
start=$(date +%s)
export DWT_CACHE_DIR=$(mktemp -d)
mkdir -p $OUT/tests
( cd .device/s19/bin && for t in dwt_cuda cuda conformance; do
  timeout 200 ./$t --include-ignored > $OUT/tests/$t.txt 2>&1; echo "$t rc=$?"; grep "test result" $OUT/tests/$t.txt
done; grep -h -A8 "FAILED\|panicked" $OUT/tests/*.txt | head -30 )
echo "tests took $(( $(date +%s) - start )) s"
mkdir -p $OUT/full && OUT=$OUT/full D=.device/s19 bash dwt-bench/results/2026-11-25-grouped-taps/scripts/full.sh > /dev/null 2>&1; echo "full rc=$?"
( cd dwt-bench/floor && nvcc -O3 -arch=sm_90 floor.cu -o /tmp/floor && /tmp/floor > $OUT/full/floor.md ); echo "floor rc=$?"
grep -c . $OUT/full/dwt-bench.md; tail -3 $OUT/full/peers.log; head -5 $OUT/full/compare.md
echo "took $(( $(date +%s) - start )) s"

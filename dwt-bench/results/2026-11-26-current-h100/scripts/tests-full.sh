#!/bin/bash
# Session 18: GPU tests of dcada93 (the first level's wider tiles), then the full run and the floor.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
start=$(date +%s)
export DWT_CACHE_DIR=$(mktemp -d)
mkdir -p $OUT/tests
( cd .device/s18/bin && for t in dwt_cuda cuda conformance; do
  timeout 200 ./$t --include-ignored > $OUT/tests/$t.txt 2>&1; echo "$t rc=$?"; grep "test result" $OUT/tests/$t.txt
done; grep -h "FAILED\|panicked" $OUT/tests/*.txt | head )
echo "tests took $(( $(date +%s) - start )) s"
mkdir -p $OUT/full && OUT=$OUT/full bash .device/s18/full.sh > /dev/null 2>&1; echo "full rc=$?"
( cd dwt-bench/floor && nvcc -O3 -arch=sm_90 floor.cu -o /tmp/floor && /tmp/floor > $OUT/full/floor.md ); echo "floor rc=$?"
echo "took $(( $(date +%s) - start )) s"

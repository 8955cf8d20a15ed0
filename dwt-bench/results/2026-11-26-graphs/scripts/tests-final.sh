#!/bin/bash
# Session 19: the GPU tests at the final commit (the graph tests' review, NVRTC --no-cache),
# the nvrtc test included; ptxas' report lines of one module for the record.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
start=$(date +%s)
export DWT_CACHE_DIR=$(mktemp -d)
mkdir -p $OUT/tests
( cd .device/s19/bin && for t in dwt_cuda cuda nvrtc conformance; do
  timeout 250 ./$t --include-ignored > $OUT/tests/$t.txt 2>&1; echo "$t rc=$?"; grep "test result" $OUT/tests/$t.txt
done; grep -h -A8 "FAILED\|panicked" $OUT/tests/*.txt | head -40 )
echo "took $(( $(date +%s) - start )) s"

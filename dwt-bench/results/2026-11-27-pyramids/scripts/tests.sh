#!/bin/bash
# Session 20: the GPU tests at the pyramids' commit (test binaries in .device/s19/bin).
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
start=$(date +%s)
export DWT_CACHE_DIR=$(mktemp -d)
mkdir -p $OUT/tests
( cd .device/s19/bin && for t in dwt_cuda cuda conformance; do
  timeout 240 ./$t --include-ignored > $OUT/tests/$t.txt 2>&1; echo "$t rc=$?"; grep "test result" $OUT/tests/$t.txt
done; grep -h -A8 "FAILED\|panicked" $OUT/tests/*.txt | head -30 )
echo "tests took $(( $(date +%s) - start )) s"

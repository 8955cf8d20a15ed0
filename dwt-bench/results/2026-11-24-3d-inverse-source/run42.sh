#!/bin/bash
# Session 29 call 7: the cuda test binary after the review commit (validate_into shared by both backends).
set -u
export DWT_CACHE_DIR=$(mktemp -d)
cd .device/bin && ./cuda --include-ignored > $OUT/cuda-review.txt 2>&1
grep -E "test result|FAILED|panicked" $OUT/cuda-review.txt

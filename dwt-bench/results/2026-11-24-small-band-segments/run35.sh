#!/bin/bash
# Session 28 call 7 (review): the cuda tests after their shared input helper.
set -u
export DWT_CACHE_DIR=$(mktemp -d)
cd .device/bin && ./cuda --include-ignored 2>&1 | tee $OUT/cuda-review.txt | grep -E "test result|FAILED|panicked"

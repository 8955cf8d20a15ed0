#!/bin/bash
# Session 29 call 13: the GPU tests after the review commit (index maps from one list, runs_in_place,
# one level loop in the two-pass planner).
set -u
export DWT_CACHE_DIR=$(mktemp -d)
cd .device/bin
for t in dwt_cuda cuda conformance; do echo "== $t"; timeout 200 ./$t --include-ignored 2>&1; done > $OUT/cuda-tests-review.txt 2>&1
grep -E "^== |test result|FAILED|panicked" $OUT/cuda-tests-review.txt

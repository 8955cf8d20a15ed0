#!/bin/bash
# Session 29 call 11: the GPU tests with the two passes' forward reading the source in its first
# rows kernel (the commit after 8c9ccbd).
set -u
export DWT_CACHE_DIR=$(mktemp -d)
cd .device/bin
for t in dwt_cuda cuda conformance; do echo "== $t"; timeout 200 ./$t --include-ignored 2>&1; done > $OUT/cuda-tests-two-pass-source.txt 2>&1
grep -E "^== |test result|FAILED|panicked" $OUT/cuda-tests-two-pass-source.txt

#!/bin/bash
# Session 29 call 12: the GPU tests with the two passes' inverse reading the source in each level's first
# window (the commit after 132dd20).
set -u
export DWT_CACHE_DIR=$(mktemp -d)
cd .device/bin
for t in dwt_cuda cuda conformance; do echo "== $t"; timeout 200 ./$t --include-ignored 2>&1; done > $OUT/cuda-tests-two-pass-inverse.txt 2>&1
grep -E "^== |test result|FAILED|panicked" $OUT/cuda-tests-two-pass-inverse.txt

#!/bin/bash
# Session 28 call 3: the GPU tests with small-band segments of 4, then a random-program sweep.
set -u
export DWT_CACHE_DIR=$(mktemp -d)
cd .device/bin
for t in dwt_cuda cuda conformance; do ./$t --include-ignored 2>&1 | grep -E "^test |test result|panicked|assert|left|right" ; done > $OUT/tests.txt 2>&1
grep "test result" $OUT/tests.txt
(PROPTEST_CASES=40 timeout 240 ./conformance --include-ignored random_programs --test-threads=4) > $OUT/random.txt 2>&1
tail -4 $OUT/random.txt

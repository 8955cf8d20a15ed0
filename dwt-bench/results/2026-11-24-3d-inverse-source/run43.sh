#!/bin/bash
# Session 29 call 8: a longer search for the random-program failure: the random-program tests
# of every variant and candidate at PROPTEST_CASES=150 (binaries of 581a533), full output kept.
set -u
export DWT_CACHE_DIR=$(mktemp -d)
cd .device/bin
(PROPTEST_CASES=150 timeout 500 ./conformance --include-ignored random_programs --test-threads=8) > $OUT/random-150.txt 2>&1
echo "rc $?" >> $OUT/random-150.txt
grep -E "^test |test result|rc " $OUT/random-150.txt

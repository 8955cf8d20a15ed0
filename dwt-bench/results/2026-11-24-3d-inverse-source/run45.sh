#!/bin/bash
# Session 29 call 10: a longer random-program search after the fix: every variant's and the
# candidates' random-program tests at PROPTEST_CASES=250 (binaries of 8e938c7 plus its GPU test).
set -u
export DWT_CACHE_DIR=$(mktemp -d)
cd .device/bin
(PROPTEST_CASES=250 timeout 560 ./conformance --include-ignored random_programs --test-threads=8) > $OUT/random-250.txt 2>&1
echo "rc $?" >> $OUT/random-250.txt
grep -E "^test |test result|rc " $OUT/random-250.txt

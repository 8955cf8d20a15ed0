#!/bin/bash
# Session 29 call 9: the local-memory fix (8e938c7 and its GPU test): the new test without the
# fix (must fail) and with it, the whole GPU suite, then the random programs of every variant
# and candidate at PROPTEST_CASES=150 again. Full output kept.
set -u
export DWT_CACHE_DIR=$(mktemp -d)
T=/tmp/tests; mkdir -p $T
cd .device/bin
./cuda-unfixed --include-ignored a_far_reaching > $T/far-unfixed.txt 2>&1; echo "rc $?" >> $T/far-unfixed.txt
grep -E "test result|rc " $T/far-unfixed.txt
for t in dwt_cuda cuda conformance; do echo "== $t"; timeout 200 ./$t --include-ignored 2>&1; done > $T/cuda-tests.txt 2>&1
grep -E "^== |test result|FAILED|panicked" $T/cuda-tests.txt
(PROPTEST_CASES=150 timeout 420 ./conformance --include-ignored random_programs --test-threads=8) > $T/random-150.txt 2>&1
echo "rc $?" >> $T/random-150.txt
grep -E "^test |test result|rc " $T/random-150.txt
tar czf $OUT/tests.tgz -C $T .

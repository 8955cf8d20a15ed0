#!/bin/bash
# Full GPU tests, then the random-program tests with many more cases (PROPTEST_CASES).
cd .device/bin
export DWT_CACHE_DIR=$(mktemp -d)
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/gpu.txt
start=$SECONDS
for t in dwt_cuda cuda conformance; do timeout 300 ./$t --include-ignored > $OUT/$t.txt 2>&1; echo "$t rc $? at $((SECONDS-start)) s" >> $OUT/summary.txt; done
i=0
while [ $((SECONDS-start)) -lt 420 ]; do
  i=$((i+1))
  for m in fused two_pass tiny_tiles; do
    PROPTEST_CASES=64 timeout 120 ./conformance --include-ignored --exact $m::conformance_random_programs > $OUT/rand-$m-$i.txt 2>&1
    echo "rand $m $i rc $? at $((SECONDS-start)) s" >> $OUT/summary.txt
  done
  PROPTEST_CASES=16 timeout 120 ./conformance --include-ignored --exact candidates::conformance_random_programs > $OUT/rand-cand-$i.txt 2>&1
  echo "rand candidates $i rc $? at $((SECONDS-start)) s" >> $OUT/summary.txt
done

#!/bin/bash
cd ${D:-.device/s16}/bin
export DWT_CACHE_DIR=$(mktemp -d)
for t in dwt_cuda cuda conformance; do
  ./$t --include-ignored --nocapture > $OUT/$t.txt 2>&1; echo "$t rc=$?"; grep "test result" $OUT/$t.txt
done
grep -h "FAILED\|panicked" $OUT/*.txt | head

#!/bin/bash
# The GPU tests on the GPU machine: each test binary named (default: dwt_cuda cuda conformance)
# from `cargo test -p dwt-cuda --no-run`, stripped into $D/bin (D: the carried folder, default
# .device/s19), run with --include-ignored and a fresh DWT_CACHE_DIR (exported, so that what
# the caller runs next reuses the compiled kernels); logs in $OUT/tests, summary lines printed.
set -u
D=${D:-.device/s19}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
start=$(date +%s)
export DWT_CACHE_DIR=${DWT_CACHE_DIR:-$(mktemp -d)}
mkdir -p $OUT/tests
( cd $D/bin && for t in ${@:-dwt_cuda cuda conformance}; do
  timeout 240 ./$t --include-ignored > $OUT/tests/$t.txt 2>&1; echo "$t rc=$?"; grep "test result" $OUT/tests/$t.txt
done; grep -h -A8 "FAILED\|panicked" $OUT/tests/*.txt | head -30 )
echo "tests took $(( $(date +%s) - start )) s"

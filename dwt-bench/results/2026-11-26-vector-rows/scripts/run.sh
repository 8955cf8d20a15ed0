#!/bin/bash
# Session 17: GPU tests of the vector-rows build, then an A/B of the bench (old = HEAD d419f4d, new = vector rows), alternating, two runs each, every program.
set -u
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
export DWT_CACHE_DIR=$(mktemp -d)
( cd .device/s17/bin && for t in dwt_cuda cuda conformance; do
  ./$t --include-ignored > $OUT/$t.txt 2>&1; echo "$t rc=$?"; grep "test result" $OUT/$t.txt
done; grep -h "FAILED\|panicked" $OUT/*.txt | head )
D=.device/s17 exec bash dwt-bench/results/2026-11-25-address-walks/scripts/ab.sh

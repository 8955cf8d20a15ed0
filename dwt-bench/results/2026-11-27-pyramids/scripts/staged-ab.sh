#!/bin/bash
# Session 20: the pyramids' subbands moved in coalesced rounds through local memory (pyrs)
# against each work-item moving its own (pyr), with a9b2b11 (new) as the baseline; Haar only,
# 3 runs each, alternating; the CUDA conformance suite's pyramid tests on the staged build first.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
start=$(date +%s)
export DWT_CACHE_DIR=$(mktemp -d)
mkdir -p $OUT/tests
( cd .device/s19/bin && timeout 200 ./conformance --include-ignored pyramids > $OUT/tests/conformance-pyramids.txt 2>&1
  echo "conformance pyramids rc=$?"; grep "test result" $OUT/tests/conformance-pyramids.txt )
D=.device/s19 RUNS=3 REPS=30 BUILDS="new pyr pyrs" WAVELETS=HaarNoShift,HaarWithShift \
  bash dwt-bench/results/2026-11-25-address-walks/scripts/ab.sh
echo "took $(( $(date +%s) - start )) s"

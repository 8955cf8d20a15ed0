#!/bin/bash
# Session 20: the GPU tests with the pyramid kernels, then Haar's A/B: dwt-bench-new (a9b2b11,
# the tile kernel per level) against dwt-bench-pyr (the pyramids), 3 runs each, alternating.
set -u
start=$(date +%s)
source dwt-bench/scripts/gpu-tests.sh   # exports DWT_CACHE_DIR for the runs below
D=.device/s19 RUNS=3 REPS=30 BUILDS="new pyr" WAVELETS=HaarNoShift,HaarWithShift \
  bash dwt-bench/results/2026-11-25-address-walks/scripts/ab.sh
echo "took $(( $(date +%s) - start )) s"

#!/bin/bash
# Session 18: the first level of small long-program forwards on wider tiles (FIRST_LEVEL_TILE 32x32 or 64x16, segments of 16) against 945be14.
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
start=$(date +%s)
export DWT_CACHE_DIR=$(mktemp -d)
D=.device/s18 RUNS=4 REPS=40 SIZES=1080p BUILDS="new fl32 fl64" bash dwt-bench/results/2026-11-25-address-walks/scripts/ab.sh
echo "took $(( $(date +%s) - start )) s"

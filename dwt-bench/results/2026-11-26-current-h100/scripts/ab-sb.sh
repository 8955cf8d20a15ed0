#!/bin/bash
# Session 18: the small bands' limit (branch exp-small-band): 518400 (now) against 1048576 and 4194304 samples.
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
start=$(date +%s)
export DWT_CACHE_DIR=$(mktemp -d)
D=.device/s18 RUNS=2 REPS=30 BUILDS="sbold sb1048576 sb4194304" bash dwt-bench/results/2026-11-25-address-walks/scripts/ab.sh
echo "took $(( $(date +%s) - start )) s"

#!/bin/bash
# Session 18: streaming cache hints (experiment branch exp-streaming), A/B alternating in one binary.
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
start=$(date +%s)
export DWT_CACHE_DIR=$(mktemp -d)
D=.device/s18 RUNS=2 REPS=30 BUILDS="old both stores" bash dwt-bench/results/2026-11-25-address-walks/scripts/ab.sh
echo "took $(( $(date +%s) - start )) s"

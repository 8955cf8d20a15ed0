#!/bin/bash
# Session 18: full run at HEAD (kernels as 91b3898) with the peers, on whichever card comes.
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
start=$(date +%s)
D=.device/s18 bash dwt-bench/results/2026-11-25-grouped-taps/scripts/full.sh
echo "took $(( $(date +%s) - start )) s"

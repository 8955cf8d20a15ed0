#!/bin/bash
# Session 18: the first level's tiles again, six runs each: 945be14 (dwt-bench-945) against dcada93 (dwt-bench-new), the three programs and LeGall 5/3 as a control.
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export DWT_CACHE_DIR=$(mktemp -d)
D=.device/s18 RUNS=6 REPS=40 SIZES=1080p WAVELETS=DeslauriersDubuc97,DeslauriersDubuc137,Fidelity,LeGall53 BUILDS="945 new" bash dwt-bench/results/2026-11-25-address-walks/scripts/ab.sh

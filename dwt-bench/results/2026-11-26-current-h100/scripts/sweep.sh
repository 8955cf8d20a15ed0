#!/bin/bash
# Session 18: tile shapes at 1920x1080 for the long programs on the H100 (the H200's sweeps chose the defaults).
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
start=$(date +%s)
export DWT_CACHE_DIR=$(mktemp -d)
D=.device/s18 RUNS=2 REPS=40 SIZES=1080p WAVELETS=Fidelity,Daubechies97Integer,DeslauriersDubuc137,DeslauriersDubuc97,Cdf97,LeGall53 BUILDS="def t3232s16 t4832s16 t6416s16 t3232s8" bash dwt-bench/results/2026-11-25-address-walks/scripts/ab.sh
echo "took $(( $(date +%s) - start )) s"

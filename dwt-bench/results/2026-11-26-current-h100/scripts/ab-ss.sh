#!/bin/bash
# Session 18: the small bands' tiles of the first-level rule's forwards (branch exp-small-shape), against dcada93's (the configured 32x16 of 256, segments of 8).
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export DWT_CACHE_DIR=$(mktemp -d)
D=.device/s18 RUNS=3 REPS=40 SIZES=1080p WAVELETS=DeslauriersDubuc97,DeslauriersDubuc137,Fidelity BUILDS="new ss16_16_256_8 ss16_8_128_8 ss16_16_128_8 ss32_8_256_8" bash dwt-bench/results/2026-11-25-address-walks/scripts/ab.sh

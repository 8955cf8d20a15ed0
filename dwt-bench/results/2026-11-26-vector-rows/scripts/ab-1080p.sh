#!/bin/bash
# Session 17, third call: 1920x1080 A/B of every fused kernel laid out for 16-byte rows (all) against d419f4d (old), four runs each alternating.
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
D=.device/s17 BUILDS="old all" RUNS=4 REPS=40 SIZES=1080p WAVELETS=Daubechies97Integer,DeslauriersDubuc97,LeGall53,Cdf97,Cdf53,HaarWithShift exec bash dwt-bench/results/2026-11-25-address-walks/scripts/ab.sh

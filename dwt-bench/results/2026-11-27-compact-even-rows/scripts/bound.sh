#!/bin/bash
# One call on the GPU machine, carrying .device/s20 (dwt-bench-new at 5683588; ioff / ialways:
# it with `--layout interleaved --even-rows off|always`, mallat: `--layout mallat`): where the
# even rows pay off below the default bound (4096 x 2048 samples). Three runs alternating.
set -u
D=.device/s20 RUNS=3 REPS=30 SIZES=1080p,2048x2048,2880x2880 WAVELETS=Cdf53,Cdf97,LeGall53,Fidelity,DeslauriersDubuc137 \
  BUILDS="ioff ialways mallat" EXTRA="--levels 2,3" bash dwt-bench/results/2026-11-25-address-walks/scripts/ab.sh

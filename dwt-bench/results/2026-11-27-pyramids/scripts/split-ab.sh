#!/bin/bash
# Session 20: four and five levels (and three, as a control) of Haar: dwt-bench-new (four levels
# as pyramids of 2 + 2) against dwt-bench-alt (a pyramid of 3, then a tile launch), 3 runs each,
# alternating.
set -u
D=.device/s19 RUNS=3 REPS=30 SIZES=4096,8192 WAVELETS=HaarNoShift,HaarWithShift BUILDS="new alt" \
  EXTRA="--levels 3,4,5" bash dwt-bench/results/2026-11-25-address-walks/scripts/ab.sh

#!/bin/bash
# Session 19: Haar's forward edge tiles reaching back at every size (dwt-bench-reach: the rule's
# `unwrap_or(small)` made `unwrap_or(true)`) against db1c421 (dwt-bench-new), alternating.
D=.device/s19 RUNS=3 REPS=30 SIZES=4096,8192 WAVELETS=HaarNoShift,HaarWithShift,LeGall53 \
  BUILDS="new reach" bash dwt-bench/results/2026-11-25-address-walks/scripts/ab.sh

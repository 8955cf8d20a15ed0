#!/bin/bash
# One call on the GPU machine, carrying .device/s20: dwt-bench-base (4de3623) and dwt-bench-new
# (the commit named in the README), ibase / inew: each with `--layout interleaved`, mallat: new
# with `--layout mallat`. Every program, three levels, 4096^2 and 8192^2, RUNS runs alternating.
set -u
D=.device/s20 RUNS=${RUNS:-2} REPS=25 SIZES=${SIZES:-4096,8192} BUILDS=${BUILDS:-"ibase inew mallat"} \
  EXTRA="--levels ${LEVELS:-3}" bash dwt-bench/results/2026-11-25-address-walks/scripts/ab.sh

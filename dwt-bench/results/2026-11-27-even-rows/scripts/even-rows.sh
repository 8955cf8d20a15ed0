#!/bin/bash
# One call on the GPU machine, carrying .device/s19 (dwt-bench-new built at the commit named in
# the README; dwt-bench-interon / -interoff: it with `--layout interleaved`, `--even-rows on|off`;
# bin/: the GPU test binaries of the same commit): the even-rows A/B over every program, then
# the GPU tests.
set -u
D=.device/s19 RUNS=${RUNS:-2} REPS=25 SIZES=1080p,4096,8192 BUILDS="interoff interon" EXTRA="--levels 1,3" \
  bash dwt-bench/results/2026-11-25-address-walks/scripts/ab.sh
OUT=$OUT/final bash dwt-bench/scripts/gpu-tests.sh
cd $OUT/final && tar czf $OUT/tests.tgz tests && rm -rf $OUT/final

#!/bin/bash
# A/B of the whole-unrolled loops' bound check on their last round only (rounds) against 6fd1480
# (old): dwt-bench of each build in .device/s23/ab, alternating, two runs each, every catalogue
# program at 1920x1080 (i16 and f32), 4096^2 and 8192^2, one and three levels, default plans.
set -u
D=.device/s23/ab
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
mkdir -p $OUT/ab
for r in 1 2; do
  for b in old rounds; do
    $D/dwt-bench-$b --sizes ${SIZES:-1080p,4096,8192} --levels 1,3 --no-3d --default-plan-only --reps 25 \
      --out $OUT/ab/$b-$r.md > $OUT/ab/$b-$r.log 2>&1
    echo "$b run $r rc=$?"
  done
done
python3 dwt-bench/ab.py $OUT/ab old rounds > $OUT/ab/compare.md
grep -E "1920x1080" $OUT/ab/compare.md | head -40

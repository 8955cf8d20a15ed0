#!/bin/bash
# A/B of the level-pair kernel on the GPU machine: dwt-bench (carried in $D, default
# .device/s22) with `--level-pairs always` (every size whose sides the tiles divide, 2048^2
# too) against `off`, alternating, two runs each; the four programs that take it, two and three
# levels, forward and inverse (the inverses as a control: nothing of theirs changes).
set -u
D=${D:-.device/s22}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
mkdir -p $OUT/ab
W=${W:-Cdf53,Cdf97,LeGall53,Daubechies97Integer}
for r in 1 2; do
  for lp in always off; do
    $D/dwt-bench --wavelets $W --sizes ${SIZES:-2048x2048,4096,8192} --levels 2,3 --no-3d \
      --default-plan-only --reps 25 --level-pairs $lp --out $OUT/ab/$lp-$r.md > $OUT/ab/$lp-$r.log 2>&1
    echo "$lp run $r rc=$?"
  done
done

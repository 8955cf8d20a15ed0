#!/bin/bash
# Session 17, second call: A/B of Fidelity (old = d419f4d, new = vector rows in its inverse's tiles), alternating, three runs each.
set -u
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
S=$OUT/ab; mkdir -p $S
for i in 1 2 3; do for b in old new; do
  .device/s17/dwt-bench-$b --wavelets Fidelity,DeslauriersDubuc137 --sizes 1080p,4096,8192 --no-3d --reps 40 --default-plan-only --out $S/$b-$i.md > $S/$b-$i.log 2>&1 || echo "FAIL $b $i" >> $S/fail.txt
done; done
cd dwt-bench && python3 ab.py $S old new > $S/compare.md 2>&1
cat $S/compare.md $S/fail.txt 2>/dev/null
cd $S && tar czf $OUT/ab.tgz * && cp compare.md $OUT/ab-compare.md && rm -rf $S

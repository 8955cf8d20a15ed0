#!/bin/bash
# Session 17, third call: 1920x1080 A/B of every fused kernel laid out for 16-byte rows (all) against d419f4d (old), four runs each alternating.
set -u
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
S=$OUT/ab; mkdir -p $S
for i in 1 2 3 4; do for b in old all; do
  .device/s17/dwt-bench-$b --wavelets Daubechies97Integer,DeslauriersDubuc97,LeGall53,Cdf97,Cdf53,HaarWithShift --sizes 1080p --no-3d --reps 40 --default-plan-only --out $S/$b-$i.md > $S/$b-$i.log 2>&1 || echo "FAIL $b $i" >> $S/fail.txt
done; done
cd dwt-bench && python3 ab.py $S old all > $S/compare.md 2>&1
cat $S/compare.md $S/fail.txt 2>/dev/null
cd $S && tar czf $OUT/ab.tgz * && cp compare.md $OUT/ab-compare.md && rm -rf $S

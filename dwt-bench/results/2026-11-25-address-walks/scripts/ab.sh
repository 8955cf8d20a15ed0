#!/bin/bash
# A/B, alternating, two runs each: dwt-bench-old (ff500e4's kernels, 2d4c51e's build) against dwt-bench-new.
set -u
S=$OUT/ab; mkdir -p $S
for i in 1 2; do for b in ${BUILDS:-old new}; do
  .device/s16/dwt-bench-$b --wavelets ${WAVELETS} --sizes ${SIZES:-1080p,4096,8192} --no-3d --reps 30 --default-plan-only ${EXTRA:-} --out $S/$b-$i.md > $S/$b-$i.log 2>&1 || echo "FAIL $b $i" >> $S/fail.txt
done; done
cd dwt-bench && python3 ab.py $S ${BUILDS:-old new} > $S/compare.md 2>&1
cat $S/compare.md $S/fail.txt 2>/dev/null
cd $S && tar czf $OUT/ab.tgz * && cp compare.md $OUT/ab-compare.md && rm -rf $S

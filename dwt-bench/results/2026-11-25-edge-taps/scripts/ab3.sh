#!/bin/bash
# A/B of 10ec199's bench (old) against the scheduling hint's (new), alternating, two runs each.
set -u
S=$OUT/ab; mkdir -p $S
for i in 1 2; do for b in ${BUILDS:-old new}; do
  .device/s14/dwt-bench-$b --wavelets ${WAVELETS:-Daubechies97Integer} --sizes ${SIZES:-1080p,4096,8192} --no-3d --reps 30 --default-plan-only ${EXTRA:-} --out $S/$b-$i.md > $S/$b-$i.log 2>&1 || echo "FAIL $b $i" >> $S/fail.txt
done; done
cd dwt-bench && python3 ab.py $S ${BUILDS:-old new} > $S/compare.md 2>&1
cat $S/compare.md $S/fail.txt 2>/dev/null
cd $S && tar czf $OUT/ab.tgz * && cp compare.md $OUT/ab-compare.md && rm -rf $S

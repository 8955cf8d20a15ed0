#!/bin/bash
# A/B, alternating: dwt-bench-old (ff500e4's kernels, 2d4c51e's build) against dwt-bench-new.
# D: the carried folder of the builds (this session .device/s16); RUNS of each (2), REPS (30);
# BUILDS, WAVELETS (every program if unset), SIZES, EXTRA: more dwt-bench flags.
set -u
D=${D:-.device/s16}
S=$OUT/ab; mkdir -p $S
for i in $(seq ${RUNS:-2}); do for b in ${BUILDS:-old new}; do
  $D/dwt-bench-$b ${WAVELETS:+--wavelets $WAVELETS} --sizes ${SIZES:-1080p,4096,8192} --no-3d --reps ${REPS:-30} --default-plan-only ${EXTRA:-} --out $S/$b-$i.md > $S/$b-$i.log 2>&1 || echo "FAIL $b $i" >> $S/fail.txt
done; done
cd dwt-bench && python3 ab.py $S ${BUILDS:-old new} > $S/compare.md 2>&1
cat $S/compare.md $S/fail.txt 2>/dev/null
cd $S && tar czf $OUT/ab.tgz * && cp compare.md $OUT/ab-compare.md && rm -rf $S

#!/bin/bash
# 3-D A/B, alternating (RUNS of each): dwt-bench-<build> --sizes none (3-D only).
set -u
D=${D:-.device/s19}
S=$OUT/ab3d; mkdir -p $S
for i in $(seq ${RUNS:-2}); do for b in ${BUILDS:-base graph}; do
  $D/dwt-bench-$b ${WAVELETS:+--wavelets $WAVELETS} --sizes none --reps ${REPS:-20} --default-plan-only --out $S/$b-$i.md > $S/$b-$i.log 2>&1 || echo "FAIL $b $i" >> $S/fail.txt
done; done
cd dwt-bench && python3 ab.py $S ${BUILDS:-base graph} > $S/compare.md 2>&1
cat $S/compare.md $S/fail.txt 2>/dev/null
cd $S && tar czf $OUT/ab3d.tgz * && cp compare.md $OUT/ab3d-compare.md && rm -rf $S

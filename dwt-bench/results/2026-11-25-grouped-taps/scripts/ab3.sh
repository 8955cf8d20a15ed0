#!/bin/bash
# The same bench build under DWT_GROUP=0 (a product per tap), 1 (taps grouped everywhere), 3
# (grouped in the register passes of inner tiles only), alternating, two runs each.
set -u
S=$OUT/ab3; mkdir -p $S
W=${WAVELETS:-LeGall53,DeslauriersDubuc97,DeslauriersDubuc137,Fidelity,Daubechies97Integer}
for m in 0 1 3; do mkdir -p /tmp/cache$m; done
for i in 1 2; do for m in 0 1 3; do
  DWT_CACHE_DIR=/tmp/cache$m DWT_GROUP=$m .device/s13/dwt-bench-env --wavelets $W --sizes ${SIZES:-1080p,4096,8192} --no-3d --reps 30 --default-plan-only ${EXTRA:-} --out $S/m$m-$i.md > $S/m$m-$i.log 2>&1 || echo "FAIL $m $i" >> $S/fail.txt
done; done
cd dwt-bench && python3 ab.py $S m0 m1 m3 > $S/compare.md 2>&1
cat $S/compare.md $S/fail.txt 2>/dev/null
cd $S && tar czf $OUT/ab3.tgz * && cp compare.md $OUT/ && rm -rf $S

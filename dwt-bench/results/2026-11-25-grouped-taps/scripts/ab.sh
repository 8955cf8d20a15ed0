#!/bin/bash
# A/B of two bench builds, alternating, two runs each. EXTRA: more dwt-bench flags.
set -u
S=$OUT/ab; mkdir -p $S
W=${WAVELETS:-LeGall53,DeslauriersDubuc97,DeslauriersDubuc137,Fidelity,Daubechies97Integer}
for i in 1 2; do for b in old new; do
  .device/s13/dwt-bench-$b --wavelets $W --sizes ${SIZES:-1080p,4096,8192} --no-3d --reps 30 --default-plan-only ${EXTRA:-} --out $S/$b-$i.md > $S/$b-$i.log 2>&1 || echo "FAIL $b $i" >> $S/fail.txt
done; done
cd dwt-bench && python3 ab.py $S old new > $S/compare.md 2>&1
cat $S/compare.md $S/fail.txt 2>/dev/null
cd $S && tar czf $OUT/ab.tgz * && cp compare.md $OUT/ && rm -rf $S

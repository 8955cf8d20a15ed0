#!/bin/bash
# A/B of the two-pass plans and 3-D (58760ae's bench against a3624f8's, whose two-pass kernels
# are HEAD's): every variant's rows (no --default-plan-only), two runs each alternating.
set -u
S=$OUT/ab2; mkdir -p $S
for i in 1 2; do for b in old new; do
  timeout 200 .device/s13/dwt-bench-$b --wavelets ${WAVELETS:-LeGall53,DeslauriersDubuc137,Fidelity} --sizes ${SIZES:-4096} --reps 20 --out $S/$b-$i.md > $S/$b-$i.log 2>&1 || echo "FAIL $b $i" >> $S/fail.txt
done; done
cd dwt-bench
for v in two-pass src-\>dst; do echo "## $v"; python3 ab.py --variant "$v" $S old new; done > $S/compare.md 2>&1
cat $S/compare.md $S/fail.txt 2>/dev/null
cd $S && tar czf $OUT/ab2.tgz * && cp compare.md $OUT/ab2-compare.md && rm -rf $S

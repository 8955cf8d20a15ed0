#!/bin/bash
# GPU tests of the out-of-place rows tree, then the bench of b87b5bb (colseg) and of this tree
# (oop), alternating, two runs each.
export DWT_CACHE_DIR=$(mktemp -d)
(cd .device/bin && for t in dwt_cuda cuda conformance; do timeout 300 ./$t --include-ignored > $OUT/tests-$t.txt 2>&1; echo "$t rc $?" >> $OUT/summary.txt; done)
A="--wavelets LeGall53,Cdf97,Fidelity,HaarWithShift --sizes 1080p,4096,8192,512x16384 --no-3d --reps 30"
for i in 1 2; do
  for b in colseg oop; do
    .device/dwt-bench-$b $A --out $OUT/$b-$i.md > /dev/null 2>&1; echo "$b $i rc $?" >> $OUT/summary.txt
  done
done

#!/bin/bash
# GPU tests of the column-segments tree (rule: 2048 groups, segments of at least 128 rows),
# then its bench with the rule (rule-3) and with whole columns (whole-2), one run each.
B=$PWD/.device/dwt-bench-colseg
export DWT_CACHE_DIR=$(mktemp -d)
(cd .device/bin && for t in cuda conformance; do timeout 300 ./$t --include-ignored > $OUT/tests-$t.txt 2>&1; echo "$t rc $?" >> $OUT/summary.txt; done)
A="--wavelets LeGall53,Cdf97,Fidelity --sizes 1080p,4096,8192,512x16384 --no-3d --reps 30"
$B $A --out $OUT/rule-3.md > $OUT/rule-3.log 2>&1; echo "rule rc $?" >> $OUT/summary.txt
$B $A --column-segment 0 --out $OUT/whole-2.md > $OUT/whole-2.log 2>&1; echo "whole rc $?" >> $OUT/summary.txt

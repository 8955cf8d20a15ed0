#!/bin/bash
# Column segment lengths swept against the rule (rule-2), two-pass rows and Table IV.
B=$PWD/.device/dwt-bench-colseg
export DWT_CACHE_DIR=$(mktemp -d)
A="--wavelets LeGall53,Cdf97,Fidelity --sizes 1080p,4096,8192 --no-3d --reps 30"
for s in 64 128 512 2048; do $B $A --column-segment $s --out $OUT/seg$s.md > $OUT/seg$s.log 2>&1; echo "$s rc $?" >> $OUT/summary.txt; done
$B $A --out $OUT/rule-2.md > $OUT/rule-2.log 2>&1; echo "rule rc $?" >> $OUT/summary.txt

#!/bin/bash
# Two-pass path: the rows kernel up to 8192 samples (default now) vs the old 4096 limit, row groups, slabs.
B=.device/dwt-bench-rows
A="--wavelets LeGall53,Cdf97,Fidelity --sizes 4096,8192 --no-3d --reps 30"
mkdir -p $OUT/rows
run() { n=$1; shift; echo "== $n $*"; timeout 150 $B $A --out $OUT/rows/$n.md "$@" 2>&1 | grep -i "fail\|error" | head -5; }
run new
run old --row-limit 4096
run g128 --row-group 128
run g256 --row-group 256
run s16x8 --slab 16x8
run s8x16 --slab 8x16
run s32x16 --slab 32x16
run w128 --window 128
cd $OUT/rows && for f in new old g128 g256 s16x8 s8x16 s32x16 w128; do echo "## $f"; sed -n '/Table IV/,/^## Steps/p' $f.md | grep "x4096\|x8192" | awk -F'|' '{print $2,$4,$5,$6}'; grep "two-pass" $f.md | grep L1 | awk -F'|' '{print $2,$6,$11}'; done > summary.txt; cat summary.txt

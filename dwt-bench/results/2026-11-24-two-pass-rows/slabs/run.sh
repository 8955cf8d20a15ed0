#!/bin/bash
# The vertical pass: wider slabs (more contiguous bytes per row per group).
B=.device/dwt-bench-rows
A="--wavelets LeGall53,Cdf97,Fidelity --sizes 4096,8192 --no-3d --reps 30"
mkdir -p $OUT/slabs
for v in "d" "s64x4 --slab 64x4" "s128x2 --slab 128x2" "s128x4 --slab 128x4" "s64x8 --slab 64x8" "s64x4w128 --slab 64x4 --window 128"; do
  set -- $v; n=$1; shift
  timeout 150 $B $A "$@" --out $OUT/slabs/$n.md > /dev/null 2>&1 || echo "$n failed"
  echo "## $n"; sed -n '/Table IV/,/^## Steps/p' $OUT/slabs/$n.md | grep "x4096\|x8192" | awk -F'|' '{print $2,$4,$5,$6}'
done

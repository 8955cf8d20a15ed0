#!/bin/bash
# Tile sweep of the long forwards at 8192^2 (default-plan rows only).
B=.device/dwt-bench-sweep
W=Cdf97,Daubechies97Integer,DeslauriersDubuc97,DeslauriersDubuc137,Fidelity
A="--wavelets $W --sizes 8192 --no-3d --reps 30 --default-plan-only"
mkdir -p $OUT/sweep
run() { n=$1; shift; echo "== $n $*"; timeout 120 $B $A --out $OUT/sweep/$n.md "$@" 2>&1 | grep -v "^[A-Z][a-zA-Z0-9]* 8192x8192$" | tail -5; }
run d1
run a64x16s8 --tile 64x16 --threads 256 --segment 8
run t64x32s8 --tile 64x32 --threads 512 --segment 8
run t64x32s16 --tile 64x32 --threads 512 --segment 16
run t32x32s8 --tile 32x32 --threads 512 --segment 8
run t128x16s8 --tile 128x16 --threads 512 --segment 8
run t64x32s16x256 --tile 64x32 --threads 256 --segment 16
run t32x64s8 --tile 32x64 --threads 512 --segment 8
run d2
cd $OUT/sweep && for f in *.md; do echo "## $f"; grep "L1 fwd\|L1 inv" $f | grep "src->dst" | awk -F'|' '{print $2,$6,$11}'; done

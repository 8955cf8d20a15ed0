#!/usr/bin/env bash
# On the GPU machine, one call carrying a folder ($1) with dwt-bench-new (stripped, in
# bins.tar.xz): the programs whose volumes take the two passes (Deslauriers-Dubuc (9,7) and
# (13,7), Fidelity) at 512^3, default plan only, under each setting of the depth pass (window
# height, slab, column segments) in turns, two rounds, into $OUT/depth.tar.
set -u
start=$(date +%s)
D=$(mktemp -d)
tar -C $D -xJf $1/bins.tar.xz
export DWT_CACHE_DIR=$(mktemp -d)
A=$(mktemp -d)/depth && mkdir -p $A
W=DeslauriersDubuc97,DeslauriersDubuc137,Fidelity
for round in 1 2; do
  for v in base "window 32" "window 128" "slab 32x4" "slab 64x4" "slab 16x8" "slab 32x16" "column-segment 0" "column-segment 128"; do
    name=$(echo $v | tr ' ' '-')
    args=""; [ "$v" != base ] && args="--$v"
    timeout 60 $D/dwt-bench-new --wavelets $W --sizes none --default-plan-only $args \
      --out $A/$name-$round.md > /dev/null 2> $A/$name-$round.err
    echo "$name $round rc=$? $(( $(date +%s) - start )) s" | tee -a $A/log.txt
  done
done
tar -C $(dirname $A) -cf $OUT/depth.tar depth

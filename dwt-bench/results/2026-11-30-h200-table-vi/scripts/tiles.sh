#!/usr/bin/env bash
# On the GPU machine, one call carrying a folder ($1) with dwt-bench-new (stripped, in
# bins.tar.xz): the programs whose volumes take the two passes at 512^3, default plan only,
# under the depth pass's best settings of depth.sh together and the long programs' tile shapes
# (on 512x512 planes they keep 32x16 by default), in turns, two rounds, into $OUT/tiles.tar.
set -u
start=$(date +%s)
D=$(mktemp -d)
tar -C $D -xJf $1/bins.tar.xz
export DWT_CACHE_DIR=$(mktemp -d)
A=$(mktemp -d)/tiles && mkdir -p $A
W=DeslauriersDubuc97,DeslauriersDubuc137,Fidelity
T="--small-band-tiles on --threads 256"
for round in 1 2; do
  i=0
  for v in "" "--window 128 --slab 32x4" "--window 96 --slab 32x4" "--tile 32x16 --segment 8 $T" \
      "--tile 32x32 --segment 16 $T" "--tile 48x32 --segment 16 $T" "--tile 32x24 --segment 8 $T" \
      "--tile 64x16 --segment 16 $T" "--window 128 --slab 32x4 --tile 32x32 --segment 16 $T"; do
    i=$((i + 1))
    timeout 60 $D/dwt-bench-new --wavelets $W --sizes none --default-plan-only $v \
      --out $A/v$i-$round.md > /dev/null 2> $A/v$i-$round.err
    echo "v$i $round rc=$? $(( $(date +%s) - start )) s: $v" | tee -a $A/log.txt
  done
done
tar -C $(dirname $A) -cf $OUT/tiles.tar tiles

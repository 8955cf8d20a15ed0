#!/usr/bin/env bash
# On the GPU machine, one call carrying a folder ($1, e.g. .device/s117) with bins.tar.xz
# (dwt-bench-new, cuda/{cuda,conformance}, stripped): after the scratch's bands became compact
# (2f9715c), the CUDA tests of the pair-local volumes and the graphs, the conformance suite's
# pair_volumes, and dwt-bench on Haar's volumes with the pyramid on and off (Mallat). Into $OUT.
set -u
D=$(mktemp -d)
tar -C $D -xJf $1/bins.tar.xz
export DWT_CACHE_DIR=$(mktemp -d)
$D/cuda/cuda --include-ignored pair_local volumes graph_replays large_transforms band_copies > $OUT/tests-cuda.txt 2>&1
echo "cuda rc=$? $(grep 'test result' $OUT/tests-cuda.txt)" | tee -a $OUT/tests.txt
$D/cuda/conformance --include-ignored pair_volumes > $OUT/tests-conformance.txt 2>&1
echo "conformance rc=$? $(grep 'test result' $OUT/tests-conformance.txt)" | tee -a $OUT/tests.txt
for p in on off on off; do
  $D/dwt-bench-new --wavelets HaarNoShift --sizes none --pyramids $p --out $OUT/bench-$p.md > /dev/null 2>&1
  grep "HaarNoShift 512" $OUT/bench-$p.md | grep -E "src->dst|in place" | awk -v p=$p -F'|' '{print p, $2, $4, $6}' | tee -a $OUT/tests.txt
done

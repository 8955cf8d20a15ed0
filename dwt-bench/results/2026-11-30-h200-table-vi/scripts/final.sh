#!/usr/bin/env bash
# On the GPU machine, one call carrying a folder ($1, e.g. .device/s126) with bins.tar.xz
# (cuda/{cuda,conformance} of `cargo test --release -p dwt-cuda --no-run` at 9a40ebc,
# dwt-bench-old built before the volumes' settings (168f0f5), dwt-bench-new at 9a40ebc, all
# stripped) and the peers' wheels: the CUDA tests and the conformance suite's 3-D parts (the
# volume settings forced on among them), dwt-bench's volumes old and new in turns (one round,
# into $OUT/ab.tar), then the full run of 2026-11-29-h200-volume-peers/scripts/full.sh (into
# $OUT/run.tar).
set -u
start=$(date +%s)
D=$(mktemp -d)
tar -C $D -xJf $1/bins.tar.xz
export DWT_CACHE_DIR=$(mktemp -d)
s=$(date +%s)
timeout 100 $D/cuda/cuda --include-ignored > $OUT/cuda.log 2>&1
echo "cuda rc=$? $(( $(date +%s) - s )) s $(grep 'test result' $OUT/cuda.log)" | tee -a $OUT/tests.txt
s=$(date +%s)
timeout 150 $D/cuda/conformance --include-ignored volume_settings catalogue_3d large_sizes > $OUT/conformance.log 2>&1
echo "conformance (3-D parts) rc=$? $(( $(date +%s) - s )) s $(grep 'test result' $OUT/conformance.log)" | tee -a $OUT/tests.txt
grep -hE 'panicked|FAILED' $OUT/cuda.log $OUT/conformance.log | head -5
A=$(mktemp -d)/ab && mkdir -p $A
for round in 1; do
  for b in old new; do
    timeout 100 $D/dwt-bench-$b --wavelets LeGall53,DeslauriersDubuc97,DeslauriersDubuc137,Fidelity --sizes none \
      --out $A/$b-$round.md > /dev/null 2> $A/$b-$round.err
    echo "bench $b $round rc=$? $(( $(date +%s) - start )) s" | tee -a $OUT/tests.txt
  done
done
tar -C $(dirname $A) -cf $OUT/ab.tar ab
echo "tests and A/B took $(( $(date +%s) - start )) s" | tee -a $OUT/tests.txt
bash dwt-bench/results/2026-11-29-h200-volume-peers/scripts/full.sh $1 | tee $OUT/full.txt

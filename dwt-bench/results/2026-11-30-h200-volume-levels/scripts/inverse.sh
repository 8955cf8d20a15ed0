#!/usr/bin/env bash
# On the GPU machine, one call carrying a folder ($1, e.g. .device/s122) with bins.tar.xz
# (cuda/cuda of `cargo test --release -p dwt-cuda --no-run`, ocl/opencl of `cargo test
# --release -p dwt-opencl --no-run`, dwt-bench-old built at 24958e5 (the forward's levels in one
# pass) and dwt-bench-new at the commit under test, all stripped), the peers' wheels and
# vendors/nvidia.icd: the CUDA suite, the one-pass OpenCL test through NVIDIA's OpenCL,
# dwt-bench's volumes old and new in turns (two rounds, into $OUT/ab.tar), then the full run
# of 2026-11-29-h200-volume-peers/scripts/full.sh (into $OUT/run.tar).
set -u
start=$(date +%s)
D=$(mktemp -d)
tar -C $D -xJf $1/bins.tar.xz
export DWT_CACHE_DIR=$(mktemp -d)
timeout 120 $D/cuda/cuda --include-ignored > $OUT/cuda.log 2>&1
echo "cuda rc=$? $(( $(date +%s) - start )) s $(grep 'test result' $OUT/cuda.log)" | tee -a $OUT/tests.txt
grep -E 'panicked|FAILED' $OUT/cuda.log | head -5
(
  export LD_LIBRARY_PATH=/lib/x86_64-linux-gnu OCL_ICD_VENDORS=$PWD/$1/vendors
  timeout 100 $D/ocl/opencl --include-ignored --exact one_pass_volumes_match_the_reference > $OUT/ocl-tests.log 2>&1
  echo "ocl tests rc=$? $(grep 'test result' $OUT/ocl-tests.log)" | tee -a $OUT/tests.txt
  grep -E 'panicked' $OUT/ocl-tests.log | head -3
)
A=$(mktemp -d)/ab && mkdir -p $A
for round in 1 2; do
  for b in old new; do
    timeout 100 $D/dwt-bench-$b --wavelets LeGall53,Cdf53,Cdf97 --sizes none \
      --out $A/$b-$round.md > /dev/null 2> $A/$b-$round.err
    echo "bench $b $round rc=$?" | tee -a $OUT/tests.txt
  done
done
tar -C $(dirname $A) -cf $OUT/ab.tar ab
echo "tests and A/B took $(( $(date +%s) - start )) s" | tee -a $OUT/tests.txt
bash dwt-bench/results/2026-11-29-h200-volume-peers/scripts/full.sh $1 | tee $OUT/full.txt

#!/usr/bin/env bash
# On the GPU machine, one call carrying a folder ($1, e.g. .device/s119) with bins.tar.xz
# (cuda/{cuda,conformance} of `cargo test --release -p dwt-cuda --no-run`, ocl/opencl of
# `cargo test --release -p dwt-opencl --no-run`, dwt-bench-old built at c1bd024 and
# dwt-bench-new at the commit under test, all stripped) and vendors/nvidia.icd naming
# libnvidia-opencl.so.1: the whole CUDA test and conformance suites, the one-pass OpenCL test
# through NVIDIA's OpenCL, then dwt-bench's volumes (--sizes none), old and new builds in turns,
# two rounds. Output into $OUT.
set -u
start=$(date +%s)
D=$(mktemp -d)
tar -C $D -xJf $1/bins.tar.xz
nvidia-smi > $OUT/device.txt 2>&1
export DWT_CACHE_DIR=$(mktemp -d)
for t in cuda conformance; do
  s=$(date +%s)
  timeout 240 $D/cuda/$t --include-ignored > $OUT/$t.log 2>&1
  echo "$t rc=$? $(( $(date +%s) - s )) s $(grep 'test result' $OUT/$t.log)" | tee -a $OUT/tests.txt
  grep -E 'panicked|FAILED' $OUT/$t.log | head -5
done
(
  export LD_LIBRARY_PATH=/lib/x86_64-linux-gnu OCL_ICD_VENDORS=$PWD/$1/vendors
  s=$(date +%s)
  timeout 150 $D/ocl/opencl --include-ignored --exact one_pass_volumes_match_the_reference > $OUT/ocl-tests.log 2>&1
  echo "ocl tests rc=$? $(( $(date +%s) - s )) s $(grep 'test result' $OUT/ocl-tests.log)" | tee -a $OUT/tests.txt
  grep -E 'panicked' $OUT/ocl-tests.log | head -3
)
mkdir -p $OUT/ab
for round in 1 2; do
  for b in old new; do
    timeout 200 $D/dwt-bench-$b --wavelets LeGall53,Cdf53,Cdf97,Daubechies97Integer --sizes none \
      --out $OUT/ab/$b-$round.md > /dev/null 2> $OUT/ab/$b-$round.err
    echo "bench $b $round rc=$?" | tee -a $OUT/tests.txt
  done
done
echo "all took $(( $(date +%s) - start )) s" | tee -a $OUT/tests.txt

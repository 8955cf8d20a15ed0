#!/usr/bin/env bash
# On the GPU machine, one call carrying a folder ($1, e.g. .device/s116) with bins.tar.xz
# (cuda/{cuda,conformance} of `cargo test --release -p dwt-cuda --no-run`, ocl/opencl of
# `cargo test --release -p dwt-opencl --no-run`, ocl/opencl_volumes of `cargo build --release -p
# dwt-opencl --example opencl_volumes`, stripped) and vendors/nvidia.icd naming
# libnvidia-opencl.so.1: the whole CUDA test and conformance suites, then the pair-local and
# one-pass OpenCL tests and opencl_volumes through NVIDIA's OpenCL. Output into $OUT.
set -u
start=$(date +%s)
D=$(mktemp -d)
tar -C $D -xJf $1/bins.tar.xz
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
  timeout 150 $D/ocl/opencl --include-ignored --exact pair_local_volumes_match_the_reference one_pass_volumes_match_the_reference > $OUT/ocl-tests.log 2>&1
  echo "ocl tests rc=$? $(( $(date +%s) - s )) s $(grep 'test result' $OUT/ocl-tests.log)" | tee -a $OUT/tests.txt
  grep -E 'panicked' $OUT/ocl-tests.log | head -3
  timeout 150 $D/ocl/opencl_volumes > $OUT/opencl-volumes.md 2>&1
  echo "opencl_volumes rc=$?" | tee -a $OUT/tests.txt
  cat $OUT/opencl-volumes.md
)
echo "all took $(( $(date +%s) - start )) s" | tee -a $OUT/tests.txt

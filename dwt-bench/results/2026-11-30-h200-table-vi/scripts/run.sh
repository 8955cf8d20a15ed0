#!/usr/bin/env bash
# On the GPU machine, one call carrying a folder ($1, e.g. .device/s124) with bins.tar.xz
# (cuda/{dwt_cuda,cuda,conformance} of `cargo test --release -p dwt-cuda --no-run`, ocl/opencl
# of `cargo test --release -p dwt-opencl --no-run`, dwt-bench-new, all stripped), the peers'
# wheels and vendors/nvidia.icd naming libnvidia-opencl.so.1: the CUDA test and conformance
# suites and the OpenCL suite through NVIDIA's OpenCL (logs into $OUT), then the full run of
# 2026-11-29-h200-volume-peers/scripts/full.sh (into $OUT/run.tar).
set -u
start=$(date +%s)
D=$(mktemp -d)
tar -C $D -xJf $1/bins.tar.xz
export DWT_CACHE_DIR=$(mktemp -d)
for t in dwt_cuda cuda conformance; do
  s=$(date +%s)
  timeout 200 $D/cuda/$t --include-ignored > $OUT/$t.log 2>&1
  echo "$t rc=$? $(( $(date +%s) - s )) s $(grep 'test result' $OUT/$t.log)" | tee -a $OUT/tests.txt
  grep -E 'panicked|FAILED' $OUT/$t.log | head -5
done
(
  export LD_LIBRARY_PATH=/lib/x86_64-linux-gnu OCL_ICD_VENDORS=$PWD/$1/vendors DWT_CACHE_DIR=$(mktemp -d)
  s=$(date +%s)
  timeout 150 $D/ocl/opencl --include-ignored > $OUT/ocl.log 2>&1
  echo "opencl (NVIDIA) rc=$? $(( $(date +%s) - s )) s $(grep 'test result' $OUT/ocl.log)" | tee -a $OUT/tests.txt
  grep -E 'panicked|FAILED' $OUT/ocl.log | head -5
)
echo "tests took $(( $(date +%s) - start )) s" | tee -a $OUT/tests.txt
bash dwt-bench/results/2026-11-29-h200-volume-peers/scripts/full.sh $1 | tee $OUT/full.txt

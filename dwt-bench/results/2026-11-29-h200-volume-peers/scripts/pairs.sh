# One call on the GPU machine, carrying a folder with bins.tar.xz (cuda/*: the test binaries of
# `cargo test --release -p dwt-cuda --no-run`; ocl/{opencl,conformance}: of `cargo test --release
# -p dwt-opencl --no-run`; ocl/opencl_volumes: `cargo build --release -p dwt-opencl --example
# opencl_volumes`; dwt-bench-new; all stripped, without their hashes), the peers' wheels and
# vendors/nvidia.icd for the OpenCL ICD loader:
# 1. the CUDA tests named in TESTS (default: cuda conformance) with --include-ignored;
# 2. three-d.sh: the 3-D cases, default plan and with the one-pass volume kernels off, and ptwt;
# 3. the pair-local volume kernels' OpenCL tests and opencl_volumes through NVIDIA's OpenCL.
# Usage: bash dwt-bench/results/2026-11-29-h200-volume-peers/scripts/pairs.sh .device/sNN
set -u
start=$(date +%s)
D=$(mktemp -d)
tar -C $D -xJf $1/bins.tar.xz
export DWT_CACHE_DIR=$(mktemp -d)
for t in ${TESTS:-cuda conformance}; do
  s=$(date +%s)
  timeout 200 $D/cuda/$t --include-ignored > $OUT/$t.log 2>&1
  echo "$t rc=$? $(( $(date +%s) - s )) s $(grep 'test result' $OUT/$t.log)" | tee -a $OUT/tests.txt
  grep -E 'panicked|FAILED' $OUT/$t.log | head -5
  { echo "===== $t"; cat $OUT/$t.log; } >> $OUT/logs.txt
  rm $OUT/$t.log
done
ONE_PASS=off bash $(dirname $0)/three-d.sh $1
(
  export LD_LIBRARY_PATH=/lib/x86_64-linux-gnu OCL_ICD_VENDORS=$PWD/$1/vendors
  s=$(date +%s)
  timeout 150 $D/ocl/opencl --include-ignored --exact pair_local_volumes_match_the_reference one_pass_volumes_match_the_reference > $OUT/ocl-tests.txt 2>&1
  echo "ocl tests rc=$? $(( $(date +%s) - s )) s $(grep 'test result' $OUT/ocl-tests.txt)" | tee -a $OUT/tests.txt
  grep -E 'panicked' $OUT/ocl-tests.txt | head -3
  timeout 120 $D/ocl/opencl_volumes > $OUT/opencl-volumes.txt 2>&1
  echo "opencl_volumes rc=$?" | tee -a $OUT/tests.txt
  cat $OUT/opencl-volumes.txt
)
echo "all took $(( $(date +%s) - start )) s" | tee -a $OUT/tests.txt

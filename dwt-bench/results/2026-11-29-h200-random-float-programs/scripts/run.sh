# One call on the GPU machine, carrying .device/s80 (cuda/conformance and ocl/conformance: the
# test binaries of `cargo test -p dwt-cuda -p dwt-opencl --no-run`, stripped; vendors/nvidia.icd
# for the ICD loader). Usage: bash dwt-bench/results/2026-11-29-h200-random-float-programs/scripts/run.sh .device/s80
set -u
D=$1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/device.txt
nproc | tee -a $OUT/device.txt
export DWT_CACHE_DIR=$(mktemp -d)
s=$(date +%s)
timeout 200 $D/cuda/conformance --include-ignored > $OUT/cuda-conformance.txt 2>&1
echo "cuda conformance rc=$? $(( $(date +%s) - s )) s" | tee -a $OUT/device.txt
grep -E 'test result|panicked' $OUT/cuda-conformance.txt
s=$(date +%s)
LD_LIBRARY_PATH=/lib/x86_64-linux-gnu OCL_ICD_VENDORS=$PWD/$D/vendors \
  timeout 150 $D/ocl/conformance --include-ignored > $OUT/ocl-conformance.txt 2>&1
echo "nvidia opencl conformance rc=$? $(( $(date +%s) - s )) s" | tee -a $OUT/device.txt
grep -E 'test result|panicked' $OUT/ocl-conformance.txt
# The longer search: every random-program test of every CUDA variant and candidate with
# PROPTEST_CASES programs each (integer and float alike).
s=$(date +%s)
PROPTEST_CASES=${CASES:-64} timeout 330 $D/cuda/conformance --include-ignored random > $OUT/cuda-random-search.txt 2>&1
echo "cuda random search (PROPTEST_CASES=${CASES:-64}) rc=$? $(( $(date +%s) - s )) s" | tee -a $OUT/device.txt
grep -E '^test |test result|panicked' $OUT/cuda-random-search.txt

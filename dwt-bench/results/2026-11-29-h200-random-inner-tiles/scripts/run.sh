# One call on the GPU machine, carrying .device/s81 (cuda/conformance, ocl/conformance and
# ocl/frames: test binaries of `cargo test -p dwt-cuda -p dwt-opencl --no-run` at 4ce46df,
# stripped; vendors/nvidia.icd for the ICD loader).
# Usage: bash dwt-bench/results/2026-11-29-h200-random-inner-tiles/scripts/run.sh .device/s81
set -u
D=$1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/device.txt
nproc | tee -a $OUT/device.txt
export DWT_CACHE_DIR=$(mktemp -d)
s=$(date +%s)
timeout 170 $D/cuda/conformance --include-ignored > $OUT/cuda-conformance.txt 2>&1
echo "cuda conformance rc=$? $(( $(date +%s) - s )) s" | tee -a $OUT/device.txt
grep -E 'test result|panicked' $OUT/cuda-conformance.txt
export LD_LIBRARY_PATH=/lib/x86_64-linux-gnu OCL_ICD_VENDORS=$PWD/$D/vendors
s=$(date +%s)
timeout 130 $D/ocl/conformance --include-ignored > $OUT/ocl-conformance.txt 2>&1
echo "nvidia opencl conformance rc=$? $(( $(date +%s) - s )) s" | tee -a $OUT/device.txt
grep -E 'test result|panicked' $OUT/ocl-conformance.txt
s=$(date +%s)
timeout 40 $D/ocl/frames --include-ignored > $OUT/ocl-frames.txt 2>&1
echo "nvidia opencl frames rc=$? $(( $(date +%s) - s )) s" | tee -a $OUT/device.txt
grep -E '^test |test result|panicked' $OUT/ocl-frames.txt
unset LD_LIBRARY_PATH OCL_ICD_VENDORS
# The longer search: every random-program test of every CUDA variant and candidate with
# PROPTEST_CASES programs each (integer and float alike), as long as the call allows.
s=$(date +%s)
PROPTEST_CASES=${CASES:-32} timeout ${SEARCH_S:-220} $D/cuda/conformance --include-ignored random > $OUT/cuda-random-search.txt 2>&1
echo "cuda random search (PROPTEST_CASES=${CASES:-32}) rc=$? $(( $(date +%s) - s )) s" | tee -a $OUT/device.txt
grep -E '^test |test result|panicked' $OUT/cuda-random-search.txt

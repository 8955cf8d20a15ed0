# One call on the GPU machine, carrying .device/s82 (cuda/{conformance,cuda,nvrtc} and
# ocl/{conformance,opencl}: test binaries of `cargo test -p dwt-cuda -p dwt-opencl --no-run`,
# stripped; vendors/nvidia.icd for the ICD loader).
# Usage: bash dwt-bench/results/2026-11-29-h200-lines-kernel/scripts/run.sh .device/s82
set -u
D=$1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/device.txt
nproc | tee -a $OUT/device.txt
export DWT_CACHE_DIR=$(mktemp -d)
run() { # name timeout command...
  local name=$1 limit=$2; shift 2
  local s=$(date +%s)
  timeout $limit "$@" > $OUT/$name.txt 2>&1
  echo "$name rc=$? $(( $(date +%s) - s )) s" | tee -a $OUT/device.txt
  grep -E 'test result|panicked' $OUT/$name.txt
}
run cuda-cuda 90 $D/cuda/cuda --include-ignored
run cuda-nvrtc 120 $D/cuda/nvrtc lines_modules
run cuda-conformance 170 $D/cuda/conformance --include-ignored
export LD_LIBRARY_PATH=/lib/x86_64-linux-gnu OCL_ICD_VENDORS=$PWD/$D/vendors
run ocl-opencl 60 $D/ocl/opencl --include-ignored --skip no_platform_child
run ocl-conformance 130 $D/ocl/conformance --include-ignored
unset LD_LIBRARY_PATH OCL_ICD_VENDORS
# A longer search: the CUDA variants' random tests (integer and float, periodic programs among
# them), PROPTEST_CASES programs each, new draws.
run cuda-random-search ${SEARCH_S:-150} env PROPTEST_CASES=${CASES:-48} $D/cuda/conformance --include-ignored --skip candidates random
grep -E '^test ' $OUT/cuda-random-search.txt

# One call on the GPU machine, carrying .device/s98: ocl/{opencl,conformance} (test binaries of
# `cargo test --release -p dwt-opencl --no-run` at d5fd0ed, stripped) and vendors/nvidia.icd for
# the ICD loader: the one-pass volume kernel's OpenCL form through NVIDIA's OpenCL.
# Usage: bash dwt-bench/results/2026-11-29-h200-volume-pairs/scripts/opencl.sh .device/s98
set -u
D=$1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/device.txt
export DWT_CACHE_DIR=$(mktemp -d) LD_LIBRARY_PATH=/lib/x86_64-linux-gnu OCL_ICD_VENDORS=$PWD/$D/vendors
run() { # name timeout command...
  local name=$1 limit=$2; shift 2
  local s=$(date +%s)
  timeout $limit "$@" > $OUT/$name.txt 2>&1
  echo "$name rc=$? $(( $(date +%s) - s )) s" | tee -a $OUT/device.txt
  grep -E 'test result|panicked' $OUT/$name.txt
}
run ocl-volume 200 $D/ocl/opencl --include-ignored --exact one_pass_volumes_match_the_reference out_of_place_runs_leave_the_source_alone
run ocl-conformance 250 $D/ocl/conformance --include-ignored

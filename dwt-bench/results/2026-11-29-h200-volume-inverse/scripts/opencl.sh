# One call on the GPU machine, carrying .device/s105: ocl/{opencl,conformance} (test binaries of
# `cargo test --release -p dwt-opencl --no-run`, stripped), ocl/opencl_volumes (`cargo build
# --release -p dwt-opencl --example opencl_volumes`) and vendors/nvidia.icd for the ICD loader:
# both one-pass volume kernels' OpenCL form through NVIDIA's OpenCL, tested and timed.
# Usage: bash dwt-bench/results/2026-11-29-h200-volume-inverse/scripts/opencl.sh .device/s105
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
run opencl-volumes 120 $D/ocl/opencl_volumes
cat $OUT/opencl-volumes.txt

cd "$(dirname "$0")"
export LD_LIBRARY_PATH=/lib/x86_64-linux-gnu OCL_ICD_VENDORS=$PWD/vendors
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for r in 1 2; do ./opencl_call_overhead; done 2>&1 | tee $OUT/call_overhead.md

# One call on the GPU machine, carrying .device/s87: cuda/* (the test binaries of
# `cargo test --release -p dwt-cuda --no-run`, stripped, named without their hashes).
# Usage: bash dwt-bench/results/2026-11-29-h200-validation/scripts/run.sh .device/s87
set -u
D=$1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/device.txt
export DWT_CACHE_DIR=$(mktemp -d)
for t in dwt_cuda nvrtc driver cuda host_memory thread_context threads frames conformance; do
  s=$(date +%s)
  timeout 200 $D/cuda/$t --include-ignored > $OUT/$t.txt 2>&1
  echo "$t rc=$? $(( $(date +%s) - s )) s $(grep 'test result' $OUT/$t.txt)" | tee -a $OUT/device.txt
  grep -E 'panicked|FAILED' $OUT/$t.txt | head -5
done

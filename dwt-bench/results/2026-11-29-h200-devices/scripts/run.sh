# One call on the GPU machine, carrying .device/s89: cuda/* (the test binaries of
# `cargo test --release -p dwt-cuda --no-run`, stripped, named without their hashes).
# Every binary's log goes into $OUT/logs.txt (the tool returns at most 8 files).
# Usage: bash dwt-bench/results/2026-11-29-h200-devices/scripts/run.sh .device/s89
set -u
D=$1
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader | tee $OUT/device.txt
export DWT_CACHE_DIR=$(mktemp -d)
for t in dwt_cuda nvrtc driver cuda host_memory thread_context threads frames conformance; do
  s=$(date +%s)
  timeout 200 $D/cuda/$t --include-ignored > $OUT/$t.log 2>&1
  echo "$t rc=$? $(( $(date +%s) - s )) s $(grep 'test result' $OUT/$t.log)" | tee -a $OUT/device.txt
  grep -E 'panicked|FAILED' $OUT/$t.log | head -5
  { echo "===== $t"; cat $OUT/$t.log; } >> $OUT/logs.txt
  rm $OUT/$t.log
done

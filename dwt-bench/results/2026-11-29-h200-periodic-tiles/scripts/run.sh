# One call on the GPU machine, carrying .device/s86: dwt-bench (`cargo build --release -p
# dwt-bench`), cuda/{conformance,cuda,nvrtc} and ocl/conformance (test binaries of
# `cargo test --release -p dwt-cuda -p dwt-opencl --no-run`), stripped; vendors/nvidia.icd for
# the ICD loader.
# Usage: bash dwt-bench/results/2026-11-29-h200-periodic-tiles/scripts/run.sh .device/s86
set -u
D=$1
W=dwt-bench/results/2026-11-29-h200-lines-speed/wavelets
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/device.txt
export DWT_CACHE_DIR=$(mktemp -d)
run() { # name timeout command...
  local name=$1 limit=$2; shift 2
  local s=$(date +%s)
  timeout $limit "$@" > $OUT/$name.txt 2>&1
  echo "$name rc=$? $(( $(date +%s) - s )) s" | tee -a $OUT/device.txt
  grep -E 'test result|panicked' $OUT/$name.txt
}
# Periodic programs (fused pass, edge tiles wrapped) beside the catalogue's, in one process.
run bench 300 $D/dwt-bench --out $OUT/dwt-bench.md --sizes 1080p,4096,8192 --levels 1,3 \
  --wavelets LeGall53,Cdf97,$W/periodic_legall53.wavelet,$W/periodic_cdf97.wavelet
tail -3 $OUT/bench.txt
run cuda-conformance 170 $D/cuda/conformance --include-ignored
run cuda-cuda 60 $D/cuda/cuda --include-ignored
export LD_LIBRARY_PATH=/lib/x86_64-linux-gnu OCL_ICD_VENDORS=$PWD/$D/vendors
run ocl-conformance 150 $D/ocl/conformance --include-ignored

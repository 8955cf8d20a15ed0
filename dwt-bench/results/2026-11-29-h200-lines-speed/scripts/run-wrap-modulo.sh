# One call on the GPU machine, carrying .device/s84: dwt-bench (`cargo build --release -p
# dwt-bench`), cuda/{conformance,cuda,nvrtc} and ocl/conformance (test binaries of
# `cargo test --release -p dwt-cuda -p dwt-opencl --no-run`), all stripped; vendors/nvidia.icd
# for the ICD loader.
# Usage (at 8b73472): bash dwt-bench/results/2026-11-29-h200-lines-speed/scripts/run-wrap-modulo.sh .device/s84
set -u
D=$1
R=dwt-bench/results/2026-11-29-h200-lines-speed
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
# The periodic programs' kernels (lines kernel along y and z) against the catalogue's clamp and
# symmetric ones, side by side in one process: 2-D one and three levels, 3-D three levels at 256^3.
run bench 300 $D/dwt-bench --out $OUT/dwt-bench.md --sizes 1080p,4096,8192 --levels 1,3 \
  --wavelets LeGall53,Cdf97,$R/wavelets/periodic_legall53.wavelet,$R/wavelets/periodic_cdf97.wavelet
tail -3 $OUT/bench.txt
run cuda-conformance 170 $D/cuda/conformance --include-ignored
run cuda-cuda 90 $D/cuda/cuda --include-ignored
run cuda-nvrtc 60 $D/cuda/nvrtc periodic_and_lines
export LD_LIBRARY_PATH=/lib/x86_64-linux-gnu OCL_ICD_VENDORS=$PWD/$D/vendors
run ocl-conformance 200 $D/ocl/conformance --include-ignored

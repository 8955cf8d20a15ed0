# One call on the GPU machine, carrying .device/s85: dwt-bench (`cargo build --release -p
# dwt-bench`) and cuda/conformance (`cargo test --release -p dwt-cuda --no-run`), stripped.
# Usage: bash dwt-bench/results/2026-11-29-h200-lines-speed/scripts/run.sh .device/s85
set -u
D=$1
R=dwt-bench/results/2026-11-29-h200-lines-speed
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/device.txt
export DWT_CACHE_DIR=$(mktemp -d)
run() { # name timeout command...
  local name=$1 limit=$2; shift 2
  local s=$(date +%s)
  timeout $limit "$@" > $OUT/$name.txt 2>&1
  echo "$name rc=$? $(( $(date +%s) - s )) s" | tee -a $OUT/device.txt
  grep -E 'test result|panicked' $OUT/$name.txt
}
run bench 300 $D/dwt-bench --out $OUT/dwt-bench.md --sizes 1080p,4096,8192 --levels 1,3 \
  --wavelets LeGall53,Cdf97,$R/wavelets/periodic_legall53.wavelet,$R/wavelets/periodic_cdf97.wavelet
tail -3 $OUT/bench.txt
# The suite's parts that draw periodic programs (CUDA, every variant).
run cuda-conformance 200 $D/cuda/conformance --include-ignored lines random

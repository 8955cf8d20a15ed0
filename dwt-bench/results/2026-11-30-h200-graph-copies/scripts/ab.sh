#!/usr/bin/env bash
# On the GPU machine, one call carrying the folder named ($1, e.g. .device/s113): the CUDA tests
# that record graphs with the copy kernel, then dwt-bench alternating memcpy nodes (off), the
# copy kernel for every copy (0) and the default bound, twice; everything into $OUT/run.tar.
set -u
B=$1
R=$OUT/ab
mkdir -p "$R"
nvidia-smi > "$R/device.txt" 2>&1
export DWT_CACHE_DIR=$(mktemp -d)
"$B/cuda/cuda" --include-ignored graph_replays large_transforms volumes > "$R/tests-cuda.txt" 2>&1
echo "cuda: exit $?" >> "$R/tests.txt"
"$B/cuda/nvrtc" copy_kernel > "$R/tests-nvrtc.txt" 2>&1
echo "nvrtc: exit $?" >> "$R/tests.txt"
for round in 1 2; do
  for from in off 0 33554432; do
    "$B/dwt-bench-new" --wavelets LeGall53,HaarNoShift,Cdf97 --sizes 1080p,4096,8192 \
      --levels 1,3 --copy-kernel-from "$from" --out "$R/bench-$from-$round.md" \
      > /dev/null 2> "$R/bench-$from-$round.err"
    echo "bench $from $round: exit $?" >> "$R/tests.txt"
  done
done
tar -C "$OUT" -cf "$OUT/run.tar" ab && rm -rf "$R"

#!/usr/bin/env bash
# On the GPU machine, one call carrying the folder named ($1, e.g. .device/s113, holding
# dwt-bench-new and cuda/{cuda,conformance,nvrtc}): the GPU tests of the copy kernel and the
# volume pyramid; dwt-bench on Haar's volumes with the pyramid on and off in both layouts; then
# dwt-bench alternating memcpy nodes (off) and the copy kernel for every copy (0), and the
# default bound once. Everything into $OUT/run.tar (rewritten after each stage).
set -u
B=$1
R=$OUT/ab
mkdir -p "$R"
pack() { tar -C "$OUT" -cf "$OUT/run.tar" ab; }
nvidia-smi > "$R/device.txt" 2>&1
export DWT_CACHE_DIR=$(mktemp -d)
"$B/cuda/cuda" --include-ignored graph_replays large_transforms volumes band_copies pair_local \
  > "$R/tests-cuda.txt" 2>&1
echo "cuda: exit $?" >> "$R/tests.txt"
"$B/cuda/conformance" --include-ignored pair_volumes > "$R/tests-conformance.txt" 2>&1
echo "conformance: exit $?" >> "$R/tests.txt"
"$B/cuda/nvrtc" copy_kernel pair_local > "$R/tests-nvrtc.txt" 2>&1
echo "nvrtc: exit $?" >> "$R/tests.txt"
pack
for round in 1 2; do
  for layout in mallat interleaved; do
    for p in on off; do
      "$B/dwt-bench-new" --wavelets HaarNoShift --sizes none --layout "$layout" --pyramids "$p" \
        --out "$R/pyramid-$layout-$p-$round.md" > /dev/null 2> "$R/pyramid-$layout-$p-$round.err"
      echo "pyramid $layout $p $round: exit $?" >> "$R/tests.txt"
    done
  done
done
pack
for round in 1 2; do
  for from in off 0; do
    "$B/dwt-bench-new" --wavelets LeGall53,HaarNoShift,Cdf97 --sizes 1080p,4096,8192 --levels 1 \
      --copy-kernel-from "$from" --out "$R/copies-$from-$round.md" > /dev/null 2> "$R/copies-$from-$round.err"
    echo "copies $from $round: exit $?" >> "$R/tests.txt"
    pack
  done
done
"$B/dwt-bench-new" --wavelets LeGall53,HaarNoShift,Cdf97 --sizes 1080p,4096,8192 --levels 1 \
  --out "$R/copies-default.md" > /dev/null 2> "$R/copies-default.err"
echo "copies default: exit $?" >> "$R/tests.txt"
pack && rm -rf "$R"

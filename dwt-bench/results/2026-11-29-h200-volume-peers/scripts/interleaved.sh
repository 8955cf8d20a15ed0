# One call on the GPU machine, carrying a folder with bins.tar.xz (cuda/cuda: the test binary of
# `cargo test --release -p dwt-cuda --no-run`; dwt-bench-new; both stripped): the volume tests
# of `cuda`, then the 3-D cases of dwt-bench in the interleaved layout with the pair-local
# kernel on and off, in turns, twice; all into $OUT/interleaved.tar.
# Usage: bash dwt-bench/results/2026-11-29-h200-volume-peers/scripts/interleaved.sh .device/sNN
set -u
start=$(date +%s)
D=$(mktemp -d)
tar -C $D -xJf $1/bins.tar.xz
R=$(mktemp -d)/interleaved && mkdir -p $R
export DWT_CACHE_DIR=$(mktemp -d)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $R/device.txt
timeout 200 $D/cuda/cuda --include-ignored volumes > $R/tests.txt 2>&1
echo "cuda volumes rc=$? $(grep 'test result' $R/tests.txt)" | tee -a $R/device.txt
for round in 1 2; do
  for mode in on off; do
    timeout 150 $D/dwt-bench-new --sizes none --reps 20 --layout interleaved --pair-volumes $mode --out $R/bench-$mode-$round.md > /dev/null 2>&1
    echo "bench $mode $round rc=$?" | tee -a $R/device.txt
  done
done
grep -E '^\| HaarNoShift 512\^3 L3 (fwd|inv) \| i32 \| (src->dst|in place) ' $R/bench-*.md | tee -a $R/device.txt
tar -C $(dirname $R) -cf $OUT/interleaved.tar interleaved
echo "took $(( $(date +%s) - start )) s" | tee -a $R/device.txt

# One call on the GPU machine, carrying .device/s92: bins.tar.xz (cuda/*, the test binaries of
# `cargo test --release -p dwt-cuda --no-run`, stripped, without their hashes, and dwt-bench-new,
# `cargo build --release -p dwt-bench`: compressed, since the tree and the carried folder must
# stay under 64 MiB) and the peers' wheels.
# 1. every CUDA test binary with --include-ignored (logs.txt);
# 2. the 3-D cases with the one-pass volume kernel off, then on, twice, in turns (ab3d-*.md);
# 3. the full run and floor.cu (run.tar: full/), for BENCHMARKS.md's first section.
# Usage: bash dwt-bench/results/2026-11-29-h200-one-pass-volumes/scripts/run.sh .device/s92
# (TESTS: the test binaries to run; ROUNDS: the rounds of the 3-D comparison.)
set -u
start=$(date +%s)
D=$(mktemp -d)
tar -C $D -xJf $1/bins.tar.xz && cp -r $1/wheels $D/
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/device.txt
export DWT_CACHE_DIR=$(mktemp -d)
for t in ${TESTS:-dwt_cuda nvrtc driver cuda host_memory thread_context threads frames conformance}; do
  s=$(date +%s)
  timeout 200 $D/cuda/$t --include-ignored > $OUT/$t.log 2>&1
  echo "$t rc=$? $(( $(date +%s) - s )) s $(grep 'test result' $OUT/$t.log)" | tee -a $OUT/device.txt
  grep -E 'panicked|FAILED' $OUT/$t.log | head -5
  { echo "===== $t"; cat $OUT/$t.log; } >> $OUT/logs.txt
  rm $OUT/$t.log
done
work=$(mktemp -d)
for round in ${ROUNDS:-1 2}; do
  for mode in off on; do
    timeout 120 $D/dwt-bench-new --sizes none --reps 20 --one-pass-volumes $mode --out $work/ab3d-$mode-$round.md > /dev/null 2>&1
    echo "ab3d $mode $round rc=$?" | tee -a $OUT/device.txt
  done
done
for f in $work/ab3d-*.md; do { echo "===== $(basename $f)"; cat $f; } >> $OUT/ab3d.md; done
grep -E '^(=====|\| (LeGall53|Cdf97) (256|512)\^3 L3 (fwd|inv) \| (i32|f32) \| (src->dst|in place))' $OUT/ab3d.md | tee -a $OUT/device.txt
mkdir -p $work/full && OUT=$work/full D=$D bash dwt-bench/results/2026-11-25-grouped-taps/scripts/full.sh > /dev/null 2>&1; echo "full rc=$?" | tee -a $OUT/device.txt
( cd dwt-bench/floor && nvcc -O3 -arch=sm_90 floor.cu -o /tmp/floor && /tmp/floor > $work/full/floor.md ); echo "floor rc=$?" | tee -a $OUT/device.txt
tar -C $work -cf $OUT/run.tar full
echo "took $(( $(date +%s) - start )) s" | tee -a $OUT/device.txt

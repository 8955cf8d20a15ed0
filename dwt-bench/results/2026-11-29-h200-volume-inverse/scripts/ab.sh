# One call on the GPU machine, carrying .device/s100: bins.tar.xz (cuda/*, the test binaries of
# `cargo test --release -p dwt-cuda --no-run`, stripped, without their hashes; dwt-bench-new,
# `cargo build --release -p dwt-bench`; dwt-bench-g3, the same with the inverse volume kernel at
# three groups a multiprocessor, `GROUPS = 3` in volume_inverse.rs) and the peers' wheels.
# 1. the CUDA test binaries named in TESTS with --include-ignored (logs.txt);
# 2. the 3-D cases of each of MODES in turns, ROUNDS times (ab3d.md): `off` and `on`, the one-pass
#    volume kernels off and on in dwt-bench-new; any other name, dwt-bench-NAME with them on.
# Usage: TESTS="dwt_cuda cuda conformance" ROUNDS="1 2" MODES="off on g3" bash dwt-bench/results/2026-11-29-h200-volume-inverse/scripts/ab.sh .device/s100
set -u
start=$(date +%s)
D=$(mktemp -d)
tar -C $D -xJf $1/bins.tar.xz && cp -r $1/wheels $D/
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/device.txt
export DWT_CACHE_DIR=$(mktemp -d)
for t in ${TESTS:-dwt_cuda cuda conformance}; do
  s=$(date +%s)
  timeout 240 $D/cuda/$t --include-ignored > $OUT/$t.log 2>&1
  echo "$t rc=$? $(( $(date +%s) - s )) s $(grep 'test result' $OUT/$t.log)" | tee -a $OUT/device.txt
  grep -E 'panicked|FAILED' $OUT/$t.log | head -5
  { echo "===== $t"; cat $OUT/$t.log; } >> $OUT/logs.txt
  rm $OUT/$t.log
done
work=$(mktemp -d)
for round in ${ROUNDS:-1 2}; do
  for mode in ${MODES:-off on}; do
    bin=$D/dwt-bench-new; arg=$mode
    case $mode in off|on) ;; *) bin=$D/dwt-bench-$mode; arg=on ;; esac
    timeout 120 $bin --sizes none --reps 20 --one-pass-volumes $arg --out $work/ab3d-$mode-$round.md > /dev/null 2>&1
    echo "ab3d $mode $round rc=$?" | tee -a $OUT/device.txt
  done
done
for f in $work/ab3d-*.md; do { echo "===== $(basename $f)"; cat $f; } >> $OUT/ab3d.md; done
grep -E '^(=====|\| (LeGall53|Cdf97) (256|512)\^3 L3 (fwd|inv) \| (i32|f32) \| (src->dst|in place))' $OUT/ab3d.md | tee -a $OUT/device.txt
echo "took $(( $(date +%s) - start )) s" | tee -a $OUT/device.txt

#!/bin/bash
# A/B of the inner tiles' pairs loaded at once and the small levels' edge tiles in one batch
# (new) against 6fd1480 (old), alternating, three runs each at 1920x1080 (every program, i16 and
# f32), two each of the long forwards in i16 at 4096^2 and 8192^2 (--i16); then the GPU tests
# of the new build (test binaries in .device/s23/bin).
set -u
D=.device/s23/ab
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
mkdir -p $OUT/ab $OUT/ab16
for r in 1 2 3; do
  for b in old new; do
    $D/dwt-bench-$b --sizes 1080p --levels 1,3 --no-3d --default-plan-only --reps 50 --out $OUT/ab/$b-$r.md > /dev/null 2>&1
    echo "1080p $b run $r rc=$?"
  done
done
for r in 1 2; do
  for b in old new; do
    $D/dwt-bench-$b --i16 --wavelets Fidelity,DeslauriersDubuc97,DeslauriersDubuc137,Daubechies97Integer --sizes 4096,8192 --levels 1,3 --no-3d --default-plan-only --reps 25 --out $OUT/ab16/$b-$r.md > /dev/null 2>&1
    echo "i16 $b run $r rc=$?"
  done
done
python3 dwt-bench/ab.py $OUT/ab old new > $OUT/ab/compare.md
python3 dwt-bench/ab.py $OUT/ab16 old new > $OUT/ab16/compare.md
grep -E "fwd" $OUT/ab/compare.md
grep -E "i16" $OUT/ab16/compare.md | head -40
D=.device/s23 bash dwt-bench/scripts/gpu-tests.sh dwt_cuda cuda conformance
( cd $OUT && tar czf ab-at-once.tgz ab ab16 tests && rm -rf ab ab16 tests )

#!/bin/bash
# One level at 1920x1080 on tiles of 32x32 indices with more work-items and shorter register
# segments than the default's, against the default plan (32x32 of 256, segments of 16 for the
# long forwards; 32x16 of 256, segments of 8 otherwise), alternated, three runs each, into
# $OUT/sweep.tar. .device/s25/dwt-bench: a release build of HEAD.
set -u
B=.device/s25/dwt-bench
export DWT_CACHE_DIR=$(mktemp -d)
W=Fidelity,DeslauriersDubuc97,DeslauriersDubuc137,Daubechies97Integer,LeGall53,Cdf97,Cdf53
work=$(mktemp -d)
common="--sizes 1080p --levels 1 --no-3d --default-plan-only --reps 60 --wavelets $W"
for run in 1 2 3; do
  $B $common --out $work/def-$run.md > /dev/null 2>&1; echo "def $run rc=$?"
  $B $common --tile 32x32 --threads 384 --segment 8 --out $work/t384-$run.md > /dev/null 2>&1; echo "t384 $run rc=$?"
  $B $common --tile 32x32 --threads 512 --segment 8 --out $work/t512-$run.md > /dev/null 2>&1; echo "t512 $run rc=$?"
  $B $common --tile 32x16 --threads 384 --segment 8 --out $work/h384-$run.md > /dev/null 2>&1; echo "h384 $run rc=$?"
done
python3 dwt-bench/ab.py $work def t384 t512 h384 | tee $work/compare.md
tar -C $work -cf $OUT/sweep.tar .

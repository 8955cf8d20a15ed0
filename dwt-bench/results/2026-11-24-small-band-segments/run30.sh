#!/bin/bash
# Session 28 call 1: sanitizers on the newer kernels, a random-program sweep, and small-band tile experiments.
set -u
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
export DWT_CACHE_DIR=$(mktemp -d)
B=.device/dwt-bench-exp
A="--wavelets LeGall53,Cdf53,HaarWithShift,Cdf97,Daubechies97Integer,DeslauriersDubuc97 --sizes 1080p --no-3d --reps 60 --default-plan-only"
mkdir -p $OUT/small
for r in 1 2; do
  for v in d 16,8,128,4 16,8,128,2 8,8,64,4 8,8,64,2; do
    n=$(echo $v | tr , x)
    if [ $v = d ]; then $B $A --out $OUT/small/$n-$r.md > /dev/null 2>&1; else DWT_SMALL=$v $B $A --out $OUT/small/$n-$r.md > /dev/null 2>&1; fi
  done
done
python3 dwt-bench/ab.py $OUT/small d 16x8x128x4 16x8x128x2 8x8x64x4 8x8x64x2 > /tmp/compare.md 2>&1; mkdir -p /tmp/keep; mv $OUT/small/* /tmp/keep/; cp /tmp/compare.md $OUT/small/; cp /tmp/keep/d-*.md $OUT/small/; tar czf $OUT/small/all.tgz -C /tmp/keep .
ls $OUT/small | wc -l

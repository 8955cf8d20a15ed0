#!/bin/bash
# Levels 2 and 3 of 1920x1080 on groups of more work-items with shorter register segments:
# dwt-bench at one and three levels, every level on the shape named (the bench's --tile,
# --threads, --segment), the default plan beside them, alternated, three runs each; levels 2
# and 3 cost the three-level time less the one-level time (levels.py). Into $OUT/sweep.tar.
# .device/s25/dwt-bench: a release build of HEAD.
set -u
B=.device/s25/dwt-bench
export DWT_CACHE_DIR=$(mktemp -d)
W=Fidelity,DeslauriersDubuc97,DeslauriersDubuc137,Daubechies97Integer,LeGall53,Cdf97,Cdf53
work=$(mktemp -d)
common="--sizes 1080p --levels 1,3 --no-3d --default-plan-only --reps 60 --wavelets $W"
declare -A cfg=([def]="" [a]="--tile 32x16 --threads 256 --segment 8" [b]="--tile 32x16 --threads 512 --segment 4"
  [c]="--tile 32x16 --threads 1024 --segment 2" [d]="--tile 16x8 --threads 128 --segment 4"
  [e]="--tile 16x8 --threads 256 --segment 2" [f]="--tile 16x8 --threads 512 --segment 1")
for run in 1 2 3; do
  for k in def a b c d e f; do
    $B $common ${cfg[$k]} --out $work/$k-$run.md > $work/$k-$run.log 2>&1; echo "$k $run rc=$?"
  done
done
python3 dwt-bench/results/2026-11-27-h100-small-levels/scripts/levels.py $work def a b c d e f | tee $work/levels.md
tar -C $work -cf $OUT/sweep.tar .

#!/bin/bash
# Session 28 call 6: at 1920x1080, the small kernel for the long programs' forwards (B), and the
# main tiles with register segments of 4 (C), against the default of b5deba4 (A).
set -u
export DWT_CACHE_DIR=$(mktemp -d)
B=.device/dwt-bench-exp2
C="--sizes 1080p --no-3d --reps 60 --default-plan-only"
L=DeslauriersDubuc97,DeslauriersDubuc137,Fidelity
S=LeGall53,Cdf53,HaarWithShift,Cdf97,Daubechies97Integer
mkdir -p /tmp/k
for r in 1 2; do
  $B $C --wavelets $L --out /tmp/k/long-A-$r.md > /dev/null 2>&1
  $B $C --wavelets $L --small-band-tiles on --out /tmp/k/long-B-$r.md > /dev/null 2>&1
  DWT_SMALL=16,8,128,8 $B $C --wavelets $L --small-band-tiles on --out /tmp/k/long-B8-$r.md > /dev/null 2>&1
  $B $C --wavelets $S --out /tmp/k/short-A-$r.md > /dev/null 2>&1
  $B $C --wavelets $S --segment 4 --small-band-tiles on --out /tmp/k/short-C-$r.md > /dev/null 2>&1
done
mkdir -p /tmp/l /tmp/s; cp /tmp/k/long-* /tmp/l/; cp /tmp/k/short-* /tmp/s/
cd /tmp/l && for f in *; do mv $f ${f#long-}; done; cd /tmp/s && for f in *; do mv $f ${f#short-}; done; cd - > /dev/null
python3 dwt-bench/ab.py /tmp/l A B B8 > $OUT/long-compare.md 2>&1
python3 dwt-bench/ab.py /tmp/s A C > $OUT/short-compare.md 2>&1
tar czf $OUT/reports.tgz -C /tmp/k .
cat $OUT/long-compare.md $OUT/short-compare.md

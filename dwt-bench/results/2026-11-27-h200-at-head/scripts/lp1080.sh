#!/bin/bash
# Would the level pair help near 1920x1080? Sides that are multiples of 64, three levels, on and off alternating.
B=.device/s23/dwt-bench
for r in 1 2 3; do
  for lp in off always; do
    $B --wavelets Cdf53,LeGall53 --sizes 1920x1024,1920x1088,2048x2048 --levels 3 --no-3d --default-plan-only --reps 50 --level-pairs $lp --out $OUT/lp-$lp-$r.md > $OUT/lp-$lp-$r.log 2>&1; echo "$lp $r rc=$?"
  done
done
for f in $OUT/lp-*.md; do echo "== $f"; grep -E "L3 fwd .*src->dst \|" $f | cut -d'|' -f2,5,6; done

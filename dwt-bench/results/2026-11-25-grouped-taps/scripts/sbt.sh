#!/bin/bash
# 1920x1080: the default (small bands' tiles by the rule) against --small-band-tiles off, three runs each alternating.
set -u
B=.device/s13/dwt-bench-new
S=$OUT/sbt; mkdir -p $S
for r in 1 2 3; do
  $B --sizes 1080p --no-3d --reps 50 --default-plan-only --out $S/rule-$r.md > $S/rule-$r.log 2>&1 || echo "FAIL rule $r" >> $S/fail.txt
  $B --sizes 1080p --no-3d --reps 50 --default-plan-only --small-band-tiles off --out $S/off-$r.md > $S/off-$r.log 2>&1 || echo "FAIL off $r" >> $S/fail.txt
done
cd dwt-bench && python3 ab.py $S rule off > $S/compare.md 2>&1
cat $S/compare.md $S/fail.txt 2>/dev/null
cd $S && tar czf $OUT/sbt.tgz * && cp compare.md $OUT/ && rm -rf $S

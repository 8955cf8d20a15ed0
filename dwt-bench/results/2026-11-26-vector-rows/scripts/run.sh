#!/bin/bash
# Session 17: GPU tests of the vector-rows build, then an A/B of the bench (old = HEAD d419f4d, new = vector rows), alternating, two runs each.
set -u
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
export DWT_CACHE_DIR=$(mktemp -d)
( cd .device/s17/bin && for t in dwt_cuda cuda conformance; do
  ./$t --include-ignored > $OUT/$t.txt 2>&1; echo "$t rc=$?"; grep "test result" $OUT/$t.txt
done; grep -h "FAILED\|panicked" $OUT/*.txt | head )
S=$OUT/ab; mkdir -p $S
for i in 1 2; do for b in old new; do
  .device/s17/dwt-bench-$b --sizes 1080p,4096,8192 --no-3d --reps 30 --default-plan-only --out $S/$b-$i.md > $S/$b-$i.log 2>&1 || echo "FAIL $b $i" >> $S/fail.txt
done; done
cd dwt-bench && python3 ab.py $S old new > $S/compare.md 2>&1
cat $S/compare.md $S/fail.txt 2>/dev/null
cd $S && tar czf $OUT/ab.tgz * && cp compare.md $OUT/ab-compare.md && rm -rf $S

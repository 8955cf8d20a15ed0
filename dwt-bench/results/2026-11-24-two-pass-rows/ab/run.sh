#!/bin/bash
# GPU tests at the working tree, then the two passes at the new row defaults against the old ones.
mkdir -p $OUT/r
( cd .device/bin; export DWT_CACHE_DIR=$(mktemp -d); for t in dwt_cuda cuda conformance; do ./$t --include-ignored 2>&1 | grep -E "^test |test result|panicked|FAILED"; done ) > $OUT/tests.txt 2>&1
grep -c "\.\.\. ok" $OUT/tests.txt; grep -E "FAILED|panicked|test result" $OUT/tests.txt
mkdir -p /tmp/r
B=.device/dwt-bench-rows
A="--sizes 1080p,4096,8192 --no-3d --reps 30"
timeout 200 $B $A --out /tmp/r/new-1.md > /dev/null 2>&1 || echo new-1 failed
timeout 200 $B $A --row-limit 4096 --row-group 64 --out /tmp/r/old-1.md > /dev/null 2>&1 || echo old-1 failed
cp /tmp/r/new-1.md /tmp/r/old-1.md $OUT/r/
for f in new-1 old-1; do echo "## $f"; sed -n '/Table IV/,/^## Steps/p' /tmp/r/$f.md | grep "x1080\|x4096\|x8192" | awk -F'|' '{print $2,$4,$5,$6}'; done
python3 dwt-bench/ab.py /tmp/r old new > $OUT/r/compare.md 2>&1; tail -5 $OUT/r/compare.md

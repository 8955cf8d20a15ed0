#!/bin/bash
# GPU tests of the row-segments tree, then long rows: old (rows kernel up to 8192, sliding beyond) vs seg.
mkdir -p $OUT/seg /tmp/s
( cd .device/bin; export DWT_CACHE_DIR=$(mktemp -d); for t in dwt_cuda cuda conformance; do ./$t --include-ignored 2>&1 | grep -E "^test |test result|panicked|FAILED|left|right"; done ) > $OUT/tests.txt 2>&1
grep -c "\.\.\. ok" $OUT/tests.txt; grep -E "FAILED|panicked|test result" $OUT/tests.txt
A="--wavelets LeGall53,Cdf97,Fidelity,HaarWithShift --sizes 1048576x2,65536x2,16384x16,1048576x16 --no-3d --reps 20"
timeout 150 .device/dwt-bench-seg $A --out /tmp/s/seg-1.md > /tmp/s/seg.err 2>&1 || echo seg failed
timeout 200 .device/dwt-bench-rows --wavelets LeGall53,Cdf97 --sizes 1048576x2,65536x2 --no-3d --reps 20 --out /tmp/s/old-1.md > /tmp/s/old.err 2>&1 || echo old failed
cp /tmp/s/*.md $OUT/seg/
for f in seg-1 old-1; do echo "## $f"; grep "src->dst |\|two-pass" /tmp/s/$f.md | grep -v "inverse(forward" | awk -F'|' '{print $2,$4,$5,$6,$11}'; done

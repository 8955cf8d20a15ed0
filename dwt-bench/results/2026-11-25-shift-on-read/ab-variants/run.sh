#!/bin/bash
# GPU test of the shift-on-read copies, then off / on / cap-on at 4096^2 and 8192^2.
set -u
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/device.txt
(cd bin; export DWT_CACHE_DIR=$(mktemp -d); ./cuda --include-ignored > $OUT/cuda.txt 2>&1; echo "rc=$?" >> $OUT/cuda.txt)
tail -3 $OUT/cuda.txt
mkdir -p /tmp/r
W=Daubechies97Integer,DeslauriersDubuc97,DeslauriersDubuc137,LeGall53
for i in 1 2; do
  ./dwt-bench-new --wavelets $W --sizes 4096,8192 --no-3d --reps 30 --default-plan-only --async-load off --out /tmp/r/off-$i.md 2>/dev/null
  ./dwt-bench-new --wavelets $W --sizes 4096,8192 --no-3d --reps 30 --default-plan-only --async-load on --out /tmp/r/on-$i.md 2>/dev/null
  ./dwt-bench-cap --wavelets $W --sizes 4096,8192 --no-3d --reps 30 --default-plan-only --async-load on --out /tmp/r/cap-$i.md 2>/dev/null
done
cd ..; python3 dwt-bench/ab.py /tmp/r off on cap > $OUT/compare.md
cd /tmp/r && tar czf $OUT/reports.tgz *.md
cat $OUT/compare.md | head -60

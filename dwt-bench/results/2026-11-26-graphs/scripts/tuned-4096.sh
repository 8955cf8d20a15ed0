#!/bin/bash
# Session 19: the measuring planner against the default at 4096^2 (db1c421's build), twice.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
start=$(date +%s)
for i in 1 2; do
  DWT_CACHE_DIR=$(mktemp -d) timeout 250 .device/s19/dwt-bench-new --tuned --default-plan-only \
    --wavelets Cdf53,Cdf97,HaarNoShift,LeGall53,Fidelity --sizes 4096 --no-3d --reps 25 \
    --out $OUT/tuned-$i.md > $OUT/tuned-$i.log 2>&1; echo "run $i rc=$?"
  (cd dwt-bench && python3 tuned.py $OUT/tuned-$i.md > $OUT/compare-tuned-$i.md)
done
cat $OUT/compare-tuned-*.md
echo "took $(( $(date +%s) - start )) s"

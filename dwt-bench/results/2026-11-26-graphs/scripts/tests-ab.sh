#!/bin/bash
# Session 19: the GPU tests of the graphs at every size, then A/B base (ed83fa1) / new, 2-D and 3-D.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
start=$(date +%s)
export DWT_CACHE_DIR=$(mktemp -d)
mkdir -p $OUT/tests
( cd .device/s19/bin && for t in dwt_cuda cuda nvrtc conformance; do
  timeout 200 ./$t --include-ignored > $OUT/tests/$t.txt 2>&1; echo "$t rc=$?"; grep "test result" $OUT/tests/$t.txt
done; grep -h -A8 "FAILED\|panicked" $OUT/tests/*.txt | head -40 )
echo "tests took $(( $(date +%s) - start )) s"
D=.device/s19 RUNS=2 REPS=30 SIZES=1080p,4096,8192 BUILDS="base new" bash dwt-bench/results/2026-11-25-address-walks/scripts/ab.sh > /dev/null 2>&1
D=.device/s19 RUNS=2 REPS=20 BUILDS="base new" bash dwt-bench/results/2026-11-26-graphs/scripts/ab3d.sh > /dev/null 2>&1
cat $OUT/ab-compare.md $OUT/ab3d-compare.md | awk -F'|' '{print $2 "|" $5}'
echo "took $(( $(date +%s) - start )) s"

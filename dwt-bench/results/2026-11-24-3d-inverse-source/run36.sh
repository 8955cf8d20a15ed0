#!/bin/bash
# Session 29 call 1: the fused 3-D inverse reading its source (no copy): GPU tests, sanitizers on
# the volume test, then the volumes' bench at 13bbbba against the change, alternating.
set -u
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
export DWT_CACHE_DIR=$(mktemp -d)
mkdir -p $OUT/tests $OUT/bench
(cd .device/bin && for t in dwt_cuda cuda conformance; do timeout 200 ./$t --include-ignored 2>&1; done) > $OUT/tests/tests.txt 2>&1
grep -E "test result|FAILED|panicked" $OUT/tests/tests.txt
(cd .device/bin && for tool in memcheck racecheck; do timeout 60 compute-sanitizer --tool $tool ./cuda --include-ignored volumes_run_fused 2>&1 | tail -4; done) > $OUT/tests/sanitizers.txt 2>&1
grep -E "ERROR SUMMARY|HAZARD|test result" $OUT/tests/sanitizers.txt
for r in 1 2; do
  for b in 13bbbba lows; do
    timeout 100 .device/dwt-bench-$b --sizes none --reps 30 --out $OUT/bench/$b-$r.md > $OUT/bench/$b-$r.log 2>&1 || echo "bench $b $r failed"
  done
done
grep -h "512^3\|256^3" $OUT/bench/*-1.md | grep -i "inv" | head -20

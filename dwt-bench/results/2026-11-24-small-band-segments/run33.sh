#!/bin/bash
# Session 28 call 5: synccheck on the same tests; racecheck and memcheck over random programs and the 2-D catalogue.
set -u
export DWT_CACHE_DIR=$(mktemp -d)
cd .device/bin
(for t in long_rows_take_row_segments_and_match_the_reference column_segments_by_the_rule_match_the_reference volumes_run_fused_and_time_steps_times_each_step; do
  echo "== synccheck $t"; timeout 60 compute-sanitizer --tool synccheck --print-limit 5 ./cuda --include-ignored --exact $t --test-threads=1 2>&1 | grep -E "ERROR SUMMARY|test result|panicked" | head -4
done
for tool in racecheck memcheck; do for t in fused::conformance_random_programs two_pass::conformance_random_programs fused::conformance_catalogue_2d; do
  echo "== $tool $t (PROPTEST_CASES=8)"; PROPTEST_CASES=8 timeout 150 compute-sanitizer --tool $tool --print-limit 5 ./conformance --include-ignored --exact $t --test-threads=1 2>&1 | grep -E "ERROR SUMMARY|RACECHECK SUMMARY|test result|panicked|Hazard" | head -6; echo "rc ${PIPESTATUS[0]}"
done; done) > $OUT/sanitizers-2.txt 2>&1
cat $OUT/sanitizers-2.txt

#!/bin/bash
# Session 28 call 4: compute-sanitizer (memcheck, racecheck) on the tests of the newer kernels.
set -u
export DWT_CACHE_DIR=$(mktemp -d)
cd .device/bin
for t in long_rows_take_row_segments_and_match_the_reference column_segments_by_the_rule_match_the_reference volumes_run_fused_and_time_steps_times_each_step out_of_place_runs_leave_the_source_alone; do
  for tool in memcheck racecheck; do
    echo "== $tool $t"; timeout 70 compute-sanitizer --tool $tool --print-limit 5 ./cuda --include-ignored --exact $t --test-threads=1 2>&1 | grep -E "ERROR SUMMARY|RACECHECK SUMMARY|test result|panicked|Error|error|Hazard" | head -8; echo "rc ${PIPESTATUS[0]}"
  done
done > $OUT/sanitizers.txt 2>&1
cat $OUT/sanitizers.txt

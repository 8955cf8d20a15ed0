#!/bin/bash
# Where the 1920x1080 three-level forwards' kernels spend their time (Nsight Compute, clocks as they are).
B=.device/s23/dwt-bench
for w in Fidelity:fidelity DeslauriersDubuc97:deslauriersdubuc97 LeGall53:legall53; do
  name=${w%%:*}; k=${w##*:}
  ncu --clock-control none -k "regex:${k}_forward_i16_(tile|small_tile)" -c 3 \
    --section SpeedOfLight --section Occupancy --section WarpStateStats --section SchedulerStats --section LaunchStats --section InstructionStats --section ComputeWorkloadAnalysis \
    $B --wavelets $name --sizes 1080p --levels 3 --no-3d --reps 20 --default-plan-only --out /tmp/x.md > $OUT/ncu-$name.txt 2>&1
  echo "$name rc=$?"
done
grep -E "^  [a-z].*\(|Duration|Compute \(SM\) Throughput|Issue Slots Busy|Executed Ipc Active|Achieved Occupancy|Theoretical Occupancy|Registers Per|Block Limit|No Eligible|One or More Eligible|Warp Cycles Per Issued|Executed Instructions |Waves Per SM|Grid Size|Shared Memory Config|Dynamic Shared|Static Shared" $OUT/ncu-*.txt | head -150

#!/bin/bash
# Where Fidelity's 8192^2 tile kernels spend their time (Nsight Compute, clocks as they are).
for d in forward inverse; do
ncu --clock-control none -k regex:fidelity_${d}_i32_tile -c 1 --section SpeedOfLight --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis --section Occupancy --section WarpStateStats --section SchedulerStats --section LaunchStats --section InstructionStats \
  .device/ab/dwt-bench-new --wavelets Fidelity --sizes 8192 --no-3d --reps 20 --default-plan-only --out /tmp/x.md > $OUT/ncu-fidelity-$d.txt 2>&1
echo "$d rc=$?"
done
grep -E "Duration|Memory Throughput|DRAM Throughput|Compute \(SM\) Throughput|Issue Slots Busy|Issued Ipc Active|Executed Ipc Active|Achieved Occupancy|Theoretical Occupancy|Registers Per|Block Limit|No Eligible|Stall|One or More Eligible|Warp Cycles Per Issued|L1/TEX Hit|L2 Hit|Executed Instructions" $OUT/ncu-fidelity-*.txt | head -80

#!/bin/bash
# Session 18: where three levels' time goes, level by level (--level-steps), 4096^2 and 8192^2.
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
.device/s18/dwt-bench-steps --wavelets Cdf53,LeGall53,HaarNoShift,Cdf97,Fidelity --sizes 1080p,4096,8192 --no-3d --default-plan-only --level-steps --out $OUT/steps.md > $OUT/steps.log 2>&1; echo rc=$?
sed -n '/## Steps/,/## First/p' $OUT/steps.md

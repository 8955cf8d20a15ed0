#!/bin/bash
# Long lines: 2 rows of 2^20 samples (the rows slide along x, one group per 32 lines).
B=.device/dwt-bench-rows
timeout 200 $B --wavelets LeGall53,Cdf97 --sizes 1048576x2,65536x2,8192x2 --no-3d --reps 20 --out $OUT/long.md > $OUT/long.err 2>&1 || echo failed
grep "src->dst\|two-pass\|ms (" $OUT/long.md | grep -v "inverse(forward" | awk -F'|' '{print $2,$4,$5,$6,$11}' | head -40

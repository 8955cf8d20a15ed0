#!/bin/bash
# Bound checks only on the last round (uncond.py): phase clocks, SASS of the level-1 tile, graph timings.
Q=.device/s23/quads
for v in fid-uncond fidb-uncond; do python3 $Q/clk.py fidelity_forward_i16 $Q/$v-clk1.cu $Q/$v-clk.cu > $OUT/clk-$v.txt 2>&1; done
python3 $Q/clk.py legall53_forward_i16 $Q/lgb-uncond-clk1.cu $Q/lgb-uncond-clk.cu > $OUT/clk-lgb-uncond.txt 2>&1
grep -h "per phase" $OUT/clk-*.txt
ncu --clock-control none -k regex:fidelity_forward_i16_tile -c 1 --section SourceCounters --page source --csv --print-source sass \
  python3 $Q/bench.py fidelity_forward_i16 $Q/fidb-uncond.cu > $OUT/src-fidb-uncond.csv 2> /dev/null
for r in 1 2; do
  python3 $Q/bench.py fidelity_forward_i16 $Q/fid.cu $Q/fid-uncond.cu $Q/fidb-uncond.cu
  python3 $Q/bench.py legall53_forward_i16 $Q/lg.cu $Q/lgb-uncond.cu
  python3 $Q/bench.py fidelity_forward_i16 $Q/fidb-uncond.cu $Q/fid-uncond.cu $Q/fid.cu
  python3 $Q/bench.py legall53_forward_i16 $Q/lgb-uncond.cu $Q/lg.cu
done 2>&1 | tee $OUT/ab-uncond.txt

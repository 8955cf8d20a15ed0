#!/bin/bash
# Edge tiles' loads in one batch on the small levels (edgeall.py on top of batch.py + uncond.py):
# edge and inner phase clocks, then graph timings against the emitted modules, alternating.
Q=.device/s23/quads
python3 $Q/clk.py fidelity_forward_i16 $Q/fidu-eclk1.cu $Q/fidbe2-eclk.cu --edge > $OUT/eclk-fidbe2.txt 2>&1
python3 $Q/clk.py fidelity_forward_i16 $Q/fidb-uncond-clk1.cu $Q/fidbe2-clk.cu > $OUT/clk-fidbe2.txt 2>&1
python3 $Q/clk.py legall53_forward_i16 $Q/lgbu-eclk1.cu $Q/lgbe2-eclk.cu --edge > $OUT/eclk-lgbe2.txt 2>&1
grep -h "per phase\|cumulative" $OUT/*clk-*.txt
for r in 1 2 3; do
  python3 $Q/bench.py fidelity_forward_i16 $Q/fid.cu $Q/fidbe2.cu
  python3 $Q/bench.py legall53_forward_i16 $Q/lg.cu $Q/lgbe2.cu
  python3 $Q/bench.py fidelity_forward_i16 $Q/fidbe2.cu $Q/fid.cu
  python3 $Q/bench.py legall53_forward_i16 $Q/lgbe2.cu $Q/lg.cu
done 2>&1 | tee $OUT/ab-edge.txt

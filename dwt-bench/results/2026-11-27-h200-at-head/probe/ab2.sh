#!/bin/bash
# The batched loads (batch.py) against the emitted modules: phase clocks, then graph timings alternating.
Q=.device/s23/quads
python3 $Q/clk.py fidelity_forward_i16 $Q/fidb-clk1.cu $Q/fidb-clk.cu 2>&1 | tee $OUT/clk-fid-batch.txt
python3 $Q/clk.py legall53_forward_i16 $Q/lgb-clk1.cu $Q/lgb-clk.cu 2>&1 | tee $OUT/clk-lg-batch.txt
for r in 1 2; do
  python3 $Q/bench.py fidelity_forward_i16 $Q/fid.cu $Q/fid-batch.cu
  python3 $Q/bench.py legall53_forward_i16 $Q/lg.cu $Q/lg-batch.cu
  python3 $Q/bench.py fidelity_forward_i16 $Q/fid-batch.cu $Q/fid.cu
  python3 $Q/bench.py legall53_forward_i16 $Q/lg-batch.cu $Q/lg.cu
done 2>&1 | tee $OUT/ab-batch.txt

#!/bin/bash
Q=.device/s23/quads
python3 $Q/clk.py fidelity_forward_i16 $Q/fid-clk1.cu $Q/fid-clk.cu 2>&1 | tee $OUT/clk-fid.txt
python3 $Q/clk.py legall53_forward_i16 $Q/lg-clk1.cu $Q/lg-clk.cu 2>&1 | tee $OUT/clk-lg.txt

#!/bin/bash
Q=.device/s23/quads
python3 $Q/clk.py fidelity_forward_i16 $Q/fid-eclk1.cu $Q/fid-eclk.cu --edge 2>&1 | tee $OUT/eclk-fid.txt
python3 $Q/clk.py legall53_forward_i16 $Q/lg-eclk1.cu $Q/lg-eclk.cu --edge 2>&1 | tee $OUT/eclk-lg.txt

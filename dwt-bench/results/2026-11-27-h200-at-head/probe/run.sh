#!/bin/bash
# A/B of the surgery (8-byte loads in the level-1 inner tiles), alternating order, two rounds.
cd /work/main 2>/dev/null || true
Q=.device/s23/quads
for r in 1 2; do
  python3 $Q/bench.py fidelity_forward_i16 $Q/fid.cu $Q/fid-quads.cu
  python3 $Q/bench.py legall53_forward_i16 $Q/lg.cu $Q/lg-quads.cu
  python3 $Q/bench.py fidelity_forward_i16 $Q/fid-quads.cu $Q/fid.cu
  python3 $Q/bench.py legall53_forward_i16 $Q/lg-quads.cu $Q/lg.cu
done 2>&1 | tee $OUT/ab.txt

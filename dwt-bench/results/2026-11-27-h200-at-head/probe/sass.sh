#!/bin/bash
# SASS of the batched variant's level-1 tile (where its loads are issued).
Q=.device/s23/quads
ncu --clock-control none -k regex:fidelity_forward_i16_tile -c 1 --section SourceCounters --page source --csv --print-source sass \
  python3 $Q/bench.py fidelity_forward_i16 $Q/fid-batch.cu > $OUT/src-fid-batch.csv 2> $OUT/src-fid-batch.err
echo "rc=$? $(wc -c < $OUT/src-fid-batch.csv)"

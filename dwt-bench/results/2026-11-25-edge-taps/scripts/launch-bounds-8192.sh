#!/bin/bash
# Probe: each 8192^2 tile kernel as emitted against the same kernel under other launch bounds
# (minimum groups a multiprocessor), 60 repetitions rotated, checked bit for bit.
cd .device/s14/lb
for f in p-*.cu; do p=${f%.cu}; (nvcc -O3 -arch=sm_90 -o $p $f -Xptxas -v 2> $p.ptxas || echo "$p build failed") & done; wait
for f in p-*.cu; do p=${f%.cu}; [ -x $p ] && { ./$p 8192; ./$p 8192; ./$p 4096; }; done

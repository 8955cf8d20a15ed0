#!/bin/bash
# Probe: tile kernels over the interior tiles, edge code kept (_a) or cut (_b, _bN: launch bounds N).
cd .device/s14
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for p in fid_inv fid_fwd dd137_inv d97_inv cdf97_inv; do
  nvcc -O3 -arch=sm_90 -o $p p_$p.cu -Xptxas -v 2> $p.ptxas || { tail -5 $p.ptxas; continue; }
  grep -A1 "_tile_[ab]" $p.ptxas | grep -o "Used [0-9]* registers.*" | head -4
done
for p in fid_inv fid_fwd dd137_inv d97_inv cdf97_inv; do [ -x $p ] && { ./$p 8192; ./$p 8192; ./$p 4096; }; done

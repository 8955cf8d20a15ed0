#!/bin/bash
# Column-stream probes of Fidelity's i32 forward (p_fwd.cu) and inverse (p_inv.cu): variants by
# -D (NAME:dir:flags), each run at 8192^2 twice and 4096^2 once.
cd .device/s15
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
V=${V:-"f5:fwd:-DSB=3,-DASYNC f6:fwd:-DSB=2,-DASYNC f7:fwd:-DSB=3,-DASYNC,-DPERSIST f4:fwd:-DSB=2 i1:inv:-DSB=3,-DPIPE"}
for v in $V; do
  IFS=: read name dir flags <<< "$v"; flags=${flags//,/ }
  nvcc -O3 -arch=sm_90 $flags -o b_$name p_$dir.cu -Xptxas -v 2> b_$name.ptxas || { echo "build $name failed"; grep -m5 error b_$name.ptxas; continue; }
  echo "$name $dir ($flags): $(grep -A3 "function .stream_" b_$name.ptxas | grep -o 'Used [0-9]* registers.*' | head -1)"
done
for v in $V; do name=${v%%:*}; [ -x b_$name ] && { echo "== $v"; ./b_$name 8192; ./b_$name 8192; ./b_$name 4096; }; done

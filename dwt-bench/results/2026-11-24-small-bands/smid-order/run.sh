#!/bin/bash
cd "$(dirname "$0")"
mkdir -p bin
for f in cdf97_f32 daubechies97integer_i32 deslauriersdubuc137_i32 legall53_i32 deslauriersdubuc97_i32; do
  nvcc -O3 -arch=sm_90 -w -DKERNEL_FILE="\"$f.cu\"" -o bin/$f harness.cu > bin/$f.log 2>&1 || { echo "build failed $f"; cat bin/$f.log | head; } &
done
wait
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv
for i in 1 2; do for f in cdf97_f32 daubechies97integer_i32 deslauriersdubuc137_i32 legall53_i32 deslauriersdubuc97_i32; do ./bin/$f 8192 30; done; done
for f in cdf97_f32 legall53_i32; do ./bin/$f 4096 50; done

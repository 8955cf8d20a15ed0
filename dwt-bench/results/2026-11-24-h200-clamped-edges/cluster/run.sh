#!/bin/bash
# Builds each variant with the harness appended and runs it (experiment).
cd "$(dirname "$0")"
mkdir -p build
for f in *_c[0-9].cu; do
  (cat $f harness.cu > build/$f && nvcc -O3 -arch=sm_90 -o build/${f%.cu} build/$f 2> build/${f%.cu}.log || echo "build failed: $f") &
done
wait
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv
for i in 1 2; do
  for f in *_c[0-9].cu; do ./build/${f%.cu} || echo "FAILED $f"; done
done

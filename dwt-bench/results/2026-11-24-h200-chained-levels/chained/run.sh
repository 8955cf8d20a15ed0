#!/bin/bash
# Builds each variant with the harness appended and runs it (experiment).
cd "$(dirname "$0")"
mkdir -p build
for f in *_chain*.cu; do
  (cat $f harness.cu > build/$f && nvcc -O3 -arch=sm_90 -o build/${f%.cu} build/$f 2> build/${f%.cu}.log || { echo "build failed: $f"; head -20 build/${f%.cu}.log; }) &
done
wait
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv
for i in 1 2; do
  for f in *_chain*.cu; do timeout 60 ./build/${f%.cu} || echo "FAILED $f"; done
done

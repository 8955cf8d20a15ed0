#!/bin/bash
# Builds each kernel file with the harness and times it (experiment: inner tiles only vs the emitted kernel).
cd "$(dirname "$0")"
mkdir -p build
for f in *.cu; do [ $f = harness.cu ] && continue; (cat $f harness.cu > build/$f && nvcc -O3 -arch=sm_90 -o build/${f%.cu} build/$f 2> build/${f%.cu}.log || echo "build failed $f") & done
wait
for i in 1 2; do for f in *.cu; do [ $f = harness.cu ] && continue; ./build/${f%.cu}; done; done

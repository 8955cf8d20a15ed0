#!/bin/bash
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
cd dwt-bench/floor && nvcc -O3 -arch=sm_90 floor.cu -o /tmp/floor && /tmp/floor | tee $OUT/floor.md

#!/bin/bash
# Session 29 call 3: the OpenCL tests through NVIDIA's driver after the band-copy fix (581a533).
set -u
export DWT_CACHE_DIR=$(mktemp -d)
cd .device/ocl && export LD_LIBRARY_PATH=/lib/x86_64-linux-gnu OCL_ICD_VENDORS=$PWD/vendors
for t in dwt_opencl opencl plan conformance; do echo "== $t"; timeout 200 ./$t --include-ignored 2>&1; done > $OUT/opencl-nvidia.txt 2>&1
grep -E "^== |test result|FAILED|panicked" $OUT/opencl-nvidia.txt

#!/bin/bash
# The OpenCL backend's tests through NVIDIA's OpenCL driver (working tree of 0904584).
cd .device/ocl; export LD_LIBRARY_PATH=/lib/x86_64-linux-gnu OCL_ICD_VENDORS=$PWD/vendors DWT_CACHE_DIR=$(mktemp -d)
for t in ${TESTS:-dwt_opencl opencl plan conformance}; do ./$t --include-ignored --skip no_platform_child 2>&1 | grep -v "\.\.\. ok$"; done > $OUT/opencl-nvidia.txt 2>&1
grep -E "test result|FAILED|panicked" $OUT/opencl-nvidia.txt

#!/usr/bin/env bash
# On the GPU machine, one call carrying a folder ($1, e.g. .device/s127) with bins.tar.xz
# (conformance of `cargo test --release -p dwt-opencl --no-run` at the commit under test,
# stripped) and vendors/nvidia.icd naming libnvidia-opencl.so.1: through NVIDIA's OpenCL, the
# conformance suite's volume settings forced on and its 3-D parts, logs into $OUT.
set -u
D=$(mktemp -d)
tar -C $D -xJf $1/bins.tar.xz
export LD_LIBRARY_PATH=/lib/x86_64-linux-gnu OCL_ICD_VENDORS=$PWD/$1/vendors DWT_CACHE_DIR=$(mktemp -d)
s=$(date +%s)
timeout 170 $D/conformance volume_settings catalogue_3d > $OUT/ocl-conformance.log 2>&1
echo "opencl conformance (volume settings, 3-D) rc=$? $(( $(date +%s) - s )) s $(grep 'test result' $OUT/ocl-conformance.log)" | tee -a $OUT/tests.txt
grep -hE 'panicked|FAILED' $OUT/ocl-conformance.log | head -5

#!/bin/bash
# Session 29 call 2: the committed tree's GPU tests (CUDA, and OpenCL through NVIDIA's driver),
# sanitizers on the 3-D tests, then the volumes against the peers.
set -u
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
export DWT_CACHE_DIR=$(mktemp -d)
T=/tmp/tests; mkdir -p $T
(cd .device/bin && for t in dwt_cuda cuda conformance; do echo "== $t"; timeout 200 ./$t --include-ignored 2>&1; done) > $T/cuda-tests.txt 2>&1
grep -E "^== |test result|FAILED|panicked" $T/cuda-tests.txt
(cd .device/bin && for tool in memcheck racecheck; do echo "== $tool"; timeout 60 compute-sanitizer --tool $tool ./cuda --include-ignored volumes_run_fused 2>&1 | tail -4; done;
 echo "== memcheck conformance fused::conformance_catalogue_3d"; timeout 240 compute-sanitizer --tool memcheck ./conformance --include-ignored fused::conformance_catalogue_3d 2>&1 | tail -4) > $T/sanitizers.txt 2>&1
grep -E "^== |SUMMARY|test result" $T/sanitizers.txt
(cd .device/ocl && export LD_LIBRARY_PATH=/lib/x86_64-linux-gnu OCL_ICD_VENDORS=$PWD/vendors && for t in dwt_opencl opencl plan conformance; do echo "== $t"; timeout 200 ./$t --include-ignored 2>&1; done) > $T/opencl-nvidia.txt 2>&1
grep -E "^== |test result|FAILED|panicked" $T/opencl-nvidia.txt
tar czf $OUT/tests.tgz -C $T .
mkdir -p $OUT/peers
timeout 120 .device/dwt-bench-lows --sizes none --reps 30 --out $OUT/peers/dwt-bench.md > $OUT/peers/dwt-bench.err 2>&1
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site --find-links .device/wheels ptwt pytorch_wavelets pywavelets > /dev/null 2>&1
PYTHONPATH=/tmp/site timeout 200 python3 dwt-bench/peers.py --only-3d --out $OUT/peers/peers.md > $OUT/peers/peers.log 2>&1
python3 dwt-bench/compare.py --3d $OUT/peers/dwt-bench.md $OUT/peers/peers.md > $OUT/peers/compare-3d.md 2>&1
cat $OUT/peers/compare-3d.md

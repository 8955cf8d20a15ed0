#!/bin/bash
# GPU tests of HEAD (CUDA, and OpenCL through NVIDIA's driver) and the dwt CLI on both.
set -u
REPO=$PWD
B=$REPO/.device/s28
D=.device/s28 bash dwt-bench/scripts/gpu-tests.sh dwt_cuda cuda conformance driver nvrtc
echo "== opencl through NVIDIA's driver"
mkdir -p $OUT/opencl-nvidia
( cd $B/ocl && export LD_LIBRARY_PATH=/lib/x86_64-linux-gnu OCL_ICD_VENDORS=$PWD/vendors DWT_CACHE_DIR=$(mktemp -d)
  start=$(date +%s)
  for t in dwt_opencl opencl plan conformance; do
    timeout 400 ./$t --include-ignored --nocapture --skip no_platform_child > $OUT/opencl-nvidia/$t.txt 2>&1; echo "$t rc=$?"; grep "test result" $OUT/opencl-nvidia/$t.txt
  done
  grep -h "on opencl" $OUT/opencl-nvidia/conformance.txt | head -3
  grep -h -A6 "FAILED\|panicked" $OUT/opencl-nvidia/*.txt | head -40
  echo "opencl took $(( $(date +%s) - start )) s" )
echo "== cli"
mkdir -p $OUT/cli && cd $OUT/cli
export OCL_ICD_VENDORS=$B/ocl/vendors
$B/dwt list 2>&1 | tail -4
$B/dwt sample s.png --width 1920 --height 1080
for w in LeGall53 Fidelity DeslauriersDubuc137 HaarWithShift; do
  $B/dwt -q transform s.png cpu_$w.npy -w $w -l 4 --backend cpu
  for be in cuda opencl; do
    $B/dwt -q transform s.png ${be}_$w.npy -w $w -l 4 --backend $be && $B/dwt -q transform ${be}_$w.npy back_${be}_$w.png --inverse --backend $be
    cmp ${be}_$w.npy cpu_$w.npy && echo "$w: $be coeffs == cpu"
    cmp s.png back_${be}_$w.png && echo "$w: $be round trip bit-exact"
  done
done
$B/dwt transform s.png a.npy -w LeGall53 -l 3 --backend auto 2>&1 | grep -v "^\s*$" | head -3
rm -f *.npy *.png *.json

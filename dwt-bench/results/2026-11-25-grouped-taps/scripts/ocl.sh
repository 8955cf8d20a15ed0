cd .device/s13/ocl
export LD_LIBRARY_PATH=/lib/x86_64-linux-gnu OCL_ICD_VENDORS=$PWD/vendors DWT_CACHE_DIR=$(mktemp -d)
for t in dwt_opencl opencl plan conformance; do
  ./$t --include-ignored --nocapture --skip no_platform_child > $OUT/opencl-nvidia-$t.txt 2>&1; echo "$t rc=$?"; grep "test result" $OUT/opencl-nvidia-$t.txt
done
grep -h "on opencl" $OUT/opencl-nvidia-conformance.txt | head -5
grep -h "FAILED\|panicked" $OUT/*.txt | head

set -u
cd "$(dirname "$0")" && tar xJf pkg.tar.xz
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/device.txt
export DWT_CACHE_DIR=$(mktemp -d)
for t in frames host_memory threads; do
  echo "== cuda $t"; ./bin/cuda_$t --include-ignored 2>&1 | grep -E '^test |test result|panicked|FAIL|left|right'
done > $OUT/tests-cuda.txt 2>&1
export LD_LIBRARY_PATH=/lib/x86_64-linux-gnu OCL_ICD_VENDORS=$PWD/vendors
echo "== opencl frames" > $OUT/tests-opencl.txt
./bin/ocl_frames --include-ignored 2>&1 | grep -E '^test |test result|panicked|FAIL|left|right' >> $OUT/tests-opencl.txt
grep -hE '==|test result|FAIL|panick' $OUT/tests-*.txt
for r in 1 2; do echo "== round $r"; ./bin/host_frames; done 2>&1 | tee $OUT/host_frames.md

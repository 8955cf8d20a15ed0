set -u
cd "$(dirname "$0")" && tar xJf pkg.tar.xz
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/device.txt
export DWT_CACHE_DIR=$(mktemp -d)
for t in frames host_memory threads dwt_cuda cuda; do
  echo "== cuda $t"; ./bin/cuda_$t --include-ignored 2>&1 | grep -E '^test |test result|panicked|FAIL|left|right'
done > $OUT/tests-cuda.txt 2>&1
export LD_LIBRARY_PATH=/lib/x86_64-linux-gnu OCL_ICD_VENDORS=$PWD/vendors
for t in frames dwt_opencl plan threads opencl; do
  echo "== opencl $t"; ./bin/ocl_$t --include-ignored --skip no_platform_child 2>&1 | grep -E '^test |test result|panicked|FAIL|left|right'
done > $OUT/tests-opencl.txt 2>&1
grep -hE '==|test result|FAIL|panick' $OUT/tests-*.txt
echo "== OpenCL"; ./bin/opencl_host_frames 2>&1 | tee $OUT/host_frames.md
echo "== CUDA"; ./bin/host_frames 2>&1 | tee -a $OUT/host_frames.md

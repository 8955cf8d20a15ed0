set -u
cd "$(dirname "$0")" && tar xJf pkg.tar.xz
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/device.txt
for t in frames_cuda host_memory; do
  echo "== $t"; ./bin/$t --include-ignored 2>&1 | grep -E '^test |test result|panicked|FAIL'
done > $OUT/tests-cuda.txt 2>&1
export LD_LIBRARY_PATH=/lib/x86_64-linux-gnu OCL_ICD_VENDORS=$PWD/vendors
for t in frames_opencl dwt_opencl; do
  echo "== $t"; ./bin/$t --include-ignored --skip no_platform_child 2>&1 | grep -E '^test |test result|panicked|FAIL'
done > $OUT/tests-opencl.txt 2>&1
grep -E '==|test result|FAIL|panick' $OUT/tests-*.txt
for r in 1 2; do echo "== round $r OpenCL"; ./bin/opencl_host_frames; echo "== round $r CUDA"; ./bin/host_frames; done 2>&1 | tee $OUT/host_frames.md

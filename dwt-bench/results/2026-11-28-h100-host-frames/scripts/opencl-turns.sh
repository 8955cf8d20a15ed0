set -u
cd "$(dirname "$0")" && tar xJf pkg.tar.xz
export LD_LIBRARY_PATH=/lib/x86_64-linux-gnu OCL_ICD_VENDORS=$PWD/vendors
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/device.txt
for t in frames dwt_opencl opencl plan threads; do
  echo "== $t"; ./bin/$t --include-ignored --skip no_platform_child 2>&1 | grep -E '^test |test result|panicked|FAIL'
done > $OUT/tests.txt 2>&1
grep -E '==|test result|FAIL|panick' $OUT/tests.txt
for r in 1 2; do echo "== round $r"; ./bin/opencl_host_frames; done 2>&1 | tee $OUT/host_frames.md

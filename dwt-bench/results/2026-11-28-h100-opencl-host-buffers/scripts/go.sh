set -u
cd "$(dirname "$0")" && tar xJf pkg.tar.xz
export LD_LIBRARY_PATH=/lib/x86_64-linux-gnu OCL_ICD_VENDORS=$PWD/vendors
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/device.txt
for t in opencl plan threads conformance; do
  echo "== $t"; ./bin/$t --include-ignored --skip no_platform_child 2>&1 | tail -4
done > $OUT/tests.txt 2>&1
cat $OUT/tests.txt | grep -E '==|test result|FAIL|panick'
for r in 1 2; do
  echo "== round $r opencl"; ./opencl_host_buffers
  echo "== round $r cuda"; ./cuda_host_buffers
done 2>&1 | tee $OUT/host_buffers.md

# One call on the GPU machine, carrying .device/s73 (pkg.tar.xz: cuda/ and ocl/ the GPU test
# binaries of the new build, cold-old and cold-new the root `cold_prepare` example built from
# 5d592d6 and from the change, vendors/nvidia.icd for the ICD loader).
set -u
cd "$(dirname "$0")" && tar xJf pkg.tar.xz
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/device.txt
nproc | tee -a $OUT/device.txt
export LD_LIBRARY_PATH=/lib/x86_64-linux-gnu OCL_ICD_VENDORS=$PWD/vendors
# NVIDIA's compute cache off. Each run a process of its own with an empty disk cache, old and new alternated.
for r in 1 2; do
  for b in old new; do
    echo "== $b-$r" >> $OUT/cold.md
    CUDA_CACHE_DISABLE=1 DWT_CACHE_DIR=$(mktemp -d) timeout 100 ./cold-$b opencl $b-$r >> $OUT/cold.md 2>&1
    tail -1 $OUT/cold.md
  done
done
export DWT_CACHE_DIR=$(mktemp -d)
for t in plan opencl threads frames conformance; do
  echo "== ocl $t"; timeout 120 ./ocl/$t --include-ignored --skip no_platform_child 2>&1 | grep -E '^test |test result|panicked|FAIL|left|right'
done > $OUT/tests-opencl.txt 2>&1
grep -hE '==|test result|FAIL|panick' $OUT/tests-opencl.txt
for t in dwt_cuda cuda threads conformance; do
  echo "== cuda $t"; timeout 150 ./cuda/$t --include-ignored 2>&1 | grep -E '^test |test result|panicked|FAIL|left|right'
done > $OUT/tests-cuda.txt 2>&1
grep -hE '==|test result|FAIL|panick' $OUT/tests-cuda.txt

# One call on the GPU machine, carrying .device/s72 (pkg.tar.xz: bin/ the GPU test binaries of
# the new build, cold-old and cold-new the `cold_prepare` example of d16bbc0 and of the new build).
set -u
cd "$(dirname "$0")" && tar xJf pkg.tar.xz
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/device.txt
nproc | tee $OUT/cores.txt
export DWT_CACHE_DIR=$(mktemp -d)
for t in dwt_cuda cuda conformance threads frames host_memory thread_context driver nvrtc; do
  echo "== $t"; ./bin/$t --include-ignored 2>&1 | grep -E '^test |test result|panicked|FAIL|left|right'
done > $OUT/tests.txt 2>&1
grep -hE '==|test result|FAIL|panick' $OUT/tests.txt
# Each run of the example in a process of its own with an empty disk cache, alternated.
for r in 1 2 3; do
  for b in old new; do
    DWT_CACHE_DIR=$(mktemp -d) ./cold-$b $b-$r > $OUT/cold-$b-$r.md 2>&1
    tail -1 $OUT/cold-$b-$r.md
  done
done

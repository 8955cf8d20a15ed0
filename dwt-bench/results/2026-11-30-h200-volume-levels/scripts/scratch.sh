#!/usr/bin/env bash
# On the GPU machine, one call carrying a folder ($1, e.g. .device/s123) with bins.tar.xz
# (cuda/{cuda,dwt_cuda} of `cargo test --release -p dwt-cuda --no-run`, dwt-bench-new, all
# stripped): the dwt-cuda unit tests and the CUDA suite, then dwt-bench's whole default run
# (every program and size, then the volumes: the sequence that met CUDA_ERROR_ILLEGAL_ADDRESS
# at 7d83a72), no peers. Output into $OUT.
set -u
start=$(date +%s)
D=$(mktemp -d)
tar -C $D -xJf $1/bins.tar.xz
export DWT_CACHE_DIR=$(mktemp -d)
for t in dwt_cuda cuda; do
  timeout 60 $D/cuda/$t --include-ignored > $OUT/$t.log 2>&1
  echo "$t rc=$? $(( $(date +%s) - start )) s $(grep 'test result' $OUT/$t.log)" | tee -a $OUT/tests.txt
  grep -E 'panicked|FAILED' $OUT/$t.log | head -5
done
timeout 170 $D/dwt-bench-new --out $OUT/dwt-bench.md > /dev/null 2> $OUT/dwt-bench.err
echo "bench rc=$? $(( $(date +%s) - start )) s" | tee -a $OUT/tests.txt
grep -E "FAILED|MISMATCH" $OUT/dwt-bench.err $OUT/dwt-bench.md | head -5

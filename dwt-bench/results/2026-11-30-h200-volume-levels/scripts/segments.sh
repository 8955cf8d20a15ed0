#!/usr/bin/env bash
# On the GPU machine, one call carrying a folder ($1, e.g. .device/s120) with bins.tar.xz
# (cuda/cuda of `cargo test --release -p dwt-cuda --no-run`, dwt-bench-old built at c1bd024,
# dwt-bench-new with the temporary environment switches DWT_VOL_TARGET (the groups a launch's
# segment is halved towards), DWT_VOL_MIN (the fewest groups a coarser level takes the kernel
# with) and DWT_VOL_SEG_MIN): the CUDA suite with every level in one pass at 32 planes a group
# (V0) and the one-pass tests at 8 planes a group (forced), then dwt-bench's volumes, the old
# build and four variants in turns, two rounds. Output into $OUT/run.tar.
set -u
start=$(date +%s)
D=$(mktemp -d)
tar -C $D -xJf $1/bins.tar.xz
R=$OUT/seg
mkdir -p $R
pack() { tar -C "$OUT" -cf "$OUT/run.tar" seg; }
export DWT_CACHE_DIR=$(mktemp -d)
s=$(date +%s)
DWT_VOL_TARGET=0 DWT_VOL_MIN=0 timeout 200 $D/cuda/cuda --include-ignored > $R/cuda-v0.log 2>&1
echo "cuda v0 rc=$? $(( $(date +%s) - s )) s $(grep 'test result' $R/cuda-v0.log)" | tee -a $R/tests.txt
grep -E 'panicked' $R/cuda-v0.log | head -3
DWT_VOL_TARGET=1000000 DWT_VOL_MIN=0 timeout 200 $D/cuda/cuda --include-ignored one_pass volumes_run > $R/cuda-seg8.log 2>&1
echo "cuda seg8 rc=$? $(grep 'test result' $R/cuda-seg8.log)" | tee -a $R/tests.txt
grep -E 'panicked' $R/cuda-seg8.log | head -3
pack
for round in 1 2; do
  for v in old v0 v1 v2 v3; do
    case $v in
      old) env=""; bin=old ;;
      v0) env="DWT_VOL_TARGET=0 DWT_VOL_MIN=0"; bin=new ;;
      v1) env="DWT_VOL_TARGET=512 DWT_VOL_MIN=128"; bin=new ;;
      v2) env="DWT_VOL_TARGET=1024 DWT_VOL_MIN=128"; bin=new ;;
      v3) env="DWT_VOL_TARGET=512 DWT_VOL_MIN=1000000"; bin=new ;;
    esac
    env $env timeout 200 $D/dwt-bench-$bin --wavelets LeGall53,Cdf53,Cdf97 --sizes none \
      --out $R/$v-$round.md > /dev/null 2> $R/$v-$round.err
    echo "bench $v $round rc=$?" | tee -a $R/tests.txt
    pack
  done
done
echo "all took $(( $(date +%s) - start )) s" | tee -a $R/tests.txt
pack

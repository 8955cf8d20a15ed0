#!/usr/bin/env bash
# On the GPU machine, one call carrying a folder ($1, e.g. .device/s114) with bins.tar.xz
# (dwt-bench-new, cuda/{cuda,conformance,nvrtc}, stripped) and the peers' wheels: the GPU tests
# of the copy kernel and the volume pyramid, dwt-bench alternating memcpy nodes (off) and the
# copy kernel for every copy (0) twice, then the full run as
# dwt-bench/results/2026-11-29-h200-volume-peers/scripts/full.sh makes it (every program and
# size, the volumes, the peers, compare.py, floor.cu). Everything into $OUT/run.tar (run/).
set -u
start=$(date +%s)
D=$(mktemp -d)
tar -C $D -xJf $1/bins.tar.xz && cp -r $1/wheels $D/
T=$(mktemp -d)/run && mkdir -p $T/ab $T/full
F=$T/full
pack() { tar -C $(dirname $T) -cf $OUT/run.tar run; }
nvidia-smi --query-gpu=name,driver_version --format=csv > $F/device.txt
export DWT_CACHE_DIR=$(mktemp -d)
$D/cuda/cuda --include-ignored graph_replays large_transforms volumes band_copies pair_local \
  > $T/ab/tests-cuda.txt 2>&1; echo "cuda: exit $?" >> $T/ab/tests.txt
$D/cuda/conformance --include-ignored pair_volumes > $T/ab/tests-conformance.txt 2>&1
echo "conformance: exit $?" >> $T/ab/tests.txt
$D/cuda/nvrtc copy_kernel pair_local > $T/ab/tests-nvrtc.txt 2>&1; echo "nvrtc: exit $?" >> $T/ab/tests.txt
pack
for round in 1 2; do
  for from in off 0; do
    $D/dwt-bench-new --wavelets LeGall53,HaarNoShift,Cdf97 --sizes 4096,8192 --levels 1 \
      --copy-kernel-from $from --out $T/ab/copies-$from-$round.md > /dev/null 2> $T/ab/copies-$from-$round.err
    echo "copies $from $round: exit $? $(( $(date +%s) - start )) s" >> $T/ab/tests.txt
  done
done
pack
timeout 300 $D/dwt-bench-new --out $F/dwt-bench.md > /dev/null 2> $F/dwt-bench.err; echo "bench rc=$? $(( $(date +%s) - start )) s"
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site --find-links $D/wheels ptwt pytorch_wavelets pywavelets > /dev/null 2>&1
PYTHONPATH=/tmp/site timeout 330 python3 dwt-bench/peers.py --out $F/peers.md > $F/peers.log 2>&1; echo "peers rc=$? $(( $(date +%s) - start )) s"
( cd dwt-bench && python3 compare.py $F/dwt-bench.md $F/peers.md > $F/compare.md 2>&1; python3 compare.py --3d $F/dwt-bench.md $F/peers.md > $F/compare-3d.md 2>&1 )
( cd dwt-bench/floor && nvcc -O3 -arch=sm_90 floor.cu -o /tmp/floor && /tmp/floor > $F/floor.md ); echo "floor rc=$?"
pack
cat $T/ab/tests.txt $F/compare-3d.md
echo "took $(( $(date +%s) - start )) s"

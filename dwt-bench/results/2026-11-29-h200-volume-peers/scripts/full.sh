# One call on the GPU machine, carrying a folder with bins.tar.xz (dwt-bench-new, stripped) and
# the peers' wheels: the full run (every program and size, the 3-D volumes, then the peers),
# compare.py's tables and floor.cu, all into $OUT/run.tar (full/), for BENCHMARKS.md's first
# section (summary.py --write).
# Usage: bash dwt-bench/results/2026-11-29-h200-volume-peers/scripts/full.sh .device/sNN
set -u
start=$(date +%s)
D=$(mktemp -d)
tar -C $D -xJf $1/bins.tar.xz && cp -r $1/wheels $D/
F=$(mktemp -d)/full && mkdir -p $F
nvidia-smi --query-gpu=name,driver_version --format=csv > $F/device.txt
export DWT_CACHE_DIR=$(mktemp -d)
timeout 300 $D/dwt-bench-new --out $F/dwt-bench.md > /dev/null 2> $F/dwt-bench.err; echo "bench rc=$? $(( $(date +%s) - start )) s"
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site --find-links $D/wheels ptwt pytorch_wavelets pywavelets > /dev/null 2>&1
PYTHONPATH=/tmp/site timeout 330 python3 dwt-bench/peers.py --out $F/peers.md > $F/peers.log 2>&1; echo "peers rc=$? $(( $(date +%s) - start )) s"
( cd dwt-bench && python3 compare.py $F/dwt-bench.md $F/peers.md > $F/compare.md 2>&1; python3 compare.py --3d $F/dwt-bench.md $F/peers.md > $F/compare-3d.md 2>&1 )
( cd dwt-bench/floor && nvcc -O3 -arch=sm_90 floor.cu -o /tmp/floor && /tmp/floor > $F/floor.md ); echo "floor rc=$?"
tar -C $(dirname $F) -cf $OUT/run.tar full
cat $F/compare-3d.md
echo "took $(( $(date +%s) - start )) s"

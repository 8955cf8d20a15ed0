# One call on the GPU machine, carrying a folder with bins.tar.xz (dwt-bench-new, optionally
# cuda/* test binaries) and the peers' wheels: the 3-D cases of dwt-bench (every volume, both
# ways, default plan; ONE_PASS="off on" also with the one-pass volume kernels forced) and ptwt's
# 3-D transforms, then compare.py --3d.
# Usage: bash dwt-bench/results/2026-11-29-h200-volume-peers/scripts/three-d.sh .device/sNN
set -u
start=$(date +%s)
D=$(mktemp -d)
tar -C $D -xJf $1/bins.tar.xz && cp -r $1/wheels $D/
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/device.txt
export DWT_CACHE_DIR=$(mktemp -d)
timeout 200 $D/dwt-bench-new --sizes none --reps 20 --out $OUT/dwt-bench-3d.md > /dev/null 2> $OUT/dwt-bench-3d.err
echo "bench rc=$? $(( $(date +%s) - start )) s" | tee -a $OUT/device.txt
for mode in ${ONE_PASS:-}; do
  timeout 200 $D/dwt-bench-new --sizes none --reps 20 --one-pass-volumes $mode --out $OUT/dwt-bench-3d-$mode.md > /dev/null 2>&1
  echo "bench $mode rc=$? $(( $(date +%s) - start )) s" | tee -a $OUT/device.txt
done
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site --find-links $D/wheels ptwt pytorch_wavelets pywavelets > /dev/null 2>&1
PYTHONPATH=/tmp/site timeout 300 python3 dwt-bench/peers.py --only-3d --out $OUT/peers-3d.md > $OUT/peers-3d.log 2>&1
echo "peers rc=$? $(( $(date +%s) - start )) s" | tee -a $OUT/device.txt
( cd dwt-bench && python3 compare.py --3d $OUT/dwt-bench-3d.md $OUT/peers-3d.md ) | tee $OUT/compare-3d.md
grep -E '^\| \w+ (256|512)\^3 L3 (fwd|inv) \|' $OUT/dwt-bench-3d*.md | grep -E 'src->dst' | tee -a $OUT/device.txt
echo "took $(( $(date +%s) - start )) s" | tee -a $OUT/device.txt

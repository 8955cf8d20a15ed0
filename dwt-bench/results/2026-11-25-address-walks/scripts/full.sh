#!/bin/bash
# Full run: every program and size, 3-D, then the peers; compare tables.
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/device.txt
timeout 320 .device/s16/dwt-bench-new --out $OUT/dwt-bench.md > /dev/null 2> $OUT/dwt-bench.err; echo "bench rc=$?"
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site --find-links .device/s16/wheels ptwt pytorch_wavelets pywavelets > /dev/null 2>&1
PYTHONPATH=/tmp/site timeout 260 python3 dwt-bench/peers.py --out $OUT/peers.md > $OUT/peers.log 2>&1; echo "peers rc=$?"
cd dwt-bench && python3 compare.py $OUT/dwt-bench.md $OUT/peers.md > $OUT/compare.md 2>&1; python3 compare.py --3d $OUT/dwt-bench.md $OUT/peers.md > $OUT/compare-3d.md 2>&1
head -30 $OUT/compare.md

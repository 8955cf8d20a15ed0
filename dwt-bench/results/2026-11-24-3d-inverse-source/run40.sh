#!/bin/bash
# Session 29 call 5: the one-pass prototype with the next plane prefetched into registers, and
# smaller tiles.
set -u
O=dwt-bench/results/2026-11-24-3d-inverse-source/onepass
python3 - <<'PY'
import numpy as np
rng = np.random.default_rng(1)
for shape in [(512, 512, 512), (37, 45, 70)]:
    rng.integers(-2048, 2048, size=shape, dtype=np.int32).tofile("/tmp/in-%dx%dx%d.raw" % shape)
PY
for s in 37,45,70 512,512,512; do
  n=$(echo $s | tr , x)
  .device/dwt-cli transform -q -b cpu -w LeGall53 -l 1 --shape $s --dtype i32 --layout mallat /tmp/in-$n.raw /tmp/ref-$n.raw || echo "ref $s failed"
done
{
for v in "0 64 32" "1 64 32" "1 64 16" "1 32 32" "0 64 16"; do
  set -- $v
  nvcc -O3 -arch=sm_90 -DPREFETCH=$1 -DTX=$2 -DTY=$3 -o /tmp/op $O/onepass3d.cu -Xptxas -v 2>&1 | grep -E "registers|error" | head -2
  echo "== prefetch $1, tile ${2}x$3"
  /tmp/op 37 45 70 4 /tmp/in-37x45x70.raw /tmp/ref-37x45x70.raw | head -1
  for zs in 32 128; do /tmp/op 512 512 512 $zs /tmp/in-512x512x512.raw /tmp/ref-512x512x512.raw; done
done
} > $OUT/onepass-2.txt 2>&1
cat $OUT/onepass-2.txt

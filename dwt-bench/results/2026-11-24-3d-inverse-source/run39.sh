#!/bin/bash
# Session 29 call 4: a hand-written one-pass 3-D level (LeGall 5/3 forward, i32) against the CPU
# reference and timed; the library's two passes of the same level in the same call (dwt-bench).
set -u
O=dwt-bench/results/2026-11-24-3d-inverse-source/onepass
nvcc -O3 -arch=sm_90 -o /tmp/op $O/onepass3d.cu || exit 1
python3 - <<'PY'
import numpy as np
rng = np.random.default_rng(1)
for shape in [(512, 512, 512), (37, 45, 70), (36, 45, 70)]:
    rng.integers(-2048, 2048, size=shape, dtype=np.int32).tofile("/tmp/in-%dx%dx%d.raw" % shape)
PY
for s in 37,45,70 36,45,70 512,512,512; do
  n=$(echo $s | tr , x)
  .device/dwt-cli transform -q -b cpu -w LeGall53 -l 1 --shape $s --dtype i32 --layout mallat /tmp/in-$n.raw /tmp/ref-$n.raw || echo "ref $s failed"
done
{
for zs in 8 4; do /tmp/op 37 45 70 $zs /tmp/in-37x45x70.raw /tmp/ref-37x45x70.raw | head -1; /tmp/op 36 45 70 $zs /tmp/in-36x45x70.raw /tmp/ref-36x45x70.raw | head -1; done
for zs in 16 32 64 128; do /tmp/op 512 512 512 $zs /tmp/in-512x512x512.raw /tmp/ref-512x512x512.raw; done
} > $OUT/onepass.txt 2>&1
cat $OUT/onepass.txt
timeout 120 .device/dwt-bench-lows --sizes none --reps 30 --out $OUT/dwt-bench.md > /dev/null 2>&1
grep "512^3 L3 fwd.*columns\|512^3 L3 fwd.*tile" $OUT/dwt-bench.md | head -2

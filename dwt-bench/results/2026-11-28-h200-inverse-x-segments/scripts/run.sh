#!/bin/bash
# Probe: Fidelity's inverse with the pass along x in segments of 12 (64 lines x 4 = 256 tasks)
# against segments of 16 (192 tasks), by DWT_PROBE_SEG; tests under the probe first.
cd "$(dirname "$0")"
export DWT_CACHE_DIR=$(mktemp -d)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/device.txt
DWT_PROBE_SEG=12,16 ./bin/conformance > $OUT/tests-conformance.txt 2>&1; echo "conformance rc $?"
DWT_PROBE_SEG=12,16 ./bin/cuda > $OUT/tests-cuda.txt 2>&1; echo "cuda rc $?"
tail -3 $OUT/tests-*.txt
for r in 1 2 3; do
  for v in old new; do
    if [ $v = new ]; then export DWT_PROBE_SEG=12,16; else unset DWT_PROBE_SEG; fi
    ./dwt-bench --wavelets Fidelity --sizes 4096,8192 --no-3d --default-plan-only --out $OUT/$v-$r.md > $OUT/$v-$r.log 2>&1 || echo "bench $v $r failed"
  done
done
ls $OUT

#!/bin/bash
cd "$(dirname "$0")"
export DWT_CACHE_DIR=$(mktemp -d)
mkdir -p /tmp/r
for r in 1 2 3; do
  for v in old new; do
    if [ $v = new ]; then export DWT_PROBE_SEG=12,16; else unset DWT_PROBE_SEG; fi
    ./dwt-bench --wavelets Fidelity --sizes 4096,8192 --no-3d --default-plan-only --out /tmp/r/$v-$r.md > /tmp/r/$v-$r.log 2>&1 || echo "bench $v $r failed"
  done
done
tar -C /tmp/r -cf $OUT/bench.tar .

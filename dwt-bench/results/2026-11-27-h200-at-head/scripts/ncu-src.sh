#!/bin/bash
# Per-instruction counts (SASS) of the 1920x1080 i16 forwards' first-level tile kernels.
B=.device/s23/dwt-bench
for w in LeGall53:legall53 Fidelity:fidelity; do
  name=${w%%:*}; k=${w##*:}
  ncu --clock-control none -k regex:${k}_forward_i16_tile -c 1 --section SourceCounters --page source --csv --print-source sass \
    $B --wavelets $name --sizes 1080p --levels 1 --no-3d --reps 20 --default-plan-only --out /tmp/x.md > $OUT/src-$name.csv 2> $OUT/src-$name.err
  echo "$name rc=$? $(wc -c < $OUT/src-$name.csv)"
done

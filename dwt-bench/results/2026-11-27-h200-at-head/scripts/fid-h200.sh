#!/bin/bash
# Fidelity at 8192^2 one level on this card: times, SASS of the tile kernels, per-instruction counts.
B=.device/s23/dwt-bench
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $OUT/device.txt
export DWT_CACHE_DIR=/tmp/dwtcache; rm -rf $DWT_CACHE_DIR
for r in 1 2; do
  $B --wavelets Fidelity,LeGall53 --sizes 8192 --levels 1 --no-3d --default-plan-only --reps 25 --out $OUT/bench-$r.md > $OUT/bench-$r.log 2>&1; echo "bench rc=$?"
done
mkdir -p $OUT/sass
for f in $(find $DWT_CACHE_DIR -type f); do
  cuobjdump -sass $f > /tmp/s.txt 2>/dev/null && grep -o "Function : [a-z0-9_]*" /tmp/s.txt | head -20 | tr '\n' ' ' && echo
  for k in $(grep -o "Function : fidelity_[a-z0-9_]*tile" /tmp/s.txt | awk '{print $3}'); do
     awk -v k="$k" '$0 ~ "Function : "k"$" {f=1; next} /Function :/ {f=0} f' /tmp/s.txt > $OUT/sass/$k.sass
  done
done
ls -la $OUT/sass
ncu --clock-control none -k regex:fidelity_forward_i32_tile -c 1 --section InstructionStats --section WarpStateStats --section SpeedOfLight --section SourceCounters --page source --csv --print-source sass \
  $B --wavelets Fidelity --sizes 8192 --levels 1 --no-3d --reps 20 --default-plan-only --out /tmp/x.md > $OUT/ncu-src-fwd.csv 2> $OUT/ncu-src-fwd.err
echo "ncu rc=$? $(wc -c < $OUT/ncu-src-fwd.csv)"
grep -E "Fidelity|LeGall" $OUT/bench-*.md | grep -E "8192x8192 L1" | grep "src->dst |" | cut -c1-200
grep -i "copy" $OUT/bench-1.md | head -5

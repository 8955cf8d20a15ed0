#!/bin/bash
# CDF 5/3 and LeGall 5/3, three levels forward, whole and step by step, on several tile shapes
# (the configured tiles and three larger ones), two runs of each alternating; every report in
# $OUT/tiles.tgz, the summary (whole transforms and steps) printed.
B=.device/s21/dwt-bench
T=$(mktemp -d)/tiles; mkdir -p $T
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for run in 1 2; do
for t in "default" "32x32 256" "64x16 256" "64x32 512"; do
  set -- $t
  if [ "$1" = default ]; then args=""; name=default; else args="--tile $1 --threads $2"; name="$1-$2"; fi
  $B --wavelets Cdf53,LeGall53 --sizes 4096,8192 --levels 3 --level-steps --no-3d --reps 25 --default-plan-only $args --out $T/$name-r$run.md > $T/$name-r$run.log 2>&1
  echo "== $name run $run rc=$?"
  grep "L3 fwd" $T/$name-r$run.md | awk -F'|' '$4 ~ /src->dst/ {print $2, $6} $4 ~ /_tile / {print $2, $4, $5}' | tr -s ' '
done
done
(cd $(dirname $T) && tar czf $OUT/tiles.tgz tiles)

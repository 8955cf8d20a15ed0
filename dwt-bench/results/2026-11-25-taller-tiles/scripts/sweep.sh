#!/bin/bash
# Tile shapes for Daubechies 9/7's inverse and Fidelity at 8192^2 (scratch sweep).
set -u
B=.device/ab/dwt-bench-cur
S=$OUT/s; mkdir -p $S
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $S/gpu.txt
run() { # name wavelet round [flags]
  local n=$1 w=$2 r=$3; shift 3
  $B --wavelets $w --sizes 8192 --no-3d --reps 30 --default-plan-only "$@" --out $S/$n-$r.md > $S/$n-$r.log 2>&1 || echo "FAIL $n $r" >> $S/fail.txt
}
for r in 1 2; do
  run d97 Daubechies97Integer $r
  run d97t32x24s8 Daubechies97Integer $r --tile 32x24 --threads 256 --segment 8
  run d97t32x20s10 Daubechies97Integer $r --tile 32x20 --threads 256 --segment 10
  run d97t48x16s8 Daubechies97Integer $r --tile 48x16 --threads 256 --segment 8
  run fid Fidelity $r
  run fidt32x48s16 Fidelity $r --tile 32x48 --threads 256 --segment 16
  run fidt48x32s16 Fidelity $r --tile 48x32 --threads 256 --segment 16
  run fidt32x40s8 Fidelity $r --tile 32x40 --threads 256 --segment 8
  run fidt64x24s8 Fidelity $r --tile 64x24 --threads 256 --segment 8
  run fidt64x24s12 Fidelity $r --tile 64x24 --threads 256 --segment 12
done
cd dwt-bench
python3 ab.py $S d97 d97t32x24s8 d97t32x20s10 d97t48x16s8 > $S/cmp-d97.md 2>&1
python3 ab.py $S fid fidt32x48s16 fidt48x32s16 fidt32x40s8 fidt64x24s8 fidt64x24s12 > $S/cmp-fid.md 2>&1
cat $S/cmp-*.md $S/fail.txt 2>/dev/null
cd $S && tar czf $OUT/sweep.tgz *.md *.log *.txt && rm -rf $S

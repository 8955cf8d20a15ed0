# The third call: planes in pairs (parity known where written), stores from one address per
# plane, 16-byte row loads (VEC); then dwt-bench's 3-D LeGall 5/3 (the emitted two passes,
# step by step) in the same call.
# Usage: bash dwt-bench/results/2026-11-29-h200-onepass-registers/scripts/run-3.sh .device/s90
set -u
D=$1
R=dwt-bench/results/2026-11-29-h200-onepass-registers
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
W=$(mktemp -d)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/log.txt
gen() {
  python3 -c "import numpy as np,sys; d,h,w=map(int,sys.argv[1:4]); np.random.default_rng(7).integers(-1000,1001,size=d*h*w,dtype=np.int32).tofile(sys.argv[4])" $1 $2 $3 $W/in-$1x$2x$3.raw
  $D/dwt -q transform -b cpu -w LeGall53 -l 1 --shape $1,$2,$3 --dtype i32 --layout mallat $W/in-$1x$2x$3.raw $W/ref-$1x$2x$3.raw
}
for s in "37 45 70" "36 40 200" "64 64 64" "512 512 512"; do gen $s; done
variants="XWARP=1,NSTAGE=4,SY=4,MINB=4 VEC=1,XWARP=1,NSTAGE=4,SY=4,MINB=4 VEC=1,XWARP=1,NSTAGE=3,SY=8,MINB=3 VEC=1,XWARP=1,NSTAGE=2,SY=8,MINB=3 VEC=1,XWARP=1,NSTAGE=3,SY=4,MINB=4"
for v in $variants; do
  defs=$(echo $v | sed 's/\([A-Z]*=[0-9]*\)/-D\1/g; s/,/ /g')
  b=$W/rz-$(echo $v | tr ',=' '__')
  $NVCC -O3 -arch=sm_90 -std=c++17 $defs -Xptxas -v -o $b $R/onepass_rz.cu 2>&1 | grep -A2 onepass_rz | grep -E 'Used|spill' | tee -a $OUT/log.txt
  echo "== $v" | tee -a $OUT/log.txt
  for s in "37 45 70 4" "36 40 200 4" "36 40 200 6" "64 64 64 6"; do
    set -- $s
    $b $1 $2 $3 $4 $W/in-$1x$2x$3.raw $W/ref-$1x$2x$3.raw 2>&1 | tee -a $OUT/log.txt
  done
  for zs in 32 64; do
    $b 512 512 512 $zs $W/in-512x512x512.raw $W/ref-512x512x512.raw 40 2>&1 | tee -a $OUT/log.txt
  done
done
export DWT_CACHE_DIR=$(mktemp -d)
timeout 300 $D/dwt-bench --sizes none --wavelets LeGall53 --reps 20 --out $OUT/dwt-bench.md > $OUT/dwt-bench.log 2>&1
echo "dwt-bench rc=$?" | tee -a $OUT/log.txt
grep -E 'LeGall53 512\^3' $OUT/dwt-bench.md | tee -a $OUT/log.txt

# One call on the GPU machine, carrying .device/s90 (dwt and dwt-bench, release, stripped).
# Builds the prototype's variants with nvcc, checks each against the CPU reference (`dwt
# transform -b cpu`) at odd sizes and 512^3, times it at 512^3 beside a copy kernel, then runs
# dwt-bench's 3-D cases for LeGall 5/3 (the emitted two passes, step by step) in the same call.
# Usage: bash dwt-bench/results/2026-11-29-h200-onepass-registers/scripts/run.sh .device/s90
set -u
D=$1
R=dwt-bench/results/2026-11-29-h200-onepass-registers
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
W=$(mktemp -d)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/log.txt
gen() {  # D H W: random i32 samples in -1000..1000 and the CPU reference of one level
  python3 -c "import numpy as np,sys; d,h,w=map(int,sys.argv[1:4]); np.random.default_rng(7).integers(-1000,1001,size=d*h*w,dtype=np.int32).tofile(sys.argv[4])" $1 $2 $3 $W/in-$1x$2x$3.raw
  $D/dwt -q transform -b cpu -w LeGall53 -l 1 --shape $1,$2,$3 --dtype i32 --layout mallat $W/in-$1x$2x$3.raw $W/ref-$1x$2x$3.raw
}
for s in "37 45 70" "36 45 70" "64 64 64" "512 512 512"; do gen $s; done
ls -la $W | head -20 >> $OUT/log.txt
variants="TX=64,SY=4,MINB=4 TX=64,SY=8,MINB=3 TX=64,SY=8,MINB=2 TX=32,SY=4,MINB=4 TX=32,SY=8,MINB=3"
for v in $variants; do
  defs=$(echo $v | sed 's/\([A-Z]*=[0-9]*\)/-D\1/g; s/,/ /g')
  $NVCC -O3 -arch=sm_90 -std=c++17 $defs -Xptxas -v -o $W/rz $R/onepass_rz.cu 2>&1 | grep -A2 onepass_rz | grep -E 'Used|spill' | tee -a $OUT/log.txt
  echo "== $v" | tee -a $OUT/log.txt
  for s in "37 45 70 4" "36 45 70 4" "37 45 70 32" "64 64 64 4" "64 64 64 6"; do
    set -- $s
    $W/rz $1 $2 $3 $4 $W/in-$1x$2x$3.raw $W/ref-$1x$2x$3.raw 2>&1 | tee -a $OUT/log.txt
  done
  for zs in 32 64 128; do
    $W/rz 512 512 512 $zs $W/in-512x512x512.raw $W/ref-512x512x512.raw 40 2>&1 | tee -a $OUT/log.txt
  done
done
export DWT_CACHE_DIR=$(mktemp -d)
timeout 300 $D/dwt-bench --sizes none --wavelets LeGall53 --reps 20 --out $OUT/dwt-bench.md > $OUT/dwt-bench.log 2>&1
echo "dwt-bench rc=$?" | tee -a $OUT/log.txt
grep -E 'LeGall53 512\^3' $OUT/dwt-bench.md | tee -a $OUT/log.txt

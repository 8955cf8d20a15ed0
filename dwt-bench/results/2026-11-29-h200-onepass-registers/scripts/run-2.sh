# The second call (the machine still warm): deeper cp.async pipelines (NSTAGE planes in
# flight - 1), the warp-per-row pass along x (XWARP), then Nsight Compute on two variants.
# Usage: bash dwt-bench/results/2026-11-29-h200-onepass-registers/scripts/run-2.sh .device/s90
set -u
D=$1
R=dwt-bench/results/2026-11-29-h200-onepass-registers
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null || echo ncu)
W=$(mktemp -d)
gen() {
  python3 -c "import numpy as np,sys; d,h,w=map(int,sys.argv[1:4]); np.random.default_rng(7).integers(-1000,1001,size=d*h*w,dtype=np.int32).tofile(sys.argv[4])" $1 $2 $3 $W/in-$1x$2x$3.raw
  $D/dwt -q transform -b cpu -w LeGall53 -l 1 --shape $1,$2,$3 --dtype i32 --layout mallat $W/in-$1x$2x$3.raw $W/ref-$1x$2x$3.raw
}
for s in "37 45 70" "64 64 64" "512 512 512"; do gen $s; done
variants="NSTAGE=2,SY=8,MINB=3 NSTAGE=3,SY=8,MINB=3 NSTAGE=3,SY=4,MINB=4 XWARP=1,NSTAGE=2,SY=8,MINB=3 XWARP=1,NSTAGE=3,SY=8,MINB=3 XWARP=1,NSTAGE=3,SY=4,MINB=4 XWARP=1,NSTAGE=4,SY=4,MINB=4"
for v in $variants; do
  defs=$(echo $v | sed 's/\([A-Z]*=[0-9]*\)/-D\1/g; s/,/ /g')
  # (nvcc splits option values at commas: the binary's name has none)
  b=$W/rz-$(echo $v | tr ',=' '__')
  $NVCC -O3 -arch=sm_90 -std=c++17 $defs -Xptxas -v -o $b $R/onepass_rz.cu 2>&1 | grep -A2 onepass_rz | grep -E 'Used|spill' | tee -a $OUT/log.txt
  echo "== $v" | tee -a $OUT/log.txt
  for s in "37 45 70 4" "64 64 64 6"; do
    set -- $s
    $b $1 $2 $3 $4 $W/in-$1x$2x$3.raw $W/ref-$1x$2x$3.raw 2>&1 | tee -a $OUT/log.txt
  done
  for zs in 32 64; do
    $b 512 512 512 $zs $W/in-512x512x512.raw $W/ref-512x512x512.raw 40 2>&1 | tee -a $OUT/log.txt
  done
done
for v in NSTAGE=2,SY=8,MINB=3 XWARP=1,NSTAGE=3,SY=8,MINB=3; do
  echo "== ncu $v" >> $OUT/ncu.txt
  timeout 120 $NCU --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section Occupancy --section LaunchStats -k onepass_rz -c 1 \
    $W/rz-$(echo $v | tr ',=' '__') 512 512 512 64 $W/in-512x512x512.raw $W/ref-512x512x512.raw >> $OUT/ncu.txt 2>&1
  echo "ncu rc=$?" >> $OUT/ncu.txt
done
grep -E 'Duration|Issue Slots Busy|Warp Cycles Per Issued|Achieved Occupancy|Memory Throughput|DRAM Throughput|Stall|No Eligible' $OUT/ncu.txt | head -40

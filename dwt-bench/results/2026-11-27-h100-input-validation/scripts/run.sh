#!/bin/bash
# GPU tests of HEAD and the dwt CLI on CUDA: round trips and the new refusals.
set -u
REPO=$PWD
D=.device/s27 bash dwt-bench/scripts/gpu-tests.sh
cd $OUT && mkdir -p cli && cd cli
B=$REPO/.device/s27
$B/dwt sample s.png --width 1920 --height 1080
for w in LeGall53 Fidelity DeslauriersDubuc137 HaarWithShift Cdf97; do
  $B/dwt -q transform s.png c_$w.npy -w $w -l 4 --backend cuda && $B/dwt -q transform c_$w.npy back_$w.png --inverse --backend cuda && $B/dwt -q transform s.png cpu_$w.npy -w $w -l 4 --backend cpu
  if [ $w = Cdf97 ]; then echo "$w: cuda/cpu coeffs differ? $(cmp -s c_$w.npy cpu_$w.npy && echo no || echo yes-float)"; else cmp c_$w.npy cpu_$w.npy && echo "$w: cuda coeffs == cpu"; fi
  cmp s.png back_$w.png && echo "$w: cuda round trip bit-exact"
done
$B/dwt transform s.png h.npy -w $B/huge.lift -l 1 --backend cuda; echo "huge rc=$?"
rm -f *.npy *.png *.json

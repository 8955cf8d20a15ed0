#!/bin/bash
# Makes the kernel files run.sh builds (run from the repository root, NVRTC not needed): each
# emitted tile kernel, its inner-only copy, and the harness's macros appended to both.
set -e
cd "$(dirname "$0")"
for w in DeslauriersDubuc97 DeslauriersDubuc137 Cdf97 Daubechies97Integer Fidelity LeGall53; do
  for inv in "" --inverse; do
    t=i32; [ $w = Cdf97 ] && t=f32
    n=$w${inv:+-inv}
    (cd ../../../.. && cargo run -q -p dwt-cli -- emit -w $w --target cuda --dtype $t $inv) > $n.cu
    python3 strip.py $n.cu $n-inner.cu
  done
done
for f in *.cu; do
  [ $f = harness.cu ] && continue
  k=$(grep -o '^\w*_tile(' $f | head -1 | tr -d '(')
  fwd=1; case $f in *-inv*) fwd=0;; esac
  e=int; case $f in Cdf97*) e=float;; esac
  printf '#define KERNEL %s\n#define ELEM %s\n#define FWD %s\n#define TILEX 32\n#define TILEY 16\n' $k $e $fwd >> $f
done

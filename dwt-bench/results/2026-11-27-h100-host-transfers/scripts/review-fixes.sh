#!/bin/bash
# The GPU tests and a `dwt transform --backend cuda` check after the review's fixes (0e7b6db,
# f710ed9, ee3713c), on the GPU machine, carrying .device/s51 (s51.tar.xz: the test binaries of
# `cargo test -p dwt-cuda --no-run` and `dwt` from `cargo build --release -p dwt-cli --features cuda`).
set -u
(cd .device/s51 && tar xJf s51.tar.xz)
D=.device/s51 bash dwt-bench/scripts/gpu-tests.sh host_memory dwt_cuda cuda conformance threads thread_context driver
W=$(mktemp -d)
python3 -c "import numpy as np; np.save('$W/in.npy', (np.arange(1080*1920).reshape(1080,1920)*7919 % 256).astype(np.uint8))"
for w in LeGall53 DeslauriersDubuc137 Fidelity HaarWithShift; do
  ./.device/s51/dwt -q transform $W/in.npy $W/cpu-$w.npy -w $w -l 4 --backend cpu
  DWT_CACHE_DIR=/proc/self/nowhere ./.device/s51/dwt -q transform $W/in.npy $W/gpu-$w.npy -w $w -l 4 --backend cuda 2> $W/err-$w.txt
  echo "$w: cuda = cpu: $(cmp -s $W/cpu-$w.npy $W/gpu-$w.npy && echo yes || echo NO); warnings: $(grep -c 'dwt: warning: the disk cache could not write' $W/err-$w.txt)"
  ./.device/s51/dwt -q transform $W/gpu-$w.npy $W/back-$w.npy --inverse --backend cuda
  echo "$w: inverse = input: $(cmp -s $W/in.npy $W/back-$w.npy && echo yes || echo NO)"
done
head -c 400 $W/err-LeGall53.txt; echo

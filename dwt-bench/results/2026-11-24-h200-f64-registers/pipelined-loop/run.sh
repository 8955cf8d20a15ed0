#!/bin/bash
# Build every variant (parallel), then run each at 8192^2: the emitted kernel (base) against the
# tile-looping variant (pipe) at three grid sizes, outputs compared bit for bit.
cd "$(dirname "$0")"
mkdir -p bin
ls *_[acls][0-9].cu | xargs -P 16 -I{} sh -c 'nvcc -O3 -arch=sm_90 -w -o bin/$(basename {} .cu) {} 2> bin/$(basename {} .cu).log || echo "build failed {}"'
for f in $(ls *_[acls][0-9].cu | sed 's/.cu$//'); do echo "== $f"; ./bin/$f 8192; done

#!/bin/bash
# Call 2 (carrying .device/s61: `host_frames` built with TURNS = 3 and with TURNS = 2 in
# backends/dwt-cuda/src/frames.rs, the `frames` test binary with 3, and scripts/overlap.py).
cd .device/s61 && tar xJf pack.tar.xz && cd bin
./frames --include-ignored 2>&1 | tail -8
for i in 1 2; do
  echo "== 3 turns"; ./host_frames_3 | tail -4
  echo "== 2 turns"; ./host_frames_2 | tail -4
done 2>&1 | tee $OUT/ab.md
python3 ../overlap.py | tee $OUT/copies.txt

#!/bin/bash
# Builds each x_*.cu (an emitted module, its tile kernel without the register lifting, the
# harness) with nvcc and runs it: the tile kernel with and without lifting at 8192^2, one level.
cd "$(dirname "$0")"; mkdir -p bin
ls x_*.cu | xargs -P 16 -I{} sh -c 'nvcc -O3 -arch=sm_90 -w -o bin/$(basename {} .cu) {} 2> bin/$(basename {} .cu).log || { echo "build failed {}"; head bin/$(basename {} .cu).log; }'

for f in $(ls x_*.cu | sed 's/.cu$//'); do ./bin/$f; ./bin/$f; done

cd "$(dirname "$0")"; mkdir -p /tmp/bin
ls x_*.cu | xargs -P 8 -I{} sh -c 'nvcc -O3 -arch=sm_90 -w -Xptxas -v -o /tmp/bin/$(basename {} .cu) {} 2> /tmp/bin/$(basename {} .cu).log || { echo "build failed {}"; head -30 /tmp/bin/$(basename {} .cu).log; }'
grep -h -A2 "_tile_ds\|_tile_dsr\|_tile'" /tmp/bin/*.log | grep -i "spill" | grep -v "0 bytes spill" | head
for f in $(ls x_*.cu | sed 's/.cu$//'); do /tmp/bin/$f; /tmp/bin/$f; done

cd "$(dirname "$0")"; mkdir -p /tmp/bo
ls x_*.cu | xargs -P 8 -I{} sh -c 'nvcc -O3 -arch=sm_90 -w -o /tmp/bo/$(basename {} .cu) {} || echo "build failed {}"'
for f in $(ls x_*.cu | sed 's/.cu$//'); do /tmp/bo/$f; /tmp/bo/$f; done

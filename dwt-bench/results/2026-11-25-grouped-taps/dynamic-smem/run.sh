set -e
cd .device/dyn
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for d in fwd inv; do nvcc -O3 -arch=sm_90 -o $d $d.cu -Xptxas -v 2> $d.ptxas || { tail -20 $d.ptxas; exit 1; }; done
for d in fwd inv; do for f in $(cuobjdump -sass $d | grep -o 'Function : [a-z0-9_]*tile[a-z0-9_]*' | awk '{print $3}'); do echo "$f $(cuobjdump -sass -fun $f $d | grep -cE '^\s+/\*[0-9a-f]{4}\*/') sass; IMAD $(cuobjdump -sass -fun $f $d | grep -c IMAD) IADD3 $(cuobjdump -sass -fun $f $d | grep -c IADD3) LEA $(cuobjdump -sass -fun $f $d | grep -c ' LEA')"; done; done
for d in fwd inv; do ./$d 8192; ./$d 8192; ./$d 4096; done

#!/bin/bash
set -u
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/device.txt
(cd bin; export DWT_CACHE_DIR=$(mktemp -d)
 ./cuda-scalar-mutant --include-ignored asynchronous_copies > $OUT/cuda-scalar-mutant.txt 2>&1; echo "rc=$?" >> $OUT/cuda-scalar-mutant.txt
 for t in dwt_cuda cuda conformance; do ./$t --include-ignored > $OUT/$t.txt 2>&1; echo "rc=$?" >> $OUT/$t.txt; done)
grep -h "test result\|^rc=" $OUT/*.txt
mkdir -p /tmp/r
W=Daubechies97Integer,DeslauriersDubuc97,DeslauriersDubuc137,Fidelity,LeGall53,Cdf97
for i in 1 2; do for b in old new; do
  ./dwt-bench-$b --wavelets $W --sizes 2560x2560,4096,8192 --no-3d --reps 30 --default-plan-only --out /tmp/r/$b-$i.md 2>/dev/null
done; done
cd ..; python3 dwt-bench/ab.py /tmp/r old new > $OUT/compare.md
cd /tmp/r && tar czf $OUT/reports.tgz *.md
cat $OUT/compare.md

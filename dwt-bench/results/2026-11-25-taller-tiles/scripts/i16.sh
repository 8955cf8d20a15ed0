#!/bin/bash
# The new rule's shapes against the old ones in i16 (and i32) at 4096^2 and 8192^2.
set -u
B=.device/ab/dwt-bench-new
S=$OUT/s; mkdir -p $S
run() { local n=$1 w=$2 r=$3; shift 3
  $B --i16 --wavelets $w --sizes 4096,8192 --no-3d --reps 30 --default-plan-only "$@" --out $S/$n-$r.md > $S/$n-$r.log 2>&1 || echo "FAIL $n $r" >> $S/fail.txt; }
for r in 1 2; do
  run d97-new Daubechies97Integer $r
  run d97-old Daubechies97Integer $r --tile 32x16 --threads 256 --segment 8
  run dd137-new DeslauriersDubuc137 $r
  run dd137-old DeslauriersDubuc137 $r --tile 32x16 --threads 256 --segment 8
  run fid-new Fidelity $r
  run fid-oldf Fidelity $r --tile 32x32 --threads 256 --segment 16
  run fid-oldi Fidelity $r --tile 64x16 --threads 256 --segment 16
done
cd dwt-bench
for p in d97 dd137; do python3 ab.py $S $p-old $p-new > $S/cmp-$p.md 2>&1; done
python3 ab.py $S fid-oldf fid-oldi fid-new > $S/cmp-fid.md 2>&1
grep -h "i16\|case" $S/cmp-*.md; cat $S/fail.txt 2>/dev/null
cd $S && tar czf $OUT/i16.tgz *.md && rm -rf $S

#!/bin/bash
# Tile shapes per program (scratch sweep). Args: wavelet:TXxTYtTHREADSsSEG,...
set -u
B=.device/s13/dwt-bench-new
S=$OUT/s; mkdir -p $S
run() { # name wavelet round [flags]
  local n=$1 w=$2 r=$3; shift 3
  $B --wavelets $w --sizes ${SIZES:-1080p} --no-3d --reps 50 --default-plan-only "$@" --out $S/$n-$r.md > $S/$n-$r.log 2>&1 || echo "FAIL $n $r" >> $S/fail.txt
}
for r in 1 2; do
  for spec in "$@"; do
    w=${spec%%:*}; cfgs=${spec#*:}
    run $w-def $w $r
    for c in ${cfgs//,/ }; do
      t=${c%%t*}; rest=${c#*t}; th=${rest%s*}; s=${rest#*s}
      run $w-$c $w $r --tile $t --threads $th --segment $s
    done
  done
done
cd dwt-bench
for spec in "$@"; do
  w=${spec%%:*}; cfgs=${spec#*:}
  python3 ab.py $S $w-def $(for c in ${cfgs//,/ }; do echo $w-$c; done) > $S/cmp-$w.md 2>&1
done
cat $S/cmp-*.md $S/fail.txt 2>/dev/null
cd $S && tar czf $OUT/sweep.tgz *.md *.log && rm -rf $S

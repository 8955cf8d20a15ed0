#!/bin/bash
# Tile shapes per program (scratch sweep), each against the program's default, two runs each
# alternating. Args: wavelet:TXxTY[tTHREADS]sSEG,... (threads 256 where not given). Env: B (the
# bench binary), SIZES (4096,8192), REPS (30). As it ran in this folder with the defaults; the
# thirteenth session's `sweep.sh` runs it with others (and first gave it `tTHREADS`).
set -u
B=${B:-.device/ab/dwt-bench-cur}
S=$OUT/s; mkdir -p $S
run() { # name wavelet round [flags]
  local n=$1 w=$2 r=$3; shift 3
  $B --wavelets $w --sizes ${SIZES:-4096,8192} --no-3d --reps ${REPS:-30} --default-plan-only "$@" --out $S/$n-$r.md > $S/$n-$r.log 2>&1 || echo "FAIL $n $r" >> $S/fail.txt
}
for r in 1 2; do
  for spec in "$@"; do
    w=${spec%%:*}; cfgs=${spec#*:}
    run $w-def $w $r
    for c in ${cfgs//,/ }; do # c = TXxTY[tTH]sS
      t=${c%%[ts]*}; s=${c##*s}; th=256
      [[ $c == *t* ]] && { th=${c#*t}; th=${th%s*}; }
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

#!/bin/bash
# Concurrency audit: the new thread tests against the code before the fixes (old) and after (new).
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export DWT_CACHE_DIR=$(mktemp -d)
mkdir -p $OUT/old $OUT/new
for v in old new; do
  for t in thread_context threads ${EXTRA:-}; do
    [ -x .device/a30/$v/$t ] || continue
    start=$(date +%s)
    timeout 200 .device/a30/$v/$t --include-ignored > $OUT/$v/$t.txt 2>&1; rc=$?
    echo "== $v $t rc=$rc ($(( $(date +%s) - start )) s)"; grep "test result\|^test " $OUT/$v/$t.txt
    grep -h -A6 "panicked" $OUT/$v/$t.txt | head -24
  done
done

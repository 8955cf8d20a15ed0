#!/bin/bash
# The GPU tests at this commit (test binaries of `cargo test -p dwt-cuda --no-run` in
# .device/s22/bin), then the level-pair A/B (ab.sh). One call.
set -u
D=.device/s22 OUT=$OUT/t bash dwt-bench/scripts/gpu-tests.sh dwt_cuda cuda conformance
bash dwt-bench/results/2026-11-27-fused-two-levels/scripts/ab.sh
( cd $OUT && tar czf ab.tgz ab && rm -rf ab && tar czf tests.tgz t && rm -rf t )

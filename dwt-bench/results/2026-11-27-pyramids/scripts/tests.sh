#!/bin/bash
# Session 20: the GPU tests at the pyramids' commit (test binaries in .device/s19/bin).
set -u
D=.device/s19 bash dwt-bench/scripts/gpu-tests.sh

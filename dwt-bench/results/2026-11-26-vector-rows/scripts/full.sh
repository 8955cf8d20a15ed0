#!/bin/bash
# Session 17: the full run at 91b3898 (2bbafe7's kernels): the grouped-taps session's script with D=.device/s17.
D=.device/s17 exec bash dwt-bench/results/2026-11-25-grouped-taps/scripts/full.sh

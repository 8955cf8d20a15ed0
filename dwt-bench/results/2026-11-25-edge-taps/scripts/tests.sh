#!/bin/bash
# As ../../2026-11-25-grouped-taps/scripts/tests.sh ran it, with this session's folder.
D=.device/s14 bash dwt-bench/results/2026-11-25-grouped-taps/scripts/tests.sh

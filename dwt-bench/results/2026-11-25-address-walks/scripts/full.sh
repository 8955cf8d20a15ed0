#!/bin/bash
# The commands that ran from .device/s16 (the same, checked by substitution): the grouped-taps session's script with D.
D=${D:-.device/s16} exec bash dwt-bench/results/2026-11-25-grouped-taps/scripts/full.sh

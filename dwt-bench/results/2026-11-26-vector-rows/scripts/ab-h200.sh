#!/bin/bash
# Session 17, second call: A/B of Fidelity (old = d419f4d, new = vector rows in its inverse's tiles), alternating, three runs each.
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
D=.device/s17 RUNS=3 REPS=40 WAVELETS=Fidelity,DeslauriersDubuc137 exec bash dwt-bench/results/2026-11-25-address-walks/scripts/ab.sh

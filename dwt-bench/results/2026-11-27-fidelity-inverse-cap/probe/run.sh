#!/bin/bash
# On the GPU machine, carrying .device/s26 (the emitted module and its surgery variants).
cd .device/s26 && python3 ../../dwt-bench/results/2026-11-27-fidelity-inverse-cap/probe/time.py fid-inv.cu fid-inv-cap.cu fid-inv-inner.cu

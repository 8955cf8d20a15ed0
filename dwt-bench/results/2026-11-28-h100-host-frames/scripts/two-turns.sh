#!/bin/bash
# Call 1 (carrying .device/s60: `cargo test -p dwt-cuda --no-run`'s dwt_cuda, cuda, frames,
# host_memory, threads and conformance binaries and the release `host_frames` example, built
# with two turns, packed as pack.tar.xz).
cd .device/s60 && tar xJf pack.tar.xz && cd ../..
D=.device/s60 bash dwt-bench/scripts/gpu-tests.sh frames host_memory threads dwt_cuda
.device/s60/bin/host_frames | tee $OUT/host_frames.md
D=.device/s60 bash dwt-bench/scripts/gpu-tests.sh cuda conformance

"""Times one level of Fidelity's i32 inverse at 8192x8192 (the plan's one tile launch, Mallat
layout, source to destination) for each module given, CUDA events around each call, median of
60 after warm-up, three source buffers rotated, the modules alternated over three rounds; and
checks each output against the first module's bit for bit.

    python3 time.py A.cu B.cu [...]
"""
import sys

import cupy as cp
import numpy as np

N = 8192
H = N // 2
rng = np.random.default_rng(5)
srcs = [cp.asarray(rng.integers(-30000, 30000, (N, N), dtype=np.int32)) for _ in range(3)]
dst = cp.zeros((N, N), cp.int32)
i32 = np.int32
# rows, cols, nat base/col/row, low base/col/row, high01, high10, high11 bases, high col/row
ints = [N, N, 0, 1, N, 0, 1, N, H, H * N, H * N + H, 1, N]
grid = (-(-H // 48), -(-H // 32))
kernels = {}
for f in sys.argv[1:]:
    mod = cp.RawModule(code=open(f).read(), options=("-std=c++17",))
    kernels[f] = mod.get_function("fidelity_inverse_i32_tile")


def call(k, i):
    s = srcs[i % 3]
    k(grid, (256,), (dst, s, s) + tuple(i32(v) for v in ints))


def median_us(k):
    for i in range(6):
        call(k, i)
    times = []
    for i in range(60):
        a, b = cp.cuda.Event(), cp.cuda.Event()
        a.record()
        call(k, i)
        b.record()
        b.synchronize()
        times.append(cp.cuda.get_elapsed_time(a, b) * 1000)
    return float(np.median(times))


outs = {}
for f, k in kernels.items():
    dst.fill(-1)  # nothing left from the module before
    call(k, 0)
    cp.cuda.runtime.deviceSynchronize()
    outs[f] = cp.asnumpy(dst).copy()
best = {f: [] for f in kernels}
for _ in range(3):
    for f, k in kernels.items():
        best[f].append(median_us(k))
# copy roofline for the same bytes, the same way
a = cp.empty(N * N, cp.int32)
b = cp.empty(N * N, cp.int32)
ct = []
for i in range(40):
    e0, e1 = cp.cuda.Event(), cp.cuda.Event()
    e0.record()
    cp.copyto(b, a)
    e1.record()
    e1.synchronize()
    ct.append(cp.cuda.get_elapsed_time(e0, e1) * 1000)
copy = float(np.median(ct[5:]))
print(f"device: {cp.cuda.runtime.getDeviceProperties(0)['name'].decode()}; copy of the image {copy:.1f} us")
base = sys.argv[1]
for f in kernels:
    t = min(best[f])
    same = np.array_equal(outs[f], outs[base])
    print(f"| {f} | {' / '.join(f'{x:.1f}' for x in best[f])} us | {t / min(best[base]):.3f} | {copy / t:.1%} of copy | equal to {base}: {same} |")

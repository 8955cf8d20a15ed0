"""Times the prototype of levels 1 and 2 in one launch (fused2.cu) against the emitted tile
kernel run level by level, CDF 5/3 f32 forward, in one process on one GPU.

    python3 run.py [SIZES...]     (default 4096 8192)

The emitted kernel is the CUDA snapshot's module (`snapshots__cuda_cdf53_forward_f32_mallat.snap`,
tiles of 32x16 polyphase indices, 256 work-items), launched here on separate band buffers.
Times are per call, from CUDA graphs of 20 calls replayed 25 times (median). Checks first: the prototype's level-1 highs and level-2 bands equal the emitted kernels' away
from the image's edges (the prototype clamps its reads there), every output written (the
buffers are poisoned with NaN first), fresh random inputs per size.
"""

import os
import sys

import cupy as cp
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "../../../.."))
SNAP = os.path.join(
    ROOT, "backends/dwt-emit-c/tests/snapshots/snapshots__cuda_cdf53_forward_f32_mallat.snap"
)
BATCH = 20
ROUNDS = 25
BUFFERS = 4


def snapshot_module():
    text = open(SNAP).read()
    body = text.split("---\n", 2)[2]
    return cp.RawModule(code=body, options=("-std=c++17",), name_expressions=None)


def fused_module(qx, qy, seg, threads, mallat=False):
    code = open(os.path.join(HERE, "fused2.cu")).read()
    opts = (f"-DQX={qx}", f"-DQY={qy}", f"-DSEG={seg}", f"-DTHREADS={threads}")
    opts += ("-DMALLAT",) if mallat else ()
    return cp.RawModule(code=code, options=opts)


class Tile:
    """The emitted tile kernel on one level: src (n x n) -> low (n/2)^2 and three highs."""

    def __init__(self, mod):
        self.k = mod.get_function("cdf53_forward_f32_tile")

    def __call__(self, src, n, low, high):
        h = n // 2
        grid = ((h + 31) // 32, (h + 15) // 16)
        i32 = np.int32
        self.k(
            grid,
            (256,),
            (src, low, high, i32(n), i32(n), i32(0), i32(1), i32(n), i32(0), i32(1), i32(h),
             i32(0), i32(h * h), i32(2 * h * h), i32(1), i32(h)),
        )


class Fused:
    def __init__(self, mod, qx, qy, seg, threads):
        self.k = mod.get_function("fused2")
        self.qx, self.qy, self.threads = qx, qy, threads
        cx, cy = 2 * qx + 4, 2 * qy + 4
        kx, wy = cx + 2, 2 * cy + 4
        self.shared = wy * (2 * kx + 1) * 4
        self.k.max_dynamic_shared_size_bytes = self.shared

    def __call__(self, src, n, h1, ll2, h2):
        grid = (n // 4 // self.qx, n // 4 // self.qy)
        i32 = np.int32
        self.k(grid, (self.threads,), (src, i32(n), h1, i32(n // 2), ll2, h2, i32(n // 4)),
               shared_mem=self.shared)


def median_time(fn, batch=BATCH, rounds=ROUNDS):
    """Microseconds per call of `fn(i)`: `batch` calls (inputs rotated by i) captured as one CUDA
    graph, the graph replayed `rounds` times between events after two warm-up replays; the
    median replay over `batch`. Graphs keep Python's launch overhead out of the times."""
    stream = cp.cuda.Stream(non_blocking=True)
    with stream:
        for i in range(3):
            fn(i)
        stream.synchronize()
        stream.begin_capture()
        for i in range(batch):
            fn(i)
        graph = stream.end_capture()
        start, stop = cp.cuda.Event(), cp.cuda.Event()
        graph.launch(stream)
        graph.launch(stream)
        times = []
        for _ in range(rounds):
            start.record(stream)
            graph.launch(stream)
            stop.record(stream)
            stop.synchronize()
            times.append(cp.cuda.get_elapsed_time(start, stop) * 1000.0 / batch)
    times.sort()
    return times[len(times) // 2]


def main():
    sizes = [int(a) for a in sys.argv[1:]] or [4096, 8192]
    dev = cp.cuda.Device()
    props = cp.cuda.runtime.getDeviceProperties(dev.id)
    print(f"# device: {props['name'].decode()}, cupy {cp.__version__}")
    tile = Tile(snapshot_module())
    variants = [(16, 16, 4, 256), (32, 16, 4, 256), (32, 16, 4, 512), (64, 16, 4, 512), (32, 32, 4, 512),
                (64, 16, 4, 1024), (16, 16, 4, 128)]
    fused = {}
    for v in variants:
        try:
            fused[v] = Fused(fused_module(*v), *v)
        except Exception as e:  # a variant that does not build is reported, not fatal
            print(f"variant {v} failed to build: {e}")
    rows = []
    rng = np.random.default_rng(20261127)
    for n in sizes:
        h, q, e = n // 2, n // 4, n // 8
        srcs = [cp.asarray(rng.standard_normal((n, n), dtype=np.float32)) for _ in range(BUFFERS)]
        low1 = cp.full((h, h), np.nan, cp.float32)
        high1 = cp.full((3, h, h), np.nan, cp.float32)
        low2 = cp.full((q, q), np.nan, cp.float32)
        high2 = cp.full((3, q, q), np.nan, cp.float32)
        low3 = cp.full((e, e), np.nan, cp.float32)
        high3 = cp.full((3, e, e), np.nan, cp.float32)
        f_h1 = cp.full((3, h, h), np.nan, cp.float32)
        f_ll2 = cp.full((q, q), np.nan, cp.float32)
        f_h2 = cp.full((3, q, q), np.nan, cp.float32)

        # Correctness of every variant against the emitted kernels, away from the edges.
        tile(srcs[0], n, low1, high1)
        tile(low1, h, low2, high2)
        cp.cuda.runtime.deviceSynchronize()
        for v, f in fused.items():
            f_h1.fill(np.nan), f_ll2.fill(np.nan), f_h2.fill(np.nan)
            f(srcs[0], n, f_h1, f_ll2, f_h2)
            cp.cuda.runtime.deviceSynchronize()
            m1, m2 = 2 * v[0] + 2 * v[1], v[0] + v[1]
            checks = [
                ("h1", f_h1[:, m1:-m1, m1:-m1], high1[:, m1:-m1, m1:-m1]),
                ("ll2", f_ll2[m2:-m2, m2:-m2], low2[m2:-m2, m2:-m2]),
                ("h2", f_h2[:, m2:-m2, m2:-m2], high2[:, m2:-m2, m2:-m2]),
            ]
            for name, got, want in checks:
                got, want = cp.asnumpy(got).astype(np.float64), cp.asnumpy(want).astype(np.float64)
                rel = np.linalg.norm(got - want) / np.linalg.norm(want)
                bad = np.isnan(got).sum()
                print(f"check n={n} {v} {name}: rel {rel:.2e}, unwritten {bad}")
                if not (rel < 1e-6) or bad:
                    raise SystemExit(f"variant {v} wrong at {name}")
            for name, arr in (("h1", f_h1), ("ll2", f_ll2), ("h2", f_h2)):
                if bool(cp.isnan(arr).any()):
                    raise SystemExit(f"variant {v}: {name} not written everywhere")

        copy_dst = cp.empty_like(srcs[0])
        t_copy = median_time(lambda i: copy_dst.__setitem__(Ellipsis, srcs[i % BUFFERS]))
        t1 = median_time(lambda i: tile(srcs[i % BUFFERS], n, low1, high1))
        t2 = median_time(lambda i: tile(low1, h, low2, high2))
        t3 = median_time(lambda i: tile(low2, q, low3, high3))

        def plan(i):
            tile(srcs[i % BUFFERS], n, low1, high1)
            tile(low1, h, low2, high2)
            tile(low2, q, low3, high3)

        t_plan = median_time(plan)
        rows.append((n, "copy of the image (cupy)", t_copy))
        rows.append((n, "emitted tile, level 1", t1))
        rows.append((n, "emitted tile, level 2", t2))
        rows.append((n, "emitted tile, level 3", t3))
        rows.append((n, "emitted, three levels in a row", t_plan))
        for v, f in fused.items():
            tf = median_time(lambda i, f=f: f(srcs[i % BUFFERS], n, f_h1, f_ll2, f_h2))

            def fused_plan(i, f=f):
                f(srcs[i % BUFFERS], n, f_h1, f_ll2, f_h2)
                tile(f_ll2, q, low3, high3)

            tfp = median_time(fused_plan)
            label = f"QX={v[0]} QY={v[1]} SEG={v[2]} threads={v[3]} shared={f.shared}B"
            rows.append((n, f"fused levels 1+2, {label}", tf))
            rows.append((n, f"fused levels 1+2 then emitted level 3, {label}", tfp))
        del srcs
        cp.get_default_memory_pool().free_all_blocks()
    print()
    print("| size | what | median us |")
    print("|---|---|---|")
    for n, what, t in rows:
        print(f"| {n} | {what} | {t:.1f} |")


if __name__ == "__main__":
    main()

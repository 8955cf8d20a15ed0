"""Times the emitted level-pair kernel (module sources from `dwt emit -w Cdf53 --target cuda`,
variants named on the command line) against the prototype (fused2.cu, QX=QY=16, 256
work-items) and the emitted tile kernel level by level, CDF 5/3 f32, in CUDA graphs of 20
calls (see run.py). The level-pair kernel writes level 0's and 1's highs into an N x N Mallat
buffer and level 1's low band compact; checked against the prototype away from the edges.

    python3 emitted.py emitted-a.cu [emitted-b-capped.cu ...]
"""
import sys
import cupy as cp
import numpy as np
import run

def main():
    # FILE or FILE:THREADS (the level-pair kernel's group size; default 256)
    specs = [a.split(":") for a in sys.argv[1:]]
    files = [sp[0] for sp in specs]
    threads = {sp[0]: int(sp[1]) if len(sp) > 1 else 256 for sp in specs}
    tile = run.Tile(run.snapshot_module())
    proto = run.Fused(run.fused_module(16, 16, 4, 256), 16, 16, 4, 256)
    proto_mallat = run.Fused(run.fused_module(16, 16, 4, 256, mallat=True), 16, 16, 4, 256)
    mods = {f: cp.RawModule(code=open(f).read(), options=("-std=c++17",)).get_function("cdf53_forward_f32_level_pair") for f in files}
    rng = np.random.default_rng(7)
    rows = []
    for n in (4096, 8192):
        h, q, e = n // 2, n // 4, n // 8
        srcs = [cp.asarray(rng.standard_normal((n, n), dtype=np.float32)) for _ in range(run.BUFFERS)]
        data = cp.full((n, n), np.nan, cp.float32)
        ll2 = cp.full((q, q), np.nan, cp.float32)
        p_h1 = cp.full((3, h, h), np.nan, cp.float32)
        p_ll2 = cp.full((q, q), np.nan, cp.float32)
        p_h2 = cp.full((3, q, q), np.nan, cp.float32)
        low1 = cp.empty((h, h), cp.float32); high1 = cp.empty((3, h, h), cp.float32)
        low2 = cp.empty((q, q), cp.float32); high2 = cp.empty((3, q, q), cp.float32)
        low3 = cp.empty((e, e), cp.float32); high3 = cp.empty((3, e, e), cp.float32)
        i32 = np.int32
        def emitted(k, src, t=256):
            k((n // 64, n // 64), (t,), (src, ll2, data, i32(n), i32(n), i32(0), i32(n), i32(0), i32(q), i32(n),
               i32(h), i32(h * n), i32(h * n + h), i32(q), i32(q * n), i32(q * n + q)))
        proto(srcs[0], n, p_h1, p_ll2, p_h2)
        for f, k in mods.items():
            data.fill(np.nan); ll2.fill(np.nan)
            emitted(k, srcs[0], threads[f])
            cp.cuda.runtime.deviceSynchronize()
            m1, m2 = 64, 32
            pairs = [(data[:h, h:], p_h1[0]), (data[h:, :h], p_h1[1]), (data[h:, h:], p_h1[2]),
                     (ll2, p_ll2), (data[:q, q:h], p_h2[0]), (data[q:h, :q], p_h2[1]), (data[q:h, q:h], p_h2[2])]
            worst = 0.0
            for g, w in pairs:
                m = m1 if g.shape[0] == h else m2
                g, w = cp.asnumpy(g[m:-m, m:-m]).astype(np.float64), cp.asnumpy(w[m:-m, m:-m]).astype(np.float64)
                worst = max(worst, np.linalg.norm(g - w) / np.linalg.norm(w))
            print(f"check n={n} {f}: worst rel {worst:.2e}, unwritten {int(cp.isnan(data).sum())} + {int(cp.isnan(ll2).sum())}")
        t_proto = run.median_time(lambda i: proto(srcs[i % run.BUFFERS], n, p_h1, p_ll2, p_h2))
        t_tiles = run.median_time(lambda i: (tile(srcs[i % run.BUFFERS], n, low1, high1), tile(low1, h, low2, high2)))
        rows.append((n, "prototype levels 1+2", t_proto))
        m_ll2 = cp.empty((q, q), cp.float32)
        t_pm = run.median_time(lambda i: proto_mallat(srcs[i % run.BUFFERS], n, data, m_ll2, data))
        rows.append((n, "prototype levels 1+2, Mallat stores", t_pm))
        rows.append((n, "emitted tile, levels 1 and 2", t_tiles))
        for f, k in mods.items():
            rows.append((n, f"{f} levels 1+2", run.median_time(lambda i, k=k, f=f: emitted(k, srcs[i % run.BUFFERS], threads[f]))))
        del srcs
        cp.get_default_memory_pool().free_all_blocks()
    print("| size | what | median us |\n|---|---|---|")
    for n, what, t in rows:
        print(f"| {n} | {what} | {t:.1f} |")

if __name__ == "__main__":
    main()

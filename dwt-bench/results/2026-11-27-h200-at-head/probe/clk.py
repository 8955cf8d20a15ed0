"""Phase durations (SM cycles) of the inner tiles (with --edge: the edge tiles) of each level of
the 1920x1080 i16 forward, from clock64 stamps (clocks.py): median and max over those groups,
five calls each.

    python3 clk.py PREFIX MODULE_L1.cu MODULE_L23.cu [--edge]
"""
import sys
import cupy as cp
import numpy as np
prefix, m1, m23 = sys.argv[1:4]
edge = sys.argv[4:] == ["--edge"]
flag, kind = (100, "edge") if edge else (0, "inner")
H, W = 1080, 1920
i32 = np.int32
rng = np.random.default_rng(3)
src = cp.asarray(rng.integers(-2000, 2000, (H, W), dtype=np.int16))
LEVELS = [("tile", ("src", "scratch", "data"), [1080, 1920, 0, 1, 1920, 0, 1, 960, 960, 1036800, 1037760, 1, 1920]),
          ("small_tile", ("scratch", "scratch", "data"), [540, 960, 0, 1, 960, 518400, 1, 480, 480, 518400, 518880, 1, 1920]),
          ("small_tile", ("scratch", "data", "data"), [270, 480, 518400, 1, 480, 0, 1, 1920, 240, 259200, 259440, 1, 1920])]
GRIDS = {"fidelity": [(30, 17), (15, 17), (8, 9)], "legall53": [(30, 34), (30, 34), (15, 17)]}
BLOCKS = {"fidelity": [256, 256, 256], "legall53": [256, 128, 128]}
name = prefix.split("_")[0]
mods = {f: cp.RawModule(code=open(f).read(), options=("-std=c++17",)) for f in (m1, m23)}
data = cp.zeros((H, W), cp.int16); scratch = cp.zeros(700000, cp.int16)
bufs = {"src": src, "scratch": scratch, "data": data}
for lv in range(3):
    mod = mods[m1 if lv == 0 else m23]
    k, names, ints = LEVELS[lv]
    dbg = cp.ndarray((65536,), cp.int64, mod.get_global("dbg"))
    runs = []
    for rep in range(6):
        for l2 in range(3):
            mm = mods[m1 if l2 == 0 else m23]
            kk, nn, ii = LEVELS[l2]
            if l2 == lv:
                dbg.fill(0)
            mm.get_function(f"{prefix}_{kk}")(GRIDS[name][l2], (BLOCKS[name][l2],), tuple(bufs[n] for n in nn) + tuple(i32(v) for v in ii))
            if l2 == lv:
                cp.cuda.runtime.deviceSynchronize()
                runs.append(cp.asnumpy(dbg).copy())
    groups = GRIDS[name][lv][0] * GRIDS[name][lv][1]
    allrec = runs[1:]
    print(f"level {lv + 1}: {groups} groups")
    for stride_fin in range(3, 9):
        st = stride_fin + 2
        recs = [d[g * st:(g + 1) * st] for d in allrec for g in range(groups)]
        recs = [r for r in recs if r[0] == flag + stride_fin]
        if len(recs) < 5:
            continue
        a = np.array([r[1:stride_fin + 1] for r in recs], dtype=np.float64)
        phases = np.diff(np.concatenate([np.zeros((len(a), 1)), a], axis=1), axis=1)
        print(f"  {len(recs)} {kind} group records, stamps after each barrier and the end")
        print("  cumulative cycles median:", np.median(a, axis=0).astype(int).tolist(), " max:", a.max(axis=0).astype(int).tolist())
        print("  per phase median:", np.median(phases, axis=0).astype(int).tolist())

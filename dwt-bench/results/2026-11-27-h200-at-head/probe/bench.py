"""Times the 1920x1080 i16 three-level forward (the plan's three launches, graphs of 20 calls)
of each module given, and checks every variant's output equal to the first's bit for bit.

    python3 bench.py PREFIX A.cu B.cu [...]      (PREFIX: the kernels' name prefix)
"""
import sys
import cupy as cp
import numpy as np
sys.path.insert(0, ".")
import importlib.util
spec = importlib.util.spec_from_file_location("run", "dwt-bench/results/2026-11-27-fused-two-levels/prototype/run.py")
run = importlib.util.module_from_spec(spec); spec.loader.exec_module(run)

prefix, files = sys.argv[1], sys.argv[2:]
threads_small = int(prefix.split(":")[1]) if ":" in prefix else 256
prefix = prefix.split(":")[0]
threads_tile = 256
H, W = 1080, 1920
i32 = np.int32
rng = np.random.default_rng(3)
srcs = [cp.asarray(rng.integers(-2000, 2000, (H, W), dtype=np.int16)) for _ in range(4)]
LEVELS = [  # kernel, grid, block, (nat, low, high), ints
    ("tile", (30, None), ("src", "scratch", "data"), [1080, 1920, 0, 1, 1920, 0, 1, 960, 960, 1036800, 1037760, 1, 1920]),
    ("small_tile", None, ("scratch", "scratch", "data"), [540, 960, 0, 1, 960, 518400, 1, 480, 480, 518400, 518880, 1, 1920]),
    ("small_tile", None, ("scratch", "data", "data"), [270, 480, 518400, 1, 480, 0, 1, 1920, 240, 259200, 259440, 1, 1920]),
]
GRIDS = {"fidelity": [(30, 17), (15, 17), (8, 9)], "legall53": [(30, 34), (30, 34), (15, 17)]}
BLOCKS = {"fidelity": [256, 256, 256], "legall53": [256, 128, 128]}
name = prefix.split("_")[0]
results = {}
outs = {}
for f in files:
    mod = cp.RawModule(code=open(f).read(), options=("-std=c++17",))
    ks = {k: mod.get_function(f"{prefix}_{k}") for k in ("tile", "small_tile")}
    data = cp.zeros((H, W), cp.int16); scratch = cp.zeros(700000, cp.int16)
    def call(i, levels=3):
        bufs = {"src": srcs[i % 4], "scratch": scratch, "data": data}
        for lv in range(levels):
            k, _, names, ints = LEVELS[lv]
            ks[k](GRIDS[name][lv], (BLOCKS[name][lv],), tuple(bufs[n] for n in names) + tuple(i32(v) for v in ints))
    call(0); cp.cuda.runtime.deviceSynchronize()
    outs[f] = (cp.asnumpy(data).copy(), cp.asnumpy(scratch[:648000]).copy())
    t3 = [run.median_time(lambda i: call(i)) for _ in range(3)]
    t1 = [run.median_time(lambda i: call(i, 1)) for _ in range(3)]
    results[f] = (min(t3), min(t1))
base = files[0]
for f in files:
    same = all(np.array_equal(a, b) for a, b in zip(outs[f], outs[base]))
    print(f"| {f} | three levels {results[f][0]:.2f} us ({results[f][0]/results[base][0]:.3f}) | level 1 {results[f][1]:.2f} us ({results[f][1]/results[base][1]:.3f}) | equal to {base}: {same} |")

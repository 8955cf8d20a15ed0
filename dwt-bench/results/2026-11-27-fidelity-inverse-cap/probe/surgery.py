"""Variants of a module's fused tile kernel by text surgery, for timing only (the kernel found
by ../../2026-11-25-taller-tiles/surgery/tile_kernel.py, as the earlier probes do):
  cap    `__launch_bounds__(T)` -> `__launch_bounds__(T, GROUPS)` (ptxas must fit GROUPS groups
         a multiprocessor, spilling if it must);
  inner  edge tiles return at once (`if (!(inner_x && inner_y)) return;`, the cut of
         ../../2026-11-25-edge-taps/inner-only/gen_inner.py): wrong output there, the ceiling
         of a kernel that launched its edge tiles apart.

    python3 surgery.py SRC.cu GROUPS OUT_PREFIX     (writes OUT_PREFIX-cap.cu, -inner.cu)
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "2026-11-25-taller-tiles", "surgery"))
from tile_kernel import tile_kernel  # noqa: E402

src, groups, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
text = open(src).read()
body, name, bounds, _, _, _ = tile_kernel(text)
capped = body.replace(f"__launch_bounds__({bounds})", f"__launch_bounds__({bounds}, {groups})", 1)
open(f"{out}-cap.cu", "w").write(text.replace(body, capped, 1))
cut = "    if (inner_x && inner_y) {"
assert body.count(cut) == 1
inner = body.replace(cut, "    if (!(inner_x && inner_y)) return;\n" + cut, 1)
open(f"{out}-inner.cu", "w").write(text.replace(body, inner, 1))

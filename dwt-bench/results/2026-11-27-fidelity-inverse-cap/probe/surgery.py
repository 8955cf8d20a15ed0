"""Variants of a module's fused kernel `KERNEL` by text surgery, for timing only:
  cap    `__launch_bounds__(T)` -> `__launch_bounds__(T, GROUPS)` (ptxas must fit GROUPS groups
         a multiprocessor, spilling if it must);
  inner  the edge tiles' branch dropped (edge tiles do nothing: wrong output there, the
         ceiling of a kernel that launched its edge tiles apart).

    python3 surgery.py SRC.cu KERNEL GROUPS OUT_PREFIX     (writes OUT_PREFIX-cap.cu, -inner.cu)
"""
import re
import sys

src, kernel, groups, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
text = open(src).read()
k = text.index(kernel + "(")
lb = text.rindex("__launch_bounds__(", 0, k)
close = text.index(")", lb)
threads = text[lb + len("__launch_bounds__("):close]
capped = text[:lb] + f"__launch_bounds__({threads}, {groups})" + text[close + 1:]
open(f"{out}-cap.cu", "w").write(capped)
inner = text.index("    if (inner_x && inner_y) {\n", k)
els = text.index("\n    }\n    else {\n", inner)
end = text.index("\n    }\n}\n", els + 1)
open(f"{out}-inner.cu", "w").write(text[:els] + text[end:])

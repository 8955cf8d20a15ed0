"""Levels 2 and 3 of each case: the three-level median less the one-level median of the same
report, the middle of a configuration's runs; and the one-level time, the fastest of them.

    python3 levels.py FOLDER def a b ...   (reports FOLDER/<config>-<run>.md)
"""
import glob
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", ".."))
from report import cases  # noqa: E402


def split(path):
    c = {k: v["src->dst"].ms * 1000 for k, v in cases(path).items() if "src->dst" in v}
    out = {}
    for k, t1 in c.items():
        if " L1 " in k and k.replace(" L1 ", " L3 ") in c:
            out[k.replace(" L1", "")] = (t1, c[k.replace(" L1 ", " L3 ")] - t1)
    return out


folder, configs = sys.argv[1], sys.argv[2:]
runs = {k: [split(f) for f in sorted(glob.glob(f"{folder}/{k}-*.md"))] for k in configs}
print("| case | " + " | ".join(f"{k}: L1 / L2+3 (us)" for k in configs) + " |")
print("|---" * (len(configs) + 1) + "|")
for case in runs[configs[0]][0]:
    cells = []
    for k in configs:
        rs = [r[case] for r in runs[k] if case in r]
        cells.append(f"{min(r[0] for r in rs):.1f} / {statistics.median(r[1] for r in rs):.1f}" if rs else "-")
    print(f"| {case} | " + " | ".join(cells) + " |")

#!/usr/bin/env python3
"""Summarises the planner's own timings in tuned.md (a throwaway bench build whose candidates
included nine more tile shapes, named `X ...`): per group (size, levels, direction), the best
of all candidates over the best of the committed ones, and each candidate's median time
relative to `as configured`; then which candidate won how often.

    python3 summary.py tuned.md
"""
import collections
import re
import statistics
import sys

NAMES = ["as configured", "plain access", "lean access, whole row load", "lean access, row load by 4",
         "tiles 64x16 of 512", "tiles 32x8 of 128", "tiles 16x8 of 128", "X tiles 8x8 of 64",
         "X tiles 16x8 of 64", "X tiles 16x16 of 256", "X tiles 16x16 of 128", "X tiles 32x4 of 128",
         "X tiles 64x8 of 256", "X tiles 32x8 of 256", "X tiles 32x16 of 128", "X tiles 8x16 of 64",
         "two passes"]
wins = collections.Counter()
rel = collections.defaultdict(list)
gain = collections.defaultdict(list)
for line in open(sys.argv[1]):
    if not line.startswith("- ") or ": tuned: " not in line:
        continue
    case, rest = line[2:].split(": tuned: ", 1)
    t = {}
    for n in NAMES:
        m = re.search(re.escape(n) + r" ([\d.]+) us", rest)
        if m:
            t[n] = float(m.group(1))
    size = "1080p" if "1920x1080" in case else ("4096" if "4096x" in case else "8192")
    g = (size, "L1" if " L1 " in case else "L3", "fwd" if " fwd" in case else "inv")
    wins[g + (min(t, key=t.get),)] += 1
    for k, v in t.items():
        rel[g + (k,)].append(v / t["as configured"])
    gain[g].append(min(t.values()) / min(v for k, v in t.items() if not k.startswith("X")))
for g in sorted(gain):
    best = sorted((statistics.median(rel[g + (n,)]), n) for n in NAMES if g + (n,) in rel)
    print(" ".join(g), "| best of all / best committed: median %.3f, min %.3f |" % (
        statistics.median(gain[g]), min(gain[g])), ", ".join(f"{n} {m:.2f}" for m, n in best[:5]))
print()
for k, v in sorted(wins.items()):
    print(" ".join(k[:3]), "|", k[3], "|", v)

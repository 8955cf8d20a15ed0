"""Old against new `cold_prepare` runs (run/cold-{old,new}-N.md): per program and direction, the
first plan (1920x1080, three levels) and the whole sequence, the fastest of the runs each."""
import glob
import re
import sys

folder = sys.argv[1] if len(sys.argv) > 1 else "run"
rows = {}
for path in sorted(glob.glob(f"{folder}/cold-*-*.md")):
    build = re.search(r"cold-(old|new)-", path).group(1)
    for line in open(path):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 9 or not cells[0].startswith(("old", "new")):
            continue
        ms = [float(c.split()[0]) for c in cells[3:9]]
        key = (cells[1], cells[2])
        entry = rows.setdefault(key, {"old": [], "new": []})
        entry[build].append((ms[0], ms[5]))
print("| program | dir | first plan old | new | new / old | sequence old | new | new / old |")
print("|---|---|---|---|---|---|---|---|")
tot = {"old": 0.0, "new": 0.0}
for (prog, d), e in rows.items():
    f = {b: min(x[0] for x in e[b]) for b in e}
    s = {b: min(x[1] for x in e[b]) for b in e}
    for b in tot:
        tot[b] += s[b]
    print(f"| {prog} | {d} | {f['old']:.0f} ms | {f['new']:.0f} ms | {f['new'] / f['old']:.2f} "
          f"| {s['old']:.0f} ms | {s['new']:.0f} ms | {s['new'] / s['old']:.2f} |")
print(f"\nEvery sequence (fastest run of each): old {tot['old']:.0f} ms, new {tot['new']:.0f} ms, "
      f"new / old {tot['new'] / tot['old']:.2f}")

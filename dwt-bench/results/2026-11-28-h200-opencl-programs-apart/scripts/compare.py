"""Per program and direction, the cold_prepare runs of cold.md (sections `== old-1` ...): the first
plan (1920x1080, three levels, two programs) and the sequence's total in each run, then every
run's total. `python3 compare.py ../run/cold.md`"""
import sys

runs, cur = {}, None
for line in open(sys.argv[1]):
    if line.startswith("== "):
        cur = line[3:].strip()
        runs[cur] = {}
    elif line.startswith("| old") or line.startswith("| new"):
        c = [x.strip() for x in line.strip().strip("|").split("|")]
        runs[cur][(c[1], c[2])] = (c[3], c[-1])
names = sorted(runs)
print("| program | dir | " + " | ".join(f"{n}: 1080p L3 / total" for n in names) + " |")
print("|---|---|" + "---|" * len(names))
for key in runs[names[0]]:
    print(f"| {key[0]} | {key[1]} | " + " | ".join(" / ".join(runs[n][key]) for n in names) + " |")
for n in names:
    total = sum(float(v[1].split()[0]) for v in runs[n].values())
    print(f"\n{n}: {total / 1e3:.1f} s", end="")
print()

"""The two-pass plans and the vertical pass (Table IV) of the bench files here, side by side:
python3 compare.py > compare.md (run in this folder)."""
files = [("whole columns (ab-2)", "ab-2/whole-2.md"), ("rule (ab-2)", "ab-2/rule-3.md"),
         ("whole columns (ab-1)", "ab-1/whole-1.md"), ("first rule (ab-1)", "ab-1/rule-1.md"),
         ("128 rows", "sweep/seg128.md"), ("512 rows", "sweep/seg512.md"),
         ("2048 rows", "sweep/seg2048.md")]


def cells(path):
    for line in open(path):
        yield [x.strip() for x in line.split("|")]


def vertical(path):
    return {c[1]: c[4] for c in cells(path) if len(c) > 7 and "L1 fwd" in c[1] and c[3].endswith("%)")}


def two_pass(path):
    return {c[1]: float(c[5].split()[0]) for c in cells(path) if len(c) > 6 and c[3] == "two-pass"}


V = [vertical(f) for _, f in files]
T = [two_pass(f) for _, f in files]
print("# Column segments: vertical pass and two-pass plans\n")
print("Vertical pass (band copy + sliding window), one level forward (Table IV):\n")
print("| case | " + " | ".join(n for n, _ in files) + " |")
print("|---" * (len(files) + 1) + "|")
for k in V[1]:
    print(f"| {k} | " + " | ".join(v.get(k, "-") for v in V) + " |")
print("\nTwo-pass plans (src->dst median, ms) and rule / whole columns (ab-2):\n")
print("| case | " + " | ".join(n for n, _ in files) + " | rule / whole |")
print("|---" * (len(files) + 2) + "|")
for k in T[1]:
    row = " | ".join(f"{t[k]:.4f}" if k in t else "-" for t in T)
    print(f"| {k} | {row} | {T[1][k] / T[0][k]:.2f} |")

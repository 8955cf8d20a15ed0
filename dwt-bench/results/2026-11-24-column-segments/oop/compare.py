"""The two-pass plans of b87b5bb (colseg-*) against the rows pass into the scratch (oop-*), the
faster of two runs each: python3 compare.py > compare.md (run in this folder)."""


def rows(path, variant):
    out = {}
    for line in open(path):
        c = [x.strip() for x in line.split("|")]
        if len(c) > 6 and c[3] == variant:
            out[c[1]] = float(c[5].split()[0])
    return out


for variant in ["two-pass", "src->dst"]:
    old = [rows(f"colseg-{i}.md", variant) for i in (1, 2)]
    new = [rows(f"oop-{i}.md", variant) for i in (1, 2)]
    print(f"\n## {variant}\n\n| case | b87b5bb | rows into the scratch | ratio |\n|---|---|---|---|")
    ratios = []
    for k in old[0]:
        a, b = min(o[k] for o in old), min(n[k] for n in new)
        ratios.append(b / a)
        print(f"| {k} | {a:.4f} ms | {b:.4f} ms | {b / a:.2f} |")
    print(f"\nratios {min(ratios):.2f}-{max(ratios):.2f}")

import sys,re,glob
def load(f):
    d={}
    for line in open(f):
        c=[x.strip() for x in line.split('|')]
        if len(c)>8 and c[3]=='src->dst':
            d[c[1]]=(float(c[5].split()[0]), c[10] if len(c)>10 else '')
    return d
base=sys.argv[1]; names=sys.argv[2:]
runs={n:[load(f) for f in sorted(glob.glob(f"{base}/{n}-*.md"))] for n in names}
keys=list(runs[names[0]][0].keys())
print("| case | "+" | ".join(names)+" | "+" / ".join(names[1:])+" vs "+names[0]+" |")
for k in keys:
    vals=[[r[k][0] for r in runs[n] if k in r] for n in names]
    m=[min(v) for v in vals]
    print(f"| {k} | "+" | ".join("/".join(f"{x:.3f}" for x in v) for v in vals)+" | "+" ".join(f"{x/m[0]:.3f}" for x in m[1:])+f" | {runs[names[-1]][0][k][1]}")

# The periodic rows of three dwt-bench.md files side by side (run 1, run 2, run 3), with the catalogue's
# program of run 3. Usage: python3 scripts/compare.py lines-kernel/dwt-bench.md wrap-modulo/dwt-bench.md wrap-ends/dwt-bench.md > compare.md
import re,sys
def load(f):
    rows={}
    for line in open(f):
        c=[x.strip() for x in line.split('|')]
        if len(c)>10 and c[3] in ('src->dst','in place','two-pass') and re.search(r'L\d (fwd|inv)$',c[1] or ''):
            rows[(c[1],c[3])]=(float(c[5].split()[0]),c[10],c[4])
    return rows
a=load(sys.argv[1]); b=load(sys.argv[2]); c=load(sys.argv[3])
print("| case | launches | catalogue's program (run 3) | lines kernel (run 1) | window, modulo on every read (run 2) | window, modulo past the ends (run 3) | run 3: periodic / catalogue |")
print("|---|---|---|---|---|---|---|")
for (case,var),v in c.items():
    if case.startswith('Periodic') and var=='src->dst':
        base=c[(case.replace('Periodic',''),'src->dst')]
        x=a[(case,var)]; y=b[(case,var)]
        print(f"| {case} | {v[2]} | {base[0]*1000:.1f} us ({base[1]}) | {x[0]*1000:.1f} us ({x[1]}) | {y[0]*1000:.1f} us ({y[1]}) | {v[0]*1000:.1f} us ({v[1]}) | {v[0]/base[0]:.2f}x |")

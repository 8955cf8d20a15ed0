import re,sys,collections
lines=open(sys.argv[1]).read().splitlines()
lo,hi=int(sys.argv[2],16),int(sys.argv[3],16)
c=collections.Counter(); n=0
for l in lines:
    m=re.match(r'\s*/\*([0-9a-f]{4,})\*/\s+(@!?U?P\w+\s+)?([A-Z0-9_.]+)',l)
    if not m: continue
    a=int(m.group(1),16)
    if lo<=a<hi:
        op=m.group(3).split('.')[0]; c[op]+=1; n+=1
print(n, sorted(c.items(), key=lambda x:-x[1]))

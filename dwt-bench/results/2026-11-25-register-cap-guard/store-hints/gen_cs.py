# Surgery on an emitted module's tile kernel (experiment): every store to global memory as a
# streaming store (`cs`: __stcs, evict-first) or one cached in L2 only (`cg`: __stcg), so that
# the written data does not push out of L2 the halo rows neighbouring tiles read again.
import os, re, sys
src, out, elem = sys.argv[1], sys.argv[2], sys.argv[3]
s = open(src).read()
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '2026-11-25-taller-tiles', 'surgery'))
from tile_kernel import tile_kernel, probe_harness
body, name, bounds, forward, TX, TY = tile_kernel(s)
threads = int(bounds.split(',')[0])
sub = re.compile(r'^(\s*)((?:nat|low|high|\(px \? high : low\))\[.*\]) = (.*);$')
vec = re.compile(r'^(\s*)\*\((\w+)\*\)\(((?:nat|low|high) .*?)\) = (make_\w+\(.*\));$')
def variant(b, fn):
    n = 0; lines = []
    for l in b.split('\n'):
        mm = sub.match(l); mv = vec.match(l)
        if mm:
            l = f'{mm.group(1)}{fn}(&{mm.group(2)}, {mm.group(3)});'; n += 1
        elif mv:
            l = f'{mv.group(1)}{fn}(({mv.group(2)}*)({mv.group(3)}), {mv.group(4)});'; n += 1
        lines.append(l)
    print(name, fn, n, 'stores', file=sys.stderr)
    return '\n'.join(lines)
text = s
for v, fn in {'cs': '__stcs', 'cg': '__stcg'}.items():
    text += '\n' + variant(body, fn).replace(name + '(', name + '_' + v + '(', 1) + '\n'
h = probe_harness(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'direct-store', 'harness_inv.cu')).replace('"ds", "dsr"', '"cs", "cg"').replace('KERNEL_dsr', 'KERNEL_cg').replace('KERNEL_ds', 'KERNEL_cs')
if forward:
    h = h.replace('typedef void (*K)(ELEM*, const ELEM*, const ELEM*,', 'typedef void (*K)(const ELEM*, ELEM*, ELEM*,').replace('k<<<dim3(tx, ty), THREADS>>>(out, in, in,', 'k<<<dim3(tx, ty), THREADS>>>(in, out, out,')
h = h.replace('KERNEL', name).replace('ELEM', elem).replace('TXX', str(TX)).replace('TYY', str(TY)).replace('THREADS', str(threads))
open(out, 'w').write(text + h)

# Probe (scratch): Fidelity's tile kernel at 48x32 (as emitted, static shared memory) against
# taller tiles whose shared arrays are made dynamic. usage: gen.py OUT ELEM BASE.cu VAR.cu...
import os, re, sys
out, elem, base = sys.argv[1:4]
variants = sys.argv[4:]
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '2026-11-25-taller-tiles', 'surgery'))
from tile_kernel import tile_kernel, probe_harness
def kernel(s):
    body, name, bounds, forward, tx, ty = tile_kernel(s)
    return body, name, int(bounds.split(',')[0]), forward, tx, ty
bs = open(base).read()
text = bs
_, name, threads0, forward, tx0, ty0 = kernel(bs)
entries = [(name, tx0, ty0, threads0, 0)]
for k, v in enumerate(variants):
    v, _, lb = v.partition('@')
    body, name_v, threads, _, tx, ty = kernel(open(v).read())
    if lb:
        # Any bounds as emitted (a capped forward's too); `@0`: none but the group size.
        body = re.sub(r'__launch_bounds__\([^)]*\)', f'__launch_bounds__({threads}, {lb})' if lb != '0' else f'__launch_bounds__({threads})', body, count=1)
    total = 0
    for m in re.finditer(r'__shared__ (__align__\(16\) )?(int|float) (\w+)((?:\[\d+\])+);', body):
        size = 4
        for d in re.findall(r'\[(\d+)\]', m.group(4)): size *= int(d)
        total += size
    off = 0; lines = []
    def repl(m):
        global off
        align, ty_, nm, dims = m.group(1), m.group(2), m.group(3), m.group(4)
        ds = [int(d) for d in re.findall(r'\[(\d+)\]', dims)]
        size = 4
        for d in ds: size *= d
        if len(ds) == 2:
            r = f'{ty_} (*{nm})[{ds[1]}] = reinterpret_cast<{ty_} (*)[{ds[1]}]>(dyn_local + {off});'
        else:
            r = f'{ty_}* {nm} = reinterpret_cast<{ty_}*>(dyn_local + {off});'
        off += (size + 15) // 16 * 16
        return r
    if total > 48 * 1024:
        body = re.sub(r'__shared__ (__align__\(16\) )?(int|float) (\w+)((?:\[\d+\])+);', repl, body)
        body = body.replace('{', '{\n    extern __shared__ __align__(16) unsigned char dyn_local[];', 1)
    nv = f'{name_v}_v{k}'
    text += '\n' + body.replace(name_v + '(', nv + '(', 1) + '\n'
    entries.append((nv, tx, ty, threads, off))
sig = 'const ELEM*, ELEM*, ELEM*' if forward else 'ELEM*, const ELEM*, const ELEM*'
call = '(in, out, out,' if forward else '(out, in, in,'
h = probe_harness(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'harness.cu'))
h = h.replace('SIG', sig).replace('CALL', call).replace('ELEM', elem).replace('NV', str(len(entries)))
h = h.replace('ENTRIES', ',\n'.join(f'{{"{n}", {n}, {a}, {b}, {t}, {o}}}' for n, a, b, t, o in entries))
open(out, 'w').write(text + h)

# Probe (scratch): a module's tile kernel over the interior tiles only, with its edge-tile code
# kept (A) and cut out (B: an early return before the inner branch, so the compiler drops the
# edge path and sizes registers for the inner one). usage: gen_inner.py OUT ELEM MODULE.cu [@B]
import os, re, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '2026-11-25-taller-tiles', 'surgery'))
from tile_kernel import tile_kernel, inner_tiles
out, elem, mod = sys.argv[1:4]
s = open(mod).read()
body, name, bounds, forward, tx, ty = tile_kernel(s)
threads = int(bounds.split(',')[0])
a, ix, iy = inner_tiles(body, name)
b = a.replace(name + '_a(', name + '_b(', 1)
cut = '    if (inner_x && inner_y) {'
assert b.count(cut) == 1
b = b.replace(cut, '    if (!(inner_x && inner_y)) return;\n' + cut, 1)
variants = [name + '_a', name + '_b']
extra = ''
for lb in sys.argv[4:]:
    c = b.replace(name + '_b(', name + f'_b{lb[1:]}(', 1).replace(f'__launch_bounds__({threads})', f'__launch_bounds__({threads}, {lb[1:]})', 1)
    assert c.count(f'__launch_bounds__({threads}, {lb[1:]})') == 1
    variants.append(name + f'_b{lb[1:]}'); extra += '\n' + c
text = s + '\n' + a + '\n' + b + '\n' + extra + '\n'
h = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'harness_inner.cu')).read()
sig = 'const ELEM*, ELEM*, ELEM*' if forward else 'ELEM*, const ELEM*, const ELEM*'
call_in = '(in, o, o,' if forward else '(o, in, in,'
h = h.replace('SIG', sig).replace('CALLIN', call_in).replace('ELEM', elem)
h = h.replace('BASE', name).replace('VARIANTS', ', '.join(f'{{"{n}", {n}}}' for n in variants)).replace('NVAR', str(len(variants)))
h = h.replace('TX', str(tx)).replace('TY', str(ty)).replace('THREADS', str(threads))
h = h.replace('IXA', ix.group(1)).replace('IXB', ix.group(2)).replace('IXN', '0' if ix.group(3) == 'nx0' else '1')
h = h.replace('IYA', iy.group(1)).replace('IYB', iy.group(2)).replace('IYN', '0' if iy.group(3) == 'ny0' else '1')
open(out, 'w').write(text + h)

# Surgery on an emitted inverse module's tile kernel (experiment): the inner tiles' pass along x
# stores its results straight to the natural image from registers (vector stores of two pairs),
# instead of writing them back to the tile, a barrier, and a store loop over the tile.
# `ds`: the pass's work-items as emitted; `dsr`: the other order (lines <-> segments).
import os, re, sys
src, out, elem = sys.argv[1], sys.argv[2], sys.argv[3]
s = open(src).read()
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '2026-11-25-taller-tiles', 'surgery'))
from tile_kernel import tile_kernel, probe_harness
body, name, bounds, forward, TX, TY = tile_kernel(s)
assert not forward, 'an inverse module'
threads = int(bounds.split(',')[0])
vec = {'int': ('int4', 'make_int4'), 'float': ('float4', 'make_float4')}[elem]
undo = 'undo_pre_shift' in body

def ds(b, remap):
    a = b.index('if (inner_x && inner_y)')
    rl = b.index('(read and lift)', a)
    wb = b.index('// Along x in registers (write back)', rl)
    cut0 = b.rindex('__syncthreads();', rl, wb)
    cut1 = b.index('\n    }\n    else {', wb)
    seg = b[rl:cut0]
    kept = re.findall(r'kept\[round\]\[(\d+)\] = (\w+);', seg)
    S = len(kept) // 2
    ev = [v for k, v in kept[:S]]; od = [v for k, v in kept[S:]]
    W = (lambda v: f'to_elem(undo_pre_shift({v}))') if undo else (lambda v: f'to_elem({v})')
    st = [f'const int r = l < {TY} ? 2 * (my0 + l) : 2 * (my0 + l - {TY}) + 1;',
          f'{elem}* row = nat + nat_base + r * nat_row_step + 2 * i0;']
    for k in range(0, S, 2):
        st.append(f'*({vec[0]}*)(row + {2 * k}) = {vec[1]}({W(ev[k])}, {W(od[k])}, {W(ev[k+1])}, {W(od[k+1])});')
    first = seg.index('kept[round][0] =')
    last = seg.index('\n', seg.index(f'kept[round][{2 * S - 1}] ='))
    ind = ' ' * 16
    seg = seg[:first] + ('\n' + ind).join(st) + seg[last:]
    if remap:
        ml = re.search(r'const int l = t (%|/) (\d+);\n\s*const int i0 = mx0 \+ (\d+) \* \(t (%|/) (\d+)\);', seg)
        lines = 2 * TY; per = TX // S
        if ml.group(1) == '%':  # emitted in line order -> segments of a line to neighbours
            rep = f'const int l = t / {per};\n{ind}const int i0 = mx0 + {S} * (t % {per});'
        else:
            rep = f'const int l = t % {lines};\n{ind}const int i0 = mx0 + {S} * (t / {lines});'
        seg = seg[:ml.start()] + rep + seg[ml.end():]
    return b[:rl] + seg + b[cut1:]

text = s
for v, b in {'ds': ds(body, False), 'dsr': ds(body, True)}.items():
    text += '\n' + b.replace(name + '(', name + '_' + v + '(', 1) + '\n'
h = probe_harness('harness_inv.cu').replace('KERNEL', name).replace('ELEM', elem).replace('TXX', str(TX)).replace('TYY', str(TY)).replace('THREADS', str(threads))
open(out, 'w').write(text + h)
print(name, TX, TY, threads, 'undo' if undo else '', file=sys.stderr)

# Surgery on an emitted module's tile kernel (experiment): the kernel as emitted and two copies
# of it, appended with the harness of ../../2026-11-25-register-cap-guard/direct-store/ (each
# copy's output checked bit for bit against the emitted kernel's). Usage:
#   gen_variants.py bounds SRC OUT ELEM B1 B2    copies under __launch_bounds__(threads, B): more
#                                                 groups per multiprocessor asked of ptxas
#   gen_variants.py carveout SRC OUT ELEM C1 C2  identical copies whose preferred shared-memory
#                                                 carveout is C percent (less shared memory, more L1)
import os, re, sys
mode, src, out, elem, a1, a2 = sys.argv[1:7]
s = open(src).read()
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tile_kernel import tile_kernel
body, name, bounds, forward, TX, TY = tile_kernel(s)
threads = int(bounds.split(',')[0])
text = s
for v, a in (('b1', a1), ('b2', a2)):
    vb = body
    if mode == 'bounds':
        vb = body.replace(f'__launch_bounds__({bounds})', f'__launch_bounds__({threads}, {a})', 1)
    text += '\n' + vb.replace(name + '(', name + '_' + v + '(', 1) + '\n'
label = {'bounds': 'min', 'carveout': 'carve'}[mode]
here = os.path.dirname(os.path.abspath(__file__))
h = open(os.path.join(here, '..', '..', '2026-11-25-register-cap-guard', 'direct-store', 'harness_inv.cu')).read().replace('"ds", "dsr"', f'"{label}{a1}", "{label}{a2}"').replace('KERNEL_dsr', 'KERNEL_b2').replace('KERNEL_ds', 'KERNEL_b1')
if mode == 'carveout':
    h = h.replace('    auto run = [&](K k, ELEM* out) {', f'    CK(cudaFuncSetAttribute(ks[1], cudaFuncAttributePreferredSharedMemoryCarveout, {a1}));\n    CK(cudaFuncSetAttribute(ks[2], cudaFuncAttributePreferredSharedMemoryCarveout, {a2}));\n    auto run = [&](K k, ELEM* out) {{', 1)
if forward:
    h = h.replace('typedef void (*K)(ELEM*, const ELEM*, const ELEM*,', 'typedef void (*K)(const ELEM*, ELEM*, ELEM*,').replace('k<<<dim3(tx, ty), THREADS>>>(out, in, in,', 'k<<<dim3(tx, ty), THREADS>>>(in, out, out,')
h = h.replace('KERNEL', name).replace('ELEM', elem).replace('TXX', str(TX)).replace('TYY', str(TY)).replace('THREADS', str(threads))
open(out, 'w').write(text + h)

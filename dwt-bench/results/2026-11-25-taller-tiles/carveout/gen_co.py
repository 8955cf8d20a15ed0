# Surgery (experiment): the emitted tile kernel timed as emitted and as two identical copies
# whose preferred shared-memory carveout is set (percent of the maximum: less shared memory,
# more L1, possibly fewer groups). Usage: gen_co.py SRC OUT ELEM C1 C2
import os, re, sys
src, out, elem, c1, c2 = sys.argv[1:6]
s = open(src).read()
m = re.search(r'extern "C" __global__ void __launch_bounds__\(([^)]*)\)\n(\w+_(forward|inverse)_\w+_tile)\(', s)
threads = int(m.group(1).split(',')[0]); name = m.group(2); forward = m.group(3) == 'forward'
start = m.start()
i = s.index('{', m.end()); depth = 0
for j in range(i, len(s)):
    if s[j] == '{': depth += 1
    elif s[j] == '}':
        depth -= 1
        if depth == 0: break
body = s[start:j + 1]
TX, TY = map(int, re.search(r'tile of (\d+)x(\d+) polyphase', s[s.rfind('// Fused 2-D pass', 0, start):start]).groups())
text = s
for v in ('b1', 'b2'):
    text += '\n' + body.replace(name + '(', name + '_' + v + '(', 1) + '\n'
here = os.path.dirname(os.path.abspath(__file__))
h = open(os.path.join(here, '..', '..', '2026-11-25-register-cap-guard', 'direct-store', 'harness_inv.cu')).read().replace('"ds", "dsr"', f'"carve{c1}", "carve{c2}"').replace('KERNEL_dsr', 'KERNEL_b2').replace('KERNEL_ds', 'KERNEL_b1')
h = h.replace('    auto run = [&](K k, ELEM* out) {', f'    CK(cudaFuncSetAttribute(ks[1], cudaFuncAttributePreferredSharedMemoryCarveout, {c1}));\n    CK(cudaFuncSetAttribute(ks[2], cudaFuncAttributePreferredSharedMemoryCarveout, {c2}));\n    auto run = [&](K k, ELEM* out) {{', 1)
if forward:
    h = h.replace('typedef void (*K)(ELEM*, const ELEM*, const ELEM*,', 'typedef void (*K)(const ELEM*, ELEM*, ELEM*,').replace('k<<<dim3(tx, ty), THREADS>>>(out, in, in,', 'k<<<dim3(tx, ty), THREADS>>>(in, out, out,')
h = h.replace('KERNEL', name).replace('ELEM', elem).replace('TXX', str(TX)).replace('TYY', str(TY)).replace('THREADS', str(threads))
open(out, 'w').write(text + h)

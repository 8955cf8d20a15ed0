# Surgery on an emitted module's tile kernel (experiment): the same kernel under
# __launch_bounds__(threads, B) for two values of B (more groups per multiprocessor asked of
# ptxas: fewer registers; the edge tiles' code had set the count). Usage: gen_lb.py SRC OUT ELEM B1 B2
import os, re, sys
src, out, elem, b1, b2 = sys.argv[1:6]
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
for v, b in (('b1', b1), ('b2', b2)):
    vb = body.replace(f'__launch_bounds__({m.group(1)})', f'__launch_bounds__({threads}, {b})', 1)
    text += '\n' + vb.replace(name + '(', name + '_' + v + '(', 1) + '\n'
h = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '2026-11-25-register-cap-guard', 'direct-store', 'harness_inv.cu')).read().replace('"ds", "dsr"', f'"min{b1}", "min{b2}"').replace('KERNEL_dsr', 'KERNEL_b2').replace('KERNEL_ds', 'KERNEL_b1')
if forward:
    h = h.replace('typedef void (*K)(ELEM*, const ELEM*, const ELEM*,', 'typedef void (*K)(const ELEM*, ELEM*, ELEM*,').replace('k<<<dim3(tx, ty), THREADS>>>(out, in, in,', 'k<<<dim3(tx, ty), THREADS>>>(in, out, out,')
h = h.replace('KERNEL', name).replace('ELEM', elem).replace('TXX', str(TX)).replace('TYY', str(TY)).replace('THREADS', str(threads))
open(out, 'w').write(text + h)

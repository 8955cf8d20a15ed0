# Appends to an emitted module variants of its tile kernel and a harness timing them at 8192^2
# beside cudaMemcpy: `nolift` without the register lifting (every `eN = ...` / `oN = ...`
# statement removed: loads, shared traffic, barriers and stores stay), `cpa` with the inner
# tiles' pair loads as 4-byte cp.async straight into the tile (no registers staged), `cpa8` that
# under __launch_bounds__(256, 8), and `cpanl` cp.async without lifting.
import os, re, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '2026-11-25-taller-tiles', 'surgery'))
from tile_kernel import probe_harness
src, out, tx, ty, elem = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
s = open(src).read()
m = re.search(r'extern "C" __global__ void __launch_bounds__\([^)]*\)\n(\w+_tile)\(', s)
name = m.group(1)
start = m.start()
i = s.index('{', m.end())
depth = 0
for j in range(i, len(s)):
    if s[j] == '{': depth += 1
    elif s[j] == '}':
        depth -= 1
        if depth == 0: break
body = s[start:j + 1]

def nolift(b):
    return '\n'.join(l for l in b.split('\n') if not re.match(r'^\s*[eo]\d+ = ', l))

def cpa(b):
    if 'pre_shift(to_work(v.x));' in b and 'halo[round]' not in b:
        # The inner tile loads raw samples and its x pass shifts what it reads.
        a = b.index('if (inner_x && inner_y)')
        e = b.index('(write back)', a)
        inner = b[a:e]
        inner = re.sub(r'pre_shift\((to_work\((v\.[xy]|nat\[[^;]+\])\))\);', r'\1;', inner)
        inner = re.sub(r'(\n\s*int [eo]\d+ = )(tile\[line\]\[[^\]]+\]);', r'\1pre_shift(\2);', inner)
        b = b[:a] + inner + b[e:]
        print(name, 'shift moved to the x pass', file=sys.stderr)
    if 'to_work(v.x);' not in b:
        print(name, 'cp.async: not applicable', file=sys.stderr)
        return b
    b, n1 = re.subn(r'const (float|int)2 v = \*\(const \w+2\*\)\((.+)\);', r'const \1* vp = (const \1*)(\2);', b)
    b, n2 = re.subn(r'(tile\[[^=\n]+\]) = to_work\(v\.x\);', r'cp_async4(&\1, vp);', b)
    b, n3 = re.subn(r'(tile\[[^=\n]+\]) = to_work\(v\.y\);', r'cp_async4(&\1, vp + 1);', b)
    k = b.index('if (pairs)')
    k = b.index('__syncthreads();', k)
    b = b[:k] + 'asm volatile("cp.async.wait_all;" ::: "memory");\n        ' + b[k:]
    print(name, 'cp.async:', n1, n2, n3, file=sys.stderr)
    return b

variants = {
    'nolift': nolift(body),
    'cpa': cpa(body),
    'cpa8': re.sub(r'__launch_bounds__\([^)]*\)', '__launch_bounds__(256, 8)', cpa(body), count=1),
    'cpanl': nolift(cpa(body)),
}
helper = '''
__device__ __forceinline__ void cp_async4(void* dst, const void* src) {
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" :: "r"((unsigned)__cvta_generic_to_shared(dst)), "l"(src) : "memory");
}
'''
text = s + helper
for v, b in variants.items():
    text += '\n' + b.replace(name + '(', name + '_' + v + '(', 1) + '\n'
h = probe_harness('harness.cu').replace('KERNEL', name).replace('ELEM', elem).replace('TILEX', str(tx)).replace('TILEY', str(ty))
open(out, 'w').write(text + h)

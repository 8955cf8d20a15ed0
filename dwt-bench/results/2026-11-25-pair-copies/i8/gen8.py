# Surgery on an emitted forward module's tile kernel: its inner tiles' pairs copied with one
# 8-byte cp.async each into an interleaved row (sample j of the row at column j), the pass along
# x reading both phases from there and writing back deinterleaved as before. `i8`: the pass along
# x's work-items as emitted (a line's 4 segments to neighbouring work-items); `i8m`: neighbouring
# work-items on neighbouring lines. Appends the variants and a harness (8192^2, one level).
import os, re, sys
src, out, elem = sys.argv[1], sys.argv[2], sys.argv[3]
s = open(src).read()
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '2026-11-25-taller-tiles', 'surgery'))
from tile_kernel import tile_kernel, probe_harness
body, name, _, forward, _, _ = tile_kernel(s)
assert forward, 'a forward module'
bmax = int(re.search(r'const int at = .*2 \* \(mx0 - (\d+)\);', body).group(1))
lines = int(re.search(r'Along x in registers \(read and lift\): (\d+) lines', body).group(1))

def i8(b, remap):
    b = re.sub(r'__shared__ (\w+) tile\[(\d+)\]\[(\d+)\];', lambda mm: f'__shared__ __align__(16) {mm.group(1)} tile[{mm.group(2)}][86];', b, count=1)
    a = b.index('if (inner_x && inner_y)')
    e = b.index('(write back)', a)
    e2 = b.index('__syncthreads();', b.index('(write back)', a))  # end of inner write back
    inner = b[a:e]
    inner = re.sub(r'copy_async\(&tile\[l\]\[[^\]]+\], vp\);', 'copy_async8(&tile[l][2 * p], vp);', inner)
    inner = re.sub(r'copy_async\(&tile\[l\]\[[^\]]+\], vp \+ 1\);', '', inner)
    inner = inner.replace('tile[l][sx] =', 'tile[l][j] =')
    inner = inner.replace('const int b0 = i0 + ox0, b1 = i0 + ox1;', f'const int c = 2 * (i0 - mx0 + {bmax});', 1)
    def rd(mm):
        ph, k = mm.group(1), mm.group(2)
        kk = int(k.replace(' ', '')) if k else 0
        return f'tile[line][c + {2 * kk + (1 if ph == "1" else 0)}]'
    inner, n = re.subn(r'tile\[line\]\[b([01])((?: [+-] \d+)?)\]', rd, inner)
    print(name, 'reads', n, 'bmax', bmax, file=sys.stderr)
    b = b[:a] + inner + b[e:]
    if remap:
        a = b.index('if (inner_x && inner_y)')
        e2 = b.index('__syncthreads();', b.index('(write back)', a))
        seg = b[a:e2]
        seg = seg.replace('const int l = t / 4;', f'const int l = t % {lines};').replace('const int i0 = mx0 + 8 * (t % 4);', f'const int i0 = mx0 + 8 * (t / {lines});')
        b = b[:a] + seg + b[e2:]
    return b

helper = '''
static __device__ __forceinline__ void copy_async8(void* dst, const void* src) {
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" :: "r"((unsigned)__cvta_generic_to_shared(dst)), "l"(src) : "memory");
}
'''
text = s + helper
for v, b in {'i8': i8(body, False), 'i8m': i8(body, True)}.items():
    text += '\n' + b.replace(name + '(', name + '_' + v + '(', 1) + '\n'
h = probe_harness('harness8.cu').replace('KERNEL', name).replace('ELEM', elem)
open(out, 'w').write(text + h)

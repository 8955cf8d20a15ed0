"""Experiment: a tile-looping forward with cp.async double buffering, made by text surgery on an
emitted module, with a harness timing it against the emitted kernel (outputs compared bit for bit)."""
import re, sys
src_path, out_path = sys.argv[1], sys.argv[2]
src = open(src_path).read()
lines = src.split('\n')
# the tile kernel
start = next(i for i, l in enumerate(lines) if re.search(r'_forward_(i32|f32)_tile\(', l))
head = start - 1
assert 'launch_bounds__(256, 8)' in lines[head], lines[head]
end = next(i for i in range(start, len(lines)) if lines[i] == '}')
k = lines[start:end + 1]
name = re.search(r'(\w+_tile)\(', k[0]).group(1)
T = 'float' if '_f32_' in name else 'int'
body = '\n'.join(k)
assert 'return' not in body
m = re.search(r'__shared__ (\w+) tile\[(\d+)\]\[(\d+)\];', body); R, C = m.group(2), m.group(3)
TX = re.search(r'mx0 = \(int\)blockIdx.x \* (\d+);', body).group(1)
TY = re.search(r'my0 = \(int\)blockIdx.y \* (\d+);', body).group(1)
# the non-pairs inner load loop
li = next(i for i, l in enumerate(k) if 'natural columns, no bounds checks' in l and 'Load (inner tile)' in l)
fi = next(i for i in range(li, len(k)) if 'for (int t = tid;' in k[i])
ai = next(i for i in range(fi, len(k)) if 'tile[l][sx] =' in k[i])
for_line = k[fi].strip(); mid = [x.strip() for x in k[fi + 1:ai]]
assign = k[ai].strip()
am = re.match(r'tile\[l\]\[sx\] = (.*)nat\[(.*)\]\)*;$', assign)
wrap, addr = am.group(1), am.group(2)
close = ')' * wrap.count('(')
opens = sum(x.count('{') - x.count('}') for x in mid)
pre = [l.strip() for l in k if re.match(r'\s*const int (nx0|ny0|sx0|sy0) ', l)]
inner = [l.strip() for l in k if re.match(r'\s*const int inner_[xy] = ', l)]
def prefetch(var, kexpr, bexpr):
    return f"""    int {var} = 0;
    if ({kexpr} < ntiles) {{
        const int k_ = {kexpr}, bb = {bexpr};
        const int mx0 = (k_ % tiles_x) * {TX};
        const int my0 = (k_ / tiles_x) * {TY};
        {chr(10).join('        ' + p for p in pre).strip()}
        {chr(10).join('        ' + p for p in inner).strip()}
        if (inner_x && inner_y) {{
        {var} = 1;
        #pragma unroll 4
        {for_line}
            {chr(10).join('            ' + x for x in mid).strip()}
            cp_async4(&tiles_buf[bb][l][sx], nat + {addr});
        {'}' * opens}}}
        }}
    }}"""
fix = '' if wrap == 'to_work(' else f"""
            #pragma unroll 4
            {for_line}
                {chr(10).join('                ' + x for x in mid).strip()}
                tile[l][sx] = {wrap}tile[l][sx]{close};
            {'}' * opens}}}"""
out = []
i = 0
ib = next(i for i, l in enumerate(k) if 'if (inner_x && inner_y) {' in l)
pl = next(i for i in range(ib, len(k)) if 'const int pairs =' in k[i])
sync = next(i for i in range(pl, len(k)) if k[i].strip() == '__syncthreads();')
for i, l in enumerate(k):
    if i == 0:
        out.append(l.replace(name + '(', name + '_pipe(').replace(') {', ', const int tiles_x, const int ntiles) {'))
    elif '__shared__' in l and ' tile[' in l:
        out.append(f'    __shared__ {T} tiles_buf[2][{R}][{C}];')
    elif 'const int tid =' in l:
        out.append(l.replace('const int tid', 'const int tid0'))
        out.append('    int kk = (int)blockIdx.x, buf = 0;')
        out.append(prefetch('pf', 'kk', '0').replace('tid', 'tid0'))
        out.append('    cp_async_commit();')
        out.append('    for (; kk < ntiles; kk += (int)gridDim.x) {')
        out.append('    int tid; asm volatile("mov.u32 %0, %%tid.x;" : "=r"(tid));')
        out.append('    const int kn = kk + (int)gridDim.x;')
        out.append(prefetch('pf_next', 'kn', 'buf ^ 1'))
        out.append('    cp_async_commit();')
        out.append(f'    {T} (*tile)[{C}] = tiles_buf[buf];')
    elif 'mx0 = (int)blockIdx.x' in l:
        out.append(f'    const int mx0 = (kk % tiles_x) * {TX};')
    elif 'my0 = (int)blockIdx.y' in l:
        out.append(f'    const int my0 = (kk / tiles_x) * {TY};')
    elif i == pl:
        out.append('        if (pf) {\n            cp_async_wait_1();' + fix + '\n        } else {')
        out.append(l)
    elif i == sync:
        out.append('        }'); out.append(l)
    elif i == len(k) - 1:
        out.append('    __syncthreads();\n    buf ^= 1; pf = pf_next;\n    }'); out.append(l)
    else:
        out.append(l)
helpers = r'''
static __device__ __forceinline__ void cp_async4(void* smem, const void* gmem) {
    const unsigned s = (unsigned)__cvta_generic_to_shared(smem);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" :: "r"(s), "l"(gmem) : "memory");
}
static __device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
static __device__ __forceinline__ void cp_async_wait_1() { asm volatile("cp.async.wait_group 1;\n" ::: "memory"); }
'''
harness = open(__file__.replace('gen.py', 'harness.cu')).read()
harness = harness.replace('KERNEL', name).replace('ELEM', T).replace('TILEX', TX).replace('TILEY', TY)
lb = sys.argv[3] if len(sys.argv) > 3 else '8'
if len(sys.argv) > 4 and sys.argv[4] == 'call':
    sig = k[0][k[0].index('(') + 1:k[0].rindex(')')]
    names = [p.strip().split()[-1] for p in sig.split(',')]
    b = [f'static __device__ __noinline__ void {name}_body({T} (*tile)[{C}], const int mx0, const int my0, const int pf, {sig}) {{']
    for i, l in enumerate(k[1:], 1):
        if 'griddepcontrol' in l or '__CUDA_ARCH__ >= 900' in l or (l.strip() == '#endif' and i < 6):
            continue
        if '__shared__' in l and ' tile[' in l: continue
        if 'blockIdx' in l: continue
        if i == pl:
            b.append('        if (pf) {\n            cp_async_wait_1();' + fix + '\n        } else {'); b.append(l)
        elif i == sync:
            b.append('        }'); b.append(l)
        else:
            b.append(l)
    kern = [k[0].replace(name + '(', name + '_pipe(').replace(') {', ', const int tiles_x, const int ntiles) {'),
        '    #if __CUDA_ARCH__ >= 900', '    asm volatile("griddepcontrol.wait;" ::: "memory");', '    #endif',
        f'    __shared__ {T} tiles_buf[2][{R}][{C}];', '    const int tid0 = (int)threadIdx.x;', '    int kk = (int)blockIdx.x, buf = 0;',
        prefetch('pf', 'kk', '0').replace('tid', 'tid0'), '    cp_async_commit();',
        '    for (; kk < ntiles; kk += (int)gridDim.x) {', '    const int tid = tid0;', '    const int kn = kk + (int)gridDim.x;',
        prefetch('pf_next', 'kn', 'buf ^ 1'), '    cp_async_commit();',
        f'    {name}_body(tiles_buf[buf], (kk % tiles_x) * {TX}, (kk / tiles_x) * {TY}, pf, {", ".join(names)});',
        '    __syncthreads();', '    buf ^= 1; pf = pf_next;', '    }', '}']
    out = b + [lines[head]] + kern
    lines[head] = ''
open(out_path, 'w').write(src + helpers + '\n' + lines[head].replace('(256, 8)', '(256, ' + lb + ')') + '\n' + '\n'.join(out) + '\n' + harness)
print(name, T, R, C, TX, TY, 'fixup' if fix else 'no fixup')

"""Experiment 2: a tile-looping forward whose next inner tile is fetched by 16-byte cp.async into a
staging buffer in natural order while this tile lifts, then spread (deinterleaved, converted)
into the tile by shared-memory copies. Mode 'loop': the same loop without the prefetch."""
import re, sys
src_path, out_path, lb, mode = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
src = open(src_path).read()
lines = src.split('\n')
start = next(i for i, l in enumerate(lines) if re.search(r'_forward_(i16|i32|f32)_tile\(', l))
head = start - 1
end = next(i for i in range(start, len(lines)) if lines[i] == '}')
k = lines[start:end + 1]
name = re.search(r'(\w+_tile)\(', k[0]).group(1)
T = re.search(r'const (\w+)\* __restrict__ nat', k[0]).group(1)
body = '\n'.join(k)
R, C = re.search(r'__shared__ \w+ tile\[(\d+)\]\[(\d+)\];', body).groups()
TX = re.search(r'mx0 = \(int\)blockIdx.x \* (\d+);', body).group(1)
TY = re.search(r'my0 = \(int\)blockIdx.y \* (\d+);', body).group(1)
li = next(i for i, l in enumerate(k) if 'natural columns, no bounds checks' in l and 'Load (inner tile)' in l)
W = int(re.search(r'x (\d+) natural columns', k[li]).group(1))
fi = next(i for i in range(li, len(k)) if 'for (int t = tid;' in k[i])
ai = next(i for i in range(fi, len(k)) if 'tile[l][sx] =' in k[i])
for_line = k[fi].strip(); mid = [x.strip() for x in k[fi + 1:ai]]
am = re.match(r'tile\[l\]\[sx\] = (.*)nat\[nat_base \+ nr \* nat_row_step \+ \((2 \* mx0 \+ j - \d+)\) \* nat_col_step\]\)*;$', k[ai].strip())
wrap, ncol = am.group(1), am.group(2)
close = ')' * wrap.count('(')
opens = sum(x.count('{') - x.count('}') for x in mid)
K = int(ncol.split('-')[-1])
per = 16 // {'short': 2, 'int': 4, 'float': 4}[T]
CH = (W + per - 1 + per - 1) // per
SW = CH * per
pre = [l.strip() for l in k if re.match(r'\s*const int (nx0|ny0|sx0|sy0) ', l)]
inner = [l.strip() for l in k if re.match(r'\s*const int inner_[xy] = ', l)]
nr_line = next(x for x in mid if x.startswith('const int nr'))
def prefetch(var, kexpr, tidv):
    if mode == 'loop':
        return f'    int {var} = 0;'
    return f"""    int {var} = 0;
    if ({kexpr} < ntiles && stage_ok) {{
        const int k_ = {kexpr};
        const int mx0 = (k_ % tiles_x) * {TX};
        const int my0 = (k_ / tiles_x) * {TY};
        {chr(10).join('        ' + p for p in pre).strip()}
        {chr(10).join('        ' + p for p in inner).strip()}
        if (inner_x && inner_y) {{
            {var} = 1;
            const int c0 = (2 * mx0 - {K}) & ~{per - 1};
            #pragma unroll
            for (int t = {tidv}; t < {int(R) * CH}; t += 256) {{
                const int l = t / {CH}, c = t % {CH};
                {nr_line}
                cp_async16(&stage[l][{per} * c], nat + nat_base + nr * nat_row_step + c0 + {per} * c);
            }}
        }}
    }}
    cp_async_commit();"""
out = []
ib = next(i for i, l in enumerate(k) if 'if (inner_x && inner_y) {' in l)
pl = next(i for i in range(ib, len(k)) if 'const int pairs =' in k[i])
sync = next(i for i in range(pl, len(k)) if k[i].strip() == '__syncthreads();')
spread = f"""    if (pf) {{
        cp_async_wait_all();
        __syncthreads();
        const int mx0 = (kk % tiles_x) * {TX};
        const int my0 = (kk / tiles_x) * {TY};
        {chr(10).join('        ' + p for p in pre).strip()}
        const int c0 = (2 * mx0 - {K}) & ~{per - 1};
        #pragma unroll 4
        {for_line}
            {chr(10).join('            ' + x for x in mid).strip()}
            tile[l][sx] = {wrap}stage[l][{ncol} - c0]{close};
        {'}' * opens}}}
    }}
    __syncthreads();"""
for i, l in enumerate(k):
    if i == 0:
        out.append(l.replace(name + '(', name + '_pipe(').replace(') {', ', const int tiles_x, const int ntiles) {'))
    elif '__shared__' in l and ' tile[' in l:
        out.append(l); out.append(f'    __shared__ __align__(16) {T} stage[{R}][{SW}];')
    elif 'const int tid =' in l:
        out.append(l.replace('const int tid', 'const int tid0'))
        out.append(f'    const int stage_ok = nat_col_step == 1 && ((nat_base | nat_row_step) & {per - 1}) == 0 && (((unsigned long long)nat) % 16) == 0;')
        out.append('    int kk = (int)blockIdx.x;')
        out.append(prefetch('pf', 'kk', 'tid0'))
        out.append('    for (; kk < ntiles; kk += (int)gridDim.x) {')
        out.append('    int tid; asm volatile("mov.u32 %0, %%tid.x;" : "=r"(tid));')
        out.append(spread)
        out.append('    const int kn = kk + (int)gridDim.x;')
        out.append(prefetch('pf_next', 'kn', 'tid'))
    elif 'mx0 = (int)blockIdx.x' in l:
        out.append(f'    const int mx0 = (kk % tiles_x) * {TX};')
    elif 'my0 = (int)blockIdx.y' in l:
        out.append(f'    const int my0 = (kk / tiles_x) * {TY};')
    elif i == pl:
        out.append('        if (!pf) {'); out.append(l)
    elif i == sync:
        out.append('        }'); out.append(l)
    elif i == len(k) - 1:
        out.append('    __syncthreads();\n    pf = pf_next;\n    }'); out.append(l)
    else:
        out.append(l)
helpers = r'''
static __device__ __forceinline__ void cp_async16(void* smem, const void* gmem) {
    const unsigned s = (unsigned)__cvta_generic_to_shared(smem);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" :: "r"(s), "l"(gmem) : "memory");
}
static __device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
static __device__ __forceinline__ void cp_async_wait_all() { asm volatile("cp.async.wait_group 0;\n" ::: "memory"); }
'''
harness = open(__file__.replace('gen2.py', 'harness.cu')).read()
harness = harness.replace('KERNEL', name).replace('ELEM', T).replace('TILEX', TX).replace('TILEY', TY)
open(out_path, 'w').write(src + helpers + '\n' + lines[head].replace('(256, 8)', f'(256, {lb})') + '\n' + '\n'.join(out) + '\n' + harness)
print(name, T, R, C, W, K, CH, SW, wrap)

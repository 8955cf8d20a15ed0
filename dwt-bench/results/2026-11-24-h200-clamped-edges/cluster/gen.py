#!/usr/bin/env python3
"""Text surgery (experiment): the emitted forward tile kernel, copied as <name>_clu, whose
groups form clusters of C along y and take their neighbours' halo rows (after the x lift)
from distributed shared memory instead of loading and x-lifting them.
usage: gen.py <module.cu> <out.cu> <C>"""
import re, sys
src, out, C = sys.argv[1], sys.argv[2], int(sys.argv[3])
text = open(src).read()
m = re.search(r'extern "C" __global__ void __launch_bounds__\(256, 8\)\n(\w+_forward_\w+_tile)\(', text)
name = m.group(1)
start = m.start()
end = text.index('\n}\n', start) + 3
k = text[start:end]
hal = re.search(r'Halo per phase \(before, after\): even \((\d+), (\d+)\), odd \((\d+), (\d+)\)', text[:start].rsplit('// Fused 2-D pass', 1)[1])
hb0, ha0, hb1, ha1 = map(int, hal.groups())
lt = re.search(r'Local tile: (\d+) rows \(even (\d+), odd (\d+)\)', text[:start].rsplit('// Fused 2-D pass', 1)[1])
R, E, O = map(int, lt.groups())
T = int(re.search(r'blockIdx\.y \* (\d+);', k).group(1))
assert E == hb0 + T + ha0 and O == hb1 + T + ha1, (E, O)
k = k.replace('__launch_bounds__(256, 8)\n' + name + '(', f'__launch_bounds__(256, 8) __cluster_dims__(1, {C}, 1)\n' + name + '_clu(')
inner_at = k.index('    if (inner_x && inner_y) {\n')
edge_at = k.index('\n    }\n    else {\n', inner_at)
inner, edge = k[inner_at:edge_at], k[edge_at:]
head = k[:inner_at]
# rows this group loads and x-lifts: its own, and the halo rows at the cluster's ends
head += f'''    const int rank = (int)blockIdx.y % {C};
    const int top = rank == 0, bottom = rank == {C - 1};
    const int nrows = {2 * T} + (top ? {hb0 + hb1} : 0) + (bottom ? {ha0 + ha1} : 0);
'''
def row_of():
    return f'''__device__ __forceinline__ int clu_row(int k, int top) {{
    if (k < {T}) return {hb0} + k;
    if (k < {2 * T}) return {E + hb1} + k - {T};
    k -= {2 * T};
    if (top) {{
        if (k < {hb0}) return k;
        if (k < {hb0 + hb1}) return {E} + k - {hb0};
        k -= {hb0 + hb1};
    }}
    if (k < {ha0}) return {hb0 + T} + k;
    return {E + hb1 + T} + k - {ha0};
}}
'''
n_sub = 0
def sub(pat, rep, s, count=None):
    global n_sub
    new, n = re.subn(pat, rep, s)
    assert n > 0, pat
    if count is not None:
        assert n == count, (pat, n)
    n_sub += n
    return new
# pairs load: rows
inner = sub(r'for \(int l = lane_row; l < %d; l \+= 8\) \{' % R,
            'for (int kk = lane_row; kk < nrows; kk += 8) { const int l = clu_row(kk, top);', inner) if f'l < {R}; l += 8' in inner else \
        sub(r'const int l = lane_row \+ round \* 8;\n(\s*)if \(l < %d\) \{' % R,
            r'const int kk = lane_row + round * 8;\n\1if (kk < nrows) { const int l = clu_row(kk, top);', inner)
# halo columns of the pairs load
def halo_cols(mo):
    return f'{mo.group(1)}t < nrows * {mo.group(2)}{mo.group(3)}const int l = clu_row(t / {mo.group(2)}, top), h = t % {mo.group(2)};'
inner = sub(r'(for \(int t = tid; |if \()t < \d+( \*/)?', lambda mo: mo.group(0), inner)  # no-op marker
inner = re.sub(r'(for \(int t = tid; )t < (\d+)(; t \+= 256\) \{\n\s*)const int l = t / (\d+), h = t % \d+;',
               lambda mo: f'{mo.group(1)}t < nrows * {mo.group(4)}{mo.group(3)}const int l = clu_row(t / {mo.group(4)}, top), h = t % {mo.group(4)};', inner)
inner = re.sub(r'if \(t < (\d+)\) \{\n(\s*)const int l = t / (\d+), h = t % \d+;',
               lambda mo: f'if (t < nrows * {mo.group(3)}) {{\n{mo.group(2)}const int l = clu_row(t / {mo.group(3)}, top), h = t % {mo.group(3)};', inner)
# x lift: read-and-lift and write-back
inner = sub(r'if \(t < (\d+)\) \{\n(\s*)const int l = t / 4;',
            lambda mo: f'if (t < nrows * 4) {{\n{mo.group(2)}const int l = clu_row(t / 4, top);', inner, count=2)
# after the x lift: the cluster's rows are ready; take the halo rows from the neighbours
y_at = inner.index('        __syncthreads();\n        // Along y in registers')
copy = f'''        clu_sync();
        {{
            // Halo rows from the neighbours' tiles (their own rows, x-lifted): row l here is row l + {T} above, l - {T} below.
            const unsigned base = (unsigned)__cvta_generic_to_shared(&tile[0][0]);
            const int from_up = top ? 0 : {hb0 + hb1}, from_down = bottom ? 0 : {ha0 + ha1};
            const int cols = (int)(sizeof(tile[0]) / sizeof(tile[0][0]));
            for (int t = tid; t < (from_up + from_down) * cols; t += 256) {{
                const int j = t / cols, c = t % cols;
                int l, src, rk;
                if (j < from_up) {{ l = j < {hb0} ? j : {E} + j - {hb0}; src = l + {T}; rk = rank - 1; }}
                else {{ const int q = j - from_up; l = q < {ha0} ? {hb0 + T} + q : {E + hb1 + T} + q - {ha0}; src = l - {T}; rk = rank + 1; }}
                unsigned remote;
                asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(base + (unsigned)(src * cols + c) * 4u), "r"(rk));
                unsigned v;
                asm volatile("ld.shared::cluster.b32 %0, [%1];" : "=r"(v) : "r"(remote) : "memory");
                tile[l][c] = __uint_as_float(v) ;
            }}
        }}
        __syncthreads();
        clu_arrive();
        // Along y in registers'''
inner = inner[:y_at] + copy + inner[y_at + len('        __syncthreads();\n        // Along y in registers'):]
# edge groups: the same two cluster phases, before their y lift (which may lift in place)
ey = edge.index('\n        __syncthreads();\n        if (inner_y) {') if '\n        __syncthreads();\n        if (inner_y) {' in edge else edge.index('\n        __syncthreads();\n        // Along y in registers')
edge = edge[:ey] + '\n        clu_sync();\n        clu_arrive();\n        clu_wait();' + edge[ey:]
k = head + inner + edge
k = k[:k.rstrip().rfind('}')] + '    if (inner_x && inner_y) clu_wait();\n}\n'
typ = re.search(r'__shared__ (\w+) tile', k).group(1)
if typ != 'float':
    k = k.replace('__uint_as_float(v) ', f'({typ})v')
helpers = '''__device__ __forceinline__ void clu_arrive() { asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory"); }
__device__ __forceinline__ void clu_wait() { asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory"); }
__device__ __forceinline__ void clu_sync() { clu_arrive(); clu_wait(); }
''' + row_of()
tx = int(re.search(r'blockIdx\.x \* (\d+);', k).group(1))
defs = f'#define KERNEL {name}\n#define KERNEL_clu {name}_clu\n#define ELEM {typ}\n#define TILEX {tx}\n#define TILEY {T}\n#define CLU {C}\n'
open(out, 'w').write(text + '\n' + helpers + k + defs)
print(name, 'R', R, 'E', E, 'halo', hb0, ha0, hb1, ha1, 'T', T, 'subs', n_sub)

# Prototype: text surgery turning an emitted forward tile kernel into a levels-chained kernel.
import re, sys
src_path, out_path, T = sys.argv[1], sys.argv[2], sys.argv[3]
src = open(src_path).read()
m = re.search(r'extern "C" __global__ void __launch_bounds__\(([^)]*)\)\n(\w+_tile)\(([^)]*)\) \{\n', src)
name = m.group(2)
start = m.end()
depth, i = 1, start
while depth:
    c = src[i]
    depth += c == '{'
    depth -= c == '}'
    i += 1
body = src[start:i - 1]
body = body.replace('(int)blockIdx.x', 'bx').replace('(int)blockIdx.y', 'by')
body = body.replace('''    #if __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;" ::: "memory");
    #endif
''', '')
tx = int(re.search(r'const int mx0 = bx \* (\d+);', body).group(1))
ty = int(re.search(r'const int my0 = by \* (\d+);', body).group(1))
lb = sys.argv[4] if len(sys.argv) > 4 else '256'
mode = sys.argv[5] if len(sys.argv) > 5 else 'ticket'
chain = f'''
struct chain_level {{ const {T}* nat; {T}* low; {T}* high; int v[18]; }};
struct chain_table {{ chain_level l[8]; int total; int n; }};
static __device__ __forceinline__ unsigned int ld_acquire(const unsigned int* p) {{
    unsigned int v; asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory"); return v;
}}
extern "C" __global__ void __launch_bounds__({lb})
{name}_chain(const chain_table table, unsigned int* __restrict__ sync) {{
    __shared__ int chain_ticket;
{'    if (threadIdx.x == 0) chain_ticket = (int)atomicAdd(&sync[0], 1u);' if mode == 'ticket' else ''}
    __syncthreads();
    const int ticket = {'chain_ticket' if mode == 'ticket' else '(int)blockIdx.x'};
    int p = 0;
    while (p + 1 < table.n && ticket >= table.l[p + 1].v[2]) ++p;
    const int local = ticket - table.l[p].v[2];
    const int bx = local % table.l[p].v[0], by = local / table.l[p].v[0];
    const {T}* __restrict__ nat = table.l[p].nat;
    {T}* low = table.l[p].low;
    {T}* high = table.l[p].high;
    const int rows = table.l[p].v[4], cols = table.l[p].v[5], nat_base = table.l[p].v[6], nat_col_step = table.l[p].v[7], nat_row_step = table.l[p].v[8];
    const int low_base = table.l[p].v[9], low_col_step = table.l[p].v[10], low_row_step = table.l[p].v[11];
    const int high01_base = table.l[p].v[12], high10_base = table.l[p].v[13], high11_base = table.l[p].v[14], high_col_step = table.l[p].v[15], high_row_step = table.l[p].v[16];
    if (p > 0) {{
        const int lo = 2 * by * {ty} - 16, hi = 2 * by * {ty} + {2 * ty} + 16;
        const int a = max(0, lo) / {ty}, b = min(rows - 1, hi) / {ty};
        const int t = (int)threadIdx.x;
        if (t <= b - a) {{
            const unsigned int* c = sync + 2 + table.l[p - 1].v[3] + a + t;
            const unsigned int need = (unsigned int)table.l[p - 1].v[0];
            while (ld_acquire(c) < need) {{ }}
        }}
        __syncthreads();
    }}
    {{
{body}
    }}
    __syncthreads();
    if (threadIdx.x == 0) {{
        __threadfence();
        atomicAdd(&sync[2 + table.l[p].v[3] + by], 1u);
        const unsigned int d = {'atomicAdd(&sync[1], 1u)' if mode != 'nodone' else '0'};
        if (d + 1 == (unsigned int)table.total) {{
            const int counters = table.l[table.n - 1].v[3] + table.l[table.n - 1].v[1];
            for (int k = 0; k < counters; ++k) sync[2 + k] = 0u;
            sync[0] = 0u;
            sync[1] = 0u;
            __threadfence();
        }}
    }}
}}
#define KERNEL {name}
#define KERNEL_chain {name}_chain
#define ELEM {T}
#define TILEX {tx}
#define TILEY {ty}
'''
open(out_path, 'w').write(src + chain)

"""Makes probe_kernel.cu from an emitted module (`dwt emit -w LeGall53 --target cuda --dtype i16 > lg.cu`):
the fused forward tile kernel with clock64() stamps after each barrier (thread 0 of each group),
kept in shared memory and copied to global arrays at the end (no extra registers across the
kernel: the stamped kernel takes the emitted one's 32 registers and no spills under NVRTC)."""
import sys
src = open(sys.argv[1]).read()
out_path = sys.argv[2]
start = src.index(sys.argv[3] + '(')
end = src.index('\n}\n', start)
body = src[start:end]
pre = '''
__device__ unsigned long long g_clk[4096][8];
__device__ unsigned long long g_gt[4096][2];
__device__ int g_info[4096];
static __device__ __forceinline__ unsigned long long gtimer() { unsigned long long t; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); return t; }
static __device__ __forceinline__ int smid() { int s; asm volatile("mov.u32 %0, %%smid;" : "=r"(s)); return s; }
#define BID (blockIdx.y * gridDim.x + blockIdx.x)
#define STAMP(k) do { if (threadIdx.x == 0) s_clk[k] = clock64(); } while (0)
'''
wait = 'asm volatile("griddepcontrol.wait;" ::: "memory");\n    #endif\n'
body = body.replace(wait, wait + '    __shared__ unsigned long long s_clk[8]; if (threadIdx.x == 0) g_gt[BID][0] = gtimer(); STAMP(0);\n', 1)
split = body.index('\n    else {\n')
def number(t):
    parts = t.split('__syncthreads();')
    out = ''
    for i, p in enumerate(parts[:-1]):
        out += p + '__syncthreads(); STAMP(%d);' % (i + 1)
    return out + parts[-1], len(parts) - 1
a, ka = number(body[:split])
b, kb = number(body[split:])
body = a + b + '''
    __syncthreads();
    if (threadIdx.x == 0) {
        const int inner = inner_x && inner_y, last = inner ? %d : %d;
        s_clk[last] = clock64();
        for (int k = 0; k <= last; ++k) g_clk[BID][k] = s_clk[k];
        g_gt[BID][1] = gtimer(); g_info[BID] = (last + 1) | (inner << 8) | (smid() << 16);
    }''' % (ka + 1, kb + 1)
cut = src.rfind('\n', 0, src.rfind('extern "C"', 0, start))
open(out_path, 'w').write(src[:cut] + '\n' + pre + src[cut:start] + body + src[end:])

// The practical floor of a small multi-level transform on this GPU: graphs of plain copy
// kernels that move exactly the bytes of each level (one read and one write of the level's
// image), launched the way a plan launches its levels (one kernel per level, in one graph).
// What a transform costs over this is what its kernels add; what this costs over bytes/bandwidth
// is launch and one-wave latency, which no kernel of ours can remove.
//
// Build and run on the GPU machine: nvcc -O3 -arch=sm_90 floor.cu -o floor && ./floor
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t err_ = (x); if (err_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(err_)); exit(1); } } while (0)

// 16-byte accesses, one per thread per iteration, grid-stride.
__global__ void copy16(const int4* __restrict__ src, int4* __restrict__ dst, size_t n) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        dst[i] = src[i];
}
__global__ void empty_kernel() {}

// The same copy for a launch that may begin before its predecessor ends (programmatic dependent
// launch, sm_90): it waits for the predecessor's completion and memory before touching memory.
__global__ void copy16_pdl(const int4* __restrict__ src, int4* __restrict__ dst, size_t n) {
    asm volatile("griddepcontrol.wait;" ::: "memory");
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        dst[i] = src[i];
}

// Launches copy16 (pdl: copy16_pdl, allowed to start early) on s.
static void launch_copy(bool pdl, int blocks, int threads, cudaStream_t s, const int4* src, int4* dst, size_t n) {
    if (!pdl) { copy16<<<blocks, threads, 0, s>>>(src, dst, n); return; }
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(blocks); cfg.blockDim = dim3(threads); cfg.stream = s;
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr[0].val.programmaticStreamSerializationAllowed = 1;
    cfg.attrs = attr; cfg.numAttrs = 1;
    CHECK(cudaLaunchKernelEx(&cfg, copy16_pdl, src, dst, n));
}

static float median(std::vector<float> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; }

int main() {
    cudaDeviceProp p; CHECK(cudaGetDeviceProperties(&p, 0));
    printf("# floor: %s, %d SMs\n\n", p.name, p.multiProcessorCount);
    cudaStream_t s; CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    cudaEvent_t a, b; CHECK(cudaEventCreate(&a)); CHECK(cudaEventCreate(&b));
    const int reps = 200, nbuf = 16;
    struct Case { const char* name; int w, h, elem, levels; bool pdl; };
    Case cases[] = {
        {"1920x1080 i16", 1920, 1080, 2, 1, false}, {"1920x1080 i16", 1920, 1080, 2, 3, false},
        {"1920x1080 i16", 1920, 1080, 2, 3, true},
        {"1920x1080 f32", 1920, 1080, 4, 1, false}, {"1920x1080 f32", 1920, 1080, 4, 3, false},
        {"1920x1080 f32", 1920, 1080, 4, 3, true},
        {"4096x4096 f32", 4096, 4096, 4, 1, false}, {"4096x4096 f32", 4096, 4096, 4, 3, false},
    };
    printf("| case | levels | kernels | bytes moved | median (graph, events) | pipelined | bytes / 4240 GB/s |\n|---|---|---|---|---|---|---|\n");
    for (auto& c : cases) {
        size_t bytes = (size_t)c.w * c.h * c.elem;
        std::vector<char*> src(nbuf), dst(nbuf);
        for (int i = 0; i < nbuf; ++i) {
            CHECK(cudaMalloc(&src[i], bytes)); CHECK(cudaMalloc(&dst[i], bytes));
            CHECK(cudaMemset(src[i], i + 1, bytes));
        }
        std::vector<cudaGraphExec_t> exec(nbuf);
        size_t moved = 0;
        for (int i = 0; i < nbuf; ++i) {
            cudaGraph_t g;
            CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
            moved = 0;
            for (int l = 0; l < c.levels; ++l) {
                size_t lb = (size_t)(c.w >> l) * (c.h >> l) * c.elem;
                size_t n16 = lb / 16;
                int threads = 256;
                int blocks = (int)std::min<size_t>((n16 + threads - 1) / threads, (size_t)p.multiProcessorCount * 8);
                launch_copy(c.pdl && l > 0, blocks, threads, s, (const int4*)src[i], (int4*)dst[i], n16);
                moved += 2 * lb;
            }
            CHECK(cudaStreamEndCapture(s, &g));
            CHECK(cudaGraphInstantiate(&exec[i], g, 0));
            CHECK(cudaGraphDestroy(g));
        }
        for (int i = 0; i < 2 * nbuf; ++i) CHECK(cudaGraphLaunch(exec[i % nbuf], s));
        CHECK(cudaStreamSynchronize(s));
        std::vector<float> t;
        for (int r = 0; r < reps; ++r) {
            CHECK(cudaEventRecord(a, s)); CHECK(cudaGraphLaunch(exec[r % nbuf], s)); CHECK(cudaEventRecord(b, s));
            CHECK(cudaEventSynchronize(b)); float ms; CHECK(cudaEventElapsedTime(&ms, a, b)); t.push_back(ms);
        }
        CHECK(cudaEventRecord(a, s));
        for (int r = 0; r < reps; ++r) CHECK(cudaGraphLaunch(exec[r % nbuf], s));
        CHECK(cudaEventRecord(b, s)); CHECK(cudaEventSynchronize(b));
        float total; CHECK(cudaEventElapsedTime(&total, a, b));
        CHECK(cudaGetLastError());
        printf("| %s | %d | %d copy16%s | %.2f MB | %.1f us | %.1f us | %.1f us |\n", c.name, c.levels, c.levels, c.pdl ? " (programmatic dependent launch)" : "",
               moved / 1e6, 1e3 * median(t), 1e3 * total / reps, moved / 4240e9 * 1e6);
        for (int i = 0; i < nbuf; ++i) { cudaFree(src[i]); cudaFree(dst[i]); cudaGraphExecDestroy(exec[i]); }
    }
    // Launch floor: graphs of 1 and 3 empty kernels.
    for (int k : {1, 3}) {
        cudaGraph_t g; cudaGraphExec_t e;
        CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
        for (int l = 0; l < k; ++l) empty_kernel<<<1020, 256, 0, s>>>();
        CHECK(cudaStreamEndCapture(s, &g)); CHECK(cudaGraphInstantiate(&e, g, 0));
        for (int i = 0; i < 20; ++i) CHECK(cudaGraphLaunch(e, s));
        std::vector<float> t;
        for (int r = 0; r < reps; ++r) {
            CHECK(cudaEventRecord(a, s)); CHECK(cudaGraphLaunch(e, s)); CHECK(cudaEventRecord(b, s));
            CHECK(cudaEventSynchronize(b)); float ms; CHECK(cudaEventElapsedTime(&ms, a, b)); t.push_back(ms);
        }
        printf("| empty kernels (1020 blocks of 256) | - | %d | 0 | %.1f us | - | 0 |\n", k, 1e3 * median(t));
    }
    return 0;
}

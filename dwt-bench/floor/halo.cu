// What a one-pass 2-D kernel can reach at 8192^2 f32 before it lifts anything: copy kernels
// that load the way a fused tile loads (a tile with its halo rows and columns, the halo read
// again by the neighbouring tile) or the way a strip sliding down the columns would (the
// vertical halo read once, only the side halo read twice), and store the interior to the four
// Mallat quadrants as the forward does. Their time against a plain copy bounds what lifting
// on such a tile or strip can reach; no lifting is done.
//
// Build and run on the GPU machine: nvcc -O3 -arch=sm_90 halo.cu -o halo && ./halo
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t err_ = (x); if (err_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(err_)); exit(1); } } while (0)

constexpr int W = 8192, H = 8192;

__global__ void copy16(const int4* __restrict__ src, int4* __restrict__ dst, size_t n) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        dst[i] = src[i];
}

__device__ __forceinline__ int clampi(int v, int hi) { return v < 0 ? 0 : (v > hi ? hi : v); }

// Stores row r (0..TW-1 columns from x0) of a tile held in s at y: even columns to the left
// half, odd to the right, even rows to the top half, odd to the bottom (Mallat, one level).
template <int TW, int SW>
__device__ __forceinline__ void store_row(const float* s, int lx0, float* dst, int x0, int y, int lane, int half) {
    // half 0: even columns, 1: odd; lane over TW/2 columns of that parity.
    int c = 2 * lane + half;
    int qy = (y >> 1) + (y & 1) * (H / 2);
    int qx = (x0 >> 1) + lane + half * (W / 2);
    dst[(size_t)qy * W + qx] = s[lx0 + c];
}

// One tile of TW x TH samples per group of 256, loaded with HL/HR columns and HT/HB rows of halo
// (clamped at the image's edges), a barrier, then the interior stored to its quadrants. ASYNC:
// each sample copied into shared memory with cp.async (4 bytes, no register staged), as the
// fused forward's inner tiles copy theirs, instead of loaded into registers first.
template <int TW, int TH, int HL, int HR, int HT, int HB, int ASYNC>
__global__ void __launch_bounds__(256) tile_copy(const float* __restrict__ src, float* __restrict__ dst) {
    constexpr int LW = TW + HL + HR, LH = TH + HT + HB, N = LW * LH;
    // Rows padded by one sample (banks), or to 16 bytes where the copies are wider than 4 bytes.
    constexpr int PITCH = ASYNC > 1 ? LW + 4 : LW + 1;
    __shared__ __align__(16) float s[LH * PITCH];
    int x0 = blockIdx.x * TW, y0 = blockIdx.y * TH;
    constexpr int PER = (N + 255) / 256;
    if (ASYNC > 1) {
        // ASYNC samples (8 or 16 bytes) per copy; the halo is a multiple of 4 samples, so every
        // copy is aligned (no clamping: the image's edge tiles copy beyond it only in rows,
        // which are clamped, and the timing ignores the edge columns' content).
        constexpr int V = ASYNC > 1 ? ASYNC : 1, LWV = LW / V, NV = LWV * LH, PERV = (NV + 255) / 256;
#pragma unroll 4
        for (int k = 0; k < PERV; k++) {
            int i = threadIdx.x + 256 * k;
            if (i < NV) {
                int r = i / LWV, c = (i - r * LWV) * V;
                int gx = x0 - HL + c;
                gx = gx < 0 ? 0 : (gx > W - V ? W - V : gx);
                const float* g = src + (size_t)clampi(y0 - HT + r, H - 1) * W + gx;
                unsigned sa = (unsigned)__cvta_generic_to_shared(&s[r * PITCH + c]);
                if (V == 4)
                    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(sa), "l"(g) : "memory");
                else
                    asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" :: "r"(sa), "l"(g) : "memory");
            }
        }
        asm volatile("cp.async.wait_all;" ::: "memory");
    } else if (ASYNC) {
#pragma unroll 4
        for (int k = 0; k < PER; k++) {
            int i = threadIdx.x + 256 * k;
            if (i < N) {
                int r = i / LW, c = i - r * LW;
                const float* g = src + (size_t)clampi(y0 - HT + r, H - 1) * W + clampi(x0 - HL + c, W - 1);
                unsigned sa = (unsigned)__cvta_generic_to_shared(&s[r * PITCH + c]);
                asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" :: "r"(sa), "l"(g) : "memory");
            }
        }
        asm volatile("cp.async.wait_all;" ::: "memory");
    } else {
        float v[PER];
#pragma unroll
        for (int k = 0; k < PER; k++) {
            int i = threadIdx.x + 256 * k;
            if (i < N) {
                int r = i / LW, c = i - r * LW;
                v[k] = src[(size_t)clampi(y0 - HT + r, H - 1) * W + clampi(x0 - HL + c, W - 1)];
            }
        }
#pragma unroll
        for (int k = 0; k < PER; k++) {
            int i = threadIdx.x + 256 * k;
            if (i < N) { int r = i / LW, c = i - r * LW; s[r * PITCH + c] = v[k]; }
        }
    }
    __syncthreads();
    // A warp stores half a row of one parity of 64 columns: 32 consecutive samples of a
    // quadrant (tiles wider than 64 in segments of 64; as first written (30c925e) a 128-wide tile stored
    // only its first 64 columns' samples, which made it look faster than a copy).
    constexpr int SEGS = TW / 64, HALVES = TH * 2 * SEGS;
    int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    for (int j = warp; j < HALVES; j += 8) {
        int r = j / (2 * SEGS), rest = j - r * 2 * SEGS;
        int half = rest & 1, seg = rest >> 1;
        store_row<64, PITCH>(s, (r + HT) * PITCH + HL + seg * 64, dst, x0 + seg * 64, y0 + r, lane, half);
    }
}

// A strip of SW columns (with HL/HR halo columns) per group, sliding down ROWS rows (with HT/HB
// halo rows at the segment's ends) in chunks of CH rows: each row is read once; the loads of the
// next chunk are in flight while this one is stored.
template <int SW, int HL, int HR, int HT, int HB, int CH, int ROWS>
__global__ void __launch_bounds__(256) strip_copy(const float* __restrict__ src, float* __restrict__ dst) {
    constexpr int LW = SW + HL + HR, N = LW * CH, PER = (N + 255) / 256;
    __shared__ float s[2][CH * (LW + 1)];
    int x0 = blockIdx.x * SW, ystart = blockIdx.y * ROWS;
    int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    // Rows this group loads: [ystart - HT, ystart + ROWS + HB); it keeps [ystart, ystart + ROWS).
    constexpr int LOADED = ROWS + HT + HB, CHUNKS = (LOADED + CH - 1) / CH;
    float v[PER];
    auto load = [&](int chunk) {
#pragma unroll
        for (int k = 0; k < PER; k++) {
            int i = threadIdx.x + 256 * k;
            int r = i / LW, c = i - r * LW;
            int gr = ystart - HT + chunk * CH + r;
            if (i < N) v[k] = src[(size_t)clampi(gr, H - 1) * W + clampi(x0 - HL + c, W - 1)];
        }
    };
    load(0);
    for (int chunk = 0; chunk < CHUNKS; chunk++) {
        float* b = s[chunk & 1];
#pragma unroll
        for (int k = 0; k < PER; k++) {
            int i = threadIdx.x + 256 * k;
            if (i < N) { int r = i / LW, c = i - r * LW; b[r * (LW + 1) + c] = v[k]; }
        }
        __syncthreads();
        if (chunk + 1 < CHUNKS) load(chunk + 1);
        for (int j = warp; j < CH * 2 * (SW / 64); j += 8) {
            int r = j / (2 * (SW / 64)), rest = j - r * 2 * (SW / 64);
            int half = rest & 1, seg = rest >> 1;
            int gy = ystart - HT + chunk * CH + r;
            if (gy >= ystart && gy < ystart + ROWS)
                store_row<64, LW + 1>(b, r * (LW + 1) + HL + seg * 64, dst, x0 + seg * 64, gy, lane, half);
        }
    }
}

static float median(std::vector<float> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; }

int main() {
    cudaDeviceProp p; CHECK(cudaGetDeviceProperties(&p, 0));
    printf("# halo: %s, %d SMs, L2 %d MB; 8192^2 f32, one level's bytes (one read, one write)\n\n",
           p.name, p.multiProcessorCount, p.l2CacheSize >> 20);
    const size_t n = (size_t)W * H, bytes = n * 4;
    const int nbuf = 4, reps = 40;
    std::vector<float*> a(nbuf), b(nbuf);
    for (int i = 0; i < nbuf; i++) {
        CHECK(cudaMalloc(&a[i], bytes)); CHECK(cudaMalloc(&b[i], bytes));
        CHECK(cudaMemset(a[i], 0, bytes));
    }
    // Buffer 0 holds distinct values, so that every kernel's output can be checked: sample (x, y)
    // must land in its Mallat quadrant.
    std::vector<float> host(n), out(n);
    for (size_t i = 0; i < n; i++) host[i] = (float)(i % 4000037);
    CHECK(cudaMemcpy(a[0], host.data(), bytes, cudaMemcpyHostToDevice));
    auto verify = [&](const char* name) {
        CHECK(cudaMemcpy(out.data(), b[0], bytes, cudaMemcpyDeviceToHost));
        for (size_t y = 0; y < (size_t)H; y++)
            for (size_t x = 0; x < (size_t)W; x++) {
                size_t qy = (y >> 1) + (y & 1) * (H / 2), qx = (x >> 1) + (x & 1) * (W / 2);
                if (out[qy * W + qx] != host[y * W + x]) {
                    fprintf(stderr, "%s: sample (%zu, %zu) not in its quadrant\n", name, x, y);
                    exit(1);
                }
            }
    };
    cudaEvent_t e0, e1; CHECK(cudaEventCreate(&e0)); CHECK(cudaEventCreate(&e1));
    auto time = [&](const char* name, auto launch) {
        for (int i = 0; i < nbuf; i++) launch(a[i], b[i]);
        CHECK(cudaDeviceSynchronize());
        std::vector<float> t;
        for (int r = 0; r < reps; r++) {
            int i = r % nbuf;
            CHECK(cudaEventRecord(e0)); launch(a[i], b[i]); CHECK(cudaEventRecord(e1));
            CHECK(cudaEventSynchronize(e1));
            float ms; CHECK(cudaEventElapsedTime(&ms, e0, e1)); t.push_back(ms);
        }
        CHECK(cudaGetLastError());
        float m = median(t);
        return m;
    };
    float copy = time("copy", [&](float* s, float* d) {
        copy16<<<p.multiProcessorCount * 8, 256>>>((const int4*)s, (int4*)d, bytes / 16);
    });
    float memcpy_t = time("memcpy", [&](float* s, float* d) { CHECK(cudaMemcpyAsync(d, s, bytes, cudaMemcpyDeviceToDevice)); });
    printf("| kernel | median | of copy16 | of cudaMemcpy |\n|---|---|---|---|\n");
    printf("| copy16 | %.4f ms | 100%% | %.1f%% |\n", copy, 100 * memcpy_t / copy);
    printf("| cudaMemcpy | %.4f ms | %.1f%% | 100%% |\n", memcpy_t, 100 * copy / memcpy_t);
    auto row = [&](const char* name, float ms) {
        printf("| %s | %.4f ms | %.1f%% | %.1f%% |\n", name, ms, 100 * copy / ms, 100 * memcpy_t / ms);
    };
#define TILE_AS(TW, TH, HL, HR, HT, HB, A, NAME) row("tile " #TW "x" #TH " halo " #HL "+" #HR " x " #HT "+" #HB NAME, \
    time("t", [&](float* s, float* d) { tile_copy<TW, TH, HL, HR, HT, HB, A><<<dim3(W / TW, H / TH), 256>>>(s, d); })); \
    verify("tile " #TW "x" #TH " halo " #HL "+" #HR " x " #HT "+" #HB NAME)
#define TILE(TW, TH, HL, HR, HT, HB) TILE_AS(TW, TH, HL, HR, HT, HB, 0, ""); \
    TILE_AS(TW, TH, HL, HR, HT, HB, 1, ", cp.async"); \
    if (HL % 4 == 0 && HR % 4 == 0) { \
        TILE_AS(TW, TH, HL, HR, HT, HB, 2, ", cp.async 8 B"); \
        TILE_AS(TW, TH, HL, HR, HT, HB, 4, ", cp.async 16 B"); \
    }
#define STRIP(SW, HL, HR, HT, HB, CH, ROWS) row("strip " #SW " halo " #HL "+" #HR " x " #HT "+" #HB ", chunks " #CH ", rows " #ROWS, \
    time("s", [&](float* s, float* d) { strip_copy<SW, HL, HR, HT, HB, CH, ROWS><<<dim3(W / SW, H / ROWS), 256>>>(s, d); })); \
    verify("strip " #SW)
    TILE(64, 32, 0, 0, 0, 0);
    TILE(64, 32, 2, 2, 2, 1);   // LeGall 5/3's forward tile as configured (35 rows)
    TILE(64, 32, 4, 4, 2, 3);   // 37 rows: Deslauriers-Dubuc (9,7)'s
    TILE(64, 32, 4, 4, 4, 3);   // 39 rows, 10 sectors: CDF 9/7's and Daubechies 9/7's
    TILE(64, 32, 4, 4, 4, 5);   // 41 rows: Deslauriers-Dubuc (13,7)'s
    TILE(64, 32, 8, 8, 4, 3);
    TILE(64, 64, 4, 4, 4, 3);
    TILE(128, 32, 0, 0, 0, 0);
    TILE(128, 32, 4, 4, 4, 3);
    STRIP(64, 0, 0, 0, 0, 8, 256);
    STRIP(64, 4, 4, 4, 3, 8, 256);
    STRIP(64, 4, 4, 4, 3, 16, 256);
    STRIP(64, 4, 4, 4, 3, 8, 512);
    STRIP(64, 4, 4, 4, 3, 8, 128);
    STRIP(128, 4, 4, 4, 3, 8, 256);
    STRIP(128, 4, 4, 4, 3, 4, 256);
    STRIP(128, 4, 4, 4, 3, 8, 512);
    return 0;
}

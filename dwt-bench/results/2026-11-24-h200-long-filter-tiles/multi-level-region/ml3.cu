// Prototype: LeGall 5/3 (VC-2, clamp rule, shift 1) forward, three levels of a 2-D i16 image in ONE
// kernel, without inter-block synchronisation: each group owns an R x R region of the image,
// loads it with a margin, and lifts all three levels in shared memory, recomputing the margin's
// samples its neighbours also compute. Output in the Mallat layout, checked against the CPU
// reference (`dwt transform -b cpu`). Timed as the bench times a plan (graph launch between events).
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1); } } while (0)

#ifndef R
#define R 128
#endif
#ifndef ML
#define ML 16
#endif
#ifndef MR
#define MR 24
#endif
#define T (ML + R + MR)
#ifndef BX
#define BX 32
#endif
#ifndef BY
#define BY 32
#endif
#define LEVELS 3

__device__ __forceinline__ int last_even(int n) { return (n - 1) & ~1; }
__device__ __forceinline__ int last_odd(int n) { return (n & 1) ? n - 2 : n - 1; }

__global__ void __launch_bounds__(BX * BY) ml3(const short *__restrict__ src, short *__restrict__ dst, int W, int H) {
    extern __shared__ int S[];
    const int X0 = blockIdx.x * R, Y0 = blockIdx.y * R;
    const int ox = X0 - ML, oy = Y0 - ML;
    const int LX = max(ox, 0), LY = max(oy, 0);
    const int RX = min(X0 + R + MR, W), RY = min(Y0 + R + MR, H);
    const int tx = threadIdx.x, ty = threadIdx.y;
    for (int y = LY + ty; y < RY; y += BY)
        for (int x = LX + tx; x < RX; x += BX)
            S[(y - oy) * T + (x - ox)] = src[y * W + x];
    __syncthreads();
    int Wl = W, Hl = H;
    for (int l = 0; l < LEVELS; ++l) {
        const int s = 1 << l;
        const int kx0 = LX >> l, kx1 = min(((RX - 1) >> l) + 1, Wl);
        const int ky0 = LY >> l, ky1 = min(((RY - 1) >> l) + 1, Hl);
#define AT(kx, ky) S[((ky) * s - oy) * T + (kx) * s - ox]
        // Shift, then x step 1 (odd -= (even[0] + even[1] + 1) >> 1) on the same pass? No: a step
        // reads the shifted neighbours, so the shift has its own pass.
        for (int ky = ky0 + ty; ky < ky1; ky += BY)
            for (int kx = kx0 + tx; kx < kx1; kx += BX)
                AT(kx, ky) *= 2;
        __syncthreads();
        const int le = last_even(Wl), lo = last_odd(Wl);
        for (int ky = ky0 + ty; ky < ky1; ky += BY)
            for (int kx = (kx0 | 1) + 2 * tx; kx < kx1; kx += 2 * BX) {
                int a = min(max(kx - 1, 0), le), b = min(max(kx + 1, 0), le);
                a = min(max(a, kx0), kx1 - 1); b = min(max(b, kx0), kx1 - 1);
                AT(kx, ky) -= (AT(a, ky) + AT(b, ky) + 1) >> 1;
            }
        __syncthreads();
        for (int ky = ky0 + ty; ky < ky1; ky += BY)
            for (int kx = kx0 + 2 * tx; kx < kx1; kx += 2 * BX) {
                int a = min(max(kx - 1, 1), lo), b = min(max(kx + 1, 1), lo);
                a = min(max(a, kx0), kx1 - 1); b = min(max(b, kx0), kx1 - 1);
                AT(kx, ky) += (AT(a, ky) + AT(b, ky) + 2) >> 2;
            }
        __syncthreads();
        const int lev = last_even(Hl), lov = last_odd(Hl);
        for (int ky = (ky0 | 1) + 2 * ty; ky < ky1; ky += 2 * BY)
            for (int kx = kx0 + tx; kx < kx1; kx += BX) {
                int a = min(max(ky - 1, 0), lev), b = min(max(ky + 1, 0), lev);
                a = min(max(a, ky0), ky1 - 1); b = min(max(b, ky0), ky1 - 1);
                AT(kx, ky) -= (AT(kx, a) + AT(kx, b) + 1) >> 1;
            }
        __syncthreads();
        for (int ky = ky0 + 2 * ty; ky < ky1; ky += 2 * BY)
            for (int kx = kx0 + tx; kx < kx1; kx += BX) {
                int a = min(max(ky - 1, 1), lov), b = min(max(ky + 1, 1), lov);
                a = min(max(a, ky0), ky1 - 1); b = min(max(b, ky0), ky1 - 1);
                AT(kx, ky) += (AT(kx, a) + AT(kx, b) + 2) >> 2;
            }
        __syncthreads();
        // The owned region's coefficients of this level: details always, LL at the last level.
        const int wl = (Wl + 1) / 2, hl = (Hl + 1) / 2;
        const int qx0 = X0 >> l, qx1 = min((X0 + R) >> l, Wl);
        const int qy0 = Y0 >> l, qy1 = min((Y0 + R) >> l, Hl);
        // Output coordinates: each band's owned block, threads along the output row.
        const int bw = (qx1 - qx0 + 1) / 2, bh = (qy1 - qy0 + 1) / 2;
        for (int band = (l == LEVELS - 1 ? 0 : 1); band < 4; ++band) {
            const int px = band & 1, py = band >> 1;
            for (int j = ty; j < bh; j += BY)
                for (int i = tx; i < bw; i += BX) {
                    const int kx = qx0 + 2 * i + px, ky = qy0 + 2 * j + py;
                    if (kx >= qx1 || ky >= qy1) continue;
                    const int row = (py ? hl : 0) + (ky >> 1), col = (px ? wl : 0) + (kx >> 1);
                    dst[row * W + col] = (short)AT(kx, ky);
                }
        }
        Wl = wl; Hl = hl;
#undef AT
    }
}

static float median(std::vector<float> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; }

int main(int argc, char **argv) {
    const int W = 1920, H = 1080;
    const size_t n = (size_t)W * H;
    std::vector<short> in(n), ref(n), out(n);
    FILE *f = fopen(argc > 1 ? argv[1] : "in.raw", "rb"); if (!f || fread(in.data(), 2, n, f) != n) { printf("no input\n"); return 1; } fclose(f);
    f = fopen(argc > 2 ? argv[2] : "ref.raw", "rb"); if (!f || fread(ref.data(), 2, n, f) != n) { printf("no reference\n"); return 1; } fclose(f);
    const int nbuf = 16;
    std::vector<short *> s(nbuf), d(nbuf);
    for (int i = 0; i < nbuf; ++i) {
        CHECK(cudaMalloc(&s[i], n * 2)); CHECK(cudaMalloc(&d[i], n * 2));
        CHECK(cudaMemcpy(s[i], in.data(), n * 2, cudaMemcpyHostToDevice));
        CHECK(cudaMemset(d[i], 0, n * 2));
    }
    const size_t smem = (size_t)T * T * 4;
    CHECK(cudaFuncSetAttribute(ml3, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    dim3 grid((W + R - 1) / R, (H + R - 1) / R), block(BX, BY);
    int per_sm = 0; CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, ml3, BX * BY, smem));
    ml3<<<grid, block, smem>>>(s[0], d[0], W, H);
    CHECK(cudaGetLastError()); CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(out.data(), d[0], n * 2, cudaMemcpyDeviceToHost));
    size_t bad = 0; int first = -1;
    for (size_t i = 0; i < n; ++i) if (out[i] != ref[i]) { if (first < 0) first = (int)i; ++bad; }
    printf("R=%d ML=%d MR=%d block %dx%d: grid %dx%d = %d groups, smem %zu B, %d groups/SM; mismatches %zu", R, ML, MR, BX, BY, grid.x, grid.y, grid.x * grid.y, smem, per_sm, bad);
    if (bad) printf(" (first at row %d col %d: got %d want %d)", first / W, first % W, out[first], ref[first]);
    printf("\n");
    cudaStream_t st; CHECK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    std::vector<cudaGraphExec_t> ex(nbuf);
    for (int i = 0; i < nbuf; ++i) {
        cudaGraph_t g;
        CHECK(cudaStreamBeginCapture(st, cudaStreamCaptureModeGlobal));
        ml3<<<grid, block, smem, st>>>(s[i], d[i], W, H);
        CHECK(cudaStreamEndCapture(st, &g)); CHECK(cudaGraphInstantiate(&ex[i], g, 0)); CHECK(cudaGraphDestroy(g));
    }
    for (int i = 0; i < 3 * nbuf; ++i) CHECK(cudaGraphLaunch(ex[i % nbuf], st));
    CHECK(cudaStreamSynchronize(st));
    cudaEvent_t a, b; CHECK(cudaEventCreate(&a)); CHECK(cudaEventCreate(&b));
    std::vector<float> t;
    const int reps = 200;
    for (int r = 0; r < reps; ++r) {
        CHECK(cudaEventRecord(a, st)); CHECK(cudaGraphLaunch(ex[r % nbuf], st)); CHECK(cudaEventRecord(b, st));
        CHECK(cudaEventSynchronize(b)); float ms; CHECK(cudaEventElapsedTime(&ms, a, b)); t.push_back(ms);
    }
    CHECK(cudaEventRecord(a, st));
    for (int r = 0; r < reps; ++r) CHECK(cudaGraphLaunch(ex[r % nbuf], st));
    CHECK(cudaEventRecord(b, st)); CHECK(cudaEventSynchronize(b));
    float total; CHECK(cudaEventElapsedTime(&total, a, b));
    printf("| LeGall53 1920x1080 L3 fwd, one kernel (R=%d) | median %.1f us | pipelined %.1f us |\n", R, 1e3 * median(t), 1e3 * total / reps);
    return bad ? 2 : 0;
}

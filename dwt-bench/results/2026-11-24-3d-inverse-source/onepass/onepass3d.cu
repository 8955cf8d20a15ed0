// A hand-written prototype, not the library: one level of LeGall 5/3's 3-D forward (i32, Mallat,
// VC-2 semantics: pre-shift by 1, rows, columns, then depth) in ONE pass. Each group owns an x-y
// tile of TX x TY samples and a segment of ZS planes (plus 2 planes of margin either side where
// the volume goes on); per plane it loads the tile with a halo of 2 (reflected at the volume's
// edges: for LeGall's 2-tap steps the same as VC-2's clamped reads), lifts x then y in shared
// memory, keeps the tile in a ring of 4 planes and lifts z as planes arrive (Algorithm 1's
// sliding window along z), storing each finished plane to its subband place.
// Usage: onepass3d D H W ZS in.raw ref.raw   (ref = `dwt transform -b cpu -w LeGall53 -l 1
// --shape D,H,W --dtype i32 --layout mallat in.raw ref.raw`), prints max diff and timings.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>

#ifndef TX
#define TX 64
#endif
#ifndef TY
#define TY 32
#endif
#define HALO 2
#define LX (TX + 2 * HALO)
#define LY (TY + 2 * HALO)
#define THREADS 256
#define LOADS ((LY * LX + THREADS - 1) / THREADS)
#ifndef PREFETCH
#define PREFETCH 0
#endif

__device__ __forceinline__ int refl(int i, int n) {
    i = i < 0 ? -i : i;
    return i >= n ? 2 * n - 2 - i : i;
}

__device__ __forceinline__ void store_plane(int* __restrict__ dst, const int (*plane)[TX], int q,
                                            int x0, int y0, int D, int H, int W) {
    const int wl = (W + 1) / 2, hl = (H + 1) / 2, dl = (D + 1) / 2;
    const int mz = (q & 1) ? dl + q / 2 : q / 2;
    for (int i = threadIdx.x; i < TX * TY; i += THREADS) {
        const int ty = i / TX, tx = i % TX;
        const int gx = x0 + tx, gy = y0 + ty;
        if (gx >= W || gy >= H) continue;
        const int mx = (gx & 1) ? wl + gx / 2 : gx / 2;
        const int my = (gy & 1) ? hl + gy / 2 : gy / 2;
        dst[((size_t)mz * H + my) * W + mx] = plane[ty][tx];
    }
}

#ifndef MINB
#define MINB 1
#endif
__global__ __launch_bounds__(THREADS, MINB) void onepass(const int* __restrict__ src, int* __restrict__ dst,
                                                   int D, int H, int W, int ZS) {
    __shared__ int t[LY][LX + 1];
    __shared__ int ring[4][TY][TX];
    const int x0 = blockIdx.x * TX, y0 = blockIdx.y * TY;
    const int seg_lo = blockIdx.z * ZS, seg_hi = min(seg_lo + ZS, D);
    const int r0 = max(seg_lo - 2, 0), r1 = min(seg_hi + 2, D);
    const int tid = threadIdx.x;
#if PREFETCH
    // The next plane's tile is loaded into registers while this one is lifted.
    int offset[LOADS];
    int next[LOADS];
#pragma unroll
    for (int k = 0; k < LOADS; ++k) {
        const int i = tid + k * THREADS;
        const int ly = min(i / LX, LY - 1), lx = i % LX;
        const int gy = refl(y0 - HALO + ly, H), gx = refl(x0 - HALO + lx, W);
        offset[k] = gy * W + gx;
        next[k] = src[(size_t)r0 * H * W + offset[k]];
    }
#endif
    for (int p = r0; p < r1; ++p) {
#if PREFETCH
#pragma unroll
        for (int k = 0; k < LOADS; ++k) {
            const int i = tid + k * THREADS;
            if (i < LY * LX) t[i / LX][i % LX] = next[k] << 1;
        }
        __syncthreads();
        if (p + 1 < r1) {
            const int* plane = src + (size_t)(p + 1) * H * W;
#pragma unroll
            for (int k = 0; k < LOADS; ++k) next[k] = plane[offset[k]];
        }
#else
        for (int i = tid; i < LY * LX; i += THREADS) {
            const int ly = i / LX, lx = i % LX;
            const int gy = refl(y0 - HALO + ly, H), gx = refl(x0 - HALO + lx, W);
            t[ly][lx] = src[((size_t)p * H + gy) * W + gx] << 1;
        }
        __syncthreads();
#endif
        // x: predict the odd columns 1..LX-3, update the even ones 2..LX-4.
        for (int i = tid; i < LY * (LX / 2 - 1); i += THREADS) {
            const int ly = i / (LX / 2 - 1), lx = 1 + 2 * (i % (LX / 2 - 1));
            t[ly][lx] -= (t[ly][lx - 1] + t[ly][lx + 1] + 1) >> 1;
        }
        __syncthreads();
        for (int i = tid; i < LY * (TX / 2); i += THREADS) {
            const int ly = i / (TX / 2), lx = HALO + 2 * (i % (TX / 2));
            t[ly][lx] += (t[ly][lx - 1] + t[ly][lx + 1] + 2) >> 2;
        }
        __syncthreads();
        // y, on the tile's columns: predict the odd rows 1..LY-3, update the even rows.
        for (int i = tid; i < (LY / 2 - 1) * TX; i += THREADS) {
            const int ly = 1 + 2 * (i / TX), lx = HALO + i % TX;
            t[ly][lx] -= (t[ly - 1][lx] + t[ly + 1][lx] + 1) >> 1;
        }
        __syncthreads();
        for (int i = tid; i < (TY / 2) * TX; i += THREADS) {
            const int ly = HALO + 2 * (i / TX), lx = HALO + i % TX;
            t[ly][lx] += (t[ly - 1][lx] + t[ly + 1][lx] + 2) >> 2;
        }
        __syncthreads();
        int (*cur)[TX] = ring[p & 3];
        for (int i = tid; i < TX * TY; i += THREADS) {
            const int ty = i / TX, tx = i % TX;
            cur[ty][tx] = t[HALO + ty][HALO + tx];
        }
        __syncthreads();
        // z: on an even plane p, predict p-1, then update p-2 (its odd neighbour below p-2 is
        // reflected at the volume's start), store both where they are this group's.
        const bool last = p == r1 - 1 && r1 == D;
        if ((p & 1) == 0 && p >= r0 + 2) {
            int (*o)[TX] = ring[(p - 1) & 3];
            int (*a)[TX] = ring[(p - 2) & 3];
            for (int i = tid; i < TX * TY; i += THREADS) {
                const int ty = i / TX, tx = i % TX;
                o[ty][tx] -= (a[ty][tx] + cur[ty][tx] + 1) >> 1;
            }
            __syncthreads();
            int (*b)[TX] = ring[(p - 3) & 3];
            const bool first = p - 2 == 0;
            for (int i = tid; i < TX * TY; i += THREADS) {
                const int ty = i / TX, tx = i % TX;
                const int below = first ? o[ty][tx] : b[ty][tx];
                a[ty][tx] += (below + o[ty][tx] + 2) >> 2;
            }
            __syncthreads();
            if (p - 1 >= seg_lo && p - 1 < seg_hi) store_plane(dst, o, p - 1, x0, y0, D, H, W);
            if (p - 2 >= seg_lo && p - 2 < seg_hi) store_plane(dst, a, p - 2, x0, y0, D, H, W);
        }
        if (last) {
            // The volume's end: D even (p odd): predict p with p-1 reflected, update p-1;
            // D odd (p even, p-1 predicted above): update p with p-1 reflected.
            if (p & 1) {
                int (*o)[TX] = cur;
                int (*a)[TX] = ring[(p - 1) & 3];
                int (*b)[TX] = ring[(p - 2) & 3];
                for (int i = tid; i < TX * TY; i += THREADS) {
                    const int ty = i / TX, tx = i % TX;
                    o[ty][tx] -= (a[ty][tx] + a[ty][tx] + 1) >> 1;
                }
                __syncthreads();
                const bool first = p - 1 == 0;
                for (int i = tid; i < TX * TY; i += THREADS) {
                    const int ty = i / TX, tx = i % TX;
                    const int below = first ? o[ty][tx] : b[ty][tx];
                    a[ty][tx] += (below + o[ty][tx] + 2) >> 2;
                }
                __syncthreads();
                if (p >= seg_lo) store_plane(dst, o, p, x0, y0, D, H, W);
                if (p - 1 >= seg_lo) store_plane(dst, a, p - 1, x0, y0, D, H, W);
            } else {
                int (*o)[TX] = ring[(p - 1) & 3];
                for (int i = tid; i < TX * TY; i += THREADS) {
                    const int ty = i / TX, tx = i % TX;
                    cur[ty][tx] += (o[ty][tx] + o[ty][tx] + 2) >> 2;
                }
                __syncthreads();
                if (p >= seg_lo) store_plane(dst, cur, p, x0, y0, D, H, W);
            }
        }
        __syncthreads();
    }
}

int main(int argc, char** argv) {
    if (argc < 7) { fprintf(stderr, "usage: onepass3d D H W ZS in.raw ref.raw\n"); return 2; }
    const int D = atoi(argv[1]), H = atoi(argv[2]), W = atoi(argv[3]), ZS = atoi(argv[4]);
    const size_t n = (size_t)D * H * W;
    std::vector<int> in(n), ref(n), out(n);
    FILE* f = fopen(argv[5], "rb");
    if (!f || fread(in.data(), 4, n, f) != n) { fprintf(stderr, "cannot read %s\n", argv[5]); return 1; }
    fclose(f);
    f = fopen(argv[6], "rb");
    if (!f || fread(ref.data(), 4, n, f) != n) { fprintf(stderr, "cannot read %s\n", argv[6]); return 1; }
    fclose(f);
    int *src[2], *dst;
    for (auto& s : src) { cudaMalloc(&s, n * 4); cudaMemcpy(s, in.data(), n * 4, cudaMemcpyHostToDevice); }
    cudaMalloc(&dst, n * 4);
    dim3 grid((W + TX - 1) / TX, (H + TY - 1) / TY, (D + ZS - 1) / ZS);
    onepass<<<grid, THREADS>>>(src[0], dst, D, H, W, ZS);
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) { fprintf(stderr, "%s\n", cudaGetErrorString(e)); return 1; }
    cudaMemcpy(out.data(), dst, n * 4, cudaMemcpyDeviceToHost);
    size_t bad = 0, first = n;
    for (size_t i = 0; i < n; ++i) if (out[i] != ref[i]) { if (!bad) first = i; ++bad; }
    printf("D=%d H=%d W=%d ZS=%d grid %dx%dx%d: %zu of %zu samples differ from the CPU reference", D, H, W, ZS,
           grid.x, grid.y, grid.z, bad, n);
    if (bad) printf(" (first at %zu: %d, want %d)", first, out[first], ref[first]);
    printf("\n");
    cudaEvent_t a, b;
    cudaEventCreate(&a); cudaEventCreate(&b);
    std::vector<float> ms;
    for (int r = 0; r < 45; ++r) {
        cudaEventRecord(a);
        onepass<<<grid, THREADS>>>(src[r & 1], dst, D, H, W, ZS);
        cudaEventRecord(b);
        cudaEventSynchronize(b);
        float t; cudaEventElapsedTime(&t, a, b);
        if (r >= 5) ms.push_back(t);
    }
    std::sort(ms.begin(), ms.end());
    // A copy of the same bytes for the roofline.
    std::vector<float> cp;
    for (int r = 0; r < 25; ++r) {
        cudaEventRecord(a);
        cudaMemcpyAsync(dst, src[r & 1], n * 4, cudaMemcpyDeviceToDevice);
        cudaEventRecord(b);
        cudaEventSynchronize(b);
        float t; cudaEventElapsedTime(&t, a, b);
        if (r >= 5) cp.push_back(t);
    }
    std::sort(cp.begin(), cp.end());
    printf("one pass: median %.4f ms (min %.4f); copy of the volume: median %.4f ms; one pass / copy = %.2f\n",
           ms[ms.size() / 2], ms[0], cp[cp.size() / 2], ms[ms.size() / 2] / cp[cp.size() / 2]);
    return 0;
}

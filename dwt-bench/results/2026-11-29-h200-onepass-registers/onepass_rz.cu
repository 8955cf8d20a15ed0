// A hand-written prototype, not the library: one level of LeGall 5/3's 3-D forward (i32, Mallat,
// VC-2 semantics: pre-shift by 1, rows, columns, then depth) in ONE pass, with the depth lifting
// in registers. Each group owns an x-y tile of TX x TY samples and a segment of ZS planes (two
// planes of margin before it and one after where the volume goes on). Per plane: the tile with a
// halo of 2 arrives by cp.async into one of two buffers (the next plane's load is in flight
// while this one is lifted); the rows lift in register segments of 16 into a second array; each
// work-item then lifts a column segment of SY samples in registers, and those SY samples are
// its own along z too: the z-steps run in registers (no barrier), and each finished sample is
// stored to its subband place. Two barriers a plane.
// Usage: onepass_rz D H W ZS in.raw ref.raw [reps]   (ref = `dwt transform -b cpu -w LeGall53
// -l 1 --shape D,H,W --dtype i32 --layout mallat in.raw ref.raw`)
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>

#ifndef TX
#define TX 64
#endif
#ifndef SY
#define SY 8
#endif
#ifndef MINB
#define MINB 4
#endif
#ifndef NSTAGE
#define NSTAGE 2
#endif
#define THREADS 256
#define ROWSEG (THREADS / TX)
#define TY (ROWSEG * SY)
#ifndef VEC
#define VEC 0
#endif
// VEC: the tile's rows load in 16-byte chunks from a column that is a multiple of 4 (a halo
// of 4 before the tile), samples past the volume's edges one by one (reflected).
#define HX (VEC ? 4 : 2)
#define HY 2
#define LX (TX + 2 * HX)
#define LY (TY + 2 * HY)
#ifndef XWARP
#define XWARP 0
#endif
// Odd, so that the row-segment pass's lanes (consecutive rows) meet no bank twice; even for
// the warp-per-row pass, whose lanes read (even, odd) pairs of one row.
#define PITCH (VEC ? LX : XWARP ? LX + 2 : LX + 1)
#define CHUNKS (LX / 4)
#ifndef XSEG
#define XSEG 16
#endif
#define NXSEG (TX / XSEG)
#define XITEMS (LY * NXSEG)
#define NCOLQ ((LX + 31) / 32)
#define NROWQ ((LY + 7) / 8)

__device__ __forceinline__ int refl(int i, int n) {
    i = i < 0 ? -i : i;
    i = i >= n ? 2 * n - 2 - i : i;
    return min(max(i, 0), n - 1);
}

__device__ __forceinline__ void cp_async4(int* smem, const int* gmem) {
    unsigned s = (unsigned)__cvta_generic_to_shared(smem);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(s), "l"(gmem) : "memory");
}
__device__ __forceinline__ void cp_async16(int* smem, const int* gmem) {
    unsigned s = (unsigned)__cvta_generic_to_shared(smem);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(s), "l"(gmem) : "memory");
}
__device__ __forceinline__ void cp_commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }
// Until at most NSTAGE - 2 load groups are still in flight (the current plane's has landed).
__device__ __forceinline__ void cp_wait_current() {
    asm volatile("cp.async.wait_group %0;" ::"n"(NSTAGE - 2) : "memory");
}

__global__ __launch_bounds__(THREADS, MINB) void onepass_rz(const int* __restrict__ src,
                                                          int* __restrict__ dst, int D, int H,
                                                          int W, int ZS) {
    __shared__ __align__(16) int t[NSTAGE][LY * PITCH];
    __shared__ __align__(16) int u[LY][TX];
    const int tid = threadIdx.x;
    const int x0 = blockIdx.x * TX, y0 = blockIdx.y * TY;
    const int seg_lo = blockIdx.z * ZS, seg_hi = min(seg_lo + ZS, D);
    const int r0 = max(seg_lo - 2, 0), r1 = min(seg_hi + 1, D);
    const size_t plane = (size_t)H * W;
    // This work-item's loads, the same places in every plane: rows warp, warp + 8, ... of the
    // tile, columns lane, lane + 32, ... (reflected at the volume's edges).
    const int lane = tid & 31, warp = tid >> 5;
    int gxo[NCOLQ], gyo[NROWQ];
#pragma unroll
    for (int q = 0; q < NCOLQ; ++q) gxo[q] = refl(x0 - HX + lane + 32 * q, W);
#pragma unroll
    for (int q = 0; q < NROWQ; ++q) gyo[q] = refl(y0 - HY + warp + 8 * q, H) * W;
#if VEC
    static_assert(XWARP && PITCH % 4 == 0, "16-byte rows need the warp-per-row pass");
    // Whether the tile's chunks all lie inside the rows (else the edge columns one by one).
    const bool inner_x = (W & 3) == 0 && x0 - HX >= 0 && x0 - HX + LX <= W;
    auto load = [&](int p, int b) {
        const int* sp = src + (size_t)p * plane;
        int* tb = t[b];
        if (inner_x) {
            for (int s = tid; s < LY * CHUNKS; s += THREADS) {
                const int ly = s / CHUNKS, cx = s - ly * CHUNKS;
                const int gy = refl(y0 - HY + ly, H);
                cp_async16(&tb[ly * PITCH + 4 * cx], sp + (size_t)gy * W + x0 - HX + 4 * cx);
            }
        } else {
#pragma unroll
            for (int qy = 0; qy < NROWQ; ++qy) {
                const int ly = warp + 8 * qy;
                if (ly < LY) {
#pragma unroll
                    for (int qx = 0; qx < NCOLQ; ++qx) {
                        const int lx = lane + 32 * qx;
                        if (lx < LX) cp_async4(&tb[ly * PITCH + lx], sp + gyo[qy] + gxo[qx]);
                    }
                }
            }
        }
        cp_commit();
    };
#else
    auto load = [&](int p, int b) {
        const int* sp = src + (size_t)p * plane;
#pragma unroll
        for (int qy = 0; qy < NROWQ; ++qy) {
            const int ly = warp + 8 * qy;
            if (ly < LY) {
#pragma unroll
                for (int qx = 0; qx < NCOLQ; ++qx) {
                    const int lx = lane + 32 * qx;
                    if (lx < LX) cp_async4(&t[b][ly * PITCH + lx], sp + gyo[qy] + gxo[qx]);
                }
            }
        }
        cp_commit();
    };
#endif
    // The column segment this work-item lifts along y and owns along z.
    const int c = tid % TX, rs = tid / TX;
    const int gx = x0 + c, gy0 = y0 + rs * SY;
    const int wl = (W + 1) / 2, hl = (H + 1) / 2, dl = (D + 1) / 2;
    const int mx = (gx & 1) ? wl + gx / 2 : gx / 2;
    int E[SY], O[SY], P[SY];
#pragma unroll
    for (int j = 0; j < SY; ++j) E[j] = O[j] = P[j] = 0;
    // Sample j of this work-item's column segment in plane z, where it is this group's (gy0 is
    // even: the even samples' rows are consecutive from gy0 / 2, the odd ones' from hl + gy0 / 2).
    const int rows_left = H - gy0;
    const bool all_rows = rows_left >= SY, column_in = gx < W;
    int* const even_at = dst + (size_t)(gy0 / 2) * W + mx;
    const size_t odd_rows = (size_t)hl * W;
    // Plane z's stores of `v` (an array of SY in registers, indexed by constants once unrolled).
#define STORE_PLANE(z, EXPR)                                                                   \
    do {                                                                                       \
        const int z_ = (z);                                                                    \
        if (z_ >= seg_lo && z_ < seg_hi && column_in) {                                        \
            int* const at_ = even_at + (size_t)((z_ & 1) ? dl + z_ / 2 : z_ / 2) * plane;      \
            _Pragma("unroll") for (int j = 0; j < SY; ++j) {                                   \
                if (all_rows || j < rows_left)                                                 \
                    at_[((j & 1) ? odd_rows : 0) + (size_t)(j >> 1) * W] = (EXPR);             \
            }                                                                                  \
        }                                                                                      \
    } while (0)
    // NSTAGE - 1 planes in flight: plane p + NSTAGE - 1 is issued once plane p has landed (an
    // empty group past the segment's end keeps the count of groups in flight right).
#pragma unroll
    for (int k = 0; k < NSTAGE - 1; ++k) {
        if (r0 + k < r1) load(r0 + k, k);
        else cp_commit();
    }
    // Planes in pairs from r0 (even): k is the plane's parity, known where the code is written.
    for (int pp = r0; pp < r1; pp += 2)
#pragma unroll
    for (int k = 0; k < 2; ++k) {
        const int p = pp + k;
        if (p >= r1) break;
        const int b = (p - r0) % NSTAGE;
        cp_wait_current();
        __syncthreads();
        const int ahead = p + NSTAGE - 1;
        if (ahead < r1) load(ahead, (ahead - r0) % NSTAGE);
        else cp_commit();
#if XWARP == 2
        // Rows: half a warp per row, lane q of the half the samples 4q..4q+3 (one 16-byte
        // read), neighbours by shuffles within the half.
        static_assert(VEC, "16-byte row reads need the 16-byte pitch");
        {
            const int q = lane & 15;
            for (int r = 2 * warp + (lane >> 4); r < LY; r += THREADS / 16) {
                const int* row = &t[b][r * PITCH];
                const int4 x = *reinterpret_cast<const int4*>(&row[HX + 4 * q]);
                int e0 = x.x << 1, o0 = x.y << 1, e1 = x.z << 1, o1 = x.w << 1;
                int en = __shfl_down_sync(0xffffffffu, e0, 1, 16);
                if (q == 15) en = row[HX + 64] << 1;
                o0 -= (e0 + e1 + 1) >> 1;
                o1 -= (e1 + en + 1) >> 1;
                int op = __shfl_up_sync(0xffffffffu, o1, 1, 16);
                if (q == 0) op = (row[HX - 1] << 1) - (((row[HX - 2] << 1) + e0 + 1) >> 1);
                e0 += (op + o0 + 2) >> 2;
                e1 += (o0 + o1 + 2) >> 2;
                *reinterpret_cast<int4*>(&u[r][4 * q]) = make_int4(e0, o0, e1, o1);
            }
        }
#elif XWARP
        // Rows: a warp per row, lane l the pair (2l, 2l + 1), neighbours by shuffles.
        static_assert(TX == 64, "the warp-per-row pass takes rows of 64");
        for (int r = warp; r < LY; r += THREADS / 32) {
            const int* row = &t[b][r * PITCH];
            const int2 q = *reinterpret_cast<const int2*>(&row[HX + 2 * lane]);
            int e = q.x << 1, o = q.y << 1;
            int en = __shfl_down_sync(0xffffffffu, e, 1);
            if (lane == 31) en = row[HX + 64] << 1;
            o -= (e + en + 1) >> 1;
            int op = __shfl_up_sync(0xffffffffu, o, 1);
            if (lane == 0) op = (row[HX - 1] << 1) - (((row[HX - 2] << 1) + e + 1) >> 1);
            e += (op + o + 2) >> 2;
            *reinterpret_cast<int2*>(&u[r][2 * lane]) = make_int2(e, o);
        }
#else
        // Rows: segments of XSEG samples, with the pre-shift as they are read.
        for (int i = tid; i < XITEMS; i += THREADS) {
            const int s = i / LY, r = i % LY;
            const int* row = &t[b][r * PITCH + HX + s * XSEG - 2];
            int v[XSEG + 3];
#pragma unroll
            for (int k = 0; k < XSEG + 3; ++k) v[k] = row[k] << 1;
#pragma unroll
            for (int k = 1; k < XSEG + 2; k += 2) v[k] -= (v[k - 1] + v[k + 1] + 1) >> 1;
#pragma unroll
            for (int k = 2; k < XSEG + 2; k += 2) v[k] += (v[k - 1] + v[k + 1] + 2) >> 2;
#pragma unroll
            for (int k = 0; k < XSEG; ++k) u[r][s * XSEG + k] = v[k + 2];
        }
#endif
        __syncthreads();
        // Columns: SY samples from row HY + rs * SY, with 2 above and 1 below.
        int w[SY + 3];
#pragma unroll
        for (int k = 0; k < SY + 3; ++k) w[k] = u[HY + rs * SY - 2 + k][c];
#pragma unroll
        for (int k = 1; k < SY + 2; k += 2) w[k] -= (w[k - 1] + w[k + 1] + 1) >> 1;
#pragma unroll
        for (int k = 2; k < SY + 2; k += 2) w[k] += (w[k - 1] + w[k + 1] + 2) >> 2;
        // Depth, in registers: on an even plane p the odd plane p - 1 is predicted and the even
        // plane p - 2 updated (the odd plane before it clamped at the volume's start).
        if (k == 0) {
            if (p >= r0 + 2) {
                const bool first = p - 2 == 0;
#pragma unroll
                for (int j = 0; j < SY; ++j) {
                    const int of = P[j] - ((E[j] + w[j + 2] + 1) >> 1);
                    E[j] += ((first ? of : O[j]) + of + 2) >> 2;
                    O[j] = of;
                }
                STORE_PLANE(p - 2, E[j]);
                STORE_PLANE(p - 1, O[j]);
            }
#pragma unroll
            for (int j = 0; j < SY; ++j) E[j] = w[j + 2];
        } else {
#pragma unroll
            for (int j = 0; j < SY; ++j) P[j] = w[j + 2];
        }
    }
    if (r1 == D) {
        // The volume's end: D even, predict D - 1 (the even after it clamped to D - 2) and
        // update D - 2; D odd, update D - 1 (the odd after it clamped to D - 2).
        if ((D & 1) == 0) {
#pragma unroll
            for (int j = 0; j < SY; ++j) {
                const int of = P[j] - ((E[j] + E[j] + 1) >> 1);
                E[j] += ((D - 2 == 0 ? of : O[j]) + of + 2) >> 2;
                O[j] = of;
            }
            STORE_PLANE(D - 2, E[j]);
            STORE_PLANE(D - 1, O[j]);
        } else {
#pragma unroll
            for (int j = 0; j < SY; ++j) E[j] += (O[j] + O[j] + 2) >> 2;
            STORE_PLANE(D - 1, E[j]);
        }
    }
}

__global__ void copy_kernel(const int4* __restrict__ s, int4* __restrict__ d, size_t n) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        d[i] = s[i];
}

int main(int argc, char** argv) {
    if (argc < 7) { fprintf(stderr, "usage: onepass_rz D H W ZS in.raw ref.raw [reps]\n"); return 2; }
    const int D = atoi(argv[1]), H = atoi(argv[2]), W = atoi(argv[3]), ZS = atoi(argv[4]);
    const int reps = argc > 7 ? atoi(argv[7]) : 0;
    if (ZS % 2) { fprintf(stderr, "ZS must be even\n"); return 2; }
    const size_t n = (size_t)D * H * W;
    std::vector<int> in(n), ref(n), out(n);
    FILE* f = fopen(argv[5], "rb");
    if (!f || fread(in.data(), 4, n, f) != n) { fprintf(stderr, "cannot read %s\n", argv[5]); return 1; }
    fclose(f);
    f = fopen(argv[6], "rb");
    if (!f || fread(ref.data(), 4, n, f) != n) { fprintf(stderr, "cannot read %s\n", argv[6]); return 1; }
    fclose(f);
    const int NB = 3;  // buffers rotated
    int *src[NB], *dst[NB];
    for (int i = 0; i < NB; ++i) {
        cudaMalloc(&src[i], n * 4); cudaMalloc(&dst[i], n * 4);
        cudaMemcpy(src[i], in.data(), n * 4, cudaMemcpyHostToDevice);
        cudaMemset(dst[i], 0x7f, n * 4);
    }
    dim3 grid((W + TX - 1) / TX, (H + TY - 1) / TY, (D + ZS - 1) / ZS);
    onepass_rz<<<grid, THREADS>>>(src[0], dst[0], D, H, W, ZS);
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) { fprintf(stderr, "%s\n", cudaGetErrorString(e)); return 1; }
    cudaMemcpy(out.data(), dst[0], n * 4, cudaMemcpyDeviceToHost);
    size_t bad = 0, first = n;
    for (size_t i = 0; i < n; ++i) if (out[i] != ref[i]) { if (!bad) first = i; ++bad; }
    printf("TX=%d TY=%d SY=%d MINB=%d D=%d H=%d W=%d ZS=%d grid %dx%dx%d: %zu of %zu samples differ from the CPU reference",
           TX, TY, SY, MINB, D, H, W, ZS, grid.x, grid.y, grid.z, bad, n);
    if (bad) printf(" (first at %zu: %d, want %d)", first, out[first], ref[first]);
    printf("\n");
    if (reps == 0) return bad ? 1 : 0;
    cudaEvent_t a, b;
    cudaEventCreate(&a); cudaEventCreate(&b);
    std::vector<float> ms, cp;
    for (int r = 0; r < reps + 5; ++r) {
        cudaEventRecord(a);
        onepass_rz<<<grid, THREADS>>>(src[r % NB], dst[r % NB], D, H, W, ZS);
        cudaEventRecord(b);
        cudaEventSynchronize(b);
        float tm; cudaEventElapsedTime(&tm, a, b);
        if (r >= 5) ms.push_back(tm);
        cudaEventRecord(a);
        copy_kernel<<<132 * 16, 256>>>((const int4*)src[(r + 1) % NB], (int4*)dst[(r + 1) % NB], n / 4);
        cudaEventRecord(b);
        cudaEventSynchronize(b);
        cudaEventElapsedTime(&tm, a, b);
        if (r >= 5) cp.push_back(tm);
    }
    std::sort(ms.begin(), ms.end());
    std::sort(cp.begin(), cp.end());
    const double m = ms[ms.size() / 2], c = cp[cp.size() / 2];
    printf("one pass (registers): median %.4f ms (min %.4f); copy kernel of the volume: median %.4f ms (%.0f GB/s); one pass / copy = %.2f (%.1f%% of copy)\n",
           m, ms[0], c, 2.0 * n * 4 / (c * 1e6), m / c, 100.0 * c / m);
    return bad ? 1 : 0;
}

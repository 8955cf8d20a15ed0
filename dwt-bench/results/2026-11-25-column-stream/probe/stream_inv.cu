// ---- probe: Fidelity's i32 inverse as a group that streams down a strip of columns ----
// The tile kernel lifts each 48x32 tile with a halo of 7 indices per side along both axes and
// register segments of 16 with their own halos, so along y it reads about 1.9 samples from
// global memory and lifts about 1.2 per sample it writes. Here a group owns a strip of SW
// polyphase columns and SH rows per phase and walks down it SR rows per phase at a time: each
// work-item keeps one column line's window of raw even rows and once-lifted odd rows in
// registers, so along y every sample is read once and lifted once (but for a prologue of 14
// rows per strip); each chunk's rows then lift along x from shared memory (segments of SS with
// their halos) and leave through shared memory as 16-byte stores. Interior strips only: the
// harness compares what it writes with the emitted kernel's output. PERSIST: as many groups as
// fit at once, each taking strips in turn.
#include "stream_params.cuh"
#include "stream_inv_shape.cuh"
// PIPE: two buffers of each, so that one chunk's lifting along y, the last chunk's along x and
// the chunk before's store share one interval between barriers (one barrier per chunk).
#ifdef PIPE
#define NBUF 2
#else
#define NBUF 1
#endif
#define SMEM_BYTES (NBUF * 2 * SR * (INP + OUTP) * 4)
static_assert(LINES <= 256, "one work-item per column line");
static_assert(SW % SS == 0 && SH % SR == 0 && SW % 2 == 0, "whole segments and chunks");


extern "C" __global__ void __launch_bounds__(256, SB)
stream_inverse(int* nat, const int* __restrict__ src, const int cols, const int nx0, const int ny0, const int bx_lo, const int by_lo, const int sx, const int units) {
    extern __shared__ __align__(16) int sm[];
    int* const in_s = sm;                          // [NBUF][2 * SR][INP]
    int* const out_s = sm + NBUF * 2 * SR * INP;   // [NBUF][2 * SR][OUTP]
    const int tid = (int)threadIdx.x;
#include "stream_strip.cuh"
#include "stream_inv_line.cuh"
    const int chunks = SH / SR;
#ifdef PIPE
    for (int j = 0; j < chunks + 2; ++j) {
        const int yb = j & 1, xj = j - 1, xb = xj & 1, sj = j - 2, sb = sj & 1;
        const bool y_on = j < chunks, x_on = xj >= 0 && xj < chunks, s_on = sj >= 0;
#else
    for (int j = 0; j < chunks; ++j) {
        const int yb = 0, xj = j, xb = 0, sj = j, sb = 0;
        const bool y_on = true, x_on = true, s_on = true;
#endif
        if (y_on && liner) {
            int* const in_y = in_s + yb * 2 * SR * INP;
            #pragma unroll
            for (int i = 0; i < SR; ++i) { E[7 + i] = NE[i]; OA[7 + i] = NO[i]; }
            #pragma unroll
            for (int i = 0; i < SR; ++i) OA[7 + i] += STEP_A(E, i);
            #pragma unroll
            for (int i = 0; i < SR; ++i) {
                in_y[i * INP + tid] = E[i] - STEP_B(OA, i);
                in_y[(SR + i) * INP + tid] = OA[4 + i];
            }
            #pragma unroll
            for (int k = 0; k < 7; ++k) { E[k] = E[SR + k]; OA[k] = OA[SR + k]; }
#ifdef PIPE
            const int f = my0 + j * SR;
            if (j + 1 < chunks) {
                #pragma unroll
                for (int i = 0; i < SR; ++i) { NE[i] = esrc[(f + SR + 7 + i) * cols]; NO[i] = osrc[(f + SR + 3 + i) * cols]; }
            }
#endif
        }
#ifndef PIPE
        __syncthreads();
        if (liner && j + 1 < chunks) {
            const int f = my0 + j * SR;
            #pragma unroll
            for (int i = 0; i < SR; ++i) { NE[i] = esrc[(f + SR + 7 + i) * cols]; NO[i] = osrc[(f + SR + 3 + i) * cols]; }
        }
#endif
        // Along x: work-item (row r, segment m0) lifts indices [m0, m0 + SS) of that row.
        if (x_on) {
            const int* const in_x = in_s + xb * 2 * SR * INP;
            int* const out_x = out_s + xb * 2 * SR * OUTP;
            for (int t = tid; t < XITEMS; t += 256) {
                const int r = t % (2 * SR), m0 = (t / (2 * SR)) * SS;
                const int* const row = in_x + r * INP;
                int XE[SS + 14], XO[SS + 7];
                #pragma unroll
                for (int k = 0; k < SS + 14; ++k) XE[k] = row[m0 + k];
                #pragma unroll
                for (int k = 0; k < SS + 7; ++k) XO[k] = row[EL + m0 + k];
                #pragma unroll
                for (int k = 0; k < SS + 7; ++k) XO[k] += STEP_A(XE, k);
                #pragma unroll
                for (int i = 0; i < SS; i += 2) {
                    const int a = XE[i + 7] - STEP_B(XO, i), b = XE[i + 8] - STEP_B(XO, i + 1);
                    *(int4*)&out_x[r * OUTP + 2 * (m0 + i)] = make_int4(a, XO[i + 4], b, XO[i + 5]);
                }
            }
        }
#ifndef PIPE
        __syncthreads();
#endif
        if (s_on) {
            const int f = my0 + sj * SR;
            const int* const out_st = out_s + sb * 2 * SR * OUTP;
            for (int t = tid; t < 2 * SR * (SW / 2); t += 256) {
                const int r = t / (SW / 2), c = t % (SW / 2);
                const int row = r < SR ? 2 * (f + r) : 2 * (f + r - SR) + 1;
                *(int4*)(nat + (size_t)row * cols + 2 * mx0 + 4 * c) = *(const int4*)&out_st[r * OUTP + 4 * c];
            }
        }
#ifdef PIPE
        __syncthreads();
#endif
    }
    }
}

// ---- probe: Fidelity's i32 forward as a group that streams down a strip of columns ----
// The forward's counterpart of stream_inv.cu: a group owns a strip of SW polyphase columns and
// SH rows per phase and walks down it SR rows per phase at a time. Each chunk's 2 SR image rows
// (with 7 polyphase columns of halo per side) load into shared memory and lift along x
// (segments of SS with their halos); then each work-item takes one column line of the lifted
// rows and lifts it along y in a window of registers (raw odd rows, raw and once-lifted even
// rows), writing each subband sample once, 8 rows per phase behind the newest loaded row. The
// first two chunks (the 8 rows per phase above the strip, then its first 8) only fill the
// windows. Interior strips only; PERSIST: as many groups as fit at once, each taking strips in
// turn. The harness compares what it writes with the emitted kernel's output.
#ifndef SB
#define SB 3
#endif
#include "stream_params.cuh"
#define STREAM_FORWARD 1
#define STREAM_KERNEL stream_forward
#define NATW (2 * SW + 28)
#define INP (((NATW + 31) / 32) * 32 + 1)
#define XP (2 * SW + 1)
#define XITEMS (2 * SR * (SW / SS))
#define SMEM_BYTES 0
#define PF ((2 * SR * (NATW / 2) + 255) / 256)
static_assert(2 * SW <= 256 && SR == 8, "one work-item per column line; windows filled in two chunks");
static_assert(SW % SS == 0 && SH % SR == 0, "whole segments and chunks");

extern "C" __global__ void __launch_bounds__(256, SB)
stream_forward(int* out, const int* __restrict__ nat, const int cols, const int nx0, const int ny0, const int bx_lo, const int by_lo, const int sx, const int units) {
#ifdef ASYNC
    __shared__ int in_b[2][2 * SR][INP];
#else
    __shared__ int in_s[2 * SR][INP];
#endif
    __shared__ int x_s[2 * SR][XP];
    const int tid = (int)threadIdx.x;
#include "stream_strip.cuh"
    // Column line: x-phase 0 lines [0, SW), x-phase 1 [SW, 2 SW), the strip's own.
    const bool liner = tid < 2 * SW;
    const int px = tid >= SW;
    const int mx = mx0 + (px ? tid - SW : tid);
    int* const e_out = out + (px ? nx0 : 0) + mx;
    int* const o_out = out + ny0 * cols + (px ? nx0 : 0) + mx;
    const int* const row0 = nat + 2 * (mx0 - 7);
    int OR[SR + 8], ER[SR + 4], EB[SR + 8];
#ifndef ASYNC
    int2 pf[PF];
#endif
    const int f0 = my0 - 8, chunks = SH / SR + 2;
// ASYNC: the next chunk's rows copied into a second buffer with 4-byte cp.async (no registers).
#define COPY(f, b) \
    for (int t = tid; t < 2 * SR * NATW; t += 256) { \
        const int r = t / NATW, c = t % NATW; \
        const int row = r < SR ? 2 * ((f) + r) : 2 * ((f) + r - SR) + 1; \
        const unsigned dst = (unsigned)__cvta_generic_to_shared(&in_b[(b)][r][c]); \
        asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" :: "r"(dst), "l"(row0 + (size_t)row * cols + c) : "memory"); \
    } \
    asm volatile("cp.async.commit_group;" ::: "memory");
#define FETCH(f) \
    _Pragma("unroll") \
    for (int q = 0; q < PF; ++q) { \
        const int t = tid + 256 * q; \
        if (t < 2 * SR * (NATW / 2)) { \
            const int r = t / (NATW / 2), c = t % (NATW / 2); \
            const int row = r < SR ? 2 * ((f) + r) : 2 * ((f) + r - SR) + 1; \
            pf[q] = *(const int2*)(row0 + (size_t)row * cols + 2 * c); \
        } \
    }
#ifdef ASYNC
    COPY(f0, 0)
    for (int j = 0; j < chunks; ++j) {
        const int f = f0 + j * SR;
        asm volatile("cp.async.wait_all;" ::: "memory");
        __syncthreads();
        if (j + 1 < chunks) { COPY(f + SR, (j + 1) & 1) }
        int (*in_s)[INP] = in_b[j & 1];
#else
    FETCH(f0)
    for (int j = 0; j < chunks; ++j) {
        const int f = f0 + j * SR;
        #pragma unroll
        for (int q = 0; q < PF; ++q) {
            const int t = tid + 256 * q;
            if (t < 2 * SR * (NATW / 2)) {
                const int r = t / (NATW / 2), c = t % (NATW / 2);
                in_s[r][2 * c] = pf[q].x;
                in_s[r][2 * c + 1] = pf[q].y;
            }
        }
        __syncthreads();
        if (j + 1 < chunks) { FETCH(f + SR) }
#endif
        // Along x: work-item (row r, segment m0) lifts indices [m0, m0 + SS) of that row.
        for (int t = tid; t < XITEMS; t += 256) {
            const int r = t % (2 * SR), m0 = (t / (2 * SR)) * SS;
            const int* const row = in_s[r];
            int XE[SS + 7], XO[SS + 14];
            #pragma unroll
            for (int k = 0; k < SS + 14; ++k) XO[k] = row[2 * (m0 + k) + 1];
            #pragma unroll
            for (int k = 0; k < SS + 7; ++k) XE[k] = row[2 * (m0 + 4 + k)];
            #pragma unroll
            for (int k = 0; k < SS + 7; ++k) XE[k] += STEP_B(XO, k);
            #pragma unroll
            for (int i = 0; i < SS; ++i) {
                x_s[r][m0 + i] = XE[i + 3];
                x_s[r][SW + m0 + i] = XO[i + 7] - STEP_A(XE, i);
            }
        }
        __syncthreads();
        // Along y: rows [f, f + SR) per phase join the windows; rows [f - 8, f + SR - 8) leave.
        if (liner) {
            #pragma unroll
            for (int i = 0; i < SR; ++i) { ER[4 + i] = x_s[i][tid]; OR[8 + i] = x_s[SR + i][tid]; }
            #pragma unroll
            for (int i = 0; i < SR; ++i) EB[8 + i] = ER[i] + STEP_B(OR, i);
            if (j >= 2) {
                #pragma unroll
                for (int i = 0; i < SR; ++i) {
                    const int n = f - 8 + i;
                    e_out[(size_t)n * cols] = EB[4 + i];
                    o_out[(size_t)n * cols] = OR[i] - STEP_A(EB, i + 1);
                }
            }
            #pragma unroll
            for (int k = 0; k < 8; ++k) { OR[k] = OR[SR + k]; EB[k] = EB[SR + k]; }
            #pragma unroll
            for (int k = 0; k < 4; ++k) ER[k] = ER[SR + k];
        }
    }
    }
}

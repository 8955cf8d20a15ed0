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
// This is the revision of runs 1 and 2 (static shared memory, one buffer of each, two barriers a
// chunk), remade from its edits with SMEM_BYTES (0) added for the harness.
#include "stream_params.cuh"
#include "stream_inv_shape.cuh"
#define SMEM_BYTES 0

extern "C" __global__ void __launch_bounds__(256, SB)
stream_inverse(int* nat, const int* __restrict__ src, const int cols, const int nx0, const int ny0, const int bx_lo, const int by_lo, const int sx, const int units) {
    __shared__ int in_s[2 * SR][INP];
    __shared__ __align__(16) int out_s[2 * SR][OUTP];
    const int tid = (int)threadIdx.x;
#include "stream_strip.cuh"
#include "stream_inv_line.cuh"
    for (int f = my0; f < my0 + SH; f += SR) {
        if (liner) {
            #pragma unroll
            for (int i = 0; i < SR; ++i) { E[7 + i] = NE[i]; OA[7 + i] = NO[i]; }
            #pragma unroll
            for (int i = 0; i < SR; ++i) OA[7 + i] += STEP_A(E, i);
            #pragma unroll
            for (int i = 0; i < SR; ++i) {
                in_s[i][tid] = E[i] - STEP_B(OA, i);
                in_s[SR + i][tid] = OA[4 + i];
            }
            #pragma unroll
            for (int k = 0; k < 7; ++k) { E[k] = E[SR + k]; OA[k] = OA[SR + k]; }
        }
        __syncthreads();
        if (liner && f + SR < my0 + SH) {
            #pragma unroll
            for (int i = 0; i < SR; ++i) { NE[i] = esrc[(f + SR + 7 + i) * cols]; NO[i] = osrc[(f + SR + 3 + i) * cols]; }
        }
        // Along x: work-item (row r, segment m0) lifts indices [m0, m0 + SS) of that row.
        for (int t = tid; t < XITEMS; t += 256) {
            const int r = t % (2 * SR), m0 = (t / (2 * SR)) * SS;
            int XE[SS + 14], XO[SS + 7];
            #pragma unroll
            for (int k = 0; k < SS + 14; ++k) XE[k] = in_s[r][m0 + k];
            #pragma unroll
            for (int k = 0; k < SS + 7; ++k) XO[k] = in_s[r][EL + m0 + k];
            #pragma unroll
            for (int k = 0; k < SS + 7; ++k) XO[k] += STEP_A(XE, k);
            #pragma unroll
            for (int i = 0; i < SS; i += 2) {
                const int a = XE[i + 7] - STEP_B(XO, i), b = XE[i + 8] - STEP_B(XO, i + 1);
                *(int4*)&out_s[r][2 * (m0 + i)] = make_int4(a, XO[i + 4], b, XO[i + 5]);
            }
        }
        __syncthreads();
        for (int t = tid; t < 2 * SR * (SW / 2); t += 256) {
            const int r = t / (SW / 2), c = t % (SW / 2);
            const int row = r < SR ? 2 * (f + r) : 2 * (f + r - SR) + 1;
            *(int4*)(nat + (size_t)row * cols + 2 * mx0 + 4 * c) = *(const int4*)&out_s[r][4 * c];
        }
    }
}
}

// Prototype (hand-written, not emitted): CDF 5/3 f32 forward, levels 1 and 2 of a 2-D
// transform in one launch. Each group owns a QX x QY tile of level-2 polyphase indices and
// recomputes the level-1 margin its level-2 lifting reads (the neighbours compute it too), so
// that the level-1 low band never goes through memory. Inner tiles only: reads at the image's
// edges are clamped, so the tiles there are wrong; the harness compares away from the edges.
//
// Steps as the emitted kernels lift them (snapshots__cuda_cdf53_forward_f32_mallat.snap):
//   odd -= 1/2*(even[0] + even[1]); even += 1/4*(odd[-1] + odd[0]); even *= sqrt2, odd /= sqrt2.
//
// Shared memory holds the loaded natural rows (WY of them) with columns split by phase:
// slot k of the even half holds level-1 polyphase index m = A - 1 + k along x (A = 2*q0 - 2).

#ifndef QX
#define QX 16
#endif
#ifndef QY
#define QY 16
#endif
#ifndef SEG
#define SEG 4
#endif
#ifndef THREADS
#define THREADS 256
#endif

#define CX (2 * QX + 4)      // level-1 indices per phase along x the level-2 lifting reads
#define CY (2 * QY + 4)
#define KX (CX + 2)          // slots per phase along x (one before, one after)
#define WY (2 * CY + 4)      // natural rows loaded
#define OSLOT KX             // first odd slot
#define PITCH (2 * KX + 1)   // odd pitch: rows fall on different banks
#define SQ2 1.4142135f
#define ISQ2 0.70710677f

#define X1_TASKS (WY * (CX / SEG))
#define X1_ROUNDS ((X1_TASKS + THREADS - 1) / THREADS)
#define YL_TASKS (CX * (CY / SEG))
#define YL_ROUNDS ((YL_TASKS + THREADS - 1) / THREADS)
#define YH_TASKS ((2 * QX) * ((2 * QY) / SEG))
#define X2_TASKS (CY * (QX / SEG))
#define X2_ROUNDS ((X2_TASKS + THREADS - 1) / THREADS)
#define Y2_TASKS ((2 * QX) * (QY / SEG))

extern "C" __global__ void __launch_bounds__(THREADS)
fused2(const float* __restrict__ X, const int N,
       float* __restrict__ h1, const int n1,   // level-1 highs: 01, 10, 11 planes of n1 x n1
       float* __restrict__ ll2, float* __restrict__ h2, const int n2) {
    extern __shared__ float s[];
    const int tid = (int)threadIdx.x;
    const int q0x = (int)blockIdx.x * QX, q0y = (int)blockIdx.y * QY;
    const int Ax = 2 * q0x - 2, Ay = 2 * q0y - 2;
    const int Sx = 2 * Ax - 2, Sy = 2 * Ay - 2;
#ifdef MALLAT
    // h1 and h2 are one N x N buffer in the Mallat layout (rows N apart), as the plans write.
    const size_t rs1 = N, rs2 = N;
    const size_t o1_01 = n1, o1_10 = (size_t)n1 * N, o1_11 = (size_t)n1 * N + n1;
    const size_t o2_01 = n2, o2_10 = (size_t)n2 * N, o2_11 = (size_t)n2 * N + n2;
#else
    const size_t rs1 = n1, rs2 = n2;
    const size_t o1_01 = 0, o1_10 = (size_t)n1 * n1, o1_11 = 2 * (size_t)n1 * n1;
    const size_t o2_01 = 0, o2_10 = (size_t)n2 * n2, o2_11 = 2 * (size_t)n2 * n2;
#endif

    // Load: WY rows x KX pairs (even, odd), clamped (inner tiles never clamp).
    #pragma unroll 4
    for (int t = tid; t < WY * KX; t += THREADS) {
        const int r = t / KX, k = t % KX;
        const int y = min(max(Sy + r, 0), N - 1);
        const int x = min(max(Sx + 2 * k, 0), N - 2);
        const float2 v = *(const float2*)(X + (size_t)y * N + x);
        s[r * PITCH + k] = v.x;
        s[r * PITCH + OSLOT + k] = v.y;
    }
    __syncthreads();

    // Level 1 along x: every loaded row, segments of SEG indices per phase.
    {
        float kept[X1_ROUNDS][2 * SEG];
        #pragma unroll
        for (int rd = 0; rd < X1_ROUNDS; ++rd) {
            const int t = tid + rd * THREADS;
            if (t < X1_TASKS) {
                const int r = t % WY, j = t / WY;
                const float* row = s + r * PITCH;
                const int k0 = SEG * j;
                float e[SEG + 2], o[SEG + 1];
                #pragma unroll
                for (int i = 0; i < SEG + 2; ++i) e[i] = row[k0 + i];
                #pragma unroll
                for (int i = 0; i < SEG + 1; ++i) o[i] = row[OSLOT + k0 + i];
                #pragma unroll
                for (int i = 0; i < SEG + 1; ++i) o[i] = o[i] - 0.5f * (e[i] + e[i + 1]);
                #pragma unroll
                for (int i = 1; i < SEG + 1; ++i) e[i] = e[i] + 0.25f * (o[i - 1] + o[i]);
                #pragma unroll
                for (int i = 0; i < SEG; ++i) {
                    kept[rd][i] = SQ2 * e[i + 1];
                    kept[rd][SEG + i] = ISQ2 * o[i + 1];
                }
            }
        }
        __syncthreads();
        #pragma unroll
        for (int rd = 0; rd < X1_ROUNDS; ++rd) {
            const int t = tid + rd * THREADS;
            if (t < X1_TASKS) {
                const int r = t % WY, j = t / WY;
                float* row = s + r * PITCH;
                const int k0 = SEG * j;
                #pragma unroll
                for (int i = 0; i < SEG; ++i) {
                    row[k0 + 1 + i] = kept[rd][i];
                    row[OSLOT + k0 + 1 + i] = kept[rd][SEG + i];
                }
            }
        }
        __syncthreads();
    }

    // Level 1 along y. Low-x columns (every slot the level-2 lifting reads): the low rows stay in
    // shared memory, the interior high rows go to band 10. High-x columns: only the interior,
    // straight to bands 01 and 11.
    {
        float kept[YL_ROUNDS][SEG];
        #pragma unroll
        for (int rd = 0; rd < YL_ROUNDS; ++rd) {
            const int t = tid + rd * THREADS;
            if (t < YL_TASKS) {
                const int c = t % CX, j = t / CX;
                const int kx = c + 1;
                const int mx = Ax - 1 + kx;
                const int k0 = SEG * j;   // slot of m0 - 1 along y, m0 = Ay + SEG * j
                float e[SEG + 2], o[SEG + 1];
                #pragma unroll
                for (int i = 0; i < SEG + 2; ++i) e[i] = s[(2 * (k0 + i)) * PITCH + kx];
                #pragma unroll
                for (int i = 0; i < SEG + 1; ++i) o[i] = s[(2 * (k0 + i) + 1) * PITCH + kx];
                #pragma unroll
                for (int i = 0; i < SEG + 1; ++i) o[i] = o[i] - 0.5f * (e[i] + e[i + 1]);
                #pragma unroll
                for (int i = 1; i < SEG + 1; ++i) e[i] = e[i] + 0.25f * (o[i - 1] + o[i]);
                const bool in_x = kx >= 3 && kx < 3 + 2 * QX;
                #pragma unroll
                for (int i = 0; i < SEG; ++i) {
                    kept[rd][i] = SQ2 * e[i + 1];
                    const int my = Ay + k0 + i;
                    if (in_x && my >= 2 * q0y && my < 2 * q0y + 2 * QY) {
                        h1[o1_10 + (size_t)my * rs1 + mx] = ISQ2 * o[i + 1];
                    }
                }
            }
        }
        for (int t = tid; t < YH_TASKS; t += THREADS) {
            const int c = t % (2 * QX), j = t / (2 * QX);
            const int kx = OSLOT + 3 + c;
            const int mx = 2 * q0x + c;
            const int k0 = 2 + SEG * j;   // slot of m0 - 1, m0 = 2 * q0y + SEG * j
            float e[SEG + 2], o[SEG + 1];
            #pragma unroll
            for (int i = 0; i < SEG + 2; ++i) e[i] = s[(2 * (k0 + i)) * PITCH + kx];
            #pragma unroll
            for (int i = 0; i < SEG + 1; ++i) o[i] = s[(2 * (k0 + i) + 1) * PITCH + kx];
            #pragma unroll
            for (int i = 0; i < SEG + 1; ++i) o[i] = o[i] - 0.5f * (e[i] + e[i + 1]);
            #pragma unroll
            for (int i = 1; i < SEG + 1; ++i) e[i] = e[i] + 0.25f * (o[i - 1] + o[i]);
            #pragma unroll
            for (int i = 0; i < SEG; ++i) {
                const size_t at = (size_t)(2 * q0y + SEG * j + i) * rs1 + mx;
                h1[o1_01 + at] = SQ2 * e[i + 1];
                h1[o1_11 + at] = ISQ2 * o[i + 1];
            }
        }
        __syncthreads();
        #pragma unroll
        for (int rd = 0; rd < YL_ROUNDS; ++rd) {
            const int t = tid + rd * THREADS;
            if (t < YL_TASKS) {
                const int c = t % CX, j = t / CX;
                const int kx = c + 1;
                const int k0 = SEG * j;
                #pragma unroll
                for (int i = 0; i < SEG; ++i) s[(2 * (k0 + 1 + i)) * PITCH + kx] = kept[rd][i];
            }
        }
        __syncthreads();
    }

    // Level 2 along x, on the level-1 low band (even rows 2k, even slots k, k in [1, CX]):
    // level-2 index n sits at slot 2 (n - q0) + 3 (even phase) and 2 (n - q0) + 4 (odd).
    {
        float kept[X2_ROUNDS][2 * SEG];
        #pragma unroll
        for (int rd = 0; rd < X2_ROUNDS; ++rd) {
            const int t = tid + rd * THREADS;
            if (t < X2_TASKS) {
                const int ky = 1 + t % CY, j = t / CY;
                const float* row = s + (2 * ky) * PITCH;
                const int b = 2 * SEG * j;
                float e[SEG + 2], o[SEG + 1];
                #pragma unroll
                for (int i = 0; i < SEG + 2; ++i) e[i] = row[b + 2 * i + 1];
                #pragma unroll
                for (int i = 0; i < SEG + 1; ++i) o[i] = row[b + 2 * i + 2];
                #pragma unroll
                for (int i = 0; i < SEG + 1; ++i) o[i] = o[i] - 0.5f * (e[i] + e[i + 1]);
                #pragma unroll
                for (int i = 1; i < SEG + 1; ++i) e[i] = e[i] + 0.25f * (o[i - 1] + o[i]);
                #pragma unroll
                for (int i = 0; i < SEG; ++i) {
                    kept[rd][i] = SQ2 * e[i + 1];
                    kept[rd][SEG + i] = ISQ2 * o[i + 1];
                }
            }
        }
        __syncthreads();
        #pragma unroll
        for (int rd = 0; rd < X2_ROUNDS; ++rd) {
            const int t = tid + rd * THREADS;
            if (t < X2_TASKS) {
                const int ky = 1 + t % CY, j = t / CY;
                float* row = s + (2 * ky) * PITCH;
                const int b = 2 * SEG * j;
                #pragma unroll
                for (int i = 0; i < SEG; ++i) {
                    row[b + 2 * (i + 1) + 1] = kept[rd][i];
                    row[b + 2 * (i + 1) + 2] = kept[rd][SEG + i];
                }
            }
        }
        __syncthreads();
    }

    // Level 2 along y, straight to LL2 and the level-2 highs.
    for (int t = tid; t < Y2_TASKS; t += THREADS) {
        const int c = t % (2 * QX), j = t / (2 * QX);
        const int px = c & 1, nx = q0x + (c >> 1);
        const int kx = 2 * (c >> 1) + 3 + px;
        const int b = 2 * SEG * j;
        float e[SEG + 2], o[SEG + 1];
        #pragma unroll
        for (int i = 0; i < SEG + 2; ++i) e[i] = s[(2 * (b + 2 * i + 1)) * PITCH + kx];
        #pragma unroll
        for (int i = 0; i < SEG + 1; ++i) o[i] = s[(2 * (b + 2 * i + 2)) * PITCH + kx];
        #pragma unroll
        for (int i = 0; i < SEG + 1; ++i) o[i] = o[i] - 0.5f * (e[i] + e[i + 1]);
        #pragma unroll
        for (int i = 1; i < SEG + 1; ++i) e[i] = e[i] + 0.25f * (o[i - 1] + o[i]);
        #pragma unroll
        for (int i = 0; i < SEG; ++i) {
            const size_t at = (size_t)(q0y + SEG * j + i) * n2 + nx;
            const size_t bt = (size_t)(q0y + SEG * j + i) * rs2 + nx;
            if (px == 0) {
                ll2[at] = SQ2 * e[i + 1];
                h2[o2_10 + bt] = ISQ2 * o[i + 1];
            } else {
                h2[o2_01 + bt] = SQ2 * e[i + 1];
                h2[o2_11 + bt] = ISQ2 * o[i + 1];
            }
        }
    }
}

// ---- harness (probe): the emitted tile kernel on every tile and on its interior tiles (_a)
// against the column-stream probe on its interior strips, bit for bit where the probe writes,
// timed in rotation with a device-to-device copy; per-sample times make the grids comparable.
#include <cstdio>
#include <cstring>
#include <vector>
#include <algorithm>
#ifdef PERSIST
#define PERSISTED " (persistent)"
#else
#define PERSISTED ""
#endif
#ifdef PIPE
#define PIPED " (pipelined)"
#else
#define PIPED ""
#endif
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1);} } while (0)
static float med(std::vector<float> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; }
int main(int argc, char** argv) {
    const int n = argc > 1 ? atoi(argv[1]) : 8192, reps = 60;
    const int rows = n, cols = n, nx0 = (cols + 1) / 2, ny0 = (rows + 1) / 2, nx1 = cols / 2, ny1 = rows / 2;
    const size_t count = (size_t)rows * cols, bytes = count * sizeof(int);
    int *in, *ref, *a, *c0, *c1;
    CK(cudaMalloc(&in, bytes)); CK(cudaMalloc(&ref, bytes)); CK(cudaMalloc(&a, bytes)); CK(cudaMalloc(&c0, bytes)); CK(cudaMalloc(&c1, bytes));
    std::vector<int> h(count);
    srand(1);
    for (size_t i = 0; i < count; ++i) h[i] = rand() % 512 - 256;
    CK(cudaMemcpy(in, h.data(), bytes, cudaMemcpyHostToDevice));
    // The emitted kernel: every tile, and the tiles its inner branch takes (_a).
    const int gx = (nx0 + TX - 1) / TX, gy = (ny0 + TY - 1) / TY;
    const int bx_lo = (IXA + TX - 1) / TX, bx_hi = ((IXN ? nx1 : nx0) - IXB) / TX;
    const int by_lo = (IYA + TY - 1) / TY, by_hi = ((IYN ? ny1 : ny0) - IYB) / TY;
    const int ix = bx_hi - bx_lo + 1, iy = by_hi - by_lo + 1;
    auto full = [&](int* o) { BASE<<<dim3(gx, gy), THREADS>>>CALLIN rows, cols, 0, 1, cols, 0, 1, cols, nx0, ny0 * cols, ny0 * cols + nx0, 1, cols); };
    auto inner = [&](int* o) { BASE_a<<<dim3(ix, iy), THREADS>>>CALLIN rows, cols, 0, 1, cols, 0, 1, cols, nx0, ny0 * cols, ny0 * cols + nx0, 1, cols, bx_lo, by_lo); };
    // The probe: strips whose loads stay inside the band.
    const int sx = (std::min(nx1, nx0) - 8 - SW) / SW, sy = (std::min(ny1, ny0) - 8 - SH) / SH;
    CK(cudaFuncSetAttribute(STREAM_KERNEL, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM_BYTES));
#ifdef PERSIST
    int sms, per; CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, STREAM_KERNEL, 256, SMEM_BYTES));
    const int grid = std::min(sx * sy, sms * per);
    auto stream = [&](int* o) { STREAM_KERNEL<<<grid, 256, SMEM_BYTES>>>(o, in, cols, nx0, ny0, 1, 1, sx, sx * sy); };
#else
    auto stream = [&](int* o) { STREAM_KERNEL<<<dim3(sx, sy), 256, SMEM_BYTES>>>(o, in, cols, nx0, ny0, 1, 1, sx, sx * sy); };
#endif
    CK(cudaMemset(ref, 0, bytes)); full(ref); CK(cudaDeviceSynchronize()); CK(cudaGetLastError());
    std::vector<int> hr(count), hs(count);
    CK(cudaMemcpy(hr.data(), ref, bytes, cudaMemcpyDeviceToHost));
    // Where the probe writes: the natural samples of its strips (inverse), or their polyphase
    // indices in each of the four Mallat quadrants (forward).
    std::vector<size_t> at;
#ifdef STREAM_FORWARD
    for (int py = 0; py < 2; ++py) for (int px = 0; px < 2; ++px)
        for (int y = SH; y < SH * (1 + sy); ++y) for (int x = SW; x < SW * (1 + sx); ++x) at.push_back((size_t)(py * ny0 + y) * cols + px * nx0 + x);
#else
    for (int y = 2 * SH; y < 2 * SH * (1 + sy); ++y) for (int x = 2 * SW; x < 2 * SW * (1 + sx); ++x) at.push_back((size_t)y * cols + x);
#endif
    for (int pass = 0; pass < 2; ++pass) {
        // Two fills, so that a sample the probe leaves unwritten cannot match by chance.
        CK(cudaMemset(a, pass ? 0x55 : 0xaa, bytes)); stream(a); CK(cudaDeviceSynchronize()); CK(cudaGetLastError());
        CK(cudaMemcpy(hs.data(), a, bytes, cudaMemcpyDeviceToHost));
        size_t diff = 0, written = at.size();
        for (size_t i : at) diff += hs[i] != hr[i];
        printf("stream%s%s SW=%d SH=%d SR=%d SS=%d SB=%d: %dx%d strips: %zu samples, %zu differ from the emitted kernel's\n", PERSISTED, PIPED, SW, SH, SR, SS, SB, sx, sy, written, diff);
        if (diff) return 1;
    }
    const double share_stream = (double)at.size() / count;
    const double share_inner = (double)(2 * TX * ix) * (2 * TY * iy) / count;
    cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
    std::vector<float> tc, t[3];
    for (int r = 0; r < reps; ++r) {
        float ms;
        CK(cudaEventRecord(e0)); CK(cudaMemcpyAsync(c1, c0, bytes, cudaMemcpyDeviceToDevice)); CK(cudaEventRecord(e1));
        CK(cudaEventSynchronize(e1)); CK(cudaEventElapsedTime(&ms, e0, e1)); tc.push_back(ms);
        for (int k = 0; k < 3; ++k) {
            const int v = (k + r) % 3;
            CK(cudaEventRecord(e0)); if (v == 0) full(a); else if (v == 1) inner(a); else stream(a); CK(cudaEventRecord(e1));
            CK(cudaEventSynchronize(e1)); CK(cudaEventElapsedTime(&ms, e0, e1)); t[v].push_back(ms);
        }
    }
    const double c = med(tc);
    const double tf = med(t[0]), ti = med(t[1]) / share_inner, ts = med(t[2]) / share_stream;
    cudaFuncAttributes fa; CK(cudaFuncGetAttributes(&fa, STREAM_KERNEL)); int occ;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, STREAM_KERNEL, 256, SMEM_BYTES));
    printf("n=%d copy %.1f us | emitted, every tile %.1f us (%.1f%% of copy) | emitted, inner tiles %.1f us per image (%.1f%%) | stream %.1f us per image (%.1f%%, %.3f of inner) %dr %zuB local %d/SM\n",
           n, c * 1e3, tf * 1e3, 100 * c / tf, ti * 1e3, 100 * c / ti, ts * 1e3, 100 * c / ts, ts / ti, fa.numRegs, fa.localSizeBytes, occ);
    return 0;
}

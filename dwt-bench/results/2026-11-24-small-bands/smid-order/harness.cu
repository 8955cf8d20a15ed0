// Times an emitted fused forward (base) against its tile-order variants (gen.py) at n x n, one
// level, outputs compared bit for bit; copy = cudaMemcpy device to device of the same bytes.
#include KERNEL_FILE
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <algorithm>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1);} } while (0)
#define STR2(x) #x
#define STR(x) STR2(x)
static float med(std::vector<float> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; }
#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
int main(int argc, char** argv) {
    const int n = argc > 1 ? atoi(argv[1]) : 8192, reps = argc > 2 ? atoi(argv[2]) : 30;
    const int rows = n, cols = n, nx0 = (cols + 1) / 2, ny0 = (rows + 1) / 2;
    const size_t count = (size_t)rows * cols, bytes = count * sizeof(ELEM);
    std::vector<ELEM> h(count);
    srand(1);
    for (size_t i = 0; i < count; ++i) h[i] = (ELEM)(rand() % 4096 - 2048);
    ELEM *in, *outs[4];
    CK(cudaMalloc(&in, bytes));
    for (auto &o : outs) { CK(cudaMalloc(&o, bytes)); CK(cudaMemset(o, 0xff, bytes)); }
    CK(cudaMemcpy(in, h.data(), bytes, cudaMemcpyHostToDevice));
    const int tx = (nx0 + TILEX - 1) / TILEX, ty = (ny0 + TILEY - 1) / TILEY;
    int sms; CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    unsigned* ctr; CK(cudaMalloc(&ctr, 4096)); CK(cudaMemset(ctr, 0, 4096));
    cudaFuncAttributes fa; CK(cudaFuncGetAttributes(&fa, KERNEL));
    int occ; CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, KERNEL, 256, 0));
    printf("%s n=%d: %d regs, %zu B shared, %d groups/SM, %d SMs, %dx%d tiles\n", STR(KERNEL), n, fa.numRegs, fa.sharedSizeBytes, occ, sms, tx, ty);
    dim3 grid(tx, ty);
    auto run = [&](int v, ELEM* out) {
        switch (v) {
        case 0: KERNEL<<<grid, 256>>>(in, out, out, rows, cols, 0, 1, cols, 0, 1, cols, nx0, ny0 * cols, ny0 * cols + nx0, 1, cols); break;
        case 1: CAT(KERNEL, _col)<<<grid, 256>>>(in, out, out, rows, cols, 0, 1, cols, 0, 1, cols, nx0, ny0 * cols, ny0 * cols + nx0, 1, cols, ctr, tx, ty, sms); break;
        case 2: CAT(KERNEL, _smid)<<<grid, 256>>>(in, out, out, rows, cols, 0, 1, cols, 0, 1, cols, nx0, ny0 * cols, ny0 * cols + nx0, 1, cols, ctr, tx, ty, sms); break;
        case 3: CAT(KERNEL, _smrow)<<<grid, 256>>>(in, out, out, rows, cols, 0, 1, cols, 0, 1, cols, nx0, ny0 * cols, ny0 * cols + nx0, 1, cols, ctr, tx, ty, sms); break;
        }
    };
    const char* names[] = {"base", "col", "smid", "smrow"};
    for (int v = 0; v < 4; ++v) { run(v, outs[v]); CK(cudaGetLastError()); CK(cudaDeviceSynchronize()); }
    std::vector<ELEM> ha(count), hb(count);
    CK(cudaMemcpy(ha.data(), outs[0], bytes, cudaMemcpyDeviceToHost));
    for (int v = 1; v < 4; ++v) {
        CK(cudaMemcpy(hb.data(), outs[v], bytes, cudaMemcpyDeviceToHost));
        size_t diff = 0; for (size_t i = 0; i < count; ++i) diff += memcmp(&ha[i], &hb[i], sizeof(ELEM)) != 0;
        printf("  %s: %zu of %zu samples differ from base\n", names[v], diff, count);
        if (diff) return 1;
    }
    cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
    std::vector<float> tc; std::vector<std::vector<float>> t(4);
    for (int r = 0; r < reps; ++r) {
        float ms;
        CK(cudaEventRecord(e0)); CK(cudaMemcpyAsync(outs[0], in, bytes, cudaMemcpyDeviceToDevice)); CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1));
        CK(cudaEventElapsedTime(&ms, e0, e1)); tc.push_back(ms);
        for (int v = 0; v < 4; ++v) {
            CK(cudaEventRecord(e0)); run(v, outs[v]); CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1));
            CK(cudaEventElapsedTime(&ms, e0, e1)); t[v].push_back(ms);
        }
    }
    const double copy = med(tc);
    printf("  copy %.1f us (%.0f GB/s)\n", copy * 1e3, 2.0 * bytes / copy / 1e6);
    for (int v = 0; v < 4; ++v)
        printf("  %-5s %.1f us = %.1f%% of copy, /base %.3f\n", names[v], med(t[v]) * 1e3, 100.0 * copy / med(t[v]), med(t[v]) / med(t[0]));
    return 0;
}

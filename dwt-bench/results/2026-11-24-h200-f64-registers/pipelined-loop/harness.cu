// ---- harness (experiment) ----
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cstring>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1);} } while (0)
static float med(std::vector<float> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; }
int main(int argc, char** argv) {
    const int n = argc > 1 ? atoi(argv[1]) : 8192, reps = 30;
    const int rows = n, cols = n, nx0 = (cols + 1) / 2, ny0 = (rows + 1) / 2;
    const size_t count = (size_t)rows * cols, bytes = count * sizeof(ELEM);
    std::vector<ELEM> h(count);
    srand(1);
    for (size_t i = 0; i < count; ++i) h[i] = (ELEM)(rand() % 4096 - 2048) / (ELEM)(sizeof(ELEM) == 4 && (ELEM)0.5 != 0 ? 64 : 1);
    ELEM *in, *a, *b, *c0, *c1;
    CK(cudaMalloc(&in, bytes)); CK(cudaMalloc(&a, bytes)); CK(cudaMalloc(&b, bytes));
    CK(cudaMalloc(&c0, bytes)); CK(cudaMalloc(&c1, bytes));
    CK(cudaMemcpy(in, h.data(), bytes, cudaMemcpyHostToDevice));
    CK(cudaMemset(a, 0, bytes)); CK(cudaMemset(b, 0xff, bytes));
    const int tiles_x = (nx0 + TILEX - 1) / TILEX, tiles_y = (ny0 + TILEY - 1) / TILEY, ntiles = tiles_x * tiles_y;
    int sms; CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    int occ_base, occ_pipe;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ_base, KERNEL, 256, 0));
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ_pipe, KERNEL_pipe, 256, 0));
    cudaFuncAttributes fa, fb; CK(cudaFuncGetAttributes(&fa, KERNEL)); CK(cudaFuncGetAttributes(&fb, KERNEL_pipe));
    printf("%s n=%d: base %d regs %d groups/SM; pipe %d regs %zu smem %d groups/SM; %d SMs\n", "KERNEL", n, fa.numRegs, occ_base, fb.numRegs, fb.sharedSizeBytes, occ_pipe, sms);
    cudaStream_t s; CK(cudaStreamCreate(&s));
    auto base = [&](ELEM* out) {
        KERNEL<<<dim3(tiles_x, tiles_y), 256, 0, s>>>(in, out, out, rows, cols, 0, 1, cols, 0, 1, cols, nx0, ny0 * cols, ny0 * cols + nx0, 1, cols);
    };
    auto pipe = [&](ELEM* out, int groups) {
        KERNEL_pipe<<<groups, 256, 0, s>>>(in, out, out, rows, cols, 0, 1, cols, 0, 1, cols, nx0, ny0 * cols, ny0 * cols + nx0, 1, cols, tiles_x, ntiles);
    };
    base(a); CK(cudaStreamSynchronize(s)); CK(cudaGetLastError());
    std::vector<int> grids = {sms * occ_pipe, sms * occ_pipe * 2, sms * occ_pipe * 4};
    std::vector<ELEM> ha(count), hb(count);
    CK(cudaMemcpy(ha.data(), a, bytes, cudaMemcpyDeviceToHost));
    for (int g : grids) {
        CK(cudaMemset(b, 0xff, bytes));
        pipe(b, g); CK(cudaStreamSynchronize(s)); CK(cudaGetLastError());
        CK(cudaMemcpy(hb.data(), b, bytes, cudaMemcpyDeviceToHost));
        size_t diff = 0; for (size_t i = 0; i < count; ++i) diff += memcmp(&ha[i], &hb[i], sizeof(ELEM)) != 0;
        printf("  pipe grid %d: %zu of %zu samples differ from base\n", g, diff, count);
        if (diff) return 1;
    }
    cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
    std::vector<float> tc, tb; std::vector<std::vector<float>> tp(grids.size());
    for (int r = 0; r < reps; ++r) {
        float ms;
        CK(cudaEventRecord(e0, s)); CK(cudaMemcpyAsync(c1, c0, bytes, cudaMemcpyDeviceToDevice, s)); CK(cudaEventRecord(e1, s));
        CK(cudaEventSynchronize(e1)); CK(cudaEventElapsedTime(&ms, e0, e1)); tc.push_back(ms);
        CK(cudaEventRecord(e0, s)); base(a); CK(cudaEventRecord(e1, s));
        CK(cudaEventSynchronize(e1)); CK(cudaEventElapsedTime(&ms, e0, e1)); tb.push_back(ms);
        for (size_t g = 0; g < grids.size(); ++g) {
            CK(cudaEventRecord(e0, s)); pipe(b, grids[g]); CK(cudaEventRecord(e1, s));
            CK(cudaEventSynchronize(e1)); CK(cudaEventElapsedTime(&ms, e0, e1)); tp[g].push_back(ms);
        }
    }
    const double copy = med(tc);
    printf("  copy %.1f us (%.0f GB/s)\n", copy * 1e3, 2.0 * bytes / copy / 1e6);
    printf("  base %.1f us = %.1f%% of copy\n", med(tb) * 1e3, 100.0 * copy / med(tb));
    for (size_t g = 0; g < grids.size(); ++g)
        printf("  pipe grid %d: %.1f us = %.1f%% of copy, pipe/base %.3f\n", grids[g], med(tp[g]) * 1e3, 100.0 * copy / med(tp[g]), med(tp[g]) / med(tb));
    return 0;
}

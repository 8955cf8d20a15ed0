// ---- harness (experiment): the emitted forward tile kernel against its cluster variant ----
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cstring>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1);} } while (0)
static float med(std::vector<float> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; }
static int run(int n, int reps) {
    const int rows = n, cols = n, nx0 = (cols + 1) / 2, ny0 = (rows + 1) / 2;
    const size_t count = (size_t)rows * cols, bytes = count * sizeof(ELEM);
    std::vector<ELEM> h(count);
    srand(n);
    for (size_t i = 0; i < count; ++i) h[i] = (ELEM)(rand() % 4096 - 2048) / (ELEM)((ELEM)0.5 != 0 ? 64 : 1);
    ELEM *in, *a, *b, *c0, *c1;
    CK(cudaMalloc(&in, bytes)); CK(cudaMalloc(&a, bytes)); CK(cudaMalloc(&b, bytes));
    CK(cudaMalloc(&c0, bytes)); CK(cudaMalloc(&c1, bytes));
    CK(cudaMemcpy(in, h.data(), bytes, cudaMemcpyHostToDevice));
    CK(cudaMemset(a, 0, bytes)); CK(cudaMemset(b, 0xff, bytes));
    const int tiles_x = (nx0 + TILEX - 1) / TILEX, tiles_y = (ny0 + TILEY - 1) / TILEY;
    if (tiles_y % CLU) { printf("n=%d: %d tile rows, not a multiple of %d\n", n, tiles_y, CLU); return 1; }
    cudaStream_t s; CK(cudaStreamCreate(&s));
    auto base = [&](ELEM* out) {
        KERNEL<<<dim3(tiles_x, tiles_y), 256, 0, s>>>(in, out, out, rows, cols, 0, 1, cols, 0, 1, cols, nx0, ny0 * cols, ny0 * cols + nx0, 1, cols);
    };
    auto clu = [&](ELEM* out) {
        KERNEL_clu<<<dim3(tiles_x, tiles_y), 256, 0, s>>>(in, out, out, rows, cols, 0, 1, cols, 0, 1, cols, nx0, ny0 * cols, ny0 * cols + nx0, 1, cols);
    };
    base(a); CK(cudaStreamSynchronize(s)); CK(cudaGetLastError());
    clu(b); CK(cudaStreamSynchronize(s)); CK(cudaGetLastError());
    std::vector<ELEM> ha(count), hb(count);
    CK(cudaMemcpy(ha.data(), a, bytes, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hb.data(), b, bytes, cudaMemcpyDeviceToHost));
    size_t diff = 0; for (size_t i = 0; i < count; ++i) diff += memcmp(&ha[i], &hb[i], sizeof(ELEM)) != 0;
    printf("%s C=%d n=%d: %zu of %zu samples differ\n", "KERNEL", CLU, n, diff, count);
    if (diff) return 1;
    if (reps) {
        cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
        std::vector<float> tc, tb, tl;
        for (int r = 0; r < reps; ++r) {
            float ms;
            CK(cudaEventRecord(e0, s)); CK(cudaMemcpyAsync(c1, c0, bytes, cudaMemcpyDeviceToDevice, s)); CK(cudaEventRecord(e1, s));
            CK(cudaEventSynchronize(e1)); CK(cudaEventElapsedTime(&ms, e0, e1)); tc.push_back(ms);
            CK(cudaEventRecord(e0, s)); base(a); CK(cudaEventRecord(e1, s));
            CK(cudaEventSynchronize(e1)); CK(cudaEventElapsedTime(&ms, e0, e1)); tb.push_back(ms);
            CK(cudaEventRecord(e0, s)); clu(b); CK(cudaEventRecord(e1, s));
            CK(cudaEventSynchronize(e1)); CK(cudaEventElapsedTime(&ms, e0, e1)); tl.push_back(ms);
        }
        const double copy = med(tc);
        printf("  copy %.1f us; base %.1f us = %.1f%% of copy; cluster %.1f us = %.1f%% of copy; cluster/base %.3f\n",
               copy * 1e3, med(tb) * 1e3, 100.0 * copy / med(tb), med(tl) * 1e3, 100.0 * copy / med(tl), med(tl) / med(tb));
    }
    CK(cudaFree(in)); CK(cudaFree(a)); CK(cudaFree(b)); CK(cudaFree(c0)); CK(cudaFree(c1)); CK(cudaStreamDestroy(s));
    return 0;
}
int main() {
    int bad = 0;
    bad |= run(2304, 0);
    bad |= run(4096, 30);
    bad |= run(8192, 30);
    return bad;
}

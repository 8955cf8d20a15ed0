// ---- harness (probe): the tile kernel as emitted on every tile, and over the interior tiles with its edge code kept (_a) or cut (_b...) ----
#include <cstdio>
#include <cstring>
#include <vector>
#include <algorithm>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1);} } while (0)
static float med(std::vector<float> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; }
typedef void (*KI)(SIG, int, int, int, int, int, int, int, int, int, int, int, int, int, int, int);
struct V { const char* name; KI k; };
int main(int argc, char** argv) {
    const int n = argc > 1 ? atoi(argv[1]) : 8192, reps = 60;
    const int rows = n, cols = n, nx0 = (cols + 1) / 2, ny0 = (rows + 1) / 2, nx1 = cols / 2, ny1 = rows / 2;
    const size_t count = (size_t)rows * cols, bytes = count * sizeof(ELEM);
    ELEM *in, *o, *a, *b, *c0, *c1;
    CK(cudaMalloc(&in, bytes)); CK(cudaMalloc(&o, bytes)); CK(cudaMalloc(&a, bytes)); CK(cudaMalloc(&b, bytes)); CK(cudaMalloc(&c0, bytes)); CK(cudaMalloc(&c1, bytes));
    std::vector<ELEM> h(count);
    srand(1);
    for (size_t i = 0; i < count; ++i) h[i] = (ELEM)(rand() % 256 - 128);
    CK(cudaMemcpy(in, h.data(), bytes, cudaMemcpyHostToDevice));
    const int gx = (nx0 + TX - 1) / TX, gy = (ny0 + TY - 1) / TY;
    const int bx_lo = (IXA + TX - 1) / TX, bx_hi = ((IXN ? nx1 : nx0) - IXB) / TX;
    const int by_lo = (IYA + TY - 1) / TY, by_hi = ((IYN ? ny1 : ny0) - IYB) / TY;
    const int ix = bx_hi - bx_lo + 1, iy = by_hi - by_lo + 1;
    V vs[] = {VARIANTS};
    const int nv = NVAR;
    auto full = [&](ELEM* o) {
        BASE<<<dim3(gx, gy), THREADS>>>CALLIN rows, cols, 0, 1, cols, 0, 1, cols, nx0, ny0 * cols, ny0 * cols + nx0, 1, cols);
    };
    auto part = [&](const V& x, ELEM* o) {
        x.k<<<dim3(ix, iy), THREADS>>>CALLIN rows, cols, 0, 1, cols, 0, 1, cols, nx0, ny0 * cols, ny0 * cols + nx0, 1, cols, bx_lo, by_lo);
    };
    std::vector<ELEM> ha(count), hb(count);
    CK(cudaMemset(a, 0xff, bytes)); { ELEM* o = a; part(vs[0], o); } CK(cudaDeviceSynchronize()); CK(cudaGetLastError());
    CK(cudaMemcpy(ha.data(), a, bytes, cudaMemcpyDeviceToHost));
    for (int v = 1; v < nv; ++v) {
        CK(cudaMemset(b, 0xff, bytes)); { ELEM* o = b; part(vs[v], o); } CK(cudaDeviceSynchronize()); CK(cudaGetLastError());
        CK(cudaMemcpy(hb.data(), b, bytes, cudaMemcpyDeviceToHost));
        size_t diff = 0; for (size_t i = 0; i < count; ++i) diff += memcmp(&ha[i], &hb[i], sizeof(ELEM)) != 0;
        if (diff) { printf("%s differs from %s in %zu samples\n", vs[v].name, vs[0].name, diff); return 1; }
    }
    // The interior variants must write what the full kernel writes there.
    CK(cudaMemset(b, 0xff, bytes)); { ELEM* o = b; full(o); } CK(cudaDeviceSynchronize()); CK(cudaGetLastError());
    CK(cudaMemcpy(hb.data(), b, bytes, cudaMemcpyDeviceToHost));
    { size_t diff = 0, same = 0; for (size_t i = 0; i < count; ++i) { ELEM u = ha[i]; ELEM ff; memset(&ff, 0xff, sizeof ff); if (memcmp(&u, &ff, sizeof ff) != 0) { same++; diff += memcmp(&ha[i], &hb[i], sizeof(ELEM)) != 0; } }
      printf("interior %dx%d of %dx%d tiles; %zu samples written by _a, %zu differ from the full kernel's\n", ix, iy, gx, gy, same, diff); if (diff) return 1; }
    cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
    std::vector<float> tc; std::vector<std::vector<float>> t(nv + 1);
    for (int r = 0; r < reps; ++r) {
        float ms;
        CK(cudaEventRecord(e0)); CK(cudaMemcpyAsync(c1, c0, bytes, cudaMemcpyDeviceToDevice)); CK(cudaEventRecord(e1));
        CK(cudaEventSynchronize(e1)); CK(cudaEventElapsedTime(&ms, e0, e1)); tc.push_back(ms);
        for (int k = 0; k <= nv; ++k) {
            int v = (k + r) % (nv + 1);
            CK(cudaEventRecord(e0)); if (v == nv) full(a); else part(vs[v], a); CK(cudaEventRecord(e1));
            CK(cudaEventSynchronize(e1)); CK(cudaEventElapsedTime(&ms, e0, e1)); t[v].push_back(ms);
        }
    }
    double c = med(tc);
    printf("%s n=%d copy %.1f us; full grid %.1f us (%.1f%% of copy)\n", "BASE", n, c * 1e3, med(t[nv]) * 1e3, 100 * c / med(t[nv]));
    for (int v = 0; v < nv; ++v) {
        cudaFuncAttributes fa; CK(cudaFuncGetAttributes(&fa, vs[v].k)); int occ;
        CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, vs[v].k, THREADS, 0));
        printf("| %s | %.1f us | %.3f of _a | %dr %zuB local | %d/SM |\n", vs[v].name, med(t[v]) * 1e3, med(t[v]) / med(t[0]), fa.numRegs, fa.localSizeBytes, occ);
    }
    return 0;
}

// ---- harness (probe): tile kernel variants (other tiles, dynamic shared memory) against the emitted one, 8192^2 one level ----
#include <cstdio>
#include <cstring>
#include <vector>
#include <algorithm>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1);} } while (0)
static float med(std::vector<float> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; }
typedef void (*K)(SIG, int, int, int, int, int, int, int, int, int, int, int, int, int);
struct V { const char* name; K k; int tx, ty, threads, smem; };
int main(int argc, char** argv) {
    const int n = argc > 1 ? atoi(argv[1]) : 8192, reps = 60;
#include "harness_setup.cuh"
    V vs[] = {ENTRIES};
    const int nv = NV;
    for (int v = 0; v < nv; ++v) if (vs[v].smem) CK(cudaFuncSetAttribute(vs[v].k, cudaFuncAttributeMaxDynamicSharedMemorySize, vs[v].smem));
    auto run = [&](const V& x, ELEM* out) {
        const int gx = (nx0 + x.tx - 1) / x.tx, gy = (ny0 + x.ty - 1) / x.ty;
        x.k<<<dim3(gx, gy), x.threads, x.smem>>>CALL rows, cols, 0, 1, cols, 0, 1, cols, nx0, ny0 * cols, ny0 * cols + nx0, 1, cols);
    };
    std::vector<ELEM> ha(count), hb(count);
    run(vs[0], a); CK(cudaDeviceSynchronize()); CK(cudaGetLastError());
    CK(cudaMemcpy(ha.data(), a, bytes, cudaMemcpyDeviceToHost));
    for (int v = 1; v < nv; ++v) {
        CK(cudaMemset(b, 0xff, bytes)); run(vs[v], b); CK(cudaDeviceSynchronize()); CK(cudaGetLastError());
        CK(cudaMemcpy(hb.data(), b, bytes, cudaMemcpyDeviceToHost));
        size_t diff = 0; for (size_t i = 0; i < count; ++i) diff += memcmp(&ha[i], &hb[i], sizeof(ELEM)) != 0;
        if (diff) { printf("%s differs from base in %zu samples\n", vs[v].name, diff); return 1; }
    }
    cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
    std::vector<float> tc; std::vector<std::vector<float>> t(nv);
    for (int r = 0; r < reps; ++r) {
        float ms;
        CK(cudaEventRecord(e0)); CK(cudaMemcpyAsync(c1, c0, bytes, cudaMemcpyDeviceToDevice)); CK(cudaEventRecord(e1));
        CK(cudaEventSynchronize(e1)); CK(cudaEventElapsedTime(&ms, e0, e1)); tc.push_back(ms);
        for (int k = 0; k < nv; ++k) {
            int v = (k + r) % nv;
            CK(cudaEventRecord(e0)); run(vs[v], a); CK(cudaEventRecord(e1));
            CK(cudaEventSynchronize(e1)); CK(cudaEventElapsedTime(&ms, e0, e1)); t[v].push_back(ms);
        }
    }
    double c = med(tc);
    printf("%s n=%d copy %.1f us\n", vs[0].name, n, c * 1e3);
    for (int v = 0; v < nv; ++v) {
        cudaFuncAttributes fa; CK(cudaFuncGetAttributes(&fa, vs[v].k)); int o;
        CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&o, vs[v].k, vs[v].threads, vs[v].smem));
        printf("| %dx%d/%d | %.1f us | %.1f%% of copy | %.3f of base | %dr %zuB local %zuB static %dB dyn | %d/SM |\n", vs[v].tx, vs[v].ty, vs[v].threads, med(t[v]) * 1e3, 100 * c / med(t[v]), med(t[v]) / med(t[0]), fa.numRegs, fa.localSizeBytes, fa.sharedSizeBytes, vs[v].smem, o);
    }
    return 0;
}

// ---- harness (experiment): inverse tile kernel variants against the emitted one, 8192^2 one level ----
#include <cstdio>
#include <cstring>
#include <vector>
#include <algorithm>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1);} } while (0)
static float med(std::vector<float> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; }
typedef void (*K)(ELEM*, const ELEM*, const ELEM*, int, int, int, int, int, int, int, int, int, int, int, int, int);
int main() {
    const int n = 8192, reps = 60;
#include "harness_setup.cuh"
    const int tx = (nx0 + TXX - 1) / TXX, ty = (ny0 + TYY - 1) / TYY;
    const char* names[] = {"base", "ds", "dsr"};
    K ks[] = {KERNEL, KERNEL_ds, KERNEL_dsr};
    auto run = [&](K k, ELEM* out) {
        k<<<dim3(tx, ty), THREADS>>>(out, in, in, rows, cols, 0, 1, cols, 0, 1, cols, nx0, ny0 * cols, ny0 * cols + nx0, 1, cols);
    };
    std::vector<ELEM> ha(count), hb(count);
    run(ks[0], a); CK(cudaDeviceSynchronize()); CK(cudaGetLastError());
    CK(cudaMemcpy(ha.data(), a, bytes, cudaMemcpyDeviceToHost));
    for (int v : {1, 2}) {
        CK(cudaMemset(b, 0xff, bytes)); run(ks[v], b); CK(cudaDeviceSynchronize()); CK(cudaGetLastError());
        CK(cudaMemcpy(hb.data(), b, bytes, cudaMemcpyDeviceToHost));
        size_t diff = 0; for (size_t i = 0; i < count; ++i) diff += memcmp(&ha[i], &hb[i], sizeof(ELEM)) != 0;
        if (diff) { printf("%s: %s differs from base in %zu samples\n", "KERNEL", names[v], diff); return 1; }
    }
    cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
    std::vector<float> tc; std::vector<std::vector<float>> t(3);
    for (int r = 0; r < reps; ++r) {
        float ms;
        CK(cudaEventRecord(e0)); CK(cudaMemcpyAsync(c1, c0, bytes, cudaMemcpyDeviceToDevice)); CK(cudaEventRecord(e1));
        CK(cudaEventSynchronize(e1)); CK(cudaEventElapsedTime(&ms, e0, e1)); tc.push_back(ms);
        for (int v = 0; v < 3; ++v) {
            CK(cudaEventRecord(e0)); run(ks[v], a); CK(cudaEventRecord(e1));
            CK(cudaEventSynchronize(e1)); CK(cudaEventElapsedTime(&ms, e0, e1)); t[v].push_back(ms);
        }
    }
    double c = med(tc);
    printf("| %s %dx%d | copy %.1f us |", "KERNEL", TXX, TYY, c * 1e3);
    for (int v = 0; v < 3; ++v) {
        cudaFuncAttributes fa; CK(cudaFuncGetAttributes(&fa, ks[v])); int o;
        CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&o, ks[v], THREADS, 0));
        printf(" %s %.1f us %.1f%% (%dr %zuB local, %d/SM) |", names[v], med(t[v]) * 1e3, 100 * c / med(t[v]), fa.numRegs, fa.localSizeBytes, o);
    }
    printf("\n");
    return 0;
}

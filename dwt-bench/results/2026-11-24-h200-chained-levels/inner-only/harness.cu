// ---- harness (experiment): times one emitted 2-D tile kernel at 8192^2 (one level, Mallat, src->dst) ----
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1);} } while (0)
static float med(std::vector<float> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; }
int main(int argc, char** argv) {
    const int n = 8192, rows = n, cols = n, nx0 = (cols + 1) / 2, ny0 = (rows + 1) / 2;
    const size_t count = (size_t)rows * cols, bytes = count * sizeof(ELEM);
    ELEM *in[3], *out[3];
    for (int i = 0; i < 3; ++i) { CK(cudaMalloc(&in[i], bytes)); CK(cudaMalloc(&out[i], bytes)); CK(cudaMemset(in[i], 1, bytes)); }
    const int tiles_x = (nx0 + TILEX - 1) / TILEX, tiles_y = (ny0 + TILEY - 1) / TILEY;
    cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
    std::vector<float> t, tc;
    for (int r = 0; r < 60; ++r) {
        float ms;
        const int k = r % 3;
        CK(cudaEventRecord(e0)); CK(cudaMemcpyAsync(out[k], in[k], bytes, cudaMemcpyDeviceToDevice)); CK(cudaEventRecord(e1));
        CK(cudaEventSynchronize(e1)); CK(cudaEventElapsedTime(&ms, e0, e1)); if (r >= 3) tc.push_back(ms);
        CK(cudaEventRecord(e0));
        KERNEL<<<dim3(tiles_x, tiles_y), 256>>>(FWD ? in[k] : out[k], FWD ? out[k] : in[k], FWD ? out[k] : in[k], rows, cols, 0, 1, cols, 0, 1, cols, nx0, ny0 * cols, ny0 * cols + nx0, 1, cols);
        CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1)); CK(cudaGetLastError());
        CK(cudaEventElapsedTime(&ms, e0, e1)); if (r >= 3) t.push_back(ms);
    }
    printf("%-40s %s: %.1f us, %.1f%% of copy\n", argv[0], FWD ? "fwd" : "inv", med(t) * 1e3, 100.0 * med(tc) / med(t));
    return 0;
}

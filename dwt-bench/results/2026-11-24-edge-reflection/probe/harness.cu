// Where a fused tile's time goes: an emitted i16 tile kernel (KERNEL, forward or inverse) with clock64()
// stamps after each barrier (thread 0 of each group), launched on the band of each level of a
// 1920x1080 three-level transform alone. Phases: inner tiles load | x pass | y pass | store;
// edge tiles sources | load | x pass | y pass | store.
#ifndef KERNEL
#define KERNEL legall53_forward_i16_tile
#endif
#ifndef KERNEL_FILE
#define KERNEL_FILE "probe_kernel.cu"
#endif
#include KERNEL_FILE
#include <cstdio>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); return 1; } } while (0)
static float median(std::vector<float> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; }
int main() {
    const int W = 1920, H = 1080;
    short *src, *dst;
    CHECK(cudaMalloc(&src, W * H * 2)); CHECK(cudaMalloc(&dst, W * (H + 64) * 2));
    std::vector<short> h(W * H); unsigned x = 1; for (auto &v : h) { x ^= x << 13; x ^= x >> 17; x ^= x << 5; v = (short)((x & 255) - 128); }
    CHECK(cudaMemcpy(src, h.data(), W * H * 2, cudaMemcpyHostToDevice));
    cudaDeviceProp p; CHECK(cudaGetDeviceProperties(&p, 0));
    int clk_khz = 0; CHECK(cudaDeviceGetAttribute(&clk_khz, cudaDevAttrClockRate, 0));
    printf("%s, SM clock %d MHz (attribute)\n", p.name, clk_khz / 1000);
    cudaEvent_t a, b; CHECK(cudaEventCreate(&a)); CHECK(cudaEventCreate(&b));
    for (int level = 1; level <= 3; ++level) {
        const int rows = H >> (level - 1), cols = W >> (level - 1);
        const int nx0 = (cols + 1) / 2, ny0 = (rows + 1) / 2;
        dim3 grid((nx0 + 31) / 32, (ny0 + 15) / 16), block(256);
        auto launch = [&]() {
#ifdef INVERSE
            KERNEL<<<grid, block>>>(dst, src, src, rows, cols, 0, 1, W, 0, 1, W, nx0, ny0 * W, ny0 * W + nx0, 1, W);
#else
            KERNEL<<<grid, block>>>(src, dst, dst, rows, cols, 0, 1, W, 0, 1, W, nx0, ny0 * W, ny0 * W + nx0, 1, W);
#endif
        };
        for (int i = 0; i < 5; ++i) launch();
        CHECK(cudaDeviceSynchronize());
        std::vector<float> t;
        for (int i = 0; i < 50; ++i) { CHECK(cudaEventRecord(a)); launch(); CHECK(cudaEventRecord(b)); CHECK(cudaEventSynchronize(b)); float ms; CHECK(cudaEventElapsedTime(&ms, a, b)); t.push_back(ms); }
        launch(); CHECK(cudaDeviceSynchronize());
        const int n = grid.x * grid.y;
        static unsigned long long clk[4096][8], gt[4096][2]; static int info[4096];
        CHECK(cudaMemcpyFromSymbol(clk, g_clk, sizeof(clk))); CHECK(cudaMemcpyFromSymbol(gt, g_gt, sizeof(gt))); CHECK(cudaMemcpyFromSymbol(info, g_info, sizeof(info)));
        unsigned long long g0 = ~0ull, g1 = 0, last_start = 0;
        for (int i = 0; i < n; ++i) { g0 = std::min(g0, gt[i][0]); g1 = std::max(g1, gt[i][1]); last_start = std::max(last_start, gt[i][0]); }
        printf("\nlevel %d: band %dx%d, %d groups, kernel %.1f us (events, median of 50 plain launches); groups began over %.2f us, first begin to last end %.2f us (globaltimer)\n",
               level, cols, rows, n, 1e3 * median(t), (last_start - g0) * 1e-3, (g1 - g0) * 1e-3);
        for (int inner = 1; inner >= 0; --inner) {
#ifdef INVERSE
            const int phases = 4;
            const char *names_inner[] = {"y pass", "x pass", "x write", "store"}, *names_edge[] = {"y pass", "x pass", "x write", "store"};
#else
            const int phases = inner ? 4 : 5;
            const char *names_inner[] = {"load", "x pass", "y pass", "store"}, *names_edge[] = {"sources", "load", "x pass", "y pass", "store"};
#endif
            double sum[8] = {0}, mx[8] = {0}, tot = 0, totmax = 0; int cnt = 0;
            for (int i = 0; i < n; ++i) {
                if (((info[i] >> 8) & 1) != inner) continue;
                if ((info[i] & 255) != phases + 1) { printf("  group %d: %d stamps?\n", i, info[i] & 255); continue; }
                ++cnt;
                for (int k = 0; k < phases; ++k) { double d = (double)(clk[i][k + 1] - clk[i][k]); sum[k] += d; mx[k] = std::max(mx[k], d); }
                double d = (double)(clk[i][phases] - clk[i][0]); tot += d; totmax = std::max(totmax, d);
            }
            if (!cnt) continue;
            printf("  %s tiles (%d): whole %.0f cycles mean, %.0f max (%.2f us at the attribute clock);", inner ? "inner" : "edge", cnt, tot / cnt, totmax, totmax / (clk_khz * 1e-3));
            for (int k = 0; k < phases; ++k) printf(" %s %.0f/%.0f", inner ? names_inner[k] : names_edge[k], sum[k] / cnt, mx[k]);
            printf(" (mean/max cycles)\n");
        }
    }
    return 0;
}

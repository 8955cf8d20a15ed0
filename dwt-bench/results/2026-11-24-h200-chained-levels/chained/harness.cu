// ---- harness (experiment): three per-level launches (graph, programmatic dependents) against one chained kernel (graph) ----
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cstring>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1);} } while (0)
static float med(std::vector<float> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; }
static size_t bs(size_t n, int l) { for (int i = 0; i < l; ++i) n = (n + 1) / 2; return n; }
struct Lv { int buf[3]; int v[18]; int gx, gy; };
static int run(int H, int W, int L, int reps) {
    const size_t count = (size_t)H * W, bytes = count * sizeof(ELEM);
    std::vector<ELEM> h(count);
    srand(H + W);
    for (size_t i = 0; i < count; ++i) h[i] = (ELEM)(rand() % 4096 - 2048) / (ELEM)((ELEM)0.5 != 0 ? 64 : 1);
    std::vector<size_t> roff(L + 2, 0);  // band b >= 1 at roff[b]: a region per band, none reused
    for (int b = 1; b <= L; ++b) roff[b + 1] = roff[b] + bs(H, b) * bs(W, b);
    size_t scratch_n = roff[L + 1] + 16;
    ELEM *src, *a, *b, *sa, *sb; unsigned int* sync;
    CK(cudaMalloc(&src, bytes)); CK(cudaMalloc(&a, bytes)); CK(cudaMalloc(&b, bytes));
    CK(cudaMalloc(&sa, scratch_n * sizeof(ELEM))); CK(cudaMalloc(&sb, scratch_n * sizeof(ELEM)));
    CK(cudaMalloc(&sync, 4096)); CK(cudaMemset(sync, 0, 4096));
    CK(cudaMemcpy(src, h.data(), bytes, cudaMemcpyHostToDevice));
    CK(cudaMemset(a, 0, bytes)); CK(cudaMemset(b, 0xff, bytes));
    // levels as plan.rs's fused(): buffers 0 src, 1 data, 2 scratch
    std::vector<Lv> lv;
    int first = 0, off = 0;
    for (int l = 0; l < L; ++l) {
        Lv x{};
        int hh = (int)bs(H, l), ww = (int)bs(W, l);
        auto region = [&](int band) { return (int)roff[band]; };
        x.buf[0] = l == 0 ? 0 : 2;
        int nat_base = l == 0 ? 0 : region(l), nat_row = l == 0 ? W : ww;
        int low_base, low_row;
        if (l + 1 == L) { x.buf[1] = 1; low_base = 0; low_row = W; }
        else { x.buf[1] = 2; low_base = region(l + 1); low_row = (int)bs(W, l + 1); }
        x.buf[2] = 1;
        int hb = (hh + 1) / 2, wb = (ww + 1) / 2;
        x.gx = (wb + TILEX - 1) / TILEX; x.gy = (hb + TILEY - 1) / TILEY;
        int vals[18] = {x.gx, x.gy, first, off, hh, ww, nat_base, 1, nat_row, low_base, 1, low_row,
                        wb, hb * W, hb * W + wb, 1, W, 0};
        memcpy(x.v, vals, sizeof vals);
        first += x.gx * x.gy; off += x.gy;
        lv.push_back(x);
    }
    const int total = first;
    cudaStream_t s; CK(cudaStreamCreate(&s));
    auto base = [&](ELEM* out, ELEM* scr) {
        for (int l = 0; l < L; ++l) {
            ELEM* bufs[3] = {src, out, scr};
            const Lv& x = lv[l];
            const ELEM* nat = bufs[x.buf[0]]; ELEM* low = bufs[x.buf[1]]; ELEM* high = bufs[x.buf[2]];
            cudaLaunchConfig_t cfg = {}; cudaLaunchAttribute at[1];
            at[0].id = cudaLaunchAttributeProgrammaticStreamSerialization; at[0].val.programmaticStreamSerializationAllowed = 1;
            cfg.gridDim = dim3(x.gx, x.gy); cfg.blockDim = dim3(256); cfg.stream = s; cfg.attrs = at; cfg.numAttrs = l > 0;
            CK(cudaLaunchKernelEx(&cfg, KERNEL, nat, low, high, x.v[4], x.v[5], x.v[6], x.v[7], x.v[8], x.v[9], x.v[10], x.v[11], x.v[12], x.v[13], x.v[14], x.v[15], x.v[16]));
        }
    };
    auto chained = [&](ELEM* out, ELEM* scr) {
        chain_table t{};
        ELEM* bufs[3] = {src, out, scr};
        for (int l = 0; l < L; ++l) {
            t.l[l].nat = bufs[lv[l].buf[0]]; t.l[l].low = bufs[lv[l].buf[1]]; t.l[l].high = bufs[lv[l].buf[2]];
            memcpy(t.l[l].v, lv[l].v, sizeof lv[l].v);
        }
        t.total = total; t.n = L;
#ifdef CHAIN_MEMSET
        CK(cudaMemsetAsync(sync, 0, 4096, s));
#endif
        KERNEL_chain<<<total, 256, 0, s>>>(t, sync);
    };
    auto graph = [&](auto f, ELEM* out, ELEM* scr) {
        cudaGraph_t g; cudaGraphExec_t e;
        CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
        f(out, scr);
        CK(cudaStreamEndCapture(s, &g)); CK(cudaGraphInstantiate(&e, g, 0));
        return e;
    };
    cudaGraphExec_t ga = graph(base, a, sa), gb = graph(chained, b, sb);
    std::vector<ELEM> ha(count), hb(count);
    CK(cudaGraphLaunch(ga, s)); CK(cudaStreamSynchronize(s)); CK(cudaGetLastError());
    CK(cudaMemcpy(ha.data(), a, bytes, cudaMemcpyDeviceToHost));
    size_t worst = 0;
    for (int k = 0; k < 50; ++k) {  // every replay must give the same output (the counters reset)
        CK(cudaMemset(b, 0xff, bytes));
        CK(cudaGraphLaunch(gb, s)); CK(cudaStreamSynchronize(s)); CK(cudaGetLastError());
        CK(cudaMemcpy(hb.data(), b, bytes, cudaMemcpyDeviceToHost));
        size_t diff = 0; for (size_t i = 0; i < count; ++i) diff += memcmp(&ha[i], &hb[i], sizeof(ELEM)) != 0;
        worst = std::max(worst, diff);
    }
    printf("%s %dx%d L%d: %d tiles; worst of 50 replays: %zu of %zu samples differ\n", "KERNEL", W, H, L, total, worst, count);
    if (worst) return 1;
    if (reps) {
        cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
        std::vector<float> tb, tl;
        for (int r = 0; r < reps; ++r) {
            float ms;
            CK(cudaEventRecord(e0, s)); CK(cudaGraphLaunch(ga, s)); CK(cudaEventRecord(e1, s));
            CK(cudaEventSynchronize(e1)); CK(cudaEventElapsedTime(&ms, e0, e1)); tb.push_back(ms);
            CK(cudaEventRecord(e0, s)); CK(cudaGraphLaunch(gb, s)); CK(cudaEventRecord(e1, s));
            CK(cudaEventSynchronize(e1)); CK(cudaEventElapsedTime(&ms, e0, e1)); tl.push_back(ms);
        }
        printf("  per-level graph %.1f us; chained %.1f us; chained/per-level %.3f\n", med(tb) * 1e3, med(tl) * 1e3, med(tl) / med(tb));
    }
    return 0;
}
int main() {
    int bad = 0;
    bad |= run(1080, 1920, 3, 200);
    bad |= run(1080, 1920, 1, 200);
    bad |= run(1080, 1920, 5, 200);
    bad |= run(1024, 1024, 3, 200);
    bad |= run(4096, 4096, 3, 100);
    bad |= run(37, 203, 3, 0);
    return bad;
}

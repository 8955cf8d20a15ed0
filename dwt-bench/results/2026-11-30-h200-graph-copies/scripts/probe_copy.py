# Does a device-to-device copy captured in a CUDA graph (a memcpy node) run at the copy rate
# of a stream memcpy, and against a copy kernel? By default 512 MiB (the 512^3 i32 volume),
# 8 and 16 MiB; else the sizes in MiB given as arguments.
import sys
import cupy as cp, numpy as np
rt = cp.cuda.runtime
src_k = r'''
extern "C" __global__ void copy16(const int4* __restrict__ s, int4* __restrict__ d, long long n) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) d[i] = s[i];
}'''
k = cp.RawKernel(src_k, 'copy16')
sms = cp.cuda.Device().attributes['MultiProcessorCount']
def timeit(fn, s, reps=25):
    for _ in range(5): fn()
    s.synchronize()
    ts = []
    for _ in range(reps):
        a, b = cp.cuda.Event(), cp.cuda.Event()
        a.record(s); fn(); b.record(s); b.synchronize()
        ts.append(cp.cuda.get_elapsed_time(a, b))
    return float(np.median(ts))
for nbytes in [int(a) << 20 for a in sys.argv[1:]] or (512 << 20, 8 << 20, 16 << 20):
    bufs = [(cp.ones(nbytes // 4, cp.int32), cp.empty(nbytes // 4, cp.int32)) for _ in range(3)]
    s = cp.cuda.Stream(non_blocking=True)
    n16 = nbytes // 16
    grid = min((n16 + 255) // 256, sms * 8)
    def memcpy(i): src, dst = bufs[i]; rt.memcpyAsync(dst.data.ptr, src.data.ptr, nbytes, rt.memcpyDeviceToDevice, s.ptr)
    def kern(i): src, dst = bufs[i]; k((grid,), (256,), (src, dst, np.int64(n16)), stream=s)
    def graph(parts):
        gs = []
        for i in range(3):
            s.begin_capture()
            for p in parts: p(i)
            gs.append(s.end_capture())
        return gs
    state = {'i': 0}
    def rot(f):
        def g():
            state['i'] = (state['i'] + 1) % 3
            f(state['i'])
        return g
    r = {}
    r['stream memcpy'] = timeit(rot(memcpy), s)
    r['stream copy kernel'] = timeit(rot(kern), s)
    gm = graph([memcpy]); r['graph memcpy node'] = timeit(rot(lambda i: gm[i].launch(s)), s)
    gk = graph([kern]); r['graph copy kernel'] = timeit(rot(lambda i: gk[i].launch(s)), s)
    gmk = graph([memcpy, kern]); r['graph memcpy node + copy kernel'] = timeit(rot(lambda i: gmk[i].launch(s)), s)
    gkk = graph([kern, kern]); r['graph copy kernel x2'] = timeit(rot(lambda i: gkk[i].launch(s)), s)
    for name, ms in r.items():
        print(f"{nbytes >> 20:4d} MiB | {name:34s} | {ms*1000:9.1f} us | {2*nbytes/ms/1e6:7.0f} GB/s")

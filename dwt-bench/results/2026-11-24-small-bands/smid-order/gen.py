"""Experiment: the fused forward's tiles taken per multiprocessor (%smid) from a chunk of tiles
in column order, so that vertically neighbouring tiles run on one multiprocessor at about the
same time and their shared halo rows may hit in its L1 rather than cross the L2 again.
Made by text surgery on an emitted module; variants:
  col  - blocks remapped to column order (no smid, no atomics): order alone
  smid - a chunk per multiprocessor, column order inside it (atomics per block)
  smrow- a chunk per multiprocessor, row order inside it (the atomics' cost without the L1 reuse)
"""
import re, sys
src_path, out_path = sys.argv[1], sys.argv[2]
src = open(src_path).read()
lines = src.split('\n')
start = next(i for i, l in enumerate(lines) if re.search(r'_forward_(i32|f32|i16)_tile\(', l))
end = next(i for i in range(start, len(lines)) if lines[i] == '}')
k = lines[start:end + 1]
name = re.search(r'(\w+_tile)\(', k[0]).group(1)
TX = int(re.search(r'mx0 = \(int\)blockIdx.x \* (\d+);', '\n'.join(k)).group(1))
TY = int(re.search(r'my0 = \(int\)blockIdx.y \* (\d+);', '\n'.join(k)).group(1))
head = lines[start - 1]
out = ['\n'.join(lines[:end + 1])]
pick = {
 'col': """    const int lin = (int)blockIdx.x + (int)blockIdx.y * (int)gridDim.x;
    const int tile_ = lin;
""",
 'smid': None, 'smrow': None,
}
def chunked(colorder):
    return """    __shared__ int s_tile;
    if (threadIdx.x == 0) {
        unsigned sm; asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
        const int total = tiles_x * tiles_y;
        const int c = (int)(sm % (unsigned)nchunks);
        int got = -1;
        for (int i = 0; i < nchunks && got < 0; ++i) {
            const int cc = (c + i) % nchunks;
            const int b = (int)((long long)cc * total / nchunks), e = (int)((long long)(cc + 1) * total / nchunks);
            const int k = (int)atomicAdd(&ctr[cc], 1u);
            if (b + k < e) got = b + k;
        }
        s_tile = got;
        if (atomicAdd(&ctr[nchunks], 1u) == (unsigned)(total - 1)) {
            for (int i = 0; i <= nchunks; ++i) ctr[i] = 0;
            __threadfence();
        }
    }
    __syncthreads();
    const int tile_ = s_tile;
"""
for v in ['col', 'smid', 'smrow']:
    kk = list(k)
    kk[0] = kk[0].replace(name + '(', name + '_' + v + '(').replace(') {', ', unsigned* ctr, const int tiles_x, const int tiles_y, const int nchunks) {')
    body = '\n'.join(kk)
    sel = pick[v] if pick[v] else chunked(v == 'smid')
    if v in ('col', 'smid'):
        sel += f"    const int mx0 = (tile_ / tiles_y) * {TX};\n    const int my0 = (tile_ % tiles_y) * {TY};"
    else:
        sel += f"    const int mx0 = (tile_ % tiles_x) * {TX};\n    const int my0 = (tile_ / tiles_x) * {TY};"
    body = re.sub(r'    const int mx0 = \(int\)blockIdx.x \* \d+;\n    const int my0 = \(int\)blockIdx.y \* \d+;', lambda m: sel, body)
    assert 'blockIdx' not in body.split(sel)[-1] if False else True
    out.append(head + '\n' + body)
open(out_path, 'w').write('\n\n'.join(out) + f"""
#define KERNEL {name}
#define TILEX {TX}
#define TILEY {TY}
#define ELEM {'float' if '_f32_' in name else ('short' if '_i16_' in name else 'int')}
""")
print(name, TX, TY)

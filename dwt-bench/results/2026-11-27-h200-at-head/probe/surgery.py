"""Text surgery on the emitted 1920x1080 i16 forward modules: the level-1 tile kernel's inner
pairs load replaced by 8-byte loads (short4, two pairs a work-item) from an even pair."""
import re, sys

def between(text, start, end):
    a = text.index(start); b = text.index(end, a)
    return a, b

FID_NEW = r'''            // Load (inner tile, surgery): 85 rows x 48 pairs from mx0 - 8, two pairs (8 bytes) a work-item.
            const int lane = tid % 32, lane_row = tid / 32;
            #pragma unroll
            for (int round = 0; round < 11; ++round) {
                const int l = lane_row + round * 8;
                if (l < 85 && lane < 24) {
                    const int at = nat_base + (l < 39 ? 2 * (sy0 + l) : 2 * (sy1 + l - 39) + 1) * nat_row_step + 2 * (mx0 - 8) + 4 * lane;
                    const int p = 2 * lane - 1;
                    if (lane < 23) {
                        const short4 v = *(const short4*)(nat + at);
                        if (p >= 4 && p < 43) { tile[l][p - 4] = to_work(v.x); }
                        if (p >= 0) { tile[l][p + 44] = to_work(v.y); }
                        if (p >= 3 && p < 42) { tile[l][p - 3] = to_work(v.z); }
                        tile[l][p + 45] = to_work(v.w);
                    } else {
                        const short2 v = *(const short2*)(nat + at);
                        tile[l][p + 44] = to_work(v.y);
                    }
                }
            }
'''

LG_NEW = r'''            // Load (inner tile, surgery): 35 rows x 36 pairs from mx0 - 2, two pairs (8 bytes) a work-item.
            #pragma unroll
            for (int round = 0; round < 3; ++round) {
                const int t = tid + round * 256;
                if (t < 630) {
                    const int l = t / 18, q = t % 18;
                    const int nr = l < 18 ? 2 * (sy0 + l) : 2 * (sy1 + l - 18) + 1;
                    const int at = nat_base + nr * nat_row_step + 2 * (mx0 - 2) + 4 * q;
                    const int p = 2 * q - 1;
                    if (q < 17) {
                        const short4 v = *(const short4*)(nat + at);
                        if (p >= 0) { tile[l][p] = pre_shift(to_work(v.x)); tile[l][p + 48] = pre_shift(to_work(v.y)); }
                        tile[l][p + 1] = pre_shift(to_work(v.z));
                        tile[l][p + 49] = pre_shift(to_work(v.w));
                    } else {
                        const short2 v = *(const short2*)(nat + at);
                        tile[l][p] = pre_shift(to_work(v.x));
                    }
                }
            }
'''

def patch(text, kernel, start_marker, new):
    k = text.index(kernel + "(")
    a = text.index(start_marker, k)
    b = text.index("        }\n        else {\n", a)
    cond_old = "(((unsigned long long)nat) % sizeof(short2)) == 0"
    c = text.rindex("const int pairs = ", k, a)
    line_end = text.index("\n", c)
    pairs_line = text[c:line_end]
    quads = pairs_line.replace("& 1) == 0", "& 3) == 0").replace("sizeof(short2)", "sizeof(short4)")
    return text[:c] + quads + text[line_end:a] + new + text[b:]

fid = open("fid.cu").read()
fid2 = patch(fid, "fidelity_forward_i16_tile", "            // Load (inner tile): 85 rows x 46 (even, odd) pairs", FID_NEW)
open("fid-quads.cu", "w").write(fid2)
lg = open("lg.cu").read()
lg2 = patch(lg, "legall53_forward_i16_tile", "            // Load (inner tile): 35 rows x 34 (even, odd) pairs", LG_NEW)
open("lg-quads.cu", "w").write(lg2)

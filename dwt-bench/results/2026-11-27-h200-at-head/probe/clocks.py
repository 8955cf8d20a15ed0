"""Surgery: clock64 stamps at the phases of one kernel's inner tiles, or with --edge its edge
tiles (the else branch): the branch's start, after each barrier, its end. Per group into a
__device__ array `dbg`, a record of the stamp count (plus 100 for edge tiles), the stamps
after the start and the global timer (inner tiles; 0 for edge ones); clk.py reads them.

    python3 clocks.py SRC.cu KERNEL DST.cu [--edge]
"""
import re, sys

INNER = "    if (inner_x && inner_y) {\n"
ELSE = "\n    }\n    else {\n"


def instrument(text, kernel, edge=False):
    k = text.index(kernel + "(")
    inner = text.index(INNER, k)
    if edge:
        start = text.index(ELSE, inner) + len(ELSE)
        end = text.index("\n    }\n}\n", start)
    else:
        start = inner + len(INNER)
        end = text.index(ELSE, start)
    body = text[start:end]
    n = body.count("__syncthreads();")
    i = 0
    def sub(m):
        nonlocal i
        i += 1
        return m.group(0) + f"\n{m.group(1)}long long c{i} = clock64();"
    body = re.sub(r"( *)__syncthreads\(\);", sub, body)
    fin = n + 1
    store = ["        __syncthreads();", f"        long long c{fin} = clock64();",
             "        if (tid == 0) {",
             "            const int g = blockIdx.y * gridDim.x + blockIdx.x;",
             f"            long long* d = dbg + g * {fin + 2};"]
    if not edge:
        store.append("            unsigned long long gt; asm volatile(\"mov.u64 %0, %%globaltimer;\" : \"=l\"(gt));")
    store.append(f"            d[0] = {fin + (100 if edge else 0)};")
    for j in range(1, fin + 1):
        store.append(f"            d[{j}] = c{j} - c0;")
    store.append(f"            d[{fin + 1}] = {'0' if edge else '(long long)gt'};")
    store.append("        }")
    body = "        long long c0 = clock64();\n" + body + "\n" + "\n".join(store)
    out = text[:start] + body + text[end:]
    # the array, before the first kernel
    first = out.index('extern "C" __global__')
    return out[:first] + "__device__ long long dbg[65536];\n\n" + out[first:]


if __name__ == "__main__":
    src, kernel, dst = sys.argv[1:4]
    edge = sys.argv[4:] == ["--edge"]
    open(dst, "w").write(instrument(open(src).read(), kernel, edge))

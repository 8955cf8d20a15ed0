"""Surgery: clock64 stamps in one kernel's edge tiles (the else branch): start, after each barrier,
the end; records flagged 100 + stamps (clk.py reads flags 3..6, clk_edge.py 103..106)."""
import re, sys

def instrument(text, kernel):
    k = text.index(kernel + "(")
    inner = text.index("    if (inner_x && inner_y) {\n", k)
    start = text.index("\n    }\n    else {\n", inner) + len("\n    }\n    else {\n")
    end = text.index("\n    }\n}\n", start)
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
             f"            long long* d = dbg + g * {fin + 2};",
             f"            d[0] = {100 + fin};"]
    for j in range(1, fin + 1):
        store.append(f"            d[{j}] = c{j} - c0;")
    store.append(f"            d[{fin + 1}] = 0;")
    store.append("        }")
    body = "        long long c0 = clock64();\n" + body + "\n" + "\n".join(store)
    out = text[:start] + body + text[end:]
    first = out.index('extern "C" __global__')
    return out[:first] + "__device__ long long dbg[65536];\n\n" + out[first:]

if __name__ == "__main__":
    src, kernel, dst = sys.argv[1:4]
    open(dst, "w").write(instrument(open(src).read(), kernel))

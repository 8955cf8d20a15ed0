"""Surgery: an edge tile's batches of loads merged into one, every load before any store."""
import re, sys

def merge(text, kernel):
    k = text.index(kernel + "(")
    a = text.index("// Load (edge tile):", k)
    a = text.index("\n", a) + 1
    b = text.index("__syncthreads();", a)
    b = text.rindex("\n", 0, b) + 1
    section = text[a:b]
    blocks = []  # top-level "        {\n ... \n        }\n" blocks
    i = 0
    while True:
        s = section.find("        {\n", i)
        if s < 0:
            break
        e = section.index("\n        }\n", s) + len("\n        }\n")
        blocks.append(section[s:e])
        i = e
    loads, stores = [], []
    for blk in blocks:
        inner = blk[len("        {\n"):-len("        }\n")]
        lines = inner.split("\n")
        # loads: from "int vK;" through its closing "            }" ; stores: the rest
        j = 0
        while j < len(lines):
            if re.match(r"\s+int v\d+;$", lines[j]):
                end = j + 1
                while lines[end] != "            }":
                    end += 1
                loads.append("\n".join(lines[j:end + 1]))
                j = end + 1
            else:
                break
        stores.append("\n".join(lines[j:]))
    merged = "        {\n" + "\n".join(loads) + "\n" + "\n".join(stores) + "        }\n"
    return text[:a] + merged + text[b:], len(loads)

if __name__ == "__main__":
    src, dst = sys.argv[1], sys.argv[2]
    t = open(src).read()
    for kern in sys.argv[3:]:
        t, n = merge(t, kern)
        print(kern, n, "loads in one batch")
    open(dst, "w").write(t)

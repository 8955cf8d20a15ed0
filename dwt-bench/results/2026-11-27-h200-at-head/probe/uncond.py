"""Surgery: the rounds every work-item of the group takes (the group size is fixed) without the
bound check, so that ptxas sees straight-line loads; only the last round keeps it."""
import re, sys

def uncond(text, kernel, threads):
    k = text.index(kernel + "(")
    end = text.index('\nextern "C"', k) if '\nextern "C"' in text[k:] else len(text)
    body = text[k:end]
    # own rows: l = lane_row + round * 8, if (l < R)
    def own(m):
        rows = int(m.group(1))
        full = (rows - 7 + 7) // 8  # rounds with l <= 7 + 8 * round < rows for every lane_row <= 7
        full = max(r for r in range(0, 64) if 7 + 8 * r < rows) + 1
        return f"if (round < {full} || l < {rows})"
    body = re.sub(r"if \(l < (\d+)\)", own, body)
    def strided(m):
        total = int(m.group(1))
        if total // threads == 0:
            return m.group(0)
        return f"if (round < {total // threads} || t < {total})"
    body = re.sub(r"if \(t < (\d+)\)", strided, body)
    return text[:k] + body + text[end:]

if __name__ == "__main__":
    src, dst = sys.argv[1], sys.argv[2]
    t = open(src).read()
    for spec in sys.argv[3:]:
        kernel, threads = spec.split(":")
        t = uncond(t, kernel, int(threads))
    open(dst, "w").write(t)

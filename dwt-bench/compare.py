"""Joins a dwt-bench report and a peers.py report of the same run into a run folder's speed-up
tables (compare.md, compare-3d.md): per case, our src->dst and in-place medians, each peer's
faster mode, and the ratio. BENCHMARKS.md's current numbers come from summary.py, which reads
the reports with the functions here.

    python3 dwt-bench/compare.py dwt-bench.md peers.md
    python3 dwt-bench/compare.py --3d dwt-bench.md peers-3d.md   (the 3-D volumes)
"""
import re
import sys
from collections import namedtuple

PEER_WAVELET = {"Cdf97": "bior4.4", "Cdf53": "bior2.2", "HaarNoShift": "haar"}
# 3-D: ours and ptwt's on the same volume. HaarNoShift and LeGall53 are integer (i32), ptwt's
# haar and bior2.2 float (f32): the same bytes a sample; LeGall53 beside bior2.2 is for scale.
VOLUMES = [
    ("Cdf97", "bior4.4", "256^3"),
    ("Cdf97", "bior4.4", "512^3"),
    ("Cdf53", "bior2.2", "512^3"),
    ("HaarNoShift", "haar", "512^3"),
    ("LeGall53", "bior2.2", "512^3"),
]
# The rest of Table VI's wavelets (512^3), which no peer has.
VOLUMES_OURS_ONLY = [
    ("DeslauriersDubuc97", None, "512^3"),
    ("DeslauriersDubuc137", None, "512^3"),
    ("Daubechies97Integer", None, "512^3"),
    ("Fidelity", None, "512^3"),
]


def table_rows(path, pattern):
    """The groups of every line of a markdown report that `pattern` matches at its start."""
    pat = re.compile(pattern)
    for line in open(path):
        m = pat.match(line)
        if m:
            yield m.groups()


# A row of our report: median, element type, effective bandwidth, share of the copy's.
Ours = namedtuple("Ours", "ms ty bw share")


def ours(path):
    """(program, size, levels, direction, variant) -> Ours, of a dwt-bench report's transforms."""
    rows = {}
    for name, size, levels, d, ty, variant, ms, bw, share in table_rows(
        path,
        r"^\| (\w+) ([\dx^]+) L(\d) (fwd|inv) \| (\w+) \| ([^|]+?) \|[^|]*\| ([\d.]+) ms \|"
        r"[^|]*\|[^|]*\|[^|]*\| (\d+) GB/s \| ([\d.]+)% \|",
    ):
        rows[(name, size, int(levels), d, variant)] = Ours(float(ms), ty, int(bw), float(share))
    return rows


def peers(path):
    best = {}
    for peer, w, size, levels, d, mode, ms in table_rows(
        path, r"^\| (\w+) \| ([\w.]+) \| ([\dx^]+) \| (\d) \| (fwd|inv) \| (\w+) \| ([\d.]+) ms"
    ):
        key = (peer, w, size, int(levels), d)
        if key not in best or float(ms) < best[key][0]:
            best[key] = (float(ms), mode)
    return best


def main(ours_path, peers_path):
    o, p = ours(ours_path), peers(peers_path)
    print("| case | ours src->dst | ours in place | ptwt (best mode) | vs ptwt | pytorch_wavelets (best mode) | vs pytorch_wavelets |")
    print("|---|---|---|---|---|---|---|")
    for name, pw in PEER_WAVELET.items():
        for size in ["1920x1080", "4096x4096", "8192x8192"]:
            for levels in [1, 3]:
                for d in ["fwd", "inv"]:
                    mine = o.get((name, size, levels, d, "src->dst"))
                    if mine is None:
                        continue
                    inplace = o.get((name, size, levels, d, "in place"))
                    cells = [f"{name} ({pw}) {size} L{levels} {d}", f"{mine[0]:.4f} ms ({mine[1]})",
                             f"{inplace[0]:.4f} ms" if inplace else "-"]
                    for peer in ["ptwt", "pytorch_wavelets"]:
                        theirs = p.get((peer, pw, size, levels, d))
                        if theirs:
                            cells += [f"{theirs[0]:.3f} ms ({theirs[1]})", f"{theirs[0] / mine[0]:.1f}x"]
                        else:
                            cells += ["-", "-"]
                    print("| " + " | ".join(cells) + " |")


def main_3d(o, p):
    print("| case | ours src->dst | ours in place | ptwt (best mode) | vs ptwt |")
    print("|---|---|---|---|---|")
    for name, pw, size in VOLUMES:
        for d in ["fwd", "inv"]:
            mine = o.get((name, size, 3, d, "src->dst"))
            theirs = p.get(("ptwt", pw, size, 3, d))
            if mine is None or theirs is None:
                continue
            inplace = o.get((name, size, 3, d, "in place"))
            print(f"| {name} ({pw}) {size} L3 {d} | {mine[0]:.4f} ms ({mine[1]}) | "
                  f"{inplace[0]:.4f} ms | {theirs[0]:.3f} ms ({theirs[1]}) | {theirs[0] / mine[0]:.1f}x |")


if __name__ == "__main__":
    if "--3d" in sys.argv:
        args = [a for a in sys.argv[1:] if a != "--3d"]
        main_3d(ours(args[0]), peers(args[1]))
    else:
        main(*sys.argv[1:3])

"""Writes BENCHMARKS.md's current numbers from one full run's folder: the device, every 2-D case
of the issue (time, effective bandwidth, share of copy, speed-up over each peer), 3-D, the
passes apart, the small transforms against their floor, compile times, and where each target
stands, with the bound the copy bandwidth puts on the peers' ratios.

    python3 dwt-bench/summary.py RUN_FOLDER COMMAND          # the section, to stdout
    python3 dwt-bench/summary.py --write FILE RUN_FOLDER COMMAND
    python3 dwt-bench/summary.py --check FILE                # CI: FILE holds what RUN_FOLDER says

RUN_FOLDER holds what `full.sh` and `floor.cu` wrote in one call: dwt-bench.md, peers.md,
floor.md and device.txt. COMMAND is the call's command line, quoted into the section. In FILE
the section lies between a `<!-- summary.py RUN_FOLDER | COMMAND -->` line and `<!-- end
summary.py -->`: `--write` replaces it, `--check` fails where it is not what RUN_FOLDER gives
(numbers edited by hand, or a run folder changed without the file).
"""
import contextlib
import io
import re
import sys

from compare import PEER_WAVELET, VOLUMES, VOLUMES_OURS_ONLY, ours, peers

SIZES = ["1920x1080", "4096x4096", "8192x8192"]
PEERS = ["ptwt", "pytorch_wavelets"]
NAMES = {
    "Cdf97": "CDF 9/7",
    "Cdf53": "CDF 5/3",
    "LeGall53": "LeGall 5/3",
    "HaarNoShift": "Haar (no shift)",
    "HaarWithShift": "Haar (with shift)",
    "DeslauriersDubuc97": "Deslauriers-Dubuc (9,7)",
    "DeslauriersDubuc137": "Deslauriers-Dubuc (13,7)",
    "Daubechies97Integer": "Daubechies 9/7",
    "Fidelity": "Fidelity",
}
BYTES = {"i16": 2, "i32": 4, "f32": 4, "f64": 8}
# The targets.
SHARE_TARGET = 80.0
PEER_TARGET = 10.0


def section(path, heading):
    """The lines of the markdown section of `path` under `## heading...`, up to the next one."""
    out, on = [], False
    for line in open(path):
        if line.startswith("## "):
            on = line[3:].startswith(heading)
            continue
        if on:
            out.append(line.rstrip("\n"))
    return out


def header_value(path, key):
    """The value of a report's `- key: value` header line."""
    for line in open(path):
        if line.startswith(f"- {key}:"):
            return line.split(":", 1)[1].strip()
    return "?"


def copy_bandwidth(path):
    """GB/s of the largest device-to-device copy of the run."""
    copies = [re.match(r"^\| (\d+) MiB \| [\d.]+ ms \| (\d+) GB/s", line)
              for line in section(path, "Device-to-device copy")]
    return max((int(m.group(1)), int(m.group(2))) for m in copies if m)[1]


def floors(path):
    """(size, type, levels) -> us of the floor's graph of dependent copies (programmatic
    dependent launches where the floor has them)."""
    out = {}
    for line in open(path):
        m = re.match(r"^\| (\d+x\d+) (\w+) \| (\d) \| ([^|]*)\| [\d.]+ MB \| ([\d.]+) us", line)
        if m:
            size, ty, levels, kernels, us = m.groups()
            key = (size, ty, int(levels))
            if "programmatic" in kernels or key not in out:
                out[key] = float(us)
    return out


def image_bytes(size, ty):
    """One read and one write of the image: what any transform moves at the least (levels lifted
    in one kernel, as the pyramids lift Haar's, move no more)."""
    n = 1
    for d in size.replace("^3", "").split("x"):
        n *= int(d)
    if "^3" in size:
        n = n ** 3
    return 2 * BYTES[ty] * n


def main(folder, command):
    bench = f"{folder}/dwt-bench.md"
    rows = ours(bench)
    peer = peers(f"{folder}/peers.md")
    floor = floors(f"{folder}/floor.md")
    device = open(f"{folder}/device.txt").read().strip().splitlines()[-1]
    copy = copy_bandwidth(bench)
    programs = list(dict.fromkeys(k[0] for k in rows))
    p = print

    p(f"- Device: {header_value(bench, 'Device')}; `nvidia-smi`: {device}; NVRTC "
      f"{header_value(bench, 'NVRTC')}; peers: {header_value(f'{folder}/peers.md', 'Device').split('; ', 1)[-1]}.")
    p(f"- Command (one call on the GPU machine): `{command}`.")
    p(f"- Roofline: a device-to-device copy of 1 GiB, **{copy} GB/s** (bytes read + written).")
    p("- Our times: the default plan, source to destination, Mallat layout, data on the device, CUDA")
    p("  events around each call, median of 25 after warm-up, buffers rotated; every transform")
    p("  replayed as a CUDA graph. Effective bandwidth: one read and one write of the image")
    p("  over the time; share: that over the copy's. Peers: the faster of their `zero` and")
    p("  `symmetric` modes, float32, `torch.cuda.synchronize` around CUDA events, in the same call.")
    p("  Integer programs run i16 at 1920x1080 and i32 above; CDF 9/7 and 5/3 f32 (the peers: f32).")
    p()

    for size in SIZES:
        p(f"### 2-D, {size}")
        p()
        p("| program | levels | dir | type | time | effective BW | of copy | ptwt | vs ptwt | pytorch_wavelets | vs pytorch_wavelets |")
        p("|---|---|---|---|---|---|---|---|---|---|---|")
        for name in programs:
            for levels in [1, 3]:
                for d in ["fwd", "inv"]:
                    r = rows.get((name, size, levels, d, "src->dst"))
                    if r is None:
                        continue
                    ms, ty, bw, share = r
                    cells = [NAMES.get(name, name), str(levels), d, ty, f"{ms * 1000:.1f} us", f"{bw} GB/s", f"{share:.1f}%"]
                    for who in PEERS:
                        theirs = peer.get((who, PEER_WAVELET.get(name), size, levels, d))
                        cells += [f"{theirs[0]:.3f} ms", f"{theirs[0] / ms:.1f}x"] if theirs else ["-", "-"]
                    p("| " + " | ".join(cells) + " |")
        p()

    p("### 3-D, three levels")
    p()
    p("| program | size | dir | type | time | effective BW | of copy | ptwt | vs ptwt |")
    p("|---|---|---|---|---|---|---|---|---|")
    for name, pw, size in VOLUMES + VOLUMES_OURS_ONLY:
        for d in ["fwd", "inv"]:
            r = rows.get((name, size, 3, d, "src->dst"))
            if r is None:
                continue
            ms, ty, bw, share = r
            theirs = peer.get(("ptwt", pw, size, 3, d))
            tail = [f"{theirs[0]:.3f} ms ({pw})", f"{theirs[0] / ms:.1f}x"] if theirs else ["-", "-"]
            p("| " + " | ".join([NAMES.get(name, name), size, d, ty, f"{ms:.3f} ms", f"{bw} GB/s", f"{share:.1f}%"] + tail) + " |")
    p()

    p("### Horizontal and vertical passes apart (one level forward, Table IV's case)")
    p()
    table = [l for l in section(bench, "Horizontal and vertical pass") if l.startswith("|")]
    p("\n".join(table))
    p()

    p("### Small transforms against their floor (1920x1080, three levels)")
    p()
    p("The floor: the same levels' bytes moved by one copy kernel per level, dependent launches")
    p("in a CUDA graph, timed the same way (`dwt-bench/floor/floor.cu`): what launching and")
    p("draining three kernels costs before any lifting.")
    p()
    p("| program | type | floor | forward | over the floor | inverse | over the floor |")
    p("|---|---|---|---|---|---|---|")
    over = []
    for name in programs:
        f = rows.get((name, "1920x1080", 3, "fwd", "src->dst"))
        i = rows.get((name, "1920x1080", 3, "inv", "src->dst"))
        if f is None or i is None:
            continue
        fl = floor.get(("1920x1080", f.ty, 3))
        if fl is None:
            continue
        fus, ius = f.ms * 1000, i.ms * 1000
        over += [fus - fl, ius - fl]
        p(f"| {NAMES.get(name, name)} | {f.ty} | {fl:.1f} us | {fus:.1f} us | {fus - fl:+.1f} us | {ius:.1f} us | {ius - fl:+.1f} us |")
    p()

    p("### Kernel compile time per plan (NVRTC)")
    p()
    compile_rows = [l for l in section(bench, "First transform of each module") if l.startswith("| ") and " ms |" in l]
    firsts = [float(l.split("|")[2].split()[0]) for l in compile_rows]
    warms = [float(l.split("|")[3].split()[0]) for l in compile_rows]
    cold = min(firsts) >= 50  # a disk-cache hit costs a few ms, an NVRTC compile hundreds
    how = ("NVRTC compiling every kernel: the run's disk cache was empty" if cold else
           "the kernels read from the disk cache, which the call's GPU tests had filled")
    p(f"The first transform of each of {len(firsts)} modules (emission, {how}, module load and the")
    p(f"run): {min(firsts):.0f}-{max(firsts):.0f} ms; warm, the same call {min(warms):.2f}-{max(warms):.2f} ms. A")
    p("plan whose kernels are in the disk cache compiles nothing (`PrepareReport`). The full table is")
    p(f"in the run's `dwt-bench.md`.")
    p()

    p("### Where the targets stand")
    p()
    large = [(name, d, rows[(name, "8192x8192", 1, d, "src->dst")].share)
             for name in programs for d in ["fwd", "inv"] if (name, "8192x8192", 1, d, "src->dst") in rows]
    low = min(large, key=lambda x: x[2])
    under = [x for x in large if x[2] < SHARE_TARGET]
    p(f"- **8192x8192, one level, at least {SHARE_TARGET:.0f}% of copy:** {len(large) - len(under)} of "
      f"{len(large)} cases; the lowest {NAMES.get(low[0], low[0])} {low[1]} at {low[2]:.1f}%"
      + (". Under: " + ", ".join(f"{NAMES.get(n, n)} {d} {s:.1f}%" for n, d, s in under) if under else "."))
    comparisons = [(name, pw, size, d, who) for name, pw in PEER_WAVELET.items() for size in SIZES
                   for d in ["fwd", "inv"] for who in PEERS]
    comparisons += [(name, pw, size, d, "ptwt") for name, pw, size in VOLUMES for d in ["fwd", "inv"]]
    misses = []
    cases = 0
    for name, pw, size, d, who in comparisons:
        r, theirs = rows.get((name, size, 3, d, "src->dst")), peer.get((who, pw, size, 3, d))
        if r is None or theirs is None:
            continue
        cases += 1
        ratio = theirs[0] / r.ms
        if ratio < PEER_TARGET:
            bound_ms = image_bytes(size, r.ty) / (copy * 1e9) * 1000
            misses.append(f"{NAMES.get(name, name)} {size} {d} over {who} {ratio:.1f}x (a copy of "
                          f"the image at {copy} GB/s would be {theirs[0] / bound_ms:.1f}x)")
    p(f"- **Three levels, at least {PEER_TARGET:.0f}x over each peer:** {cases - len(misses)} of {cases} "
      "comparisons (2-D and 3-D)" + (". Under: " + "; ".join(misses) + "." if misses else "."))
    if over:
        p(f"- **1920x1080, three levels, a few microseconds over the floor:** {min(over):+.1f} to "
          f"{max(over):+.1f} us over it (the table above).")


BEGIN, END = "<!-- summary.py ", "<!-- end summary.py -->"


def generated(folder, command):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(folder, command)
    return out.getvalue()


def marked(path):
    """(text before the section, its folder, its command, the section, text after) of `path`."""
    text = open(path).read()
    start = text.index(BEGIN)
    head_end = text.index("\n", start) + 1
    folder, command = text[start + len(BEGIN):head_end].rstrip().removesuffix("-->").rstrip().split(" | ", 1)
    end = text.index(END, head_end)
    return text[:head_end], folder, command, text[head_end:end], text[end:]


if __name__ == "__main__":
    args = sys.argv[1:]
    if len(args) == 2 and args[0] == "--check":
        _, folder, command, section_text, _ = marked(args[1])
        if section_text != generated(folder, command):
            sys.exit(f"{args[1]}: the section after `{BEGIN}{folder} | ...` is not what "
                     f"`python3 dwt-bench/summary.py --write {args[1]} {folder} '{command}'` writes")
        print(f"{args[1]}: the current numbers are {folder}'s")
    elif len(args) == 4 and args[0] == "--write":
        path, folder, command = args[1:]
        before, _, _, _, after = marked(path)
        before = before[:before.rindex(BEGIN)] + f"{BEGIN}{folder} | {command} -->\n"
        open(path, "w").write(before + generated(folder, command) + after)
    elif len(args) == 2 and not args[0].startswith("--"):
        main(*args)
    else:
        sys.exit(__doc__)

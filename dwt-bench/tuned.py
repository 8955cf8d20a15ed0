#!/usr/bin/env python3
"""The `--tuned` rows of a dwt-bench report against the default rows of the same run.

    python3 dwt-bench/tuned.py dwt-bench.md > compare-tuned.md

One markdown row per case: the default plan's src->dst median (and its fraction of the copy
bandwidth), the measuring planner's (`tuned src->dst`), their ratio and the configuration chosen.
"""
import sys


def rows(path):
    out = {}
    for line in open(path):
        c = [x.strip() for x in line.split("|")]
        if len(c) > 6 and c[3] in ("src->dst", "tuned src->dst"):
            # case -> variant -> (median, steps, fraction of copy)
            out.setdefault(c[1], {})[c[3]] = (c[5], c[4], c[-2])
    return out


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: tuned.py DWT_BENCH_MD")
    print("| case | default src->dst (% of copy) | tuned src->dst | tuned / default | chosen |")
    print("|---|---|---|---|---|")
    for case, v in rows(sys.argv[1]).items():
        if "tuned src->dst" not in v or "src->dst" not in v:
            continue
        default, tuned = v["src->dst"], v["tuned src->dst"]
        a, b = float(default[0].split()[0]), float(tuned[0].split()[0])
        chosen = tuned[1].split(": ", 1)[1] if ": " in tuned[1] else tuned[1]
        print(f"| {case} | {a:.3f} ms ({default[2]}) | {b:.3f} ms ({tuned[2]}) | {b / a:.2f} | {chosen} |")


if __name__ == "__main__":
    main()

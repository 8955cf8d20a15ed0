"""Compares dwt-bench reports of builds run side by side in one call (A/B): per src->dst case,
each build's medians over its runs, and each later build's fastest median over the first's.
Reports are found as `<folder>/<build>-*.md` (e.g. old-1.md, old-2.md, new-1.md, new-2.md).

    python3 dwt-bench/ab.py [--variant two-pass] <folder> old new [more builds...]

`--variant` compares another variant's rows (default src->dst; e.g. `two-pass`, which the
reports hold unless run with `--default-plan-only`).
"""
import glob
import sys

from report import cases


def medians(path, variant):
    """Case -> (median in ms, fraction of copy bandwidth) of a report's rows of `variant`."""
    return {case: (v[variant].ms, v[variant].of_copy) for case, v in cases(path).items() if variant in v}


def main(folder, builds, variant):
    runs = {b: [medians(f, variant) for f in sorted(glob.glob(f"{folder}/{b}-*.md"))] for b in builds}
    for b, reports in runs.items():
        if not reports:
            sys.exit(f"no {folder}/{b}-*.md")
    first = builds[0]
    print(f"| case | {' | '.join(builds)} | {' / '.join(builds[1:])} vs {first} | of copy ({builds[-1]}) |")
    print("|---" * (len(builds) + 3) + "|")
    for case in runs[first][0]:
        times = [[r[case][0] for r in runs[b] if case in r] for b in builds]
        if not all(times):
            continue
        ratios = " ".join(f"{min(t) / min(times[0]):.3f}" for t in times[1:])
        cells = " | ".join("/".join(f"{x:.4f}" for x in t) for t in times)
        print(f"| {case} | {cells} | {ratios} | {runs[builds[-1]][0][case][1]} |")


if __name__ == "__main__":
    args = sys.argv[1:]
    variant = "src->dst"
    if args[:1] == ["--variant"] and len(args) > 1:
        variant, args = args[1], args[2:]
    if len(args) < 3:
        sys.exit(__doc__)
    main(args[0], args[1:], variant)

#!/usr/bin/env python3
"""The `--tuned` rows of a dwt-bench report against the default rows of the same run.

    python3 dwt-bench/tuned.py dwt-bench.md > compare-tuned.md

One markdown row per case: the default plan's src->dst median (and its fraction of the copy
bandwidth), the measuring planner's (`tuned src->dst`), their ratio and the configuration chosen.
"""
import sys

from report import cases


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: tuned.py DWT_BENCH_MD")
    print("| case | default src->dst (% of copy) | tuned src->dst | tuned / default | chosen |")
    print("|---|---|---|---|---|")
    for case, v in cases(sys.argv[1]).items():
        if "tuned src->dst" not in v or "src->dst" not in v:
            continue
        default, tuned = v["src->dst"], v["tuned src->dst"]
        chosen = tuned.steps.split(": ", 1)[1] if ": " in tuned.steps else tuned.steps
        print(
            f"| {case} | {default.ms:.4f} ms ({default.of_copy}) | {tuned.ms:.4f} ms ({tuned.of_copy}) "
            f"| {tuned.ms / default.ms:.2f} | {chosen} |"
        )


if __name__ == "__main__":
    main()

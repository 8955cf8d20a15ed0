"""Median of chosen metrics per (kernel, grid) from `ncu --csv --page raw` output (which may be
preceded by the profiled program's own output).

Usage: python3 ncu_summary.py ncu.csv [metric ...]
"""
import csv
import statistics
import sys
from collections import defaultdict

DEFAULT = ["gpu__time_duration.sum", "sm__cycles_active.avg", "gpc__cycles_elapsed.max",
           "sm__warps_active.avg.pct_of_peak_sustained_active", "dram__bytes_read.sum",
           "dram__bytes_write.sum", "launch__registers_per_thread",
           "launch__occupancy_limit_registers", "launch__occupancy_limit_shared_mem",
           "launch__waves_per_multiprocessor"]
lines = open(sys.argv[1]).read().splitlines()
start = next(i for i, l in enumerate(lines) if l.startswith('"ID"'))
rows = list(csv.reader(lines[start:]))
head, units, data = rows[0], rows[1], rows[2:]
col = {name: i for i, name in enumerate(head)}
metrics = [m for m in (sys.argv[2:] or DEFAULT) if m in col]
groups = defaultdict(list)
for r in data:
    if len(r) == len(head):
        groups[(r[col["Kernel Name"]], r[col["Grid Size"]])].append(r)
print("| kernel | grid | launches | " + " | ".join(f"{m} ({units[col[m]]})" for m in metrics) + " |")
print("|---|---|---|" + "---|" * len(metrics))
for (name, grid), rs in sorted(groups.items()):
    def med(m):
        vals = []
        for r in rs:
            try:
                vals.append(float(r[col[m]].replace(",", "")))
            except ValueError:
                pass
        return f"{statistics.median(vals):.4g}" if vals else "-"
    print(f"| {name} | {grid} | {len(rs)} | " + " | ".join(med(m) for m in metrics) + " |")

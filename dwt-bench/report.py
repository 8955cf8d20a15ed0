"""Reads the case table of a dwt-bench report (markdown), for the scripts beside it."""
from collections import namedtuple

Row = namedtuple("Row", "ms steps of_copy")


def cases(path):
    """Case -> variant -> Row(median in ms, launches+copies cell, fraction of copy bandwidth).
    f64 rows (`dwt-bench --f64`, after the f32 rows of the same case) are cases of their own,
    named with ` f64` after the case."""
    out = {}
    for line in open(path):
        cells = [c.strip() for c in line.split("|")]
        if len(cells) > 10 and cells[5].endswith(" ms"):
            case = cells[1] + (" f64" if cells[2] == "f64" else "")
            out.setdefault(case, {})[cells[3]] = Row(float(cells[5].split()[0]), cells[4], cells[10])
    return out

"""Reads the case table of a dwt-bench report (markdown), for the scripts beside it."""
from collections import namedtuple

Row = namedtuple("Row", "ms steps of_copy")


def cases(path):
    """Case -> variant -> Row(median in ms, launches+copies cell, fraction of copy bandwidth).
    f64 rows (`dwt-bench --f64`, after the f32 rows of the same case) and i16 rows after i32
    rows of the same case (`--i16`) are cases of their own, named with ` f64` or ` i16` after
    the case."""
    out = {}
    i32_cases = set()
    for line in open(path):
        cells = [c.strip() for c in line.split("|")]
        if len(cells) > 10 and cells[5].endswith(" ms"):
            if cells[2] == "i32":
                i32_cases.add(cells[1])
            second = cells[2] == "f64" or (cells[2] == "i16" and cells[1] in i32_cases)
            case = cells[1] + (f" {cells[2]}" if second else "")
            out.setdefault(case, {})[cells[3]] = Row(float(cells[5].split()[0]), cells[4], cells[10])
    return out

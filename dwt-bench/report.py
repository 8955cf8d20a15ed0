"""Reads the case table of a dwt-bench report (markdown), for the scripts beside it."""
from collections import namedtuple

Row = namedtuple("Row", "ms steps of_copy")


def cases(path):
    """Case -> variant -> Row(median in ms, launches+copies cell, fraction of copy bandwidth)."""
    out = {}
    for line in open(path):
        cells = [c.strip() for c in line.split("|")]
        if len(cells) > 10 and cells[5].endswith(" ms"):
            out.setdefault(cells[1], {})[cells[3]] = Row(float(cells[5].split()[0]), cells[4], cells[10])
    return out

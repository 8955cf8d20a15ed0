"""Reorders each register segment of an emitted tile kernel into wavefront order: every
statement unit (a load `int X = ...;`, a step block `{ ... X = ...(X, acc >> s); }`, a store of a
register) is emitted as late as... (list scheduling by position: loads lazily, compute as early
as its inputs allow in order of the furthest index it reads). Usage: reorder.py IN OUT KERNEL"""
import re, sys

src, out, kernel = sys.argv[1:4]
lines = open(src).read().split('\n')
var = re.compile(r'\b([eo])(\d+)\b')

def units_of(body):
    units = []
    i = 0
    while i < len(body):
        l = body[i]
        s = l.strip()
        if s.startswith('{'):
            j = i
            depth = 0
            while True:
                depth += body[j].count('{') - body[j].count('}')
                if depth == 0:
                    break
                j += 1
            blk = body[i:j + 1]
            m = re.match(r'\s*([eo]\d+) = ', blk[-2])
            tgt = m.group(1)
            reads = set(''.join(v) for v in var.findall('\n'.join(blk)))
            units.append(('step', blk, tgt, reads))
            i = j + 1
        elif s.startswith('//'):
            i += 1
        else:
            m = re.match(r'\s*int ([eo]\d+) = ', l)
            if m:
                units.append(('load', [l], m.group(1), set()))
            else:
                refs = set(''.join(v) for v in var.findall(l))
                units.append(('store', [l], None, refs))
            i += 1
    return units

def pos(v, before):
    q = 0 if v[0] == 'e' else 1
    return 2 * (int(v[1:]) - before[q]) + q

def schedule(units, before):
    n = len(units)
    deps = [set() for _ in range(n)]
    last_w = {}
    readers = {}
    for i, (kind, _, tgt, reads) in enumerate(units):
        for r in reads:
            if r in last_w:
                deps[i].add(last_w[r])
        if tgt is not None:
            for r in readers.get(tgt, []):
                if r != i:
                    deps[i].add(r)
            if tgt in last_w:
                deps[i].add(last_w[tgt])
            last_w[tgt] = i
            readers[tgt] = []
        for r in reads:
            readers.setdefault(r, []).append(i)
    def key(i):
        kind, _, tgt, reads = units[i]
        vs = list(reads) + ([tgt] if tgt else [])
        p = max(pos(v, before) for v in vs)
        return (p, {'load': 0, 'step': 1, 'store': 2}[kind], i)
    done, order = set(), []
    # Compute/store units in key order, each pulling in its loads (and unscheduled deps) first.
    def emit(i):
        if i in done:
            return
        for d in sorted(deps[i], key=key):
            emit(d)
        done.add(i)
        order.append(i)
    for i in sorted(range(n), key=key):
        if units[i][0] != 'load':
            emit(i)
    for i in range(n):
        emit(i)
    return order

text_start = next(i for i, l in enumerate(lines) if kernel + '(' in l)
res = lines[:text_start]
i = text_start
halo = re.search(r'Halo per phase \(before, after\): even \((\d+), \d+\), odd \((\d+), \d+\)', '\n'.join(lines[max(0,text_start-12):text_start]))
before = (int(halo.group(1)), int(halo.group(2)))
count = 0
while i < len(lines):
    l = lines[i]
    if count < int(sys.argv[4]) and re.match(r"\s*int [eo]\d+ = ", l):
        j = i
        # the segment body runs to the line before the closing of its block: stop at a line
        # that is '}' at a lower indentation than the loads
        ind = len(l) - len(l.lstrip())
        while not (lines[j].strip() == '}' and len(lines[j]) - len(lines[j].lstrip()) < ind):
            j += 1
        body = lines[i:j]
        units = units_of(body)
        order = schedule(units, before)
        for k in order:
            res.extend(units[k][1])
        count += 1
        i = j
    else:
        res.append(l)
        i += 1
    if i < len(lines) and lines[i].startswith('}') and count and i > text_start and lines[i] == '}':
        res.extend(lines[i:])
        break
open(out, 'w').write('\n'.join(res))
print(f"{count} segments reordered", file=sys.stderr)

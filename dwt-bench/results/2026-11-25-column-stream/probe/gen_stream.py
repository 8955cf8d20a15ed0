# Probe (scratch): a module's tile kernel (as emitted, and over its interior tiles: _a) with the
# column-stream probe (its `#include "stream_*.cuh"` lines written in place) and its harness.
# usage: gen_stream.py OUT MODULE.cu PROBE.cu
import os, re, sys
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, '..', '..', '2026-11-25-taller-tiles', 'surgery'))
from tile_kernel import tile_kernel, inner_tiles
out, mod, probe = sys.argv[1:4]
s = open(mod).read()
body, name, bounds, forward, tx, ty = tile_kernel(s)
threads = int(bounds.split(',')[0])
a, ix, iy = inner_tiles(body, name)
h = open(os.path.join(here, 'harness_stream.cu')).read()
h = h.replace('CALLIN', '(in, o, o,' if forward else '(o, in, in,').replace('BASE', name).replace('TX', str(tx)).replace('TY', str(ty)).replace('THREADS', str(threads))
h = h.replace('IXA', ix.group(1)).replace('IXB', ix.group(2)).replace('IXN', '0' if ix.group(3) == 'nx0' else '1')
h = h.replace('IYA', iy.group(1)).replace('IYB', iy.group(2)).replace('IYN', '0' if iy.group(3) == 'ny0' else '1')
p = re.sub(r'#include "(stream_\w+\.cuh)"\n', lambda m: open(os.path.join(here, m.group(1))).read(), open(probe).read())
open(out, 'w').write(s + '\n' + a + '\n' + p + '\n' + h)

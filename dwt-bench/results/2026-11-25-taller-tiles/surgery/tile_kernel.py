# The fused tile kernel of an emitted CUDA module, for the surgery scripts of the results
# folders (this one's gen_variants.py, ../../2026-11-25-grouped-taps/dynamic-smem/gen.py,
# ../../2026-11-25-edge-taps/inner-only/gen_inner.py,
# ../../2026-11-25-column-stream/probe/gen_stream.py, and the earlier pair-copies/i8/gen8.py,
# register-cap-guard/direct-store/gen_inv.py and store-hints/gen_cs.py, which held copies).
import re

def tile_kernel(s):
    """The module text `s`'s tile kernel: (its text from `extern "C"` to its closing brace,
    its name, its launch bounds as written, whether it is a forward, its tile's polyphase
    indices along x and y)."""
    m = re.search(r'extern "C" __global__ void __launch_bounds__\(([^)]*)\)\n(\w+_(forward|inverse)_\w+_tile)\(', s)
    start = m.start()
    i = s.index('{', m.end()); depth = 0
    for j in range(i, len(s)):
        if s[j] == '{': depth += 1
        elif s[j] == '}':
            depth -= 1
            if depth == 0: break
    tx, ty = map(int, re.search(r'tile of (\d+)x(\d+) polyphase', s[s.rfind('// Fused 2-D pass', 0, start):start]).groups())
    return s[start:j + 1], m.group(2), m.group(1), m.group(3) == 'forward', tx, ty

def inner_tiles(body, name):
    """The tile kernel `body` (named `name`) launched over its interior tiles only: the text of
    `name`_a, which takes `bx_lo, by_lo` after the emitted arguments and adds them to its group
    index, and the matches of its inner-tile conditions along x and y (groups: first index,
    reach past the tile, the phase's extent)."""
    ix = re.search(r'const int inner_x = mx0 >= (\d+) && mx0 \+ (\d+) <= (nx[01]);', body)
    iy = re.search(r'const int inner_y = my0 >= (\d+) && my0 \+ (\d+) <= (ny[01]);', body)
    a = body.replace('(int)blockIdx.x', '((int)blockIdx.x + bx_lo)').replace('(int)blockIdx.y', '((int)blockIdx.y + by_lo)')
    a = a.replace('const int high_row_step)', 'const int high_row_step, const int bx_lo, const int by_lo)', 1)
    assert a.count('bx_lo') == 2, 'signature'
    return a.replace(name + '(', name + '_a(', 1), ix, iy

def probe_harness(path):
    """The probe harness at `path` with its `#include "harness_setup.cuh"` line replaced by that
    file's setup (beside this one), as nvcc will compile it with the kernels."""
    import os
    setup = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'harness_setup.cuh')).read()
    setup = ''.join(l for l in setup.splitlines(True) if not l.startswith('//'))
    return open(path).read().replace('#include "harness_setup.cuh"\n', setup, 1)

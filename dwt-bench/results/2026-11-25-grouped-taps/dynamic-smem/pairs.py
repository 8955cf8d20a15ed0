# Probe (scratch): each integer lifting block of a module written with its symmetric taps
# paired (C*(a+b) instead of C*a + C*b). usage: pairs.py IN OUT
import re, sys
src = open(sys.argv[1]).read()
pat = re.compile(r'( *)int acc = (-?\d+);\n((?:\1acc = wrap_(?:add|sub)\(acc, wrap_mul\(\d+, [^\n]*\)\);\n)+)')
term = re.compile(r'acc = wrap_(add|sub)\(acc, wrap_mul\((\d+), (.*)\)\);$')
n = 0
def repl(m):
    global n
    ind, init, body = m.group(1), m.group(2), m.group(3)
    groups = {}
    for line in body.strip('\n').split('\n'):
        t = term.search(line.strip())
        groups.setdefault((t.group(1), t.group(2)), []).append(t.group(3))
    out = f'{ind}int acc = {init};\n'
    for (op, c), vs in groups.items():
        s = vs[0]
        for v in vs[1:]: s = f'wrap_add({s}, {v})'
        out += f'{ind}acc = wrap_{op}(acc, wrap_mul({c}, {s}));\n'
    n += 1
    return out
dst = pat.sub(repl, src)
print(n, 'blocks paired', file=sys.stderr)
open(sys.argv[2], 'w').write(dst)

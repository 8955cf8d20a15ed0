# Experiment: the tile kernel with its edge tiles' branch removed (inner tiles only; wrong at edges), to see registers.
import re, sys
src = open(sys.argv[1]).read()
out = []
i = src.find('_tile(')
# find "if (inner_x && inner_y) {" inside the tile kernel, then its else block
k = src.find('    if (inner_x && inner_y) {', i)
assert k > 0
# brace-match the if block
j = src.find('{', k) + 1; d = 1
while d:
    d += src[j] == '{'; d -= src[j] == '}'; j += 1
rest = src[j:]
m = re.match(r'\s*else \{', rest)
assert m, rest[:80]
e = j + m.end(); d = 1
while d:
    d += src[e] == '{'; d -= src[e] == '}'; e += 1
open(sys.argv[2], 'w').write(src[:j] + src[e:])

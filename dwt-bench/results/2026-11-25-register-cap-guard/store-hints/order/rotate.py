# Rotates the order in which a surgery harness (../../direct-store/harness_inv.cu, as appended
# by gen_cs.py) times its three kernels: in repetition r the first timed after the device copy
# is variant r % 3. Usage: python3 rotate.py x_NAME.cu (rewrites the file in place).
import sys
f = sys.argv[1]; s = open(f).read()
old = '''        for (int v = 0; v < 3; ++v) {
            CK(cudaEventRecord(e0)); run(ks[v], a);'''
new = '''        for (int vv = 0; vv < 3; ++vv) {
            const int v = (vv + r) % 3;  // each variant first after the copy in a third of the reps
            CK(cudaEventRecord(e0)); run(ks[v], a);'''
assert old in s
open(f, 'w').write(s.replace(old, new))

# The forms of reflect() built for the A/B in inverse-ab/ (C, D, E): rewrites emit.rs::reflection at 077b1c0.
# python3 reflection-variants.py D; cargo build --release -p dwt-bench
import sys
p = 'backends/dwt-emit-c/src/emit.rs'
s = open(p).read()
old = '''    w.line("const int period = 2 * (n - 1);");
    w.line("int r = (2 * m + q) % period;");
    w.line("r = r < 0 ? r + period : r;");
    w.line("r = r > n - 1 ? period - r : r;");
    w.line("return (r - q) / 2;");'''
assert old in s
new = {
'C': '''    w.line("int r = 2 * m + q;");
    w.line("r = r < 0 ? -r : r;");
    w.line("r = r > n - 1 ? 2 * (n - 1) - r : r;");
    w.line("if (r < 0) {");
    w.line("const int period = 2 * (n - 1);");
    w.line("r = (2 * m + q) % period;");
    w.line("r = r < 0 ? r + period : r;");
    w.line("r = r > n - 1 ? period - r : r;");
    w.line("}");
    w.line("return (r - q) / 2;");''',
'D': '''    w.line("const unsigned int period = 2 * (n - 1);");
    w.line("const int s = 2 * m + q;");
    w.line("int r = (int)((unsigned int)(s < 0 ? -s : s) % period);");
    w.line("r = r > n - 1 ? (int)period - r : r;");
    w.line("return (r - q) >> 1;");''',
'E': '''    w.line("int r = 2 * m + q;");
    w.line("r = r < 0 ? -r : r;");
    w.line("r = r > n - 1 ? 2 * (n - 1) - r : r;");
    w.line("while (r < 0 || r > n - 1) {");
    w.line("r = r < 0 ? -r : r;");
    w.line("r = r > n - 1 ? 2 * (n - 1) - r : r;");
    w.line("}");
    w.line("return (r - q) / 2;");''',
}[sys.argv[1]]
open(p, 'w').write(s.replace(old, new))

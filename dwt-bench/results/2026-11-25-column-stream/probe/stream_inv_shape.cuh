// The inverse probes' shared-memory shape (gen_stream.py writes this in place of its #include):
// EL even x-phase column lines and LINES in all (the strip's own with their halos), the pitches
// of the lifted rows (INP, odd: no bank conflicts along a column) and of the rows that leave
// (OUTP), and the work-items of the pass along x.
#define STREAM_KERNEL stream_inverse
#define EL (SW + 14)
#define LINES (2 * SW + 21)
#define INP (((LINES + 31) / 32) * 32 + 1)
#define OUTP (2 * SW + 4)
#define XITEMS (2 * SR * (SW / SS))

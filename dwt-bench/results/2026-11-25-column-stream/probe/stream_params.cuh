// Shared by the column-stream probes (gen_stream.py writes it in place of its #include): their
// shape, each settable by -D (polyphase columns a strip, rows per phase a chunk and a strip,
// indices per segment along x, groups a multiprocessor for the launch bounds), and Fidelity's
// two lifting steps over a window `a` from index `i`.
#ifndef SW
#define SW 112
#endif
#ifndef SR
#define SR 8
#endif
#ifndef SH
#define SH 128
#endif
#ifndef SS
#define SS 8
#endif
#ifndef SB
#define SB 4
#endif
// The step on odd from even[-3..4]: the inverse adds it (odd += ...), the forward subtracts it.
#define STEP_A(a, i) ((128 - 2 * ((a)[(i)] + (a)[(i) + 7]) + 10 * ((a)[(i) + 1] + (a)[(i) + 6]) - 25 * ((a)[(i) + 2] + (a)[(i) + 5]) + 81 * ((a)[(i) + 3] + (a)[(i) + 4])) >> 8)
// The step on even from odd[-4..3]: the inverse subtracts it (even -= ...), the forward adds it.
#define STEP_B(a, i) ((128 - 8 * ((a)[(i)] + (a)[(i) + 7]) + 21 * ((a)[(i) + 1] + (a)[(i) + 6]) - 46 * ((a)[(i) + 2] + (a)[(i) + 5]) + 161 * ((a)[(i) + 3] + (a)[(i) + 4])) >> 8)

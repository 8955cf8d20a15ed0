// The inverse probes' column line (gen_stream.py writes this in place of its #include): which
// line this work-item lifts along y, where its two row phases are read, its register windows, and
// their prologue, which lifts the odd rows [my0 - 4, my0 + 3) once and loads the first chunk.
    // This work-item's column line: even x-phase lines [mx0 - 7, mx0 + SW + 7), odd [mx0 - 4, mx0 + SW + 3).
    const bool liner = tid < LINES;
    const int px = tid >= EL;
    const int mx = px ? mx0 - 4 + (tid - EL) : mx0 - 7 + tid;
    const int* esrc = src + (px ? nx0 : 0) + mx;
    const int* osrc = src + ny0 * cols + (px ? nx0 : 0) + mx;
    int E[SR + 7], OA[SR + 7], NE[SR], NO[SR];
    if (liner) {
        int P[14];
        #pragma unroll
        for (int k = 0; k < 14; ++k) P[k] = esrc[(my0 - 7 + k) * cols];
        #pragma unroll
        for (int k = 0; k < 7; ++k) OA[k] = osrc[(my0 - 4 + k) * cols];
        #pragma unroll
        for (int k = 0; k < 7; ++k) OA[k] += STEP_A(P, k);
        #pragma unroll
        for (int k = 0; k < 7; ++k) E[k] = P[7 + k];
        #pragma unroll
        for (int i = 0; i < SR; ++i) { NE[i] = esrc[(my0 + 7 + i) * cols]; NO[i] = osrc[(my0 + 3 + i) * cols]; }
    }

// The strip a group lifts, (mx0, my0) its first polyphase column and row (gen_stream.py writes
// this in place of its #include, inside each kernel, which closes the brace it opens): its own
// group's, or with PERSIST the group takes strips (units) in turn, as many groups as fit at once.
#ifdef PERSIST
    for (int u = (int)blockIdx.x; u < units; u += (int)gridDim.x) {
    const int mx0 = (u % sx + bx_lo) * SW;
    const int my0 = (u / sx + by_lo) * SH;
#else
    {
    const int mx0 = ((int)blockIdx.x + bx_lo) * SW;
    const int my0 = ((int)blockIdx.y + by_lo) * SH;
#endif
